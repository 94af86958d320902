//! The one index walk: [`step`], the row-major walk over a multi-index that every kernel and
//! iterator advances its index with, the offsets of a strided layout ([`Offsets`]), the inner
//! run every elementwise kernel writes ([`inner`]), and index-access broadcasting (rule book
//! §12).

use crate::alloc_prelude::*;

use core::mem::MaybeUninit;

use super::raw::Tiles;

/// Moves a row-major multi-index `index` over `sizes` one step on, moving each of the `K`
/// offsets by its strides; `false` once the index has wrapped round to all zeros (the walk is
/// over). The last axis moves fastest: over sizes `[2, 3]` with strides `[3, 1]`, index
/// `[0, 2]` at offset 2 steps to `[1, 0]` at offset 3.
#[inline(always)]
pub(crate) fn step<const K: usize>(
    index: &mut [usize],
    sizes: &[usize],
    strides: [&[usize]; K],
    offsets: &mut [usize; K],
) -> bool {
    for axis in (0..index.len()).rev() {
        index[axis] += 1;
        for k in 0..K {
            offsets[k] += strides[k][axis];
        }
        if index[axis] < sizes[axis] {
            return true;
        }
        for k in 0..K {
            offsets[k] -= strides[k][axis] * sizes[axis];
        }
        index[axis] = 0;
    }
    false
}

/// The offset of an element under index-access broadcasting (rule book §12) in data laid out with
/// `strides`, or why the index is refused.
pub(crate) fn iab_offset(
    sizes: &[usize],
    strides: &[usize],
    index: &[usize],
) -> Result<usize, String> {
    if index.len() < sizes.len() {
        return Err(format!(
            "{} indices for rank {}: give at least one per axis",
            index.len(),
            sizes.len()
        ));
    }
    let mut offset = 0;
    for (axis, ((&n, &s), &i)) in sizes.iter().zip(strides).zip(index).enumerate() {
        match n {
            1 => {}
            _ if i < n => offset += i * s,
            _ => {
                return Err(format!(
                    "index {i} is out of range for axis {axis} of size {n}"
                ))
            }
        }
    }
    Ok(offset)
}

/// The offsets of every element of a strided layout, in row-major order of the index.
pub(crate) struct Offsets {
    sizes: Vec<usize>,
    strides: Vec<usize>,
    index: Vec<usize>,
    offset: [usize; 1],
    remaining: usize,
}

impl Offsets {
    pub(crate) fn new(sizes: &[usize], strides: &[usize]) -> Offsets {
        Offsets {
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
            index: vec![0; sizes.len()],
            offset: [0],
            // Saturating: only a broadcast view (stride 0) can hold more than usize::MAX
            // positions, and nobody walks that far.
            remaining: super::allocation::count(sizes).unwrap_or(usize::MAX),
        }
    }
}

impl Iterator for Offsets {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let here = self.offset[0];
        step(
            &mut self.index,
            &self.sizes,
            [&self.strides],
            &mut self.offset,
        );
        Some(here)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Offsets {}

/// Where one run of a kernel's output goes: `put` writes the run's values and returns how
/// many it wrote.
pub(crate) trait RunOut<O> {
    fn put(&mut self, values: impl Iterator<Item = O>) -> usize;
}

/// The spare capacity at the run's place: the values are counted as they are written.
impl<O> RunOut<O> for [MaybeUninit<O>] {
    #[inline(always)]
    fn put(&mut self, values: impl Iterator<Item = O>) -> usize {
        fill(self, values)
    }
}

/// One inner run of `n` elements into `out`, specialised on the two strides; returns the
/// elements written. The one inner loop of every elementwise kernel, the run-time one here
/// and the static one (`static_kernel::zip_static`).
#[inline(always)]
pub(crate) fn inner<A, B, O, R: RunOut<O> + ?Sized>(
    n: usize,
    (a, oa, sa): (&[A], usize, usize),
    (b, ob, sb): (&[B], usize, usize),
    out: &mut R,
    f: &impl Fn(&A, &B) -> O,
) -> usize {
    match (sa, sb) {
        (1, 1) => out.put(
            a[oa..oa + n]
                .iter()
                .zip(&b[ob..ob + n])
                .map(|(x, y)| f(x, y)),
        ),
        (1, 0) => {
            let y = &b[ob];
            out.put(a[oa..oa + n].iter().map(|x| f(x, y)))
        }
        (0, 1) => {
            let x = &a[oa];
            out.put(b[ob..ob + n].iter().map(|y| f(x, y)))
        }
        (0, 0) => {
            let (x, y) = (&a[oa], &b[ob]);
            out.put((0..n).map(|_| f(x, y)))
        }
        (0, _) => {
            let x = &a[oa];
            out.put(strided(b, ob, sb, n).map(|y| f(x, y)))
        }
        (_, 0) => {
            let y = &b[ob];
            out.put(strided(a, oa, sa, n).map(|x| f(x, y)))
        }
        _ => {
            let (a, b) = (strided(a, oa, sa, n), strided(b, ob, sb, n));
            out.put(a.zip(b).map(|(x, y)| f(x, y)))
        }
    }
}

/// The longest inner run [`across`] takes: a run this short that reads an operand across a
/// stride costs a cache line (and often a page) per element when walked run by run.
const ACROSS_MAX_RUN: usize = 64;

/// The rows of one tile of [`across`]: its `64 x n` values (16 KiB at most for `f32`) stay
/// in L1 between being computed and being moved. Of 32, 64 and 256 rows, 64 measured
/// fastest (docs/performance.md, "The outer rule's fusion").
const ACROSS_TILE: usize = 64;

/// The fewest output elements written by [`across`]: below, the tile's scratch (one
/// allocation) costs more than the runs it saves, and a small result is written run by run.
pub(crate) const ACROSS_MIN_TOTAL: usize = 4096;

/// Whether the last two axes `[m, n]` of a merged layout of `total` elements (each operand's
/// strides along them) are walked as blocks by [`across`]: the output is large, the run `n`
/// is short, and an operand reads it across a stride while reading the axis `m` in order (a
/// transpose under a broadcast, as the outer rule's runs are).
#[inline(always)]
pub(crate) const fn reads_across(total: usize, n: usize, a: [usize; 2], b: [usize; 2]) -> bool {
    let across = (a[0] == 1 && a[1] > 1) || (b[0] == 1 && b[1] > 1);
    total >= ACROSS_MIN_TOTAL && n <= ACROSS_MAX_RUN && across
}

/// The block of the last two axes `[m, n]` into `out` (its `m x n` slots, row-major), each
/// operand given by its offset and its strides along `m` and `n`, in tiles of
/// [`ACROSS_TILE`] rows: a tile's columns are computed by [`inner`] along `m` (so an operand
/// that [`reads_across`] is read in order, in vector registers where the strides are 0 or 1)
/// into the scratch of `tiles`, then moved into their slots. Returns the elements written.
#[inline(always)]
pub(crate) fn across<A, B, O>(
    (m, n): (usize, usize),
    (a, oa, [am, an]): (&[A], usize, [usize; 2]),
    (b, ob, [bm, bn]): (&[B], usize, [usize; 2]),
    (out, tiles): (&mut [MaybeUninit<O>], &mut Tiles<O>),
    f: &impl Fn(&A, &B) -> O,
) -> usize {
    let mut written = 0;
    for r0 in (0..m).step_by(ACROSS_TILE) {
        let rows = ACROSS_TILE.min(m - r0);
        let tile = &mut out[r0 * n..(r0 + rows) * n];
        let column = |c: usize, slots: &mut [MaybeUninit<O>]| {
            let (pa, pb) = (oa + r0 * am + c * an, ob + r0 * bm + c * bn);
            inner(rows, (a, pa, am), (b, pb, bm), slots, f)
        };
        written += tiles.fill((rows, n), column, tile);
    }
    written
}

/// [`across`] for every block of a merged layout whose last two axes [`reads_across`]:
/// `lead` the sizes of the axes before them, with each operand's strides (`la`, `lb`) and
/// its offset at the first block (`at`); `block` the last two axes' sizes with each
/// operand's strides along them. The blocks fill `out` one after the other through `tiles`
/// (one for every block a caller writes, streaming when the whole output is large enough:
/// `raw::streams`); returns the elements written.
#[inline(always)]
pub(crate) fn blocks_across<const N: usize, A, B, O>(
    (lead, la, lb): (&[usize], &[usize], &[usize]),
    mut at: [usize; 2],
    ((m, n), sa, sb): ((usize, usize), [usize; 2], [usize; 2]),
    a: &[A],
    b: &[B],
    (out, tiles): (&mut [MaybeUninit<O>], &mut Tiles<O>),
    f: &impl Fn(&A, &B) -> O,
) -> usize {
    let mut index = [0usize; N];
    let (mut at_out, mut written) = (0, 0);
    loop {
        let slots = (&mut out[at_out..at_out + m * n], &mut *tiles);
        written += across((m, n), (a, at[0], sa), (b, at[1], sb), slots, f);
        at_out += m * n;
        if !step(&mut index[..lead.len()], lead, [la, lb], &mut at) {
            break;
        }
    }
    written
}

/// Up to `n` elements of `x` from `at`, `step` apart (`x[at]` repeated for a step of 0):
/// fewer when `x` ends first. An index loop rather than `step_by`, whose per-call set-up
/// dominated runs of a few elements.
#[inline(always)]
fn strided<X>(x: &[X], at: usize, step: usize, n: usize) -> impl Iterator<Item = &X> {
    let within = match step {
        0 if at < x.len() => n,
        0 => 0,
        _ => x.len().saturating_sub(at).div_ceil(step),
    };
    (0..n.min(within)).map(move |i| &x[at + i * step])
}

/// Writes a run's values into its slots; returns how many it wrote (fewer than the slots
/// when an operand ran short, which the caller's count then shows).
#[inline(always)]
fn fill<O>(slots: &mut [MaybeUninit<O>], values: impl Iterator<Item = O>) -> usize {
    let mut written = 0;
    for (slot, v) in slots.iter_mut().zip(values) {
        slot.write(v);
        written += 1;
    }
    written
}

/// `x`'s elements as one slice when `x` is stored row-major over its own sizes.
pub(crate) fn contiguous<'a, T>(x: &super::layout::Strided<'a, T>) -> Option<&'a [T]> {
    let mut dense = [0; crate::values::shape::MAX_RANK];
    let dense = &mut dense[..x.sizes.len()];
    super::layout::row_major_into(x.sizes, dense);
    let n = super::allocation::count(x.sizes)?;
    (dense == x.strides && x.data.len() >= n).then(|| &x.data[..n])
}

/// The elements of `x` in row-major order of its index: borrowed when `x` is stored that way
/// ([`contiguous`]), copied through its strides otherwise.
pub(crate) fn row_major_elements<'a, T: Clone>(
    x: &super::layout::Strided<'a, T>,
) -> alloc::borrow::Cow<'a, [T]> {
    match contiguous(x) {
        Some(elements) => alloc::borrow::Cow::Borrowed(elements),
        None => alloc::borrow::Cow::Owned(
            Offsets::new(x.sizes, x.strides)
                .map(|o| x.data[o].clone())
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::step;

    #[test]
    fn step_walks_row_major_and_moves_each_offset() {
        // [2, 3] with a row-major operand and a transposed one.
        let (sizes, a, t) = ([2, 3], [3, 1], [1, 2]);
        let (mut index, mut at) = ([0, 0], [0, 0]);
        let mut seen = vec![(index, at)];
        while step(&mut index, &sizes, [&a, &t], &mut at) {
            seen.push((index, at));
        }
        let expect: Vec<_> = (0..2)
            .flat_map(|i| (0..3).map(move |j| ([i, j], [3 * i + j, i + 2 * j])))
            .collect();
        assert_eq!(seen, expect);
        assert_eq!((index, at), ([0, 0], [0, 0]), "wraps back to the start");
        // Rank 0: one element, no step.
        assert!(!step(&mut [], &[], [], &mut []));
    }
}
