//! Convolution on data (rule book §20; the shape and plan come from
//! [`dynamic::conv`](crate::dynamic::conv)), as GEMM calls: for each batch index and group,
//! the output block `[OUT, P]` (P: the output's spatial positions, row-major) is the weight
//! `[OUT, C·K]` times the input's patches `[C·K, P]` (im2col). The patches are written a tile
//! of P at a time into one reused buffer of about 2^17 elements, so they stay in the cache
//! between their writing and the product; a 1×1 kernel with stride 1 and no padding reads the
//! input in place (its patches are the input). The products are the `gemm` crate's, through
//! [`DotElement::gemm`]. With the `rayon` feature the batch splits over the pool, one
//! patch buffer a task. This module works out the geometry from the plan; the tiles and the
//! products are the engine's (`engine::conv`).

use crate::alloc_prelude::*;

use alloc::borrow::Cow;

use super::conv_weight::DynConvWeight;
use crate::dynamic::conv::{ConvSpec, Convolved};
use crate::engine::conv::{run_batches, Geometry, Kept};
use crate::engine::layout::Strided;
use crate::engine::raw::DotElement;
use crate::engine::walk::Offsets;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::Contractible;
use crate::tensor::tensor::Tensor;
use crate::typed::axis::Axis;
use crate::typed::conv::{ConvBy, ConvGeometry, Convolve};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::shape::MAX_TYPED_RANK;

/// `x` convolved with `w` by the plan `c` (whose shape the sizes resolve): the output's sizes
/// and its data, row-major.
pub(crate) fn run<T: DotElement>(
    c: &Convolved,
    spec: &ConvSpec,
    x: Strided<'_, T>,
    (w, kept): (Strided<'_, T>, Option<&Kept<T>>),
) -> Result<(Vec<usize>, Vec<T>), Error> {
    let mut sizes: Vec<usize> = x.sizes.to_vec();
    sizes[c.channel] = w.sizes[c.weight_out];
    for s in &c.spatial {
        sizes[s.axis] = s
            .out
            .known()
            .expect("the plan of tensors' shapes knows every size");
    }
    let shape = || c.shape.resolve(&sizes).unwrap_or_else(|_| c.shape.clone());
    let total = crate::engine::allocation::ensure::<T>(&sizes, shape)?;
    // Zeroed pages not yet touched: huge pages asked for before the first write.
    let mut out = vec![T::zero(); total];
    crate::engine::raw::advise_huge_pages(&out);
    if total == 0 {
        return Ok((sizes, out));
    }
    if w.data.is_empty() || x.data.is_empty() {
        // No tap or no input element: every output is the empty sum (or the padding's), 0.
        // (The products below are then not taken: an empty operand may have huge axes.)
        return Ok((sizes, out));
    }
    let out_strides = crate::engine::layout::row_major(&sizes);
    let g = geometry(c, spec, &x, &w, &sizes, &out_strides);
    // The weight as `[OUT, C, taps…]`, contiguous, taps in the input's spatial order.
    let weight = canonical_weight(c, &w);
    if g.taps * g.c_group == 0 {
        // No input channel or no tap: every output is the empty sum, 0.
        return Ok((sizes, out));
    }
    // A kept transform is the stored weight's: used only when the weight is taken as stored.
    let kept = kept.filter(|_| matches!(weight, Cow::Borrowed(_)));
    run_batches(&g, x.data, (&weight, kept), &mut out);
    Ok((sizes, out))
}

fn geometry<T>(
    c: &Convolved,
    spec: &ConvSpec,
    x: &Strided<'_, T>,
    w: &Strided<'_, T>,
    sizes: &[usize],
    out_strides: &[usize],
) -> Geometry {
    let spatial: Vec<(usize, usize, usize, usize)> = c
        .spatial
        .iter()
        .map(|s| {
            (
                x.sizes[s.axis],
                x.strides[s.axis],
                w.sizes[s.weight_axis],
                sizes[s.axis],
            )
        })
        .collect();
    let adjacent = c.spatial.windows(2).all(|p| p[1].axis == p[0].axis + 1);
    let last = c.spatial.last().expect("a convolution has a spatial axis");
    let batch = (0..x.sizes.len())
        .filter(|&k| k != c.channel && c.spatial.iter().all(|s| s.axis != k))
        .map(|k| (x.sizes[k], x.strides[k], out_strides[k]))
        .collect();
    Geometry {
        c_group: w.sizes[c.weight_channel],
        o_group: sizes[c.channel] / spec.groups,
        groups: spec.groups,
        x_channel: x.strides[c.channel],
        out_channel: out_strides[c.channel],
        out_run: adjacent.then_some(out_strides[last.axis]),
        out_spatial: c.spatial.iter().map(|s| out_strides[s.axis]).collect(),
        taps: spatial.iter().map(|s| s.2).product(),
        positions: spatial.iter().map(|s| s.3).product(),
        spatial,
        batch,
        stride: spec.stride,
        padding: spec.padding,
        dilation: spec.dilation,
    }
}

/// The weight as a contiguous `[OUT, C, k_1, …, k_d]` (spatial axes in the input's order):
/// borrowed when it is laid out so already (PyTorch's file layout, named in that order).
fn canonical_weight<'w, T: Copy>(c: &Convolved, w: &Strided<'w, T>) -> Cow<'w, [T]> {
    let mut order = vec![c.weight_out, c.weight_channel];
    order.extend(c.spatial.iter().map(|s| s.weight_axis));
    let sizes: Vec<usize> = order.iter().map(|&k| w.sizes[k]).collect();
    let strides: Vec<usize> = order.iter().map(|&k| w.strides[k]).collect();
    let count: usize = sizes.iter().product();
    if strides == crate::engine::layout::row_major(&sizes) && w.data.len() >= count {
        return Cow::Borrowed(&w.data[..count]);
    }
    Cow::Owned(Offsets::new(&sizes, &strides).map(|o| w.data[o]).collect())
}

impl<T: DotElement> DynTensor<T> {
    /// This tensor convolved with `weight` over the channel `channel` (rule book §20): the
    /// channel is contracted, every other name the two share is a spatial axis the kernel
    /// slides along (the weight's size there is the kernel's), and the weight's one remaining
    /// axis becomes the output's channel, in the input channel's place. PyTorch's
    /// `conv1d`/`conv2d`/`conv3d` (cross-correlation, zero padding), for any number of
    /// spatial axes in any order. Or the error of [`dynamic::conv::conv`](crate::dynamic::conv::conv).
    /// The weight is a `DynTensor` or a [`ConvWeight`](crate::ConvWeight) of one, which keeps
    /// its Winograd transform between calls.
    ///
    /// ```
    /// use shapecast::{dynamic::conv::ConvSpec, DynTensor};
    /// let x = DynTensor::from_fn("[N: 1, C: 1, H: 3, W: 3]".parse()?, |i| (i[2] * 3 + i[3]) as f32)?;
    /// // PyTorch's file layout [OUT, IN, KH, KW], named.
    /// let w = DynTensor::from_vec("[K: 1, C: 1, H: 2, W: 2]".parse()?, vec![1.0, 0.0, 0.0, 1.0])?;
    /// let y = x.conv(&w, "C", &ConvSpec::default())?;
    /// assert_eq!(y.shape().to_string(), "[N: 1, K: 1, H: 2, W: 2]");
    /// assert_eq!(y.data(), &[4.0, 6.0, 10.0, 12.0]);
    /// assert!(x.conv(&w, "CHANNEL", &ConvSpec::default()).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn conv(
        &self,
        weight: &impl DynConvWeight<T>,
        channel: &str,
        spec: &ConvSpec,
    ) -> Result<DynTensor<T>, Error> {
        let (weight, kept) = weight.weight_and_kept();
        let plan = crate::dynamic::conv::conv(self.shape(), weight.shape(), channel, spec)?;
        let (mut own_x, mut own_w) = Default::default();
        let (x, w) = (self.layout(&mut own_x), weight.layout(&mut own_w));
        let (sizes, data) = run(&plan, spec, x, (w, kept))?;
        Ok(DynTensor::from_parts(plan.shape, sizes, data))
    }
}

/// Convolution by name on typed tensors and views (rule book §20), the weight's type being
/// the trait's parameter so that a call spells out only the channel and the geometry:
/// `x.conv::<C, Conv<1, 1>>(&w)`. The output shape, [`Convolve<S, W, C, G>`](crate::Convolve),
/// is computed at compile time (output spatial sizes included, where the input's are static),
/// and a channel mismatch or a kernel longer than the padded input does not compile. Either
/// operand may be a view, read with its strides (not copied). Bring it into scope with `use
/// shapecast::Convolution` (or the prelude).
///
/// ```
/// use shapecast::{names, shape, Conv, Convolution, Tensor};
/// names!(N, C, K, H, W);
/// let x = Tensor::<f32, shape![N, C: 1, H: 3, W: 3]>::from_vec_sized(
///     &[1, 1, 3, 3],
///     (0..9).map(|v| v as f32).collect(),
/// )?;
/// // PyTorch's file layout [OUT, IN, KH, KW], by name.
/// let w = Tensor::<f32, shape![K: 2, C: 1, H: 3, W: 3]>::from_fn(&[2, 1, 3, 3], |i| {
///     if i.at::<K>() == 0 { 1.0 } else { 0.0 }
/// })?;
/// // Padding 1 keeps 3 x 3: the first output channel sums each 3 x 3 neighbourhood.
/// let y: Tensor<f32, shape![N, K: 2, H: 3, W: 3]> = x.conv::<C, Conv<1, 1>>(&w);
/// assert_eq!(&y.data()[..3], &[8.0, 15.0, 12.0]);
/// assert!(y.data()[9..].iter().all(|&v| v == 0.0));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Convolution<Wt>: Contractible {
    /// This input convolved with `weight` over the channel `C` under the geometry `G`
    /// ([`Conv<STRIDE, PADDING, DILATION, GROUPS>`](crate::Conv)).
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit at run time (channels, groups, a kernel longer than the
    /// padded input); [`try_conv`](Self::try_conv) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Conv, Convolution, Tensor};
    /// names!(C, K, T);
    /// let x = Tensor::<f32, shape![T: 4, C: 1]>::from_array([[1.0], [2.0], [3.0], [4.0]]);
    /// let w = Tensor::<f32, shape![K: 1, C: 1, T: 2]>::from_array([[[1.0, -1.0]]]);
    /// // Channel last: the axes stay where they are, the output's channel too.
    /// let y: Tensor<f32, shape![T: 3, K: 1]> = x.view().conv::<C, Conv>(&w);
    /// assert_eq!(y.data(), &[-1.0, -1.0, -1.0]);
    /// ```
    #[track_caller]
    fn conv<C, G>(&self, weight: &Wt) -> Tensor<Self::Elem, ConvOut<Self, Wt, C, G>>
    where
        Self: ConvolveWith<Wt, C, G>,
    {
        self.try_conv::<C, G>(weight).or_panic()
    }

    /// [`conv`](Self::conv), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{names, shape, Conv, Convolution, Tensor};
    /// names!(C, K, T);
    /// let x = Tensor::<f32, shape![C: 1, T]>::from_vec_sized(&[1, 2], vec![1.0, 2.0])?;
    /// let w = Tensor::<f32, shape![K: 1, C: 1, T: 3]>::from_array([[[1.0, 1.0, 1.0]]]);
    /// assert!(x.try_conv::<C, Conv>(&w).is_err()); // a kernel of 3 over 2 elements
    /// assert_eq!(x.try_conv::<C, Conv<1, 1>>(&w)?.data(), &[3.0, 3.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_conv<C, G>(&self, weight: &Wt) -> TryConvolved<Self, Wt, C, G>
    where
        Self: ConvolveWith<Wt, C, G>;
}

/// `Self` (a tensor or a view) convolves with the weight `Wt` (a tensor or a view) over `C`
/// under `G`: [`ConvBy`] on their shapes, with an output that can hold the elements. The bound
/// generic code writes for [`Convolution::conv`]; `Output` is
/// [`Convolve<S, W, C, G>`](crate::Convolve).
///
/// ```
/// use shapecast::{names, shape, Conv, ConvolveWith, Shape, Tensor};
/// names!(C, K, T);
/// type X = Tensor<f32, shape![C: 2, T: 9]>;
/// type Wt = Tensor<f32, shape![K: 3, C: 2, T: 3]>;
/// type Out = <X as ConvolveWith<Wt, C, Conv<2>>>::Output;
/// assert_eq!(Out::to_dyn().to_string(), "[K: 3, T: 4]");
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot convolve `{Self}` with `{Wt}` over `{C}`",
    label = "`{C}` must name the channel of both, with sizes that fit `{G}`"
)]
pub trait ConvolveWith<Wt, C, G>: Contractible {
    /// The output's shape.
    type Output: Storage<Self::Elem>;
    /// The geometry at run time.
    #[doc(hidden)]
    const SPEC: ConvSpec;
    /// The channel's name.
    #[doc(hidden)]
    const CHANNEL: &'static str;
}

impl<L: Contractible, Wt: Contractible<Elem = L::Elem>, C: Axis, G: ConvGeometry>
    ConvolveWith<Wt, C, G> for L
where
    Wt::Shape: ConvolvedWith<L::Shape, C, G>,
    <Wt::Shape as ConvolvedWith<L::Shape, C, G>>::Output: Storage<L::Elem>,
{
    type Output = <Wt::Shape as ConvolvedWith<L::Shape, C, G>>::Output;
    const SPEC: ConvSpec = G::SPEC;
    const CHANNEL: &'static str = match C::NAME {
        Some(n) => n,
        None => "",
    };
}

/// [`ConvBy`] asked of the weight's shape (`Self`; `A` is the input's), so that a refusal
/// waits for the argument's type and is reported once, naming both shapes.
#[doc(hidden)]
pub trait ConvolvedWith<A, C, G> {
    /// [`Convolve<A, Self, C, G>`](crate::Convolve).
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<W: Shape, A: ConvBy<W, C, G>, C, G> ConvolvedWith<A, C, G> for W {
    type Output = Convolve<A, W, C, G>;
}

/// The output shape of `X.conv::<C, G>(&Wt)`.
pub type ConvOut<X, Wt, C, G> = <X as ConvolveWith<Wt, C, G>>::Output;

/// What `X.try_conv::<C, G>(&Wt)` gives.
type TryConvolved<X, Wt, C, G> =
    Result<Tensor<<X as Contractible>::Elem, ConvOut<X, Wt, C, G>>, Error>;

impl<L: Contractible, Wt: Contractible<Elem = L::Elem>> Convolution<Wt> for L
where
    L::Elem: DotElement,
{
    fn try_conv<C, G>(&self, weight: &Wt) -> TryConvolved<Self, Wt, C, G>
    where
        Self: ConvolveWith<Wt, C, G>,
    {
        typed_conv(
            self,
            weight,
            <Self as ConvolveWith<Wt, C, G>>::CHANNEL,
            &<Self as ConvolveWith<Wt, C, G>>::SPEC,
        )
    }
}

/// A typed convolution on the run-time plan (the types have checked what is static; a `?`
/// that does not fit is the plan's error).
fn typed_conv<
    T: DotElement,
    O: Storage<T>,
    X: Contractible<Elem = T>,
    Wt: Contractible<Elem = T>,
>(
    x: &X,
    w: &Wt,
    channel: &str,
    spec: &ConvSpec,
) -> Result<Tensor<T, O>, Error> {
    let (mut own_x, mut own_w) = ([0usize; MAX_TYPED_RANK], [0usize; MAX_TYPED_RANK]);
    let (x, kept, w) = (x.layout(&mut own_x), w.kept(), w.layout(&mut own_w));
    let xs = X::Shape::to_dyn().resolve(x.sizes)?;
    let ws = Wt::Shape::to_dyn().resolve(w.sizes)?;
    let plan = crate::dynamic::conv::conv(&xs, &ws, channel, spec)?;
    let (sizes, data) = run(&plan, spec, x, (w, kept))?;
    Ok(Tensor::from_parts(&sizes, data))
}

/// The input's and the weight's gradients, each when asked for.
type Gradients<T> = (Option<Vec<T>>, Option<Vec<T>>);

/// The gradients of `x` convolved with `w` over `channel` (each a resolved shape and its
/// row-major data) whose output's gradient is `gy`: the input's (when `want.0`) and the
/// weight's (when `want.1`), each row-major in its own axis order (`engine::conv_backward`).
pub(crate) fn conv_backward<T: DotElement>(
    (xs, x_sizes, x): (&crate::values::shape::DynShape, &[usize], &[T]),
    (ws, w_sizes, w): (&crate::values::shape::DynShape, &[usize], &[T]),
    (channel, spec): (&str, &ConvSpec),
    gy: &[T],
    want: (bool, bool),
) -> Result<Gradients<T>, Error> {
    let plan = crate::dynamic::conv::conv(xs, ws, channel, spec)?;
    let (rx, rw) = (
        crate::engine::layout::row_major(x_sizes),
        crate::engine::layout::row_major(w_sizes),
    );
    let xl = Strided {
        sizes: x_sizes,
        strides: &rx,
        data: x,
    };
    let wl = Strided {
        sizes: w_sizes,
        strides: &rw,
        data: w,
    };
    let mut sizes = x_sizes.to_vec();
    sizes[plan.channel] = w_sizes[plan.weight_out];
    for s in &plan.spatial {
        sizes[s.axis] = s
            .out
            .known()
            .expect("the plan of resolved shapes knows every size");
    }
    let out_strides = crate::engine::layout::row_major(&sizes);
    let g = geometry(&plan, spec, &xl, &wl, &sizes, &out_strides);
    let weight = canonical_weight(&plan, &wl);
    let (gx, gw) = crate::engine::conv_backward::backward(&g, x, &weight, gy, want);
    // The weight's gradient from `[OUT, C, taps…]` back to the weight's own axis order.
    let gw = gw.map(|canon| {
        let mut order = vec![plan.weight_out, plan.weight_channel];
        order.extend(plan.spatial.iter().map(|s| s.weight_axis));
        if order.iter().enumerate().all(|(i, &k)| i == k) {
            // Stored `[OUT, C, taps…]` already (PyTorch's layout).
            return canon;
        }
        let sizes: Vec<usize> = order.iter().map(|&k| w_sizes[k]).collect();
        let strides: Vec<usize> = order.iter().map(|&k| rw[k]).collect();
        let mut own = vec![T::zero(); canon.len()];
        for (o, v) in Offsets::new(&sizes, &strides).zip(canon) {
            own[o] = v;
        }
        own
    });
    Ok((gx, gw))
}
