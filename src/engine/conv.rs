//! A convolution as GEMM calls (im2col): for each batch index and group, the patches of the
//! input under the kernel's taps are copied into a tile (a block of output positions at a
//! time, about 512 KiB), and the weight's rows times the tile give those positions of the
//! output. The operation (`tensor::conv`) works out the [`Geometry`] from the rule's plan;
//! with the `rayon` feature, leading batch axes split over the pool.

use crate::alloc_prelude::*;

pub(crate) use super::conv_geometry::Geometry;
use super::raw::{DotElement, Mat};
use super::winograd;
pub use super::winograd::Kept;

/// The patch buffer's target size, in elements (about 512 KiB of `f32`).
pub(crate) const TILE_ELEMENTS: usize = 1 << 17;

/// Every batch index, each on its own patch buffer; split over rayon's pool when the batch
/// axes lead the output (each index then owns a contiguous block of it).
pub(crate) fn run_batches<T: DotElement>(
    g: &Geometry,
    x: &[T],
    (weight, kept): (&[T], Option<&Kept<T>>),
    out: &mut [T],
) {
    if winograd::applies::<T>(g) {
        return run_winograd(g, x, (weight, kept), out);
    }
    let count: usize = g.batch.iter().map(|b| b.0).product();
    let offsets = |i: usize| batch_offsets(g, i);
    #[cfg(feature = "rayon")]
    {
        if let Some(block) = thread_block(g, out.len(), count) {
            super::threads::chunks(out, block, |i, chunk| {
                // Leading batch axes: index `i`'s output starts its chunk.
                let (xo, _) = offsets(i);
                let mut patches = Vec::new();
                one_batch(g, &x[xo..], weight, chunk, 0, &mut patches, false);
            });
            return;
        }
    }
    let mut patches = Vec::new();
    for i in 0..count {
        let (xo, oo) = offsets(i);
        one_batch(g, &x[xo..], weight, out, oo, &mut patches, true);
    }
}

/// [`run_batches`] by Winograd's transforms: every batch index's tiles together, or, split
/// over threads, one group of consecutive batch indices per piece. The weight's transform is
/// `kept`'s when there is one (made on its first use), else made for this call.
fn run_winograd<T: DotElement>(
    g: &Geometry,
    x: &[T],
    (weight, kept): (&[T], Option<&Kept<T>>),
    out: &mut [T],
) {
    let count: usize = g.batch.iter().map(|b| b.0).product();
    let offsets = |i: usize| batch_offsets(g, i);
    let transform = || winograd::transform_weight(g, weight);
    let u = match kept {
        Some(kept) => kept.get_or(transform),
        None => alloc::borrow::Cow::Owned(transform()),
    };
    let u = &u[..];
    #[cfg(feature = "rayon")]
    {
        if let Some(block) = thread_block(g, out.len(), count) {
            // As many batch indices a piece as share out evenly.
            let per = count.div_ceil(crate::engine::threads::count());
            super::threads::chunks(out, block * per, |i, chunk| {
                let first = i * per;
                let range = first..(first + per).min(count);
                winograd::run(g, x, u, chunk, range, &offsets, offsets(first).1);
            });
            return;
        }
    }
    winograd::run(g, x, u, out, 0..count, &offsets, 0);
}

/// The output block of one batch index when the batch splits over threads: the batch axes
/// lead the output (each index owns a contiguous block of it), there is more than one thread
/// and enough work. `None`: run on this thread.
#[cfg(feature = "rayon")]
fn thread_block(g: &Geometry, out_len: usize, count: usize) -> Option<usize> {
    let block = out_len / count.max(1);
    let leading = g.batch.iter().all(|b| b.2 >= block) && count > 1;
    let work = out_len.saturating_mul(g.c_group * g.taps);
    let split = leading
        && crate::engine::threads::count() > 1
        && work >= super::split::PARALLEL_MIN_ELEMENTS;
    split.then_some(block)
}

/// The input and output offsets of batch index `i` (row-major over the batch axes).
pub(crate) fn batch_offsets(g: &Geometry, i: usize) -> (usize, usize) {
    let (mut xo, mut oo, mut rest) = (0, 0, i);
    for &(n, sx, so) in g.batch.iter().rev() {
        xo += (rest % n) * sx;
        oo += (rest % n) * so;
        rest /= n;
    }
    (xo, oo)
}

/// One batch index: for each group, the weight's rows times the patches, a tile of positions
/// at a time, into the output from `oo`.
fn one_batch<T: DotElement>(
    g: &Geometry,
    x: &[T],
    weight: &[T],
    out: &mut [T],
    oo: usize,
    patches: &mut Vec<T>,
    split: bool,
) {
    let k = g.c_group * g.taps;
    let pointwise = g.taps == 1 && g.stride == 1 && g.padding == 0 && g.out_run.is_some();
    let in_run = in_run(g);
    for group in 0..g.groups {
        let a = Mat {
            offset: group * g.o_group * k,
            rows: g.o_group,
            cols: k,
            rs: k,
            cs: 1,
        };
        let x_group = group * g.c_group * g.x_channel;
        if let (true, Some(run), Some(out_run)) = (pointwise, in_run, g.out_run) {
            // A 1×1 kernel: the patches are the input itself, `[C, P]` with strides.
            let b = Mat {
                offset: x_group,
                rows: g.c_group,
                cols: g.positions,
                rs: g.x_channel,
                cs: run,
            };
            let c = Mat {
                offset: oo + group * g.o_group * g.out_channel,
                rows: g.o_group,
                cols: g.positions,
                rs: g.out_channel,
                cs: out_run,
            };
            T::gemm((weight, a), (x, b), (out, c), false, split);
            continue;
        }
        let tile = (TILE_ELEMENTS / k).clamp(1, g.positions);
        patches.resize(k * tile, T::zero());
        let mut scratch = Vec::new();
        let mut p0 = 0;
        while p0 < g.positions {
            let n = tile.min(g.positions - p0);
            fill_patches(g, &x[x_group..], p0, n, &mut patches[..k * n]);
            let b = Mat {
                offset: 0,
                rows: k,
                cols: n,
                rs: n,
                cs: 1,
            };
            match g.out_run {
                Some(out_run) => {
                    // The transposed product, `out^T = patches^T · weight^T`: the positions
                    // are the GEMM's long `M` side, the output channels its short `N`.
                    let c = Mat {
                        offset: oo + group * g.o_group * g.out_channel + p0 * out_run,
                        rows: n,
                        cols: g.o_group,
                        rs: out_run,
                        cs: g.out_channel,
                    };
                    let pt = Mat {
                        offset: 0,
                        rows: n,
                        cols: k,
                        rs: 1,
                        cs: n,
                    };
                    let wt = Mat {
                        offset: a.offset,
                        rows: k,
                        cols: g.o_group,
                        rs: 1,
                        cs: k,
                    };
                    T::gemm(
                        (&patches[..k * n], pt),
                        (weight, wt),
                        (out, c),
                        false,
                        split,
                    );
                }
                None => {
                    // Spatial axes apart: the block `[OUT, n]` first, then each element to
                    // its place.
                    scratch.clear();
                    scratch.resize(g.o_group * n, T::zero());
                    let c = Mat {
                        offset: 0,
                        rows: g.o_group,
                        cols: n,
                        rs: n,
                        cs: 1,
                    };
                    T::gemm(
                        (weight, a),
                        (&patches[..k * n], b),
                        (&mut scratch, c),
                        false,
                        split,
                    );
                    for o in 0..g.o_group {
                        let row = oo + (group * g.o_group + o) * g.out_channel;
                        for j in 0..n {
                            out[row + position_offset(g, p0 + j)] = scratch[o * n + j];
                        }
                    }
                }
            }
            p0 += n;
        }
    }
}

/// The input's stride along the flattened spatial positions, when its spatial axes are one
/// strided run (each axis' stride the next one's times its size).
fn in_run(g: &Geometry) -> Option<usize> {
    let ok = g.spatial.windows(2).all(|p| p[0].1 == p[1].1 * p[1].0);
    (ok && g.out_run.is_some()).then(|| g.spatial.last().expect("one spatial axis").1)
}

/// The output offset of flattened position `p` (row-major over the output's spatial sizes).
pub(crate) fn position_offset(g: &Geometry, mut p: usize) -> usize {
    let mut off = 0;
    for (s, &stride) in g.spatial.iter().zip(&g.out_spatial).rev() {
        off += (p % s.3) * stride;
        p /= s.3;
    }
    off
}

/// One run of a patch row: the positions `done..done + seg` of the tile, all on one row of
/// the last output axis, of which `lo..hi` read the input (the rest read the padding) from
/// offset `start` on, `step` apart.
#[derive(Clone, Copy)]
pub(crate) struct Segment {
    pub(crate) done: usize,
    pub(crate) seg: usize,
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    pub(crate) start: usize,
    pub(crate) step: usize,
}

/// Walks the patches of positions `p0..p0 + n` as `fill_patches` reads them and
/// `conv_backward` writes them back: for each row `(c, taps…)` (row-major over the channel and
/// the kernel's taps) each run of positions along the last output axis, `f(row, segment)`.
/// Offsets are from the group's first channel. The runs of the first channel are worked out
/// once; every other channel's are the same runs moved by its offset (a stride-2 3x3
/// convolution's runs are 28 positions long: working each out again per channel, 64 -> 128
/// channels at 56x56 took 7.0 ms against 6.2 ms, batch 8, one thread).
pub(crate) fn patch_segments(g: &Geometry, p0: usize, n: usize, mut f: impl FnMut(usize, Segment)) {
    let runs = channel_segments(g, p0, n);
    for c in 0..g.c_group {
        let channel = c * g.x_channel;
        for &(tap, s) in &runs {
            let start = if s.lo < s.hi { s.start + channel } else { 0 };
            f(c * g.taps + tap, Segment { start, ..s });
        }
    }
}

/// The runs of the first channel's patch rows for positions `p0..p0 + n`: each tap's runs
/// along the last output axis, in order.
fn channel_segments(g: &Geometry, p0: usize, n: usize) -> Vec<(usize, Segment)> {
    let d = g.spatial.len();
    let (s, p, dil) = (g.stride as isize, g.padding as isize, g.dilation as isize);
    let kernel: Vec<usize> = g.spatial.iter().map(|a| a.2).collect();
    let out_sizes: Vec<usize> = g.spatial.iter().map(|a| a.3).collect();
    let (last_in, last_stride, _, last_out) = g.spatial[d - 1];
    let mut tap = vec![0usize; d];
    let mut start_pos = vec![0usize; d];
    let mut rest = p0;
    for j in (0..d).rev() {
        start_pos[j] = rest % out_sizes[j];
        rest /= out_sizes[j];
    }
    let mut pos = start_pos.clone();
    // Along the last axis, consecutive positions read the input this far apart.
    let step = g.stride * last_stride;
    let mut runs = Vec::new();
    for t in 0..g.taps {
        // Along the last axis, output position `o` reads input `o·s + shift`: inside
        // for `lo_at <= o < hi_at` (two divisions a tap, not a run).
        let shift = tap[d - 1] as isize * dil - p;
        let lo_at = ((-shift).max(0) + s - 1) / s;
        let hi_at = (last_in as isize - shift + s - 1).max(0) / s;
        // Walk the positions a row of the last output axis at a time.
        pos.copy_from_slice(&start_pos);
        let mut done = 0;
        while done < n {
            let seg = (last_out - pos[d - 1]).min(n - done);
            // The outer axes' input coordinates: one offset, or the padding.
            let mut base = Some(0);
            for j in 0..d - 1 {
                let i = pos[j] as isize * s - p + tap[j] as isize * dil;
                let (size, stride, _, _) = g.spatial[j];
                base = match base {
                    Some(b) if i >= 0 && (i as usize) < size => Some(b + i as usize * stride),
                    _ => None,
                };
            }
            let o0 = pos[d - 1] as isize;
            let (lo, hi) = match base {
                None => (0, 0),
                Some(_) => {
                    let lo = (lo_at - o0).clamp(0, seg as isize) as usize;
                    (lo, (hi_at - o0).clamp(lo as isize, seg as isize) as usize)
                }
            };
            let start = match base {
                Some(b) if lo < hi => b + ((o0 + lo as isize) * s + shift) as usize * last_stride,
                _ => 0,
            };
            runs.push((
                t,
                Segment {
                    done,
                    seg,
                    lo,
                    hi,
                    start,
                    step,
                },
            ));
            done += seg;
            // Next row of positions: the outer axes' index moves on.
            pos[d - 1] = 0;
            super::walk::step::<0>(&mut pos[..d - 1], &out_sizes[..d - 1], [], &mut []);
        }
        // Next tap, row-major over the kernel.
        super::walk::step::<0>(&mut tap, &kernel, [], &mut []);
    }
    runs
}

/// The patches of positions `p0..p0 + n`: row `(c, taps…)` holds, for each position, the
/// input element that tap reads there (0 in the padding). `x` starts at the group's first
/// channel.
pub(crate) fn fill_patches<T: Copy + num_traits::Zero>(
    g: &Geometry,
    x: &[T],
    p0: usize,
    n: usize,
    patches: &mut [T],
) {
    patch_segments(g, p0, n, |row, s: Segment| {
        let (done, seg, lo, hi, start, step) = (s.done, s.seg, s.lo, s.hi, s.start, s.step);
        let out = &mut patches[row * n + done..row * n + done + seg];
        out[..lo].iter_mut().for_each(|v| *v = T::zero());
        out[hi..].iter_mut().for_each(|v| *v = T::zero());
        let len = hi - lo;
        if len == 0 {
            return;
        }
        if step == 1 {
            out[lo..hi].copy_from_slice(&x[start..start + len]);
        } else if step == 2 {
            // Every other element (a stride-2 convolution along a contiguous row): pairs,
            // which the compiler deinterleaves in vector registers.
            let pairs = x[start..start + 2 * (len - 1)].chunks_exact(2);
            for (v, pair) in out[lo..hi - 1].iter_mut().zip(pairs) {
                *v = pair[0];
            }
            out[hi - 1] = x[start + 2 * (len - 1)];
        } else {
            for (j, v) in out[lo..hi].iter_mut().enumerate() {
                *v = x[start + j * step];
            }
        }
    });
}
