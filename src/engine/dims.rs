//! Sizes or strides held inline, up to [`MAX_RANK`]: the temporaries of the kernels and the
//! layout of a view (which is what makes [`TensorView`](crate::TensorView) `Copy`). A view's
//! capacity is the run-time limit, not the type level's 16: the run-time tensors' kernels
//! (Fortran-order reads, concatenation, stacking) lay out their operands as untyped views of
//! any rank a shape may have.

use core::fmt;

use crate::alloc_prelude::*;
use core::ops::{Deref, DerefMut};

use super::layout::row_major_into;
use crate::values::shape::MAX_RANK;

/// Up to `N` sizes or strides on the stack; derefs to the slice of those held.
#[derive(Clone, Copy)]
pub(crate) struct InlineDims<const N: usize> {
    len: usize,
    v: [usize; N],
}

/// Sizes or strides of any rank a shape may have: a kernel's temporaries and a view's layout.
pub(crate) type Dims = InlineDims<MAX_RANK>;

impl<const N: usize> InlineDims<N> {
    /// The items in order; the caller guarantees there are at most `N` (more panics).
    pub(crate) fn from_iter(items: impl IntoIterator<Item = usize>) -> Self {
        let mut d = InlineDims { len: 0, v: [0; N] };
        for x in items {
            d.v[d.len] = x;
            d.len += 1;
        }
        d
    }

    /// Row-major strides of `sizes`.
    pub(crate) fn row_major(sizes: &[usize]) -> Self {
        let mut d = Self::from_iter(sizes.iter().map(|_| 1));
        row_major_into(sizes, &mut d);
        d
    }
}

/// No sizes: room to write some into.
impl<const N: usize> Default for InlineDims<N> {
    fn default() -> Self {
        InlineDims { len: 0, v: [0; N] }
    }
}

impl<const N: usize> From<&[usize]> for InlineDims<N> {
    fn from(items: &[usize]) -> Self {
        Self::from_iter(items.iter().copied())
    }
}

impl<const N: usize> From<Vec<usize>> for InlineDims<N> {
    fn from(items: Vec<usize>) -> Self {
        Self::from(items.as_slice())
    }
}

impl<const N: usize> Deref for InlineDims<N> {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.v[..self.len]
    }
}

impl<const N: usize> DerefMut for InlineDims<N> {
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.v[..self.len]
    }
}

impl<const N: usize> fmt::Debug for InlineDims<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_it_was_given() {
        let d = Dims::from(&[3, 4, 5][..]);
        assert_eq!(&*d, &[3, 4, 5]);
        assert_eq!(format!("{d:?}"), "[3, 4, 5]");
        assert_eq!(&*InlineDims::<4>::row_major(&[2, 3, 4]), &[12, 4, 1]);
    }

    #[test]
    #[should_panic]
    fn more_than_its_capacity_panics() {
        let _ = InlineDims::<2>::from(&[1, 2, 3][..]);
    }
}
