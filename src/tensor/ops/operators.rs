//! The operators on typed tensors: `+ - * / % & | ^` (named rule, owned or borrowed
//! operands, a scalar on the right), their `try_` and `_into` forms, compound assignment by the
//! assignment rule, comparisons by the comparison rule, and unary `-` and `!`.

use core::ops;

use super::math::MapSource;
use super::zip_plan::{ByNamed, ByRule};
use crate::engine::raw;
use crate::engine::zip_fn::{cloned, owned_left, owned_right, Parallel};
use crate::tensor::elements::Scalar;
use crate::tensor::tensor::Tensor;
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder};
use crate::typed::rule::{Assign, Compare};
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};

/// Comparisons (rule book §6): a scalar operand, or identical shapes; the result holds booleans.
macro_rules! comparison {
    ($name:ident, $Trait:ident :: $method:ident, $doc:literal) => {
        impl<T: Copy + PartialOrd + Sync, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`self ", $doc, " rhs` elementwise by the comparison rule (rule book §6).")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
            /// let b = Tensor::<i32, shape![]>::from_vec(vec![2])?;
            #[doc = concat!("assert_eq!(a.", stringify!($name), "(&b)?.sizes(), &[3]);")]
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $name<B: Storage<T>>(
                &self,
                rhs: &Tensor<T, B>,
            ) -> Result<Tensor<bool, BroadcastBy<Compare, S, B>>, Error>
            where
                S: BroadcastsUnder<Compare, B>,
            {
                self.zip_by::<ByRule<Compare>, _, _, _, _>(rhs, Parallel(<T as $Trait>::$method))
            }
        }
    };
}

comparison!(eq_elem, PartialEq::eq, "==");
comparison!(ne_elem, PartialEq::ne, "!=");
comparison!(lt, PartialOrd::lt, "<");
comparison!(le, PartialOrd::le, "<=");
comparison!(gt, PartialOrd::gt, ">");
comparison!(ge, PartialOrd::ge, ">=");

/// One compound-assignment operator (`+=` …) by the assignment rule, and with a scalar.
macro_rules! assign_op {
    ($Op:ident, $op:ident, $Base:ident, $base:ident) => {
        impl<T, S> ops::$Op<T> for Tensor<T, S>
        where
            T: Scalar + Copy + Send + Sync + ops::$Base<Output = T>,
            S: Storage<T>,
        {
            /// Every element combined with the scalar, in place.
            fn $op(&mut self, rhs: T) {
                raw::map_in_place(self.data_mut(), raw::Cost::Cheap, move |x| {
                    ops::$Base::$base(x, rhs)
                });
            }
        }

        impl<T, A, B> ops::$Op<&Tensor<T, B>> for Tensor<T, A>
        where
            T: Clone + ops::$Base<Output = T>,
            A: BroadcastsUnder<Assign, B> + Storage<T>,
            B: Storage<T>,
        {
            /// Panics with the rule book §15 message when a `?` size does not fit.
            #[track_caller]
            fn $op(&mut self, rhs: &Tensor<T, B>) {
                self.assign_by(rhs, cloned(<T as ops::$Base>::$base))
                    .or_panic();
            }
        }
    };
}

assign_op!(AddAssign, add_assign, Add, add);
assign_op!(SubAssign, sub_assign, Sub, sub);
assign_op!(MulAssign, mul_assign, Mul, mul);
assign_op!(DivAssign, div_assign, Div, div);
assign_op!(RemAssign, rem_assign, Rem, rem);
assign_op!(BitAndAssign, bitand_assign, BitAnd, bitand);
assign_op!(BitOrAssign, bitor_assign, BitOr, bitor);
assign_op!(BitXorAssign, bitxor_assign, BitXor, bitxor);

impl<T: Clone + ops::Neg, S: Storage<T> + Storage<T::Output>> ops::Neg for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn neg(self) -> Self::Output {
        self.map_ref(|x| -x.clone())
    }
}

impl<T: Clone + ops::Neg, S: Storage<T> + Storage<T::Output>> ops::Neg for Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn neg(self) -> Self::Output {
        -&self
    }
}

impl<T: Clone + ops::Not, S: Storage<T> + Storage<T::Output>> ops::Not for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn not(self) -> Self::Output {
        self.map_ref(|x| !x.clone())
    }
}

impl<T: Clone + ops::Not, S: Storage<T> + Storage<T::Output>> ops::Not for Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn not(self) -> Self::Output {
        !&self
    }
}

/// The checked and the panicking form of one binary operator, into a caller's tensor, and
/// with a scalar on the right.
macro_rules! binary_op {
    ($Op:ident, $op:ident, $try_op:ident, $op_into:ident, $doc:literal) => {
        impl<T: Clone + Send + Sync + ops::$Op<Output = T>, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`out = a ", $doc, " b` by the named rule, written into `out` (its allocation is reused).")]
            ///
            /// The output's type is the broadcast of the operands' shapes, so only a `?` size
            /// can make this fail; `out` is left as it was on error.
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![2, 2]>::from_vec(vec![8, 6, 4, 2])?;
            /// let b = Tensor::<i32, shape![2]>::from_vec(vec![2, 1])?;
            /// let mut out = Tensor::<i32, shape![2, 2]>::full(0)?;
            #[doc = concat!("Tensor::", stringify!($op_into), "(&a, &b, &mut out)?;")]
            /// assert_eq!(out.sizes(), &[2, 2]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $op_into<A: BroadcastWith<B, Output = S> + Storage<T>, B: Storage<T>>(
                a: &Tensor<T, A>,
                b: &Tensor<T, B>,
                out: &mut Tensor<T, S>,
            ) -> Result<(), Error> {
                a.zip_into::<ByNamed, _, _, _, _>(b, out, Parallel(cloned(<T as ops::$Op>::$op)))
            }
        }

        impl<T, S> ops::$Op<T> for &Tensor<T, S>
        where
            T: Scalar + Copy + Sync + ops::$Op<Output: Send>,
            S: Storage<T> + Storage<<T as ops::$Op>::Output>,
        {
            type Output = Tensor<<T as ops::$Op>::Output, S>;

            #[doc = concat!("Every element `", $doc, "` the scalar, as a new tensor (split over threads with the `rayon` feature for large tensors).")]
            fn $op(self, rhs: T) -> Self::Output {
                Tensor::from_parts(self.sizes(), raw::map_to_vec(self.data(), raw::Cost::Cheap, move |x| ops::$Op::$op(x, rhs)))
            }
        }

        impl<T, S> ops::$Op<T> for Tensor<T, S>
        where
            T: Scalar + Copy + Send + Sync + ops::$Op<Output = T>,
            S: Storage<T>,
        {
            type Output = Tensor<T, S>;

            #[doc = concat!("Every element `", $doc, "` the scalar, written into this tensor's own buffer.")]
            fn $op(self, rhs: T) -> Self::Output {
                self.map_elements(raw::Cost::Cheap, move |x| ops::$Op::$op(x, rhs))
            }
        }

        impl<T: Clone, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("`self ", $doc, " rhs` by the named rule, or the error when a `?` size does not fit.")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![2, 2]>::from_vec(vec![8, 6, 4, 2])?;
            /// let b = Tensor::<i32, shape![2]>::from_vec(vec![2, 1])?;
            #[doc = concat!("let c = a.", stringify!($try_op), "(&b)?;")]
            /// assert_eq!(c.sizes(), &[2, 2]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $try_op<U: Clone + Sync, B: Storage<U>>(
                &self,
                rhs: &Tensor<U, B>,
            ) -> Result<Tensor<<T as ops::$Op<U>>::Output, Broadcast<S, B>>, Error>
            where
                T: ops::$Op<U, Output: Send> + Sync,
                S: BroadcastWith<B>,
            {
                self.zip_by::<ByNamed, _, _, _, _>(rhs, Parallel(cloned(<T as ops::$Op<U>>::$op)))
            }
        }

        impl<T, U, A, B> ops::$Op<&Tensor<U, B>> for &Tensor<T, A>
        where
            T: Clone + Sync + ops::$Op<U, Output: Send>,
            U: Clone + Sync,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
        {
            type Output = Tensor<<T as ops::$Op<U>>::Output, Broadcast<A, B>>;

            /// Panics with the rule book §15 message when a `?` size does not fit.
            #[track_caller]
            fn $op(self, rhs: &Tensor<U, B>) -> Self::Output {
                self.$try_op(rhs).or_panic()
            }
        }

        impl<T, U, A, B> ops::$Op<Tensor<U, B>> for Tensor<T, A>
        where
            T: Clone + Send + Sync + ops::$Op<U, Output = T>,
            U: Clone + Sync,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
        {
            type Output = Tensor<T, Broadcast<A, B>>;

            /// Writes into the left operand's heap buffer when it has the output's shape.
            ///
            /// # Panics
            ///
            /// With the rule book §15 message when a `?` size does not fit.
            #[track_caller]
            fn $op(self, rhs: Tensor<U, B>) -> Self::Output {
                ops::$Op::$op(self, &rhs)
            }
        }

        impl<T, U, A, B> ops::$Op<&Tensor<U, B>> for Tensor<T, A>
        where
            T: Clone + Send + Sync + ops::$Op<U, Output = T>,
            U: Clone + Sync,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
        {
            type Output = Tensor<T, Broadcast<A, B>>;

            /// Writes into the left operand's heap buffer when it has the output's shape (the
            /// right operand broadcast into it), else allocates as `&a op &b` does. Small static
            /// tensors live inline and are written fresh by the compile-time kernel.
            ///
            /// # Panics
            ///
            /// With the rule book §15 message when a `?` size does not fit.
            #[track_caller]
            fn $op(self, rhs: &Tensor<U, B>) -> Self::Output {
                self.reuse_by(rhs, owned_left(<T as ops::$Op<U>>::$op))
                    .or_panic()
            }
        }

        impl<T, U, A, B> ops::$Op<Tensor<U, B>> for &Tensor<T, A>
        where
            T: Clone + Sync + ops::$Op<U, Output = U>,
            U: Clone + Send + Sync,
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<U>,
        {
            type Output = Tensor<U, Broadcast<A, B>>;

            /// Writes into the right operand's heap buffer when it has the output's shape (the
            /// left operand broadcast into it), else allocates as `&a op &b` does.
            ///
            /// # Panics
            ///
            /// With the rule book §15 message when a `?` size does not fit.
            #[track_caller]
            fn $op(self, rhs: Tensor<U, B>) -> Self::Output {
                self.reuse_right_by(rhs, owned_right(<T as ops::$Op<U>>::$op))
                    .or_panic()
            }
        }
    };
}

binary_op!(Add, add, try_add, add_into, "+");
binary_op!(Sub, sub, try_sub, sub_into, "-");
binary_op!(Mul, mul, try_mul, mul_into, "*");
binary_op!(Div, div, try_div, div_into, "/");
binary_op!(Rem, rem, try_rem, rem_into, "%");
binary_op!(BitAnd, bitand, try_bitand, bitand_into, "&");
binary_op!(BitOr, bitor, try_bitor, bitor_into, "|");
binary_op!(BitXor, bitxor, try_bitxor, bitxor_into, "^");

/// A scalar on the left of `+ - * / %`: `0.5 * &t` (a new tensor) and `2.0 * t` (written into
/// `t`'s own buffer), for each float and integer element type. (Rust's orphan rule needs one
/// impl per scalar type: `impl Mul<&Tensor<f32, S>> for f32`.)
macro_rules! scalar_on_the_left {
    ($($t:ty),*) => {$(
        scalar_on_the_left!(@op $t, Add, add, "+");
        scalar_on_the_left!(@op $t, Sub, sub, "-");
        scalar_on_the_left!(@op $t, Mul, mul, "*");
        scalar_on_the_left!(@op $t, Div, div, "/");
        scalar_on_the_left!(@op $t, Rem, rem, "%");
    )*};
    (@op $t:ty, $Op:ident, $op:ident, $doc:literal) => {
        impl<S: Storage<$t>> ops::$Op<&Tensor<$t, S>> for $t {
            type Output = Tensor<$t, S>;

            #[doc = concat!("The scalar `", $doc, "` every element, as a new tensor.")]
            fn $op(self, rhs: &Tensor<$t, S>) -> Tensor<$t, S> {
                Tensor::from_parts(
                    rhs.sizes(),
                    raw::map_to_vec(rhs.data(), raw::Cost::Cheap, move |x| ops::$Op::$op(self, x)),
                )
            }
        }

        impl<S: Storage<$t>> ops::$Op<Tensor<$t, S>> for $t {
            type Output = Tensor<$t, S>;

            #[doc = concat!("The scalar `", $doc, "` every element, written into the tensor's own buffer.")]
            fn $op(self, rhs: Tensor<$t, S>) -> Tensor<$t, S> {
                rhs.map_elements(raw::Cost::Cheap, move |x| ops::$Op::$op(self, x))
            }
        }
    };
}
scalar_on_the_left!(f32, f64, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{names, shape};

    names!(N, C, H, W);

    #[test]
    fn img_plus_lbl_matches_the_run_time_tensor() {
        let img = Tensor::<f32, shape![?, C: 3, H, W]>::from_fn(&[2, 3, 4, 5], |i| {
            (i[0] * 1000 + i[1] * 100 + i[2] * 10 + i[3]) as f32
        })
        .unwrap();
        let lbl =
            Tensor::<f32, shape![?, H, W]>::from_fn(&[2, 4, 5], |i| (i[1] * 10 + i[2]) as f32)
                .unwrap();
        let sum = &img + &lbl;
        let expected = img
            .to_dyn()
            .zip_with(crate::Rule::Named, &lbl.to_dyn(), |x, y| x + y)
            .unwrap();
        assert_eq!(sum.to_dyn(), expected);
        assert_eq!(*sum.at(&[1, 2, 3, 4]).unwrap(), 1234.0 + 34.0);
    }

    #[test]
    fn permuted_names_line_up() {
        let a = Tensor::<i32, shape![H: 2, W: 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
        let b = Tensor::<i32, shape![W: 3, H: 2]>::from_vec(vec![10, 40, 20, 50, 30, 60]).unwrap();
        let c = a - b;
        assert_eq!(c.data(), &[-9, -18, -27, -36, -45, -54]);
    }

    #[test]
    #[should_panic(expected = "cannot broadcast [2] with [3] (named rule)")]
    fn operators_panic_with_the_refusal() {
        let a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        let b = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3]).unwrap();
        let _ = &a * &b;
    }

    #[test]
    fn assignment_comparison_and_unary() {
        let mut a = Tensor::<i32, shape![2, 3]>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
        a += &Tensor::<i32, shape![3]>::from_vec(vec![10, 20, 30]).unwrap();
        assert_eq!(a.data(), &[11, 22, 33, 14, 25, 36]);
        let big = a
            .gt(&Tensor::<i32, shape![]>::from_vec(vec![20]).unwrap())
            .unwrap();
        assert_eq!(big.data(), &[false, true, true, false, true, true]);
        assert_eq!((-&a).data()[0], -11);
        assert_eq!((!&big).data(), &[true, false, false, true, false, false]);
        let same = a.eq_elem(&a.clone()).unwrap();
        assert!(same.data().iter().all(|&b| b));
    }

    #[test]
    #[should_panic(expected = "cannot assign [3] into [2] (assign rule)")]
    fn assignment_panics_on_a_run_time_size_that_does_not_fit() {
        let mut a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        a += &Tensor::<i32, shape![?]>::from_vec_sized(&[3], vec![1, 2, 3]).unwrap();
    }

    #[test]
    fn into_a_callers_tensor_and_with_scalars() {
        let a =
            Tensor::<i32, shape![?, 3]>::from_vec_sized(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
        let b = Tensor::<i32, shape![3]>::from_vec(vec![10, 20, 30]).unwrap();
        let mut out = Tensor::<i32, shape![?, 3]>::from_vec_sized(&[2, 3], vec![0; 6]).unwrap();
        Tensor::mul_into(&a, &b, &mut out).unwrap();
        assert_eq!(out.data(), &[10, 40, 90, 40, 100, 180]);
        assert_eq!((&a * 2).data(), &[2, 4, 6, 8, 10, 12]);
        let wrong = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2]).unwrap();
        let mut keep = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[1, 1], vec![7]).unwrap();
        let c = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[2, 3], vec![0; 6]).unwrap();
        assert!(Tensor::add_into(&c, &wrong, &mut keep).is_err());
        assert_eq!(keep.data(), &[7], "left as it was on error");
    }

    #[test]
    fn bit_operators_on_integers_and_bools() {
        let a = Tensor::<u8, shape![2]>::from_vec(vec![0b1100, 0b1010]).unwrap();
        let b = Tensor::<u8, shape![]>::from_vec(vec![0b0110]).unwrap();
        assert_eq!((&a ^ &b).data(), &[0b1010, 0b1100]);
        let p = Tensor::<bool, shape![2]>::from_vec(vec![true, false]).unwrap();
        let q = Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false]).unwrap();
        assert_eq!((&p & &q).data(), &[true, false, false, false]);
    }
}
