//! Insert an axis of size 1 (rule book §18): the data is untouched.

use super::*;

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// A size-1 axis named `N` (or [`Unnamed`](crate::Unnamed)) inserted at position `K`; no
    /// data moves. `K` past the rank, or `N` naming another axis, is a compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(N, H);
    /// let t = Tensor::<i32, shape![H: 2]>::from_vec(vec![1, 2])?;
    /// let v = t.view().insert_axis::<0, N>();
    /// assert_eq!((v.sizes(), v.strides()), (&[1, 2][..], &[0, 1][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn insert_axis<const K: usize, N>(self) -> TensorView<'a, T, InsertAxis<Sh, K, N>>
    where
        Sh: InsertAxisAt<K, N>,
    {
        let (data, mut sizes, mut strides) = self.into_parts();
        sizes.insert(K, 1);
        strides.insert(K, 0);
        TensorView::from_parts(data, sizes, strides)
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// A size-1 axis named `N` (or [`Unnamed`](crate::Unnamed)) at position `K`; the buffer
    /// moves. `K` past the rank, or `N` naming another axis, is a compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(N, H);
    /// let t = Tensor::<i32, shape![H: 2]>::from_vec(vec![1, 2])?;
    /// assert_eq!(t.insert_axis::<1, N>().shape().to_string(), "[H: 2, N: 1]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn insert_axis<const K: usize, N>(self) -> Tensor<T, InsertAxis<Sh, K, N>>
    where
        Sh: InsertAxisAt<K, N>,
    {
        let mut sizes = self.sizes().to_vec();
        sizes.insert(K, 1);
        Tensor::from_parts(&sizes, self.into_vec())
    }
}

impl<T: Clone> DynTensor<T> {
    /// A size-1 axis named `name` (or unnamed) at position `at`.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::full("[H: 2]".parse()?, 0)?;
    /// assert_eq!(t.insert_axis(0, Some(&"N".parse()?))?.shape().to_string(), "[N: 1, H: 2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn insert_axis(&self, at: usize, name: Option<&Name>) -> Result<DynTensor<T>, Error> {
        let shape = rt::insert_axis(self.shape(), at, name)?;
        DynTensor::from_vec(shape, self.data().to_vec())
    }
}
