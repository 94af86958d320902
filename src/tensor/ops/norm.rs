//! `layer_norm` and `rms_norm` by name (rule book §16, norms), one pass over each row
//! (`engine::norm`): on tensors and views through [`Norms`], on `DynTensor` with run-time
//! selectors. The weight and bias are tensors or views that broadcast into the input by the
//! assignment rule, so a weight `[DIM]` serves `[BATCH, SEQ, DIM]` and a per-head weight
//! `[HEADS, HD]` serves `[SEQ, HEADS, HD]`.
//!
//! ```
//! use shapecast::{names, shape, Norms, Tensor};
//! names!(SEQ, DIM);
//! let x = Tensor::<f32, shape![SEQ, DIM: 4]>::from_vec_sized(&[1, 4], vec![1.0, 2.0, 3.0, 4.0])?;
//! let g = Tensor::<f32, shape![DIM: 4]>::from_array([1.0, 1.0, 2.0, 2.0]);
//! let y = x.rms_norm::<DIM>(&g, 0.0);
//! let rms = (30.0f32 / 4.0).sqrt();
//! assert!((y.data()[3] - 4.0 / rms * 2.0).abs() < 1e-6);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::engine::vmath::Transcendental;

use crate::dynamic::norm::{norm, Normed};
use crate::engine::dims::Dims;
use crate::engine::layout::{offset_tables, Strided};
use crate::engine::norm::{normalize, Geometry, Norm};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::norm::NormOver;
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;

/// A weight or bias for a norm of a `S` over `A`: a tensor or view of elements `T` whose shape
/// broadcasts into `S` by the assignment rule ([`NormOver`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a weight or bias for normalising `{S}` over `{A}`",
    label = "its shape does not broadcast into `{S}`",
    note = "a weight's axes are axes of the input (by name), each of the input's size or 1; `{A}` must select axes of the input"
)]
pub trait NormWeight<S, A, T>: Contractible<Elem = T> {}

#[diagnostic::do_not_recommend]
impl<W: Contractible<Elem = T>, S: NormOver<A, W::Shape>, A, T> NormWeight<S, A, T> for W {}

/// Runs `norm` of `x` by `plan`: the output's data in `x`'s shape, row-major.
fn run<T: Transcendental>(
    (op, which): (&'static str, Norm),
    plan: &Normed,
    x: Strided<'_, T>,
    (w, b): (Strided<'_, T>, Option<Strided<'_, T>>),
    eps: T,
    axes: &dyn Fn() -> String,
) -> Result<Vec<T>, Error> {
    let shape = || {
        plan.weight
            .lhs
            .resolve(x.sizes)
            .unwrap_or_else(|_| plan.weight.lhs.clone())
    };
    let refuse = |reason: String| Error::Norm {
        op,
        shape: shape(),
        axes: axes(),
        reason,
    };
    // An operand's stride along each input axis, its sizes checked against the input's.
    let frame = |o: &Strided<'_, T>, sources: &[Option<usize>], what: &str| {
        let mut strides = vec![0usize; x.sizes.len()];
        for (i, src) in sources.iter().enumerate() {
            if let Some(a) = *src {
                let n = o.sizes[a];
                if n != x.sizes[i] && n != 1 {
                    return Err(refuse(format!(
                        "the {what}'s axis {a} has size {n} where the input has {}",
                        x.sizes[i]
                    )));
                }
                strides[i] = if n == 1 { 0 } else { o.strides[a] };
            }
        }
        Ok(strides)
    };
    let ws = frame(&w, &plan.weight.plan.rhs, "weight")?;
    let bs = match (&b, &plan.bias) {
        (Some(b), Some(p)) => frame(b, &p.plan.rhs, "bias")?,
        _ => vec![0; x.sizes.len()],
    };
    let total = crate::engine::allocation::ensure::<T>(x.sizes, shape)?;
    let out = Dims::row_major(x.sizes);
    let axes_of = |normalised: bool| -> Vec<(usize, [usize; 4])> {
        (0..x.sizes.len())
            .filter(|&i| plan.over[i] == normalised)
            .map(|i| (x.sizes[i], [x.strides[i], ws[i], bs[i], out[i]]))
            .collect()
    };
    let g = Geometry {
        rows: offset_tables(total, &axes_of(false)),
        cell: offset_tables(total, &axes_of(true)),
    };
    let bias = b.map_or(w.data, |b| b.data);
    Ok(normalize(which, (x.data, w.data, bias), &g, eps, total))
}

impl<T: Transcendental> DynTensor<T> {
    /// Layer norm over the selected axes (rule book §16, norms): each row (an index of the
    /// other axes) becomes `(x - mean) / sqrt(var + eps) * weight + bias`, the variance the
    /// population's (PyTorch's `layer_norm`); `weight` and `bias` broadcast into this shape by
    /// the assignment rule. One pass over each row. Or the refusal ([`Error::Norm`]).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let x = DynTensor::from_vec("[SEQ: 2, DIM: 2]".parse()?, vec![1.0f32, 3.0, 2.0, 6.0])?;
    /// let g = DynTensor::from_vec("[DIM: 2]".parse()?, vec![1.0f32, 1.0])?;
    /// let b = DynTensor::from_vec("[DIM: 2]".parse()?, vec![0.0f32, 0.5])?;
    /// let y = x.layer_norm(&["DIM".parse()?], &g, &b, 0.0)?;
    /// assert_eq!(y.data(), &[-1.0, 1.5, -1.0, 1.5]);
    /// assert!(x.layer_norm(&["HD".parse()?], &g, &b, 1e-5).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn layer_norm(
        &self,
        axes: &[AxisSelector],
        weight: &DynTensor<T>,
        bias: &DynTensor<T>,
        eps: T,
    ) -> Result<DynTensor<T>, Error> {
        self.norm_by(("layer_norm", Norm::Layer), axes, weight, Some(bias), eps)
    }

    /// RMS norm over the selected axes (rule book §16, norms): each row becomes
    /// `x / sqrt(mean(x²) + eps) * weight` (PyTorch's `rms_norm`), `weight` broadcast into
    /// this shape by the assignment rule. One pass over each row. Or the refusal
    /// ([`Error::Norm`]).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let x = DynTensor::from_vec("[SEQ: 1, DIM: 2]".parse()?, vec![3.0f32, 4.0])?;
    /// let g = DynTensor::from_vec("[DIM: 2]".parse()?, vec![1.0f32, 2.0])?;
    /// let y = x.rms_norm(&["DIM".parse()?], &g, 0.0)?;
    /// let rms = 12.5f32.sqrt();
    /// assert_eq!(y.data(), &[3.0 / rms, 4.0 / rms * 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rms_norm(
        &self,
        axes: &[AxisSelector],
        weight: &DynTensor<T>,
        eps: T,
    ) -> Result<DynTensor<T>, Error> {
        self.norm_by(("rms_norm", Norm::Rms), axes, weight, None, eps)
    }

    fn norm_by(
        &self,
        op: (&'static str, Norm),
        axes: &[AxisSelector],
        weight: &DynTensor<T>,
        bias: Option<&DynTensor<T>>,
        eps: T,
    ) -> Result<DynTensor<T>, Error> {
        let plan = norm(
            op.0,
            self.shape(),
            axes,
            weight.shape(),
            bias.map(|b| b.shape()),
        )?;
        let mut own: [Dims; 3] = Default::default();
        let [ox, ow, ob] = &mut own;
        let wb = (weight.layout(ow), bias.map(|b| b.layout(ob)));
        let text = || crate::dynamic::norm::axes_text(axes);
        let data = run(op, &plan, self.layout(ox), wb, eps, &text)?;
        Ok(self.with_data(data))
    }
}

/// `use shapecast::prelude::*` (or `use shapecast::Norms`) to call `x.layer_norm::<A>(&w,
/// &b, eps)` and `x.rms_norm::<A>(&w, eps)`.
///
/// Norms by name (rule book §16, norms) on tensors and views, one pass over each row: the
/// axes `A` (a name, a `Pos<K>` or a tuple) are normalised together, each index of the other
/// axes on its own; the weight and bias are tensors or views that broadcast into the input by
/// the assignment rule. The result has the input's shape.
///
/// ```
/// use shapecast::{names, shape, Norms, Tensor};
/// names!(SEQ, HEADS, HD);
/// let x = Tensor::<f32, shape![SEQ, HEADS: 2, HD: 2]>::from_vec_sized(&[1, 2, 2], vec![1.0, 3.0, 2.0, 6.0])?;
/// // One weight per head dimension, shared by the heads (Qwen3's query norm).
/// let g = Tensor::<f32, shape![HD: 2]>::from_array([1.0, 1.0]);
/// let b = Tensor::<f32, shape![HD: 2]>::from_array([0.0, 0.0]);
/// let y: Tensor<f32, shape![SEQ, HEADS: 2, HD: 2]> = x.layer_norm::<HD>(&g, &b, 0.0);
/// assert_eq!(y.data(), &[-1.0, 1.0, -1.0, 1.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Norms: Contractible<Elem: Transcendental> + Sized {
    /// Layer norm over `A`: `(x - mean) / sqrt(var + eps) * weight + bias` (population
    /// variance, PyTorch's `layer_norm`).
    ///
    /// # Panics
    ///
    /// When a `?` size of the weight or bias does not fit (the operators' convention);
    /// [`try_layer_norm`](Self::try_layer_norm) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Norms, Tensor};
    /// names!(SEQ, DIM);
    /// let x = Tensor::<f64, shape![SEQ: 1, DIM: 2]>::from_array([[1.0, 3.0]]);
    /// let g = Tensor::<f64, shape![DIM: 2]>::from_array([2.0, 2.0]);
    /// let b = Tensor::<f64, shape![DIM: 2]>::from_array([0.0, 1.0]);
    /// assert_eq!(x.layer_norm::<DIM>(&g, &b, 0.0).data(), &[-2.0, 3.0]);
    /// ```
    #[track_caller]
    fn layer_norm<A>(
        &self,
        weight: &impl NormWeight<Self::Shape, A, Self::Elem>,
        bias: &impl NormWeight<Self::Shape, A, Self::Elem>,
        eps: Self::Elem,
    ) -> Tensor<Self::Elem, Self::Shape>
    where
        Self::Shape: Storage<Self::Elem>,
        A: Selector,
    {
        self.try_layer_norm::<A>(weight, bias, eps).or_panic()
    }

    /// [`layer_norm`](Self::layer_norm), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{names, shape, Norms, Tensor};
    /// names!(SEQ, DIM);
    /// let x = Tensor::<f32, shape![SEQ: 1, DIM: 2]>::from_array([[1.0, 3.0]]);
    /// let g = Tensor::<f32, shape![DIM]>::from_vec_sized(&[3], vec![1.0; 3])?;
    /// assert!(x.try_layer_norm::<DIM>(&g, &g, 1e-5).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_layer_norm<A>(
        &self,
        weight: &impl NormWeight<Self::Shape, A, Self::Elem>,
        bias: &impl NormWeight<Self::Shape, A, Self::Elem>,
        eps: Self::Elem,
    ) -> Result<Tensor<Self::Elem, Self::Shape>, Error>
    where
        Self::Shape: Storage<Self::Elem>,
        A: Selector,
    {
        typed_norm::<Self, A>(("layer_norm", Norm::Layer), self, weight, Some(bias), eps)
    }

    /// RMS norm over `A`: `x / sqrt(mean(x²) + eps) * weight` (PyTorch's `rms_norm`).
    ///
    /// # Panics
    ///
    /// When a `?` size of the weight does not fit (the operators' convention);
    /// [`try_rms_norm`](Self::try_rms_norm) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Norms, Tensor};
    /// names!(SEQ, DIM);
    /// let x = Tensor::<f64, shape![SEQ: 1, DIM: 2]>::from_array([[3.0, 4.0]]);
    /// let g = Tensor::<f64, shape![DIM: 2]>::from_array([1.0, 1.0]);
    /// let y = x.rms_norm::<DIM>(&g, 0.0);
    /// assert!((y.data()[1] - 4.0 / 12.5f64.sqrt()).abs() < 1e-15);
    /// ```
    #[track_caller]
    fn rms_norm<A>(
        &self,
        weight: &impl NormWeight<Self::Shape, A, Self::Elem>,
        eps: Self::Elem,
    ) -> Tensor<Self::Elem, Self::Shape>
    where
        Self::Shape: Storage<Self::Elem>,
        A: Selector,
    {
        self.try_rms_norm::<A>(weight, eps).or_panic()
    }

    /// [`rms_norm`](Self::rms_norm), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{names, shape, Norms, Tensor};
    /// names!(SEQ, DIM);
    /// let x = Tensor::<f32, shape![SEQ: 1, DIM]>::from_vec_sized(&[1, 2], vec![3.0, 4.0])?;
    /// let g = Tensor::<f32, shape![DIM: 3]>::from_array([1.0, 1.0, 1.0]);
    /// assert!(x.try_rms_norm::<DIM>(&g, 1e-5).is_err()); // DIM: 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_rms_norm<A>(
        &self,
        weight: &impl NormWeight<Self::Shape, A, Self::Elem>,
        eps: Self::Elem,
    ) -> Result<Tensor<Self::Elem, Self::Shape>, Error>
    where
        Self::Shape: Storage<Self::Elem>,
        A: Selector,
    {
        typed_norm::<Self, A>(("rms_norm", Norm::Rms), self, weight, None::<&Self>, eps)
    }
}

impl<X: Contractible<Elem: Transcendental>> Norms for X {}

/// A typed norm: the run-time plan of the operands' shapes, then the kernel.
fn typed_norm<X, A>(
    op: (&'static str, Norm),
    x: &X,
    weight: &impl Contractible<Elem = X::Elem>,
    bias: Option<&impl Contractible<Elem = X::Elem>>,
    eps: X::Elem,
) -> Result<Tensor<X::Elem, X::Shape>, Error>
where
    X: Contractible,
    X::Elem: Transcendental,
    X::Shape: Storage<X::Elem>,
    A: Selector,
{
    let axes = A::selectors();
    let bias_shape = bias.map(|_| shape_of(bias));
    let plan = norm(
        op.0,
        &X::Shape::to_dyn(),
        &axes,
        &shape_of(Some(weight)),
        bias_shape.as_ref(),
    )?;
    let mut own: [Own; 3] = Default::default();
    let [ox, ow, ob] = &mut own;
    let xl = x.layout(ox);
    let wb = (weight.layout(ow), bias.map(|b| b.layout(ob)));
    let text = || crate::dynamic::norm::axes_text(&axes);
    let data = run(op, &plan, xl, wb, eps, &text)?;
    Ok(Tensor::from_parts(xl.sizes, data))
}

/// The static shape of an operand's type.
fn shape_of<W: Contractible>(_: Option<&W>) -> crate::values::shape::DynShape {
    W::Shape::to_dyn()
}
