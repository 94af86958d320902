//! The receiver trait: [`Contractible`], the one trait every typed operation that computes a
//! tensor is written over (a trait method with a blanket impl), implemented by [`Tensor`],
//! [`TensorView`] and [`TensorViewMut`] by handing the engine their layout.

use crate::engine::conv::Kept;
use crate::engine::layout::{row_major_into, Strided};
use crate::tensor::tensor::Tensor;
use crate::tensor::view::{TensorView, TensorViewMut};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::shape::{DynShape, MAX_TYPED_RANK};

/// A typed receiver of the operations: a [`Tensor`], a [`TensorView`] or a
/// [`TensorViewMut`] (read). Every operation written over it ([`Reductions`](crate::Reductions),
/// [`Pooling`](crate::Pooling), [`Padding`](crate::Padding), [`Dot`](crate::Dot), [`Norms`](crate::Norms),
/// [`Rope`](crate::Rope), [`Attention`](crate::Attention), [`Convolution`](crate::Convolution))
/// reaches all three through one blanket impl; users name it in a `where` clause to write
/// code generic over tensors and views.
///
/// ```
/// use shapecast::{names, shape, Contractible, Reductions, Tensor};
/// names!(CLASS);
/// fn total<X: Contractible<Elem = f32, Shape = shape![CLASS: 3]>>(x: &X) -> f32 {
///     x.sum::<CLASS>().data()[0]
/// }
/// let mut t = Tensor::<f32, shape![CLASS: 3]>::from_array([1.0, 2.0, 3.0]);
/// assert_eq!(total(&t), 6.0);
/// assert_eq!(total(&t.view()), 6.0);
/// assert_eq!(total(&t.view_mut()), 6.0);
/// ```
pub trait Contractible {
    /// The element type.
    type Elem;
    /// Its shape.
    type Shape: Shape;
    /// Its layout as the engine takes it: sizes, strides and data; a contiguous operand's
    /// row-major strides are written into `own`.
    #[doc(hidden)]
    fn layout<'s>(&'s self, own: &'s mut Own) -> Strided<'s, Self::Elem>;

    /// What a convolution keeps of this operand as a weight between calls: a
    /// [`ConvWeight`](crate::ConvWeight)'s transforms; nothing for a tensor or a view.
    #[doc(hidden)]
    fn kept(&self) -> Option<&Kept<Self::Elem>> {
        None
    }

    /// Its shape with the `?` sizes resolved, for error messages.
    #[doc(hidden)]
    fn shape_dyn(&self) -> DynShape {
        let mut own = Own::default();
        // The sizes were checked against the shape when the tensor or view was made.
        Self::Shape::to_dyn()
            .resolve(self.layout(&mut own).sizes)
            .expect("a tensor's sizes fit its shape")
    }
}

/// Room for the row-major strides of a contiguous typed operand, on the stack.
#[doc(hidden)]
pub type Own = [usize; MAX_TYPED_RANK];

impl<T, S: Storage<T>> Contractible for Tensor<T, S> {
    type Elem = T;
    type Shape = S;
    fn layout<'s>(&'s self, own: &'s mut Own) -> Strided<'s, T> {
        let sizes = self.sizes();
        row_major_into(sizes, own);
        Strided {
            sizes,
            strides: &own[..sizes.len()],
            data: self.data(),
        }
    }
}

impl<T, S: Shape> Contractible for TensorView<'_, T, S> {
    type Elem = T;
    type Shape = S;
    fn layout<'s>(&'s self, _: &'s mut Own) -> Strided<'s, T> {
        self.strided()
    }
}

impl<T, S: Shape> Contractible for TensorViewMut<'_, T, S> {
    type Elem = T;
    type Shape = S;
    fn layout<'s>(&'s self, _: &'s mut Own) -> Strided<'s, T> {
        Strided {
            sizes: &self.sizes,
            strides: &self.strides,
            data: self.data,
        }
    }
}
