//! What a tensor's elements and constructors are made of: [`Scalar`] (the element types that
//! are scalar operands) and [`NestedArray`] (the nested arrays `Tensor::from_array` takes).

use crate::alloc_prelude::*;

use crate::typed::axis::Axis;

/// An element type that is a scalar operand of the operators (`&t * 2.0`): the primitive
/// numbers, `bool` and the half-precision [`f16`](crate::f16) and [`bf16`](crate::bf16). A tensor is never a scalar, which keeps `tensor + scalar` apart from
/// `tensor + tensor` (and lets a nested tensor's element meet a scalar, rule book §13).
///
/// ```
/// use shapecast::{shape, Tensor};
/// let t = Tensor::<f64, shape![2]>::from_vec(vec![1.0, 2.0])?;
/// assert_eq!((&t * 2.0).data(), &[2.0, 4.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Scalar: Clone {}

macro_rules! scalars {
    ($($t:ty),*) => { $(impl Scalar for $t {})* };
}
scalars!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, bool);
scalars!(half::f16, half::bf16);

/// Nested arrays of `T` with `D` levels (`D` is [`Depth`]`<N>`, inferred): what
/// [`Tensor::from_array`](crate::Tensor::from_array) takes. A bare `T` is depth 0.
///
/// ```
/// use shapecast::NestedArray;
/// assert_eq!(<[[u8; 3]; 2] as NestedArray<u8, _>>::DIMS, &[2, 3]);
/// assert_eq!(NestedArray::<u8, _>::into_elements([[1u8, 2], [3, 4]]), vec![1, 2, 3, 4]);
/// ```
pub trait NestedArray<T, D> {
    /// The dimensions, outermost first.
    const DIMS: &'static [usize];
    /// The elements in row-major order.
    fn into_elements(self) -> Vec<T>;
}

/// The depth of a [`NestedArray`]: how many array levels lie above the element.
///
/// ```
/// use shapecast::{Depth, NestedArray};
/// fn dims<A: NestedArray<i32, Depth<2>>>(_: &A) -> &'static [usize] { A::DIMS }
/// assert_eq!(dims(&[[1, 2, 3]]), &[1, 3]);
/// ```
pub struct Depth<const N: usize>;

impl<T> NestedArray<T, Depth<0>> for T {
    const DIMS: &'static [usize] = &[];
    fn into_elements(self) -> Vec<T> {
        vec![self]
    }
}

macro_rules! nested {
    ($depth:literal, $ty:ty, [$($n:ident),+], $flat:expr_2021) => {
        impl<T, $(const $n: usize),+> NestedArray<T, Depth<$depth>> for $ty {
            const DIMS: &'static [usize] = &[$($n),+];
            fn into_elements(self) -> Vec<T> {
                let flat: fn(Self) -> Vec<T> = $flat;
                flat(self)
            }
        }
    };
}
nested!(1, [T; A], [A], |a| a.into_iter().collect());
nested!(2, [[T; B]; A], [A, B], |a| a
    .into_iter()
    .flatten()
    .collect());
nested!(3, [[[T; C]; B]; A], [A, B, C], |a| a
    .into_iter()
    .flatten()
    .flatten()
    .collect());
nested!(4, [[[[T; D]; C]; B]; A], [A, B, C, D], |a| {
    a.into_iter().flatten().flatten().flatten().collect()
});
nested!(5, [[[[[T; E]; D]; C]; B]; A], [A, B, C, D, E], |a| {
    a.into_iter()
        .flatten()
        .flatten()
        .flatten()
        .flatten()
        .collect()
});
nested!(
    6,
    [[[[[[T; F]; E]; D]; C]; B]; A],
    [A, B, C, D, E, F],
    |a| {
        a.into_iter()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .collect()
    }
);

/// A static size equal to `N` (`S<N>`, whatever its digits' representation).
#[doc(hidden)]
pub trait SizeIs<const N: usize> {}
impl<const N: usize, B> SizeIs<N> for crate::typed::size::S<N, B> {}

/// Nested arrays of `T` whose dimensions are the static sizes of the shape `S`, outermost
/// first: what [`Tensor::from_array`](crate::Tensor::from_array) takes. A bare `T` is an array of the shape `[]`.
///
/// ```
/// use shapecast::{names, shape, ArrayOf};
/// names!(H, W);
/// fn elements<A: ArrayOf<u8, shape![H: 2, W: 3]>>(a: A) -> Vec<u8> { a.into_elements() }
/// assert_eq!(elements([[1, 2, 3], [4, 5, 6]]), vec![1, 2, 3, 4, 5, 6]);
/// ```
///
/// Any other nesting is a compile error naming the array and the shape:
///
/// ```compile_fail
/// use shapecast::{shape, Tensor};
/// let t = Tensor::<i32, shape![3, 2]>::from_array([[1, 2, 3], [4, 5, 6]]); // 2x3, not 3x2
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array of the shape `{S}`",
    label = "the nested arrays' lengths must be the shape's sizes, outermost first",
    note = "a size known only at run time cannot come from an array: use `from_vec_sized`"
)]
pub trait ArrayOf<T, S>: Sized {
    /// The elements in row-major order.
    fn into_elements(self) -> Vec<T>;
}

#[diagnostic::do_not_recommend]
impl<T> ArrayOf<T, ()> for T {
    fn into_elements(self) -> Vec<T> {
        vec![self]
    }
}

macro_rules! array_of {
    ($depth:literal, $ty:ty, [$(($n:ident, $x:ident)),+]) => {
        #[diagnostic::do_not_recommend]
        impl<T, $(const $n: usize, $x: Axis),+> ArrayOf<T, ($($x,)+)> for $ty
        where
            $($x::Size: SizeIs<$n>),+
        {
            fn into_elements(self) -> Vec<T> {
                <Self as NestedArray<T, Depth<$depth>>>::into_elements(self)
            }
        }
    };
}
array_of!(1, [T; A], [(A, XA)]);
array_of!(2, [[T; B]; A], [(A, XA), (B, XB)]);
array_of!(3, [[[T; C]; B]; A], [(A, XA), (B, XB), (C, XC)]);
array_of!(
    4,
    [[[[T; D]; C]; B]; A],
    [(A, XA), (B, XB), (C, XC), (D, XD)]
);
array_of!(
    5,
    [[[[[T; E]; D]; C]; B]; A],
    [(A, XA), (B, XB), (C, XC), (D, XD), (E, XE)]
);
array_of!(
    6,
    [[[[[[T; F]; E]; D]; C]; B]; A],
    [(A, XA), (B, XB), (C, XC), (D, XD), (E, XE), (F, XF)]
);
