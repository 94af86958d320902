//! A 3x3, stride-1 convolution over two spatial axes by Winograd's minimal filtering
//! F(2x2, 3x3) (Lavin and Gray, 2016): each 2x2 block of outputs ("tile") comes from a 4x4
//! block of the input, and the channel sum becomes 16 GEMM calls, one per point of the
//! transformed 4x4 tile, with 16 multiplications per tile and channel pair where the direct
//! product takes 36. Tiles run over every batch index together, a block of tile rows at a
//! time, so even a 7x7 image gives the GEMM calls a long side.
//!
//! The transforms (`B^T d B` for the input, `G g G^T` for the weight, `A^T m A` for the
//! output) are the paper's; f32 results differ from the direct product by rounding only
//! (about 1e-6 relative). [`conv`](super::conv) chooses this path for floats with at least
//! [`MIN_CHANNELS`] input and output channels and no groups.

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use super::conv_geometry::{split_columns, Geometry, PANEL};
use super::raw::{DotElement, Mat};

/// The fewest input and output channels for which the transforms pay (below, im2col).
pub(crate) const MIN_CHANNELS: usize = 32;

/// The fewest tiles (over the whole batch) for which the weight's transform pays: it costs
/// about 40 ns per channel pair here, and each tile saves about 0.6 ns per pair of the
/// direct product's multiplications (512 channels at 7x7: 128 tiles at batch 8, level with
/// im2col at batch 8 and behind it at batch 1).
pub(crate) const MIN_TILES_TOTAL: usize = 128;

/// The transformed input and output a block of tiles keeps together, in elements (1 MiB of
/// `f32`: a core's L2 cache here). Larger blocks ran faster on one thread and did not gain
/// from the second: two threads each streaming several MiB share one memory bus.
const BLOCK_ELEMENTS: usize = 1 << 18;

/// The fewest tiles a block takes, where the batch has them.
const MIN_TILES: usize = 64;

/// Whether the geometry is one this path computes: two spatial axes, a 3x3 kernel, stride
/// and dilation 1, one group, enough channels and tiles, a float element.
pub(crate) fn applies<T: DotElement>(g: &Geometry) -> bool {
    T::WINOGRAD_HALF.is_some()
        && g.spatial.len() == 2
        && g.spatial.iter().all(|s| s.2 == 3)
        && g.stride == 1
        && g.dilation == 1
        && g.groups == 1
        && g.c_group >= MIN_CHANNELS
        && g.o_group >= MIN_CHANNELS
        && g.batch.iter().map(|b| b.0).product::<usize>()
            * g.spatial.iter().map(|s| s.3.div_ceil(2)).product::<usize>()
            >= MIN_TILES_TOTAL
}

/// A weight's transform kept between convolutions: filled by the first convolution that
/// takes this path with the weight as it is stored (`[OUT, C, 3, 3]`, contiguous), then
/// read by every later one. Without the `std` feature nothing is kept (each convolution
/// transforms the weight again).
pub struct Kept<T> {
    #[cfg(feature = "std")]
    transform: std::sync::OnceLock<Vec<T>>,
    #[cfg(not(feature = "std"))]
    transform: core::marker::PhantomData<T>,
}

impl<T> Kept<T> {
    /// The kept transform, made by `make` when there is none yet.
    pub(crate) fn get_or(&self, make: impl FnOnce() -> Vec<T>) -> Cow<'_, [T]>
    where
        T: Clone,
    {
        #[cfg(feature = "std")]
        return Cow::Borrowed(self.transform.get_or_init(make));
        #[cfg(not(feature = "std"))]
        Cow::Owned(make())
    }
}

impl<T> Default for Kept<T> {
    /// An empty cell.
    fn default() -> Self {
        Kept {
            #[cfg(feature = "std")]
            transform: std::sync::OnceLock::new(),
            #[cfg(not(feature = "std"))]
            transform: core::marker::PhantomData,
        }
    }
}

impl<T> Clone for Kept<T> {
    /// A new, empty cell: the clone fills its own on first use.
    fn clone(&self) -> Self {
        Kept::default()
    }
}

/// The weight `[OUT, C, 3, 3]` (contiguous) transformed: `u[ξ][c][o]` for the 16 points ξ.
pub(crate) fn transform_weight<T: DotElement>(g: &Geometry, weight: &[T]) -> Vec<T> {
    let (c_n, o_n) = (g.c_group, g.o_group);
    let mut u = vec![T::zero(); 16 * c_n * o_n];
    // The 16 planes `u[ξ]`, each cut into row ranges of channels: piece `i` writes rows
    // `i·per..` of every plane. Split over threads when the weight is large (512 channels
    // each way: a third of the convolution's time on one thread).
    let pieces = if c_n * o_n >= 1 << 16 {
        super::split::threads().max(1)
    } else {
        1
    };
    let per = c_n.div_ceil(pieces);
    let mut rows: Vec<Vec<&mut [T]>> = (0..pieces).map(|_| Vec::with_capacity(16)).collect();
    for plane in u.chunks_mut(c_n * o_n) {
        for (i, part) in plane.chunks_mut(per * o_n).enumerate() {
            rows[i].push(part);
        }
    }
    super::split::each_mut(&mut rows, |i, planes| {
        transform_rows(weight, (c_n, o_n), i * per, planes);
    });
    u
}

/// Rows `c0..` (as many as `planes[0]` holds) of each of the 16 transformed planes.
fn transform_rows<T: DotElement>(
    weight: &[T],
    (c_n, o_n): (usize, usize),
    c0: usize,
    planes: &mut [&mut [T]],
) {
    let half = T::WINOGRAD_HALF.unwrap_or_else(T::zero);
    let count = planes.first().map_or(0, |p| p.len() / o_n);
    // Sixteen outputs at a time: their kernels transformed into a block (in cache), then
    // written point by point, each point's rows in order: one write stream at a time
    // (sixteen interleaved ones ran at a fraction of the bandwidth).
    let mut block = vec![T::zero(); 16 * count * 16];
    for o0 in (0..o_n).step_by(16) {
        let width = (o0 + 16).min(o_n) - o0;
        for c in 0..count {
            // The sixteen kernels of channel `c` side by side, transformed as lanes (one
            // kernel at a time, scattered into the block, took 68 ns a kernel: a tenth of
            // ResNet-18's forward).
            let mut taps = [[T::zero(); 16]; 9];
            for r in 0..width {
                let k = &weight[((o0 + r) * c_n + c0 + c) * 9..][..9];
                for (t, &tap) in k.iter().enumerate() {
                    taps[t][r] = tap;
                }
            }
            for (xi, lanes) in transform_lanes(&taps, half).iter().enumerate() {
                block[(xi * count + c) * 16..][..16].copy_from_slice(lanes);
            }
        }
        for (xi, plane) in planes.iter_mut().enumerate() {
            for c in 0..count {
                let from = &block[(xi * count + c) * 16..][..width];
                // An element loop: `copy_from_slice` calls `memmove` for these 16 elements.
                for (to, &value) in plane[c * o_n + o0..][..width].iter_mut().zip(from) {
                    *to = value;
                }
            }
        }
    }
}

/// `G g G^T` of sixteen 3x3 kernels side by side (`taps[t][r]`: tap `t`, row-major, of
/// kernel `r`): point `ξ` (row-major in 4x4) of kernel `r` is `out[ξ][r]`.
#[inline(always)]
fn transform_lanes<T: DotElement>(taps: &[[T; 16]; 9], half: T) -> [[T; 16]; 16] {
    // G = [[1, 0, 0], [½, ½, ½], [½, −½, ½], [0, 0, 1]]: each row of G applied to three
    // lanes of kernels.
    let g = |a: &[T; 16], b: &[T; 16], c: &[T; 16]| -> [[T; 16]; 4] {
        [
            *a,
            core::array::from_fn(|r| (a[r] + b[r] + c[r]) * half),
            core::array::from_fn(|r| (a[r] - b[r] + c[r]) * half),
            *c,
        ]
    };
    // G g, column by column (4x3), then each of its rows by G (4x4).
    let columns = [0, 1, 2].map(|j| g(&taps[j], &taps[3 + j], &taps[6 + j]));
    let mut out = [[T::zero(); 16]; 16];
    for i in 0..4 {
        let row = g(&columns[0][i], &columns[1][i], &columns[2][i]);
        out[i * 4..i * 4 + 4].copy_from_slice(&row);
    }
    out
}

/// The convolution of batch indices `batches` (a range of the flattened batch axes, each
/// given its input and output offsets by `offsets`), written into `out` from `base` (the
/// output offset of the range's first index is `offsets(i).1 - base`).
pub(crate) fn run<T: DotElement>(
    g: &Geometry,
    x: &[T],
    u: &[T],
    out: &mut [T],
    batches: core::ops::Range<usize>,
    offsets: &dyn Fn(usize) -> (usize, usize),
    base: usize,
) {
    let (c_n, o_n) = (g.c_group, g.o_group);
    let [(_, _, _, oh), (_, _, _, ow)] = [g.spatial[0], g.spatial[1]];
    let (ny, nx) = (oh.div_ceil(2), ow.div_ceil(2));
    if ny == 0 || nx == 0 || batches.is_empty() {
        return;
    }
    // Tile rows (a batch index and a tile row each) per block: the transformed input and
    // output of a block, 16 x (C + OUT) x tiles, near BLOCK_ELEMENTS, but at least MIN_TILES
    // tiles, so that the GEMM crate's packing of the transformed weight is shared by enough
    // of them; then up to twice that, to fill the GEMM kernel's last panel (`block_rows`).
    let rows_total = batches.len() * ny;
    let rows = block_rows(
        (BLOCK_ELEMENTS / (16 * (c_n + o_n) * nx)).max(MIN_TILES.div_ceil(nx)),
        nx,
    )
    .clamp(1, rows_total);
    // Every element of `v` and `m` is written before it is read: no clearing between blocks.
    let mut v = vec![T::zero(); 16 * c_n * rows * nx];
    let mut m = vec![T::zero(); 16 * o_n * rows * nx];
    let mut lanes = Lanes::new(nx, rows * nx);
    let mut first = 0;
    while first < rows_total {
        let count = rows.min(rows_total - first);
        let nt = count * nx;
        // The block's rows: (batch index, tile row).
        let row_of = |r: usize| {
            let k = first + r;
            (batches.start + k / ny, k % ny)
        };
        for c in 0..c_n {
            for r in 0..count {
                let (b, ty) = row_of(r);
                lanes.input_row(g, x, offsets(b).0 + c * g.x_channel, ty, r * nx);
            }
            // Channel `c`'s lane of each point: the block's tiles in a row.
            let mut planes = v.chunks_exact_mut(c_n * nt);
            let mut points: [&mut [T]; 16] = core::array::from_fn(|_| {
                let plane = planes.next().expect("16 planes of the block's points");
                &mut plane[c * nt..(c + 1) * nt]
            });
            lanes.input_columns(&mut points, nt);
        }
        // Per point: `m[ξ] = v[ξ] · u[ξ]`, tiles down the columns of `v[ξ]` and `m[ξ]`.
        let tiles_by = |offset, cols| Mat {
            offset,
            rows: nt,
            cols,
            rs: 1,
            cs: nt,
        };
        for xi in 0..16 {
            let weights = Mat {
                offset: xi * c_n * o_n,
                rows: c_n,
                cols: o_n,
                rs: o_n,
                cs: 1,
            };
            let (a, c) = (tiles_by(xi * c_n * nt, c_n), tiles_by(xi * o_n * nt, o_n));
            T::gemm((&v, a), (u, weights), (&mut m, c), false, false);
        }
        for o in 0..o_n {
            lanes.output_columns(|xi| &m[(xi * o_n + o) * nt..][..nt]);
            for r in 0..count {
                let (b, ty) = row_of(r);
                let ob = offsets(b).1 - base + o * g.out_channel;
                lanes.output_row(g, &mut out[ob..], ty, r * nx);
            }
        }
        first += count;
    }
}

/// The tile rows a block takes: from `base` to twice as many, the count whose tiles leave
/// the least of a last 64-row panel of the GEMM crate's AVX-512 kernel empty (ties to the
/// fewer). The tiles are the rows of each point's product; a remainder of a few tiles runs
/// on the crate's narrowest kernel, which took a fifth of a 128-channel 28x28 convolution
/// when its blocks were 70 tiles (5 rows of 14). With 126 (9 rows) the convolution ran
/// 12–18% faster, and 256 channels at 14x14 likewise (126 tiles against 70).
fn block_rows(base: usize, nx: usize) -> usize {
    let base = base.max(1);
    let empty = |rows: usize| (rows * nx).next_multiple_of(PANEL) - rows * nx;
    (base..=2 * base)
        .min_by_key(|&rows| (empty(rows), rows))
        .unwrap_or(base)
}

/// The scratch of a block of tile rows, a lane per tile: an input row split into even and
/// odd columns (one tile row's), and the row transforms of every tile of the block, tile
/// rows side by side (`width` tiles a lane), so that the transform across rows runs over
/// the whole block at once.
struct Lanes<T> {
    nx: usize,
    width: usize,
    even: Vec<T>,
    odd: Vec<T>,
    rows: Vec<T>,
}

impl<T: DotElement> Lanes<T> {
    /// Room for `width` tiles a lane, `nx` a tile row.
    fn new(nx: usize, width: usize) -> Lanes<T> {
        Lanes {
            nx,
            width,
            even: vec![T::zero(); nx + 1],
            odd: vec![T::zero(); nx + 1],
            rows: vec![T::zero(); 16 * width],
        }
    }

    /// Lane `k` (of 16) of the block's row transforms.
    fn lane(&self, k: usize, len: usize) -> &[T] {
        &self.rows[k * self.width..][..len]
    }

    /// `d B` for every tile of tile row `ty` of the channel starting at `xb`: the four input
    /// rows' transforms into lanes `4i + j`, from tile `at` of the block on.
    fn input_row(&mut self, g: &Geometry, x: &[T], xb: usize, ty: usize, at: usize) {
        let (nx, width) = (self.nx, self.width);
        let [(h, sy, _, _), (w, sx, _, _)] = [g.spatial[0], g.spatial[1]];
        let p = g.padding;
        for i in 0..4 {
            // Input row 2·ty − p + i, its columns 2·k − p (even) and 2·k + 1 − p (odd), zeros
            // outside.
            let yy = (2 * ty + i).wrapping_sub(p);
            let (even, odd) = (&mut self.even, &mut self.odd);
            if yy >= h {
                even.fill(T::zero());
                odd.fill(T::zero());
            } else {
                split_columns(&x[xb + yy * sy..], (w, sx), p, even, odd);
            }
            // d·B along the row: (d0 − d2, d1 + d2, d2 − d1, d1 − d3) with d0 = even[tx],
            // d1 = odd[tx], d2 = even[tx + 1], d3 = odd[tx + 1].
            let (r0, rest) = self.rows[4 * i * width..].split_at_mut(width);
            let (r1, rest) = rest.split_at_mut(width);
            let (r2, r3) = rest.split_at_mut(width);
            let [r0, r1, r2, r3] = [r0, r1, r2, &mut r3[..width]].map(|r| &mut r[at..at + nx]);
            for tx in 0..nx {
                let (d0, d1, d2, d3) = (even[tx], odd[tx], even[tx + 1], odd[tx + 1]);
                r0[tx] = d0 - d2;
                r1[tx] = d1 + d2;
                r2[tx] = d2 - d1;
                r3[tx] = d1 - d3;
            }
        }
    }

    /// `B^T` across the four input rows, every tile of the block (`nt`) at once: point
    /// (i, j) from row transforms (·, j), into `points[4i + j]`.
    fn input_columns(&self, points: &mut [&mut [T]], nt: usize) {
        for j in 0..4 {
            let (a, b, c, d) = (
                self.lane(j, nt),
                self.lane(4 + j, nt),
                self.lane(8 + j, nt),
                self.lane(12 + j, nt),
            );
            let Ok([p0, p1, p2, p3]) = points.get_disjoint_mut([j, 4 + j, 8 + j, 12 + j]) else {
                unreachable!("four distinct points of sixteen")
            };
            for k in 0..nt {
                p0[k] = a[k] - c[k];
                p1[k] = b[k] + c[k];
                p2[k] = c[k] - b[k];
                p3[k] = b[k] - d[k];
            }
        }
    }

    /// `A^T` down the columns, every tile of the block at once (`m(ξ)` the lane of point
    /// ξ): rows t0 = m0 + m1 + m2 and t1 = m1 − m2 − m3 of column j into lanes 2j and 2j + 1.
    fn output_columns<'m>(&mut self, m: impl Fn(usize) -> &'m [T])
    where
        T: 'm,
    {
        let width = self.width;
        for j in 0..4 {
            let (a, b, c, d) = (m(j), m(4 + j), m(8 + j), m(12 + j));
            let (t0, t1) = self.rows[2 * j * width..(2 * j + 2) * width].split_at_mut(width);
            for (k, (t0, t1)) in t0.iter_mut().zip(t1.iter_mut()).take(a.len()).enumerate() {
                *t0 = a[k] + b[k] + c[k];
                *t1 = b[k] - c[k] - d[k];
            }
        }
    }

    /// `· A` along the rows of tile row `ty` (its tiles from `at` of the block on), written
    /// into the output channel starting at `out[0]`.
    fn output_row(&self, g: &Geometry, out: &mut [T], ty: usize, at: usize) {
        let nx = self.nx;
        let [(_, _, _, oh), (_, _, _, ow)] = [g.spatial[0], g.spatial[1]];
        let (so_y, so_x) = (g.out_spatial[0], g.out_spatial[1]);
        for i in 0..2 {
            let oy = 2 * ty + i;
            if oy >= oh {
                break;
            }
            let t = |j: usize| &self.rows[(2 * j + i) * self.width + at..][..nx];
            let (a, b, c, d) = (t(0), t(1), t(2), t(3));
            let row = &mut out[oy * so_y..];
            let pairs = ow / 2;
            if so_x == 1 {
                // Contiguous columns: the tiles' two outputs side by side.
                for (tx, pair) in row[..2 * pairs].chunks_exact_mut(2).enumerate() {
                    pair[0] = a[tx] + b[tx] + c[tx];
                    pair[1] = b[tx] - c[tx] - d[tx];
                }
            } else {
                for tx in 0..pairs {
                    row[2 * tx * so_x] = a[tx] + b[tx] + c[tx];
                    row[(2 * tx + 1) * so_x] = b[tx] - c[tx] - d[tx];
                }
            }
            if ow % 2 == 1 {
                // The last tile's second column lies past the output.
                let tx = nx - 1;
                row[2 * tx * so_x] = a[tx] + b[tx] + c[tx];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_fills_the_last_panel_best_within_twice_its_base() {
        // 14 tiles a row from 5 rows: 126 tiles (2 of 128 empty) rather than 70 (58 empty).
        assert_eq!(block_rows(5, 14), 9);
        // 7 a row from 10: 126 again; 4 a row from 16: exactly 64.
        assert_eq!(block_rows(10, 7), 18);
        assert_eq!(block_rows(16, 4), 16);
        // 28 a row from 4: 112 (16 empty) is the best of 112..=224; a tie keeps the fewer.
        assert_eq!(block_rows(4, 28), 4);
        assert_eq!(block_rows(1, 64), 1);
        // A base of 0 counts as 1: 3 tiles or 6, 6 leaves fewer empty.
        assert_eq!(block_rows(0, 3), 2);
    }
}
