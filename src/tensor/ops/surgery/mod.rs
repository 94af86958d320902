//! Shape surgery on tensors and views (rule book §18): rename, insert an axis, select, slice,
//! split, merge, concatenate, stack. The output shapes come from `typed::surgery`, the
//! run-time shapes of [`DynTensor`]'s twins from `dynamic::surgery`.
//!
//! What copies and what does not:
//!
//! | operation | `Tensor` | `TensorView` | `DynTensor` |
//! |---|---|---|---|
//! | `rename`, `insert_axis` | no copy (the buffer moves) | no copy | a copy (it borrows `self`) |
//! | `select`, `slice`, `slice_to`, `step`, `split_axis` | a view | a view (`select`, `slice` and `step` on a `TensorViewMut` too, for writing) | a copy |
//! | `merge_axes` | a view | a view when the merged axes are contiguous in memory, else a copy ([`Reshaped`]) | a copy (it borrows `self`) |
//! | `concat`, `stack` | a new tensor | a new tensor | a new tensor |
//!
//! ```
//! use shapecast::{names, shape, Tensor, S};
//! names!(N, CHANNEL, H, W, PH, H4);
//! let img = Tensor::<f32, shape![?, CHANNEL: 3, H: 8, W: 8]>::from_fn(&[2, 3, 8, 8], |i| i[2] as
//! f32)?;
//! let red = img.select::<CHANNEL>(0)?; // [?, H: 8, W: 8], a view
//! let top = red.slice::<H>(0..4)?; // [?, H, W: 8]
//! assert_eq!(top.sizes(), &[2, 4, 8]);
//! let parts = img.split_axis::<H, (PH<S<2>>, H4<S<4>>)>()?; // [?, CHANNEL: 3, PH: 2, H4: 4, W: 8]
//! assert_eq!(*parts.at(&[0, 0, 1, 3, 0])?, 7.0);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::ops::{Bound, Range, RangeBounds};

use crate::dynamic::surgery as rt;
use crate::engine::walk::Offsets;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::tensor::Tensor;
use crate::tensor::view::{TensorView, TensorViewMut};
use crate::typed::axis::Axis;
use crate::typed::reduce::{OneAxis, Selector};
use crate::typed::shape::Shape;
use crate::typed::size::{AxisSize, S};
use crate::typed::storage::Storage;
use crate::typed::surgery::{
    Concat, ConcatWith, InsertAxis, InsertAxisAt, MergeAxes, MergeAxesInto, Rename, RenameAxis,
    Select, SelectAxis, Slice, SliceAxis, SliceTo, SplitAxis, SplitAxisInto, Stack, StackAt,
    StackAtStatic, StackUnder, StacksAt,
};
use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynShape, Name, Size};

mod concat;
mod insert;
mod merge;
mod rename;
mod select;
mod split;
mod step;

pub use concat::{concat, stack, stack_at, StackArray};
pub use merge::Reshaped;

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

/// Checks run-time sizes against a shape type's static sizes.
pub(super) fn fit<S: Shape>(what: &str, sizes: &[usize]) -> Result<(), Error> {
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

/// A selector for messages.
pub(super) fn show<A: Selector>() -> String {
    A::selectors()
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An axis for messages: its name, or "an unnamed axis".
pub(super) fn show_axis<N: Axis>() -> String {
    N::NAME.map_or_else(|| "an unnamed axis".to_string(), str::to_string)
}

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// The view's data, sizes and strides: what every surgery on a view starts from.
    pub(super) fn into_parts(self) -> (&'a [T], Vec<usize>, Vec<usize>) {
        let data = self.data_slice();
        let (sizes, strides) = (self.sizes().to_vec(), self.strides().to_vec());
        (data, sizes, strides)
    }
}
