//! The crate's only `unsafe`, small pieces, each measured to pay:
//!
//! - The call into a GEMM crate: the `gemm` crate for `f32`/`f64` (its AVX-512 kernels where
//!   the CPU has them; with the `rayon` feature a large product is cut into blocks of rows
//!   or columns and a batch of products runs side by side, each piece writing its own cells
//!   of the output through one shared pointer, `Cells`), a plain loop for
//!   other elements. A `bf16` or `f16` operand (`half_gemm`) is widened to `f32` a tile of
//!   columns at a time and the tiles go to the `f32` GEMM, with the `rayon` feature in runs
//!   of tiles per thread through the same pointer; on a CPU with AVX512-BF16 a product of two
//!   `bf16` matrices goes to the `gemmkit` crate instead (pairs of bf16 multiplied by
//!   `vdpbf16ps`: 0.46 against 0.83 ms for the `f32` product, 128x512 by 512x1376), through
//!   its unchecked entry after the same checks, so that with the `rayon` feature a large
//!   product splits into blocks of rows or columns on shapecast's pool as the `f32` one
//!   does (gemmkit's own split runs on rayon's global pool, beside the pool's spinning
//!   workers, and packs the whole weight on each thread: 128x512 by a `[1376, 512]` weight
//!   on two threads took 0.46 ms so, 0.38 ms split by the weight's rows). A product of at most four rows by a half
//!   weight stored `[out, in]` (a generated token's, `half_dot`) widens the weight in vector
//!   registers as it loads it, with prefetches of the rows it reads next: 1.5 against 3.0 ms
//!   for the `f32` product by a 512x32000 weight (`cargo bench --bench contractions -- M6`).
//!   A weight stored `[in, out]` (GPT-2's `Conv1D` layout) is read the same way, row after
//!   row, each row widened in registers and added, scaled, into the output rows: one row by
//!   a 512x1376 bf16 weight in 63 µs, where widening tiles for the `f32` GEMM took 295 µs
//!   (f16: 54–64 against 630 µs); `f32` rows the same way, without the widening.
//!   `benches/gemm-choice` measures the GEMM crate against `matrixmultiply` on the products a
//!   transformer block makes, as a crate with nothing else in its graph; the table is in
//!   `docs/performance.md`. Every call is checked before it is made: each matrix's extent
//!   lies inside its slice, and the output's strides give every cell its own element.
//!   A single product whose cells are the whole output (`DotElement::gemm_new`) goes into a
//!   new vector that is never zeroed: the GEMM crate stores each cell without reading it
//!   (`read_dst` off), then the length is set. Zeroing the outputs first took 8% of the
//!   Llama prompt's time on two threads, all of it on the calling thread.
//! - [`set_len_written`]: the elementwise kernel writes each output element once into the
//!   output's spare capacity and then sets the length, instead of `extend`ing run by run.
//! - [`init_inline`]: a small static result is written straight into its inline buffer
//!   (an uninitialised array), not into a `Vec` that is then copied: static
//!   `(4, 4) + (4)` by `&a + &b` costs the kernel plus a copy of the result, no allocation.
//! - The elementwise maps ([`map_to_vec`], [`map_in_place`], [`map_into_slice`]) call copies
//!   of their loop compiled for AVX-512 or for AVX2 with FMA, only once the CPU is detected to
//!   have them, an order of magnitude faster than libm (`docs/performance.md`;
//!   `cargo bench --bench transformer -- gelu`). The 2x2 max pool's windows
//!   ([`max_pool_2x2_rows`]) are compiled the same way: 4.8% of a segmentation training
//!   step in `perf` against 14.8% one window at a time with a branch on each comparison.
//! - `few_rows`: attention's scores and weighted values for a generated token, a key or
//!   value row at a time on the CPU's best instruction set, with prefetches of the rows a
//!   KV head reads next (a page apart in a `[KSEQ, KVH, HD]` cache): one query against 2048
//!   keys of 32 heads over 8, 5.9 ms as GEMM calls, 2.4 ms so (`cargo bench --bench attention`).
//! - [`Tiles`]: a tile of short runs that read an operand across a stride (the outer rule's
//!   runs) is computed a column at a time, along the operands' memory order, then moved into
//!   its slots row by row, 4x4 blocks of 4-byte values (2x2 of 8-byte ones) at a time in
//!   SSE2 registers by `asm!` (a byte copy, sound for any value), and into an output of
//!   8 MiB or more by non-temporal stores; the outer rule's fusion in `benches/cnn.rs`
//!   (`fusion`, outer product) is timed in `docs/performance.md`.
//! - [`advise_huge_pages`]: a large output asks the kernel for transparent huge pages
//!   (`madvise(MADV_HUGEPAGE)`, as NumPy does), so filling 64 MiB takes 32 page faults, not
//!   16,384.
//!
//! `scripts/valgrind.sh` runs the kernel, tensor, contraction and reduction tests under
//! memcheck.
#![allow(unsafe_code)]

use alloc::vec::Vec;

use core::mem::MaybeUninit;

use super::sink::Sink;
mod gemm;
mod half_dot;
mod half_gemm;
pub use gemm::{DotElement, Mat};
pub use half_gemm::DotOperand;

/// Sets `out`'s length to `total` once `written == total` elements of its spare capacity have
/// been written (by `MaybeUninit::write`, in order from index 0).
///
/// # Panics
///
/// When `written != total` or `total` exceeds the capacity: a kernel bug, never user input.
#[inline]
pub(crate) fn set_len_written<O>(out: &mut Vec<O>, written: usize, total: usize) {
    assert!(
        written == total && total <= out.capacity(),
        "every output slot is written once"
    );
    assert!(out.is_empty(), "the output starts empty");
    // SAFETY: `total <= capacity` (checked), and the caller wrote the first `total` slots of
    // the spare capacity of this (empty) vector, each once, with `MaybeUninit::write`, so the
    // elements `0..total` are initialised.
    unsafe { out.set_len(total) };
}

/// A [`Sink`] over uninitialised slots that writes each run where the previous one ended and
/// counts what it wrote.
pub(crate) struct Uninit<'a, O> {
    slots: &'a mut [MaybeUninit<O>],
    written: usize,
}

impl<O> Sink<O> for Uninit<'_, O> {
    #[inline(always)]
    fn put(&mut self, _at: usize, n: usize, run: impl Iterator<Item = O>) {
        let start = self.written;
        let mut k = 0;
        for (slot, v) in self.slots[start..].iter_mut().zip(run.take(n)) {
            slot.write(v);
            k += 1;
        }
        self.written = start + k;
    }
}

/// The inline buffer `fill` writes, element by element from the first.
///
/// # Panics
///
/// When `fill` writes fewer than `N` elements (a kernel bug, never user input); the elements
/// written are then leaked, not dropped.
#[inline(always)]
pub(crate) fn init_inline<O, const N: usize>(fill: impl FnOnce(&mut Uninit<'_, O>)) -> [O; N] {
    let mut slots: [MaybeUninit<O>; N] = [const { MaybeUninit::uninit() }; N];
    let mut sink = Uninit {
        slots: &mut slots,
        written: 0,
    };
    fill(&mut sink);
    assert!(sink.written == N, "every inline slot is written once");
    // SAFETY: `Uninit::put` writes slots only from `written` onwards, one per element, and
    // counts each; `written == N` (checked) so every slot `0..N` holds a value written by
    // `MaybeUninit::write`. `[MaybeUninit<O>; N]` has the layout of `[O; N]`, and `slots`
    // (a `MaybeUninit` array) drops nothing, so the values are moved out exactly once.
    unsafe {
        (&slots as *const [MaybeUninit<O>; N])
            .cast::<[O; N]>()
            .read()
    }
}

/// What one element of a map costs, as the fewest elements worth splitting over threads
/// (the pool's workers kept awake between operations, `threads`). Measured on the
/// transformer block's operations at two threads (`benches/transformer.rs`, per-operation
/// timings): GELU of 131,072 `f32` 66–72 µs split against 113–126 µs on one thread.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub enum Cost {
    /// A transcendental or a caller's closure: 2^14 elements.
    Heavy = 1 << 14,
    /// One or two arithmetic operations, bound by memory: 2^17 elements.
    Cheap = 1 << 17,
}

/// The instruction sets the elementwise maps are compiled for, best first.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Isa {
    /// AVX-512 (F, VL, DQ, BW) with AVX2 and FMA.
    Avx512,
    /// AVX2 with FMA.
    Avx2,
    /// The target's baseline (SSE2 on x86-64).
    Base,
}

/// The best [`Isa`] this CPU runs (detected once by the standard library, then a load).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline]
fn isa() -> Isa {
    let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
    if avx2
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512bw")
    {
        Isa::Avx512
    } else if avx2 {
        Isa::Avx2
    } else {
        Isa::Base
    }
}

/// `f` of each element of `src` into the slot of `dst` at its index; returns how many slots
/// were written (the shorter length). The kernel's `fill` over `src.iter().map(f)` does the
/// same, but with that extra closure the compiler stopped vectorising GELU (1.20 ms against
/// 110 µs for 131,072 `f32`, `cargo bench --bench transformer -- gelu`), so `f` is called
/// directly here.
#[inline(always)]
fn map_slots<T: Copy, U>(src: &[T], dst: &mut [MaybeUninit<U>], f: &impl Fn(T) -> U) -> usize {
    let mut written = 0;
    for (slot, &x) in dst.iter_mut().zip(src) {
        slot.write(f(x));
        written += 1;
    }
    written
}

/// `f` of each element, in place.
#[inline(always)]
fn map_each<T: Copy>(data: &mut [T], f: &impl Fn(T) -> T) {
    for x in data {
        *x = f(*x);
    }
}

/// `dst[i] = f(src[i])` over the shorter of the two slices.
#[inline(always)]
fn map_pairs<T: Copy, U>(src: &[T], dst: &mut [U], f: &impl Fn(T) -> U) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = f(x);
    }
}

/// `$name` dispatching to copies of the loop `$body` compiled for AVX-512, for AVX2 with FMA,
/// and for the baseline, by what the CPU has. Each copy is a function whose slices are its
/// own parameters, so the compiler knows they do not alias and vectorises the loop: a
/// straight-line `f` (the functions of `vmath`, the activations) runs 16 `f32` lanes at a
/// time on AVX-512. `benches/transformer` (`tanh`, `exp`) shows it: 131,072 `tanh` in 80 µs
/// against 1.4 ms through libm.
macro_rules! dispatched {
    ($(#[$doc:meta])* $name:ident, $body:ident, [$($g:tt)*], ($($arg:ident: $ty:ty),*) -> $ret:ty
     $(, where $($w:tt)*)?) => {
        $(#[$doc])*
        #[inline]
        fn $name<$($g)*>($($arg: $ty),*) -> $ret
        where
            T: Copy, $($($w)*)?
        {
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
                fn avx512<$($g)*>($($arg: $ty),*) -> $ret
                where
                    T: Copy, $($($w)*)?
                {
                    $body($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2<$($g)*>($($arg: $ty),*) -> $ret
                where
                    T: Copy, $($($w)*)?
                {
                    $body($($arg),*)
                }
                match isa() {
                    // SAFETY: `isa` returned `Avx512` only after the standard library
                    // detected every feature `avx512` is compiled with on this CPU.
                    Isa::Avx512 => return unsafe { avx512($($arg),*) },
                    // SAFETY: as above, for AVX2 and FMA.
                    Isa::Avx2 => return unsafe { avx2($($arg),*) },
                    Isa::Base => {}
                }
            }
            $body($($arg),*)
        }
    };
}

mod few_rows;
pub(crate) use few_rows::{few_rows_dots, few_rows_weighted};
mod transpose;
#[cfg(test)]
pub(crate) use transpose::streams;
pub(crate) use transpose::Tiles;

dispatched!(
    /// [`map_slots`] on the CPU's best instruction set.
    map_slots_best, map_slots, [T, U, F: Fn(T) -> U],
    (src: &[T], dst: &mut [MaybeUninit<U>], f: &F) -> usize
);
dispatched!(
    /// [`map_each`] on the CPU's best instruction set.
    map_each_best, map_each, [T, F: Fn(T) -> T], (data: &mut [T], f: &F) -> ()
);
/// `acc[i] = f(acc[i], x[i])` over the shorter of the two slices.
#[inline(always)]
fn fold_pairs<T: Copy>(acc: &mut [T], x: &[T], f: &impl Fn(T, T) -> T) {
    for (a, &v) in acc.iter_mut().zip(x) {
        *a = f(*a, v);
    }
}

/// `dst[i] = f(a[i], b[i])` over the shortest of the three slices.
#[inline(always)]
fn zip_pairs<T: Copy>(dst: &mut [T], a: &[T], b: &[T], f: &impl Fn(T, T) -> T) {
    for (d, (&x, &y)) in dst.iter_mut().zip(a.iter().zip(b)) {
        *d = f(x, y);
    }
}

dispatched!(
    /// [`zip_pairs`] on the CPU's best instruction set.
    zip_pairs_best, zip_pairs, [T, F: Fn(T, T) -> T], (dst: &mut [T], a: &[T], b: &[T], f: &F) -> ()
);
dispatched!(
    /// [`fold_pairs`] on the CPU's best instruction set.
    fold_pairs_best, fold_pairs, [T, F: Fn(T, T) -> T], (acc: &mut [T], x: &[T], f: &F) -> ()
);
dispatched!(
    /// [`map_pairs`] on the CPU's best instruction set.
    map_pairs_best, map_pairs, [T, U, F: Fn(T) -> U], (src: &[T], dst: &mut [U], f: &F) -> ()
);

/// The 2x2 windows of two input rows (`top` and `bottom`, two columns a window, side by
/// side; `top` starts at input position `at`, `bottom` `w` positions later): each window's
/// maximum into `maxs` and its position into `ats`, the first of the window's maxima in
/// row-major order (the pair of each row first, then the rows: the order in which a strictly
/// larger value replaces the one held). Returns whether a window's sum was NaN (a NaN among
/// its values, or infinities of both signs): those windows are the caller's to settle.
#[inline(always)]
fn max_2x2<T>(
    (top, bottom): (&[T], &[T]),
    (maxs, picks): (&mut [T], &mut [u8]),
    (ats, at, w): (&mut [usize], usize, usize),
) -> bool
where
    T: Copy + PartialOrd + core::ops::Add<Output = T>,
{
    let mut nan = false;
    let pairs = top.chunks_exact(2).zip(bottom.chunks_exact(2));
    for ((p, q), (m, k)) in pairs.zip(maxs.iter_mut().zip(picks.iter_mut())) {
        let (a, b, c, d) = (p[0], p[1], q[0], q[1]);
        let (right_top, right_bottom) = (b > a, d > c);
        let upper = if right_top { b } else { a };
        let lower = if right_bottom { d } else { c };
        let below = lower > upper;
        *m = if below { lower } else { upper };
        *k = if below {
            2 + u8::from(right_bottom)
        } else {
            u8::from(right_top)
        };
        let s = a + b + c + d;
        #[allow(clippy::eq_op)] // NaN is the one value unequal to itself.
        {
            nan |= s != s;
        }
    }
    for (j, (o, &k)) in ats.iter_mut().zip(picks.iter()).enumerate() {
        *o = at + 2 * j + usize::from(k & 1) + usize::from(k >> 1) * w;
    }
    nan
}

dispatched!(
    /// [`max_2x2`] on the CPU's best instruction set: the windows 16 `f32` lanes at a time on
    /// AVX-512, against one at a time with a branch on each comparison before.
    max_2x2_best, max_2x2, [T],
    (rows: (&[T], &[T]), out: (&mut [T], &mut [u8]), place: (&mut [usize], usize, usize)) -> bool,
    where T: PartialOrd + core::ops::Add<Output = T>
);

/// A 2x2 max pool's windows over two input rows, on the calling thread and the CPU's best
/// instruction set: see [`max_2x2`]. `picks` is scratch of the output row's length.
#[inline]
pub(crate) fn max_pool_2x2_rows<T>(
    rows: (&[T], &[T]),
    out: (&mut [T], &mut [u8]),
    place: (&mut [usize], usize, usize),
) -> bool
where
    T: Copy + PartialOrd + core::ops::Add<Output = T>,
{
    max_2x2_best(rows, out, place)
}

/// The elements per piece when a map of `len` elements splits over rayon's pool (at least
/// `min` of them): pieces of at least `min / 4`, about four per thread.
#[cfg(feature = "rayon")]
fn piece(len: usize, min: usize) -> Option<usize> {
    if len < min {
        return None;
    }
    let threads = crate::engine::threads::count();
    (threads > 1).then(|| len.div_ceil(threads * 4).max(min / 4))
}

/// A new vector of `f(x)` for each element `x` of `src`, on the CPU's best instruction set;
/// with the `rayon` feature split over rayon's pool from `min_parallel` elements on (see
/// [`Cost`]). Large outputs ask for huge pages.
pub(crate) fn map_to_vec<T, U, F>(src: &[T], min_parallel: Cost, f: F) -> Vec<U>
where
    T: Copy + Sync,
    U: Send,
    F: Fn(T) -> U + Sync,
{
    #[cfg(feature = "rayon")]
    if let Some(per) = piece(src.len(), min_parallel as usize) {
        let total = src.len();
        let mut out = Vec::with_capacity(total);
        advise_huge_pages(&out);
        let spare = &mut out.spare_capacity_mut()[..total];
        let written = core::sync::atomic::AtomicUsize::new(0);
        super::threads::chunks(spare, per, |i, dst| {
            let src = &src[i * per..i * per + dst.len()];
            let n = map_slots_best(src, dst, &f);
            written.fetch_add(n, core::sync::atomic::Ordering::Relaxed);
        });
        set_len_written(&mut out, written.into_inner(), total);
        return out;
    }
    let _ = min_parallel;
    map_to_vec_here(src, f)
}

/// `x = f(x)` for each element of `data`, on the CPU's best instruction set; with the `rayon`
/// feature split over rayon's pool from `min_parallel` elements on (see [`Cost`]).
pub(crate) fn map_in_place<T, F>(data: &mut [T], min_parallel: Cost, f: F)
where
    T: Copy + Send,
    F: Fn(T) -> T + Sync,
{
    #[cfg(feature = "rayon")]
    if let Some(per) = piece(data.len(), min_parallel as usize) {
        super::threads::chunks(data, per, |_, c| map_each_best(c, &f));
        return;
    }
    let _ = min_parallel;
    map_each_best(data, &f);
}

/// `dst[i] = f(src[i])` over the shorter of the two, on the calling thread and the CPU's
/// best instruction set (a softmax row's exponentials).
#[inline]
pub(crate) fn map_into_slice<T: Copy, U>(src: &[T], dst: &mut [U], f: impl Fn(T) -> U) {
    map_pairs_best(src, dst, &f)
}

/// `f` of each element of `src`, in order, into a new vector, on the calling thread and the
/// CPU's best instruction set: a cast of 176,128 elements took 14 against 53 µs from `f32` to
/// `bf16`, 9 against 30 µs back, 106 against 262 µs to `f16` (an iterator's `collect` before).
#[inline]
pub(crate) fn map_to_vec_here<T: Copy, U>(src: &[T], f: impl Fn(T) -> U) -> Vec<U> {
    let total = src.len();
    let mut out = Vec::with_capacity(total);
    advise_huge_pages(&out);
    let written = map_slots_best(src, &mut out.spare_capacity_mut()[..total], &f);
    set_len_written(&mut out, written, total);
    out
}

/// `x = f(x)` for each element of `data`, on the calling thread and the CPU's best
/// instruction set (a softmax row's exponentials written over its inputs).
#[inline]
pub(crate) fn map_slice_in_place<T: Copy>(data: &mut [T], f: impl Fn(T) -> T) {
    map_each_best(data, &f)
}

/// `acc[i] = f(acc[i], x[i])` over the shorter of the two, on the calling thread and the
/// CPU's best instruction set: a pool's window folded row by row, a reduction's rows folded
/// into their cells (16 `f32` maxima or sums at a time on AVX-512).
#[inline]
pub(crate) fn fold_into_slice<T: Copy>(acc: &mut [T], x: &[T], f: impl Fn(T, T) -> T) {
    fold_pairs_best(acc, x, &f)
}

/// `dst[i] = f(a[i], b[i])` over the shortest of the three, on the calling thread and the
/// CPU's best instruction set (a pool's first two rows of a window folded into its output).
#[inline]
pub(crate) fn zip_into_slice<T: Copy>(dst: &mut [T], (a, b): (&[T], &[T]), f: impl Fn(T, T) -> T) {
    zip_pairs_best(dst, a, b, &f)
}

/// Outputs at least this large (bytes) ask for huge pages.
pub(crate) const HUGE_PAGE_THRESHOLD: usize = 4 << 20;

/// Asks the operating system to back `v`'s allocation with transparent huge pages where it
/// covers whole 2 MiB pages: advice only, contents and mapping unchanged. A no-op for small
/// allocations and off Linux.
#[inline]
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity().saturating_mul(core::mem::size_of::<T>());
    if bytes < HUGE_PAGE_THRESHOLD {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let (first, last) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if last > first {
            // SAFETY: `first..last` lies inside `v`'s allocation (`start..start + bytes`,
            // rounded inwards to 2 MiB boundaries); `MADV_HUGEPAGE` only changes the page size
            // the kernel uses for it, not its contents or whether it is mapped. The result is
            // ignored: advice that is refused leaves ordinary pages.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inline_buffer_is_written_in_order_run_by_run() {
        use crate::engine::sink::Sink;
        // Owned elements with a destructor, so valgrind sees every one written and dropped.
        let buf: [String; 5] = init_inline(|sink| {
            sink.put(0, 2, ["a", "b"].iter().map(|s| s.to_string()));
            sink.put(2, 3, ["c", "d", "e"].iter().map(|s| s.to_string()));
        });
        assert_eq!(buf.as_slice(), ["a", "b", "c", "d", "e"]);
        // A run longer than the space left writes only what fits.
        let one: [u8; 1] = init_inline(|sink| sink.put(0, 3, 1..4));
        assert_eq!(one[0], 1);
    }

    #[test]
    #[should_panic(expected = "every inline slot is written once")]
    fn an_inline_buffer_left_short_is_refused() {
        use crate::engine::sink::Sink;
        // Plain bytes: the two written before the panic would otherwise leak.
        let _: [u8; 3] = init_inline(|sink| {
            // The run claims 3 elements but yields 2: the count, not the claim, decides.
            sink.put(0, 3, [1u8, 2].into_iter());
        });
    }

    /// Windows of values drawn from {0, 1, 2, 3} (ties everywhere), with rows of 1 to 40
    /// windows (the vector body and its remainder): the maxima and positions equal the
    /// first maximum in row-major order, found one candidate at a time; a NaN or both
    /// infinities in a window is reported.
    #[test]
    fn two_by_two_windows_take_their_first_maximum() {
        for n in 1..=40usize {
            for seed in 0..4u64 {
                let w = 2 * n + 3;
                let x: Vec<f32> = (0..2 * w as u64)
                    .map(|i| ((i * 2_654_435_761 + seed * 97) % 4) as f32)
                    .collect();
                let (top, bottom) = (&x[1..1 + 2 * n], &x[1 + w..1 + w + 2 * n]);
                let (mut maxs, mut picks, mut ats) = (vec![0.0; n], vec![0; n], vec![0; n]);
                let nan =
                    max_pool_2x2_rows((top, bottom), (&mut maxs, &mut picks), (&mut ats, 1, w));
                assert!(!nan);
                for j in 0..n {
                    let at = 1 + 2 * j;
                    let (mut best, mut m) = (at, x[at]);
                    for p in [at + 1, at + w, at + w + 1] {
                        if x[p] > m {
                            (best, m) = (p, x[p]);
                        }
                    }
                    assert_eq!((ats[j], maxs[j]), (best, m), "{n} windows, window {j}");
                }
                let mut odd = top.to_vec();
                odd[2 * (n / 2) + 1] = if seed % 2 == 0 {
                    f32::NAN
                } else {
                    f32::INFINITY
                };
                let mut low = bottom.to_vec();
                low[2 * (n / 2)] = f32::NEG_INFINITY;
                let nan =
                    max_pool_2x2_rows((&odd, &low), (&mut maxs, &mut picks), (&mut ats, 0, w));
                assert!(nan, "{n} windows");
            }
        }
    }
}
