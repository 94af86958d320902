//! Shape surgery on tensors and views (rule book §18): rename, insert an axis, select, slice,
//! split, merge, concatenate, stack. The output shapes come from `typed::surgery`, the
//! run-time shapes of [`DynTensor`]'s twins from `dynamic::surgery`.
//!
//! What copies and what does not:
//!
//! | operation | `Tensor` | `TensorView` | `DynTensor` |
//! |---|---|---|---|
//! | `rename`, `insert_axis` | no copy (the buffer moves) | no copy | no copy |
//! | `select`, `slice`, `slice_to`, `split_axis` | a view | a view (`select` and `slice` on a `TensorViewMut` too, for writing) | a copy |
//! | `merge_axes` | a view | a view when the merged axes are contiguous in memory, else a copy ([`Reshaped`]) | no copy |
//! | `concat`, `stack` | a new tensor | a new tensor | a new tensor |
//!
//! ```
//! use shapecast::{names, shape, Tensor, S};
//! names!(N, CHANNEL, H, W, PH, H4);
//! let img = Tensor::<f32, shape![?, CHANNEL: 3, H: 8, W: 8]>::from_fn(&[2, 3, 8, 8], |i| i[2] as f32)?;
//! let red = img.select::<CHANNEL>(0)?; // [?, H: 8, W: 8], a view
//! let top = red.slice::<H>(0..4)?; // [?, H, W: 8]
//! assert_eq!(top.sizes(), &[2, 4, 8]);
//! let parts = img.split_axis::<H, (PH<S<2>>, H4<S<4>>)>()?; // [?, CHANNEL: 3, PH: 2, H4: 4, W: 8]
//! assert_eq!(*parts.at(&[0, 0, 1, 3, 0])?, 7.0);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::ops::{Bound, Range, RangeBounds};

use super::dyn_tensor::DynTensor;
use super::strided::Offsets;
use super::typed::Tensor;
use super::view::{TensorView, TensorViewMut};
use crate::dynamic::reduce::AxisSelector;
use crate::dynamic::shape::{DynShape, Name, Size};
use crate::dynamic::surgery as rt;
use crate::error::Error;
use crate::typed::axis::Axis;
use crate::typed::reduce::{OneAxis, Selector};
use crate::typed::shape::Shape;
use crate::typed::size::{AxisSize, S};
use crate::typed::storage::Storage;
use crate::typed::surgery::{
    Concat, ConcatWith, InsertAxis, InsertAxisAt, MergeAxes, MergeAxesInto, Rename, RenameAxis,
    Select, SelectAxis, Slice, SliceAxis, SliceTo, SplitAxis, SplitAxisInto, Stack, StackUnder,
};

/// A static size, what [`slice_to`](TensorView::slice_to) takes: `S<N>`.
///
/// ```
/// use shapecast::{StaticSize, S};
/// assert_eq!(<S<10> as StaticSize>::N, 10);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static size",
    label = "a window of static length is written `S<N>`",
    note = "for a length known only at run time, call `slice` with a range"
)]
pub trait StaticSize: AxisSize {
    /// The size.
    const N: usize;
}
impl<const N: usize, B> StaticSize for S<N, B>
where
    S<N, B>: AxisSize,
{
    const N: usize = N;
}

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
            Reshaped::View(v) => v.clone(),
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

/// Checks run-time sizes against a shape type's static sizes.
fn fit<S: Shape>(what: &str, sizes: &[usize]) -> Result<(), Error> {
    let ok = sizes.len() == S::RANK
        && S::SIZES
            .iter()
            .zip(sizes)
            .all(|(s, &n)| s.is_none_or(|m| m == n));
    if ok {
        Ok(())
    } else {
        Err(Error::Surgery {
            op: what.to_string(),
            reason: format!("the sizes {sizes:?} do not fit {}", S::to_dyn()),
        })
    }
}

/// A range's bounds within `0..len`, or `None` when they do not fit.
fn bounds(range: &impl RangeBounds<usize>, len: usize) -> Option<Range<usize>> {
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
fn shown(range: &impl RangeBounds<usize>) -> String {
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

/// The parts' sizes for a split of an axis of size `n`: the static ones, and the `?` one
/// (at most one) found as the quotient.
fn part_sizes(op: &str, parts: &[Option<usize>], n: usize) -> Result<Vec<usize>, Error> {
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

/// A strided layout: the offset of its first element, its sizes and its strides.
type Layout = (usize, Vec<usize>, Vec<usize>);

/// Index `i` of axis `k` of a layout, the axis removed; or the refusal. `what` gives the
/// selector and the shape as the message names them (only on the error path).
fn pick_layout(
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
fn window_layout(
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
fn from_offset<T>(data: &[T], offset: usize) -> &[T] {
    data.get(offset..).unwrap_or(&[])
}

/// [`from_offset`] for writing.
fn from_offset_mut<T>(data: &mut [T], offset: usize) -> &mut [T] {
    if offset <= data.len() {
        &mut data[offset..]
    } else {
        &mut []
    }
}

/// Whether axes `range` of a layout walk memory with one stride (each stride is the next
/// one's times its size; axes of size 1 do not count).
fn mergeable(sizes: &[usize], strides: &[usize], range: Range<usize>) -> bool {
    let axes: Vec<usize> = range.filter(|&k| sizes[k] != 1).collect();
    axes.windows(2)
        .all(|w| strides[w[0]] == strides[w[1]] * sizes[w[1]])
}

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
        Sh: SliceAxis<A, crate::Dyn>,
        A: OneAxis,
    {
        let k = <Sh as SliceAxis<A, crate::Dyn>>::AT;
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
        let (data, mut sizes, mut strides) = self.clone().into_parts();
        let step = strides[k];
        let mut inner = step;
        let mut part_strides = vec![0; parts.len()];
        for (j, &n) in parts.iter().enumerate().rev() {
            part_strides[j] = inner;
            inner *= n;
        }
        sizes.splice(k..=k, parts);
        strides.splice(k..=k, part_strides);
        Ok(TensorView::from_parts(data, sizes, strides))
    }

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
        MergeAxes<Sh, L, N>: Storage<T>,
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
        let n = super::room::count(&self.sizes()[range.clone()]).ok_or_else(|| Error::Surgery {
            op: op(),
            reason: format!("their sizes' product overflows {}", usize::MAX),
        })?;
        if N::Size::SIZE.is_some_and(|m| m != n) {
            return Err(Error::Surgery {
                op: format!(
                    "merge {} axes of {} into {}",
                    c,
                    self.shape_dyn(),
                    show_axis::<N>()
                ),
                reason: format!("they hold {n} elements"),
            });
        }
        // A view with no element reads no memory: any strides merge (saturated ones included).
        if self.sizes().contains(&0) || mergeable(self.sizes(), self.strides(), range.clone()) {
            let (data, mut sizes, mut strides) = self.clone().into_parts();
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

    /// This view and `rhs` concatenated along the axis `A` picks (rule book §18): every other
    /// axis of `rhs` is aligned to this one's by name (unnamed axes by position) and must have
    /// the same size. The concatenated axis takes `A`'s size: `T<S<8>>` is checked against
    /// the sum (at compile time when both are static), a bare `T` gives `?`.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(T, F);
    /// let a = Tensor::<i32, shape![T: 1, F: 2]>::from_vec(vec![1, 2])?;
    /// let b = Tensor::<i32, shape![F: 2, T: 2]>::from_vec(vec![3, 5, 4, 6])?;
    /// let c = a.view().concat::<T<S<3>>, _>(&b.view())?;
    /// assert_eq!(c.data(), &[1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat<A, S2: Shape>(
        &self,
        rhs: &TensorView<'_, T, S2>,
    ) -> Result<Tensor<T, Concat<A, Sh, S2>>, Error>
    where
        Sh: ConcatWith<A, S2>,
        Concat<A, Sh, S2>: Storage<T>,
        A: OneAxis,
        T: Clone,
    {
        let k = <Sh as ConcatWith<A, S2>>::AT;
        let (first, other) = (self.shape_dyn(), rhs.shape_dyn());
        let op = format!("concatenate {first}, {other} along {}", show::<A>());
        let map = rt::aligned(&op, &first, &other)?;
        let aligned = TensorView::<T, Sh>::from_parts(
            rhs.data_slice(),
            map.iter().map(|&j| rhs.sizes()[j]).collect(),
            map.iter().map(|&j| rhs.strides()[j]).collect(),
        );
        let mut sizes = self.sizes().to_vec();
        for (j, (&a, &b)) in self.sizes().iter().zip(aligned.sizes()).enumerate() {
            if j != k && a != b {
                return Err(Error::Surgery {
                    op,
                    reason: format!("axis {j} has size {a} on the left and {b} on the right"),
                });
            }
        }
        sizes[k] = sizes[k]
            .checked_add(aligned.sizes()[k])
            .ok_or_else(|| Error::Surgery {
                op: op.clone(),
                reason: format!("the sizes along axis {k} add up past {}", usize::MAX),
            })?;
        fit::<Concat<A, Sh, S2>>(&op, &sizes)?;
        let data = interleave(&[self.clone(), aligned], k)?;
        Ok(Tensor::from_parts(&sizes, data))
    }

    /// The view's data, sizes and strides.
    fn into_parts(self) -> (&'a [T], Vec<usize>, Vec<usize>) {
        let data = self.data_slice();
        let (sizes, strides) = (self.sizes().to_vec(), self.strides().to_vec());
        (data, sizes, strides)
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
        let (offset, sizes, strides) = pick_layout((self.sizes(), self.strides()), k, i, what)?;
        let (data, _, _) = self.into_parts();
        Ok(TensorViewMut::from_parts(
            from_offset_mut(data, offset),
            sizes,
            strides,
        ))
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
        Sh: SliceAxis<A, crate::Dyn>,
        A: OneAxis,
    {
        let k = <Sh as SliceAxis<A, crate::Dyn>>::AT;
        let what = || (show::<A>(), self.view().shape_dyn());
        let (offset, sizes, strides) =
            window_layout((self.sizes(), self.strides()), k, &range, what)?;
        let (data, _, _) = self.into_parts();
        Ok(TensorViewMut::from_parts(
            from_offset_mut(data, offset),
            sizes,
            strides,
        ))
    }
}

/// The elements of views that agree on every axis but `k`, concatenated along `k`: for each
/// index of the axes before `k`, each view's block in turn. A result with no element is
/// empty at once (no loop over the indices of the axes before `k`); one too large to exist
/// is [`Error::TooLarge`].
fn interleave<T: Clone, Sh: Shape>(
    views: &[TensorView<'_, T, Sh>],
    k: usize,
) -> Result<Vec<T>, Error> {
    let Some(first) = views.first() else {
        return Ok(Vec::new());
    };
    // The views' type may be a stand-in (`DynTensor::concat` uses `()`): the sizes say it.
    let shape = || DynShape::from_sizes(first.sizes()).unwrap_or_default();
    let too_many = || Error::TooManyElements { shape: shape() };
    let outer = super::room::count(&first.sizes()[..k]).ok_or_else(too_many)?;
    let blocks = views
        .iter()
        .map(|v| super::room::count(&v.sizes()[k..]))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(too_many)?;
    let per = blocks
        .iter()
        .try_fold(0usize, |acc, &n| acc.checked_add(n))
        .ok_or_else(too_many)?;
    let mut out = super::room::vec_for::<T>(&[outer, per], shape)?;
    if outer == 0 || per == 0 {
        return Ok(out);
    }
    let mut iters: Vec<_> = views.iter().map(|v| v.iter()).collect();
    for _ in 0..outer {
        for (it, &n) in iters.iter_mut().zip(&blocks) {
            out.extend(it.by_ref().take(n).cloned());
        }
    }
    Ok(out)
}

/// A selector for messages.
fn show<A: Selector>() -> String {
    A::selectors()
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An axis for messages: its name, or "an unnamed axis".
fn show_axis<N: Axis>() -> String {
    N::NAME.map_or_else(|| "an unnamed axis".to_string(), str::to_string)
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
        Rename<Sh, A, B>: Storage<T>,
    {
        let sizes = self.sizes().to_vec();
        Tensor::from_parts(&sizes, self.into_vec())
    }

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
        InsertAxis<Sh, K, N>: Storage<T>,
    {
        let mut sizes = self.sizes().to_vec();
        sizes.insert(K, 1);
        Tensor::from_parts(&sizes, self.into_vec())
    }

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
        Sh: SliceAxis<A, crate::Dyn>,
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
        MergeAxes<Sh, L, N>: Storage<T>,
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

    /// [`TensorView::concat`] on the tensors' views.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T, F);
    /// let a = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![1, 2])?;
    /// let b = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![3, 4])?;
    /// assert_eq!(a.concat::<T, _>(&b)?.shape().to_string(), "[T: 2, F: 2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat<A, S2: Storage<T>>(
        &self,
        rhs: &Tensor<T, S2>,
    ) -> Result<Tensor<T, Concat<A, Sh, S2>>, Error>
    where
        Sh: ConcatWith<A, S2>,
        Concat<A, Sh, S2>: Storage<T>,
        A: OneAxis,
        T: Clone,
    {
        self.view().concat::<A, S2>(&rhs.view())
    }
}

/// Views of one shape type concatenated along the axis `A` picks (rule book §18): the sizes
/// along it add up, every other size must agree; the axis' size is `?` in the type.
///
/// ```
/// use shapecast::{concat, names, shape, Tensor};
/// names!(T, F);
/// let a = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![1, 2])?;
/// let b = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[2, 2], vec![3, 4, 5, 6])?;
/// let c = concat::<T, _, _>(&[a.view(), b.view(), a.view()])?;
/// assert_eq!(c.shape().to_string(), "[T: 4, F: 2]");
/// assert_eq!(c.data(), &[1, 2, 3, 4, 5, 6, 1, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn concat<A, T: Clone, Sh>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<Tensor<T, Slice<Sh, A>>, Error>
where
    Sh: SliceAxis<A, crate::Dyn>,
    Slice<Sh, A>: Storage<T>,
    A: OneAxis,
{
    let k = <Sh as SliceAxis<A, crate::Dyn>>::AT;
    let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape_dyn()).collect();
    let out = rt::concat(&A::selectors()[0], &shapes)?;
    // Every part has concrete sizes, and `rt::concat` refuses a sum past `usize::MAX`.
    let sizes = out
        .known_sizes()
        .expect("concrete shapes concatenate to a concrete shape");
    Ok(Tensor::from_parts(&sizes, interleave(parts, k)?))
}

/// Views of one shape stacked under a new leading axis named `N` (or
/// [`Unnamed`](crate::Unnamed)) whose size is their count (`?` in the type); their sizes must
/// agree.
///
/// ```
/// use shapecast::{names, shape, stack, Tensor};
/// names!(N, H);
/// let a = Tensor::<i32, shape![H: 2]>::from_vec(vec![1, 2])?;
/// let b = Tensor::<i32, shape![H: 2]>::from_vec(vec![3, 4])?;
/// let s = stack::<N, _, _>(&[a.view(), b.view(), a.view()])?;
/// assert_eq!(s.shape().to_string(), "[N: 3, H: 2]");
/// assert_eq!(s.data(), &[1, 2, 3, 4, 1, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack<N, T: Clone, Sh>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<Tensor<T, Stack<N, Sh>>, Error>
where
    Sh: StackUnder<N>,
    Stack<N, Sh>: Storage<T>,
    N: Axis,
{
    let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape_dyn()).collect();
    let name = N::NAME.map(|n| Name::new(n).expect("names! declares identifiers"));
    let out = rt::stack(name.as_ref(), &shapes)?;
    let sizes = out
        .known_sizes()
        .expect("concrete shapes stack to a concrete shape");
    let data = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    Ok(Tensor::from_parts(&sizes, data))
}

/// The elements of `data` (row-major over `sizes`) at the offsets `strides` walk from
/// `offset`, in row-major order.
fn gather<T: Clone>(data: &[T], offset: usize, sizes: &[usize], strides: &[usize]) -> Vec<T> {
    Offsets::new(sizes, strides)
        .map(|o| data[offset + o].clone())
        .collect()
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
        let own = super::kernel::row_major(self.sizes());
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
        let own = super::kernel::row_major(self.sizes());
        let what = || (axis.to_string(), self.shape().clone());
        let (offset, sizes, strides) = window_layout((self.sizes(), &own), k, &range, what)?;
        let shape = rt::slice(self.shape(), axis, Some(sizes[k]))?;
        DynTensor::from_vec(shape, gather(self.data(), offset, &sizes, &strides))
    }

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

    /// Tensors concatenated along the axis `axis` picks in the first, the others aligned to
    /// it by name (unnamed axes by position).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[T: 1, F: 2]".parse()?, vec![1, 2])?;
    /// let b = DynTensor::from_vec("[F: 2, T: 2]".parse()?, vec![3, 5, 4, 6])?;
    /// let c = DynTensor::concat(&"T".parse()?, &[&a, &b])?;
    /// assert_eq!((c.shape().to_string(), c.data()), ("[T: 3, F: 2]".to_string(), &[1, 2, 3, 4, 5, 6][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat(axis: &AxisSelector, parts: &[&DynTensor<T>]) -> Result<DynTensor<T>, Error> {
        let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape().clone()).collect();
        let shape = rt::concat(axis, &shapes)?;
        let Some(first) = parts.first() else {
            return DynTensor::from_vec(shape, Vec::new());
        };
        let k = rt::find("concatenate", first.shape(), axis)?;
        let views: Vec<TensorView<'_, T, ()>> = parts
            .iter()
            .map(|p| {
                let map = rt::aligned("concatenate", first.shape(), p.shape())?;
                let own = super::kernel::row_major(p.sizes());
                Ok(TensorView::from_parts(
                    p.data(),
                    map.iter().map(|&j| p.sizes()[j]).collect(),
                    map.iter().map(|&j| own[j]).collect(),
                ))
            })
            .collect::<Result<_, Error>>()?;
        DynTensor::from_vec(shape, interleave(&views, k)?)
    }

    /// Tensors of one shape stacked under a new leading axis named `name` (or unnamed)
    /// whose size is their count.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[H: 2]".parse()?, vec![1, 2])?;
    /// let s = DynTensor::stack(Some(&"N".parse()?), &[&a, &a])?;
    /// assert_eq!((s.shape().to_string(), s.data()), ("[N: 2, H: 2]".to_string(), &[1, 2, 1, 2][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn stack(name: Option<&Name>, parts: &[&DynTensor<T>]) -> Result<DynTensor<T>, Error> {
        let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape().clone()).collect();
        let shape = rt::stack(name, &shapes)?;
        let data = parts
            .iter()
            .flat_map(|p| p.data().iter().cloned())
            .collect();
        DynTensor::from_vec(shape, data)
    }
}
