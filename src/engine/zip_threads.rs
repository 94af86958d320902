//! Elementwise kernels split over rayon's pool (feature `rayon`): the outermost merged axis
//! cut into pieces, each piece writing its own contiguous block of the output through the
//! kernel's inner loop, the slots counted as on one thread.

use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::kernel::{room_for, validate, zip_checked};
use super::layout::Merged;
use super::raw;
use super::split::{rows_per_piece, PARALLEL_MIN_ELEMENTS};
use super::walk::{blocks_across, inner, reads_across, step};
use crate::values::error::Error;

/// [`zip_checked`] split over rayon's pool: the outermost merged axis is cut into about four
/// pieces per thread, and each piece fills its own contiguous block of the output. Runs on
/// the calling thread below [`PARALLEL_MIN_ELEMENTS`] or with one thread.
pub(crate) fn zip_parallel<const N: usize, A: Sync, B: Sync, O: Send>(
    sizes: &[usize],
    (a, sa): (&[A], &[usize]),
    (b, sb): (&[B], &[usize]),
    out: &mut Vec<O>,
    f: &(impl Fn(&A, &B) -> O + Sync),
) -> Result<(), Error> {
    let elements = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
    // Small work goes straight to the calling thread, before any layout work.
    if elements.is_none_or(|t| t < PARALLEL_MIN_ELEMENTS) {
        return zip_checked::<N, A, B, O>(sizes, (a, sa), (b, sb), out, f);
    }
    let total = validate::<N>(sizes, (a.len(), sa), (b.len(), sb))?;
    let merged = Merged::<N>::new(sizes, sa, sb);
    let (ms, ma, mb) = (
        &merged.sizes[..merged.len],
        &merged.a[..merged.len],
        &merged.b[..merged.len],
    );
    // One piece size for every row-wise split (`split::rows_per_piece`): one outer row or
    // one thread runs on the calling thread.
    let Some((outer, rows)) = ms
        .first()
        .and_then(|&outer| Some((outer, rows_per_piece(outer, total)?)))
    else {
        return zip_checked::<N, A, B, O>(sizes, (a, sa), (b, sb), out, f);
    };
    room_for::<O>(sizes)?;
    out.clear();
    out.reserve(total);
    raw::advise_huge_pages(out);
    let per = total / outer;
    let spare = &mut out.spare_capacity_mut()[..total];
    let written = AtomicUsize::new(0);
    super::threads::chunks(spare, rows * per, |piece, slots| {
        let lo = piece * rows;
        let hi = (lo + rows).min(outer);
        let n = rows_of::<N, A, B, O>(lo..hi, (ms, ma, mb), a, b, (slots, total), f);
        written.fetch_add(n, Ordering::Relaxed);
    });
    raw::set_len_written(out, written.into_inner(), total);
    Ok(())
}

/// The outer indices `range` of a merged layout (sizes and the two operands' strides), into
/// their block of the output's slots; returns the slots written. Whether the last two axes
/// are walked as blocks, and whether those reach the output by non-temporal stores, follow
/// the whole output's `total` elements, as on one thread, not the piece's.
fn rows_of<const N: usize, A, B, O>(
    range: core::ops::Range<usize>,
    (ms, ma, mb): (&[usize], &[usize], &[usize]),
    a: &[A],
    b: &[B],
    (out, total): (&mut [MaybeUninit<O>], usize),
    f: &impl Fn(&A, &B) -> O,
) -> usize {
    let last = ms.len() - 1;
    if last == 0 {
        // One merged axis: the range is one run.
        let (lo, n) = (range.start, range.len());
        return inner(
            n,
            (a, lo * ma[0], ma[0]),
            (b, lo * mb[0], mb[0]),
            &mut out[..n],
            f,
        );
    }
    let (n, (ia, ib)) = (ms[last], (ma[last], mb[last]));
    let (sa, sb) = ([ma[last - 1], ia], [mb[last - 1], ib]);
    if reads_across(total, n, sa, sb) {
        // The last two axes as blocks; with two axes, the range itself is the block's rows.
        let (mut at_out, mut written) = (0, 0);
        let (first, lead, m) = if last == 1 {
            let none: &[usize] = &[];
            (
                range.start..range.start + 1,
                (none, none, none),
                range.len(),
            )
        } else {
            let lead = (&ms[1..last - 1], &ma[1..last - 1], &mb[1..last - 1]);
            (range.clone(), lead, ms[last - 1])
        };
        let per = m * n * lead.0.iter().product::<usize>();
        let mut tiles = raw::Tiles::new(total);
        for i in first {
            let at = [i * ma[0], i * mb[0]];
            let slots = (&mut out[at_out..at_out + per], &mut tiles);
            written += blocks_across::<N, _, _, _>(lead, at, ((m, n), sa, sb), a, b, slots, f);
            at_out += per;
        }
        return written;
    }
    let (rest, ra, rb) = (&ms[1..last], &ma[1..], &mb[1..]);
    let (mut at_out, mut written) = (0, 0);
    for i in range {
        let mut at = [i * ma[0], i * mb[0]];
        let mut index = [0usize; N];
        loop {
            written += inner(
                n,
                (a, at[0], ia),
                (b, at[1], ib),
                &mut out[at_out..][..n],
                f,
            );
            at_out += n;
            if !step(&mut index[..rest.len()], rest, [ra, rb], &mut at) {
                break;
            }
        }
    }
    written
}
