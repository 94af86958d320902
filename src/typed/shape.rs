//! Type-level shapes (the twin of [`DynShape`]): tuples of axes, written with
//! [`shape!`](crate::shape) in the notation of the rule book.
//!
//! ```
//! use shapecast::{names, shape, Shape};
//! names!(CHANNEL, H, W);
//! type Img = shape![?, CHANNEL: 3, H, W];
//! assert_eq!(<Img as Shape>::RANK, 4);
//! assert_eq!(<Img as Shape>::SIZES, &[None, Some(3), None, None]);
//! assert_eq!(<Img as Shape>::NAMES, &[None, Some("CHANNEL"), Some("H"), Some("W")]);
//! assert_eq!(<Img as Shape>::to_dyn().to_string(), "[?, CHANNEL: 3, H, W]");
//! ```

use alloc::borrow::Cow;

use super::bits::Cond;
use crate::values::sealed::Sealed;
use crate::values::shape::{same_str, DynAxis, DynShape, Name, Size};

/// A shape at the type level: rank, static sizes and names as constants, and the conversion
/// to the run-time shape. Implemented by the tuples [`shape!`](crate::shape) writes (up to
/// rank 16); zero-sized.
///
/// ```
/// use shapecast::{shape, Shape};
/// assert_eq!(<shape![] as Shape>::RANK, 0);
/// assert_eq!(core::mem::size_of::<shape![2, 3]>(), 0);
/// ```
pub trait Shape: Sealed + 'static {
    /// The number of axes.
    const RANK: usize;
    /// The static sizes, `None` for `?`.
    const SIZES: &'static [Option<usize>];
    /// The names, `None` for unnamed axes.
    const NAMES: &'static [Option<&'static str>];
    /// Theano's broadcastable pattern (rule book §7): true where the axis is statically 1.
    ///
    /// ```
    /// use shapecast::{shape, Shape};
    /// assert_eq!(<shape![1, ?, 3] as Shape>::BROADCASTABLE, &[true, false, false]);
    /// ```
    const BROADCASTABLE: &'static [bool];
    /// The axes last first, each tagged with its index; their element count picks the
    /// buffer of the shape's tensors.
    #[doc(hidden)]
    type Rev: super::buffer::Count;
    /// Whether any axis has a name.
    #[doc(hidden)]
    type HasNames: Cond;
    /// The run-time sizes a tensor of this shape carries: `[usize; RANK]`.
    #[doc(hidden)]
    type Sizes: Copy + Default + AsRef<[usize]> + AsMut<[usize]> + core::fmt::Debug;

    /// The run-time twin of this shape.
    ///
    /// A tuple written by hand that names two axes alike (which `shape!` refuses) is
    /// refused here too: building a program that calls this on it fails at compile time.
    ///
    /// ```
    /// use shapecast::{names, shape, Shape};
    /// names!(W);
    /// assert_eq!(<shape![3, W: 4]>::to_dyn().to_string(), "[3, W: 4]");
    /// ```
    fn to_dyn() -> DynShape {
        const {
            assert!(
                distinct(Self::NAMES),
                "a shape type names two axes alike: write shapes with shape!, which refuses it"
            )
        };
        let axes = Self::SIZES
            .iter()
            .zip(Self::NAMES)
            .map(|(size, name)| DynAxis {
                size: size.map_or(Size::Unknown, Size::Known),
                name: name
                    .map(|n| Name::new(Cow::Borrowed(n)).expect("names! declares identifiers")),
            });
        DynShape::new(axes).expect("checked at compile time above")
    }
}

/// `Self` has the rank of `S`: what [`align_to`](crate::TensorView::align_to) asks of its
/// target, which reorders axes and never adds or removes one.
///
/// ```
/// use shapecast::{names, shape, SameRankAs};
/// names!(H, W);
/// fn reorder<T: SameRankAs<shape![H, W]>>() {}
/// reorder::<shape![W, H]>();
/// ```
///
/// ```compile_fail
/// use shapecast::{names, shape, SameRankAs};
/// names!(H, W, C);
/// fn reorder<T: SameRankAs<shape![H, W]>>() {}
/// reorder::<shape![W, H, C]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not have the rank of `{S}`: `align_to` only reorders axes",
    label = "a different rank",
    note = "to change the rank use `insert_axis`, `select`, `split_axis` or `merge_axes`"
)]
pub trait SameRankAs<S> {}

#[diagnostic::do_not_recommend]
impl<S: Shape, T: Shape<Sizes = S::Sizes>> SameRankAs<S> for T {}

/// Whether no name occurs twice (compared as strings, in a const context).
const fn distinct(names: &[Option<&str>]) -> bool {
    let mut i = 0;
    while i < names.len() {
        let mut j = i + 1;
        while j < names.len() {
            if let (Some(a), Some(b)) = (names[i], names[j])
                && same_str(a, b)
            {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::distinct;

    #[test]
    fn distinct_compares_names_as_strings() {
        assert!(distinct(&[Some("H"), None, Some("W"), None]));
        assert!(!distinct(&[Some("H"), None, Some("H")]));
        assert!(distinct(&[Some("H"), Some("HW")]));
    }
}
