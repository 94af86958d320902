//! Reductions, contractions and shape surgery on run-time tensors of arbitrary small shapes,
//! names and sizes (zeros included, and a huge size beside a zero): every call returns an
//! error or a result, never a panic; a result holds its shape's element count; softmax's
//! cells sum to 1.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{AxisSelector, DynTensor, Name};

mod common;
use common::{holds_its_count, selector, shape, Bytes, NAMES};

/// Up to two selectors.
fn selectors(b: &mut Bytes) -> Vec<AxisSelector> {
    (0..b.next() % 3).map(|_| selector(b)).collect()
}

/// A tensor of `f64`.
fn tensor(b: &mut Bytes) -> Option<DynTensor<f64>> {
    common::tensor(b)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let Some(t) = tensor(&mut b) else {
        return;
    };
    let Some(u) = tensor(&mut b) else {
        return;
    };
    let axes = selectors(&mut b);
    for r in [
        t.sum(&axes),
        t.mean(&axes),
        t.max(&axes),
        t.logsumexp(&axes),
        t.sum_keep(&axes),
    ]
    .into_iter()
    .flatten()
    {
        holds_its_count(&r);
    }
    if let Ok(p) = t.softmax(&axes) {
        holds_its_count(&p);
        if let Ok(s) = p.sum(&axes) {
            assert!(s
                .data()
                .iter()
                .all(|x| (x - 1.0).abs() < 1e-9 || x.is_nan() || *x == 0.0));
        }
        assert_eq!(t.clone().softmax_into(&axes).ok(), Some(p));
    }
    if let Ok(a) = t.argmax(&selector(&mut b)) {
        assert_eq!(Some(a.data().len()), a.shape().numel().ok());
    }
    for r in [t.dot(&u, &axes), t.matmul(&u)].into_iter().flatten() {
        holds_its_count(&r);
    }
    let (axis, i) = (selector(&mut b), b.next() as usize % 4);
    let to = Name::new(NAMES[b.next() as usize % 4]).ok();
    for r in [
        t.select(&axis, i),
        t.slice(&axis, i..i + (b.next() % 3) as usize),
        t.rename(&axis, to.as_ref()),
        t.insert_axis(b.next() as usize % 5, to.as_ref()),
        t.merge_axes(&axes, to.as_ref()),
        DynTensor::concat(&axis, &[&t, &u]),
        DynTensor::stack(to.as_ref(), &[&t, &u]),
    ]
    .into_iter()
    .flatten()
    {
        holds_its_count(&r);
    }
    if let Some(parts) = shape(&mut b) {
        if let Ok(r) = t.split_axis(&axis, &parts) {
            holds_its_count(&r);
        }
    }
});
