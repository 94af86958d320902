//! What the run-time tensor targets read from the fuzzer's bytes: shapes, tensors, selectors.

use shapecast::{AxisSelector, DynShape, DynTensor, Name};

/// A byte cursor: each read takes the next byte, 0 once they run out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn next(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        *first
    }

    /// A small number (0–5), or rarely a huge one (`usize::MAX / 2`, `usize::MAX`).
    #[allow(dead_code)] // not every target reads one
    pub fn knob(&mut self) -> usize {
        match self.next() {
            255 => usize::MAX / 2,
            254 => usize::MAX,
            b => (b % 6) as usize,
        }
    }
}

pub const NAMES: [&str; 4] = ["A", "B", "C", "D"];

/// A shape of rank 0–4, sizes 0–3 (or, rarely, 2^40 beside a zero), some axes named.
pub fn shape(b: &mut Bytes) -> Option<DynShape> {
    let rank = (b.next() % 5) as usize;
    let mut text = Vec::new();
    let mut sizes = Vec::new();
    for _ in 0..rank {
        let (s, n) = (b.next(), b.next());
        let size = if s == 255 {
            1usize << 40
        } else {
            (s % 4) as usize
        };
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

/// A tensor of such a shape, its elements small integers.
pub fn tensor<T: From<i16>>(b: &mut Bytes) -> Option<DynTensor<T>> {
    let shape = shape(b)?;
    let n = shape.numel().ok()?;
    let data = (0..n).map(|i| T::from((i * 7 % 11) as i16 - 5)).collect();
    DynTensor::from_vec(shape, data).ok()
}

/// A name of [`NAMES`] or a position 0–3.
pub fn selector(b: &mut Bytes) -> AxisSelector {
    match b.next() % 8 {
        k @ 0..=3 => AxisSelector::Name(Name::new(NAMES[k as usize]).unwrap()),
        k => AxisSelector::Pos((k - 4) as usize),
    }
}

/// A result holds its shape's element count.
pub fn holds_its_count<T>(t: &DynTensor<T>) {
    assert_eq!(Some(t.data().len()), t.shape().numel().ok());
}
