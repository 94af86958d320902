//! The backward of a convolution, as GEMM calls on the forward pass's patches (im2col): for
//! each group and each tile of positions (taken over the batch indices one after the other),
//! with `G` the output's gradient `[OUT, P]` and `X` the input's patches `[C·K, P]` there, the
//! weight's gradient gains `G · Xᵀ`, and the input's gradient is `Wᵀ · G` scattered back
//! through the same taps (col2im): each patch element adds to the input element it was read
//! from.

use crate::alloc_prelude::*;

use super::conv::{
    fill_patches, patch_segments, pieces, position_offset, Geometry, Segment, MIN_TILE_ROWS,
};
use super::raw::{DotElement, Mat};

/// The patch buffer's target size, in elements (4 MiB of `f32`; the forward pass takes an
/// eighth of it): each tile's products are as deep as the positions it holds, the weight's
/// gradient `G · Xᵀ` along them (docs/performance.md, "Training": the figures, and a quarter
/// and an eighth of this size measured beside it).
const TILE_ELEMENTS: usize = 1 << 20;

/// The patch rows' stride for `n` positions: an odd number of 64-byte lines (of `f32`), so
/// the rows of a tile do not all fall into the same few sets of the caches (a tile of 256
/// positions, rows 1 KiB apart, made the weight's gradient of 64 channels at 56x56 take 47
/// against 40 ms).
fn spread(n: usize) -> usize {
    (n.div_ceil(16) | 1) * 16
}

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
    let zeroed_w = || want_w.then(|| vec![T::zero(); weight.len()]);
    if g.c_group * g.taps == 0 || g.positions == 0 || g.o_group == 0 {
        return (gx, zeroed_w());
    }
    let count: usize = g.batch.iter().map(|b| b.0).product();
    #[cfg(feature = "rayon")]
    if let Some(per) = thread_share(g, x.len(), count) {
        let gw = split_over_batches(g, (x, weight, gy), (count, per), gx.as_deref_mut(), want_w);
        return (gx, gw);
    }
    let mut gw = zeroed_w();
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

/// [`batches`] over the threads, the `count` batch indices `per` a piece: each piece its
/// indices' block of the input's gradient (`gx`, when asked for) and its own weight gradient,
/// made (zeroed) on its thread; the pieces' weight gradients added in piece order, over the
/// threads by blocks of the weight.
#[cfg(feature = "rayon")]
fn split_over_batches<T: DotElement>(
    g: &Geometry,
    (x, weight, gy): (&[T], &[T], &[T]),
    (count, per): (usize, usize),
    gx: Option<&mut [T]>,
    want_w: bool,
) -> Option<Vec<T>> {
    use std::sync::{Mutex, PoisonError};
    let pieces = count.div_ceil(per);
    let x_block = x.len() / count;
    let want_x = gx.is_some();
    // A gradient not asked for is a placeholder of one element a piece.
    let mut placeholder = Vec::new();
    let (gx_all, x_chunk) = match gx {
        Some(gx) => (gx, per * x_block),
        None => {
            placeholder.resize(pieces, T::zero());
            (&mut placeholder[..], 1)
        }
    };
    let parts: Vec<Mutex<Vec<T>>> = (0..pieces).map(|_| Mutex::new(Vec::new())).collect();
    super::threads::chunks(gx_all, x_chunk, |piece, gx_part| {
        let range = piece * per..((piece + 1) * per).min(count);
        let base = range.start * x_block;
        let mut gw = if want_w {
            vec![T::zero(); weight.len()]
        } else {
            Vec::new()
        };
        let gx_part = want_x.then_some(gx_part);
        let gw_part = want_w.then_some(&mut gw[..]);
        batches(g, (x, weight, gy), range, (gx_part, base), gw_part, false);
        *parts[piece].lock().unwrap_or_else(PoisonError::into_inner) = gw;
    });
    if !want_w {
        return None;
    }
    let mut parts = parts
        .into_iter()
        .map(|p| p.into_inner().unwrap_or_else(PoisonError::into_inner));
    let mut gw = parts.next().expect("one piece or more");
    let rest: Vec<Vec<T>> = parts.collect();
    let block = weight.len().div_ceil(super::threads::count()).max(1);
    super::threads::chunks(&mut gw, block, |i, chunk| {
        for part in &rest {
            let part = &part[i * block..i * block + chunk.len()];
            chunk.iter_mut().zip(part).for_each(|(w, &p)| *w = *w + p);
        }
    });
    Some(gw)
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
/// threads. As the forward pass, a tile of positions at a time, taken over the batch indices
/// one after the other, so a small image still makes long products (one 7x7 image alone
/// gave the weight's gradient products 49 deep). A tile holds whole images, or part of one:
/// each image's positions meet the same tiles however the batch indices split over threads,
/// so the input's gradient is added up in the same order and comes out the same.
fn batches<T: DotElement>(
    g: &Geometry,
    (x, weight, gy): (&[T], &[T], &[T]),
    range: core::ops::Range<usize>,
    (mut gx, base): (Option<&mut [T]>, usize),
    mut gw: Option<&mut [T]>,
    split: bool,
) {
    let k = g.c_group * g.taps;
    let total = range.len() * g.positions;
    let span = (TILE_ELEMENTS / k).max(MIN_TILE_ROWS).min(total);
    let tile = match span / g.positions {
        0 => span,
        images => images * g.positions,
    };
    let (mut block, mut patches) = (Vec::new(), Vec::new());
    for group in 0..g.groups {
        let x_group = group * g.c_group * g.x_channel;
        let o_group = group * g.o_group * g.out_channel;
        let w_rows = group * g.o_group * k;
        let mut f0 = 0;
        while f0 < total {
            let n = if tile < g.positions {
                tile.min(g.positions - f0 % g.positions)
            } else {
                tile.min(total - f0)
            };
            let pieces = pieces(g, range.start, f0, n);
            // The output's gradient at the tile's positions as a contiguous `[OUT, n]` block.
            block.resize(g.o_group * n, T::zero());
            for (o, dst) in block.chunks_exact_mut(n).enumerate() {
                for p in &pieces {
                    let row = p.out + o_group + o * g.out_channel;
                    let (dst, q0) = (&mut dst[p.col..p.col + p.len], p.first);
                    match g.out_run {
                        Some(1) => dst.copy_from_slice(&gy[row + q0..row + q0 + p.len]),
                        Some(run) => dst
                            .iter_mut()
                            .enumerate()
                            .for_each(|(j, v)| *v = gy[row + (q0 + j) * run]),
                        None => dst
                            .iter_mut()
                            .enumerate()
                            .for_each(|(j, v)| *v = gy[row + position_offset(g, q0 + j)]),
                    }
                }
            }
            let gblock = Mat::new(0, g.o_group, n, n, 1);
            let ld = spread(n);
            patches.resize(k * ld, T::zero());
            if let Some(gw) = gw.as_deref_mut() {
                for p in &pieces {
                    let at = (&mut patches[p.col..], ld);
                    fill_patches(g, &x[p.x + x_group..], p.first, p.len, at);
                }
                // ∂W[o, c·k] += Σ_p G[o, p] · X[c·k, p]
                let xt = Mat::new(0, n, k, 1, ld);
                let c = Mat::new(w_rows, g.o_group, k, k, 1);
                T::gemm((&block, gblock), (&patches, xt), (gw, c), true, split);
            }
            if let Some(gx) = gx.as_deref_mut() {
                // cols = Wᵀ · G, then each column's taps back to where they were read.
                let wt = Mat::new(w_rows, k, g.o_group, 1, k);
                let c = Mat::new(0, k, n, n, 1);
                T::gemm(
                    (weight, wt),
                    (&block, gblock),
                    (&mut patches, c),
                    false,
                    split,
                );
                for p in &pieces {
                    let to = &mut gx[p.x + x_group - base..];
                    scatter_patches(g, to, (p.first, p.len), (&patches[p.col..], n));
                }
            }
            f0 += n;
        }
    }
}

/// The inverse of [`fill_patches`]: row `(c, taps…)` (rows `ld` apart), column `j` of
/// `patches` is added to the input element position `p0 + j` read under that tap (nothing for
/// the padding), by the same walk, for `n` positions. `x` starts at the group's first channel.
fn scatter_patches<T: DotElement>(
    g: &Geometry,
    x: &mut [T],
    (p0, n): (usize, usize),
    (patches, ld): (&[T], usize),
) {
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
            let vals = &patches[row * ld + done + lo..row * ld + done + hi];
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
