//! The optimizers step for step against `torch.optim` (`tests/data/torch_optim.jsonl`), the
//! learning-rate schedules against `torch.optim.lr_scheduler` (`torch_schedules.jsonl`),
//! gradients against central finite differences in `f64`, and what the tape does: refusals by
//! name, values used twice, untracked passes, accumulated and clipped gradients, and a
//! convolution's gradients on two threads.

#![allow(clippy::type_complexity)]

use serde_json::Value;
use shapecast::prelude::*;
use shapecast::train::{Param, Tape, Var};

use super::train::{close, floats, Elem};

names!(A, B, C, K, N, H, W, CLASS);

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

/// The schedule a case of `tests/data/torch_schedules.jsonl` describes.
fn schedule_of(case: &Value) -> Box<dyn shapecast::train::Schedule> {
    use shapecast::train::*;
    let f = |k: &str| case[k].as_f64().unwrap();
    let n = |k: &str| case[k].as_u64().unwrap() as usize;
    let lr = f("lr");
    match case["kind"].as_str().unwrap() {
        "step" => Box::new(StepLr::new(lr, n("step_size"), f("gamma")).unwrap()),
        "multistep" => {
            let at: Vec<usize> = case["milestones"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_u64().unwrap() as usize)
                .collect();
            Box::new(MultiStepLr::new(lr, &at, f("gamma")).unwrap())
        }
        "exponential" => Box::new(ExponentialLr::new(lr, f("gamma")).unwrap()),
        "linear" => Box::new(LinearLr::new(lr, f("start"), f("end"), n("total")).unwrap()),
        "cosine" => Box::new(CosineAnnealing::new(lr, n("t_max"), f("eta_min")).unwrap()),
        "onecycle" => Box::new(
            OneCycle::new(lr, n("total"))
                .and_then(|s| s.pct_start(f("pct")))
                .and_then(|s| s.div_factors(f("div"), f("final_div")))
                .unwrap(),
        ),
        "warmup_cosine" => Box::new(
            LinearLr::new(lr, f("start"), 1.0, n("warmup"))
                .unwrap()
                .then(
                    n("warmup"),
                    CosineAnnealing::new(lr, n("t_max"), f("eta_min")).unwrap(),
                ),
        ),
        other => panic!("no schedule {other}"),
    }
}

#[test]
fn schedules_give_torch_lr_schedulers_rates() {
    let mut seen = 0;
    for line in include_str!("../data/torch_schedules.jsonl").lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let schedule = schedule_of(&case);
        for (step, want) in case["rates"].as_array().unwrap().iter().enumerate() {
            let (got, want) = (schedule.lr(step), want.as_f64().unwrap());
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1e-300) + 1e-18,
                "{case} step {step}: {got} against {want}"
            );
        }
        seen += 1;
    }
    assert_eq!(seen, 14);
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

/// A convolution whose images are longer than the backward pass's tiles (1024 channels by 3
/// taps: 341 positions a tile, so 700 positions take three, the last 18 long) and whose
/// batch spans several, against the definition: `y[n, k, t] = Σ x[n, c, t + j − 1] w[k, c,
/// j]`, the loss `Σ y²`, so `∂y = 2y`.
#[test]
fn a_convolutions_gradients_over_tiles_inside_an_image_are_the_definitions() {
    type Seq = shape![N, C, A];
    type Kernel = shape![K, C, A];
    let (n, c, t, k) = (2, 1024, 700, 4);
    let x = wavy::<Seq>(&[n, c, t], 0.3);
    let w = wavy::<Kernel>(&[k, c, 3], 1.1);
    let (px, pw) = (Param::new("x", x.clone()), Param::new("w", w.clone()));
    let tape = Tape::new();
    let y = tape.watch(&px).conv::<C, Conv<1, 1>>(&tape.watch(&pw));
    let grads = y.square().sum::<(N, K, A)>().backward().unwrap();
    let (xs, ws) = (x.data(), w.data());
    // The taps of position `p`: (input position, tap) pairs inside the input.
    let taps = |p: usize| {
        (0..3).filter_map(move |j| (p + j).checked_sub(1).filter(|&i| i < t).map(|i| (i, j)))
    };
    let mut gy = vec![0.0; n * k * t];
    for b in 0..n {
        for o in 0..k {
            for p in 0..t {
                let mut s = 0.0;
                for ci in 0..c {
                    for (i, j) in taps(p) {
                        s += xs[(b * c + ci) * t + i] * ws[(o * c + ci) * 3 + j];
                    }
                }
                gy[(b * k + o) * t + p] = 2.0 * s;
            }
        }
    }
    let (mut gx, mut gw) = (vec![0.0; xs.len()], vec![0.0; ws.len()]);
    for b in 0..n {
        for o in 0..k {
            for p in 0..t {
                let g = gy[(b * k + o) * t + p];
                for ci in 0..c {
                    for (i, j) in taps(p) {
                        gx[(b * c + ci) * t + i] += g * ws[(o * c + ci) * 3 + j];
                        gw[(o * c + ci) * 3 + j] += g * xs[(b * c + ci) * t + i];
                    }
                }
            }
        }
    }
    let got_x = grads.of(&px).unwrap();
    let got_w = grads.of(&pw).unwrap();
    for (what, got, want) in [("x", got_x.data(), &gx), ("w", got_w.data(), &gw)] {
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (i, (a, b)) in got.iter().zip(want.iter()).enumerate() {
            assert!(
                (a - b).abs() <= 1e-10 * scale,
                "∂{what}[{i}]: {a} against {b}"
            );
        }
    }
}
