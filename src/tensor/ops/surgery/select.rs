//! Select one index of an axis, and slice a window of it (rule book §18): views on the same data (a
//! copy for `DynTensor`).

use super::*;

/// A strided layout: the offset of its first element, its sizes and its strides.
pub(super) type Layout = (usize, Vec<usize>, Vec<usize>);

/// A range's bounds within `0..len`, or `None` when they do not fit.
pub(super) fn bounds(range: &impl RangeBounds<usize>, len: usize) -> Option<Range<usize>> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e.checked_add(1)?,
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    (start <= end && end <= len).then_some(start..end)
}

/// A range for messages.
pub(super) fn shown(range: &impl RangeBounds<usize>) -> String {
    let start = match range.start_bound() {
        Bound::Included(s) => s.to_string(),
        Bound::Excluded(s) => s
            .checked_add(1)
            .map_or_else(|| format!("past {s}"), |v| v.to_string()),
        Bound::Unbounded => String::new(),
    };
    let end = match range.end_bound() {
        Bound::Included(e) => format!("={e}"),
        Bound::Excluded(e) => e.to_string(),
        Bound::Unbounded => String::new(),
    };
    format!("{start}..{end}")
}

/// Index `i` of axis `k` of a layout, the axis removed; or the refusal. `what` gives the
/// selector and the shape as the message names them (only on the error path).
pub(super) fn pick_layout(
    (sizes, strides): (&[usize], &[usize]),
    k: usize,
    i: usize,
    what: impl FnOnce() -> (String, DynShape),
) -> Result<Layout, Error> {
    if i >= sizes[k] {
        let (sel, shape) = what();
        return Err(Error::Surgery {
            op: format!("select index {i} along {sel} of {shape}"),
            reason: format!("axis {k} has size {}", sizes[k]),
        });
    }
    let (mut sizes, mut strides) = (sizes.to_vec(), strides.to_vec());
    // Saturating: it overflows only for a view with no element, which reads nothing (a view
    // with elements has them in memory, below `usize::MAX`); `from_offset` then gives `[]`.
    let offset = i.saturating_mul(strides[k]);
    sizes.remove(k);
    strides.remove(k);
    Ok((offset, sizes, strides))
}

/// The window `range` of axis `k` of a layout; or the refusal (`what` as for
/// [`pick_layout`]).
pub(super) fn window_layout(
    (sizes, strides): (&[usize], &[usize]),
    k: usize,
    range: &impl RangeBounds<usize>,
    what: impl FnOnce() -> (String, DynShape),
) -> Result<Layout, Error> {
    let Some(r) = bounds(range, sizes[k]) else {
        let (sel, shape) = what();
        return Err(Error::Surgery {
            op: format!("slice {sel} of {shape} to {}", shown(range)),
            reason: format!("axis {k} has size {}", sizes[k]),
        });
    };
    let offset = if r.is_empty() {
        0
    } else {
        // As in `pick_layout`: saturating only where nothing is read.
        r.start.saturating_mul(strides[k])
    };
    let mut sizes = sizes.to_vec();
    sizes[k] = r.len();
    Ok((offset, sizes, strides.to_vec()))
}

/// The data from `offset` on; empty when the offset lies past it, which only a view with an
/// axis of size 0 (reading or writing nothing) can ask.
pub(super) fn from_offset<T>(data: &[T], offset: usize) -> &[T] {
    data.get(offset..).unwrap_or(&[])
}

/// The writable view `view`'s data laid out anew (`layout` from `view`'s own sizes and
/// strides): the data from the layout's offset on, empty past its end as in [`from_offset`].
pub(super) fn relaid_mut<'a, T, Sh: Shape, Out: Shape>(
    view: TensorViewMut<'a, T, Sh>,
    (offset, sizes, strides): Layout,
) -> TensorViewMut<'a, T, Out> {
    let (data, _, _) = view.into_parts();
    let data = if offset <= data.len() {
        &mut data[offset..]
    } else {
        &mut []
    };
    TensorViewMut::from_parts(data, sizes, strides)
}

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// Index `i` of the axis `A` picks, the axis removed: a view. An `A` that names no axis is
    /// a compile error; `i` past the axis' size is an error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(CHANNEL, H);
    /// let t = Tensor::<i32, shape![CHANNEL: 3, H: 2]>::from_vec(vec![1, 2, 3, 4, 5, 6])?;
    /// assert_eq!(t.view().select::<CHANNEL>(1)?.to_tensor().data(), &[3, 4]);
    /// assert!(t.view().select::<CHANNEL>(3).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn select<A>(&self, i: usize) -> Result<TensorView<'a, T, Select<Sh, A>>, Error>
    where
        Sh: SelectAxis<A>,
        A: OneAxis,
    {
        let k = <Sh as SelectAxis<A>>::AT;
        let what = || (show::<A>(), self.shape_dyn());
        let (offset, sizes, strides) = pick_layout((self.sizes(), self.strides()), k, i, what)?;
        Ok(TensorView::from_parts(
            from_offset(self.data_slice(), offset),
            sizes,
            strides,
        ))
    }

    /// The window `range` of the axis `A` picks, its name kept and its size `?`: a view. A
    /// range past the axis' size is an error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T: 5, 2]>::from_fn(&[5, 2], |i| (i[0] * 10 + i[1]) as i32)?;
    /// let w = t.view().slice::<T>(1..3)?;
    /// assert_eq!(w.to_tensor().data(), &[10, 11, 20, 21]);
    /// assert!(t.view().slice::<T>(4..6).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice<A>(
        &self,
        range: impl RangeBounds<usize>,
    ) -> Result<TensorView<'a, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        let k = <Sh as SliceAxis<A, crate::typed::size::Dyn>>::AT;
        self.window::<A, _>(k, &range)
    }

    /// The window of static length `Z` (`S<N>`) starting at `start` along the axis `A`
    /// picks: a view whose axis has the static size `N`. A window longer than a static axis
    /// is a compile error; one that runs past the axis is an error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, TensorView, S};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T, 2]>::from_fn(&[5, 2], |i| (i[0] * 10 + i[1]) as i32)?;
    /// let w: TensorView<'_, i32, shape![T: 2, 2]> = t.view().slice_to::<T, S<2>>(3)?;
    /// assert_eq!(w.to_tensor().data(), &[30, 31, 40, 41]);
    /// assert!(t.view().slice_to::<T, S<2>>(4).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice_to<A, Z: StaticSize>(
        &self,
        start: usize,
    ) -> Result<TensorView<'a, T, SliceTo<Sh, A, Z>>, Error>
    where
        Sh: SliceAxis<A, Z>,
        A: OneAxis,
    {
        let k = <Sh as SliceAxis<A, Z>>::AT;
        let end = start.saturating_add(Z::N);
        self.window::<A, _>(k, &(start..end))
    }

    /// The window `range` of axis `k` (picked by `A`), retyped.
    fn window<A: Selector, Out: Shape>(
        &self,
        k: usize,
        range: &impl RangeBounds<usize>,
    ) -> Result<TensorView<'a, T, Out>, Error> {
        let what = || (show::<A>(), self.shape_dyn());
        let (offset, sizes, strides) =
            window_layout((self.sizes(), self.strides()), k, range, what)?;
        Ok(TensorView::from_parts(
            from_offset(self.data_slice(), offset),
            sizes,
            strides,
        ))
    }
}

impl<'a, T, Sh: Shape> TensorViewMut<'a, T, Sh> {
    /// Index `i` of the axis `A` picks, as a writable view without that axis (see
    /// [`TensorView::select`]): what writes one channel in place.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(CHANNEL, H);
    /// let mut t = Tensor::<i32, shape![CHANNEL: 3, H: 2]>::full(1)?;
    /// t.view_mut().select::<CHANNEL>(1)?.fill(0);
    /// assert_eq!(t.data(), &[1, 1, 0, 0, 1, 1]);
    /// assert!(t.view_mut().select::<CHANNEL>(3).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn select<A>(self, i: usize) -> Result<TensorViewMut<'a, T, Select<Sh, A>>, Error>
    where
        Sh: SelectAxis<A>,
        A: OneAxis,
    {
        let k = <Sh as SelectAxis<A>>::AT;
        let what = || (show::<A>(), self.view().shape_dyn());
        let layout = pick_layout((self.sizes(), self.strides()), k, i, what)?;
        Ok(relaid_mut(self, layout))
    }

    /// The window `range` of the axis `A` picks, as a writable view (see
    /// [`TensorView::slice`]).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let mut t = Tensor::<i32, shape![T: 5]>::full(0)?;
    /// t.view_mut().slice::<T>(1..3)?.fill(7);
    /// assert_eq!(t.data(), &[0, 7, 7, 0, 0]);
    /// assert!(t.view_mut().slice::<T>(4..6).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice<A>(
        self,
        range: impl RangeBounds<usize>,
    ) -> Result<TensorViewMut<'a, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        let k = <Sh as SliceAxis<A, crate::typed::size::Dyn>>::AT;
        let what = || (show::<A>(), self.view().shape_dyn());
        let layout = window_layout((self.sizes(), self.strides()), k, &range, what)?;
        Ok(relaid_mut(self, layout))
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// [`TensorView::select`] on the tensor's view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(CHANNEL);
    /// let t = Tensor::<i32, shape![?, CHANNEL: 3]>::from_vec_sized(&[2, 3], vec![1, 2, 3, 4, 5, 6])?;
    /// assert_eq!(t.select::<CHANNEL>(2)?.to_tensor().data(), &[3, 6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn select<A>(&self, i: usize) -> Result<TensorView<'_, T, Select<Sh, A>>, Error>
    where
        Sh: SelectAxis<A>,
        A: OneAxis,
    {
        self.view().select::<A>(i)
    }

    /// [`TensorView::slice`] on the tensor's view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T: 4]>::from_vec(vec![1, 2, 3, 4])?;
    /// assert_eq!(t.slice::<T>(2..)?.to_tensor().data(), &[3, 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice<A>(
        &self,
        range: impl RangeBounds<usize>,
    ) -> Result<TensorView<'_, T, Slice<Sh, A>>, Error>
    where
        Sh: SliceAxis<A, crate::typed::size::Dyn>,
        A: OneAxis,
    {
        self.view().slice::<A>(range)
    }

    /// [`TensorView::slice_to`] on the tensor's view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(T);
    /// let t = Tensor::<i32, shape![T: 4]>::from_vec(vec![1, 2, 3, 4])?;
    /// assert_eq!(t.slice_to::<T, S<3>>(1)?.to_tensor().data(), &[2, 3, 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice_to<A, Z: StaticSize>(
        &self,
        start: usize,
    ) -> Result<TensorView<'_, T, SliceTo<Sh, A, Z>>, Error>
    where
        Sh: SliceAxis<A, Z>,
        A: OneAxis,
    {
        self.view().slice_to::<A, Z>(start)
    }
}

/// The elements of `data` (row-major over `sizes`) at the offsets `strides` walk from
/// `offset`, in row-major order.
pub(super) fn gather<T: Clone>(
    data: &[T],
    offset: usize,
    sizes: &[usize],
    strides: &[usize],
) -> Vec<T> {
    Offsets::new(sizes, strides)
        .map(|o| data[offset + o].clone())
        .collect()
}

impl<T: Clone> DynTensor<T> {
    /// Index `i` of the axis `axis` picks, the axis removed (a copy).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[C: 3, H: 2]".parse()?, vec![1, 2, 3, 4, 5, 6])?;
    /// assert_eq!(t.select(&"C".parse()?, 1)?.data(), &[3, 4]);
    /// assert!(t.select(&"C".parse()?, 3).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn select(&self, axis: &AxisSelector, i: usize) -> Result<DynTensor<T>, Error> {
        let shape = rt::select(self.shape(), axis)?;
        let k = rt::find("select", self.shape(), axis)?;
        let own = crate::engine::layout::row_major(self.sizes());
        let what = || (axis.to_string(), self.shape().clone());
        let (offset, sizes, strides) = pick_layout((self.sizes(), &own), k, i, what)?;
        DynTensor::from_vec(shape, gather(self.data(), offset, &sizes, &strides))
    }

    /// The window `range` of the axis `axis` picks, its name kept (a copy).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[T: 4]".parse()?, vec![1, 2, 3, 4])?;
    /// assert_eq!(t.slice(&"T".parse()?, 1..3)?.data(), &[2, 3]);
    /// assert!(t.slice(&"T".parse()?, 3..5).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn slice(
        &self,
        axis: &AxisSelector,
        range: impl RangeBounds<usize>,
    ) -> Result<DynTensor<T>, Error> {
        let k = rt::find("slice", self.shape(), axis)?;
        let own = crate::engine::layout::row_major(self.sizes());
        let what = || (axis.to_string(), self.shape().clone());
        let (offset, sizes, strides) = window_layout((self.sizes(), &own), k, &range, what)?;
        let shape = rt::slice(self.shape(), axis, Some(sizes[k]))?;
        DynTensor::from_vec(shape, gather(self.data(), offset, &sizes, &strides))
    }
}
