//! A convolution weight kept with what convolutions derive from it: [`ConvWeight`]. A 3x3,
//! stride-1 convolution with at least 32 channels each way runs on Winograd's transforms
//! (`engine::winograd`), and the weight's transform (16/9 of the weight written, a third of
//! a 512-channel 7x7 convolution's time) is made on every call with a plain tensor. A
//! `ConvWeight` makes it on its first such convolution and keeps it: inference's weights do
//! not change between calls (PyTorch's and oneDNN's prepacked weights are the same idea).

use crate::engine::conv::Kept;
use crate::engine::layout::Strided;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::storage::Storage;

/// A convolution weight ([`Tensor`] or [`DynTensor`]) that keeps its Winograd transform
/// between convolutions, for a model's weights at inference. It convolves wherever its
/// tensor does, with the same result: `x.conv::<C, G>(&w)` (typed; a `ConvWeight` of a
/// tensor is a [`Contractible`] of the tensor's shape) and `x.conv(&w, "C", &spec)`
/// (`DynTensor`). The first 3x3, stride-1 convolution with at least 32 input and output
/// channels (and enough output tiles: 128 over the batch) transforms the weight and keeps
/// the transform; later ones read it (`docs/performance.md` has the figures). Every other
/// convolution takes the weight as it is. The weight cannot be changed while kept
/// ([`into_inner`](Self::into_inner) gives it back); a clone keeps its own transform. Without
/// the `std` feature nothing is kept.
///
/// ```
/// use shapecast::{names, shape, Conv, ConvWeight, Convolution, Tensor};
/// names!(N, C, K, H, W);
/// let x = Tensor::<f32, shape![N: 8, C: 32, H: 8, W: 8]>::from_fn(&[8, 32, 8, 8], |i| (i[1] + i[3]) as f32 * 0.01)?;
/// let w = Tensor::<f32, shape![K: 32, C: 32, H: 3, W: 3]>::from_fn(&[32, 32, 3, 3], |i| (i[0] as f32 - i[2] as f32) * 0.1)?;
/// let kept = ConvWeight::new(w.clone());
/// let y = x.conv::<C, Conv<1, 1>>(&w);
/// for _ in 0..2 {
///     // The first call makes the transform, the second reads it: the same result.
///     let z = x.conv::<C, Conv<1, 1>>(&kept);
///     assert_eq!(z.data(), y.data());
/// }
/// assert_eq!(kept.weight().data(), w.data());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct ConvWeight<W: ConvOperand> {
    weight: W,
    kept: Kept<W::Elem>,
}

impl<W: ConvOperand> ConvWeight<W> {
    /// Keeps `weight`'s transforms from its first convolution on (none is made before).
    ///
    /// ```
    /// use shapecast::{ConvWeight, DynTensor};
    /// let w = ConvWeight::new(DynTensor::from_vec("[K: 1, C: 1, H: 1]".parse()?, vec![2.0f32])?);
    /// assert_eq!(w.weight().data(), &[2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn new(weight: W) -> Self {
        ConvWeight {
            weight,
            kept: Kept::default(),
        }
    }

    /// The weight.
    ///
    /// ```
    /// use shapecast::{names, shape, ConvWeight, Tensor};
    /// names!(K, C);
    /// let w = ConvWeight::new(Tensor::<f32, shape![K: 1, C: 2]>::from_array([[1.0, 2.0]]));
    /// assert_eq!(w.weight().sizes(), &[1, 2]);
    /// ```
    pub fn weight(&self) -> &W {
        &self.weight
    }

    /// The weight, its kept transforms dropped.
    ///
    /// ```
    /// use shapecast::{names, shape, ConvWeight, Tensor};
    /// names!(K, C);
    /// let w = ConvWeight::new(Tensor::<f32, shape![K: 1, C: 2]>::from_array([[1.0, 2.0]]));
    /// let mut t = w.into_inner();
    /// t.data_mut()[0] = 5.0; // free to change again
    /// assert_eq!(t.data(), &[5.0, 2.0]);
    /// ```
    pub fn into_inner(self) -> W {
        self.weight
    }
}

impl<W: ConvOperand + Clone> Clone for ConvWeight<W> {
    /// The weight cloned, with a transform of its own made on its first use.
    fn clone(&self) -> Self {
        ConvWeight::new(self.weight.clone())
    }
}

impl<W: ConvOperand + core::fmt::Debug> core::fmt::Debug for ConvWeight<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ConvWeight")
            .field("weight", &self.weight)
            .finish_non_exhaustive()
    }
}

/// A tensor a [`ConvWeight`] holds: a [`Tensor`] or a [`DynTensor`].
pub trait ConvOperand {
    /// The element type.
    type Elem;
}

impl<T, S: Storage<T>> ConvOperand for Tensor<T, S> {
    type Elem = T;
}

impl<T> ConvOperand for DynTensor<T> {
    type Elem = T;
}

/// The weight [`DynTensor::conv`] takes: a [`DynTensor`], or a [`ConvWeight`] of one (which
/// keeps its transforms between calls).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a run-time convolution weight",
    label = "`DynTensor::conv` takes a `DynTensor` or a `ConvWeight` of one here",
    note = "a typed weight convolves a typed input: `x.conv::<C, G>(&w)`; or convert it with `to_dyn()`"
)]
pub trait DynConvWeight<T> {
    /// The weight, and the transforms kept with it.
    #[doc(hidden)]
    fn weight_and_kept(&self) -> (&DynTensor<T>, Option<&Kept<T>>);
}

#[diagnostic::do_not_recommend]
impl<T> DynConvWeight<T> for DynTensor<T> {
    fn weight_and_kept(&self) -> (&DynTensor<T>, Option<&Kept<T>>) {
        (self, None)
    }
}

#[diagnostic::do_not_recommend]
impl<T> DynConvWeight<T> for ConvWeight<DynTensor<T>> {
    fn weight_and_kept(&self) -> (&DynTensor<T>, Option<&Kept<T>>) {
        (&self.weight, Some(&self.kept))
    }
}

/// A kept typed weight is a receiver of its tensor's shape: it convolves (and contracts) as
/// the tensor does.
impl<T, S: Storage<T>> Contractible for ConvWeight<Tensor<T, S>> {
    type Elem = T;
    type Shape = S;
    fn layout<'s>(&'s self, own: &'s mut Own) -> Strided<'s, T> {
        self.weight.layout(own)
    }
    fn kept(&self) -> Option<&Kept<T>> {
        Some(&self.kept)
    }
}
