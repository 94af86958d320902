//! A convolution as GEMM calls (im2col): for each group, the patches of the input under the
//! kernel's taps are copied into a tile (a block of output positions at a time, about
//! 512 KiB, taken over the batch indices one after the other), and the tile times the
//! weight's rows gives those positions of the output. A stride-1 3x3 convolution of 32
//! channels or more runs Winograd's transforms instead (`winograd`). The operation
//! (`tensor::conv`) works out the [`Geometry`] from the rule's plan; with the `rayon`
//! feature, leading batch axes split over the pool.

use crate::alloc_prelude::*;
use core::ops::Range;

pub(crate) use super::conv_geometry::Geometry;
use super::conv_geometry::{split_columns, PANEL};
use super::raw::{DotElement, Mat};
use super::winograd;
pub use super::winograd::Kept;

/// The patch buffer's target size, in elements (about 512 KiB of `f32`), for patches short
/// enough that it holds [`MIN_TILE_ROWS`] positions or more.
pub(crate) const TILE_ELEMENTS: usize = 1 << 17;

/// Every batch index: by Winograd's transforms where they apply, else by patches (im2col);
/// split over rayon's pool when the batch axes lead the output, a group of consecutive batch
/// indices a piece (each group owns a contiguous block of the output).
pub(crate) fn run_batches<T: DotElement>(
    g: &Geometry,
    x: &[T],
    (weight, kept): (&[T], Option<&Kept<T>>),
    out: &mut [T],
) {
    if winograd::applies::<T>(g) {
        return run_winograd(g, x, (weight, kept), out);
    }
    over_batches(g, out, |range, out, base, split| {
        im2col(g, x, weight, (out, base), range, split);
    });
}

/// `f(range, out, base, split)` over every batch index: with the `rayon` feature, where a
/// split pays ([`thread_block`]), a group of consecutive batch indices a thread, as many as
/// share out evenly (`out` is then the group's block, which starts at the output's element
/// `base`, and `split` is false: the products stay on their thread); else all of them here.
fn over_batches<T: Send>(
    g: &Geometry,
    out: &mut [T],
    f: impl Fn(Range<usize>, &mut [T], usize, bool) + Sync,
) {
    let count: usize = g.batch.iter().map(|b| b.0).product();
    #[cfg(feature = "rayon")]
    {
        if let Some(block) = thread_block(g, out.len(), count) {
            let per = count.div_ceil(crate::engine::threads::count());
            super::threads::chunks(out, block * per, |i, chunk| {
                let first = i * per;
                let range = first..(first + per).min(count);
                f(range, chunk, batch_offsets(g, first).1, false);
            });
            return;
        }
    }
    f(0..count, out, 0, true);
}

/// [`run_batches`] by Winograd's transforms, the tiles of a group of batch indices together
/// ([`over_batches`]). The weight's transform is `kept`'s when there is one (made on its
/// first use), else made for this call.
fn run_winograd<T: DotElement>(
    g: &Geometry,
    x: &[T],
    (weight, kept): (&[T], Option<&Kept<T>>),
    out: &mut [T],
) {
    let offsets = |i: usize| batch_offsets(g, i);
    let transform = || winograd::transform_weight(g, weight);
    let u = match kept {
        Some(kept) => kept.get_or(transform),
        None => alloc::borrow::Cow::Owned(transform()),
    };
    let u = &u[..];
    over_batches(g, out, |range, out, base, _| {
        winograd::run(g, x, u, out, range, &offsets, base);
    });
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

/// The batch indices `range` into `out` (which starts at the output's element `base`): for
/// each group, the weight's rows times the patches. A 1x1 kernel of stride 1 on images of
/// [`IN_PLACE_POSITIONS`] or more reads the input in place, one batch index at a time;
/// otherwise the patches of a tile of positions, taken over the batch indices one after the
/// other (so a small image still makes a long product and the weight is packed once a tile,
/// not once an image), are copied into one buffer.
fn im2col<T: DotElement>(
    g: &Geometry,
    x: &[T],
    weight: &[T],
    (out, base): (&mut [T], usize),
    range: Range<usize>,
    split: bool,
) {
    let k = g.c_group * g.taps;
    let pointwise = g.taps == 1 && g.stride == 1 && g.padding == 0;
    let in_place = in_run(g).filter(|_| pointwise && g.positions >= IN_PLACE_POSITIONS);
    let total = range.len() * g.positions;
    let tile = whole_panels((TILE_ELEMENTS / k).max(MIN_TILE_ROWS)).clamp(1, total);
    let (mut patches, mut scratch) = (Vec::new(), Vec::new());
    for group in 0..g.groups {
        let w = Mat::new(group * g.o_group * k, g.o_group, k, k, 1);
        let x_group = group * g.c_group * g.x_channel;
        let o_group = group * g.o_group * g.out_channel;
        if let (Some(run), Some(out_run)) = (in_place, g.out_run) {
            // A 1×1 kernel: the patches are the input itself, `[C, P]` with strides.
            for i in range.clone() {
                let (xo, oo) = batch_offsets(g, i);
                let (p, at) = (g.positions, oo - base + o_group);
                let b = Mat::new(xo + x_group, g.c_group, p, g.x_channel, run);
                let c = Mat::new(at, g.o_group, p, g.out_channel, out_run);
                T::gemm((weight, w), (x, b), (out, c), false, split);
            }
            continue;
        }
        // The weight transposed, `[k, OUT]`: positions are the product's long `M` side.
        let wt = Mat::new(w.offset, k, g.o_group, 1, k);
        let mut f0 = 0;
        while f0 < total {
            let n = tile.min(total - f0);
            patches.resize(k * n, T::zero());
            let pieces = pieces(g, range.start, f0, n);
            for p in &pieces {
                let at = (&mut patches[p.col..], n);
                fill_patches(g, &x[p.x + x_group..], p.first, p.len, at);
            }
            // `out^T = patches^T · weight^T`, the patches read as `[n, k]`.
            let pt = Mat::new(0, n, k, 1, n);
            match (&pieces[..], g.out_run) {
                ([p], Some(out_run)) => {
                    // One image's positions in one strided run: straight into the output.
                    let at = p.out - base + o_group + p.first * out_run;
                    let c = Mat::new(at, n, g.o_group, out_run, g.out_channel);
                    T::gemm((&patches, pt), (weight, wt), (out, c), false, split);
                }
                _ => {
                    // A block `[n, OUT]` (column-major) first, then each run to its place.
                    scratch.clear();
                    scratch.resize(g.o_group * n, T::zero());
                    let c = Mat::new(0, n, g.o_group, 1, n);
                    T::gemm(
                        (&patches, pt),
                        (weight, wt),
                        (&mut scratch, c),
                        false,
                        split,
                    );
                    for p in &pieces {
                        let (at, q0) = (p.out - base + o_group, p.first);
                        for (o, block) in scratch.chunks_exact(n).enumerate() {
                            let row = at + o * g.out_channel;
                            let src = &block[p.col..p.col + p.len];
                            match g.out_run {
                                Some(1) => out[row + q0..row + q0 + p.len].copy_from_slice(src),
                                _ => src.iter().enumerate().for_each(|(j, &v)| {
                                    out[row + position_offset(g, q0 + j)] = v;
                                }),
                            }
                        }
                    }
                }
            }
            f0 += n;
        }
    }
}

/// The fewest positions a patch tile holds, however long its patches: the product packs the
/// whole weight once a tile, so a tile of the 512 KiB target alone (113 positions for
/// 128 -> 256 channels, 3x3/2) packed it 14 times for 8 images at 28x28. With 256 a tile,
/// that convolution took 4.7 ms against 5.4 ms (batch 8, one thread, best of 48 calls each).
pub(crate) const MIN_TILE_ROWS: usize = 256;

/// `rows` rounded down to whole [`PANEL`]s of the GEMM crate's widest kernel when there are
/// two or more: a tile's last rows then run on a narrow kernel only once, at the
/// end of the positions.
fn whole_panels(rows: usize) -> usize {
    if rows >= 2 * PANEL {
        rows / PANEL * PANEL
    } else {
        rows
    }
}

/// Below this many positions an image, a 1x1 convolution copies its input into patches
/// rather than multiplying it in place, so the product spans several images (a 7x7 image
/// alone packs the whole weight for 49 rows).
const IN_PLACE_POSITIONS: usize = 256;

/// The positions of one image in a patch tile.
pub(crate) struct Piece {
    /// Where the image starts in the input and in the output.
    pub(crate) x: usize,
    pub(crate) out: usize,
    /// Its first position in the tile, their count, and the tile's column of the first.
    pub(crate) first: usize,
    pub(crate) len: usize,
    pub(crate) col: usize,
}

/// The pieces of the tile `f0..f0 + n` of the positions of batch indices `first..`, counted
/// one image after the other.
pub(crate) fn pieces(g: &Geometry, first: usize, f0: usize, n: usize) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut col = 0;
    while col < n {
        let f = f0 + col;
        let (i, q0) = (first + f / g.positions, f % g.positions);
        let len = (g.positions - q0).min(n - col);
        let (x, out) = batch_offsets(g, i);
        pieces.push(Piece {
            x,
            out,
            first: q0,
            len,
            col,
        });
        col += len;
    }
    pieces
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

/// The patches of positions `p0..p0 + n`: row `(c, taps…)` of `patches` (rows `ld` apart)
/// holds, for each position, the input element that tap reads there (0 in the padding). `x`
/// starts at the group's first channel.
pub(crate) fn fill_patches<T: Copy + num_traits::Zero>(
    g: &Geometry,
    x: &[T],
    p0: usize,
    n: usize,
    (patches, ld): (&mut [T], usize),
) {
    if let ([rows, columns], 2, 1) = (&g.spatial[..], g.stride, g.dilation) {
        return fill_stride_two(g, x, (p0, n), (*rows, *columns), (patches, ld));
    }
    patch_segments(g, p0, n, |row, s: Segment| {
        let (done, seg, lo, hi, start, step) = (s.done, s.seg, s.lo, s.hi, s.start, s.step);
        let out = &mut patches[row * ld + done..row * ld + done + seg];
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

/// [`fill_patches`] for a 2-D convolution of stride 2 (no dilation): each input row a kernel
/// row reads is split into its even and odd columns once, and each tap along the row is a
/// run of one of them (tap `kx` reads column `2j + kx − p`: `even`/`odd` by `kx`'s parity, at
/// `j + kx / 2`). Walking segments instead, a tap at a time, 128 -> 256 channels at 28x28
/// spent a fifth of its time writing patches.
fn fill_stride_two<T: Copy + num_traits::Zero>(
    g: &Geometry,
    x: &[T],
    (p0, n): (usize, usize),
    ((h, sy, kh, _), (w, sx, kw, ow)): (Axis, Axis),
    (patches, ld): (&mut [T], usize),
) {
    let p = g.padding;
    let lane = ow + (kw - 1) / 2;
    let (mut even, mut odd) = (vec![T::zero(); lane], vec![T::zero(); lane]);
    for c in 0..g.c_group {
        for ky in 0..kh {
            let rows = (c * g.taps + ky * kw) * ld;
            let mut done = 0;
            while done < n {
                let (r, j0) = ((p0 + done) / ow, (p0 + done) % ow);
                let seg = (ow - j0).min(n - done);
                let at = |kx: usize| rows + kx * ld + done..rows + kx * ld + done + seg;
                match (2 * r + ky).checked_sub(p).filter(|&y| y < h) {
                    None => (0..kw).for_each(|kx| patches[at(kx)].fill(T::zero())),
                    Some(y) => {
                        let row = &x[c * g.x_channel + y * sy..];
                        split_columns(row, (w, sx), p, &mut even, &mut odd);
                        for kx in 0..kw {
                            let from = if kx % 2 == 0 { &even } else { &odd };
                            let j = j0 + kx / 2;
                            patches[at(kx)].copy_from_slice(&from[j..j + seg]);
                        }
                    }
                }
                done += seg;
            }
        }
    }
}

/// A spatial axis of the [`Geometry`]: input size, input stride, kernel, output size.
type Axis = (usize, usize, usize, usize);
