//! Gradients of the fused blocks against PyTorch autograd (the `blocks` cases of
//! `tests/data/torch_grads.jsonl`, written by `scripts/gen_grad_cases.py`): attention (causal
//! across a block of queries, grouped heads by name, an additive mask and scale, a KV cache),
//! rotary embeddings in both conventions, gather along an axis with repeated picks, stacks,
//! and batch norm in training mode with its running statistics.

use serde_json::Value;
use shapecast::prelude::*;
use shapecast::rule::{Numpy, Pdpd, Start};
use shapecast::train::{stack, stack_at, RunningStats, Tape, Var, VarAttention};

use super::train::{close, compare, floats, indices, one, operand, seed, three, two, Elem};

names!(A, B, C, N, M, H, T, S, W);

/// A batch norm case: the output's and parameters' gradients, and the running statistics.
fn batch_norm<E: Elem, X>(case: &Value)
where
    X: shapecast::Storage<E> + shapecast::BroadcastsUnder<shapecast::rule::Assign, shape![C: 3]>,
{
    let x = operand::<E, X>(case, 0);
    let (w, b) = (
        operand::<E, shape![C: 3]>(case, 1),
        operand::<E, shape![C: 3]>(case, 2),
    );
    let running = &case["running"];
    let stat = |k: usize| -> Tensor<E, shape![C: 3]> {
        Tensor::from_vec(floats(&running[k]).into_iter().map(E::of).collect()).unwrap()
    };
    let mut stats = RunningStats::from_tensors(stat(0), stat(1)).unwrap();
    let tape = Tape::new();
    let out = tape
        .watch(&x)
        .batch_norm(&tape.watch(&w), &tape.watch(&b), &mut stats)
        .unwrap();
    let grads = out.backward_with(&seed::<E, X>(out.sizes())).unwrap();
    let g: Vec<Vec<E>> = [&x.id(), &w.id(), &b.id()]
        .iter()
        .map(|id| grads.data(**id).unwrap().to_vec())
        .collect();
    compare(case, &out, &g);
    for (got, k) in [(stats.mean(), 2), (stats.var(), 3)] {
        for (&g, &want) in got.data().iter().zip(&floats(&running[k])) {
            close(g.to(), want, E::TOL, "batch_norm running statistics");
        }
    }
    assert_eq!(stats.batches(), 1);
}

/// `x op y` under the rule `R`.
fn by_rule<E: Elem, R: shapecast::RuleMarker, X, Y, O>(
    op: &str,
    x: &Var<E, X>,
    y: &Var<E, Y>,
) -> Var<E, O>
where
    X: shapecast::Storage<E> + shapecast::BroadcastsUnder<R, Y, Output = O>,
    Y: shapecast::Storage<E>,
    O: shapecast::Storage<E>,
{
    match op {
        "add" => x.add_by::<R, _>(y),
        "sub" => x.sub_by::<R, _>(y),
        "mul" => x.mul_by::<R, _>(y),
        _ => x.div_by::<R, _>(y),
    }
    .unwrap()
}

pub(super) fn blocks<E: Elem>(case: &Value) -> bool {
    let op = case["op"].as_str().unwrap();
    let pattern = case["pattern"].as_str().unwrap();
    match (op, pattern) {
        ("attention", "causal") => {
            three::<E, shape![T, H, C], shape![S, H, C], _>(case, |q, k, v| {
                q.attention::<C, S>(k, v, Causal::<T>::new(), None).unwrap()
            })
        }
        ("attention", "grouped") => {
            three::<E, shape![T, H, M, C], shape![S, H, C], _>(case, |q, k, v| {
                q.attention::<C, S>(k, v, NoMask, None).unwrap()
            })
        }
        ("attention", "mask") => {
            let (t, s) = (
                super::train::sizes(case, 0)[0],
                super::train::sizes(case, 1)[0],
            );
            let m = floats(&case["mask"]).into_iter().map(E::of).collect();
            let mask = Tensor::<E, shape![T, S]>::from_vec_sized(&[t, s], m).unwrap();
            three::<E, shape![T, C], shape![S, C], _>(case, |q, k, v| {
                q.attention::<C, S>(k, v, &mask, Some(E::of(0.5))).unwrap()
            })
        }
        ("attention", "cache") => three::<E, shape![T, C], shape![S, C], _>(case, |q, k, v| {
            let offset = k.sizes()[0] - q.sizes()[0];
            q.attention::<C, S>(k, v, Causal::<T>::at(offset), None)
                .unwrap()
        }),
        ("rope", style) => {
            let d = super::train::sizes(case, 0)[2];
            let style = if style == "adjacent" {
                RopeStyle::Adjacent
            } else {
                RopeStyle::Halves
            };
            let table = Rotary::<E>::new(style, d, 16, E::of(10000.0)).unwrap();
            one::<E, shape![T, H, C], _>(case, |x| x.rope::<T, C>(&table, 2).unwrap())
        }
        ("gather", "last") => {
            let b = super::train::sizes(case, 0)[0];
            let idx = indices(case);
            let idx =
                Tensor::<i64, shape![B, C]>::from_vec_sized(&[b, idx.len() / b], idx).unwrap();
            one::<E, shape![B, C], _>(case, |x| x.gather::<C, _>(&idx).unwrap())
        }
        ("gather", "middle") => {
            let sz = super::train::sizes(case, 0);
            let idx = indices(case);
            let m = idx.len() / (sz[0] * sz[2]);
            let idx =
                Tensor::<i64, shape![A, C, B]>::from_vec_sized(&[sz[0], m, sz[2]], idx).unwrap();
            one::<E, shape![A, C, B], _>(case, |x| x.gather::<C, _>(&idx).unwrap())
        }
        ("stack", "at0") => two::<E, shape![A, C], shape![A, C], shape![N, A, C]>(case, |x, y| {
            stack::<N, _, _>(&[x.clone(), y.clone()]).unwrap()
        }),
        ("stack", "at1") => two::<E, shape![A, C], shape![A, C], shape![A, N, C]>(case, |x, y| {
            stack_at::<1, N, _, _>(&[x.clone(), y.clone()]).unwrap()
        }),
        (op, "numpy") => two::<E, shape![?, 1, ?], shape![?, 1], _>(case, |x, y| {
            by_rule::<E, Numpy, _, _, _>(op, x, y)
        }),
        (op, "pdpd1") => two::<E, shape![?, ?, ?], shape![?, 1], _>(case, |x, y| {
            by_rule::<E, Pdpd<Start<1>>, _, _, _>(op, x, y)
        }),
        ("batch_norm", "nchw") => batch_norm::<E, shape![N, C: 3, H, W]>(case),
        ("batch_norm", "nc") => batch_norm::<E, shape![N, C: 3]>(case),
        _ => return false,
    }
    true
}

#[test]
fn fused_blocks_match_central_differences() {
    use super::train_tape::{check_finite_differences, wavy};
    // Causal attention with grouped heads, every operand differentiated in turn, the output
    // weighed by a fixed tensor (a plain sum's gradient through a softmax is zero).
    type Queries = shape![T, H: 2, M: 2, C: 3];
    let q = wavy::<Queries>(&[4, 2, 2, 3], 0.1);
    let k = wavy::<shape![S, H: 2, C: 3]>(&[4, 2, 3], 0.7);
    let v = wavy::<shape![S, H: 2, C: 3]>(&[4, 2, 3], 1.3);
    let weigh = wavy::<Queries>(&[4, 2, 2, 3], 2.1);
    let loss = |o: Var<f64, Queries>| (&o * &weigh).sum::<(T, H, M, C)>();
    let (kc, vc, qc) = (k.clone(), v.clone(), q.clone());
    check_finite_differences(q.clone(), |q| {
        let t = q.tape();
        let (k, v) = (t.constant(kc.clone()), t.constant(vc.clone()));
        loss(
            q.attention::<C, S>(&k, &v, Causal::<T>::new(), None)
                .unwrap(),
        )
    });
    let (vc, qc2) = (v.clone(), qc.clone());
    check_finite_differences(k.clone(), |k| {
        let t = k.tape();
        let (q, v) = (t.constant(qc2.clone()), t.constant(vc.clone()));
        loss(
            q.attention::<C, S>(k, &v, Causal::<T>::new(), None)
                .unwrap(),
        )
    });
    check_finite_differences(v, |v| {
        let t = v.tape();
        let (q, k) = (t.constant(qc.clone()), t.constant(k.clone()));
        loss(
            q.attention::<C, S>(&k, v, Causal::<T>::at(1), Some(0.7))
                .unwrap(),
        )
    });
    // A rotation at positions 3.., then batch norm over N and W with a weighed output.
    let table = Rotary::<f64>::new(RopeStyle::Halves, 4, 8, 100.0).unwrap();
    let w4 = wavy::<shape![T, C: 4]>(&[3, 4], 0.4);
    check_finite_differences(wavy::<shape![T, C: 4]>(&[3, 4], 0.9), |x| {
        (&x.rope::<T, C>(&table, 3).unwrap() * &w4).sum::<(T, C)>()
    });
    let gamma = wavy::<shape![C: 2]>(&[2], 0.3);
    let beta = wavy::<shape![C: 2]>(&[2], 0.8);
    let w3 = wavy::<shape![N, C: 2, W]>(&[3, 2, 2], 1.7);
    check_finite_differences(wavy::<shape![N, C: 2, W]>(&[3, 2, 2], 0.2), |x| {
        let t = x.tape();
        let mut stats = RunningStats::new(&[2]).unwrap();
        let y = x
            .batch_norm(
                &t.constant(gamma.clone()),
                &t.constant(beta.clone()),
                &mut stats,
            )
            .unwrap();
        (&y * &w3).sum::<(N, C, W)>()
    });
}

#[test]
fn batch_norm_refuses_a_single_value_per_channel() {
    let tape = Tape::new();
    let x = tape.constant(Tensor::<f32, shape![N, C: 2]>::zeros_sized(&[1, 2]).unwrap());
    let ones = tape.constant(Tensor::<f32, shape![C: 2]>::ones().unwrap());
    let mut stats = RunningStats::new(&[2]).unwrap();
    let err = x.batch_norm(&ones, &ones, &mut stats).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot batch_norm [N: 1, C: 2] over the axes its weight does not have: each channel has 1 value, and training needs more than 1"
    );
    assert_eq!(stats.batches(), 0);
}

/// A 2x2 max pool of `x` over `(H, W)` on a tape, and the gradient of `sum(pool · w)` with
/// respect to `x`.
macro_rules! pooled_with_gradient {
    ($x:expr, $w:expr) => {{
        let p = shapecast::train::Param::new("x", $x);
        let tape = Tape::new();
        let y = tape.watch(&p).max_pool::<(H, W), Pool<2>>().unwrap();
        let g = (&y * &$w)
            .sum::<(H, W)>()
            .backward()
            .unwrap()
            .of(&p)
            .unwrap();
        (y.into_tensor(), g)
    }};
}

#[test]
fn a_max_pools_gradient_goes_to_its_windows_first_maximum_or_nan() {
    // Windows of 2x2: a tie (the first in row-major order wins), a NaN after a larger number
    // (the NaN wins, as in PyTorch), and a plain maximum in the second row.
    let x = Tensor::<f64, shape![H: 2, W: 6]>::from_array([
        [5.0, 1.0, 2.0, f64::NAN, 0.0, 1.0],
        [5.0, 0.0, 9.0, 3.0, 4.0, 1.0],
    ]);
    let w = Tensor::<f64, shape![H: 1, W: 3]>::from_array([[1.0, 2.0, 3.0]]);
    let (y, g) = pooled_with_gradient!(x, w);
    let v = y.data();
    assert_eq!((v[0], v[2]), (5.0, 4.0));
    assert!(v[1].is_nan());
    assert_eq!(
        g.data(),
        &[1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0]
    );
}

#[test]
fn large_pools_and_gathers_scatter_their_gradients_as_one_thread_does() {
    // 65,536 windows and picks: the size from which the forward and the scatter of the
    // gradient split over threads (with the `rayon` feature). Values from {0, 1, 2} tie
    // in most windows; the first maximum in row-major order takes the gradient.
    let value = |i: usize| ((i * 2_654_435_761) % 3) as f64;
    let x =
        Tensor::<f64, shape![H: 512, W: 512]>::from_fn(&[512, 512], |i| value(i[0] * 512 + i[1]))
            .unwrap();
    let w =
        Tensor::<f64, shape![H: 256, W: 256]>::from_fn(&[256, 256], |i| (i[0] * 256 + i[1]) as f64)
            .unwrap();
    let (y, g) = pooled_with_gradient!(x, w);
    let mut expect = vec![0.0; 512 * 512];
    for (r, c) in (0..256).flat_map(|r| (0..256).map(move |c| (r, c))) {
        let cells = [0, 1, 512, 513].map(|d| 2 * r * 512 + 2 * c + d);
        let first = cells
            .iter()
            .fold(cells[0], |b, &k| if value(k) > value(b) { k } else { b });
        assert_eq!(y.data()[r * 256 + c], value(first));
        expect[first] += w.data()[r * 256 + c];
    }
    assert!(g.data() == &expect[..]);

    // A gather picking each position twice, in order (ascending pieces) and in reverse.
    let x = Tensor::<f64, shape![B: 2, C: 40_000]>::from_fn(&[2, 40_000], |i| i[1] as f64).unwrap();
    for reverse in [false, true] {
        let picks: Vec<i64> = (0..80_000)
            .map(|j| if reverse { 39_999 - j / 2 } else { j / 2 })
            .collect();
        let idx = Tensor::<i64, shape![B, C]>::from_vec_sized(
            &[2, 40_000],
            [&picks[..40_000], &picks[..40_000]].concat(),
        )
        .unwrap();
        let p = shapecast::train::Param::new("x", x.clone());
        let tape = Tape::new();
        let y = tape.watch(&p).gather::<C, _>(&idx).unwrap();
        let g = (&y * &y)
            .sum::<(B, C)>()
            .backward()
            .unwrap()
            .of(&p)
            .unwrap();
        // Each picked column twice: 2x each time.
        let expect: Vec<f64> = (0..80_000)
            .map(|k| {
                let (j, reversed_hit) = (k % 40_000, reverse && k % 40_000 >= 20_000);
                if (!reverse && j < 20_000) || reversed_hit {
                    4.0 * j as f64
                } else {
                    0.0
                }
            })
            .collect();
        assert!(g.data() == &expect[..], "reverse: {reverse}");
    }
}

/// A layer generic over its element, derived.
#[derive(shapecast::train::Parameters)]
struct Affine<E: shapecast::train::Trainable> {
    w: shapecast::train::Param<E, shape![A: 2, B: 3]>,
    b: shapecast::train::Param<E, shape![B: 3]>,
}

/// A model of layers and a field that is no parameter, derived.
#[derive(shapecast::train::Parameters)]
struct Stacked<E: shapecast::train::Trainable> {
    #[parameters(skip)]
    steps: usize,
    first: Affine<E>,
    rest: [Affine<E>; 2],
}

#[test]
fn a_derived_model_visits_its_fields_in_order_and_an_optimizer_steps_it() {
    use shapecast::train::{Adam, Param, Parameters};
    let affine = |name: &str| Affine::<f64> {
        w: Param::new(format!("{name}.w"), Tensor::ones().unwrap()),
        b: Param::new(format!("{name}.b"), Tensor::zeros().unwrap()),
    };
    let mut model = Stacked {
        steps: 0,
        first: affine("first"),
        rest: [affine("rest.0"), affine("rest.1")],
    };
    let mut names = Vec::new();
    model.visit(&mut |p| names.push(p.name().to_string()));
    assert_eq!(
        names,
        ["first.w", "first.b", "rest.0.w", "rest.0.b", "rest.1.w", "rest.1.b"]
    );
    // One AdamW step on the sum of the first layer's output: its parameters move by the
    // learning rate (Adam's first step is lr · sign(g)), the others have no gradient.
    let x = Tensor::<f64, shape![A: 2]>::from_array([1.0, 2.0]);
    let tape = Tape::new();
    let w = tape.watch(&model.first.w);
    let b = tape.watch(&model.first.b);
    let y = &tape.constant(x).dot::<A>(&w) + &b;
    let grads = y.sum::<B>().backward().unwrap();
    drop((y, w, b, tape));
    Adam::new(0.5).step(&mut model, &grads).unwrap();
    model.steps += 1;
    assert!(model
        .first
        .w
        .value()
        .data()
        .iter()
        .all(|&v| (v - 0.5).abs() < 1e-6));
    assert!(model
        .first
        .b
        .value()
        .data()
        .iter()
        .all(|&v| (v + 0.5).abs() < 1e-6));
    assert!(model.rest[1].w.value().data().iter().all(|&v| v == 1.0));
    assert_eq!(model.steps, 1);
}
