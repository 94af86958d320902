//! A typed tensor's index as `from_fn` hands it to its closure: the positions, read as a slice
//! (`i[0]`), or by axis name (`i.at::<SEQ>()`), so that a function of the index keeps its
//! meaning when the shape's axes are reordered. The run-time twin is the plain `&[usize]` of
//! [`DynTensor::from_fn`](crate::DynTensor::from_fn).

use core::marker::PhantomData;
use core::ops::Deref;

use crate::typed::surgery::HasAxis;

/// `from_fn`'s and `generate`'s index: `i[0]` or `i.at::<NAME>()` (it derefs to `[usize]`).
///
/// One index of a tensor of shape `S`: a slice of positions, one per axis, that also answers
/// by axis name.
///
/// ```
/// use shapecast::{names, shape, Tensor};
/// names!(SEQ, KSEQ);
/// // A causal mask by name: the same closure is right whatever the order of the axes.
/// let mask = |i: &shapecast::Index<'_, _>| if i.at::<KSEQ>() > i.at::<SEQ>() { f32::NEG_INFINITY } else { 0.0 };
/// let a = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[3, 3], |i| mask(i))?;
/// let b = Tensor::<f32, shape![KSEQ, SEQ]>::from_fn(&[3, 3], |i| if i.at::<KSEQ>() > i.at::<SEQ>() { f32::NEG_INFINITY } else { 0.0 })?;
/// assert_eq!(a.data()[1], f32::NEG_INFINITY); // SEQ 0, KSEQ 1
/// assert_eq!(b.data()[1], 0.0); // KSEQ 0, SEQ 1
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct Index<'a, S> {
    at: &'a [usize],
    shape: PhantomData<S>,
}

impl<'a, S> Index<'a, S> {
    /// The index `at` of a tensor of shape `S` (one position per axis).
    pub(crate) fn new(at: &'a [usize]) -> Self {
        Index {
            at,
            shape: PhantomData,
        }
    }

    /// The position along the axis `A` picks: a name, or [`Pos<K>`](crate::Pos). A name the
    /// shape lacks is a compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Pos, Tensor};
    /// names!(ROW, COL);
    /// let t = Tensor::<usize, shape![ROW: 2, COL: 3]>::from_fn(&[2, 3], |i| 10 * i.at::<ROW>() + i.at::<Pos<1>>())?;
    /// assert_eq!(t.data(), &[0, 1, 2, 10, 11, 12]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at<A>(&self) -> usize
    where
        S: HasAxis<A>,
    {
        self.at[<S as HasAxis<A>>::AT]
    }
}

impl<S> Deref for Index<'_, S> {
    type Target = [usize];

    /// The positions, one per axis in the shape's order.
    fn deref(&self) -> &[usize] {
        self.at
    }
}

impl<S> core::fmt::Debug for Index<'_, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.at.fmt(f)
    }
}
