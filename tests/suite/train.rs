//! Gradients (`shapecast::train`) against PyTorch autograd (`tests/data/torch_grads.jsonl`,
//! written by `scripts/gen_grad_cases.py`: every operator under five broadcast patterns by
//! name, including size-1 axes decided at run time; the math; reductions and softmaxes over
//! named axes; contractions with batch, shared and transposed weights; cross-entropy with
//! every option), in `f64` (1e-10) and `f32` (1e-5 relative), and against central finite
//! differences in `f64`; then the tape's and the optimizers' behaviour, the optimizers step
//! for step against `torch.optim` (`tests/data/torch_optim.jsonl`).
#![allow(clippy::type_complexity)]

use serde_json::Value;
use shapecast::prelude::*;
use shapecast::train::{Param, Tape, Trainable, Var, VarDot};

names!(A, B, C, K, N, M, H, T, S, L, W, CLASS);

/// The elements the cases run in.
pub(super) trait Elem: Trainable {
    fn of(x: f64) -> Self;
    fn to(self) -> f64;
    /// The relative tolerance against PyTorch's `f64` values.
    const TOL: f64;
}
impl Elem for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn to(self) -> f64 {
        self
    }
    const TOL: f64 = 1e-10;
}
impl Elem for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn to(self) -> f64 {
        f64::from(self)
    }
    const TOL: f64 = 1e-5;
}

/// The seed over an output of shape `O`, by axis name (the generator's formula).
pub(super) fn seed<E: Elem, O: shapecast::Storage<E>>(sizes: &[usize]) -> Tensor<E, O> {
    let c = |name: &str| match name {
        "A" => 0.7,
        "B" => 1.3,
        "C" => 0.45,
        "K" => 0.9,
        "N" => 1.7,
        "M" => 0.55,
        "H" => 1.1,
        "T" => 0.35,
        "S" => 0.8,
        "L" => 1.9,
        "W" => 0.33,
        _ => 0.6,
    };
    Tensor::from_fn(sizes, |i| {
        let names = <O as Shape>::NAMES;
        E::of(
            (0.3 + i
                .iter()
                .zip(names)
                .enumerate()
                // An unnamed axis (the other rules' cases) is seeded by its position.
                .map(|(at, (&k, n))| c(n.unwrap_or_else(|| ["A", "B", "C"][at])) * k as f64)
                .sum::<f64>())
            .sin(),
        )
    })
    .unwrap()
}

pub(super) fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

pub(super) fn sizes(case: &Value, k: usize) -> Vec<usize> {
    case["sizes"][k]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

/// Operand `k` of a case as a parameter of shape `X`.
pub(super) fn operand<E: Elem, X: shapecast::Storage<E>>(case: &Value, k: usize) -> Param<E, X> {
    let data = floats(&case["data"][k]).into_iter().map(E::of).collect();
    Param::new(
        format!("x{k}"),
        Tensor::from_vec_sized(&sizes(case, k), data).unwrap(),
    )
}

pub(super) fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against PyTorch's {want}"
    );
}

/// The output's loss and each parameter's gradient against the case's.
pub(super) fn compare<E: Elem, O: shapecast::Storage<E>>(
    case: &Value,
    out: &Var<E, O>,
    grads: &[Vec<E>],
) {
    let what = format!("{} {}", case["op"], case["pattern"]);
    let s = seed::<E, O>(out.sizes());
    let loss: f64 = out
        .value()
        .data()
        .iter()
        .zip(s.data())
        .map(|(&o, &s)| o.to() * s.to())
        .sum();
    close(
        loss,
        case["loss"].as_f64().unwrap(),
        E::TOL,
        &format!("{what} loss"),
    );
    for (k, g) in grads.iter().enumerate() {
        let want = floats(&case["grads"][k]);
        assert_eq!(g.len(), want.len(), "{what}: gradient {k}'s length");
        for (i, (&g, &w)) in g.iter().zip(&want).enumerate() {
            close(g.to(), w, E::TOL, &format!("{what}: gradient {k} at {i}"));
        }
    }
}

/// Runs a two-operand case through `f` with operands of shapes `X` and `Y`.
pub(super) fn two<E: Elem, X, Y, O>(case: &Value, f: impl Fn(&Var<E, X>, &Var<E, Y>) -> Var<E, O>)
where
    X: shapecast::Storage<E>,
    Y: shapecast::Storage<E>,
    O: shapecast::Storage<E>,
{
    let (a, b) = (operand::<E, X>(case, 0), operand::<E, Y>(case, 1));
    let tape = Tape::new();
    let out = f(&tape.watch(&a), &tape.watch(&b));
    let grads = out.backward_with(&seed::<E, O>(out.sizes())).unwrap();
    let (ga, gb) = (grads.of(&a).unwrap(), grads.of(&b).unwrap());
    compare(case, &out, &[ga.data().to_vec(), gb.data().to_vec()]);
}

/// Runs a one-operand case through `f`.
pub(super) fn one<E: Elem, X, O>(case: &Value, f: impl Fn(&Var<E, X>) -> Var<E, O>)
where
    X: shapecast::Storage<E>,
    O: shapecast::Storage<E>,
{
    let a = operand::<E, X>(case, 0);
    let tape = Tape::new();
    let out = f(&tape.watch(&a));
    let grads = out.backward_with(&seed::<E, O>(out.sizes())).unwrap();
    compare(case, &out, &[grads.of(&a).unwrap().data().to_vec()]);
}

pub(super) type Abc = shape![A, B, C];

fn binary<E: Elem>(case: &Value) {
    macro_rules! by_pattern {
        ($op:tt) => {
            match case["pattern"].as_str().unwrap() {
                "same" | "ones" => two::<E, Abc, Abc, _>(case, |a, b| a $op b),
                "trailing" => two::<E, Abc, shape![C], _>(case, |a, b| a $op b),
                "transposed" => two::<E, Abc, shape![C, B], _>(case, |a, b| a $op b),
                "left_smaller" => two::<E, shape![B], shape![A, B], _>(case, |a, b| a $op b),
                p => panic!("pattern {p}"),
            }
        };
    }
    match case["op"].as_str().unwrap() {
        "add" => by_pattern!(+),
        "sub" => by_pattern!(-),
        "mul" => by_pattern!(*),
        "div" => by_pattern!(/),
        op => panic!("op {op}"),
    }
}

fn unary<E: Elem>(case: &Value) -> bool {
    type Ab = shape![A, B];
    let f: fn(&Var<E, Ab>) -> Var<E, Ab> = match case["op"].as_str().unwrap() {
        "exp" => |x| x.exp(),
        "ln" => |x| x.ln(),
        "sqrt" => |x| x.sqrt(),
        "tanh" => |x| x.tanh(),
        "sigmoid" => |x| x.sigmoid(),
        "relu" => |x| x.relu(),
        "silu" => |x| x.silu(),
        "gelu" => |x| x.gelu(),
        "gelu_erf" => |x| x.gelu_erf(),
        "powi3" => |x| x.powi(3),
        "square" => |x| x.square(),
        "abs" => |x| x.abs(),
        "recip" => |x| x.recip(),
        _ => return false,
    };
    one::<E, Ab, Ab>(case, f);
    true
}

fn reduction<E: Elem>(case: &Value) -> bool {
    match case["op"].as_str().unwrap() {
        "sum_b" => one::<E, Abc, _>(case, |x| x.sum::<B>()),
        "sum_ac" => one::<E, Abc, _>(case, |x| x.sum::<(A, C)>()),
        "mean_b" => one::<E, Abc, _>(case, |x| x.mean::<B>()),
        "mean_ac" => one::<E, Abc, _>(case, |x| x.mean::<(A, C)>()),
        "logsumexp_c" => one::<E, Abc, _>(case, |x| x.logsumexp::<C>()),
        "softmax_b" => one::<E, Abc, _>(case, |x| x.softmax::<B>()),
        "softmax_c" => one::<E, Abc, _>(case, |x| x.softmax::<C>()),
        "log_softmax_b" => one::<E, Abc, _>(case, |x| x.log_softmax::<B>()),
        "log_softmax_c" => one::<E, Abc, _>(case, |x| x.log_softmax::<C>()),
        "max_b" => one::<E, Abc, _>(case, |x| x.max::<B>().unwrap()),
        "min_ac" => one::<E, Abc, _>(case, |x| x.min::<(A, C)>().unwrap()),
        "var_c" => one::<E, Abc, _>(case, |x| x.var::<C>(0)),
        "var1_b" => one::<E, Abc, _>(case, |x| x.var::<B>(1)),
        "std_ac" => one::<E, Abc, _>(case, |x| x.std::<(A, C)>(0)),
        _ => return false,
    }
    true
}

fn contraction<E: Elem>(case: &Value) -> bool {
    match (
        case["op"].as_str().unwrap(),
        case["pattern"].as_str().unwrap(),
    ) {
        ("dot", "ak_kn") => two::<E, shape![A, K], shape![K, N], _>(case, |a, b| a.dot::<K>(b)),
        ("dot", "ak_nk") => two::<E, shape![A, K], shape![N, K], _>(case, |a, b| a.dot::<K>(b)),
        ("dot", "bmk_bkn") => {
            two::<E, shape![B, M, K], shape![B, K, N], _>(case, |a, b| a.dot::<K>(b))
        }
        ("dot", "bmk_kn") => two::<E, shape![B, M, K], shape![K, N], _>(case, |a, b| a.dot::<K>(b)),
        ("dot", "htd_hsd") => {
            two::<E, shape![H, T, C], shape![H, S, C], _>(case, |a, b| a.dot::<C>(b))
        }
        ("dot", "akl_kln") => {
            two::<E, shape![A, K, L], shape![K, L, N], _>(case, |a, b| a.dot::<(K, L)>(b))
        }
        ("matmul", _) => two::<E, shape![B, M, K], shape![K, N], _>(case, |a, b| {
            let y: Var<E, shape![B, M, N]> = a.matmul(b);
            y
        }),
        _ => return false,
    }
    true
}

fn loss<E: Elem>(case: &Value) -> bool {
    if case["op"] != "cross_entropy" {
        return false;
    }
    let targets: Vec<i64> = case["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let weight: Option<Vec<E>> = case["weight"]
        .as_array()
        .map(|w| w.iter().map(|x| E::of(x.as_f64().unwrap())).collect());
    let mut opts = Loss::default();
    opts.weight = weight.as_deref();
    opts.label_smoothing = case["smoothing"].as_f64().unwrap();
    opts.ignore_index = case["ignore"].as_i64();
    let reduction = if case["reduction"] == "mean" {
        Reduction::Mean
    } else {
        Reduction::Sum
    };
    let sizes = sizes(case, 0);
    let tape = Tape::new();
    let (got, grad, want_loss) = if sizes.len() == 2 {
        let x = operand::<E, shape![N, CLASS]>(case, 0);
        let t = Tensor::<i64, shape![N]>::from_vec_sized(&sizes[..1], targets).unwrap();
        let l = tape
            .watch(&x)
            .cross_entropy::<CLASS>(&t, &opts, reduction)
            .unwrap();
        (
            l.value().data()[0],
            l.backward().unwrap().of(&x).unwrap().into_vec(),
            case["loss"].as_f64().unwrap(),
        )
    } else {
        let x = operand::<E, shape![N, CLASS, H]>(case, 0);
        let t =
            Tensor::<i64, shape![N, H]>::from_vec_sized(&[sizes[0], sizes[2]], targets).unwrap();
        let l = tape
            .watch(&x)
            .cross_entropy::<CLASS>(&t, &opts, reduction)
            .unwrap();
        (
            l.value().data()[0],
            l.backward().unwrap().of(&x).unwrap().into_vec(),
            case["loss"].as_f64().unwrap(),
        )
    };
    close(got.to(), want_loss, E::TOL, "cross_entropy loss");
    for (i, (&g, w)) in grad.iter().zip(floats(&case["grads"][0])).enumerate() {
        close(
            g.to(),
            w,
            E::TOL,
            &format!("cross_entropy gradient at {i} ({case})"),
        );
    }
    true
}

/// A case's indices (none when it has no `indices`).
pub(super) fn indices(case: &Value) -> Vec<i64> {
    case["indices"].as_array().map_or(Vec::new(), |v| {
        v.iter().map(|i| i.as_i64().unwrap()).collect()
    })
}

fn surgery<E: Elem>(case: &Value) -> bool {
    let indices = indices(case);
    let idx = Tensor::<i64, shape![N]>::from_vec_sized(&[indices.len()], indices).unwrap();
    match (
        case["op"].as_str().unwrap(),
        case["pattern"].as_str().unwrap(),
    ) {
        ("take", "rows") => one::<E, shape![A, C], _>(case, |x| x.take::<A, _>(&idx).unwrap()),
        ("take", "middle") => one::<E, Abc, _>(case, |x| x.take::<B, _>(&idx).unwrap()),
        ("select", _) => one::<E, Abc, _>(case, |x| x.select::<B>(1).unwrap()),
        ("align_to", _) => one::<E, Abc, _>(case, |x| x.align_to::<shape![C, A, B]>().unwrap()),
        ("concat", _) => two::<E, Abc, Abc, _>(case, |x, y| x.concat::<B, _>(y).unwrap()),
        ("step", _) => one::<E, Abc, _>(case, |x| x.step::<B>(2).unwrap()),
        ("merge_axes", _) => {
            one::<E, Abc, shape![A, K]>(case, |x| x.merge_axes::<(B, C), K>().unwrap())
        }
        ("split_axis", _) => one::<E, shape![A, K], shape![A, B: 2, C]>(case, |x| {
            x.split_axis::<K, shape![B: 2, C]>().unwrap()
        }),
        ("pad", mode) => {
            let mode = match mode {
                "constant" => PadMode::Constant(E::of(0.5)),
                "reflect" => PadMode::Reflect,
                _ => PadMode::Replicate,
            };
            one::<E, Abc, _>(case, |x| x.pad::<(B, C), Pad<2>>(&mode).unwrap())
        }
        ("slice", _) => one::<E, Abc, _>(case, |x| x.slice::<B>(1..3).unwrap()),
        _ => return false,
    }
    true
}

fn windows<E: Elem>(case: &Value) -> bool {
    type Img = shape![N, C, H, W];
    type Kernel = shape![K, C, H, W];
    match (
        case["op"].as_str().unwrap(),
        case["pattern"].as_str().unwrap(),
    ) {
        ("conv", "s1p1") => two::<E, Img, Kernel, _>(case, |x, w| x.conv::<C, Conv<1, 1>>(w)),
        ("conv", "s2p1") => two::<E, Img, Kernel, _>(case, |x, w| x.conv::<C, Conv<2, 1>>(w)),
        ("conv", "d2p2") => two::<E, Img, Kernel, _>(case, |x, w| x.conv::<C, Conv<1, 2, 2>>(w)),
        ("conv", "g2") => two::<E, Img, Kernel, _>(case, |x, w| x.conv::<C, Conv<1, 1, 1, 2>>(w)),
        ("conv", "t_s2") => {
            two::<E, shape![N, C, T], shape![K, C, T], _>(case, |x, w| x.conv::<C, Conv<2>>(w))
        }
        ("pool", "max2") => one::<E, Img, _>(case, |x| x.max_pool::<(H, W), Pool<2>>().unwrap()),
        ("pool", "max3s2p1") => {
            one::<E, Img, _>(case, |x| x.max_pool::<(H, W), Pool<3, 2, 1>>().unwrap())
        }
        ("pool", "max2ceil") => one::<E, Img, _>(case, |x| {
            x.max_pool::<(H, W), Pool<2, 2, 0, true>>().unwrap()
        }),
        ("pool", "avg3s2p1") => {
            one::<E, Img, _>(case, |x| x.avg_pool::<(H, W), Pool<3, 2, 1>>().unwrap())
        }
        ("pool", "max_h3s2p1") => {
            one::<E, Img, _>(case, |x| x.max_pool::<H, Pool<3, 2, 1>>().unwrap())
        }
        ("pool", "max_ch2") => one::<E, Img, _>(case, |x| x.max_pool::<(C, H), Pool<2>>().unwrap()),
        ("pool", "avg2ceil") => one::<E, Img, _>(case, |x| {
            x.avg_pool::<(H, W), Pool<2, 2, 0, true>>().unwrap()
        }),
        _ => return false,
    }
    true
}

/// Runs a three-operand case (input, weight, bias) through `f`.
pub(super) fn three<E: Elem, X, Y, O>(
    case: &Value,
    f: impl Fn(&Var<E, X>, &Var<E, Y>, &Var<E, Y>) -> Var<E, O>,
) where
    X: shapecast::Storage<E>,
    Y: shapecast::Storage<E>,
    O: shapecast::Storage<E>,
{
    let (a, b, c) = (
        operand::<E, X>(case, 0),
        operand::<E, Y>(case, 1),
        operand::<E, Y>(case, 2),
    );
    let tape = Tape::new();
    let out = f(&tape.watch(&a), &tape.watch(&b), &tape.watch(&c));
    let grads = out.backward_with(&seed::<E, O>(out.sizes())).unwrap();
    let (ga, gb, gc) = (
        grads.of(&a).unwrap(),
        grads.of(&b).unwrap(),
        grads.of(&c).unwrap(),
    );
    compare(
        case,
        &out,
        &[ga.data().to_vec(), gb.data().to_vec(), gc.data().to_vec()],
    );
}

fn norms<E: Elem>(case: &Value) -> bool {
    let eps = E::of(1e-5);
    match (
        case["op"].as_str().unwrap(),
        case["pattern"].as_str().unwrap(),
    ) {
        ("layer_norm", "c") => {
            three::<E, Abc, shape![C], _>(case, |x, w, b| x.layer_norm::<C>(w, b, eps).unwrap())
        }
        ("layer_norm", "bc") => three::<E, Abc, shape![B, C], _>(case, |x, w, b| {
            x.layer_norm::<(B, C)>(w, b, eps).unwrap()
        }),
        ("rms_norm", _) => {
            two::<E, Abc, shape![C], _>(case, |x, w| x.rms_norm::<C>(w, eps).unwrap())
        }
        _ => return false,
    }
    true
}

fn torch_cases<E: Elem>() {
    let text = include_str!("../data/torch_grads.jsonl");
    let mut seen = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        if !(unary::<E>(&case)
            || reduction::<E>(&case)
            || contraction::<E>(&case)
            || loss::<E>(&case)
            || surgery::<E>(&case)
            || windows::<E>(&case)
            || norms::<E>(&case)
            || super::train_blocks::blocks::<E>(&case))
        {
            binary::<E>(&case);
        }
        seen += 1;
    }
    assert_eq!(seen, 270);
}

#[test]
fn gradients_agree_with_pytorch_in_f64() {
    torch_cases::<f64>();
}

#[test]
fn gradients_agree_with_pytorch_in_f32() {
    torch_cases::<f32>();
}

/// The gradient `cos(0.7·step + 1.3·i)·(1 + 0.5·i)` of the optimizer cases, as the gradient
/// of `Σ p·G`.
fn optimizer_case<E: Elem>(case: &Value) {
    use shapecast::train::{Adam, Sgd};
    let settings = &case["settings"];
    let f = |k: &str, default: f64| E::of(settings[k].as_f64().unwrap_or(default));
    let start: Vec<E> = floats(&case["start"]).into_iter().map(E::of).collect();
    let mut p = Param::new("p", Tensor::<E, shape![6]>::from_vec(start).unwrap());
    let kind = case["kind"].as_str().unwrap();
    let mut sgd = Sgd::new(f("lr", 0.0))
        .momentum(f("momentum", 0.0))
        .dampening(f("dampening", 0.0))
        .weight_decay(f("weight_decay", 0.0))
        .nesterov(settings["nesterov"].as_bool().unwrap_or(false));
    let betas = |k: usize, d: f64| E::of(settings["betas"][k].as_f64().unwrap_or(d));
    let adam = if kind == "adamw" {
        Adam::adamw(f("lr", 0.0))
    } else {
        Adam::new(f("lr", 0.0))
    };
    let mut adam = adam
        .betas(betas(0, 0.9), betas(1, 0.999))
        .eps(f("eps", 1e-8));
    if let Some(w) = settings["weight_decay"].as_f64() {
        adam = adam.weight_decay(E::of(w));
    }
    for (step, want) in case["steps"].as_array().unwrap().iter().enumerate() {
        let g = Tensor::<E, shape![6]>::from_vec(
            (0..6)
                .map(|i| E::of((0.7 * step as f64 + 1.3 * i as f64).cos() * (1.0 + 0.5 * i as f64)))
                .collect(),
        )
        .unwrap();
        let grads = {
            let tape = Tape::new();
            (&tape.watch(&p) * &g).sum::<Pos<0>>().backward().unwrap()
        };
        match kind {
            "sgd" => sgd.step(&mut p, &grads).unwrap(),
            _ => adam.step(&mut p, &grads).unwrap(),
        }
        for (i, (&got, w)) in p.value().data().iter().zip(floats(want)).enumerate() {
            close(
                got.to(),
                w,
                E::TOL,
                &format!("{kind} {settings} step {step} element {i}"),
            );
        }
    }
}

#[test]
fn optimizers_step_as_torch_optim_does() {
    let mut seen = 0;
    for line in include_str!("../data/torch_optim.jsonl").lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        match case["dtype"].as_str().unwrap() {
            "f64" => optimizer_case::<f64>(&case),
            _ => optimizer_case::<f32>(&case),
        }
        seen += 1;
    }
    assert_eq!(seen, 16);
}

/// Central differences of `f` at `x` in `f64`, against the gradient the tape computes.
pub(super) fn check_finite_differences<X: shapecast::Storage<f64>>(
    x: Tensor<f64, X>,
    f: impl Fn(&Var<f64, X>) -> Var<f64, ()>,
) {
    let p = Param::new("x", x.clone());
    let tape = Tape::new();
    let grads = f(&tape.watch(&p)).backward().unwrap();
    let analytic = grads.of(&p).unwrap();
    let h = 1e-6;
    let at = |v: Vec<f64>| {
        let t = Tape::new();
        f(&t.constant(Tensor::<f64, X>::from_vec_sized(x.sizes(), v).unwrap()))
            .value()
            .data()[0]
    };
    for i in 0..x.data().len() {
        let (mut up, mut down) = (x.data().to_vec(), x.data().to_vec());
        up[i] += h;
        down[i] -= h;
        let numeric = (at(up) - at(down)) / (2.0 * h);
        let a = analytic.data()[i];
        assert!(
            (a - numeric).abs() <= 1e-6 * (1.0 + a.abs()),
            "element {i}: {a} against {numeric}"
        );
    }
}

pub(super) fn wavy<X: shapecast::Storage<f64>>(sizes: &[usize], phase: f64) -> Tensor<f64, X> {
    let n: usize = sizes.iter().product();
    Tensor::from_vec_sized(
        sizes,
        (0..n)
            .map(|i| (i as f64 * 0.61 + phase).sin() * 1.5)
            .collect(),
    )
    .unwrap()
}

#[test]
fn gradients_match_central_differences() {
    // A two-layer network with a broadcast bias, a transposed weight, GELU and a softmax
    // cross-entropy, differentiated by every input element.
    let w1 = wavy::<shape![K, A]>(&[4, 3], 0.2);
    let b1 = wavy::<shape![K]>(&[4], 1.0);
    let w2 = wavy::<shape![CLASS, K]>(&[3, 4], 2.0);
    let labels = Tensor::<i64, shape![N]>::from_vec_sized(&[5], vec![0, 2, 1, 1, -100]).unwrap();
    let x = wavy::<shape![N, A]>(&[5, 3], 0.5);
    let net = |x: &Var<f64, shape![N, A]>, w1: &Var<f64, shape![K, A]>| {
        let t = x.tape();
        let h = (&x.dot::<A>(w1) + &b1).gelu(); // [N, K]
        let logits = h.dot::<K>(&t.constant(w2.clone())); // [N, CLASS]
        let opts = Loss::default();
        logits
            .cross_entropy::<CLASS>(&labels, &opts, Reduction::Mean)
            .unwrap()
    };
    let w1c = w1.clone();
    check_finite_differences(x.clone(), |v| net(v, &v.tape().constant(w1c.clone())));
    check_finite_differences(w1, |w| net(&w.tape().constant(x.clone()), w));
    // Reductions by name over a transposed operand, a quotient and a logsumexp.
    let y = &wavy::<shape![C, B]>(&[3, 2], 0.1) + 3.0;
    check_finite_differences(wavy::<shape![A, B, C]>(&[2, 2, 3], 0.3), |v| {
        let q = v / &y;
        let s = q.logsumexp::<C>().softmax::<B>().log_softmax::<A>();
        (&s * &s).mean::<(A, B)>()
    });
}

#[test]
fn the_tape_refuses_what_it_cannot_do_by_name() {
    let p = Param::new("p", Tensor::<f64, shape![A: 2]>::from_array([1.0, 2.0]));
    let unused = Param::new("unused.bias", Tensor::<f64, shape![A: 2]>::zeros().unwrap());
    let tape = Tape::new();
    let (v, _) = (tape.watch(&p), tape.watch(&unused));
    let loss = (&v * &v).sum::<A>();
    let grads = loss.backward().unwrap();
    assert_eq!(grads.of(&p).unwrap().data(), &[2.0, 4.0]);
    let missing = grads.of(&unused).unwrap_err().to_string();
    assert!(missing.contains("\"unused.bias\""), "{missing}");
    let twice = loss.backward().unwrap_err().to_string();
    assert!(twice.contains("has run already"), "{twice}");
    // A value no parameter leads to.
    let constant = tape.constant(Tensor::<f64, shape![]>::from_array(1.0));
    let untracked = (&constant * 2.0).backward().unwrap_err().to_string();
    assert!(untracked.contains("not tracked"), "{untracked}");
    // A seed of other sizes.
    let t2 = Tape::new();
    let y = &t2.watch(&p) * 3.0;
    let seed = Tensor::<f64, shape![A: 2]>::zeros().unwrap();
    assert!(y.backward_with(&seed).is_ok());
    let dyn_p = Param::new("d", Tensor::<f64, shape![A]>::zeros_sized(&[3]).unwrap());
    let t3 = Tape::new();
    let z = &t3.watch(&dyn_p) * 1.0;
    let wrong = Tensor::<f64, shape![A]>::zeros_sized(&[2]).unwrap();
    assert!(z
        .backward_with(&wrong)
        .unwrap_err()
        .to_string()
        .contains("seed"));
}

#[test]
fn a_value_used_twice_gets_the_sum_of_its_gradients_and_detach_stops_them() {
    let p = Param::new(
        "p",
        Tensor::<f64, shape![A: 3]>::from_array([1.0, -2.0, 0.5]),
    );
    let tape = Tape::new();
    let v = tape.watch(&p);
    // v·v + 3v + detach(v)·v: the detached factor is a constant.
    let y = &(&(&v * &v) + &(&v * 3.0)) + &(&v.detach() * &v);
    let g = y.sum::<A>().backward().unwrap().of(&p).unwrap();
    let want: Vec<f64> = p.value().data().iter().map(|x| 2.0 * x + 3.0 + x).collect();
    assert_eq!(g.data(), &want[..]);
}

#[test]
fn an_untracked_forward_pass_records_nothing_and_computes_the_tensors_values() {
    let w = Param::new("w", wavy::<shape![K, A]>(&[4, 3], 0.2));
    let x = wavy::<shape![N, A]>(&[5, 3], 0.5);
    let tape = Tape::new();
    let y = tape
        .constant(x.clone())
        .dot::<A>(&tape.frozen(&w))
        .gelu()
        .softmax::<K>();
    assert!(tape.is_empty() && !y.is_tracked());
    let plain = x.dot::<A>(w.value()).gelu().softmax::<K>();
    assert_eq!(y.value().data(), plain.data());
}

#[test]
fn accumulated_and_clipped_gradients_are_pytorchs() {
    let p = Param::new("p", Tensor::<f64, shape![A: 2]>::from_array([3.0, 4.0]));
    let pass = || {
        let tape = Tape::new();
        let v = tape.watch(&p);
        (&v * &v).sum::<A>().backward().unwrap() // 2p
    };
    let mut grads = pass();
    grads.accumulate(pass());
    assert_eq!(grads.of(&p).unwrap().data(), &[12.0, 16.0]);
    assert_eq!(grads.global_norm(), 20.0);
    // clip_grad_norm_(max_norm=2): coefficient 2 / (20 + 1e-6)
    assert_eq!(grads.clip_norm(2.0), 20.0);
    let c = 2.0 / (20.0 + 1e-6);
    assert_eq!(grads.of(&p).unwrap().data(), &[12.0 * c, 16.0 * c]);
}

/// A convolution's gradients split over two threads equal one thread's (to rounding: the
/// weight's gradient adds the pieces' sums in another order).
#[cfg(feature = "rayon")]
#[test]
fn a_convolutions_gradients_on_two_threads_are_one_threads() {
    type Img = shape![N, C, H, W];
    type Kernel = shape![K, C, H, W];
    let x = wavy::<Img>(&[4, 8, 32, 32], 0.3);
    let w = wavy::<Kernel>(&[8, 8, 3, 3], 1.1);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let (px, pw) = (Param::new("x", x.clone()), Param::new("w", w.clone()));
            let tape = Tape::new();
            let y = tape.watch(&px).conv::<C, Conv<1, 1>>(&tape.watch(&pw));
            let grads = y.square().sum::<(N, K, H, W)>().backward().unwrap();
            (
                grads.of(&px).unwrap().into_vec(),
                grads.of(&pw).unwrap().into_vec(),
            )
        })
    };
    let ((x1, w1), (x2, w2)) = (run(1), run(2));
    assert_eq!(x1, x2, "the input's gradient is each index's own");
    for (a, b) in w1.iter().zip(&w2) {
        assert!((a - b).abs() <= 1e-12 * (1.0 + a.abs()), "{a} against {b}");
    }
}
