//! The GEMM call (part of the crate's only `unsafe`, `engine::raw`): the matrices a
//! contraction hands over ([`Mat`]), checked before each call; the `gemm` crate for `f32` and
//! `f64`, with a product split over threads by blocks of rows or columns and a batch of
//! products run side by side (feature `rayon`), each piece writing its own cells through one
//! shared pointer ([`Cells`]); a plain loop for the other elements.

use alloc::vec::Vec;
use core::ops::{Add, Mul, Sub};

use num_traits::Zero;

use crate::values::sealed::Sealed;
use kernel::calls;
use rows_added::rows_added;

/// One matrix of a GEMM call: a slice, the offset of element (0, 0) and the row and column
/// strides, in elements.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct Mat {
    pub(crate) offset: usize,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) rs: usize,
    pub(crate) cs: usize,
}

impl Mat {
    /// The matrix of `rows × cols` elements from `offset` on, `rs` and `cs` apart.
    pub(crate) const fn new(offset: usize, rows: usize, cols: usize, rs: usize, cs: usize) -> Mat {
        Mat {
            offset,
            rows,
            cols,
            rs,
            cs,
        }
    }

    /// The same elements as the transposed matrix: rows and columns, and their strides,
    /// swapped.
    pub(crate) const fn transposed(self) -> Mat {
        Mat::new(self.offset, self.cols, self.rows, self.cs, self.rs)
    }

    /// Rows `lo..lo + n` of the matrix.
    #[cfg(feature = "rayon")]
    const fn row_block(self, lo: usize, n: usize) -> Mat {
        Mat::new(self.offset + lo * self.rs, n, self.cols, self.rs, self.cs)
    }

    /// Columns `lo..lo + n` of the matrix.
    #[cfg(feature = "rayon")]
    const fn column_block(self, lo: usize, n: usize) -> Mat {
        Mat::new(self.offset + lo * self.cs, self.rows, n, self.rs, self.cs)
    }

    /// Its rows stand one after the other, each contiguous (row-major without gaps), so its
    /// elements from `offset` on are the rows in order.
    pub(super) const fn rows_in_order(self) -> bool {
        self.cs == 1 && (self.rows == 1 || self.rs == self.cols)
    }

    /// The largest index the matrix touches, if it fits `usize` (`None` for an empty matrix
    /// is not needed: callers skip empty products).
    fn last(&self) -> Option<usize> {
        let r = (self.rows - 1).checked_mul(self.rs)?;
        let c = (self.cols - 1).checked_mul(self.cs)?;
        self.offset.checked_add(r)?.checked_add(c)
    }

    /// Inside a slice of `len` elements, with strides that fit `isize`.
    pub(super) fn fits(&self, len: usize) -> bool {
        self.rows > 0
            && self.cols > 0
            && self.rs <= isize::MAX as usize
            && self.cs <= isize::MAX as usize
            && self.last().is_some_and(|l| l < len)
    }

    /// Its cells are exactly the elements `0..len` of a slice: `len` distinct cells
    /// ([`one_to_one`](Self::one_to_one)) from element 0, the farthest at `len - 1`.
    fn covers(&self, len: usize) -> bool {
        self.offset == 0
            && self.rows.checked_mul(self.cols) == Some(len)
            && self.fits(len)
            && self.last() == Some(len - 1)
            && self.one_to_one()
    }

    /// Distinct cells are distinct elements: rows and columns strided apart.
    pub(super) fn one_to_one(&self) -> bool {
        match (self.rows, self.cols) {
            (1, 1) => true,
            (1, _) => self.cs >= 1,
            (_, 1) => self.rs >= 1,
            _ => {
                (self.cs >= 1 && self.rs >= self.cs.saturating_mul(self.cols))
                    || (self.rs >= 1 && self.cs >= self.rs.saturating_mul(self.rows))
            }
        }
    }
}

/// An element contractions run on: `c += a · b` for strided matrices. Implemented for the
/// primitive numbers; `f32` and `f64` use the `gemm` crate, the others a plain loop.
///
/// ```
/// use shapecast::{names, shape, Dot, Tensor};
/// names!(I, J, K);
/// let a = Tensor::<i64, shape![I: 2, J: 2]>::from_array([[1, 2], [3, 4]]);
/// let b = Tensor::<i64, shape![J: 2, K: 1]>::from_array([[1], [1]]);
/// assert_eq!(a.dot::<J>(&b).data(), &[3, 7]);
/// ```
pub trait DotElement:
    Copy + Send + Sync + Zero + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Sealed
{
    /// One half, for the elements a 3x3 convolution may run on by Winograd's transforms
    /// (floats); `None` where they would not be exact enough (integers).
    #[doc(hidden)]
    const WINOGRAD_HALF: Option<Self> = None;

    /// Whether [`gemm`](Self::gemm) splits a large product over threads itself (the GEMM
    /// crate does, with the `rayon` feature); otherwise the caller cuts it into row blocks.
    #[doc(hidden)]
    const SPLITS_ITSELF: bool = false;

    /// `c = a · b` (or `c += a · b` when `accumulate`), `a` of `m × k`, `b` of `k × n`, `c`
    /// of `m × n`, each checked to lie in its slice; `split`: the product may split over
    /// threads.
    #[doc(hidden)]
    fn gemm(
        a: (&[Self], Mat),
        b: (&[Self], Mat),
        c: (&mut [Self], Mat),
        accumulate: bool,
        split: bool,
    ) {
        let _ = split;
        naive(a, b, c, accumulate);
    }

    /// `c = a · b` into a new vector of `len` elements, every one of them a cell of `mc`,
    /// each written once without being zeroed first; `None` (nothing done) where the
    /// element or the matrices' layout does not run so. `split`: the product may split over
    /// threads.
    #[doc(hidden)]
    fn gemm_new(
        a: (&[Self], Mat),
        b: (&[Self], Mat),
        mc: Mat,
        len: usize,
        split: bool,
    ) -> Option<alloc::vec::Vec<Self>> {
        let _ = (a, b, mc, len, split);
        None
    }

    /// A batch of written products (`c = a · b`), one per index of `loops` (each loop's
    /// size and strides in `a`, `b` and `c`, added to the matrices' offsets), run side by
    /// side over rayon's pool; false (nothing done) where the element does not run them so or
    /// the checks fail.
    #[doc(hidden)]
    #[cfg(feature = "rayon")]
    fn products(
        a: &[Self],
        b: &[Self],
        c: &mut [Self],
        mats: (Mat, Mat, Mat),
        loops: &[[usize; 4]],
    ) -> bool {
        let _ = (a, b, c, mats, loops);
        false
    }
}

/// Whether every cell of every product of a batch is its own element: the output axes (the
/// loops' and the matrix's rows and columns), smallest stride first, each stride past the
/// farthest element the smaller ones reach; and the farthest element inside `len`.
#[cfg(feature = "rayon")]
fn cells_distinct(mc: Mat, loops: &[[usize; 4]], len: usize) -> bool {
    let mut axes: Vec<(usize, usize)> = loops
        .iter()
        .map(|l| (l[3], l[0]))
        .chain([(mc.rs, mc.rows), (mc.cs, mc.cols)])
        .filter(|&(_, n)| n > 1)
        .collect();
    axes.sort_unstable();
    let mut reach = 0usize;
    for (stride, n) in axes {
        let Some(next) = (n - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(reach))
        else {
            return false;
        };
        if stride <= reach || stride == 0 {
            return false;
        }
        reach = next;
    }
    mc.offset.checked_add(reach).is_some_and(|last| last < len)
}

/// `c = a · b` (or `c += a · b`) by three loops.
fn naive<T: Copy + Zero + Add<Output = T> + Mul<Output = T>>(
    (a, ma): (&[T], Mat),
    (b, mb): (&[T], Mat),
    (c, mc): (&mut [T], Mat),
    accumulate: bool,
) {
    for i in 0..mc.rows {
        for j in 0..mc.cols {
            let at = mc.offset + i * mc.rs + j * mc.cs;
            let mut sum = if accumulate { c[at] } else { T::zero() };
            for p in 0..ma.cols {
                sum = sum
                    + a[ma.offset + i * ma.rs + p * ma.cs] * b[mb.offset + p * mb.rs + j * mb.cs];
            }
            c[at] = sum;
        }
    }
}

macro_rules! plain_loop {
    ($($t:ty),*) => {$(
        impl Sealed for $t {}
        impl DotElement for $t {}
    )*};
}
plain_loop!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// The fewest multiply-adds a product splits over threads for (with the `rayon` feature).
/// With the pool's workers kept awake ([`threads`](super::threads)), two threads took
/// 128×256×256 (2^23) in 0.59–0.67x the one-thread time and 128×64×128 (2^20) in 0.9x
/// (standalone products after 100 µs of serial work, this 2-core VM).
#[cfg(feature = "rayon")]
pub(super) const GEMM_PARALLEL_MIN: usize = 1 << 21;

/// The threads a product of `m × k` by `k × n` splits over: the pool's when `split` and it
/// makes at least [`GEMM_PARALLEL_MIN`] multiply-adds, else 1 (always 1 without the `rayon`
/// feature). Used by the split products and by gemmkit's bf16 product (x86-64 with `std`).
#[cfg_attr(
    not(any(feature = "rayon", all(feature = "std", target_arch = "x86_64"))),
    allow(dead_code)
)]
pub(super) fn product_threads(split: bool, m: usize, n: usize, k: usize) -> usize {
    #[cfg(feature = "rayon")]
    if split && m.saturating_mul(n).saturating_mul(k) >= GEMM_PARALLEL_MIN {
        return crate::engine::threads::count();
    }
    let _ = (split, m, n, k);
    1
}

/// The fewest weight elements a product of a few rows splits over threads at: 2^20 (a
/// vocabulary's classifier splits, a layer's weights do not). With 2^16 every weight of the
/// dim-288 Llama split and a generated token took 1.38 against 1.27 ms on two threads
/// (`cargo bench --bench llama --features safetensors,rayon`).
#[cfg(feature = "rayon")]
pub(super) const DOT_PARALLEL_MIN: usize = 1 << 20;

/// A product cut into one block of rows or columns per thread (the longer side, in multiples
/// of 16): `piece` runs on each block's matrices (sub-blocks of `mats`) on the pool's threads.
#[cfg(feature = "rayon")]
pub(super) fn split_product(
    threads: usize,
    (ma, mb, mc): (Mat, Mat, Mat),
    piece: impl Fn((Mat, Mat, Mat)) + Sync,
) {
    let (by_rows, len) = (mc.rows > mc.cols, mc.rows.max(mc.cols));
    let per = len.div_ceil(threads).next_multiple_of(16);
    crate::engine::threads::pieces(len.div_ceil(per), threads, |i| {
        let (lo, n) = (i * per, per.min(len - i * per));
        piece(if by_rows {
            (ma.row_block(lo, n), mb, mc.row_block(lo, n))
        } else {
            (ma, mb.column_block(lo, n), mc.column_block(lo, n))
        })
    });
}

/// Whether `a · b` into `c` is a product of these matrices: `a` of `m × k`, `b` of `k × n`,
/// `c` of `m × n`.
fn shapes_agree(ma: Mat, mb: Mat, mc: Mat) -> bool {
    ma.rows == mc.rows && mb.cols == mc.cols && ma.cols == mb.rows
}

/// Whether the checks vouch for a product `a · b` into `c`, slices of these lengths: the
/// shapes agree, each matrix lies inside its slice, and `c`'s cells are distinct elements.
pub(super) fn vouched((a, ma): (usize, Mat), (b, mb): (usize, Mat), (c, mc): (usize, Mat)) -> bool {
    shapes_agree(ma, mb, mc) && ma.fits(a) && mb.fits(b) && mc.fits(c) && mc.one_to_one()
}

/// Whether a product goes through a transposed block (see `DotElement::gemm` for `f32`):
/// at least 2^20 multiply-adds, `K` of at least 512 walked with stride 1 by both operands,
/// and fewer output rows than columns.
fn transposes(ma: Mat, mb: Mat, mc: Mat) -> bool {
    let large = mc.rows.saturating_mul(mc.cols).saturating_mul(ma.cols) >= 1 << 20;
    large
        && ma.cols >= 512
        && mb.rs == 1
        && mb.cs > 1
        && ma.cs == 1
        && ma.rs > 1
        && mc.rows < mc.cols
}

/// `c`'s first element, shared by the pieces of a split product, each writing its own
/// cells.
#[cfg(feature = "rayon")]
#[derive(Clone, Copy)]
pub(super) struct Cells<T>(pub(super) *mut T);

// SAFETY: the pointer is only read as the base of the pieces of one product (`split_gemm`),
// whose cells are disjoint sets of elements of one `&mut` slice held for the whole split;
// sending it to another thread is sending a part of that `&mut` borrow, sound for `T: Send`.
#[cfg(feature = "rayon")]
unsafe impl<T: Send> Send for Cells<T> {}
// SAFETY: as above: the threads sharing it write disjoint cells and read none of each
// other's.
#[cfg(feature = "rayon")]
unsafe impl<T: Send> Sync for Cells<T> {}

#[cfg(feature = "rayon")]
impl<T> Cells<T> {
    /// The pointer (a method, so that closures capture the `Send` wrapper, not its field).
    pub(super) fn get(self) -> *mut T {
        self.0
    }
}

macro_rules! blas_like {
    ($t:ty) => {
        impl Sealed for $t {}
        impl DotElement for $t {
            const SPLITS_ITSELF: bool = true;
            const WINOGRAD_HALF: Option<$t> = Some(0.5);

            fn gemm(
                (a, ma): (&[$t], Mat),
                (b, mb): (&[$t], Mat),
                (c, mc): (&mut [$t], Mat),
                accumulate: bool,
                split: bool,
            ) {
                if !vouched((a.len(), ma), (b.len(), mb), (c.len(), mc)) {
                    // Nothing to multiply, or a layout the checks cannot vouch for.
                    return naive((a, ma), (b, mb), (c, mc), accumulate);
                }
                if rows_added((a, ma), (b, mb), (c, mc), accumulate, split) {
                    return;
                }
                // Both operands walk `K` with stride 1 (the right one a weight as files store
                // it, `[out, in]` contracted over its last axis) and the output has fewer rows
                // than columns: the GEMM crate is faster with the long side as rows, so the
                // transposed output `c^T = b^T · a^T` is computed into a block, then copied
                // into `c` (`benches/contractions.rs`, M5: a 128x512x1376 linear layer whose
                // weight is stored `[F, E]` took 1.6x the `[E, F]` one as written).
                // Small products keep their one allocation (the output's; the crate packs
                // them on the stack): below 2^20 multiply-adds the block does not pay, nor
                // below K = 512 (standalone, one thread: 128x512x1376 2.07 against 3.01 ms as
                // written, 128x768x288 0.62 against 0.67 ms, but 128x288x768 0.64 against
                // 0.60 ms and 128x288x288 0.22 against 0.21 ms).
                if transposes(ma, mb, mc) {
                    let (m, n) = (mc.rows, mc.cols);
                    let mut block = alloc::vec![<$t>::default(); m * n];
                    let bt = Mat {
                        offset: mb.offset,
                        rows: n,
                        cols: ma.cols,
                        rs: mb.cs,
                        cs: 1,
                    };
                    let at = Mat {
                        offset: ma.offset,
                        rows: ma.cols,
                        cols: m,
                        rs: 1,
                        cs: ma.rs,
                    };
                    let out = Mat {
                        offset: 0,
                        rows: n,
                        cols: m,
                        rs: m,
                        cs: 1,
                    };
                    // The block has more rows than columns: this call multiplies as written.
                    Self::gemm((b, bt), (a, at), (&mut block, out), false, split);
                    // Rows `i0..` of `c` (`cells` starts at row `i0`) from the block's
                    // columns, a tile of TILE x TILE at a time: the block is read down its
                    // columns, which element by element missed the cache on every read
                    // (5% of a transformer block's training step).
                    const TILE: usize = 16;
                    let rows = |i0: usize, cells: &mut [$t]| {
                        let i1 = (i0 + TILE).min(m);
                        for j0 in (0..n).step_by(TILE) {
                            for i in i0..i1 {
                                let at = (i - i0) * mc.rs;
                                for j in j0..(j0 + TILE).min(n) {
                                    let v = block[j * m + i];
                                    let cell = &mut cells[at + j * mc.cs];
                                    *cell = if accumulate { *cell + v } else { v };
                                }
                            }
                        }
                    };
                    // The copy splits over threads too, a tile of rows of `c` to a piece,
                    // when the rows lie apart (with one thread or for a small output, in
                    // order).
                    #[cfg(feature = "rayon")]
                    if split && m * n >= crate::engine::split::PARALLEL_MIN_ELEMENTS && mc.rs >= n * mc.cs {
                        let end = mc.offset + (m - 1) * mc.rs + (n - 1) * mc.cs + 1;
                        crate::engine::threads::chunks(
                            &mut c[mc.offset..end],
                            mc.rs * TILE,
                            |piece, cells| rows(piece * TILE, cells),
                        );
                        return;
                    }
                    for i0 in (0..m).step_by(TILE) {
                        rows(i0, &mut c[mc.offset + i0 * mc.rs..]);
                    }
                    return;
                }
                // SAFETY: `c` is a `&mut` slice the checks above vouch for (its cells inside
                // it and distinct), held for the whole call.
                unsafe { calls(a, b, c.as_mut_ptr(), (ma, mb, mc), accumulate, split) };
            }

            fn gemm_new(
                (a, ma): (&[$t], Mat),
                (b, mb): (&[$t], Mat),
                mc: Mat,
                len: usize,
                split: bool,
            ) -> Option<Vec<$t>> {
                let direct = vouched((a.len(), ma), (b.len(), mb), (len, mc))
                    && mc.covers(len)
                    && !rows_added::takes(ma, mb, mc)
                    && !transposes(ma, mb, mc);
                if !direct {
                    return None;
                }
                let mut out = Vec::with_capacity(len);
                super::advise_huge_pages(&out);
                // SAFETY: `out`'s allocation holds `len` elements, which `mc`'s cells are
                // (`covers`: distinct, from 0 to `len - 1`), and no one else can reach it;
                // `a` and `b` were checked above.
                unsafe { calls(a, b, out.as_mut_ptr(), (ma, mb, mc), false, split) };
                // SAFETY: written without reading (`acc` false: the kernels' `read_dst`
                // off, which stores `a · b` into each cell, zero when `K` is 0), every cell
                // of `mc`, so each of the `len` elements, was written by the call.
                unsafe { out.set_len(len) };
                Some(out)
            }

            #[cfg(feature = "rayon")]
            fn products(
                a: &[$t],
                b: &[$t],
                c: &mut [$t],
                (ma, mb, mc): (Mat, Mat, Mat),
                loops: &[[usize; 4]],
            ) -> bool {
                let count = loops.iter().try_fold(1usize, |n, l| n.checked_mul(l[0]));
                let Some(count) = count.filter(|&n| n > 1) else {
                    return false;
                };
                if !cells_distinct(mc, loops, c.len()) || !mc.one_to_one() {
                    return false;
                }
                // The matrices of product `p`: its loop indices (the last loop fastest) times
                // the strides, added to the offsets; `None` unless all three fit.
                let c_len = c.len();
                let mats = |mut p: usize| {
                    let (mut ma, mut mb, mut mc) = (ma, mb, mc);
                    for l in loops.iter().rev() {
                        let i = p % l[0];
                        p /= l[0];
                        ma.offset = ma.offset.checked_add(i.checked_mul(l[1])?)?;
                        mb.offset = mb.offset.checked_add(i.checked_mul(l[2])?)?;
                        mc.offset = mc.offset.checked_add(i.checked_mul(l[3])?)?;
                    }
                    let fit = ma.fits(a.len()) && mb.fits(b.len()) && mc.fits(c_len);
                    fit.then_some((ma, mb, mc))
                };
                if !shapes_agree(ma, mb, mc) {
                    return false;
                }
                // Every product's matrices, each checked once, before any is run.
                let Some(all) = (0..count).map(mats).collect::<Option<Vec<_>>>() else {
                    return false;
                };
                let base = Cells(c.as_mut_ptr());
                crate::engine::threads::pieces(count, crate::engine::threads::count(), |p| {
                    // SAFETY: each product's matrices lie inside `a`, `b` and `c` (checked for
                    // every product above); the cells of all products are distinct elements
                    // of `c` (`cells_distinct`, `one_to_one`), so no two pieces write one
                    // element, and `c` stays mutably borrowed until every piece has returned.
                    unsafe { kernel::call(a, b, base.get(), all[p], false) };
                });
                true
            }
        }
    };
}
blas_like!(f32);
blas_like!(f64);

pub(super) mod kernel;
mod rows_added;
#[cfg(test)]
mod tests;
