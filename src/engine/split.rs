//! When work splits over threads: the element count below which an operation stays on the
//! calling thread ([`PARALLEL_MIN_ELEMENTS`], public as `kernel::PARALLEL_MIN_ELEMENTS`), and
//! how many rows each piece of a row-wise split takes. Every kernel that splits asks here.

use crate::alloc_prelude::*;

/// The fewest output elements an elementwise operator between two tensors, a reduction or a
/// softmax splits over threads when the `rayon` feature is on; smaller operations run on the
/// calling thread, so they never pay for a hand-off. The pool's workers stay awake between
/// operations (the `threads` module), so a hand-off costs a few µs; the threshold is where a
/// split measured faster on the transformer block's operations (`docs/performance.md`,
/// threads). Maps of one tensor have their own thresholds: 2^14 elements for `exp`, `tanh`
/// and the activations, 2^17 for one or two arithmetic operations; a product splits from
/// 2^21 multiply-adds, a batch of products from 2^20.
///
/// The number of threads is rayon's: its global pool, sized by `RAYON_NUM_THREADS` or
/// [`rayon::ThreadPoolBuilder`](https://docs.rs/rayon/latest/rayon/struct.ThreadPoolBuilder.html),
/// or the pool of an enclosing `install`.
///
/// ```
/// assert_eq!(shapecast::kernel::PARALLEL_MIN_ELEMENTS, 65_536);
/// ```
pub const PARALLEL_MIN_ELEMENTS: usize = 1 << 16;

/// The rows each piece takes when `rows` rows holding `elements` elements in all split over
/// rayon's pool, about four pieces per thread; `None` (stay on the calling thread) below
/// [`PARALLEL_MIN_ELEMENTS`] elements, for one row, or with one thread. Small work never
/// asks rayon (its pool starts on first use).
#[cfg(feature = "rayon")]
pub(crate) fn rows_per_piece(rows: usize, elements: usize) -> Option<usize> {
    rows_per_piece_from(rows, elements, PARALLEL_MIN_ELEMENTS)
}

/// The fewest elements a one-pass norm or rotary embedding splits over threads from: half
/// of [`PARALLEL_MIN_ELEMENTS`]. These kernels read each element once, so a split pays only
/// where handing work over is cheap, as it is with the caller spinning for its helpers
/// (`threads::pieces`); `docs/performance.md` (fused blocks, "The caller spins")
/// has the measurement against `PARALLEL_MIN_ELEMENTS` and four times it.
#[cfg(feature = "rayon")]
pub(crate) const FUSED_MIN_ELEMENTS: usize = PARALLEL_MIN_ELEMENTS / 2;

/// The rows each piece takes: [`rows_per_piece`]'s with the `rayon` feature (`rows`, one
/// piece, where it stays on the calling thread), all `rows` without it.
pub(crate) fn piece_rows(rows: usize, elements: usize) -> usize {
    #[cfg(feature = "rayon")]
    if let Some(per) = rows_per_piece(rows, elements) {
        return per.max(1);
    }
    let _ = elements;
    rows.max(1)
}

/// [`rows_per_piece`] with the threshold `min` elements.
#[cfg(feature = "rayon")]
pub(crate) fn rows_per_piece_from(rows: usize, elements: usize, min: usize) -> Option<usize> {
    if elements < min || rows < 2 {
        return None;
    }
    let threads = crate::engine::threads::count();
    (threads > 1).then(|| rows.div_ceil(threads * 4))
}

/// The threads work may split over: rayon's pool's, or 1 without the `rayon` feature.
pub(crate) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    {
        super::threads::count()
    }
    #[cfg(not(feature = "rayon"))]
    {
        1
    }
}

/// The elements of a piece when `len` independent elements are cut for [`each_mut`] or
/// [`zip_pieces`]: `piece`, or all of them (one piece, on the calling thread) below twice
/// `piece`, where a split would not pay. An optimizer's update cuts pieces of 2^15, the
/// backward of a map 2^14.
pub(crate) fn piece_len(len: usize, piece: usize) -> usize {
    if len < 2 * piece {
        len.max(1)
    } else {
        piece
    }
}

/// `f` on `a` cut into pieces of `len` elements, each with the matching pieces of `b` and
/// `c` (as long as `a`): the pieces split over rayon's pool with the `rayon` feature when
/// there are several. The backward of a map of one tensor (`g · d(x, y)` elementwise)
/// splits this way.
pub(crate) fn zip_pieces<A: Send, B: Sync, C: Sync>(
    a: &mut [A],
    (b, c): (&[B], &[C]),
    len: usize,
    f: impl Fn(&mut [A], &[B], &[C]) + Sync,
) {
    let len = len.max(1);
    let mut pieces: Vec<_> = a
        .chunks_mut(len)
        .zip(b.chunks(len).zip(c.chunks(len)))
        .collect();
    each_mut(&mut pieces, |_, (a, (b, c))| f(a, b, c));
}

/// `f(i, item)` for each item, the items split over rayon's pool with the `rayon` feature.
pub(crate) fn each_mut<X: Send>(items: &mut [X], f: impl Fn(usize, &mut X) + Sync) {
    #[cfg(feature = "rayon")]
    if items.len() > 1 {
        super::threads::chunks(items, 1, |i, chunk| f(i, &mut chunk[0]));
        return;
    }
    for (i, item) in items.iter_mut().enumerate() {
        f(i, item);
    }
}
