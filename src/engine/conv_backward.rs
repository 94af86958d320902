//! The backward of a convolution, as GEMM calls on the forward pass's patches (im2col): for
//! each batch index and group, with `G` the output's gradient `[OUT, P]` and `X` the input's
//! patches `[C·K, P]`, the weight's gradient gains `G · Xᵀ` (a tile of positions at a time),
//! and the input's gradient is `Wᵀ · G` scattered back through the same taps (col2im): each
//! patch element adds to the input element it was read from.

use crate::alloc_prelude::*;

use super::conv::{
    batch_offsets, fill_patches, patch_segments, position_offset, Geometry, Segment, TILE_ELEMENTS,
};
use super::raw::{DotElement, Mat};

/// The gradients of a convolution of `x` by `weight` (contiguous `[OUT, C, taps…]`) whose
/// output's gradient is `gy` (laid out as the output): the weight's in the same canonical
/// layout when `want_w`, the input's in `x`'s layout (`x.len()` elements) when `want_x`.
pub(crate) fn backward<T: DotElement>(
    g: &Geometry,
    x: &[T],
    weight: &[T],
    gy: &[T],
    (want_x, want_w): (bool, bool),
) -> (Option<Vec<T>>, Option<Vec<T>>) {
    let mut gx = want_x.then(|| {
        let gx = vec![T::zero(); x.len()];
        // Fresh zeroed pages, faulted in 2 MiB at a time.
        super::raw::advise_huge_pages(&gx);
        gx
    });
    let mut gw = want_w.then(|| vec![T::zero(); weight.len()]);
    let count: usize = g.batch.iter().map(|b| b.0).product();
    if g.c_group * g.taps == 0 || g.positions == 0 || g.o_group == 0 {
        return (gx, gw);
    }
    #[cfg(feature = "rayon")]
    if let Some(per) = thread_share(g, x.len(), count) {
        // Each piece its batch indices' block of the input's gradient and its own weight
        // gradient, added in piece order.
        let pieces = count.div_ceil(per);
        let x_block = x.len() / count;
        // A gradient not asked for is a placeholder of one element a piece.
        let (x_chunk, w_chunk) = (
            if want_x { per * x_block } else { 1 },
            if want_w { weight.len() } else { 1 },
        );
        let mut placeholder = if want_x {
            Vec::new()
        } else {
            vec![T::zero(); pieces]
        };
        let mut parts = vec![T::zero(); pieces * w_chunk];
        let gx_all: &mut [T] = match gx.as_deref_mut() {
            Some(gx) => gx,
            None => &mut placeholder,
        };
        super::threads::chunks2(
            (gx_all, x_chunk),
            (&mut parts, w_chunk),
            |piece, gx_part, gw_part| {
                let range = piece * per..((piece + 1) * per).min(count);
                let base = range.start * x_block;
                let gx_part = want_x.then_some(gx_part);
                let gw_part = want_w.then_some(gw_part);
                batches(g, (x, weight, gy), range, (gx_part, base), gw_part, false);
            },
        );
        if let Some(gw) = gw.as_mut() {
            for part in parts.chunks_exact(weight.len()) {
                gw.iter_mut().zip(part).for_each(|(w, &p)| *w = *w + p);
            }
        }
        return (gx, gw);
    }
    batches(
        g,
        (x, weight, gy),
        0..count,
        (gx.as_deref_mut(), 0),
        gw.as_deref_mut(),
        true,
    );
    (gx, gw)
}

/// How many batch indices a thread takes, when the backward splits over threads: the batch
/// axes lead the input (each index owns a contiguous block of it), there is more than one
/// thread and enough work. `None`: one thread.
#[cfg(feature = "rayon")]
fn thread_share(g: &Geometry, x_len: usize, count: usize) -> Option<usize> {
    let threads = super::threads::count();
    let block = x_len / count.max(1);
    let leading = count > 1 && g.batch.iter().all(|b| b.1 >= block) && block * count == x_len;
    let work = (g.o_group * g.groups * g.positions).saturating_mul(g.c_group * g.taps) * count;
    (leading && threads > 1 && work >= super::split::PARALLEL_MIN_ELEMENTS)
        .then(|| count.div_ceil(threads))
}

/// The batch indices `range`: the input's gradient into `gx` (which starts at the input's
/// element `base`), the weight's added into `gw`; `split`: a large product may split over
/// threads.
fn batches<T: DotElement>(
    g: &Geometry,
    (x, weight, gy): (&[T], &[T], &[T]),
    range: core::ops::Range<usize>,
    (mut gx, base): (Option<&mut [T]>, usize),
    mut gw: Option<&mut [T]>,
    split: bool,
) {
    let k = g.c_group * g.taps;
    let tile = (TILE_ELEMENTS / k).clamp(1, g.positions);
    let (mut block, mut patches) = (
        vec![T::zero(); g.o_group * g.positions],
        vec![T::zero(); k * tile],
    );
    for i in range {
        let (xo, oo) = batch_offsets(g, i);
        for group in 0..g.groups {
            // This index's and group's output gradient as a contiguous `[OUT, P]` block.
            for (o, dst) in block.chunks_exact_mut(g.positions).enumerate() {
                let row = oo + (group * g.o_group + o) * g.out_channel;
                match g.out_run {
                    Some(1) => dst.copy_from_slice(&gy[row..row + g.positions]),
                    Some(run) => dst
                        .iter_mut()
                        .enumerate()
                        .for_each(|(p, v)| *v = gy[row + p * run]),
                    None => dst
                        .iter_mut()
                        .enumerate()
                        .for_each(|(p, v)| *v = gy[row + position_offset(g, p)]),
                }
            }
            let x_group = xo + group * g.c_group * g.x_channel;
            let w_rows = group * g.o_group * k;
            let mut p0 = 0;
            while p0 < g.positions {
                let n = tile.min(g.positions - p0);
                let gblock = Mat::new(p0, g.o_group, n, g.positions, 1);
                if let Some(gw) = gw.as_deref_mut() {
                    fill_patches(g, &x[x_group..], p0, n, (&mut patches[..k * n], n));
                    // ∂W[o, c·k] += Σ_p G[o, p] · X[c·k, p]
                    let xt = Mat::new(0, n, k, 1, n);
                    let c = Mat::new(w_rows, g.o_group, k, k, 1);
                    T::gemm(
                        (&block, gblock),
                        (&patches[..k * n], xt),
                        (gw, c),
                        true,
                        split,
                    );
                }
                if let Some(gx) = gx.as_deref_mut() {
                    // cols = Wᵀ · G, then each column's taps back to where they were read.
                    let wt = Mat::new(w_rows, k, g.o_group, 1, k);
                    let c = Mat::new(0, k, n, n, 1);
                    T::gemm(
                        (weight, wt),
                        (&block, gblock),
                        (&mut patches[..k * n], c),
                        false,
                        split,
                    );
                    scatter_patches(g, &mut gx[x_group - base..], p0, n, &patches[..k * n]);
                }
                p0 += n;
            }
        }
    }
}

/// The inverse of [`fill_patches`]: row `(c, taps…)`, column `j` of `patches` is added to the
/// input element position `p0 + j` read under that tap (nothing for the padding), by the same
/// walk. `x` starts at the group's first channel.
fn scatter_patches<T: DotElement>(g: &Geometry, x: &mut [T], p0: usize, n: usize, patches: &[T]) {
    patch_segments(
        g,
        p0,
        n,
        |row,
         Segment {
             done,
             lo,
             hi,
             start,
             step,
             ..
         }| {
            let vals = &patches[row * n + done + lo..row * n + done + hi];
            if step == 1 {
                let dst = &mut x[start..start + vals.len()];
                dst.iter_mut().zip(vals).for_each(|(x, &v)| *x = *x + v);
            } else {
                for (j, &v) in vals.iter().enumerate() {
                    x[start + j * step] = x[start + j * step] + v;
                }
            }
        },
    );
}
