//! Reductions, contractions and shape surgery on run-time tensors of arbitrary small shapes,
//! names and sizes (zeros included, and a huge size beside a zero): every call returns an
//! error or a result, never a panic; a result holds its shape's element count; softmax's
//! cells sum to 1.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{AxisSelector, DynShape, DynTensor, Name};

/// A byte cursor: each read takes the next byte, 0 once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        *first
    }
}

const NAMES: [&str; 4] = ["A", "B", "C", "D"];

/// A shape of rank 0–4, sizes 0–3 (or, rarely, 2^40 beside a zero), some axes named.
fn shape(b: &mut Bytes) -> Option<DynShape> {
    let rank = (b.next() % 5) as usize;
    let mut text = Vec::new();
    let mut sizes = Vec::new();
    for _ in 0..rank {
        let (s, n) = (b.next(), b.next());
        let size = if s == 255 { 1usize << 40 } else { (s % 4) as usize };
        sizes.push(size);
        match n % 6 {
            k @ 0..=3 => text.push(format!("{}: {size}", NAMES[k as usize])),
            _ => text.push(size.to_string()),
        }
    }
    let shape: DynShape = format!("[{}]", text.join(", ")).parse().ok()?;
    // A huge size only beside a zero: the tensor holds no element.
    (!sizes.contains(&(1 << 40)) || sizes.contains(&0)).then_some(shape)
}

fn tensor(b: &mut Bytes) -> Option<DynTensor<f64>> {
    let shape = shape(b)?;
    let n = shape.numel().ok()?;
    let data = (0..n).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
    DynTensor::from_vec(shape, data).ok()
}

fn selector(b: &mut Bytes) -> AxisSelector {
    match b.next() % 8 {
        k @ 0..=3 => AxisSelector::Name(Name::new(NAMES[k as usize]).unwrap()),
        k => AxisSelector::Pos((k - 4) as usize),
    }
}

fn selectors(b: &mut Bytes) -> Vec<AxisSelector> {
    (0..b.next() % 3).map(|_| selector(b)).collect()
}

fn holds_its_count(t: &DynTensor<f64>) {
    assert_eq!(Some(t.data().len()), t.shape().numel().ok());
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
            assert!(s.data().iter().all(|x| (x - 1.0).abs() < 1e-9 || x.is_nan() || *x == 0.0));
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
