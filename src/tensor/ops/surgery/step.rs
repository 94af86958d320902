//! `step::<A>(k)`: every `k`-th element along a named axis, from its first, as a view (NumPy's
//! `x[..., ::k]`, PyTorch's slicing with a step): the axis keeps its name, its size becomes
//! `?` (`ceil(n / k)`), its stride grows `k`-fold. With `slice` first, any `a..b` by `k`.

use super::select::{gather, relaid_mut, Layout};
use super::*;

/// The layout of every `step`-th index along axis `k` of `(sizes, strides)`; an error for a
/// step of 0 or a stride that would overflow.
fn step_layout(
    (sizes, strides): (&[usize], &[usize]),
    k: usize,
    step: usize,
    what: impl FnOnce() -> (String, DynShape),
) -> Result<Layout, Error> {
    let refuse = |reason: String| {
        let (sel, shape) = what();
        Err(Error::Surgery {
            op: format!("step {sel} of {shape} by {step}"),
            reason,
        })
    };
    if step == 0 {
        return refuse("a step is at least 1".into());
    }
    let n = sizes[k].div_ceil(step);
    let mut strides = strides.to_vec();
    if n > 1 {
        match strides[k].checked_mul(step) {
            Some(s) if s <= isize::MAX as usize => strides[k] = s,
            _ => return refuse(format!("the stride {} times {step} overflows", strides[k])),
        }
    }
    let mut sizes = sizes.to_vec();
    sizes[k] = n;
    Ok((0, sizes, strides))
}

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// Every `k`-th element along the axis `A` picks, from its first: a view whose axis keeps
    /// its name with the size `?` (`ceil(n / k)`). A step of 0 is an error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T, D);
    /// let t = Tensor::<i32, shape![T: 2, D: 5]>::from_fn(&[2, 5], |i| (i[0] * 10 + i[1]) as i32)?;
    /// let even = t.view().step::<D>(2)?; // [T: 2, D]
    /// assert_eq!(even.to_tensor().data(), &[0, 2, 4, 10, 12, 14]);
    /// let odd = t.view().slice::<D>(1..)?.step::<D>(2)?;
    /// assert_eq!(odd.to_tensor().data(), &[1, 3, 11, 13]);
    /// assert!(t.view().step::<D>(0).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step<A>(&self, k: usize) -> Result<TensorView<'a, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        let at = <Sh as SliceAxis<A, crate::typed::size::Dyn>>::AT;
        let what = || (show::<A>(), self.shape_dyn());
        let (_, sizes, strides) = step_layout((self.sizes(), self.strides()), at, k, what)?;
        Ok(TensorView::from_parts(self.data_slice(), sizes, strides))
    }
}

impl<'a, T, Sh: Shape> TensorViewMut<'a, T, Sh> {
    /// [`TensorView::step`] for writing: every `k`-th element along `A`.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(D);
    /// let mut t = Tensor::<i32, shape![D: 5]>::full(0)?;
    /// t.view_mut().step::<D>(2)?.fill(1);
    /// assert_eq!(t.data(), &[1, 0, 1, 0, 1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step<A>(self, k: usize) -> Result<TensorViewMut<'a, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        let at = <Sh as SliceAxis<A, crate::typed::size::Dyn>>::AT;
        let what = || (show::<A>(), self.view().shape_dyn());
        let layout = step_layout((self.sizes(), self.strides()), at, k, what)?;
        Ok(relaid_mut(self, layout))
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// [`TensorView::step`] on the tensor's view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(D);
    /// let t = Tensor::<i32, shape![D: 4]>::from_vec(vec![1, 2, 3, 4])?;
    /// assert_eq!(t.step::<D>(3)?.to_tensor().data(), &[1, 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step<A>(&self, k: usize) -> Result<TensorView<'_, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        self.view().step::<A>(k)
    }
}

impl<T: Clone> DynTensor<T> {
    /// Every `k`-th element along the axis `axis` picks, from its first, its name kept (a
    /// copy); a step of 0 is an error.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[T: 5]".parse()?, vec![1, 2, 3, 4, 5])?;
    /// assert_eq!(t.step(&"T".parse()?, 2)?.data(), &[1, 3, 5]);
    /// assert_eq!(t.step(&"T".parse()?, 2)?.shape().to_string(), "[T: 3]");
    /// assert!(t.step(&"T".parse()?, 0).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step(&self, axis: &AxisSelector, k: usize) -> Result<DynTensor<T>, Error> {
        let at = rt::find("step", self.shape(), axis)?;
        let own = crate::engine::layout::row_major(self.sizes());
        let what = || (axis.to_string(), self.shape().clone());
        let (offset, sizes, strides) = step_layout((self.sizes(), &own), at, k, what)?;
        let shape = rt::slice(self.shape(), axis, Some(sizes[at]))?;
        DynTensor::from_vec(shape, gather(self.data(), offset, &sizes, &strides))
    }
}
