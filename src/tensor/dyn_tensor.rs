//! Tensors whose shape is known at run time: contiguous row-major data with a [`DynShape`],
//! elementwise operations under any rule (run by the [`kernel`](crate::kernel) over the
//! rule's plan), and index-access broadcasting (rule book §12).
//!
//! ```
//! use shapecast::{DynTensor, Rule};
//!
//! // The seed's img + lbl, small: [N: 2, CHANNEL: 3, H: 2, W: 2] + [N: 2, H: 2, W: 2].
//! let img = DynTensor::from_fn("[N: 2, CHANNEL: 3, H: 2, W: 2]".parse()?, |i| (i[1] * 100) as f32)?;
//! let lbl = DynTensor::from_fn("[N: 2, H: 2, W: 2]".parse()?, |i| (i[1] * 10 + i[2]) as f32)?;
//! let sum = img.zip_with(Rule::Named, &lbl, |x, y| x + y)?;
//! assert_eq!(sum.shape().to_string(), "[N: 2, CHANNEL: 3, H: 2, W: 2]");
//! assert_eq!(*sum.at(&[0, 2, 1, 1])?, 211.0); // channel 2 (200) + lbl at H 1, W 1 (11)
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use super::ops::elementwise::{zip_operands, Operand};
use crate::dynamic::plan::SizeList;
use crate::engine::dims::Dims;
use crate::engine::layout::{row_major, Strided};
use crate::engine::walk::{iab_offset, step};
use crate::engine::zip_fn::{cloned, Parallel, ZipFn};
use crate::values::error::Error;
use crate::values::rule::Rule;
use crate::values::shape::DynShape;

/// A tensor whose rank, sizes and names are known at run time. Every size is known (no `?`).
///
/// ```
/// use shapecast::DynTensor;
/// let t = DynTensor::from_vec("[2, 3]".parse()?, vec![1, 2, 3, 4, 5, 6])?;
/// assert_eq!(t.sizes(), &[2, 3]);
/// assert!(DynTensor::from_vec("[2, 3]".parse()?, vec![1, 2]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DynTensor<T> {
    shape: DynShape,
    sizes: SizeList,
    data: Vec<T>,
}

/// The sizes of a shape whose sizes must all be known, and its element count.
fn known(shape: &DynShape) -> Result<(SizeList, usize), Error> {
    let sizes = shape.known_sizes().ok_or_else(|| Error::UnknownSize {
        shape: shape.clone(),
    })?;
    let sizes = SizeList::from_vec(sizes);
    Ok((sizes, shape.numel()?))
}

impl<T> DynTensor<T> {
    /// A tensor of this one's shape holding `data`, whose length the caller has matched.
    pub(crate) fn with_data<U>(&self, data: Vec<U>) -> DynTensor<U> {
        debug_assert_eq!(data.len(), self.data.len());
        DynTensor {
            shape: self.shape.clone(),
            sizes: self.sizes.clone(),
            data,
        }
    }

    /// A tensor from its data in row-major order; fails if a size is `?` or the length is
    /// not the element count.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[H: 1, W: 2]".parse()?, vec![3, 4])?;
    /// assert_eq!(t.data(), &[3, 4]);
    /// assert!(DynTensor::from_vec("[?]".parse()?, vec![1]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_vec(shape: DynShape, data: Vec<T>) -> Result<DynTensor<T>, Error> {
        let (sizes, n) = known(&shape)?;
        if data.len() != n {
            return Err(Error::Layout {
                what: format!("{shape} holds {n} elements, not {}", data.len()),
            });
        }
        Ok(DynTensor { shape, sizes, data })
    }

    /// A tensor whose element at each index is `f(index)`.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_fn("[2, 2]".parse()?, |i| i[0] * 10 + i[1])?;
    /// assert_eq!(t.data(), &[0, 1, 10, 11]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_fn(
        shape: DynShape,
        mut f: impl FnMut(&[usize]) -> T,
    ) -> Result<DynTensor<T>, Error> {
        let (sizes, n) = known(&shape)?;
        let mut data = crate::engine::allocation::vec_for::<T>(&sizes, || shape.clone())?;
        let mut index = vec![0; sizes.len()];
        for _ in 0..n {
            data.push(f(&index));
            step(&mut index, &sizes, [], &mut []);
        }
        Ok(DynTensor { shape, sizes, data })
    }

    /// A tensor with every element `value`.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// assert_eq!(DynTensor::full("[3]".parse()?, 7)?.data(), &[7, 7, 7]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn full(shape: DynShape, value: T) -> Result<DynTensor<T>, Error>
    where
        T: Clone,
    {
        let (sizes, n) = known(&shape)?;
        let mut data = crate::engine::allocation::vec_for::<T>(&sizes, || shape.clone())?;
        data.resize(n, value);
        Ok(DynTensor { shape, sizes, data })
    }

    /// The shape (every size known).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::full("[H: 2]".parse()?, 0)?;
    /// assert_eq!(t.shape().to_string(), "[H: 2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn shape(&self) -> &DynShape {
        &self.shape
    }

    /// The sizes.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// assert_eq!(DynTensor::full("[2, 1]".parse()?, 0)?.sizes(), &[2, 1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The data, row-major.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// assert_eq!(DynTensor::full("[2]".parse()?, 1.5)?.data(), &[1.5, 1.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data(&self) -> &[T] {
        &self.data
    }

    /// The data, row-major, owned.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// assert_eq!(DynTensor::full("[2]".parse()?, 1)?.into_vec(), vec![1, 1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }

    /// The offset of an element under index-access broadcasting (rule book §12).
    fn offset(&self, index: &[usize]) -> Result<usize, Error> {
        iab_offset(&self.sizes, &row_major(&self.sizes), index).map_err(|reason| Error::Index {
            shape: self.shape.clone(),
            reason,
        })
    }

    /// Index-access broadcasting (rule book §12, TML): at least one index per axis, left-aligned;
    /// an axis of size 1 ignores its index, a larger axis needs it in range, and indices
    /// beyond the rank are ignored.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[1, 2]".parse()?, vec![3, 4])?;
    /// assert_eq!(*a.at(&[999, 1, 1000, 2000])?, 4);
    /// assert_eq!(*a.at(&[999, 0])?, 3);
    /// assert!(a.at(&[0, 2]).is_err());
    /// assert!(a.at(&[0]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at(&self, index: &[usize]) -> Result<&T, Error> {
        let offset = self.offset(index)?;
        Ok(&self.data[offset])
    }

    /// [`at`](Self::at) for writing.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let mut a = DynTensor::full("[]".parse()?, 42)?;
    /// *a.at_mut(&[4, 5])? = 3; // a scalar ignores every index
    /// assert_eq!(*a.at(&[])?, 3);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at_mut(&mut self, index: &[usize]) -> Result<&mut T, Error> {
        let offset = self.offset(index)?;
        Ok(&mut self.data[offset])
    }

    /// `f(self, other)` elementwise under `rule`: the rule's plan, its run-time checks, then
    /// the kernel. The result has the rule's output shape.
    ///
    /// ```
    /// use shapecast::{DynTensor, Rule};
    /// let a = DynTensor::from_vec("[H: 2, W: 3]".parse()?, vec![1, 2, 3, 4, 5, 6])?;
    /// let b = DynTensor::from_vec("[W: 3, H: 1]".parse()?, vec![10, 20, 30])?;
    /// let c = a.zip_with(Rule::Named, &b, |x, y| x + y)?;
    /// assert_eq!(c.data(), &[11, 22, 33, 14, 25, 36]);
    /// assert!(a.zip_with(Rule::Strict, &b, |x, y| x + y).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with<U: Copy + Sync, V: Send>(
        &self,
        rule: Rule,
        other: &DynTensor<U>,
        f: impl Fn(T, U) -> V + Sync,
    ) -> Result<DynTensor<V>, Error>
    where
        T: Copy + Sync,
    {
        let mut out = DynTensor::unfilled();
        self.zip_with_into(rule, other, &mut out, f)?;
        Ok(out)
    }

    /// [`zip_with`](Self::zip_with) into `out`, reusing its allocation; `out` takes the
    /// result's shape. On error `out` is left as it was.
    ///
    /// ```
    /// use shapecast::{DynTensor, Rule};
    /// let a = DynTensor::from_vec("[2, 2]".parse()?, vec![1, 2, 3, 4])?;
    /// let b = DynTensor::from_vec("[2]".parse()?, vec![10, 20])?;
    /// let mut out = DynTensor::full("[]".parse()?, 0)?;
    /// a.zip_with_into(Rule::Numpy, &b, &mut out, |x, y| x + y)?;
    /// assert_eq!(out.data(), &[11, 22, 13, 24]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with_into<U: Copy + Sync, V: Send>(
        &self,
        rule: Rule,
        other: &DynTensor<U>,
        out: &mut DynTensor<V>,
        f: impl Fn(T, U) -> V + Sync,
    ) -> Result<(), Error>
    where
        T: Copy + Sync,
    {
        self.zip_ref_into(rule, other, out, Parallel(cloned(f)))
    }

    /// [`zip_with_into`](Self::zip_with_into) with `f` borrowing the elements.
    pub(crate) fn zip_ref_into<U, V>(
        &self,
        rule: Rule,
        other: &DynTensor<U>,
        out: &mut DynTensor<V>,
        f: impl ZipFn<T, U, V>,
    ) -> Result<(), Error> {
        // `zip_operands` leaves `out.data` untouched when it fails.
        let (shape, sizes) = zip_operands(rule, self.operand(), other.operand(), &mut out.data, f)?;
        out.shape = shape;
        out.sizes = sizes;
        Ok(())
    }

    /// Its layout as the engine takes it: sizes, row-major strides (written into `own`) and
    /// data.
    pub(crate) fn layout<'s>(&'s self, own: &'s mut Dims) -> Strided<'s, T> {
        *own = Dims::row_major(self.sizes());
        Strided {
            sizes: self.sizes(),
            strides: own,
            data: self.data(),
        }
    }

    /// The tensor as an operand of [`zip_operands`].
    pub(crate) fn operand(&self) -> Operand<'_, T> {
        Operand {
            shape: Cow::Borrowed(&self.shape),
            sizes: &self.sizes,
            strides: None,
            data: &self.data,
        }
    }

    /// A placeholder for an output a kernel is about to fill (scalar shape, no elements yet).
    pub(crate) fn unfilled() -> DynTensor<T> {
        DynTensor {
            shape: DynShape::scalar(),
            sizes: SizeList::new(),
            data: Vec::new(),
        }
    }

    /// A tensor from parts the caller has already checked (sizes resolved from `shape`, data
    /// of the element count).
    pub(crate) fn from_parts(
        shape: DynShape,
        sizes: impl Into<SizeList>,
        data: Vec<T>,
    ) -> DynTensor<T> {
        let sizes = sizes.into();
        debug_assert_eq!(Some(data.len()), crate::engine::allocation::count(&sizes));
        DynTensor { shape, sizes, data }
    }

    /// The data, row-major, for writing.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let mut t = DynTensor::from_vec("[2]".parse()?, vec![1, 2])?;
    /// t.data_mut()[0] = 7;
    /// assert_eq!(t.data(), &[7, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data_mut(&mut self) -> &mut [T] {
        &mut self.data
    }
}

impl<T> DynTensor<T> {
    /// Narrowcasting (rule book §11) on data: the same elements without the axes of size 1.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[1, 3, 1]".parse()?, vec![1, 2, 3])?.narrow();
    /// assert_eq!(t.shape().to_string(), "[3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn narrow(self) -> DynTensor<T> {
        let narrowed = self.shape.narrow();
        let sizes = narrowed.kept.iter().map(|&i| self.sizes[i]).collect();
        DynTensor {
            shape: narrowed.shape,
            sizes,
            data: self.data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_sizes_and_scalars() {
        let empty = DynTensor::<i32>::from_vec("[0, 3]".parse().unwrap(), vec![]).unwrap();
        let row = DynTensor::from_vec("[3]".parse().unwrap(), vec![1, 2, 3]).unwrap();
        let sum = empty.zip_with(Rule::Numpy, &row, |x, y| x + y).unwrap();
        assert_eq!((sum.sizes(), sum.data().len()), (&[0, 3][..], 0));
        let scalar = DynTensor::full("[]".parse().unwrap(), 10).unwrap();
        let sum = scalar.zip_with(Rule::Compare, &row, |x, y| x < y).unwrap();
        assert_eq!(sum.data(), &[false, false, false]);
    }

    #[test]
    fn refusals_are_errors_not_panics() {
        let a = DynTensor::full("[3]".parse().unwrap(), 1).unwrap();
        let b = DynTensor::full("[2]".parse().unwrap(), 1).unwrap();
        let err = a.zip_with(Rule::Numpy, &b, |x, y| x + y).unwrap_err();
        assert!(err.to_string().contains("cannot broadcast [3] with [2]"));
        assert!(DynTensor::<u8>::from_fn("[?]".parse().unwrap(), |_| 0).is_err());
        let huge = format!("[{0}, {0}]", usize::MAX).parse().unwrap();
        assert!(DynTensor::full(huge, 0u8).is_err());
    }

    #[test]
    fn pdpd_and_assign_on_data() {
        let a = DynTensor::from_fn("[2, 3, 2]".parse().unwrap(), |i| i[1] as i32).unwrap();
        let b = DynTensor::from_vec("[3, 1]".parse().unwrap(), vec![10, 20, 30]).unwrap();
        let c = a
            .zip_with(Rule::Pdpd { axis: 1 }, &b, |x, y| x + y)
            .unwrap();
        assert_eq!(c.sizes(), &[2, 3, 2]);
        assert_eq!(*c.at(&[1, 2, 1]).unwrap(), 32);
        // Assign right-aligns [3, 1] with the last two axes [3, 2]: 3 fits 3, 1 fits 2.
        let d = a.zip_with(Rule::Assign, &b, |_, y| y).unwrap();
        assert_eq!(d.sizes(), a.sizes());
        assert_eq!(*d.at(&[1, 2, 1]).unwrap(), 30);
        let wide = DynTensor::full("[4, 2]".parse().unwrap(), 0).unwrap();
        assert!(a.zip_with(Rule::Assign, &wide, |_, y| y).is_err());
    }
}
