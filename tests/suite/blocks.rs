//! The fused model blocks against PyTorch (`tests/data/torch_blocks.jsonl`, written by
//! `scripts/gen_block_cases.py`): attention (grouped-query heads, causal with a cache prefix,
//! additive masks by name, a scale, lengths across the kernel's blocks, every operand's axes in
//! a generated order), layer and RMS norms over one or two named axes, rotary embeddings in
//! both conventions with an offset; in `f64` and `f32`, on one thread and on two. Then each
//! fused operation against its unfused composition, typed against run-time, and views against
//! tensors, and on 48 generated shapes and masks against the composition (proptest). The
//! typed batch norm and its fold into a convolution are in `conv.rs`.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use num_traits::Float;
use serde_json::Value;
use shapecast::{
    names, shape, Attention, AxisSelector, Causal, Dot, DynMask, DynShape, DynTensor, FloatMath,
    NoMask, Norms, Reductions, Rope, RopeStyle, Rotary, Tensor,
};

fn cases() -> Vec<Value> {
    include_str!("../data/torch_blocks.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn sel(s: &str) -> AxisSelector {
    s.parse().unwrap()
}

/// The operand `spec` describes: its shape and the ramp `((i * a) % m) / m - 0.5` (times
/// `times`, plus `plus`) over its row-major order.
fn operand<T: Float>(spec: &Value) -> DynTensor<T> {
    let shape: DynShape = spec["shape"].as_str().unwrap().parse().unwrap();
    let (a, m) = (spec["a"].as_u64().unwrap(), spec["m"].as_u64().unwrap());
    let times = spec["times"].as_f64().unwrap_or(1.0);
    let plus = spec["plus"].as_f64().unwrap_or(0.0);
    let n: usize = shape
        .axes()
        .iter()
        .map(|x| x.size.known().unwrap())
        .product();
    let data = (0..n as u64)
        .map(|i| T::from((((i * a) % m) as f64 / m as f64 - 0.5) * times + plus).unwrap())
        .collect();
    DynTensor::from_vec(shape, data).unwrap()
}

/// The largest difference between `got` and `want`, read in the axis order `names` (by name).
fn distance<T: Float>(got: &DynTensor<T>, names: &[&str], want: &[f64]) -> f64 {
    let axes: Vec<usize> = names
        .iter()
        .map(|n| {
            got.shape()
                .position(n)
                .unwrap_or_else(|| panic!("no {n} in {}", got.shape()))
        })
        .collect();
    assert_eq!(got.data().len(), want.len(), "{}", got.shape());
    let sizes: Vec<usize> = axes.iter().map(|&a| got.sizes()[a]).collect();
    let mut index = vec![0usize; sizes.len()];
    let mut at = vec![0usize; sizes.len()];
    let mut worst = 0f64;
    for w in want {
        for (k, &a) in axes.iter().enumerate() {
            at[a] = index[k];
        }
        let g = got.at(&at).unwrap().to_f64().unwrap();
        let d = (g - w).abs();
        assert!(!d.is_nan(), "NaN at {at:?}: {g} against {w}");
        worst = worst.max(d);
        for k in (0..sizes.len()).rev() {
            index[k] += 1;
            if index[k] < sizes[k] {
                break;
            }
            index[k] = 0;
        }
    }
    worst
}

fn names_of(case: &Value) -> Vec<&str> {
    case["out_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

fn want(case: &Value) -> Vec<f64> {
    case["out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// The mask tensor of an attention case: the ramp, with `-inf` where `(i * 3 + j) % 5 == 0`
/// and `i > 0` (`i` the key, `j` the query) when the case hides keys.
fn mask<T: Float>(case: &Value) -> DynTensor<T> {
    let spec = &case["m"];
    let mut m = operand::<T>(spec);
    if spec["hidden"].is_string() {
        let (s, l) = (m.sizes()[0], m.sizes()[1]);
        for i in 1..s {
            for j in 0..l {
                if (i * 3 + j) % 5 == 0 {
                    *m.at_mut(&[i, j]).unwrap() = T::neg_infinity();
                }
            }
        }
    }
    m
}

fn attention_case<T: Float + shapecast::AttentionElement>(case: &Value) -> DynTensor<T> {
    let (q, k, v) = (
        operand::<T>(&case["q"]),
        operand::<T>(&case["k"]),
        operand::<T>(&case["v"]),
    );
    let offset = case["offset"].as_u64().unwrap() as usize;
    let scale = case["scale"].as_f64().map(|s| T::from(s).unwrap());
    let seq = sel("SEQ");
    let m;
    let masking = match case["mask"].as_str().unwrap() {
        "none" => DynMask::None,
        "causal" => DynMask::Causal { axis: &seq, offset },
        _ => {
            m = mask::<T>(case);
            DynMask::Additive(&m)
        }
    };
    q.attention(&k, &v, &[sel("HD")], &sel("KSEQ"), masking, scale)
        .unwrap()
}

/// `f` on a pool of `threads` (with the `rayon` feature; else on the calling thread).
fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "rayon")]
    return rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f);
    #[cfg(not(feature = "rayon"))]
    {
        let _ = threads;
        f()
    }
}

#[test]
fn attention_agrees_with_pytorch() {
    let mut seen = 0;
    for case in cases().iter().filter(|c| c["op"] == "attention") {
        let names = names_of(case);
        let d64 = distance(&attention_case::<f64>(case), &names, &want(case));
        assert!(d64 < 1e-12, "f64 differs by {d64} in {case:.80}");
        let d32 = distance(&attention_case::<f32>(case), &names, &want(case));
        assert!(d32 < 2e-6, "f32 differs by {d32}");
        let two = on_threads(2, || attention_case::<f64>(case));
        assert_eq!(
            two.data(),
            attention_case::<f64>(case).data(),
            "two threads"
        );
        seen += 1;
    }
    assert_eq!(seen, 9);
}

#[test]
fn norms_agree_with_pytorch() {
    let mut seen = 0;
    for case in cases()
        .iter()
        .filter(|c| c["op"] == "layer_norm" || c["op"] == "rms_norm")
    {
        let over: Vec<AxisSelector> = case["over"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| sel(v.as_str().unwrap()))
            .collect();
        let eps = case["eps"].as_f64().unwrap();
        let run = |x: &DynTensor<f64>, w: &DynTensor<f64>, b: &DynTensor<f64>| {
            if case["op"] == "layer_norm" {
                x.layer_norm(&over, w, b, eps).unwrap()
            } else {
                x.rms_norm(&over, w, eps).unwrap()
            }
        };
        let (x, w, b) = (
            operand(&case["x"]),
            operand(&case["w"]),
            operand(&case["b"]),
        );
        let names = names_of(case);
        let d = distance(&run(&x, &w, &b), &names, &want(case));
        assert!(d < 1e-12, "{} differs by {d}", case["op"]);
        let two = on_threads(2, || run(&x, &w, &b));
        assert_eq!(two.data(), run(&x, &w, &b).data());
        seen += 1;
    }
    assert_eq!(seen, 7);
}

/// Batch norm in inference against PyTorch's `batch_norm(training=False)` (the statistics
/// `[C: n]` found by name in inputs stored in any axis order), on one and two threads.
#[test]
fn batch_norm_agrees_with_pytorch() {
    let mut seen = 0;
    for case in cases().iter().filter(|c| c["op"] == "batch_norm") {
        let eps = case["eps"].as_f64().unwrap();
        let x: DynTensor<f64> = operand(&case["x"]);
        let [m, v, w, b] = ["mean", "var", "weight", "bias"].map(|k| operand::<f64>(&case[k]));
        let run = || x.batch_norm(&m, &v, &w, &b, eps).unwrap();
        let names = names_of(case);
        let d = distance(&run(), &names, &want(case));
        assert!(d < 1e-12, "batch_norm differs by {d}");
        assert_eq!(on_threads(2, run).data(), run().data());
        seen += 1;
    }
    assert_eq!(seen, 4);
}

#[test]
fn rotary_embeddings_agree_with_the_reference_formulas() {
    let mut seen = 0;
    for case in cases().iter().filter(|c| c["op"] == "rope") {
        let x = operand::<f64>(&case["x"]);
        let style = match case["style"].as_str().unwrap() {
            "adjacent" => RopeStyle::Adjacent,
            _ => RopeStyle::Halves,
        };
        let hd = x.sizes()[x.shape().position("HD").unwrap()];
        let rot = Rotary::new(style, hd, 16, 10000.0).unwrap();
        let offset = case["offset"].as_u64().unwrap() as usize;
        let y = x.rope(&sel("SEQ"), &sel("HD"), &rot, offset).unwrap();
        let d = distance(&y, &names_of(case), &want(case));
        assert!(d < 1e-12, "{style:?} differs by {d}");
        seen += 1;
    }
    assert_eq!(seen, 4);
}

names!(B, SEQ, KSEQ, KVH, GROUP, HD, DIM);

fn ramp(n: usize, a: usize, m: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * a) % m) as f32 / m as f32 - 0.5)
        .collect()
}

/// The composition the fused attention replaces: scores, scale, mask by name, softmax,
/// values.
#[test]
fn fused_attention_is_its_composition_typed_and_on_views() {
    let (l, s, kvh, g, e) = (37, 150, 2, 3, 16);
    let q = Tensor::<f32, shape![SEQ, KVH, GROUP, HD]>::from_vec_sized(
        &[l, kvh, g, e],
        ramp(l * kvh * g * e, 7, 29),
    )
    .unwrap();
    let k = Tensor::<f32, shape![KSEQ, KVH, HD]>::from_vec_sized(
        &[s, kvh, e],
        ramp(s * kvh * e, 5, 31),
    )
    .unwrap();
    let v = Tensor::<f32, shape![KSEQ, KVH, HD]>::from_vec_sized(
        &[s, kvh, e],
        ramp(s * kvh * e, 3, 37),
    )
    .unwrap();
    let offset = s - l;
    let mask = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[l, s], |i| {
        if i[1] > i[0] + offset {
            f32::NEG_INFINITY
        } else {
            0.0
        }
    })
    .unwrap();
    let scale = 1.0 / (e as f32).sqrt();
    let parts = (q.dot::<HD>(&k) * scale + &mask)
        .softmax::<KSEQ>()
        .dot::<KSEQ>(&v);
    let fused = q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::at(offset), None);
    let by_mask = q.attention::<HD, KSEQ>(&k, &v, &mask, None);
    assert_eq!(fused.sizes(), parts.sizes());
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    assert!(close(fused.data(), parts.data()));
    assert!(close(by_mask.data(), parts.data()));
    // Keys and values as strided views (their axes reordered, nothing copied), and the
    // queries too: the same result.
    let kt = k
        .view()
        .align_to::<shape![KVH, HD, KSEQ]>()
        .unwrap()
        .to_tensor();
    let kv = kt.view().align_to::<shape![KSEQ, KVH, HD]>().unwrap();
    let qt = q
        .view()
        .align_to::<shape![HD, GROUP, KVH, SEQ]>()
        .unwrap()
        .to_tensor();
    let qv = qt.view().align_to::<shape![SEQ, KVH, GROUP, HD]>().unwrap();
    let on_views = qv.attention::<HD, KSEQ>(&kv, &v.view(), Causal::<SEQ>::at(offset), None);
    assert!(close(on_views.data(), fused.data()));
    // Queries stored features first, `[HD, GROUP, KVH, SEQ]`: the output is the queries'
    // other axes in their order, then the values' features.
    let features_first: Tensor<f32, shape![GROUP, KVH, SEQ, HD]> =
        qt.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::at(offset), None);
    let want: Tensor<f32, shape![GROUP, KVH, SEQ, HD]> =
        fused.view().align_to().unwrap().to_tensor();
    assert!(close(features_first.data(), want.data()));
    // No mask, and a scale.
    let plain = q.attention::<HD, KSEQ>(&k, &v, NoMask, Some(0.5));
    let parts = (q.dot::<HD>(&k) * 0.5).softmax::<KSEQ>().dot::<KSEQ>(&v);
    assert!(close(plain.data(), parts.data()));
    // Typed and run-time agree bit for bit.
    let dyn_out = q
        .to_dyn()
        .attention(
            &k.to_dyn(),
            &v.to_dyn(),
            &[sel("HD")],
            &sel("KSEQ"),
            DynMask::Causal {
                axis: &sel("SEQ"),
                offset,
            },
            None,
        )
        .unwrap();
    assert_eq!(dyn_out.data(), fused.data());
}

#[test]
fn fused_norms_and_rotations_are_their_compositions() {
    let x =
        Tensor::<f32, shape![B: 2, SEQ, DIM: 48]>::from_vec_sized(&[2, 5, 48], ramp(480, 13, 41))
            .unwrap();
    let w =
        Tensor::<f32, shape![DIM: 48]>::from_vec(ramp(48, 3, 7).iter().map(|v| v + 1.0).collect())
            .unwrap();
    let b = Tensor::<f32, shape![DIM: 48]>::from_vec(ramp(48, 5, 11)).unwrap();
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 2e-5);
    let ln = (&x - &x.mean::<DIM>()) / (x.var::<DIM>() + 1e-5).sqrt() * &w + &b;
    assert!(close(x.layer_norm::<DIM>(&w, &b, 1e-5).data(), ln.data()));
    let rms = &x / ((&x * &x).mean::<DIM>() + 1e-5).sqrt() * &w;
    assert!(close(x.rms_norm::<DIM>(&w, 1e-5).data(), rms.data()));
    // On a view whose normalised axis is not the last in memory.
    let t = x
        .view()
        .align_to::<shape![DIM: 48, B: 2, SEQ]>()
        .unwrap()
        .to_tensor();
    let view = t.view().align_to::<shape![B: 2, SEQ, DIM: 48]>().unwrap();
    assert!(close(view.rms_norm::<DIM>(&w, 1e-5).data(), rms.data()));
    let dyn_out = x
        .to_dyn()
        .rms_norm(&[sel("DIM")], &w.to_dyn(), 1e-5)
        .unwrap();
    assert_eq!(dyn_out.data(), x.rms_norm::<DIM>(&w, 1e-5).data());

    // Adjacent pairs: the 2x2 rotation of each pair, as a contraction over the pair's parts.
    let q = Tensor::<f32, shape![SEQ, KVH: 2, HD: 8]>::from_vec_sized(&[5, 2, 8], ramp(80, 7, 23))
        .unwrap();
    let rot = Rotary::<f32>::new(RopeStyle::Adjacent, 8, 16, 10000.0).unwrap();
    let turned = q.rope::<SEQ, HD>(&rot, 3);
    for t in 0..5 {
        for h in 0..2 {
            for i in 0..4 {
                let angle = (3 + t) as f32 / 10000f32.powf((2 * i) as f32 / 8.0);
                let (re, im) = (
                    q.at(&[t, h, 2 * i]).unwrap(),
                    q.at(&[t, h, 2 * i + 1]).unwrap(),
                );
                let want = [
                    re * angle.cos() - im * angle.sin(),
                    re * angle.sin() + im * angle.cos(),
                ];
                let got = [
                    *turned.at(&[t, h, 2 * i]).unwrap(),
                    *turned.at(&[t, h, 2 * i + 1]).unwrap(),
                ];
                assert!((got[0] - want[0]).abs() < 1e-5 && (got[1] - want[1]).abs() < 1e-5);
            }
        }
    }
    let on_view = q.view().rope::<SEQ, HD>(&rot, 3);
    assert_eq!(on_view.data(), turned.data());
}

#[test]
fn refusals_at_run_time_are_errors() {
    let q = Tensor::<f32, shape![SEQ, HD]>::from_vec_sized(&[2, 4], vec![0.0; 8]).unwrap();
    let k = Tensor::<f32, shape![KSEQ, HD]>::from_vec_sized(&[3, 5], vec![0.0; 15]).unwrap();
    let err = q
        .try_attention::<HD, KSEQ>(&k, &k, NoMask, None)
        .unwrap_err();
    assert_eq!(err.to_string(), "cannot attend [SEQ: 2, HD: 4] to keys [KSEQ: 3, HD: 5] with values [KSEQ: 3, HD: 5]: axis 1 (HD) has size 4 in the queries and 5 in the keys (contracted sizes never stretch)");
    let mask = Tensor::<f32, shape![SEQ, KSEQ]>::from_vec_sized(&[2, 4], vec![0.0; 8]).unwrap();
    let k = Tensor::<f32, shape![KSEQ, HD]>::from_vec_sized(&[3, 4], vec![0.0; 12]).unwrap();
    let err = q
        .try_attention::<HD, KSEQ>(&k, &k, &mask, None)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("the mask's axis 1 has size 4 where the scores have 3"),
        "{err}"
    );
    let rot = Rotary::<f32>::new(RopeStyle::Adjacent, 6, 16, 10000.0).unwrap();
    let err = q.try_rope::<SEQ, HD>(&rot, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot rope [SEQ: 2, HD: 4] over SEQ, HD: the features have size 4 and the table 6"
    );
    let w = Tensor::<f32, shape![HD]>::from_vec_sized(&[3], vec![1.0; 3]).unwrap();
    let err = q.try_rms_norm::<HD>(&w, 1e-5).unwrap_err();
    assert!(
        err.to_string()
            .contains("the weight's axis 0 has size 3 where the input has 4"),
        "{err}"
    );
    // Empty keys: every query sees nothing, a NaN as PyTorch's.
    let none = Tensor::<f32, shape![KSEQ, HD]>::from_vec_sized(&[0, 4], vec![]).unwrap();
    let out = q.attention::<HD, KSEQ>(&none, &none, NoMask, None);
    assert!(out.data().iter().all(|x| x.is_nan()));
}

/// The largest difference between two tensors with the same axis names, element by element
/// by name (their axes may be in different orders).
fn distance_by_name(a: &DynTensor<f64>, b: &DynTensor<f64>) -> f64 {
    let names: Vec<String> = a
        .shape()
        .axes()
        .iter()
        .map(|x| x.name.as_ref().unwrap().to_string())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // `a` in its own order is the reference `distance` reads `b` against.
    distance(b, &names, a.data())
}

/// `n` distinct positions in a generated order.
fn order(n: usize, seed: u64) -> Vec<usize> {
    let mut o: Vec<usize> = (0..n).collect();
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for i in (1..n).rev() {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        o.swap(i, (s >> 33) as usize % (i + 1));
    }
    o
}

/// A tensor of the named sizes in a generated axis order, its elements a function of the
/// index by name.
fn generated(axes: &[(&str, usize)], seed: u64, f: impl Fn(&[usize]) -> f64) -> DynTensor<f64> {
    let o = order(axes.len(), seed);
    let text: Vec<String> = o
        .iter()
        .map(|&k| format!("{}: {}", axes[k].0, axes[k].1))
        .collect();
    let shape: DynShape = format!("[{}]", text.join(", ")).parse().unwrap();
    DynTensor::from_fn(shape, |i| {
        // The index in the canonical order of `axes`.
        let mut canonical = vec![0; axes.len()];
        for (p, &k) in o.iter().enumerate() {
            canonical[k] = i[p];
        }
        f(&canonical)
    })
    .unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// On generated shapes (grouped heads or none, a batch or none, lengths across a block,
    /// every operand's axes in a generated order) and masks (none, causal after a prefix, an
    /// additive tensor with hidden keys), the fused attention is its composition.
    #[test]
    fn fused_attention_is_its_composition_on_generated_shapes(
        l in 1usize..70,
        extra in 0usize..40,
        (kvh, g) in (1usize..4, 1usize..4),
        (e, ev) in (1usize..9, 1usize..9),
        masking in 0usize..3,
        seed in 0u64..1_000_000,
        batch in proptest::bool::ANY,
    ) {
        let s = l + extra;
        let wave = |i: &[usize], a: usize| {
            let h = i.iter().fold(seed as usize, |h, &x| h.wrapping_mul(31).wrapping_add(x * a + 7));
            (h % 97) as f64 / 48.0 - 1.0
        };
        let b = [("B", 2)];
        let with_batch = |rest: Vec<(&'static str, usize)>| -> Vec<(&'static str, usize)> {
            if batch { b.iter().copied().chain(rest).collect() } else { rest }
        };
        let mut qa = vec![("SEQ", l), ("KVH", kvh), ("GROUP", g), ("HD", e)];
        if g == 1 && seed % 2 == 1 {
            qa.remove(2);
        }
        let q = generated(&with_batch(qa), seed, |i| wave(i, 3));
        let k = generated(&with_batch(vec![("KSEQ", s), ("KVH", kvh), ("HD", e)]), seed + 1, |i| wave(i, 5));
        let v = generated(&with_batch(vec![("KSEQ", s), ("KVH", kvh), ("E", ev)]), seed + 2, |i| wave(i, 11));
        // The mask as a tensor [SEQ, KSEQ] (in a generated order) for the composition.
        let hidden = |i: usize, j: usize| match masking {
            1 => j > i + extra,
            2 => j > 0 && (i * 3 + j + seed as usize).is_multiple_of(4),
            _ => false,
        };
        let mask = generated(&[("SEQ", l), ("KSEQ", s)], seed + 3, |ix| {
            let bias = if masking == 2 { wave(ix, 13) } else { 0.0 };
            if hidden(ix[0], ix[1]) { f64::NEG_INFINITY } else { bias }
        });
        let scale = 1.0 / (e as f64).sqrt();
        let scalar = DynTensor::from_vec(DynShape::scalar(), vec![scale]).unwrap();
        let scores = &q.dot(&k, &[sel("HD")]).unwrap() * &scalar;
        let p = (&scores + &mask).softmax(&[sel("KSEQ")]).unwrap();
        let composed = p.dot(&v, &[sel("KSEQ")]).unwrap();
        let seq = sel("SEQ");
        let dyn_mask = match masking {
            0 => DynMask::None,
            1 => DynMask::Causal { axis: &seq, offset: extra },
            _ => DynMask::Additive(&mask),
        };
        let fused = q.attention(&k, &v, &[sel("HD")], &sel("KSEQ"), dyn_mask, None).unwrap();
        proptest::prop_assert_eq!(fused.shape(), composed.shape());
        let d = distance_by_name(&composed, &fused);
        proptest::prop_assert!(d < 1e-12, "differs by {}", d);
    }
}
