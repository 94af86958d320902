//! Interpolation on data (rule book §23; the shape from
//! [`dynamic::upsample`](crate::dynamic::upsample)): `upsample` by an integer factor on typed
//! tensors and views (output sizes computed at compile time) and on `DynTensor`, `resize` to
//! given sizes on `DynTensor`. Separable: one axis at a time, the last first, each through
//! the engine's resampling (`engine::resample`), as PyTorch's `bilinear` and `trilinear`
//! nest theirs.

use crate::alloc_prelude::*;

use num_traits::Float;

use crate::dynamic::upsample::{resize, upsample, Interpolation};
use crate::engine::layout::Strided;
use crate::engine::resample::{resample_axis, resample_axis_back, resample_pair, Taps};
use crate::engine::walk::row_major_elements;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::reduce::Selector;
use crate::typed::upsample::{
    ResizeOver, ResizeTarget, Resized, UpsampleFactor, UpsampleOver, Upsampled,
};
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// How the output positions along one axis of `n` read it, for an output of `m` of elements
/// `T`: the mode's taps, with PyTorch's scale `1 / factor` when upsampling by a factor and
/// its single-precision source positions for elements narrower than `f64`.
fn taps<T>(mode: Interpolation, n: usize, m: usize, factor: Option<usize>) -> Taps {
    let single = core::mem::size_of::<T>() < 8;
    match mode {
        Interpolation::Nearest => Taps::nearest(n, m, (false, single), factor),
        Interpolation::NearestExact => Taps::nearest(n, m, (true, single), factor),
        Interpolation::Linear {
            align_corners,
            antialias: false,
        } => Taps::linear(n, m, align_corners),
        Interpolation::Cubic {
            align_corners,
            antialias: false,
        } => Taps::cubic(n, m, align_corners),
        Interpolation::Linear {
            align_corners,
            antialias: true,
        } => Taps::antialiased(n, m, align_corners, false),
        Interpolation::Cubic {
            align_corners,
            antialias: true,
        } => Taps::antialiased(n, m, align_corners, true),
        Interpolation::Area => Taps::area(n, m),
    }
}

/// An interpolation's plan: the axes it resamples in the order it resamples them, the
/// input's and the output's sizes, the mode and the factor (for an upsampling).
pub(crate) struct Resampling {
    order: Vec<usize>,
    input: Vec<usize>,
    pub(crate) output: Vec<usize>,
    mode: Interpolation,
    factor: Option<usize>,
}

impl Resampling {
    /// The plan for `x` (every size known) to the rule's output shape `out` over the axes
    /// `at` (the rule has refused an empty axis resized to a non-empty one); or the error of
    /// an output too large to allocate.
    fn new<T>(
        x: &Strided<'_, T>,
        out: &DynShape,
        at: Vec<usize>,
        mode: Interpolation,
        factor: Option<usize>,
    ) -> Result<Resampling, Error> {
        let output = out
            .known_sizes()
            .ok_or_else(|| Error::UnknownSize { shape: out.clone() })?;
        let total = crate::engine::allocation::ensure::<T>(&output, || out.clone())?;
        // The axes that shrink first, then the others, each group the last axis first (as
        // PyTorch nests its linear modes): every stage then holds at most the larger of the
        // input and the output, and an empty output resamples nothing.
        let shrinks = |&k: &usize| output[k] < x.sizes[k];
        let order: Vec<usize> = if total == 0 {
            Vec::new()
        } else {
            let first = at.iter().rev().copied().filter(shrinks);
            first
                .chain(at.iter().rev().copied().filter(|k| !shrinks(k)))
                .collect()
        };
        for &k in &order {
            // One tap (two positions and a weight, or a run's span) per output position along
            // the axis, and the wide taps' weights: at most 4 per output position (cubic), or
            // per input and output position (area, antialiased).
            let room = x.sizes[k].saturating_add(output[k]);
            crate::engine::allocation::ensure::<(usize, usize, f64)>(&output[k..=k], || {
                out.clone()
            })?;
            crate::engine::allocation::ensure::<f64>(&[4, room], || out.clone())?;
        }
        Ok(Resampling {
            order,
            input: x.sizes.to_vec(),
            output,
            mode,
            factor,
        })
    }

    /// Whether the output is empty while the input's sizes differ from it (`new` plans no
    /// axis for an empty output; with no axis selected the output is the input).
    fn output_is_empty(&self) -> bool {
        self.order.is_empty() && self.input != self.output
    }

    /// `x` resampled: the output's elements, row-major. The last two axes of the order,
    /// when the later axis comes first and both read at most two positions, run in one
    /// pass (`resample_pair`: a bilinear image's output written once, no intermediate).
    /// Each axis is resampled once, from its input size to its output size.
    fn run<T: Float + Send + Sync>(&self, x: Strided<'_, T>) -> Vec<T> {
        if self.output_is_empty() {
            return Vec::new();
        }
        let input = row_major_elements(&x);
        let mut sizes = self.input.clone();
        let mut owned: Option<Vec<T>> = None;
        let order = &self.order;
        // Each axis' taps, built once, in the order the axes run.
        let mut taps: Vec<Taps> = order.iter().map(|&k| self.taps_of::<T>(k)).collect();
        // The last two axes of the order in one pass when the later one comes first and both
        // taps read at most two positions.
        let n = order.len();
        let pair = n >= 2
            && order[n - 2] > order[n - 1]
            && taps[n - 2].two_point()
            && taps[n - 1].two_point();
        // `[second, first]`: the taps of `order[n - 2]` and `order[n - 1]`, split off so
        // that `taps` keeps those of the axes resampled one at a time.
        let last_two = pair.then(|| taps.split_off(n - 2));
        for (&k, t) in order.iter().zip(&taps) {
            let outer = sizes[..k].iter().product();
            let inner = sizes[k + 1..].iter().product();
            let src = owned.as_deref().unwrap_or(&input);
            owned = Some(resample_axis(src, (outer, sizes[k], inner), t));
            sizes[k] = self.output[k];
        }
        if let Some([second, first]) = last_two.as_deref() {
            let (k1, k2) = (order[n - 1], order[n - 2]);
            let outer = sizes[..k1].iter().product();
            let mid = sizes[k1 + 1..k2].iter().product();
            let inner = sizes[k2 + 1..].iter().product();
            let dims = (outer, sizes[k1], mid, sizes[k2], inner);
            let src = owned.as_deref().unwrap_or(&input);
            owned = Some(resample_pair(src, dims, (first, second)));
        }
        owned.unwrap_or_else(|| input.into_owned())
    }

    /// The taps of axis `k`, from its input size to its output size, for elements `T`.
    fn taps_of<T>(&self, k: usize) -> Taps {
        taps::<T>(self.mode, self.input[k], self.output[k], self.factor)
    }

    /// The gradient of the input from `g`, the output's (row-major): each axis' resampling
    /// transposed, in the reverse of the forward pass's order.
    pub(crate) fn back<T: Float + Send + Sync>(&self, g: Vec<T>) -> Vec<T> {
        if self.output_is_empty() {
            // The input's gradient is zeros (an empty input, or axes of size 0 elsewhere).
            let count = crate::engine::allocation::count(&self.input).unwrap_or(0);
            return vec![T::zero(); count];
        }
        let mut sizes = self.output.clone();
        let mut cur = g;
        for &k in self.order.iter().rev() {
            let n = self.input[k];
            let outer = sizes[..k].iter().product();
            let inner = sizes[k + 1..].iter().product();
            cur = resample_axis_back(&cur, (outer, n, inner), &self.taps_of::<T>(k));
            sizes[k] = n;
        }
        cur
    }
}

/// The output sizes of an interpolation: the input's times a factor, or given sizes (one per
/// selector, or one for every selector).
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    Factor(usize),
    Sizes(&'a [usize]),
    Size(usize),
}

/// `x` (of shape `shape`) interpolated to `target` over the selected axes: the output's
/// shape, the plan (its sizes, and the gradient's way back) and the output's elements.
fn interpolated<T: Float + Send + Sync>(
    x: Strided<'_, T>,
    shape: &DynShape,
    axes: &[AxisSelector],
    target: Target<'_>,
    mode: Interpolation,
) -> Result<(DynShape, Resampling, Vec<T>), Error> {
    let ((out, at), factor) = match target {
        Target::Factor(f) => (upsample(shape, axes, f)?, Some(f)),
        Target::Sizes(sizes) => (resize(shape, axes, sizes)?, None),
        Target::Size(n) => (resize(shape, axes, &vec![n; axes.len()])?, None),
    };
    let plan = Resampling::new(&x, &out, at, mode, factor)?;
    let data = plan.run(x);
    Ok((out, plan, data))
}

/// A typed receiver `x` interpolated to `target` over the axes `A` selects: the plan and the
/// output's elements (its sizes in the plan).
pub(crate) fn typed_interpolation<X, A>(
    x: &X,
    target: Target<'_>,
    mode: Interpolation,
) -> Result<(Resampling, Vec<X::Elem>), Error>
where
    X: Contractible + ?Sized,
    X::Elem: Float + Send + Sync,
    A: Selector,
{
    let mut own = Own::default();
    let layout = x.layout(&mut own);
    let (_, plan, data) = interpolated(layout, &x.shape_dyn(), &A::selectors(), target, mode)?;
    Ok((plan, data))
}

impl<T: Float + Send + Sync> DynTensor<T> {
    /// This tensor upsampled by `factor` along each selected axis (rule book §23; PyTorch's
    /// `F.interpolate(scale_factor=factor, mode=…)`, linear over two axes being its
    /// `bilinear`); or the error: a factor of 0, an axis missing or selected twice, a size
    /// that overflows.
    ///
    /// ```
    /// use shapecast::{DynTensor, Interpolation};
    /// let x = DynTensor::from_vec("[T: 2]".parse()?, vec![0.0, 4.0])?;
    /// let t = ["T".parse()?];
    /// assert_eq!(x.upsample(&t, 2, Interpolation::Nearest)?.data(), &[0.0, 0.0, 4.0, 4.0]);
    /// let linear = Interpolation::Linear { align_corners: false, antialias: false };
    /// assert_eq!(x.upsample(&t, 2, linear)?.data(), &[0.0, 1.0, 3.0, 4.0]);
    /// assert!(x.upsample(&t, 0, linear).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn upsample(
        &self,
        axes: &[AxisSelector],
        factor: usize,
        mode: Interpolation,
    ) -> Result<DynTensor<T>, Error> {
        let mut own = Default::default();
        let x = self.layout(&mut own);
        let (shape, plan, data) =
            interpolated(x, self.shape(), axes, Target::Factor(factor), mode)?;
        Ok(DynTensor::from_parts(shape, plan.output, data))
    }

    /// This tensor resized to `sizes` along the selected axes (one size per selector, in the
    /// selectors' order; rule book §23: PyTorch's `F.interpolate(size=…, mode=…)`), larger or
    /// smaller; or the error: sizes not one per selector, a size of 0, an axis missing or
    /// selected twice, an empty axis resized.
    ///
    /// ```
    /// use shapecast::{DynTensor, Interpolation};
    /// let x = DynTensor::from_vec("[H: 2, W: 2]".parse()?, vec![0.0, 1.0, 2.0, 3.0])?;
    /// let hw = ["H".parse()?, "W".parse()?];
    /// let y = x.resize(&hw, &[3, 1], Interpolation::Linear { align_corners: true, antialias: false })?;
    /// assert_eq!((y.shape().to_string(), y.data()), ("[H: 3, W: 1]".into(), &[0.0, 1.0, 2.0][..]));
    /// assert!(x.resize(&hw, &[3], Interpolation::Nearest).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn resize(
        &self,
        axes: &[AxisSelector],
        sizes: &[usize],
        mode: Interpolation,
    ) -> Result<DynTensor<T>, Error> {
        let mut own = Default::default();
        let x = self.layout(&mut own);
        let (shape, plan, data) = interpolated(x, self.shape(), axes, Target::Sizes(sizes), mode)?;
        Ok(DynTensor::from_parts(shape, plan.output, data))
    }
}

/// Upsampling and resizing along axes selected by name (rule book §23; PyTorch's
/// `F.interpolate` and `nn.Upsample` with an integer `scale_factor` or a static `size`), on a
/// [`Tensor`], a [`TensorView`](crate::TensorView) and a
/// [`TensorViewMut`](crate::TensorViewMut) alike, the output sizes computed at compile time
/// where static. In the [prelude](crate::prelude);
/// `DynTensor::upsample` takes selectors known at run time, `DynTensor::resize` any sizes.
///
/// ```
/// use shapecast::{names, shape, Interpolation, Scale, Tensor, Upsampling};
/// names!(H, W);
/// let x = Tensor::<f32, shape![H: 2, W: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let y: Tensor<f32, shape![H: 4, W: 4]> = x.view().upsample::<(H, W), Scale<2>>(Interpolation::Nearest);
/// assert_eq!(&y.data()[..8], &[1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 2.0, 2.0]);
/// ```
pub trait Upsampling: Contractible {
    /// This tensor upsampled by `P` ([`Scale<F>`](crate::Scale)) along each axis `A`
    /// selects, read by `mode` (rule book §23; PyTorch's `F.interpolate(scale_factor=F)`:
    /// linear over two axes is its `bilinear`, over three its `trilinear`); the upsampled
    /// sizes are computed at compile time where static.
    ///
    /// # Panics
    ///
    /// When an axis of run-time size overflows or the output does not fit in memory;
    /// [`try_upsample`](Self::try_upsample) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Interpolation, Scale, Tensor, Upsampling};
    /// names!(C, H, W);
    /// let x = Tensor::<f64, shape![C: 1, H: 1, W: 2]>::from_array([[[0.0, 8.0]]]);
    /// let linear = Interpolation::Linear { align_corners: false, antialias: false };
    /// let y: Tensor<f64, shape![C: 1, H: 2, W: 4]> = x.upsample::<(H, W), Scale<2>>(linear);
    /// assert_eq!(y.data(), &[0.0, 2.0, 6.0, 8.0, 0.0, 2.0, 6.0, 8.0]);
    /// ```
    #[track_caller]
    fn upsample<A, P>(
        &self,
        mode: Interpolation,
    ) -> Tensor<Self::Elem, Upsampled<Self::Shape, A, P>>
    where
        A: Selector,
        P: UpsampleFactor,
        Self::Shape: UpsampleOver<A, P>,
        Self::Elem: Float + Send + Sync,
    {
        self.try_upsample::<A, P>(mode).or_panic()
    }

    /// [`upsample`](Self::upsample), or the error when an axis of run-time size overflows
    /// or the output does not fit in memory.
    ///
    /// ```
    /// use shapecast::{names, shape, Interpolation, Scale, Tensor, Upsampling};
    /// names!(T);
    /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[2], vec![1.0, 2.0])?;
    /// assert_eq!(x.try_upsample::<T, Scale<3>>(Interpolation::Nearest)?.data(), &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn try_upsample<A, P>(
        &self,
        mode: Interpolation,
    ) -> Result<Tensor<Self::Elem, Upsampled<Self::Shape, A, P>>, Error>
    where
        A: Selector,
        P: UpsampleFactor,
        Self::Shape: UpsampleOver<A, P>,
        Self::Elem: Float + Send + Sync,
    {
        let (plan, data) = typed_interpolation::<_, A>(self, Target::Factor(P::FACTOR), mode)?;
        Ok(Tensor::from_parts(&plan.output, data))
    }

    /// This tensor with each axis `A` selects resized to the static size `Z` (`S<N>`), read
    /// by `mode` (rule book §23; PyTorch's `F.interpolate(size=…)`, torchvision's
    /// `Resize((N, N))`): larger or smaller, from any size, `?` included, so a photo of
    /// run-time size becomes a network's static input. For other sizes per axis, resize
    /// twice or use `DynTensor::resize`.
    ///
    /// # Panics
    ///
    /// When a selected axis of run-time size is empty (nothing to read) or the output does
    /// not fit in memory; [`try_resize`](Self::try_resize) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Interpolation, Tensor, Upsampling, S};
    /// names!(C, H, W);
    /// let photo = Tensor::<f32, shape![C: 3, H, W]>::from_vec_sized(&[3, 480, 640], vec![0.5; 3 * 480 * 640])?;
    /// let resize = Interpolation::Linear { align_corners: false, antialias: true };
    /// let x: Tensor<f32, shape![C: 3, H: 224, W: 224]> = photo.resize::<(H, W), S<224>>(resize);
    /// assert!(x.data().iter().all(|&v| (v - 0.5).abs() < 1e-6));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    fn resize<A, Z>(&self, mode: Interpolation) -> Tensor<Self::Elem, Resized<Self::Shape, A, Z>>
    where
        A: Selector,
        Z: ResizeTarget,
        Self::Shape: ResizeOver<A, Z>,
        Self::Elem: Float + Send + Sync,
    {
        self.try_resize::<A, Z>(mode).or_panic()
    }

    /// [`resize`](Self::resize), or the error when a selected axis of run-time size is
    /// empty or the output does not fit in memory.
    ///
    /// ```
    /// use shapecast::{names, shape, Interpolation, Tensor, Upsampling, S};
    /// names!(T);
    /// let x = Tensor::<f64, shape![T]>::from_vec_sized(&[4], vec![1.0, 3.0, 5.0, 9.0])?;
    /// assert_eq!(x.try_resize::<T, S<2>>(Interpolation::Area)?.data(), &[2.0, 7.0]);
    /// let empty = Tensor::<f64, shape![T]>::from_vec_sized(&[0], vec![])?;
    /// assert!(empty.try_resize::<T, S<2>>(Interpolation::Area).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn try_resize<A, Z>(
        &self,
        mode: Interpolation,
    ) -> Result<Tensor<Self::Elem, Resized<Self::Shape, A, Z>>, Error>
    where
        A: Selector,
        Z: ResizeTarget,
        Self::Shape: ResizeOver<A, Z>,
        Self::Elem: Float + Send + Sync,
    {
        let (plan, data) = typed_interpolation::<_, A>(self, Target::Size(Z::TARGET), mode)?;
        Ok(Tensor::from_parts(&plan.output, data))
    }
}

impl<X: Contractible + ?Sized> Upsampling for X {}
