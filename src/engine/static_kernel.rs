//! The compile-time twin of the kernel: when every shape of an operation is static, the
//! merged layout is a constant worked out by a `const fn`, and the loop over it runs with
//! constant bounds and no checks.

use super::layout::Merged;
use super::sink::{Runs, Sink};
use super::walk::{inner, reads_across, step, RunOut};
use crate::values::shape::MAX_TYPED_RANK;

/// One side of a constant plan: the operand axis feeding each output axis.
type Side = [Option<usize>; MAX_TYPED_RANK];

/// The layout of a broadcast between static shapes, worked out at compile time: the merged
/// output sizes and each operand's strides (see [`merge`]). The kernel over it has no
/// validation left to do, and with every bound a constant the compiler unrolls and vectorises
/// small cases completely.
pub(crate) struct StaticLayout {
    total: usize,
    merged: Merged<MAX_TYPED_RANK>,
    /// [`StaticLayout::reads_across`], worked out with the layout.
    across: bool,
}

/// The sizes of a shape all of whose sizes are static (`None` counts as 1; callers only pass
/// static shapes).
pub(crate) const fn known(sizes: &[Option<usize>]) -> [usize; MAX_TYPED_RANK] {
    let mut out = [1; MAX_TYPED_RANK];
    let mut i = 0;
    while i < sizes.len() && i < MAX_TYPED_RANK {
        out[i] = match sizes[i] {
            Some(n) => n,
            None => 1,
        };
        i += 1;
    }
    out
}

/// Row-major strides in the output frame of an operand with static `sizes`, by one side of a
/// plan: 0 for an inserted singleton and for an axis of size 1.
const fn static_frame(side: &Side, len: usize, sizes: &[Option<usize>]) -> [usize; MAX_TYPED_RANK] {
    let own_sizes = known(sizes);
    let mut own = [1usize; MAX_TYPED_RANK];
    let mut k = sizes.len();
    while k > 1 {
        k -= 1;
        own[k - 1] = own[k] * own_sizes[k];
    }
    let mut frame = [0usize; MAX_TYPED_RANK];
    let mut i = 0;
    while i < len {
        if let Some(k) = side[i]
            && own_sizes[k] != 1
        {
            frame[i] = own[k];
        }
        i += 1;
    }
    frame
}

impl StaticLayout {
    /// The layout of `out = f(a, b)` for static shapes and a plan between them: the source
    /// axis of each operand (`lhs`, `rhs`) for each of the output's `rank` axes.
    pub(crate) const fn new(
        out: &[Option<usize>],
        (lhs, rhs, rank): (&Side, &Side, usize),
        a: &[Option<usize>],
        b: &[Option<usize>],
    ) -> StaticLayout {
        let sizes = known(out);
        let fa = static_frame(lhs, rank, a);
        let fb = static_frame(rhs, rank, b);
        let mut total = 1;
        let mut i = 0;
        while i < rank {
            total *= sizes[i];
            i += 1;
        }
        let merged = Merged::new(
            sizes.split_at(rank).0,
            fa.split_at(rank).0,
            fb.split_at(rank).0,
        );
        let (m, k) = (&merged, merged.len);
        let across = k >= 2
            && reads_across(
                total,
                m.sizes[k - 1],
                [m.a[k - 2], m.a[k - 1]],
                [m.b[k - 2], m.b[k - 1]],
            );
        StaticLayout {
            total,
            merged,
            across,
        }
    }

    /// The number of output elements.
    pub(crate) const fn total(&self) -> usize {
        self.total
    }

    /// The merged sizes and the two operands' strides, for the run-time kernel.
    pub(crate) fn merged(&self) -> (&[usize], &[usize], &[usize]) {
        let m = &self.merged;
        (&m.sizes[..m.len], &m.a[..m.len], &m.b[..m.len])
    }

    /// Whether the run-time kernel writes this layout: its last two axes read an operand
    /// across a stride ([`reads_across`], a large output), which that kernel writes a block
    /// at a time and this one, writing in order, cannot. The outer rule's fusion of
    /// `benches/cnn.rs` (8.8 million elements, runs of 15 across a stride of 24,576) is the
    /// case.
    pub(crate) const fn reads_across(&self) -> bool {
        self.across
    }
}

/// `f(a, b)` over a static layout, as [`Runs`].
pub(crate) struct StaticZip<'x, A, B, F> {
    pub(crate) layout: &'x StaticLayout,
    pub(crate) a: &'x [A],
    pub(crate) b: &'x [B],
    pub(crate) f: F,
}

impl<A, B, O, F: Fn(&A, &B) -> O> Runs<O> for StaticZip<'_, A, B, F> {
    #[inline(always)]
    fn write_to<K: Sink<O> + ?Sized>(self, sink: &mut K) {
        zip_static(self.layout, self.a, self.b, sink, self.f);
    }
}

/// `f(a, b)` over a static layout into `out`, in row-major order. The caller guarantees that
/// the operands hold their shapes' element counts (a typed tensor's buffer does) and, for a
/// slice, that `out` holds `layout.total()` elements.
#[inline(always)]
pub(crate) fn zip_static<A, B, O, K: Sink<O> + ?Sized>(
    l: &StaticLayout,
    a: &[A],
    b: &[B],
    out: &mut K,
    f: impl Fn(&A, &B) -> O,
) {
    let total = l.total;
    let l = &l.merged;
    if total == 0 {
        return;
    }
    if l.len == 0 {
        out.put(0, 1, core::iter::once(f(&a[0], &b[0])));
        return;
    }
    let last = l.len - 1;
    let (n, ia, ib) = (l.sizes[last], l.a[last], l.b[last]);
    let mut index = [0usize; MAX_TYPED_RANK];
    let mut o = [0usize; 2];
    let mut at = 0;
    loop {
        let [oa, ob] = o;
        let mut run = SinkAt { sink: out, at, n };
        inner(n, (a, oa, ia), (b, ob, ib), &mut run, &f);
        at += n;
        if !step(
            &mut index[..last],
            &l.sizes[..last],
            [&l.a[..last], &l.b[..last]],
            &mut o,
        ) {
            return;
        }
    }
}

/// A sink at one run's place, as the kernel's inner loop writes runs.
struct SinkAt<'k, K: ?Sized> {
    sink: &'k mut K,
    at: usize,
    n: usize,
}

impl<O, K: Sink<O> + ?Sized> RunOut<O> for SinkAt<'_, K> {
    #[inline(always)]
    fn put(&mut self, values: impl Iterator<Item = O>) -> usize {
        self.sink.put(self.at, self.n, values);
        self.n
    }
}
