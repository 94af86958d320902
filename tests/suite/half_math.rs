//! Math on half-precision tensors computes in `f32` and rounds once, as PyTorch's CPU kernels
//! do: every elementwise function, softmax, log-softmax, logsumexp and the norms on `bf16` and
//! `f16` equal the same operation on the widened `f32` tensor, rounded, bit for bit (the
//! losses: the `f32` loss of the half log-probabilities); and they stay within one
//! half-precision step of an `f64` reference where rounding midway (sums of a long row in 8
//! bits) would not.

use shapecast::{
    bf16, f16, names, shape, Attention, Cast, Causal, FloatMath, Loss, NoMask, Norms, Reduction,
    Reductions, Tensor,
};

names!(ROW, COL, HEAD, SEQ, KSEQ, HD, VD);

type Grid = shape![ROW: 6, COL: 40];

/// A spread of inputs: signs, magnitudes from 1e-3 to 60, zero, the cells' own patterns.
fn values() -> Vec<f32> {
    (0..240)
        .map(|i| {
            let t = i as f32;
            let v = ((t * 0.618).fract() - 0.5) * 2.0 * (1.0 + (t % 7.0) * 8.0);
            if i % 37 == 0 {
                0.0
            } else {
                v
            }
        })
        .collect()
}

/// The same float bit for bit, or both NaN.
fn same(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

macro_rules! half_math {
    ($name:ident, $h:ty, $step:expr) => {
        mod $name {
            use super::*;

            fn input() -> Tensor<$h, Grid> {
                Tensor::<f32, Grid>::from_vec(values()).unwrap().cast::<$h>()
            }

            /// A half tensor's values, exactly, in `f32`.
            fn wide<S: shapecast::Shape + shapecast::Storage<$h> + shapecast::Storage<f32>>(
                t: &Tensor<$h, S>,
            ) -> Vec<f32> {
                t.data().iter().map(|x| x.to_f32()).collect()
            }

            #[test]
            fn elementwise_functions_are_the_f32_ones_rounded_once() {
                let x = input();
                let x32 = x.cast::<f32>();
                // Positive inputs for ln, sqrt and the fractional power.
                let pos = (&x).abs();
                let pos32 = pos.cast::<f32>();
                let cases: Vec<(&str, Tensor<$h, Grid>, Tensor<f32, Grid>)> = vec![
                    ("exp", (&x).exp(), (&x32).exp()),
                    ("tanh", (&x).tanh(), (&x32).tanh()),
                    ("sigmoid", (&x).sigmoid(), (&x32).sigmoid()),
                    ("silu", (&x).silu(), (&x32).silu()),
                    ("gelu", (&x).gelu(), (&x32).gelu()),
                    ("gelu_erf", (&x).gelu_erf(), (&x32).gelu_erf()),
                    ("relu", (&x).relu(), (&x32).relu()),
                    ("square", (&x).square(), (&x32).square()),
                    ("recip", (&x).recip(), (&x32).recip()),
                    ("powi", (&x).powi(5), (&x32).powi(5)),
                    ("ln", (&pos).ln(), (&pos32).ln()),
                    ("sqrt", (&pos).sqrt(), (&pos32).sqrt()),
                    ("powf", (&pos).powf(<$h>::from_f32(1.5)), (&pos32).powf(1.5)),
                ];
                for (name, got, want) in cases {
                    assert!(same(&wide(&got), &wide(&want.cast::<$h>())), "{name}");
                }
            }

            #[test]
            fn elementwise_functions_are_within_a_step_of_f64() {
                let x = input();
                let xs = wide(&x);
                let check = |name: &str, got: Tensor<$h, Grid>, f: &dyn Fn(f64) -> f64| {
                    for (g, &v) in wide(&got).iter().zip(&xs) {
                        let exact = f(v as f64);
                        if exact.abs() > <$h>::MAX.to_f64() {
                            // Past the type's range (f16's 65504): infinity, as rounding gives.
                            assert!(g.is_infinite(), "{name}({v}) = {g}");
                            continue;
                        }
                        // A step of the result, or 1e-6 where f32's own rounding of a value
                        // near zero (GELU's far tail) is all that is left.
                        let tol = $step * exact.abs() + 1e-6;
                        assert!((*g as f64 - exact).abs() <= tol, "{name}({v}) = {g}, not {exact}");
                    }
                };
                check("exp", (&x).exp(), &|v| v.exp());
                check("tanh", (&x).tanh(), &|v| v.tanh());
                check("sigmoid", (&x).sigmoid(), &|v| 1.0 / (1.0 + (-v).exp()));
                let k = (2.0 / core::f64::consts::PI).sqrt();
                check("gelu", (&x).gelu(), &|v| {
                    0.5 * v * (1.0 + (k * (v + 0.044715 * v * v * v)).tanh())
                });
            }

            #[test]
            fn softmax_family_is_the_f32_one_rounded_once() {
                let x = input();
                let x32 = x.cast::<f32>();
                let pairs: Vec<(Vec<f32>, Vec<f32>)> = vec![
                    (wide(&x.softmax::<COL>()), wide(&x32.softmax::<COL>().cast::<$h>())),
                    (wide(&x.softmax::<ROW>()), wide(&x32.softmax::<ROW>().cast::<$h>())),
                    (
                        wide(&x.log_softmax::<COL>()),
                        wide(&x32.log_softmax::<COL>().cast::<$h>()),
                    ),
                    (
                        wide(&x.logsumexp::<COL>()),
                        wide(&x32.logsumexp::<COL>().cast::<$h>()),
                    ),
                    (
                        wide(&x.clone().softmax_into::<COL>()),
                        wide(&x32.clone().softmax_into::<COL>().cast::<$h>()),
                    ),
                    (
                        wide(&x.clone().log_softmax_into::<ROW>()),
                        wide(&x32.clone().log_softmax_into::<ROW>().cast::<$h>()),
                    ),
                ];
                for (i, (got, want)) in pairs.iter().enumerate() {
                    assert!(same(got, want), "case {i}");
                }
                // A view in another order (ROW strided) reads the same cells.
                let t = x.view().align_to::<shape![COL, ROW]>().unwrap();
                let t32 = x32.view().align_to::<shape![COL, ROW]>().unwrap();
                assert!(same(
                    &wide(&t.softmax::<COL>()),
                    &wide(&t32.softmax::<COL>().cast::<$h>())
                ));
                // At run time.
                let d = x.to_dyn();
                let d32 = x32.to_dyn();
                let col = ["COL".parse().unwrap()];
                let got: Vec<f32> = d.softmax(&col).unwrap().data().iter().map(|v| v.to_f32()).collect();
                let want: Vec<f32> = d32.softmax(&col).unwrap().data().iter().map(|&v| <$h>::from_f32(v).to_f32()).collect();
                assert!(same(&got, &want));
            }

            #[test]
            fn statistics_are_the_f32_ones_rounded_once() {
                // Rows offset far from zero, where a mean or variance kept in half precision
                // loses most of the deviations.
                let x = (input() + <$h>::from_f32(300.0)).cast::<f32>().cast::<$h>();
                let x32 = x.cast::<f32>();
                let pairs: Vec<(Vec<f32>, Vec<f32>)> = vec![
                    (wide(&x.mean::<COL>()), wide(&x32.mean::<COL>().cast::<$h>())),
                    (wide(&x.mean::<ROW>()), wide(&x32.mean::<ROW>().cast::<$h>())),
                    (wide(&x.var::<COL>()), wide(&x32.var::<COL>().cast::<$h>())),
                    (wide(&x.std::<ROW>()), wide(&x32.std::<ROW>().cast::<$h>())),
                    (wide(&x.var_ddof::<COL>(1)), wide(&x32.var_ddof::<COL>(1).cast::<$h>())),
                    (wide(&x.std_ddof::<COL>(1)), wide(&x32.std_ddof::<COL>(1).cast::<$h>())),
                ];
                for (i, (got, want)) in pairs.iter().enumerate() {
                    assert!(same(got, want), "case {i}: {got:?} against {want:?}");
                }
                let col = ["COL".parse().unwrap()];
                let got: Vec<f32> = x.to_dyn().std(&col).unwrap().data().iter().map(|v| v.to_f32()).collect();
                assert!(same(&got, &wide(&x32.std::<COL>().cast::<$h>())));
            }

            #[test]
            fn losses_take_half_logits_and_accumulate_in_f32() {
                let x = input();
                let t = Tensor::<i64, shape![ROW: 6]>::from_array([0, 39, 7, 12, -100, 3]);
                // Without options: the f32 negative log-likelihood of the same half
                // log-probabilities (log-softmax rounds to the element, as PyTorch's does),
                // rounded once.
                let logp = x.log_softmax::<COL>().cast::<f32>();
                let none = Loss::default();
                let got = x.try_cross_entropy::<COL>(&t, &none).unwrap();
                let want = logp.try_nll_loss::<COL>(&t, &Loss::default()).unwrap();
                assert!(same(&wide(&got), &wide(&want.cast::<$h>())));
                let got = x.try_cross_entropy_reduced::<COL>(&t, &none, Reduction::Mean).unwrap();
                let want = logp
                    .try_nll_loss_reduced::<COL>(&t, &Loss::default(), Reduction::Mean)
                    .unwrap();
                assert!(same(&wide(&got), &wide(&want.cast::<$h>())));
                // Class weights and label smoothing against f64 from the definition.
                let w: Vec<$h> = (0..40).map(|c| <$h>::from_f32(0.5 + c as f32 / 20.0)).collect();
                let opts = Loss::default().weight(&w).label_smoothing(0.1);
                let got = x
                    .try_cross_entropy_reduced::<COL>(&t, &opts, Reduction::Mean)
                    .unwrap()
                    .data()[0]
                    .to_f64();
                let xs = wide(&x);
                let (mut sum, mut total) = (0.0f64, 0.0f64);
                for (r, &target) in t.data().iter().enumerate() {
                    if target < 0 {
                        continue;
                    }
                    let row: Vec<f64> = xs[r * 40..(r + 1) * 40].iter().map(|&v| v as f64).collect();
                    let m = row.iter().cloned().fold(f64::MIN, f64::max);
                    let lse = m + row.iter().map(|v| (v - m).exp()).sum::<f64>().ln();
                    let wt = |c: usize| w[c].to_f64();
                    let hit = -wt(target as usize) * (row[target as usize] - lse);
                    let spread: f64 = (0..40).map(|c| -wt(c) * (row[c] - lse)).sum();
                    sum += 0.9 * hit + 0.1 / 40.0 * spread;
                    total += wt(target as usize);
                }
                let exact = sum / total;
                // The log-probabilities' rounding to the element, then the result's.
                assert!((got - exact).abs() <= 2.0 * $step * exact.abs(), "{got} vs {exact}");
            }

            #[test]
            fn attention_runs_in_f32() {
                // Grouped heads, a causal mask with a cache prefix: queries [SEQ: 5], keys
                // and values [KSEQ: 9], the head dimension contracted.
                let ramp = |n: usize, k: f32| -> Vec<f32> {
                    (0..n).map(|i| ((i as f32 * k).sin() * 2.0)).collect()
                };
                let q = Tensor::<f32, shape![HEAD: 2, SEQ: 5, HD: 8]>::from_vec(ramp(80, 0.37)).unwrap().cast::<$h>();
                let k = Tensor::<f32, shape![HEAD: 2, KSEQ: 9, HD: 8]>::from_vec(ramp(144, 0.71)).unwrap().cast::<$h>();
                let v = Tensor::<f32, shape![HEAD: 2, KSEQ: 9, VD: 4]>::from_vec(ramp(72, 1.3)).unwrap().cast::<$h>();
                let (q32, k32, v32) = (q.cast::<f32>(), k.cast::<f32>(), v.cast::<f32>());
                let got = q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::at(4), None);
                let want = q32.attention::<HD, KSEQ>(&k32, &v32, Causal::<SEQ>::at(4), None);
                assert!(same(&wide(&got), &wide(&want.cast::<$h>())));
                let got = q.attention::<HD, KSEQ>(&k, &v, NoMask, Some(<$h>::from_f32(0.25)));
                let want = q32.attention::<HD, KSEQ>(&k32, &v32, NoMask, Some(0.25));
                assert!(same(&wide(&got), &wide(&want.cast::<$h>())));
            }

            #[test]
            fn a_long_row_sums_in_f32() {
                // 4096 equal logits: each probability is 2^-12, exact in both types. A sum
                // kept in 8 or 11 bits stops growing long before 4096.
                let x = Tensor::<$h, shape![COL: 4096]>::from_vec(vec![<$h>::from_f32(0.25); 4096]).unwrap();
                let p = x.softmax::<COL>();
                assert!(p.data().iter().all(|&v| v.to_f32() == 1.0 / 4096.0));
                let l = x.logsumexp::<COL>();
                let exact = 0.25 + 4096f64.ln();
                assert!((l.data()[0].to_f32() as f64 - exact).abs() <= $step * exact);
            }

            #[test]
            fn norms_are_the_f32_ones_rounded_once() {
                // Rows far from zero: a mean kept in half precision loses the deviations.
                let x = (input() + <$h>::from_f32(100.0)).cast::<f32>().cast::<$h>();
                let x32 = x.cast::<f32>();
                let g = Tensor::<f32, shape![COL: 40]>::from_vec((0..40).map(|i| 0.5 + i as f32 / 40.0).collect()).unwrap();
                let b = Tensor::<f32, shape![COL: 40]>::from_vec((0..40).map(|i| i as f32 / 80.0 - 0.25).collect()).unwrap();
                let (gh, bh) = (g.cast::<$h>(), b.cast::<$h>());
                let (g, b) = (gh.cast::<f32>(), bh.cast::<f32>());
                let ln = x.layer_norm::<COL>(&gh, &bh, <$h>::from_f32(1e-5));
                let ln32 = x32.layer_norm::<COL>(&g, &b, <$h>::from_f32(1e-5).to_f32());
                assert!(same(&wide(&ln), &wide(&ln32.cast::<$h>())));
                let rms = x.rms_norm::<COL>(&gh, <$h>::from_f32(1e-5));
                let rms32 = x32.rms_norm::<COL>(&g, <$h>::from_f32(1e-5).to_f32());
                assert!(same(&wide(&rms), &wide(&rms32.cast::<$h>())));
                // Against f64: within a step of the exact normalised value (the deviations
                // from a mean near 100 survive).
                let xs = wide(&x);
                for (r, row) in xs.chunks(40).enumerate() {
                    let mean = row.iter().map(|&v| v as f64).sum::<f64>() / 40.0;
                    let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / 40.0;
                    for (c, &v) in row.iter().enumerate() {
                        let exact = (v as f64 - mean) / (var + 1e-5f64).sqrt() * g.data()[c] as f64
                            + b.data()[c] as f64;
                        let got = ln.data()[r * 40 + c].to_f32() as f64;
                        assert!((got - exact).abs() <= $step * exact.abs() + 1e-2, "{got} vs {exact}");
                    }
                }
            }
        }
    };
}

// One step: bf16 keeps 8 significant bits, f16 11; the bound allows a rounding of the result
// (half a step) and the f32 computation's error.
half_math!(bf16_math, bf16, 2f64.powi(-8));
half_math!(f16_math, f16, 2f64.powi(-11));
