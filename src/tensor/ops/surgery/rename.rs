//! Rename an axis of a tensor, a view or a `DynTensor` (rule book §18): the data is untouched.

use super::*;

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// The axis `A` picks renamed to `B` ([`Unnamed`](crate::Unnamed) removes the name); no
    /// data moves. `B` naming another axis is a compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(C, K);
    /// let t = Tensor::<i32, shape![?, C: 3]>::from_vec_sized(&[2, 3], vec![0; 6])?;
    /// let v = t.view().rename::<C, K>();
    /// assert_eq!(v.to_tensor().shape().to_string(), "[2, K: 3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rename<A, B>(self) -> TensorView<'a, T, Rename<Sh, A, B>>
    where
        Sh: RenameAxis<A, B>,
    {
        let (data, sizes, strides) = self.into_parts();
        TensorView::from_parts(data, sizes, strides)
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// The axis `A` picks renamed to `B` ([`Unnamed`](crate::Unnamed) removes the name); the
    /// buffer moves, nothing is copied but a small inline one. `B` naming another axis is a
    /// compile error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(C, K);
    /// let t = Tensor::<i32, shape![?, C: 3]>::from_vec_sized(&[2, 3], vec![0; 6])?;
    /// assert_eq!(t.rename::<C, K>().shape().to_string(), "[2, K: 3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rename<A, B>(self) -> Tensor<T, Rename<Sh, A, B>>
    where
        Sh: RenameAxis<A, B>,
    {
        let sizes = self.sizes().to_vec();
        Tensor::from_parts(&sizes, self.into_vec())
    }
}

impl<T: Clone> DynTensor<T> {
    /// The axis `axis` picks renamed to `to` (`None`: unnamed); the data is untouched.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::full("[N: 2, C: 3]".parse()?, 0)?;
    /// assert_eq!(t.rename(&"C".parse()?, Some(&"K".parse()?))?.shape().to_string(), "[N: 2, K: 3]");
    /// assert!(t.rename(&"C".parse()?, Some(&"N".parse()?)).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rename(&self, axis: &AxisSelector, to: Option<&Name>) -> Result<DynTensor<T>, Error> {
        let shape = rt::rename(self.shape(), axis, to)?;
        DynTensor::from_vec(shape, self.data().to_vec())
    }
}
