//! Padding on data (rule book §22; the shape from [`dynamic::pad`](crate::dynamic::pad)): one
//! walk over the output in row-major order, each element read from the input position its
//! index maps to (shifted by the padding; clamped, mirrored or a constant outside), through
//! the input's strides.

use crate::alloc_prelude::*;

use crate::dynamic::pad::{pad_ends, widths_text, PadMode};
use crate::engine::layout::Strided;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::pad::{PadOver, PadWidth, Padded};
use crate::typed::reduce::Selector;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// `x` (of shape `shape`, every size known) padded by `before` and `after` elements at the
/// two ends of the selected axes: the output shape, sizes and data, or the error of the shape
/// rule or of the mode.
fn padded<T: Clone>(
    x: Strided<'_, T>,
    shape: &DynShape,
    axes: &[AxisSelector],
    (before, after): (usize, usize),
    mode: &PadMode<T>,
) -> Result<(DynShape, Vec<usize>, Vec<T>), Error> {
    let (out_shape, at) = pad_ends(shape, axes, (before, after))?;
    let refuse = crate::dynamic::pool::refusal("pad", shape, axes);
    let Strided {
        sizes,
        strides,
        data,
    } = x;
    // As PyTorch: each end's reflection must be shorter than the axis (a width of 0 always
    // fits), and replicating needs an element.
    let too_wide = |n: usize| (before > 0 && before >= n) || (after > 0 && after >= n);
    if let PadMode::Reflect = mode
        && let Some(&k) = at.iter().find(|&&k| too_wide(sizes[k]))
    {
        return Err(refuse(format!(
            "reflect padding {} must be shorter than axis {k}, of size {}",
            widths_text(before, after),
            sizes[k]
        )));
    }
    if let PadMode::Replicate = mode
        && let Some(&k) = at
            .iter()
            .find(|&&k| sizes[k] == 0 && (before > 0 || after > 0))
    {
        return Err(refuse(format!("axis {k} is empty: nothing to replicate")));
    }
    // `shape` knows every size, so the rule added (with checks) every padded one.
    let out_sizes = out_shape.known_sizes().ok_or_else(|| Error::UnknownSize {
        shape: out_shape.clone(),
    })?;
    let total = crate::engine::allocation::ensure::<T>(&out_sizes, || out_shape.clone())?;
    let mut out = Vec::with_capacity(total);
    let rank = sizes.len();
    let mut index = vec![0usize; rank];
    let grows: Vec<bool> = (0..rank).map(|k| at.contains(&k)).collect();
    for _ in 0..total {
        let mut offset = Some(0usize);
        for k in 0..rank {
            let i = if grows[k] {
                let n = sizes[k] as isize;
                let i = index[k] as isize - before as isize;
                match mode {
                    _ if (0..n).contains(&i) => Some(i as usize),
                    PadMode::Constant(_) => None,
                    PadMode::Replicate => Some(i.clamp(0, n - 1) as usize),
                    PadMode::Reflect => Some(if i < 0 { -i } else { 2 * (n - 1) - i } as usize),
                }
            } else {
                Some(index[k])
            };
            offset = match (offset, i) {
                (Some(o), Some(i)) => Some(o + i * strides[k]),
                _ => None,
            };
        }
        out.push(match (offset, mode) {
            (Some(o), _) => data[o].clone(),
            (None, PadMode::Constant(v)) => v.clone(),
            (None, _) => unreachable!("only constant padding leaves the input"),
        });
        for k in (0..rank).rev() {
            index[k] += 1;
            if index[k] < out_sizes[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Ok((out_shape, out_sizes, out))
}

impl<T: Clone> DynTensor<T> {
    /// This tensor padded by `padding` at both ends of each selected axis (rule book §22;
    /// PyTorch's `F.pad` with the same width on every side), filled by `mode`; or the error:
    /// an axis missing or selected twice, reflect padding not shorter than its axis.
    /// [`pad_ends`](Self::pad_ends) takes a width for each end.
    ///
    /// ```
    /// use shapecast::{DynTensor, PadMode};
    /// let x = DynTensor::from_vec("[T: 3]".parse()?, vec![1, 2, 3])?;
    /// let t = ["T".parse()?];
    /// assert_eq!(x.pad(&t, 2, &PadMode::Constant(0))?.data(), &[0, 0, 1, 2, 3, 0, 0]);
    /// assert_eq!(x.pad(&t, 2, &PadMode::Reflect)?.data(), &[3, 2, 1, 2, 3, 2, 1]);
    /// assert_eq!(x.pad(&t, 2, &PadMode::Replicate)?.data(), &[1, 1, 1, 2, 3, 3, 3]);
    /// assert!(x.pad(&t, 3, &PadMode::Reflect).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn pad(
        &self,
        axes: &[AxisSelector],
        padding: usize,
        mode: &PadMode<T>,
    ) -> Result<DynTensor<T>, Error> {
        self.pad_ends(axes, (padding, padding), mode)
    }

    /// This tensor padded by `before` elements before and `after` elements after each
    /// selected axis' elements (PyTorch's `F.pad` pair `(left, right)`, the same pair on
    /// every selected axis), filled by `mode`; or the error of [`pad`](Self::pad), a
    /// reflection as wide as its axis at either end included.
    ///
    /// ```
    /// use shapecast::{DynTensor, PadMode};
    /// let x = DynTensor::from_vec("[T: 3]".parse()?, vec![1, 2, 3])?;
    /// let t = ["T".parse()?];
    /// // A causal padding: the first output of a 3-wide window sees only the first input.
    /// assert_eq!(x.pad_ends(&t, (2, 0), &PadMode::Constant(0))?.data(), &[0, 0, 1, 2, 3]);
    /// assert_eq!(x.pad_ends(&t, (0, 2), &PadMode::Reflect)?.data(), &[1, 2, 3, 2, 1]);
    /// assert!(x.pad_ends(&t, (0, 3), &PadMode::Reflect).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn pad_ends(
        &self,
        axes: &[AxisSelector],
        (before, after): (usize, usize),
        mode: &PadMode<T>,
    ) -> Result<DynTensor<T>, Error> {
        let mut own = Default::default();
        let x = self.layout(&mut own);
        let (shape, sizes, data) = padded(x, self.shape(), axes, (before, after), mode)?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

/// Padding at the ends of axes selected by name (rule book §22; PyTorch's `F.pad`), on a
/// [`Tensor`], a [`TensorView`](crate::TensorView) and a
/// [`TensorViewMut`](crate::TensorViewMut) alike, the padded sizes computed at compile time
/// where static. In the [prelude](crate::prelude); `DynTensor::pad` takes selectors known at
/// run time.
///
/// ```
/// use shapecast::{names, shape, Pad, PadMode, Padding, Tensor};
/// names!(T);
/// let x = Tensor::<i32, shape![T: 3]>::from_array([1, 2, 3]);
/// let y: Tensor<i32, shape![T: 5]> = x.view().pad::<T, Pad<1>>(&PadMode::Constant(0));
/// assert_eq!(y.data(), &[0, 1, 2, 3, 0]);
/// ```
pub trait Padding: Contractible {
    /// This tensor padded by `P` ([`Pad<BEFORE, AFTER>`](crate::Pad), `Pad<P>` for the same
    /// width at both ends) at the ends of each axis `A` selects, filled by `mode` (rule book
    /// §22; PyTorch's `F.pad`); the padded sizes are computed at compile time where static.
    ///
    /// # Panics
    ///
    /// When reflect padding is not shorter than its axis (or replicate pads an empty
    /// axis); [`try_pad`](Self::try_pad) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Pad, PadMode, Padding, Tensor};
    /// names!(H, W);
    /// let x = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 2], [3, 4]]);
    /// let y: Tensor<i32, shape![H: 4, W: 4]> = x.pad::<(H, W), Pad<1>>(&PadMode::Replicate);
    /// assert_eq!(&y.data()[..4], &[1, 1, 2, 2]);
    /// ```
    #[track_caller]
    fn pad<A, P>(&self, mode: &PadMode<Self::Elem>) -> Tensor<Self::Elem, Padded<Self::Shape, A, P>>
    where
        A: Selector,
        P: PadWidth,
        Self::Shape: PadOver<A, P>,
        Self::Elem: Clone,
    {
        self.try_pad::<A, P>(mode).or_panic()
    }

    /// [`pad`](Self::pad), or the error when reflect padding is not shorter than its
    /// axis (or replicate pads an empty axis).
    ///
    /// ```
    /// use shapecast::{names, shape, Pad, PadMode, Padding, Tensor};
    /// names!(T);
    /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[2], vec![1.0, 2.0])?;
    /// assert!(x.try_pad::<T, Pad<2>>(&PadMode::Reflect).is_err());
    /// assert_eq!(x.try_pad::<T, Pad<1>>(&PadMode::Reflect)?.data(), &[2.0, 1.0, 2.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn try_pad<A, P>(
        &self,
        mode: &PadMode<Self::Elem>,
    ) -> Result<Tensor<Self::Elem, Padded<Self::Shape, A, P>>, Error>
    where
        A: Selector,
        P: PadWidth,
        Self::Shape: PadOver<A, P>,
        Self::Elem: Clone,
    {
        let mut own = Own::default();
        let x = self.layout(&mut own);
        let shape = self.shape_dyn();
        let widths = (P::BEFORE, P::AFTER);
        let (_, sizes, data) = padded(x, &shape, &A::selectors(), widths, mode)?;
        Ok(Tensor::from_parts(&sizes, data))
    }
}

impl<X: Contractible + ?Sized> Padding for X {}
