//! Pooling on data (rule book §20; the shape comes from
//! [`dynamic::pool`](crate::dynamic::pool)): `max_pool` and `avg_pool` over named axes, on
//! typed tensors and views (output sizes computed at compile time) and on `DynTensor`. Each
//! pooled axis' windows are worked out here; the engine's [`pool_axes`] folds them one axis
//! at a time over a row-major input (a strided view is gathered first).

use crate::alloc_prelude::*;

use num_traits::Float;

use crate::dynamic::pool::{pool, PoolSpec, Pooled};
use crate::engine::conv_geometry::SideBySide;
use crate::engine::layout::Strided;
use crate::engine::pool::{pool_axes, pool_axis, Fold, Max, Mean, Windows};
use crate::engine::raw::max_pool_2x2_rows;
use crate::engine::split::{each_mut, piece_rows};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::pool::{PoolGeometry, PoolOver, Pooled as PooledShape};
use crate::typed::reduce::Selector;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;

/// A pool of `x` by the plan `p`: the output's sizes and data, row-major. The engine's
/// [`pool_axes`] folds one axis at a time (the last first) from each axis' windows, worked
/// out here. Every window holds an element of the input (padding is at most half the kernel,
/// and a ceil-mode window that would start in the padding is dropped).
fn pooled<T: Copy + Send + Sync>(
    p: &Pooled,
    spec: &PoolSpec,
    x: Strided<'_, T>,
    fold: &impl Fold<T>,
) -> Result<(Vec<usize>, Vec<T>), Error> {
    let mut sizes = x.sizes.to_vec();
    for &k in &p.axes {
        sizes[k] = out_len(x.sizes[k], spec);
    }
    let shape = || p.shape.resolve(&sizes).unwrap_or_else(|_| p.shape.clone());
    if crate::engine::allocation::ensure::<T>(&sizes, shape)? == 0 {
        // An empty output (a kept axis of size 0, whatever the others' sizes).
        return Ok((sizes, Vec::new()));
    }
    // A row-major input is read in place; a strided view is gathered first.
    let gathered;
    let cur: &[T] = if crate::engine::layout::row_major(x.sizes) == x.strides {
        x.data
    } else {
        gathered = contiguous(&x);
        &gathered
    };
    let axes: Vec<_> = (p.axes.iter().rev())
        .map(|&k| (k, windows(x.sizes[k], sizes[k], spec)))
        .collect();
    Ok((sizes, pool_axes(cur, x.sizes, &axes, fold)))
}

/// The elements of `x` in row-major order.
fn contiguous<T: Copy>(x: &Strided<'_, T>) -> Vec<T> {
    crate::engine::walk::Offsets::new(x.sizes, x.strides)
        .map(|o| x.data[o])
        .collect()
}

/// Each of the `m` output positions' window inside an axis of `n`: its first and past-last
/// input positions, and its divisor.
fn windows(n: usize, m: usize, spec: &PoolSpec) -> Windows {
    let cells = (0..m)
        .map(|j| {
            let start = (j * spec.stride) as isize - spec.padding as isize;
            let end = (start + spec.kernel as isize).min((n + spec.padding) as isize);
            let (lo, hi) = (start.max(0) as usize, (end.min(n as isize)) as usize);
            let divisor = if spec.count_padding {
                (end - start) as usize
            } else {
                hi - lo
            };
            (lo, hi, divisor)
        })
        .collect();
    Windows {
        cells,
        stride: spec.stride,
    }
}

/// The gradient of a pool of `x` (row-major over `sizes`) over the axes `axes` whose output's
/// gradient is `gy`: through each axis' pool in reverse, the maximum's gradient to the first
/// maximum of its window (a NaN first), the average's spread over its window by the divisor.
/// The separable pool's own gradient, which for a box window is PyTorch's: its first maximum
/// in row-major order is the first row's holding the maximum, at that row's first.
pub(crate) fn pool_backward<T: Float + Send + Sync>(
    x: &[T],
    sizes: &[usize],
    axes: &[usize],
    spec: &PoolSpec,
    max: bool,
    gy: &[T],
) -> Vec<T> {
    // The forward pass's stages, last axis first: each stage's extents, windows and (the
    // maximum's only: the average's backward needs no values) output.
    let mut stages: Vec<Stage<T>> = Vec::new();
    let mut cur_sizes = sizes.to_vec();
    for &k in axes.iter().rev() {
        let outer: usize = cur_sizes[..k].iter().product();
        let inner: usize = cur_sizes[k + 1..].iter().product();
        let (n, m) = (cur_sizes[k], out_len(cur_sizes[k], spec));
        let windows = windows(n, m, spec);
        let pooled = max.then(|| {
            let before = stages.last().and_then(|s| s.pooled.as_deref()).unwrap_or(x);
            pool_axis(before, (outer, n, inner), &windows, &Max)
        });
        stages.push(Stage {
            outer,
            n,
            m,
            inner,
            windows,
            pooled,
        });
        cur_sizes[k] = m;
    }
    let mut g = gy.to_vec();
    // Undo the stages last first; each one's input values are `x` or the previous stage's
    // output, which only the maximum keeps (its search reads them).
    for (i, stage) in stages.iter().enumerate().rev() {
        let data = match i {
            0 => Some(x),
            _ => stages[i - 1].pooled.as_deref(),
        };
        let Stage {
            outer, n, inner, ..
        } = *stage;
        let mut gx = vec![T::zero(); outer * n * inner];
        // Each index of the axes before the pooled one owns its block of `gx`: blocks of
        // them split over the threads.
        let per = piece_rows(outer, outer * n * inner);
        let mut pieces: Vec<&mut [T]> = gx.chunks_mut((per * n * inner).max(1)).collect();
        each_mut(&mut pieces, |i, block| {
            stage.gradient((data, &g), (i * per, block), max);
        });
        g = gx;
    }
    g
}

/// One axis' pool in a pooled gradient: the extents around the axis, its length before
/// (`n`) and after (`m`) the pool, its windows, and (for a maximum) the values it output.
struct Stage<T> {
    outer: usize,
    n: usize,
    m: usize,
    inner: usize,
    windows: Windows,
    pooled: Option<Vec<T>>,
}

impl<T: Float> Stage<T> {
    /// The gradient `dst` of this stage's input for the indices `first..` of the axes before
    /// the pooled one (a block of whole `n × inner` slabs of `gx`), from its output's
    /// gradient `g` and (for the maximum) its input values `data`: the maximum's to the
    /// first maximum of its window (a NaN first), the average's spread by the divisor.
    fn gradient(
        &self,
        (data, g): (Option<&[T]>, &[T]),
        (first, dst): (usize, &mut [T]),
        max: bool,
    ) {
        let (n, m, inner) = (self.n, self.m, self.inner);
        let (mut best, mut at) = (vec![T::zero(); inner], vec![0usize; inner]);
        for (o, dst) in (first..).zip(dst.chunks_exact_mut(n * inner)) {
            let src = data.map_or(&[][..], |d| &d[o * n * inner..(o + 1) * n * inner]);
            let g_rows = &g[o * m * inner..(o + 1) * m * inner];
            for (&(lo, hi, divisor), gj) in
                self.windows.cells.iter().zip(g_rows.chunks_exact(inner))
            {
                if max && inner == 1 {
                    // The last axis: one window a scalar search.
                    let mut a = lo;
                    for t in lo + 1..hi {
                        let (v, b) = (src[t], src[a]);
                        if v > b || (v.is_nan() && !b.is_nan()) {
                            a = t;
                        }
                    }
                    dst[a] = dst[a] + gj[0];
                } else if max {
                    // Each inner position's first maximum over the window (a NaN first).
                    best.copy_from_slice(&src[lo * inner..(lo + 1) * inner]);
                    at.iter_mut().for_each(|a| *a = lo);
                    for t in lo + 1..hi {
                        let row = &src[t * inner..(t + 1) * inner];
                        for ((b, a), &v) in best.iter_mut().zip(at.iter_mut()).zip(row) {
                            if v > *b || (v.is_nan() && !b.is_nan()) {
                                (*b, *a) = (v, t);
                            }
                        }
                    }
                    for (i, (&a, &gv)) in at.iter().zip(gj).enumerate() {
                        dst[a * inner + i] = dst[a * inner + i] + gv;
                    }
                } else {
                    let share = T::from(divisor).map_or_else(T::nan, T::recip);
                    for t in lo..hi {
                        for (d, &gv) in dst[t * inner..(t + 1) * inner].iter_mut().zip(gj) {
                            *d = *d + gv * share;
                        }
                    }
                }
            }
        }
    }
}

/// A maximum pool over the last two axes of `x` (an image's rows and columns) with where each
/// maximum is: the output's sizes, for each output cell the input position of its window's
/// first maximum in row-major order (a NaN first), the one PyTorch's
/// `max_pool2d(return_indices=True)` gives, and the maxima.
pub(crate) fn max_pool_2d_argmax<T: Float + Send + Sync>(
    x: &[T],
    sizes: &[usize],
    spec: &PoolSpec,
) -> (Vec<usize>, Vec<usize>, Vec<T>) {
    let rank = sizes.len();
    let (h, w) = (sizes[rank - 2], sizes[rank - 1]);
    let (mh, mw) = (out_len(h, spec), out_len(w, spec));
    let outer: usize = sizes[..rank - 2].iter().product();
    let mut at_all = Vec::with_capacity(outer * mh * mw);
    let mut max_all = Vec::with_capacity(outer * mh * mw);
    // A larger value, or a NaN, replaces a number; nothing replaces a NaN.
    let better = |v: T, b: T| (v > b || v.is_nan()) && !b.is_nan();
    let two_by_two = (spec.kernel, spec.stride, spec.padding) == (2, 2, 0);
    if let Some(windows) = SideBySide::new((h, w), (mh, mw)).filter(|_| two_by_two) {
        // 2x2 windows side by side (the common pool): each pair of input rows by one
        // vectorised kernel; a row with a NaN window is settled again by the rule above.
        at_all.resize(outer * mh * mw, 0);
        max_all.resize(outer * mh * mw, T::zero());
        // Rows of windows split over threads (the `rayon` feature) in blocks of rows.
        let rows = outer * mh;
        let per = piece_rows(rows, rows * mw * 4);
        let block = |first: usize, ats: &mut [usize], maxs: &mut [T]| {
            let mut picks = vec![0u8; mw];
            let cells = ats.chunks_exact_mut(mw).zip(maxs.chunks_exact_mut(mw));
            for (row, (ats, maxs)) in (first..).zip(cells) {
                let top = windows.top(row);
                let (r0, r1) = (&x[top..top + 2 * mw], &x[top + w..top + w + 2 * mw]);
                let place = (&mut *ats, top, w);
                if max_pool_2x2_rows((r0, r1), (&mut *maxs, &mut picks), place) {
                    let quads = r0.chunks_exact(2).zip(r1.chunks_exact(2));
                    for (j, ((p, q), (at, max))) in quads.zip(ats.iter_mut().zip(maxs)).enumerate()
                    {
                        let (mut k, mut m) = (0, p[0]);
                        for (kv, v) in [(1, p[1]), (w, q[0]), (w + 1, q[1])] {
                            if better(v, m) {
                                (k, m) = (kv, v);
                            }
                        }
                        (*at, *max) = (top + 2 * j + k, m);
                    }
                }
            }
        };
        let len = (per * mw).max(1);
        let mut pieces: Vec<_> = at_all
            .chunks_mut(len)
            .zip(max_all.chunks_mut(len))
            .collect();
        each_mut(&mut pieces, |i, (ats, maxs)| block(i * per, ats, maxs));
    } else {
        let (rows, cols) = (windows(h, mh, spec), windows(w, mw, spec));
        for o in 0..outer {
            let base = o * h * w;
            let src = &x[base..base + h * w];
            for &(rlo, rhi, _) in &rows.cells {
                for &(clo, chi, _) in &cols.cells {
                    let (mut at, mut b) = (rlo * w + clo, src[rlo * w + clo]);
                    for r in rlo..rhi {
                        for (c, &v) in src[r * w + clo..r * w + chi].iter().enumerate() {
                            if better(v, b) {
                                (at, b) = (r * w + clo + c, v);
                            }
                        }
                    }
                    at_all.push(base + at);
                    max_all.push(b);
                }
            }
        }
    }
    let mut out_sizes = sizes.to_vec();
    (out_sizes[rank - 2], out_sizes[rank - 1]) = (mh, mw);
    (out_sizes, at_all, max_all)
}

/// The output length along a pooled axis (the plan checked it exists).
fn out_len(n: usize, spec: &PoolSpec) -> usize {
    crate::dynamic::conv::out_size(n, spec.kernel, spec.stride, spec.padding, 1, spec.ceil)
        .expect("the plan checked the window fits")
}

impl<T: Copy + Send + Sync> DynTensor<T> {
    /// The maximum over windows along the selected axes (rule book §20): PyTorch's
    /// `max_pool1d/2d/3d` by name, the pooled axes keeping their names; or the error of
    /// [`dynamic::pool::pool`](crate::dynamic::pool::pool). NaN propagates.
    ///
    /// ```
    /// use shapecast::{dynamic::pool::PoolSpec, DynTensor};
    /// let x = DynTensor::from_fn("[C: 1, H: 4, W: 5]".parse()?, |i| (i[1] * 5 + i[2]) as f32)?;
    /// let y = x.max_pool(&["H".parse()?, "W".parse()?], &PoolSpec::new(2))?;
    /// assert_eq!(y.shape().to_string(), "[C: 1, H: 2, W: 2]");
    /// assert_eq!(y.data(), &[6.0, 8.0, 16.0, 18.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn max_pool(&self, axes: &[AxisSelector], spec: &PoolSpec) -> Result<DynTensor<T>, Error>
    where
        T: PartialOrd,
    {
        self.pooled_by(axes, spec, &Max)
    }

    /// The average over windows along the selected axes (rule book §20): PyTorch's
    /// `avg_pool1d/2d/3d` by name (`count_include_pad` is
    /// [`PoolSpec::count_padding`]); or the error of
    /// [`dynamic::pool::pool`](crate::dynamic::pool::pool).
    ///
    /// ```
    /// use shapecast::{dynamic::pool::PoolSpec, DynTensor};
    /// let x = DynTensor::from_vec("[T: 5]".parse()?, vec![1.0f64, 2.0, 3.0, 4.0, 5.0])?;
    /// let y = x.avg_pool(&["T".parse()?], &PoolSpec::new(2).ceil_mode(true))?;
    /// assert_eq!(y.data(), &[1.5, 3.5, 5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn avg_pool(&self, axes: &[AxisSelector], spec: &PoolSpec) -> Result<DynTensor<T>, Error>
    where
        T: Float,
    {
        self.pooled_by(axes, spec, &Mean)
    }

    fn pooled_by(
        &self,
        axes: &[AxisSelector],
        spec: &PoolSpec,
        fold: &impl Fold<T>,
    ) -> Result<DynTensor<T>, Error> {
        let plan = pool(self.shape(), axes, spec)?;
        let mut own = Default::default();
        let (sizes, data) = pooled(&plan, spec, self.layout(&mut own), fold)?;
        Ok(DynTensor::from_parts(plan.shape, sizes, data))
    }
}

/// Pooling over axes selected by name (rule book §20; PyTorch's `max_pool`/`avg_pool`), on a
/// [`Tensor`], a [`TensorView`](crate::TensorView) and a
/// [`TensorViewMut`](crate::TensorViewMut) alike, the output sizes computed at compile time
/// where the input's are static. In the [prelude](crate::prelude); `DynTensor` has the same
/// methods with selectors known at run time.
///
/// ```
/// use shapecast::{names, shape, Pool, Pooling, Tensor};
/// names!(C, H, W);
/// let x = Tensor::<f32, shape![C: 1, H: 4, W: 4]>::from_fn(&[1, 4, 4], |i| (i[1] * 4 + i[2]) as f32)?;
/// let y: Tensor<f32, shape![C: 1, H: 2, W: 2]> = x.view().max_pool::<(H, W), Pool<2>>();
/// assert_eq!(y.data(), &[5.0, 7.0, 13.0, 15.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Pooling: Contractible {
    /// The maximum over windows along the axes `A` selects (a name or a tuple of names)
    /// with the geometry `P` ([`Pool<KERNEL, STRIDE, PADDING, CEIL>`](crate::Pool)),
    /// rule book §20: PyTorch's `max_pool` by name, the output sizes computed at
    /// compile time where the input's are static. NaN propagates.
    ///
    /// # Panics
    ///
    /// When a window is longer than a padded axis of run-time size;
    /// [`try_max_pool`](Self::try_max_pool) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Pool, Pooling, Tensor};
    /// names!(C, H, W);
    /// let x = Tensor::<f32, shape![C: 1, H: 5, W: 4]>::from_fn(&[1, 5, 4], |i| (i[1] * 4 + i[2]) as f32)?;
    /// // 2 x 2 windows; the odd row is dropped, as PyTorch drops it.
    /// let y: Tensor<f32, shape![C: 1, H: 2, W: 2]> = x.max_pool::<(H, W), Pool<2>>();
    /// assert_eq!(y.data(), &[5.0, 7.0, 13.0, 15.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    fn max_pool<A, P>(&self) -> Tensor<Self::Elem, PooledShape<Self::Shape, A, P>>
    where
        A: Selector,
        P: PoolGeometry,
        Self::Shape: PoolOver<A, P>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
    {
        self.try_max_pool::<A, P>().or_panic()
    }

    /// [`max_pool`](Self::max_pool), or the error when a window does not fit an axis
    /// of run-time size.
    ///
    /// ```
    /// use shapecast::{names, shape, Pool, Pooling, Tensor};
    /// names!(T);
    /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[1], vec![1.0])?;
    /// assert!(x.try_max_pool::<T, Pool<2>>().is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn try_max_pool<A, P>(
        &self,
    ) -> Result<Tensor<Self::Elem, PooledShape<Self::Shape, A, P>>, Error>
    where
        A: Selector,
        P: PoolGeometry,
        Self::Shape: PoolOver<A, P>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
    {
        typed_pool::<_, A, P, _>(self, &Max)
    }

    /// The average over windows along the axes `A` selects with the geometry `P`
    /// ([`Pool<KERNEL, STRIDE, PADDING, CEIL, COUNT_PADDING>`](crate::Pool); the padding
    /// counts unless `COUNT_PADDING` is false, as PyTorch's `count_include_pad`), rule book
    /// §20.
    ///
    /// # Panics
    ///
    /// When a window is longer than a padded axis of run-time size;
    /// [`try_avg_pool`](Self::try_avg_pool) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Pool, Pooling, Tensor};
    /// names!(T);
    /// let x = Tensor::<f64, shape![T: 5]>::from_array([1.0, 2.0, 3.0, 4.0, 5.0]);
    /// // Kernel 3, stride 2, padding 1: the padding's zeros count.
    /// let y: Tensor<f64, shape![T: 3]> = x.avg_pool::<T, Pool<3, 2, 1>>();
    /// assert_eq!(y.data(), &[1.0, 3.0, 3.0]);
    /// ```
    #[track_caller]
    fn avg_pool<A, P>(&self) -> Tensor<Self::Elem, PooledShape<Self::Shape, A, P>>
    where
        A: Selector,
        P: PoolGeometry,
        Self::Shape: PoolOver<A, P>,
        Self::Elem: Float + Send + Sync,
    {
        self.try_avg_pool::<A, P>().or_panic()
    }

    /// [`avg_pool`](Self::avg_pool), or the error when a window does not fit an axis
    /// of run-time size.
    ///
    /// ```
    /// use shapecast::{names, shape, Pool, Pooling, Tensor};
    /// names!(T);
    /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[4], vec![1.0, 2.0, 3.0, 4.0])?;
    /// assert_eq!(x.try_avg_pool::<T, Pool<2>>()?.data(), &[1.5, 3.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn try_avg_pool<A, P>(
        &self,
    ) -> Result<Tensor<Self::Elem, PooledShape<Self::Shape, A, P>>, Error>
    where
        A: Selector,
        P: PoolGeometry,
        Self::Shape: PoolOver<A, P>,
        Self::Elem: Float + Send + Sync,
    {
        typed_pool::<_, A, P, _>(self, &Mean)
    }
}

impl<X: Contractible + ?Sized> Pooling for X {}

/// The pool of a typed tensor or view by the geometry `P` over the axes `A` selects.
fn typed_pool<X, A: Selector, P: PoolGeometry, O: Storage<X::Elem>>(
    x: &X,
    fold: &impl Fold<X::Elem>,
) -> Result<Tensor<X::Elem, O>, Error>
where
    X: Contractible + ?Sized,
    X::Elem: Copy + Send + Sync,
{
    let plan = pool(&x.shape_dyn(), &A::selectors(), &P::SPEC)?;
    let mut own = Own::default();
    let (sizes, data) = pooled(&plan, &P::SPEC, x.layout(&mut own), fold)?;
    Ok(Tensor::from_parts(&sizes, data))
}
