//! The element types an index or label tensor may hold (rule book §21): `usize` (what
//! `argmax` and `topk` return), `u32`, `u64`, `i32` and `i64` (PyTorch's labels and
//! indices). `take`, `gather`, `one_hot` and the losses accept each; a negative index is
//! refused by name, never wrapped as `as usize` would.

use crate::alloc_prelude::*;

use core::fmt::{Debug, Display};

use crate::values::sealed::Sealed;

/// An element type of index and label tensors: `usize`, `u32`, `u64`, `i32` or `i64`.
///
/// [`position`](Self::position) is the index as a position (`None` when it is negative or
/// past `usize`); [`signed`](Self::signed) is the value as an `i64`, what a loss compares
/// with its `ignore_index` (PyTorch's −100).
///
/// ```
/// use shapecast::IndexElement;
/// assert_eq!(3i64.position(), Some(3));
/// assert_eq!((-1i64).position(), None);
/// assert_eq!((-100i32).signed(), Some(-100));
/// assert_eq!(u64::MAX.signed(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an index type",
    label = "indices and labels are `usize`, `u32`, `u64`, `i32` or `i64`"
)]
pub trait IndexElement: Copy + Debug + Display + Sealed + 'static {
    /// This index as a position, or `None` when it is negative or does not fit a `usize`.
    fn position(self) -> Option<usize>;
    /// This value as an `i64`, or `None` when it does not fit one.
    fn signed(self) -> Option<i64>;
}

macro_rules! index_elements {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl IndexElement for $t {
            #[inline]
            fn position(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline]
            fn signed(self) -> Option<i64> {
                i64::try_from(self).ok()
            }
        }
    )*};
}
index_elements!(usize, u32, u64, i32, i64);

/// The first entry of `indices` that is not a position below `n`, with where it is: its
/// index in `indices` and the value. What every gather checks before it reads.
pub(super) fn first_outside<X: IndexElement>(indices: &[X], n: usize) -> Option<(usize, X)> {
    indices
        .iter()
        .enumerate()
        .find(|&(_, &i)| i.position().is_none_or(|p| p >= n))
        .map(|(k, &i)| (k, i))
}

/// Why `bad` is not a position below `n`, said after "index {bad} at …": negative (PyTorch
/// counts indices from 0 here and refuses them too), or out of range for "the axis".
pub(super) fn outside<X: IndexElement>(bad: X, n: usize) -> String {
    if bad.signed().is_some_and(|s| s < 0) {
        "is negative".into()
    } else {
        format!("is out of range for the axis of size {n}")
    }
}
