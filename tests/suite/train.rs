//! Gradients (`shapecast::train`) against PyTorch autograd (`tests/data/torch_grads.jsonl`,
//! written by `scripts/gen_grad_cases.py`: every operator under five broadcast patterns by
//! name, including size-1 axes decided at run time; the math; reductions and softmaxes over
//! named axes; contractions with batch, shared and transposed weights; cross-entropy with
//! every option), in `f64` (1e-10) and `f32` (1e-5 relative), and against central finite
//! differences in `f64` (`train_tape`, with the tape's and the optimizers' behaviour).

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
        ("pool", "avg2s1p1") => {
            one::<E, Img, _>(case, |x| x.avg_pool::<(H, W), Pool<2, 1, 1>>().unwrap())
        }
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
    assert_eq!(seen, 273);
}

#[test]
fn gradients_agree_with_pytorch_in_f64() {
    torch_cases::<f64>();
}

#[test]
fn gradients_agree_with_pytorch_in_f32() {
    torch_cases::<f32>();
}
