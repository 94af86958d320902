//! Split one axis into several (rule book §18): a view (a copy for `DynTensor`).

use super::*;

/// The parts' sizes for a split of an axis of size `n`: the static ones, and the `?` one
/// (at most one) found as the quotient.
pub(super) fn part_sizes(op: &str, parts: &[Option<usize>], n: usize) -> Result<Vec<usize>, Error> {
    let refuse = |reason: String| Error::Surgery {
        op: op.to_string(),
        reason,
    };
    let known = parts
        .iter()
        .flatten()
        .try_fold(1usize, |acc, &p| acc.checked_mul(p))
        .ok_or_else(|| refuse(format!("the parts' sizes multiply past {}", usize::MAX)))?;
    let unknown = parts.iter().filter(|p| p.is_none()).count();
    let fill = match unknown {
        0 if known == n => 0,
        0 => {
            return Err(refuse(format!(
                "the parts hold {known} elements, the axis {n}"
            )))
        }
        1 if known != 0 && n.is_multiple_of(known) => n / known,
        1 => {
            return Err(refuse(format!(
                "the static parts ({known} elements) do not divide the axis' size {n}"
            )))
        }
        _ => {
            return Err(refuse(
                "two parts have sizes known only at run time: give all but one".to_string(),
            ))
        }
    };
    Ok(parts.iter().map(|p| p.unwrap_or(fill)).collect())
}

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// The axis `A` picks split into the axes `P` (a tuple such as `(PH<S<8>>, H4<S<4>>)`,
    /// the last part varying fastest, as NumPy's `reshape`): always a view. Static sizes that
    /// do not multiply to the axis' size are a compile error; with a `?` among them the check
    /// runs here, and one `?` part is found as the quotient.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(HW, H, W);
    /// let t = Tensor::<i32, shape![HW: 6]>::from_vec(vec![0, 1, 2, 3, 4, 5])?;
    /// let v = t.view().split_axis::<HW, (H<S<2>>, W)>()?; // W is found: 3
    /// assert_eq!((v.sizes(), *v.at(&[1, 0])?), (&[2, 3][..], 3));
    /// assert!(t.view().split_axis::<HW, (H<S<4>>, W)>().is_err()); // 4 does not divide 6
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn split_axis<A, P>(&self) -> Result<TensorView<'a, T, SplitAxis<Sh, A, P>>, Error>
    where
        Sh: SplitAxisInto<A, P>,
        A: OneAxis,
        P: Shape,
    {
        let k = <Sh as SplitAxisInto<A, P>>::AT;
        let op = format!(
            "split {} of {} into {}",
            show::<A>(),
            self.shape_dyn(),
            P::to_dyn()
        );
        let parts = part_sizes(&op, P::SIZES, self.sizes()[k])?;
        let (data, mut sizes, mut strides) = (*self).into_parts();
        let step = strides[k];
        let mut inner = step;
        let mut part_strides = vec![0; parts.len()];
        for (j, &n) in parts.iter().enumerate().rev() {
            part_strides[j] = inner;
            // Past the outermost part the product is unused, and for an empty tensor with a
            // huge axis it may exceed `usize`.
            inner = inner.saturating_mul(n);
        }
        sizes.splice(k..=k, parts);
        strides.splice(k..=k, part_strides);
        Ok(TensorView::from_parts(data, sizes, strides))
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// [`TensorView::split_axis`] on the tensor's view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(HW, H, W);
    /// let t = Tensor::<i32, shape![HW: 6]>::from_vec(vec![0, 1, 2, 3, 4, 5])?;
    /// assert_eq!(*t.split_axis::<HW, (H<S<3>>, W<S<2>>)>()?.at(&[2, 1])?, 5);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn split_axis<A, P>(&self) -> Result<TensorView<'_, T, SplitAxis<Sh, A, P>>, Error>
    where
        Sh: SplitAxisInto<A, P>,
        A: OneAxis,
        P: Shape,
    {
        self.view().split_axis::<A, P>()
    }
}

impl<T: Clone> DynTensor<T> {
    /// The axis `axis` picks split into the axes of `parts` (one may be `?`: the quotient);
    /// the data is untouched.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[HW: 6]".parse()?, vec![0, 1, 2, 3, 4, 5])?;
    /// let s = t.split_axis(&"HW".parse()?, &"[H: 2, W]".parse()?)?;
    /// assert_eq!(s.shape().to_string(), "[H: 2, W: 3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn split_axis(&self, axis: &AxisSelector, parts: &DynShape) -> Result<DynTensor<T>, Error> {
        let shape = rt::split_axis(self.shape(), axis, parts)?;
        let k = rt::find("split", self.shape(), axis)?;
        let op = format!("split {axis} of {} into {parts}", self.shape());
        let want: Vec<Option<usize>> = parts
            .axes()
            .iter()
            .map(|a| match a.size {
                Size::Known(n) => Some(n),
                Size::Unknown => None,
            })
            .collect();
        let found = part_sizes(&op, &want, self.sizes()[k])?;
        let mut sizes = self.sizes().to_vec();
        sizes.splice(k..=k, found);
        DynTensor::from_vec(shape.resolve(&sizes)?, self.data().to_vec())
    }
}
