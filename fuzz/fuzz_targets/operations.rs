//! The model and window operations on run-time tensors of arbitrary small shapes, names and
//! sizes (zeros included, and a huge size beside a zero): norms, rotary embeddings,
//! attention with every mask, top-k, sampling, scans, the statistics, gathers, convolution,
//! pooling, padding and interpolation with geometry from the input. Every call returns an error or a
//! result, never a panic; a result holds its shape's element count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::dynamic::conv::ConvSpec;
use shapecast::dynamic::pool::PoolSpec;
use shapecast::{DynMask, DynTensor, Interpolation, PadMode, RopeStyle, Rotary};

mod common;
use common::{holds_its_count, selector, Bytes};

/// A tensor of `f32`.
fn tensor(b: &mut Bytes) -> Option<DynTensor<f32>> {
    common::tensor(b)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let (Some(x), Some(y), Some(z)) = (tensor(&mut b), tensor(&mut b), tensor(&mut b)) else {
        return;
    };
    let (s1, s2, s3) = (selector(&mut b), selector(&mut b), selector(&mut b));
    let (k, k2) = (b.knob(), b.knob());
    let mut results = Vec::new();
    results.push(x.layer_norm(&[s1.clone()], &y, &z, 1e-5));
    results.push(x.rms_norm(&[s1.clone(), s2.clone()], &y, 1e-5));
    for style in [RopeStyle::Adjacent, RopeStyle::Halves] {
        if let Ok(table) = Rotary::<f32>::new(style, k.min(8), k2.min(8), 1e4) {
            results.push(x.rope(&s1, &s2, &table, k2));
        }
    }
    results.push(x.attention(&y, &z, &[s1.clone()], &s2, DynMask::None, None));
    let causal = DynMask::Causal {
        axis: &s3,
        offset: k,
    };
    results.push(x.attention(&y, &z, &[s1.clone()], &s2, causal, Some(0.5)));
    results.push(x.attention(&y, &z, &[s1.clone()], &s2, DynMask::Additive(&x), None));
    results.push(x.cumsum(&s1));
    results.push(x.cumprod(&s2));
    results.push(x.var_ddof(&[s1.clone()], k));
    results.push(x.std_ddof(&[s1.clone(), s2.clone()], k2));
    results.push(x.step(&s1, k));
    results.push(x.log_softmax(&[s1.clone()]));
    if let Ok(stats) = DynTensor::full(y.shape().clone(), 1.0f32) {
        results.push(x.batch_norm(&stats, &stats, &stats, &stats, 1e-5));
    }
    let spec = ConvSpec::default()
        .stride(k.max(1))
        .padding(k2)
        .dilation(b.knob().max(1));
    results.push(x.conv(&y, "A", &spec));
    let pool = PoolSpec::new(k)
        .stride(k2.max(1))
        .padding(b.knob())
        .ceil_mode(b.next() % 2 == 0);
    results.push(x.max_pool(&[s1.clone()], &pool));
    results.push(x.avg_pool(
        &[s1.clone(), s2.clone()],
        &pool.count_padding(b.next() % 2 == 0),
    ));
    for mode in [PadMode::Constant(1.0), PadMode::Reflect, PadMode::Replicate] {
        results.push(x.pad(&[s1.clone()], k, &mode));
        results.push(x.pad_ends(&[s1.clone(), s2.clone()], (k2, k), &mode));
    }
    let (corners, antialias) = (b.next() % 2 == 0, b.next() % 2 == 0);
    let linear = Interpolation::Linear {
        align_corners: corners,
        antialias,
    };
    let cubic = Interpolation::Cubic {
        align_corners: corners,
        antialias,
    };
    for mode in [
        Interpolation::Nearest,
        Interpolation::NearestExact,
        linear,
        cubic,
        Interpolation::Area,
    ] {
        results.push(x.upsample(&[s1.clone(), s2.clone()], k, mode));
        results.push(x.resize(&[s2.clone()], &[k2], mode));
    }
    if let Ok(indices) = DynTensor::full(y.shape().clone(), k as i64 - 2) {
        results.push(x.gather(&s1, &indices));
        results.push(x.take(&s2, &indices));
    }
    for r in results.iter().flatten() {
        holds_its_count(r);
    }
    if let Ok((values, indices)) = x.topk(&s1, k) {
        holds_its_count(&values);
        assert_eq!(values.shape(), indices.shape());
    }
    if let Ok(a) = x.argmax(&s2) {
        holds_its_count(&a);
    }
});
