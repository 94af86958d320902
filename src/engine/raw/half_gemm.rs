//! Products with half-precision operands (`bf16`, `f16`) on the `f32` GEMM: the half operand
//! is widened to `f32` a tile of columns at a time, into a buffer that stays in cache, and
//! the `f32` GEMM multiplies the tile, so every product accumulates in `f32` (as PyTorch's
//! CPU kernels do) while a half-precision weight is read from memory at two bytes an
//! element. [`DotOperand`] says which right operands a left element takes: its own element,
//! or `bf16`/`f16` under `f32` (weights as checkpoints publish them, activations in `f32`).

use alloc::vec;
use alloc::vec::Vec;

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use super::gemm::{DotElement, Mat};
use super::half_dot::{Lanes, MAX_ROWS};
use crate::values::sealed::Sealed;
use few_rows::{rows_by_weight, weight_rows_added};

/// The half-precision elements: widened to `f32` exactly, rounded back to the nearest
/// (ties to even).
pub(crate) trait Half: Copy + Send + Sync + Into<f32> + 'static {
    /// `src` widened into `dst` (equal lengths), vectorised where the CPU converts.
    fn widen(src: &[Self], dst: &mut [f32]);
    /// One element widened.
    #[inline]
    fn wide(self) -> f32 {
        self.into()
    }
    /// The nearest half to `x`.
    fn narrow(x: f32) -> Self;
    /// `c (+)= a · b` with every matrix in this type by a kernel of its own, or false
    /// (nothing done) where there is none.
    fn native_product(
        a: (&[Self], Mat),
        b: (&[Self], Mat),
        c: (&mut [Self], Mat),
        accumulate: bool,
        split: bool,
    ) -> bool {
        let _ = (a, b, c, accumulate, split);
        false
    }
}

impl Half for bf16 {
    /// The upper half of an `f32`'s bits: a shift, vectorised for the CPU's best instruction
    /// set (the `half` crate's slice conversion goes element by element, 5x slower on a
    /// 512x1376 weight).
    #[inline]
    fn widen(src: &[bf16], dst: &mut [f32]) {
        super::map_pairs_best(src, dst, &|s: bf16| {
            f32::from_bits(u32::from(s.to_bits()) << 16)
        });
    }
    #[inline]
    fn narrow(x: f32) -> Self {
        bf16::from_f32(x)
    }
    /// gemmkit's bf16 GEMM on a CPU with AVX512-BF16: pairs of bf16 multiplied and summed
    /// into `f32` by `vdpbf16ps`, each output rounded once. Elsewhere false: gemmkit's own
    /// widening path took 1.16 ms (AVX-512F) and 1.98 ms (AVX2) for a 128x512 by 512x1376
    /// product that the `f32` GEMM on widened tiles runs in about 0.93 ms. With the `rayon`
    /// feature a large product is cut into blocks of rows or columns (the longer side, as
    /// the `f32` split does), each multiplied by gemmkit on one thread of shapecast's pool:
    /// a prompt's products split over a weight's rows, so each thread packs its own part of
    /// the weight, and no thread outside the pool (gemmkit's own split runs on rayon's
    /// global pool) competes with the pool's spinning workers.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    fn native_product(
        (a, ma): (&[bf16], Mat),
        (b, mb): (&[bf16], Mat),
        (c, mc): (&mut [bf16], Mat),
        accumulate: bool,
        split: bool,
    ) -> bool {
        let vouched = super::gemm::vouched((a.len(), ma), (b.len(), mb), (c.len(), mc));
        if !(vouched && std::arch::is_x86_feature_detected!("avx512bf16")) {
            // Nothing to multiply, a layout the checks cannot vouch for, or no kernel.
            return false;
        }
        let threads = super::gemm::product_threads(split, mc.rows, mc.cols, ma.cols);
        #[cfg(feature = "rayon")]
        if threads > 1 {
            let base = super::gemm::Cells(c.as_mut_ptr());
            super::gemm::split_product(threads, (ma, mb, mc), |mats| {
                // SAFETY: the piece's matrices are sub-blocks (rows or columns) of the ones
                // checked above, so every element they reach lies inside `a`,
                // `b` and `c`; the pieces' output cells are disjoint (distinct rows or
                // columns of a one-to-one layout), and `c` stays mutably borrowed until
                // every piece has returned.
                unsafe { bf16_call(a, b, base.get(), mats, accumulate) };
            });
            return true;
        }
        let _ = threads;
        // SAFETY: `c` is a `&mut` slice the checks above vouch for.
        unsafe { bf16_call(a, b, c.as_mut_ptr(), (ma, mb, mc), accumulate) };
        true
    }
}

/// `c (+)= a · b` by gemmkit's bf16 GEMM on the calling thread.
///
/// # Safety
/// As [`call`](super::gemm::kernel::call): every element of `a`'s, `b`'s and `c`'s matrices lies
/// inside its slice (`c`'s inside the allocation `c` points into, which no one else reads or
/// writes during the call); `c`'s cells are distinct elements; the strides fit `isize`.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
unsafe fn bf16_call(
    a: &[bf16],
    b: &[bf16],
    c: *mut bf16,
    (ma, mb, mc): (Mat, Mat, Mat),
    accumulate: bool,
) {
    let s = |x: usize| x as isize;
    let beta = if accumulate { bf16::ONE } else { bf16::ZERO };
    // SAFETY: what the caller vouches for is what gemmkit's unchecked entry requires (every
    // addressed element in bounds, `c` one-to-one and aliasing neither operand: it is part
    // of a `&mut` borrow). gemmkit reads `c` only when `beta` is not zero.
    unsafe {
        gemmkit::gemm_unchecked(
            mc.rows,
            ma.cols,
            mc.cols,
            bf16::ONE,
            a.as_ptr().add(ma.offset),
            s(ma.rs),
            s(ma.cs),
            b.as_ptr().add(mb.offset),
            s(mb.rs),
            s(mb.cs),
            beta,
            c.add(mc.offset),
            s(mc.rs),
            s(mc.cs),
            gemmkit::Parallelism::Serial,
        );
    }
}

impl Half for f16 {
    /// The `half` crate's conversion: the CPU's (F16C) where it has one.
    #[inline]
    fn widen(src: &[f16], dst: &mut [f32]) {
        src.convert_to_f32_slice(dst);
    }
    #[inline]
    fn narrow(x: f32) -> Self {
        f16::from_f32(x)
    }
}

/// How many `f32` a widened tile holds at most for a product of fewer than [`MANY_ROWS`]
/// rows (128 KiB: it stays in the L2 cache while the GEMM reads it).
const TILE: usize = 32 * 1024;

/// How many `f32` a widened tile holds at most for a product of [`MANY_ROWS`] rows or more
/// (8 MiB): each tile is a GEMM call that packs the left operand again, so a prompt's rows
/// by a few wide tiles beat many narrow ones. A 128x512 by 512x1376 bf16 product took
/// 1.49 ms in tiles of 128 KiB, 1.41 in tiles of 1 MiB and 1.21 widened whole, against
/// 1.09 ms for the `f32` product (`cargo bench --bench contractions -- M6`).
const WIDE_TILE: usize = 2 * 1024 * 1024;

/// The rows from which a product takes [`WIDE_TILE`]s.
const MANY_ROWS: usize = 32;

/// The columns of a tile of a `k`-row matrix of `n` columns by `m` rows: as many as fill
/// [`TILE`] (or [`WIDE_TILE`]), in multiples of 16, at least 16 and at most `n`.
fn tile_width(k: usize, n: usize, m: usize) -> usize {
    let tile = if m >= MANY_ROWS { WIDE_TILE } else { TILE };
    ((tile / k.max(1)) / 16 * 16).max(16).min(n.max(1))
}

/// Columns `j0..j0 + w` of the matrix `m` of `src`, widened into `buf`, and the buffer's
/// matrix: laid out as `src` is where a column is one run (each column widened at once) or a
/// row is (each row's part widened at once), else column-major element by element. Indexes
/// `src` as the plain loop does: a matrix reaching past it panics (a caller's bug).
fn widen_columns<H: Half>(src: &[H], m: Mat, j0: usize, w: usize, buf: &mut Vec<f32>) -> Mat {
    let k = m.rows;
    // Every element is written below: the buffer is only grown (zeroing it again for each
    // tile took a tenth of a product of one row).
    buf.resize(k * w, 0.0);
    if m.cs == 1 && m.rs != 1 {
        for (p, row) in buf.chunks_exact_mut(w.max(1)).enumerate() {
            let start = m.offset + p * m.rs + j0;
            H::widen(&src[start..start + w], row);
        }
        return Mat::new(0, k, w, w, 1);
    }
    if m.rs == 1 && m.cs == k {
        // The columns follow one another (a weight stored `[out, in]`): one run.
        let start = m.offset + j0 * k;
        H::widen(&src[start..start + k * w], buf);
        return Mat::new(0, k, w, 1, k);
    }
    for (j, column) in buf.chunks_exact_mut(k.max(1)).enumerate() {
        let start = m.offset + (j0 + j) * m.cs;
        if m.rs == 1 {
            H::widen(&src[start..start + k], column);
        } else {
            for (p, x) in column.iter_mut().enumerate() {
                *x = src[start + p * m.rs].wide();
            }
        }
    }
    Mat::new(0, k, w, 1, k)
}

/// `c (+)= a · b` with `b` in half precision: one `f32` product per tile of `b`'s columns.
/// With the `rayon` feature and `split`, a product of at least
/// [`GEMM_PARALLEL_MIN`](super::gemm::GEMM_PARALLEL_MIN) multiply-adds hands the tiles out
/// to the pool's threads in runs, each thread with its own buffer.
fn widened_right<H: Lanes + Half>(
    (a, ma): (&[f32], Mat),
    (b, mb): (&[H], Mat),
    (c, mc): (&mut [f32], Mat),
    accumulate: bool,
    split: bool,
) {
    if !super::gemm::vouched((a.len(), ma), (b.len(), mb), (c.len(), mc)) {
        // Nothing to multiply, or a layout the checks cannot vouch for: the whole right
        // matrix widened, and the `f32` product's own checks and plain loop.
        let mut buf = Vec::new();
        let wide = widen_columns(b, mb, 0, mb.cols, &mut buf);
        return f32::gemm((a, ma), (&buf, wide), (c, mc), accumulate, false);
    }
    let (k, n) = (mb.rows, mb.cols);
    if mb.rs == 1 && mb.cs == k && ma.cs == 1 && mc.cs == 1 && ma.rows <= MAX_ROWS {
        // A weight stored `[out, in]` by a few rows (a generated token): each weight row
        // read once and widened in registers, the rows split over threads when large.
        if rows_by_weight((a, ma), (b, mb), (c, mc), accumulate, split) {
            return;
        }
    }
    if mb.cs == 1 && mb.rs >= n && ma.rows <= MAX_ROWS {
        // A weight stored `[in, out]` (GPT-2's `Conv1D` layout) by a few rows: its rows
        // widened a block at a time into cache and added into the output rows.
        return weight_rows_added((a, ma), (b, mb), (c, mc), accumulate, split);
    }
    let w = tile_width(k, n, ma.rows);
    let tiles = n.div_ceil(w);
    // Tile `t` widened into `buf`: the buffer's matrix, and the columns of `c` it writes.
    let widen_tile = |t: usize, buf: &mut Vec<f32>| {
        let (j0, cols) = (t * w, w.min(n - t * w));
        let wide = widen_columns(b, mb, j0, cols, buf);
        let mct = Mat {
            offset: mc.offset + j0 * mc.cs,
            cols,
            ..mc
        };
        (wide, mct)
    };
    #[cfg(feature = "rayon")]
    {
        let threads = super::gemm::product_threads(split, mc.rows, n, k).min(tiles);
        if threads > 1 {
            let base = super::gemm::Cells(c.as_mut_ptr());
            crate::engine::threads::pieces(threads, threads, |g| {
                let mut buf = Vec::new();
                for t in g * tiles / threads..(g + 1) * tiles / threads {
                    let (wide, mct) = widen_tile(t, &mut buf);
                    // SAFETY: `a`'s matrix lies inside `a` (checked above); the tile's lies
                    // inside `buf` (its rows and columns are the buffer's); `mct` is the tile's
                    // columns of `mc`, checked to lie inside `c` with every cell its
                    // own element, and the runs of tiles of distinct threads are distinct
                    // columns, so no two threads write one element; `c` stays mutably
                    // borrowed until every piece has returned.
                    unsafe {
                        super::gemm::kernel::call(a, &buf, base.get(), (ma, wide, mct), accumulate)
                    };
                }
            });
            return;
        }
    }
    // One tile (or a product too small to split by tiles): the `f32` GEMM may split each
    // tile's product itself.
    let mut buf = Vec::new();
    for t in 0..tiles {
        let (wide, mct) = widen_tile(t, &mut buf);
        f32::gemm((a, ma), (&buf, wide), (c, mct), accumulate, split);
    }
}

/// `c (+)= a · b` with every matrix in half precision: `a` widened whole, `b` by tiles, the
/// output computed in `f32` and rounded once per element.
fn half_product<H: Lanes + Half>(
    (a, ma): (&[H], Mat),
    b: (&[H], Mat),
    (c, mc): (&mut [H], Mat),
    accumulate: bool,
    split: bool,
) {
    if H::native_product((a, ma), b, (c, mc), accumulate, split) {
        return;
    }
    let (m, k, n) = (mc.rows, ma.cols, mc.cols);
    let cell = |i: usize, j: usize| mc.offset + i * mc.rs + j * mc.cs;
    let mut wa = vec![0.0f32; m * k];
    for (i, row) in wa.chunks_exact_mut(k.max(1)).enumerate() {
        for (p, x) in row.iter_mut().enumerate() {
            *x = a[ma.offset + i * ma.rs + p * ma.cs].wide();
        }
    }
    let mut wc = vec![0.0f32; m * n];
    if accumulate {
        for (i, row) in wc.chunks_exact_mut(n.max(1)).enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = c[cell(i, j)].wide();
            }
        }
    }
    let dense = |rows, cols| Mat::new(0, rows, cols, cols, 1);
    widened_right(
        (&wa, dense(m, k)),
        b,
        (&mut wc, dense(m, n)),
        accumulate,
        split,
    );
    for (i, row) in wc.chunks_exact(n.max(1)).enumerate() {
        for (j, &x) in row.iter().enumerate() {
            c[cell(i, j)] = H::narrow(x);
        }
    }
}

macro_rules! half_dot {
    ($($t:ty),*) => {$(
        impl Sealed for $t {}
        impl DotElement for $t {
            const SPLITS_ITSELF: bool = true;

            fn gemm(
                a: (&[$t], Mat),
                b: (&[$t], Mat),
                c: (&mut [$t], Mat),
                accumulate: bool,
                split: bool,
            ) {
                half_product(a, b, c, accumulate, split);
            }
        }

        #[diagnostic::do_not_recommend]
        impl DotOperand<f32> for $t {
            const SPLITS_ITSELF: bool = true;

            fn gemm_into(
                a: (&[f32], Mat),
                b: (&[$t], Mat),
                c: (&mut [f32], Mat),
                accumulate: bool,
                split: bool,
            ) {
                widened_right(a, b, c, accumulate, split);
            }
        }
    )*};
}
half_dot!(bf16, f16);

/// The element a contraction's right operand holds when the left holds `L`: `L` itself (any
/// [`DotElement`]), or `bf16` or `f16` under an `f32` left, the weights of a half-precision
/// checkpoint multiplied by `f32` activations without widening the whole weight (a product
/// of a few rows widens it in vector registers as it reads it, one of more rows a tile at a
/// time in cache; the products accumulate in `f32` and the result is `f32`).
///
/// ```
/// use shapecast::{bf16, names, shape, Cast, Dot, Tensor};
/// names!(T, IN, OUT);
/// let w = Tensor::<f32, shape![OUT: 2, IN: 3]>::from_array([[1.0, 2.0, 3.0], [0.5, 0.25, 0.0]]);
/// let x = Tensor::<f32, shape![T: 1, IN: 3]>::from_array([[1.0, 1.0, 2.0]]);
/// let half = w.cast::<bf16>(); // half the memory; these values are exact in bf16
/// let y: Tensor<f32, shape![T: 1, OUT: 2]> = x.dot::<IN>(&half);
/// assert_eq!(y.data(), x.dot::<IN>(&w).data());
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot contract `{L}` elements with `{Self}` elements",
    label = "the right operand holds the left's element type (or bf16/f16 weights under f32): convert one with `.cast::<{L}>()`"
)]
pub trait DotOperand<L>: Copy + Send + Sync + Sealed {
    /// Whether [`gemm_into`](Self::gemm_into) splits a large product over threads itself.
    #[doc(hidden)]
    const SPLITS_ITSELF: bool;

    /// `c = a · b` (or `c += a · b` when `accumulate`), `a` of `m × k`, `b` of `k × n`, `c`
    /// of `m × n`; `split`: the product may split over threads.
    #[doc(hidden)]
    fn gemm_into(
        a: (&[L], Mat),
        b: (&[Self], Mat),
        c: (&mut [L], Mat),
        accumulate: bool,
        split: bool,
    );

    /// `c = a · b` into a new vector of `len` elements ([`DotElement::gemm_new`]); `None`
    /// (nothing done) where these elements do not run so.
    #[doc(hidden)]
    fn gemm_new(
        a: (&[L], Mat),
        b: (&[Self], Mat),
        mc: Mat,
        len: usize,
        split: bool,
    ) -> Option<alloc::vec::Vec<L>> {
        let _ = (a, b, mc, len, split);
        None
    }

    /// A batch of written products run side by side ([`DotElement::products`]); false
    /// (nothing done) where these elements do not run them so.
    #[doc(hidden)]
    #[cfg(feature = "rayon")]
    fn products_into(
        a: &[L],
        b: &[Self],
        c: &mut [L],
        mats: (Mat, Mat, Mat),
        loops: &[[usize; 4]],
    ) -> bool {
        let _ = (a, b, c, mats, loops);
        false
    }
}

impl<T: DotElement> DotOperand<T> for T {
    const SPLITS_ITSELF: bool = T::SPLITS_ITSELF;

    #[inline]
    fn gemm_into(
        a: (&[T], Mat),
        b: (&[T], Mat),
        c: (&mut [T], Mat),
        accumulate: bool,
        split: bool,
    ) {
        T::gemm(a, b, c, accumulate, split);
    }

    #[inline]
    fn gemm_new(
        a: (&[T], Mat),
        b: (&[T], Mat),
        mc: Mat,
        len: usize,
        split: bool,
    ) -> Option<alloc::vec::Vec<T>> {
        T::gemm_new(a, b, mc, len, split)
    }

    #[cfg(feature = "rayon")]
    #[inline]
    fn products_into(
        a: &[T],
        b: &[T],
        c: &mut [T],
        mats: (Mat, Mat, Mat),
        loops: &[[usize; 4]],
    ) -> bool {
        T::products(a, b, c, mats, loops)
    }
}

mod few_rows;
#[cfg(test)]
mod tests;
