//! A tile computed column by column and moved into its slots row by row: the block kernel of
//! short runs that read an operand across a stride (`walk::across`).

use alloc::vec::Vec;
use core::mem::MaybeUninit;

/// The `rows x n` slots of `out` (row-major) filled through `scratch`: `column(c, slots)`
/// writes column `c`'s `rows` values into `slots` (in order, each once, `MaybeUninit::write`)
/// and returns how many it wrote; once every column is whole, each value is moved to its
/// slot, row after row. Returns the slots written: `rows * n`, or 0 when a column came up
/// short (its values and the earlier columns' are then leaked, never read).
///
/// # Panics
///
/// When `out` does not hold `rows * n` slots (a caller's bug).
#[inline(always)]
pub(crate) fn columns_transposed<O>(
    scratch: &mut Vec<MaybeUninit<O>>,
    (rows, n): (usize, usize),
    mut column: impl FnMut(usize, &mut [MaybeUninit<O>]) -> usize,
    out: &mut [MaybeUninit<O>],
) -> usize {
    assert_eq!(out.len(), rows * n, "a slot for each value of the tile");
    scratch.clear();
    scratch.resize_with(rows * n, MaybeUninit::uninit);
    for (c, slots) in scratch.chunks_exact_mut(rows.max(1)).enumerate() {
        if column(c, slots) != rows {
            return 0;
        }
    }
    for (r, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        for (c, slot) in row.iter_mut().enumerate() {
            // SAFETY: column `c` wrote all of its `rows` slots (counted above), so
            // `scratch[c * rows + r]` is initialised; each is read once, into one slot, and
            // `scratch` is cleared (never dropping its contents: `MaybeUninit`) before reuse.
            slot.write(unsafe { scratch[c * rows + r].assume_init_read() });
        }
    }
    rows * n
}
