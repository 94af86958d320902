//! A tile computed column by column and moved into its slots row by row: the block kernel of
//! short runs that read an operand across a stride (`walk::across`).
//!
//! The move is a transpose. Element by element it costs a store per element, as much as the
//! rest of the kernel; on x86-64, 4-byte elements move in 4x4 blocks and 8-byte elements in
//! 2x2 blocks of SSE2 registers (every x86-64 CPU has SSE2). A large output is written with
//! non-temporal stores, which skip reading each line of the output before writing it.
//! Measured on the outer rule's fusion (docs/performance.md, "Runs read across a stride").

use alloc::vec::Vec;
use core::mem::{size_of, MaybeUninit};

/// The fewest bytes of output written with non-temporal stores ([`Tiles::new`]): an output
/// this large no longer fits a last-level cache slice, so the next operation reads it from
/// memory either way, and a store that skips the cache saves reading each line first.
pub(crate) const STREAM_MIN_BYTES: usize = 8 << 20;

/// Whether an output of `len` elements of `O` is written with non-temporal stores.
#[inline]
pub(crate) const fn streams<O>(len: usize) -> bool {
    cfg!(target_arch = "x86_64") && len.saturating_mul(size_of::<O>()) >= STREAM_MIN_BYTES
}

/// The scratch of a run of tiles ([`Tiles::fill`]) and how their values reach the output.
/// Dropping it orders its non-temporal stores before any later store (`sfence`), so the
/// output is whole for whoever reads it next, on this thread or another.
pub(crate) struct Tiles<O> {
    /// The tile's columns, then (when streaming) the same values row by row.
    scratch: Vec<MaybeUninit<O>>,
    /// Whether the values reach the output by non-temporal stores.
    stream: bool,
}

impl<O> Tiles<O> {
    /// The tiles of an output of `total` elements of `O`, however many pieces write it:
    /// they write with non-temporal stores when the whole output is large enough
    /// ([`streams`]).
    #[inline]
    pub(crate) fn new(total: usize) -> Self {
        Self {
            scratch: Vec::new(),
            stream: streams::<O>(total),
        }
    }

    /// The `rows x n` slots of `out` (row-major) filled through the scratch: `column(c,
    /// slots)` writes column `c`'s `rows` values into `slots` (in order, each once,
    /// `MaybeUninit::write`) and returns how many it wrote; once every column is whole, the
    /// values are moved to their slots. Returns the slots written: `rows * n`, or 0 when a
    /// column came up short (its values and the earlier columns' are then leaked, never read).
    ///
    /// # Panics
    ///
    /// When `out` does not hold `rows * n` slots (a caller's bug).
    #[inline(always)]
    pub(crate) fn fill(
        &mut self,
        (rows, n): (usize, usize),
        mut column: impl FnMut(usize, &mut [MaybeUninit<O>]) -> usize,
        out: &mut [MaybeUninit<O>],
    ) -> usize {
        let len = rows * n;
        assert_eq!(out.len(), len, "a slot for each value of the tile");
        let held = if self.stream { 2 * len } else { len };
        self.scratch.clear();
        self.scratch.resize_with(held, MaybeUninit::uninit);
        let (columns, by_rows) = self.scratch.split_at_mut(len);
        for (c, slots) in columns.chunks_exact_mut(rows.max(1)).enumerate() {
            if column(c, slots) != rows {
                return 0;
            }
        }
        if self.stream {
            transpose(columns, (rows, n), by_rows);
            stream_copy(by_rows, out);
        } else {
            transpose(columns, (rows, n), out);
        }
        len
    }
}

impl<O> Drop for Tiles<O> {
    fn drop(&mut self) {
        if self.stream {
            fence();
        }
    }
}

/// Moves the `rows x n` values of `columns` (column-major, every one written) into `out`
/// (row-major), each once. The values are moved as bytes (a value's bytes go whole to its
/// slot), so `columns` is left to be cleared without dropping its contents, as a `Vec` of
/// `MaybeUninit` is.
#[inline(always)]
fn transpose<O>(columns: &[MaybeUninit<O>], (rows, n): (usize, usize), out: &mut [MaybeUninit<O>]) {
    assert!(columns.len() == rows * n && out.len() == rows * n);
    let block = blocks::<O>();
    #[cfg(target_arch = "x86_64")]
    if block > 1 && rows >= block && n >= block {
        // Blocks from every `block`-th row and column, the last of each pulled back to end at
        // the edge: they cover every slot, a slot of two blocks written twice with the same
        // value.
        let starts = |len: usize| (0..len).step_by(block).map(move |i| i.min(len - block));
        for r in starts(rows) {
            for c in starts(n) {
                let from = columns[c * rows + r..].as_ptr();
                let to = out[r * n + c..].as_mut_ptr();
                // SAFETY: the block's `block` columns start `rows` values apart at
                // `c * rows + r` and each holds `block` values from there (`r + block <=
                // rows`, `c + block <= n`), all inside `columns`; its `block` rows of `out`
                // start `n` values apart at `r * n + c` and hold `block` slots each, all
                // inside `out` (both are `rows * n` long, asserted above). `block_move`
                // reads and writes only those.
                unsafe { block_move::<O>(from, rows, to, n) };
            }
        }
        return;
    }
    for (r, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        for (c, slot) in row.iter_mut().enumerate() {
            // SAFETY: a `MaybeUninit` read is a copy of its bytes, sound whatever they hold;
            // the value is then in `out` only, as `columns` never drops what it holds.
            *slot = unsafe { core::ptr::read(&columns[c * rows + r]) };
        }
    }
}

/// The side of the square blocks [`block_move`] transposes for elements of `O`: 4 for 4-byte
/// elements, 2 for 8-byte ones, 1 (no blocks) for others or off x86-64.
#[inline(always)]
const fn blocks<O>() -> usize {
    match size_of::<O>() {
        4 if cfg!(target_arch = "x86_64") => 4,
        8 if cfg!(target_arch = "x86_64") => 2,
        _ => 1,
    }
}

/// Transposes one block of [`blocks`] x [`blocks`] values: column `j` of the block starts at
/// `from + j * rows` (its values in order), row `i` goes to `to + i * n`.
///
/// # Safety
///
/// Every value read and every slot written must lie inside one allocation each, and the two
/// regions must not overlap. The values are copied as bytes by SSE2 moves and shuffles
/// inside the `asm!` block (what a `ptr::copy` of each value does), so they need not be
/// initialised, and padding is carried as it is.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn block_move<O>(
    from: *const MaybeUninit<O>,
    rows: usize,
    to: *mut MaybeUninit<O>,
    n: usize,
) {
    let (col, row) = (rows * size_of::<O>(), n * size_of::<O>());
    if size_of::<O>() == 4 {
        // SAFETY: the caller's: four columns of four values from `from`, `col` bytes apart,
        // and four rows of four slots from `to`, `row` bytes apart.
        unsafe {
            core::arch::asm!(
                "movdqu xmm0, [{f}]",
                "movdqu xmm1, [{f} + {c}]",
                "movdqu xmm2, [{f} + {c} * 2]",
                "add {f}, {c}",
                "movdqu xmm3, [{f} + {c} * 2]",
                // xmm4 = a2 b2 a3 b3, xmm0 = a0 b0 a1 b1 (a..d the four columns)
                "movdqa xmm4, xmm0",
                "punpckldq xmm0, xmm1",
                "punpckhdq xmm4, xmm1",
                // xmm5 = c2 d2 c3 d3, xmm2 = c0 d0 c1 d1
                "movdqa xmm5, xmm2",
                "punpckldq xmm2, xmm3",
                "punpckhdq xmm5, xmm3",
                // the four rows: xmm0, xmm1, xmm4, xmm3
                "movdqa xmm1, xmm0",
                "punpcklqdq xmm0, xmm2",
                "punpckhqdq xmm1, xmm2",
                "movdqa xmm3, xmm4",
                "punpcklqdq xmm4, xmm5",
                "punpckhqdq xmm3, xmm5",
                "movdqu [{t}], xmm0",
                "movdqu [{t} + {r}], xmm1",
                "movdqu [{t} + {r} * 2], xmm4",
                "add {t}, {r}",
                "movdqu [{t} + {r} * 2], xmm3",
                f = inout(reg) from => _,
                c = in(reg) col,
                t = inout(reg) to => _,
                r = in(reg) row,
                out("xmm0") _, out("xmm1") _, out("xmm2") _,
                out("xmm3") _, out("xmm4") _, out("xmm5") _,
                options(nostack),
            );
        }
    } else {
        // SAFETY: the caller's: two columns of two values from `from`, `col` bytes apart,
        // and two rows of two slots from `to`, `row` bytes apart.
        unsafe {
            core::arch::asm!(
                "movdqu xmm0, [{f}]",
                "movdqu xmm1, [{f} + {c}]",
                "movdqa xmm2, xmm0",
                "punpcklqdq xmm0, xmm1",
                "punpckhqdq xmm2, xmm1",
                "movdqu [{t}], xmm0",
                "movdqu [{t} + {r}], xmm2",
                f = in(reg) from,
                c = in(reg) col,
                t = in(reg) to,
                r = in(reg) row,
                out("xmm0") _, out("xmm1") _, out("xmm2") _,
                options(nostack, preserves_flags),
            );
        }
    }
}

/// Copies `from` into `out` (the same length) as bytes, the 16-byte-aligned middle of `out`
/// by non-temporal stores (`movntdq`); [`fence`] orders them before later stores.
#[inline(always)]
fn stream_copy<O>(from: &[MaybeUninit<O>], out: &mut [MaybeUninit<O>]) {
    assert_eq!(from.len(), out.len());
    let bytes = size_of::<O>() * out.len();
    let (src, dst) = (from.as_ptr().cast::<u8>(), out.as_mut_ptr().cast::<u8>());
    let head = dst.align_offset(16).min(bytes);
    let middle = (bytes - head) / 16 * 16;
    // SAFETY: `from` and `out` are distinct slices of `bytes` bytes each; the head, middle
    // and tail copied below are consecutive ranges of them that end at `bytes`. A byte copy
    // is sound whatever the bytes hold.
    unsafe {
        core::ptr::copy_nonoverlapping(src, dst, head);
        #[cfg(target_arch = "x86_64")]
        if middle > 0 {
            // SAFETY: `dst + head` is 16-byte aligned (`align_offset`), as `movntdq` needs;
            // the loop copies `middle` bytes, 16 at a time, from `src + head` to `dst + head`.
            core::arch::asm!(
                "2:",
                "movdqu xmm0, [{s} + {i}]",
                "movntdq [{d} + {i}], xmm0",
                "add {i}, 16",
                "cmp {i}, {end}",
                "jb 2b",
                s = in(reg) src.add(head),
                d = in(reg) dst.add(head),
                i = inout(reg) 0usize => _,
                end = in(reg) middle,
                out("xmm0") _,
                options(nostack),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        core::ptr::copy_nonoverlapping(src.add(head), dst.add(head), middle);
        let done = head + middle;
        core::ptr::copy_nonoverlapping(src.add(done), dst.add(done), bytes - done);
    }
}

/// Orders the non-temporal stores made so far before any later store (`sfence`).
#[inline]
fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` only orders stores; it reads and writes no memory of its own.
    unsafe {
        core::arch::asm!("sfence", options(nostack, preserves_flags));
    }
}
