//! Merge adjacent axes into one (rule book §18): a view when the axes are contiguous in memory
//! ([`Reshaped`]).

use super::*;

/// The result of merging axes of a view: a view when the merged axes are contiguous in memory
/// (one stride walks all of them), else a contiguous copy.
///
/// ```
/// use shapecast::{names, shape, Reshaped, Tensor, Unnamed};
/// names!(H, W);
/// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![1, 2, 3, 4, 5, 6])?;
/// let flat = t.view().merge_axes::<(H, W), Unnamed>()?;
/// assert!(flat.is_view());
/// let transposed = t.view().align_to::<shape![W: 3, H: 2]>()?;
/// let flat = transposed.merge_axes::<(W, H), Unnamed>()?;
/// assert!(!flat.is_view());
/// assert_eq!(flat.view().to_tensor().data(), &[1, 4, 2, 5, 3, 6]);
/// # Ok::<(), shapecast::Error>(())
/// ```
// A view holds its layout inline (a few hundred bytes): returned once per merge, not boxed.
#[allow(clippy::large_enum_variant)]
pub enum Reshaped<'a, T, S: Storage<T>> {
    /// A view of the original data.
    View(TensorView<'a, T, S>),
    /// A contiguous copy.
    Copied(Tensor<T, S>),
}

impl<'a, T, S: Storage<T>> Reshaped<'a, T, S> {
    /// A view of the result (of the copy, for [`Reshaped::Copied`]).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, Unnamed};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::full(1)?;
    /// assert_eq!(t.view().merge_axes::<(H, W), Unnamed>()?.view().sizes(), &[6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn view(&self) -> TensorView<'_, T, S> {
        match self {
            Reshaped::View(v) => *v,
            Reshaped::Copied(t) => t.view(),
        }
    }

    /// Whether no data was copied.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, Unnamed};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::full(1)?;
    /// assert!(t.view().merge_axes::<(H, W), Unnamed>()?.is_view());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn is_view(&self) -> bool {
        matches!(self, Reshaped::View(_))
    }

    /// The result as an owned, contiguous tensor (copying a view).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, Unnamed};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![1, 2, 3, 4, 5, 6])?;
    /// let flat = t.view().merge_axes::<(H, W), Unnamed>()?.into_tensor();
    /// assert_eq!(flat.data(), &[1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_tensor(self) -> Tensor<T, S>
    where
        T: Clone,
    {
        match self {
            Reshaped::View(v) => v.to_tensor(),
            Reshaped::Copied(t) => t,
        }
    }
}

/// Whether axes `range` of a layout walk memory with one stride (each stride is the next
/// one's times its size; axes of size 1 do not count).
pub(super) fn mergeable(sizes: &[usize], strides: &[usize], range: Range<usize>) -> bool {
    let axes: Vec<usize> = range.filter(|&k| sizes[k] != 1).collect();
    axes.windows(2)
        .all(|w| strides[w[0]] == strides[w[1]] * sizes[w[1]])
}

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// The adjacent axes `L` picks (a tuple, in order) merged into the axis `N`: a name with
    /// the merged size (`PATCH<S<64>>`), a bare name (the product when the merged sizes are
    /// static, else `?`), or
    /// [`Unnamed`](crate::Unnamed). A view when the merged axes walk memory with one stride,
    /// else a contiguous copy ([`Reshaped`]). Axes out of order or apart, and a static size
    /// that is not the product, are compile errors; a `?` among them is checked here.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(H, W, HW);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![0, 1, 2, 3, 4, 5])?;
    /// let flat = t.view().merge_axes::<(H, W), HW<S<6>>>()?;
    /// assert!(flat.is_view());
    /// assert_eq!(flat.view().to_tensor().data(), &[0, 1, 2, 3, 4, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn merge_axes<L, N>(&self) -> Result<Reshaped<'a, T, MergeAxes<Sh, L, N>>, Error>
    where
        Sh: MergeAxesInto<L, N>,
        L: Selector,
        N: Axis,
        T: Clone,
    {
        let k = <Sh as MergeAxesInto<L, N>>::AT;
        let c = <Sh as MergeAxesInto<L, N>>::COUNT;
        let range = k..k + c;
        let op = || {
            format!(
                "merge {} axes of {} into {}",
                c,
                self.shape_dyn(),
                show_axis::<N>()
            )
        };
        let n =
            crate::engine::allocation::count(&self.sizes()[range.clone()]).ok_or_else(|| {
                Error::Surgery {
                    op: op(),
                    reason: format!("their sizes' product overflows {}", usize::MAX),
                }
            })?;
        if N::Size::SIZE.is_some_and(|m| m != n) {
            return Err(Error::Surgery {
                op: op(),
                reason: format!("they hold {n} elements"),
            });
        }
        // A view with no element reads no memory: any strides merge (saturated ones included).
        if self.sizes().contains(&0) || mergeable(self.sizes(), self.strides(), range.clone()) {
            let (data, mut sizes, mut strides) = (*self).into_parts();
            let inner = (k..k + c)
                .rev()
                .find(|&j| sizes[j] != 1)
                .map_or(1, |j| strides[j]);
            sizes.splice(range.clone(), [n]);
            strides.splice(range, [inner]);
            return Ok(Reshaped::View(TensorView::from_parts(data, sizes, strides)));
        }
        let mut sizes = self.sizes().to_vec();
        sizes.splice(range, [n]);
        let data: Vec<T> = self.iter().cloned().collect();
        Ok(Reshaped::Copied(Tensor::from_parts(&sizes, data)))
    }
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// The adjacent axes `L` merged into the axis `N` (see [`TensorView::merge_axes`]): a
    /// tensor's axes are contiguous, so this is always a view.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(H, W, HW);
    /// let t = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![0, 1, 2, 3, 4, 5])?;
    /// assert_eq!(t.merge_axes::<(H, W), HW<S<6>>>()?.sizes(), &[6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn merge_axes<L, N>(&self) -> Result<TensorView<'_, T, MergeAxes<Sh, L, N>>, Error>
    where
        Sh: MergeAxesInto<L, N>,
        L: Selector,
        N: Axis,
        T: Clone,
    {
        match self.view().merge_axes::<L, N>()? {
            Reshaped::View(v) => Ok(v),
            // A tensor is row-major, so its adjacent axes merge as a view; with no element
            // `TensorView::merge_axes` makes a view whatever the strides.
            Reshaped::Copied(_) => unreachable!("a tensor's axes are contiguous"),
        }
    }
}

impl<T: Clone> DynTensor<T> {
    /// The adjacent axes `axes` (in order) merged into one named `into` (or unnamed); the
    /// data is untouched.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::full("[B: 2, H: 3, W: 4]".parse()?, 0)?;
    /// let m = t.merge_axes(&["H".parse()?, "W".parse()?], Some(&"HW".parse()?))?;
    /// assert_eq!(m.shape().to_string(), "[B: 2, HW: 12]");
    /// assert!(t.merge_axes(&["W".parse()?, "H".parse()?], None).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn merge_axes(
        &self,
        axes: &[AxisSelector],
        into: Option<&Name>,
    ) -> Result<DynTensor<T>, Error> {
        let shape = rt::merge_axes(self.shape(), axes, into)?;
        DynTensor::from_vec(shape, self.data().to_vec())
    }
}
