//! The `gemm` crate's entry for `f32` and `f64` ([`call`], part of the crate's only
//! `unsafe`, `engine::raw`): one checked product on the calling thread, or cut into blocks
//! of rows or columns over the pool's threads ([`calls`]).

use super::Mat;
#[cfg(feature = "rayon")]
use super::{product_threads, split_product, Cells};

/// `c (+)= a · b` by the GEMM crate ([`call`]); with the `rayon` feature and `split`, a
/// product of at least [`GEMM_PARALLEL_MIN`] multiply-adds is cut into one block of rows or
/// columns per thread (the longer side, in multiples of 16) first.
///
/// # Safety
/// As [`call`]'s, and `c`'s cells are distinct elements.
pub(super) unsafe fn calls<T: GemmScalar + Send + Sync>(
    a: &[T],
    b: &[T],
    c: *mut T,
    (ma, mb, mc): (Mat, Mat, Mat),
    acc: bool,
    split: bool,
) {
    #[cfg(feature = "rayon")]
    {
        let threads = product_threads(split, mc.rows, mc.cols, ma.cols);
        if threads > 1 {
            let base = Cells(c);
            split_product(threads, (ma, mb, mc), |mats| {
                // SAFETY: the piece's matrices are sub-blocks (rows or columns) of the ones
                // the caller vouches for, so every element they reach lies inside `a`, `b`
                // and `c`'s allocation; the pieces' output cells are disjoint (distinct rows
                // or columns of distinct cells), and no piece outlives this call.
                unsafe { call(a, b, base.get(), mats, acc) };
            });
            return;
        }
    }
    let _ = split;
    // SAFETY: what the caller vouches for.
    unsafe { call(a, b, c, (ma, mb, mc), acc) };
}

/// The elements the `gemm` crate's kernels multiply (`c = alpha·c + beta·a·b` with `alpha`,
/// `beta` of 1), each with its kernel crate's entry (`gemm-f32`, `gemm-f64`).
pub(in crate::engine::raw) trait GemmScalar: Copy + 'static {
    /// One.
    const ONE: Self;
    /// The kernel crate's product for this element, chosen for the CPU on the first call.
    fn kernel() -> Kernel<Self>;
}
impl GemmScalar for f32 {
    const ONE: Self = 1.0;
    fn kernel() -> Kernel<Self> {
        gemm_f32::gemm::f32::get_gemm_fn()
    }
}
impl GemmScalar for f64 {
    const ONE: Self = 1.0;
    fn kernel() -> Kernel<Self> {
        gemm_f64::gemm::f64::get_gemm_fn()
    }
}

/// A kernel crate's product: sizes `m, n, k`; `dst` with its column and row strides and
/// whether to read it; `lhs` and `rhs` likewise; `alpha`, `beta`; three conjugation flags;
/// the parallelism.
type Kernel<T> = unsafe fn(
    usize,
    usize,
    usize,
    *mut T,
    isize,
    isize,
    bool,
    *const T,
    isize,
    isize,
    *const T,
    isize,
    isize,
    T,
    T,
    bool,
    bool,
    bool,
    gemm_common::Parallelism,
);

/// `c (+)= a · b` by the `gemm` crate's kernels on the calling thread, `c` from the pointer
/// `c`. A row-major `c` is computed as `cᵀ = bᵀ · aᵀ`, the orientation the kernels prefer
/// (what the `gemm` crate's front function does; the strides here are never negative).
///
/// # Safety
/// Every element (i, p) of `a` at `offset + i*rs + p*cs` for i < rows and p < cols lies
/// inside `a`, likewise `b`, and likewise `c`'s cells inside the allocation `c` points into,
/// which no one else reads or writes during the call; `c`'s cells are distinct elements;
/// the strides fit `isize`.
pub(in crate::engine::raw) unsafe fn call<T: GemmScalar>(
    a: &[T],
    b: &[T],
    c: *mut T,
    (ma, mb, mc): (Mat, Mat, Mat),
    acc: bool,
) {
    let s = |x: usize| x as isize;
    // SAFETY: what the caller vouches for is what the kernels require of their pointers
    // and strides (in bounds, `isize` strides); `c` aliases neither `a` nor `b` (it is part
    // of a `&mut` borrow). The kernel reads `c` only when `read_dst` (`acc`). Transposing
    // swaps the operands and each one's strides, which addresses the same elements.
    unsafe {
        let (pa, pb, pc) = (
            a.as_ptr().add(ma.offset),
            b.as_ptr().add(mb.offset),
            c.add(mc.offset),
        );
        // A row-major destination is computed transposed: `cᵀ = bᵀ · aᵀ`.
        let ((lhs, ml), (rhs, mr), md) = if mc.cs < mc.rs {
            (
                (pb, mb.transposed()),
                (pa, ma.transposed()),
                mc.transposed(),
            )
        } else {
            ((pa, ma), (pb, mb), mc)
        };
        T::kernel()(
            md.rows,
            md.cols,
            ml.cols,
            pc,
            s(md.cs),
            s(md.rs),
            acc,
            lhs,
            s(ml.cs),
            s(ml.rs),
            rhs,
            s(mr.cs),
            s(mr.rs),
            T::ONE,
            T::ONE,
            false,
            false,
            false,
            gemm_common::Parallelism::None,
        );
    }
}
