//! Half-precision weights stored `[out, in]` dotted with a few `f32` rows (a generated
//! token's products): each weight row is read once from memory, widened to `f32` in vector
//! registers as it is loaded (16 lanes on AVX-512, 8 on AVX2) and multiplied into `f32`
//! accumulators, four weight rows at a time. Widening a tile into a buffer for the `f32`
//! GEMM (`half_gemm`) reads the weight, writes the tile and reads it again; here the weight
//! is read at two bytes an element and nothing else touches memory, which is what a
//! product bound by memory bandwidth needs. Used for products of at most [`MAX_ROWS`] rows;
//! a CPU without AVX2 (or without F16C for `f16`) takes the tiles' path. A weight stored
//! `[in, out]` (GPT-2's `Conv1D` layout) is read once too, row after row, by [`add_rows`]:
//! four of its rows at a time widened in registers, scaled by the activations' elements and
//! added into the output rows (which stay in the L1 cache).

use half::{bf16, f16};

/// The most activation rows the kernel takes: each block of weight rows is dotted with
/// every activation row while it is in the L1 cache; from this many rows on the GEMM's
/// packed kernels pay.
pub(crate) const MAX_ROWS: usize = 4;

/// Weight rows a block: dotted with every activation row before the next block is read.
const BLOCK: usize = 16;

/// How many rows ahead [`dot_rows`] prefetches a weight stored `[out, in]`. The kernels
/// prefetch into the L2 cache (`T1`), whose miss buffers outnumber the L1's: on a Zen 4
/// host, fetching into the L1 (`T0`) the next block's rows, a bf16 weight of 512x32000 by one
/// row read from memory took 3.31 ms, into the L2 sixteen rows ahead 1.40–1.65 ms
/// (`cargo bench --bench contractions -- 1x512x32000`).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const DOT_AHEAD: usize = 16;

/// How many rows ahead [`add_rows`] prefetches a weight stored `[in, out]` (into the L2
/// cache, as [`DOT_AHEAD`]): on a Zen 4 host, one `f32` row by weights read from L3 or
/// memory took 42.8 against 26.2 µs (768x288, 20 weights in turn) and 82.7 against
/// 44.9 µs (768x288, cold) prefetched into the L1 eight rows ahead and into the L2; as fast
/// as a weight stored `[out, in]` through the GEMM crate, where before it took 1.3–2x.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const AHEAD: usize = 16;

/// `out[i][j] (+)= Σ_p x[i][p] · w[j·k + p]`: `x` holds `rows` activation rows of `k` (one
/// after the other), `w` at least `n` weight rows of `k`, `out` `rows` output rows of `n`
/// (`out_rs` apart, columns contiguous). Returns false, having written nothing, where the
/// CPU has no kernel for `H`.
///
/// # Panics
///
/// When a slice is shorter than the matrices it is said to hold (a caller's bug: the
/// product's checks come first).
pub(crate) fn dot_rows<H: Lanes>(
    (x, rows, k): (&[f32], usize, usize),
    (w, n): (&[H], usize),
    (out, out_rs): (&mut [f32], usize),
    accumulate: bool,
) -> bool {
    let Some(kernel) = H::kernel() else {
        return false;
    };
    assert!(
        x.len() >= rows * k && w.len() >= n * k,
        "operands hold the product"
    );
    assert!(
        rows == 0 || out.len() >= (rows - 1) * out_rs + n,
        "the output holds the product"
    );
    for j0 in (0..n).step_by(BLOCK) {
        let cols = BLOCK.min(n - j0);
        let block = &w[j0 * k..(j0 + cols) * k];
        for i in 0..rows {
            let cells = &mut out[i * out_rs + j0..i * out_rs + j0 + cols];
            kernel(&x[i * k..(i + 1) * k], block, cells, accumulate);
        }
    }
    true
}

/// `out[i][j] (+)= Σ_p x[i][p] · w[p·stride + j]` for `j < width`: `x` holds `rows` (at most
/// [`MAX_ROWS`]) activation rows of `k` one after the other, `w` the `k` weight rows of a
/// weight stored `[in, out]` (`width` columns each, `stride` apart), `out` `rows` output
/// rows (`out_rs` apart, columns contiguous). Returns false, having written nothing, where
/// the CPU has no kernel for `H`.
///
/// # Panics
///
/// When a slice is shorter than the matrices it is said to hold, or `rows` is above
/// [`MAX_ROWS`] (a caller's bug: the product's checks come first).
pub(crate) fn add_rows<H: AddsRows>(
    (x, rows, k): (&[f32], usize, usize),
    (w, stride, width): (&[H], usize, usize),
    (out, out_rs): (&mut [f32], usize),
    accumulate: bool,
) -> bool {
    let Some(kernel) = H::rows_kernel() else {
        return false;
    };
    assert!(rows <= MAX_ROWS && x.len() >= rows * k, "a few rows of `k`");
    assert!(
        k == 0 || w.len() >= (k - 1) * stride + width,
        "the weight holds `k` rows"
    );
    assert!(
        rows == 0 || out.len() >= (rows - 1) * out_rs + width,
        "the output holds the product"
    );
    if rows > 0 && width > 0 {
        kernel(
            (&x[..rows * k], k),
            (w, stride, width),
            (out, out_rs),
            accumulate,
        );
    }
    true
}

/// `out[j] (+)= dot(j)` for every `j`: `four(j)` gives rows `j..j + 4`, `one(j)` row `j`
/// (the last rows, fewer than four).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline(always)]
fn by_fours(
    out: &mut [f32],
    accumulate: bool,
    four: impl Fn(usize) -> [f32; 4],
    one: impl Fn(usize) -> f32,
) {
    let mut j = 0;
    while j < out.len() {
        let (dots, rows) = if out.len() - j >= 4 {
            (four(j), 4)
        } else {
            ([one(j), 0.0, 0.0, 0.0], 1)
        };
        for (o, d) in out[j..j + rows].iter_mut().zip(dots) {
            *o = if accumulate { *o + d } else { d };
        }
        j += rows;
    }
}

/// A kernel: `out[j] (+)= x · w[j·k..(j+1)·k]` for every `j < out.len()`, `k = x.len()`,
/// `w.len() == out.len() · k`.
type Kernel<H> = fn(&[f32], &[H], &mut [f32], bool);

/// A kernel of [`add_rows`], its arguments checked: `x` holds whole rows of `k` (1 to
/// [`MAX_ROWS`] of them), `w` the `k` rows of `width` columns `stride` apart, `out` a row of
/// `width` columns for each row of `x`.
type RowsKernel<H> = fn((&[f32], usize), (&[H], usize, usize), (&mut [f32], usize), bool);

/// Half elements the kernels widen in registers.
pub(crate) trait Lanes: AddsRows {
    /// This CPU's kernel for the element, if it has one (detected once by the standard
    /// library, then a load).
    fn kernel() -> Option<Kernel<Self>>;
}

/// The elements of a weight [`add_rows`] reads: the half ones (widened in registers) and
/// `f32`.
pub(crate) trait AddsRows: Copy + Into<f32> {
    /// This CPU's kernel of [`add_rows`] for the element, if it has one.
    fn rows_kernel() -> Option<RowsKernel<Self>>;
}

/// The copy of a kernel for this CPU's best instruction set, as a function pointer: `$avx512`
/// where the standard library detects AVX-512 F, VL, DQ and BW, AVX2 and FMA (the features
/// the AVX-512 copies are compiled with), else `$avx2` where it detects AVX2 and FMA (and
/// F16C when `$f16c`: the half copies' widening needs it); else `None`.
macro_rules! best_copy {
    ($avx512:ident, $avx2:ident, $f16c:expr) => {{
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            match super::isa() {
                super::Isa::Avx512 => {
                    return Some(|x, w, out, acc| {
                        // SAFETY: `isa` returned `Avx512` only after the standard library
                        // detected every feature `$avx512` is compiled with.
                        unsafe { $avx512(x, w, out, acc) }
                    });
                }
                super::Isa::Avx2 if !$f16c || std::is_x86_feature_detected!("f16c") => {
                    return Some(|x, w, out, acc| {
                        // SAFETY: `isa` returned `Avx2` after detecting AVX2 and FMA, and
                        // F16C was detected here where `$avx2` is compiled with it.
                        unsafe { $avx2(x, w, out, acc) }
                    });
                }
                _ => {}
            }
        }
        None
    }};
}

/// The dot products of `w`'s rows with `x`, four rows at a time: `|p| widen16` loads the 16
/// halves at `p` as an `__m512` (`|p| widen8` 8 as an `__m256`; both expanded inside the
/// loads' `unsafe` block), the remainder of each row element by element; and the element's
/// [`Lanes`] impl choosing the CPU's best copy.
macro_rules! lanes {
    ($h:ty, $avx512:ident, $avx2:ident, $rows512:ident, $rows2:ident, |$p16:ident| $widen16:expr, |$p8:ident| $widen8:expr, $avx2_features:literal) => {
        impl AddsRows for $h {
            fn rows_kernel() -> Option<RowsKernel<$h>> {
                best_copy!($rows512, $rows2, true)
            }
        }

        impl Lanes for $h {
            fn kernel() -> Option<Kernel<$h>> {
                best_copy!($avx512, $avx2, true)
            }
        }

        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
        fn $avx512(x: &[f32], w: &[$h], out: &mut [f32], accumulate: bool) {
            use core::arch::x86_64 as arch;
            /// Rows `j..j + R` of `w` dotted with `x`, two accumulators a row (32 elements
            /// a step), then 16, then the remainder element by element.
            #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
            fn block<const R: usize>(x: &[f32], w: &[$h], j: usize) -> [f32; R] {
                let k = x.len();
                assert!((j + R) * k <= w.len(), "the block's rows lie in `w`");
                let (xp, wp) = (x.as_ptr(), w.as_ptr());
                let mut acc = [[arch::_mm512_setzero_ps(); 2]; R];
                let mut p = 0;
                while p + 16 <= k {
                    let two = p + 32 <= k;
                    // SAFETY: `p + 16 <= k = x.len()` (and `p + 32 <= k` for the second
                    // half, read only when `two`), so the `f32` read lie in `x`; row
                    // `j + q < j + R` has its `k` halves at `(j + q)·k`, and
                    // `(j + R)·k <= w.len()` (asserted), so the halves read from `p` lie in
                    // `w`. Unaligned loads; nothing is written through the pointers. The
                    // prefetches name the same position [`DOT_AHEAD`] rows on, an address
                    // computed with `wrapping_add` and never
                    // dereferenced: a prefetch past the weight's end is a hint the CPU
                    // drops, not a read. Without them the weight streamed from memory at
                    // half the rate the `f32` GEMM reads (2.6 against 1.5 ms for a
                    // 512x32000 weight, `cargo bench --bench contractions -- M6`).
                    unsafe {
                        let xv = arch::_mm512_loadu_ps(xp.add(p));
                        for q in 0..R {
                            let ahead = wp.wrapping_add((j + q + DOT_AHEAD) * k + p);
                            arch::_mm_prefetch::<{ arch::_MM_HINT_T1 }>(ahead.cast());
                        }
                        for (q, a) in acc.iter_mut().enumerate() {
                            let $p16 = wp.add((j + q) * k + p);
                            let wv = $widen16;
                            a[0] = arch::_mm512_fmadd_ps(wv, xv, a[0]);
                        }
                        if two {
                            let xv = arch::_mm512_loadu_ps(xp.add(p + 16));
                            for (q, a) in acc.iter_mut().enumerate() {
                                let $p16 = wp.add((j + q) * k + p + 16);
                                let wv = $widen16;
                                a[1] = arch::_mm512_fmadd_ps(wv, xv, a[1]);
                            }
                        }
                    }
                    p += if two { 32 } else { 16 };
                }
                let mut dots = [0.0; R];
                for (q, (d, a)) in dots.iter_mut().zip(&acc).enumerate() {
                    let row = &w[(j + q) * k..(j + q + 1) * k];
                    let tail: f32 = (p..k).map(|p| x[p] * Into::<f32>::into(row[p])).sum();
                    *d = arch::_mm512_reduce_add_ps(arch::_mm512_add_ps(a[0], a[1])) + tail;
                }
                dots
            }
            assert_eq!(w.len(), out.len() * x.len(), "a weight row per output");
            let (four, one) = (|j| block::<4>(x, w, j), |j| block::<1>(x, w, j)[0]);
            by_fours(out, accumulate, four, one);
        }

        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        #[target_feature(enable = $avx2_features)]
        fn $avx2(x: &[f32], w: &[$h], out: &mut [f32], accumulate: bool) {
            use core::arch::x86_64 as arch;
            /// Rows `j..j + R` of `w` dotted with `x`, 8 elements a step, then the
            /// remainder element by element.
            #[target_feature(enable = $avx2_features)]
            fn block<const R: usize>(x: &[f32], w: &[$h], j: usize) -> [f32; R] {
                let k = x.len();
                assert!((j + R) * k <= w.len(), "the block's rows lie in `w`");
                let (xp, wp) = (x.as_ptr(), w.as_ptr());
                let mut acc = [arch::_mm256_setzero_ps(); R];
                let mut p = 0;
                while p + 8 <= k {
                    // SAFETY: as in the AVX-512 copy (the loads and the prefetches), with 8
                    // elements from `p + 8 <= k`.
                    unsafe {
                        let xv = arch::_mm256_loadu_ps(xp.add(p));
                        if p % 32 == 0 {
                            for q in 0..R {
                                let ahead = wp.wrapping_add((j + q + DOT_AHEAD) * k + p);
                                arch::_mm_prefetch::<{ arch::_MM_HINT_T1 }>(ahead.cast());
                            }
                        }
                        for (q, a) in acc.iter_mut().enumerate() {
                            let $p8 = wp.add((j + q) * k + p);
                            let wv = $widen8;
                            *a = arch::_mm256_fmadd_ps(wv, xv, *a);
                        }
                    }
                    p += 8;
                }
                let mut dots = [0.0; R];
                for (q, (d, a)) in dots.iter_mut().zip(&acc).enumerate() {
                    let row = &w[(j + q) * k..(j + q + 1) * k];
                    let tail: f32 = (p..k).map(|p| x[p] * Into::<f32>::into(row[p])).sum();
                    // The 8 lanes summed: the high half onto the low, then pairs.
                    let s = arch::_mm_add_ps(
                        arch::_mm256_castps256_ps128(*a),
                        arch::_mm256_extractf128_ps::<1>(*a),
                    );
                    let s = arch::_mm_add_ps(s, arch::_mm_movehl_ps(s, s));
                    let s = arch::_mm_add_ss(s, arch::_mm_shuffle_ps::<1>(s, s));
                    *d = arch::_mm_cvtss_f32(s) + tail;
                }
                dots
            }
            assert_eq!(w.len(), out.len() * x.len(), "a weight row per output");
            let (four, one) = (|j| block::<4>(x, w, j), |j| block::<1>(x, w, j)[0]);
            by_fours(out, accumulate, four, one);
        }

        rows_copies!(
            $h,
            $rows512,
            $rows2,
            |$p16| $widen16,
            |$p8| $widen8,
            $avx2_features
        );
    };
}

/// The AVX-512 and AVX2 copies of an [`add_rows`] kernel for `$h`: `|p| widen16` loads 16
/// elements at `p` as an `__m512`, `|p| widen8` 8 as an `__m256`.
macro_rules! rows_copies {
    ($h:ty, $avx512:ident, $avx2:ident, |$p16:ident| $widen16:expr, |$p8:ident| $widen8:expr, $avx2_features:literal) => {
        rows_copy!(
            $h,
            $avx512,
            "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma",
            16,
            arch::_mm512_set1_ps,
            arch::_mm512_fmadd_ps,
            arch::_mm512_loadu_ps,
            arch::_mm512_storeu_ps,
            |$p16| $widen16
        );
        rows_copy!(
            $h,
            $avx2,
            $avx2_features,
            8,
            arch::_mm256_set1_ps,
            arch::_mm256_fmadd_ps,
            arch::_mm256_loadu_ps,
            arch::_mm256_storeu_ps,
            |$p8| $widen8
        );
    };
}

/// One instruction set's copy of an [`add_rows`] kernel: the output rows zeroed unless
/// accumulating, then for each group of four weight rows (then single rows) and each
/// activation row, `L` output columns at a time loaded, the group's runs widened as they
/// are loaded (`|p| widen` loads `L` halves at `p`) and added scaled by the row's elements,
/// and stored; the columns left over element by element. The weight is read row after row,
/// one pass: streams the prefetchers follow (a block of columns walked down the rows
/// crossed a page every row or two and took 1.6x the time).
macro_rules! rows_copy {
    ($h:ty, $name:ident, $features:expr, $l:literal, $splat:expr, $fma:expr, $load:expr,
     $store:expr, |$p:ident| $widen:expr) => {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        #[target_feature(enable = $features)]
        fn $name(
            (x, k): (&[f32], usize),
            (w, stride, width): (&[$h], usize, usize),
            (out, out_rs): (&mut [f32], usize),
            accumulate: bool,
        ) {
            use core::arch::x86_64 as arch;
            /// Weight rows `p0..p0 + P` added into every output row.
            #[target_feature(enable = $features)]
            fn group<const P: usize>(
                (x, k): (&[f32], usize),
                (w, stride, width): (&[$h], usize, usize),
                (out, out_rs): (&mut [f32], usize),
                p0: usize,
            ) {
                assert!(
                    (p0 + P - 1) * stride + width <= w.len(),
                    "the group's rows lie in `w`"
                );
                let wp = w.as_ptr();
                for i in 0..x.len() / k {
                    let xs: [f32; P] = core::array::from_fn(|q| x[i * k + p0 + q]);
                    let splats = xs.map(|e| $splat(e));
                    let row = &mut out[i * out_rs..i * out_rs + width];
                    let op = row.as_mut_ptr();
                    let mut j = 0;
                    while j + $l <= width {
                        // SAFETY: `j + L <= width = row.len()`, so the output's load and
                        // store lie in `row`; weight row `p0 + q` holds `width` halves from
                        // `(p0 + q)·stride`, inside `w` (asserted), so the halves loaded
                        // from `j` do too. Unaligned loads and store.
                        unsafe {
                            if i == 0 && j % (64 / core::mem::size_of::<$h>()) == 0 {
                                for q in 0..P {
                                    let ahead = wp.wrapping_add((p0 + q + AHEAD) * stride + j);
                                    arch::_mm_prefetch::<{ arch::_MM_HINT_T1 }>(ahead.cast());
                                }
                            }
                            let mut acc = $load(op.add(j));
                            for (q, &xv) in splats.iter().enumerate() {
                                let $p = wp.add((p0 + q) * stride + j);
                                acc = $fma($widen, xv, acc);
                            }
                            $store(op.add(j), acc);
                        }
                        j += $l;
                    }
                    for (j, cell) in row.iter_mut().enumerate().skip(j) {
                        *cell += (0..P)
                            .map(|q| xs[q] * Into::<f32>::into(w[(p0 + q) * stride + j]))
                            .sum::<f32>();
                    }
                }
            }
            if !accumulate {
                for i in 0..x.len() / k {
                    out[i * out_rs..i * out_rs + width].fill(0.0);
                }
            }
            let (w, out) = ((w, stride, width), (&mut *out, out_rs));
            let mut p = 0;
            while p + 4 <= k {
                group::<4>((x, k), w, (&mut *out.0, out.1), p);
                p += 4;
            }
            for p in p..k {
                group::<1>((x, k), w, (&mut *out.0, out.1), p);
            }
        }
    };
}

rows_copies!(
    f32,
    f32_rows_avx512,
    f32_rows_avx2,
    |p| arch::_mm512_loadu_ps(p),
    |p| arch::_mm256_loadu_ps(p),
    "avx2,fma"
);
impl AddsRows for f32 {
    fn rows_kernel() -> Option<RowsKernel<f32>> {
        best_copy!(f32_rows_avx512, f32_rows_avx2, false)
    }
}

lanes!(
    bf16,
    bf16_avx512,
    bf16_avx2,
    bf16_rows_avx512,
    bf16_rows_avx2,
    // A bf16 is the upper half of an f32's bits: zero-extended to 32 bits and shifted.
    |p| {
        let h = arch::_mm256_loadu_si256(p.cast());
        arch::_mm512_castsi512_ps(arch::_mm512_slli_epi32::<16>(arch::_mm512_cvtepu16_epi32(
            h,
        )))
    },
    |p| {
        let h = arch::_mm_loadu_si128(p.cast());
        arch::_mm256_castsi256_ps(arch::_mm256_slli_epi32::<16>(arch::_mm256_cvtepu16_epi32(
            h,
        )))
    },
    "avx2,fma,f16c"
);
lanes!(
    f16,
    f16_avx512,
    f16_avx2,
    f16_rows_avx512,
    f16_rows_avx2,
    |p| arch::_mm512_cvtph_ps(arch::_mm256_loadu_si256(p.cast())),
    |p| arch::_mm256_cvtph_ps(arch::_mm_loadu_si128(p.cast())),
    "avx2,fma,f16c"
);

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests;
