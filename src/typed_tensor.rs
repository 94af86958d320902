//! Tensors whose shape is a type: `Tensor<T, S>` for a [`shape!`](crate::shape) type `S`.
//! Arithmetic broadcasts by the named rule; shapes that cannot broadcast do not compile,
//! and `?` sizes are checked at run time (operators panic with the SPEC §15 message, as
//! ndarray and nalgebra do; `try_add` and friends return a `Result`).
//!
//! ```
//! use shapecast::{names, shape, Tensor};
//!
//! names!(CHANNEL, H, W);
//! let img: Tensor<f32, shape![?, CHANNEL: 3, H, W]> =
//!     Tensor::from_fn(&[2, 3, 4, 5], |i| i[1] as f32)?;
//! let lbl: Tensor<f32, shape![?, H, W]> = Tensor::from_fn(&[2, 4, 5], |i| i[2] as f32 / 10.0)?;
//! let sum = &img + &lbl; // Tensor<f32, shape![?, CHANNEL: 3, H, W]>
//! assert_eq!(*sum.at(&[1, 2, 3, 4])?, 2.4);
//! # Ok::<(), shapecast::Error>(())
//! ```
//!
//! ```compile_fail
//! use shapecast::{shape, Tensor};
//! let a: Tensor<f32, shape![3, 4]> = Tensor::full(0.0).unwrap();
//! let b: Tensor<f32, shape![5]> = Tensor::full(0.0).unwrap();
//! let _ = &a + &b; // cannot broadcast `(S<3>, S<4>)` with `(S<5>,)` under the named rule
//! ```

use core::fmt;
use core::marker::PhantomData;
use core::ops;

use crate::dynamic::rule::Rule;
use crate::dynamic::shape::DynShape;
use crate::error::Error;
use crate::rule::{Assign, Compare};
use crate::tensor::DynTensor;
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder, RuleMarker};
use crate::typed::shape::Shape;

/// A tensor of `T` with the type-level shape `S`.
///
/// ```
/// use shapecast::{shape, Tensor};
/// let t: Tensor<i32, shape![2, 2]> = Tensor::from_vec(vec![1, 2, 3, 4])?;
/// assert_eq!(t.sizes(), &[2, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct Tensor<T, S> {
    inner: DynTensor<T>,
    shape: PhantomData<S>,
}

impl<T: Clone, S> Clone for Tensor<T, S> {
    fn clone(&self) -> Self {
        Tensor {
            inner: self.inner.clone(),
            shape: PhantomData,
        }
    }
}

impl<T: fmt::Debug, S> fmt::Debug for Tensor<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("shape", &self.inner.shape().to_string())
            .field("data", &self.inner.data())
            .finish()
    }
}

impl<T, S: Shape> Tensor<T, S> {
    /// `S` with its `?` sizes taken from `sizes` (all of `S`'s sizes, in order).
    fn resolved(sizes: &[usize]) -> Result<DynShape, Error> {
        S::to_dyn().resolve(sizes)
    }

    /// `S` when every size is static.
    fn static_shape() -> Result<DynShape, Error> {
        let shape = S::to_dyn();
        match shape.known_sizes() {
            Some(_) => Ok(shape),
            None => Err(Error::UnknownSize { shape }),
        }
    }

    /// A tensor of a fully static shape from its data in row-major order.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert!(Tensor::<u8, shape![2, 3]>::from_vec(vec![0; 6]).is_ok());
    /// assert!(Tensor::<u8, shape![2, 3]>::from_vec(vec![0; 5]).is_err());
    /// assert!(Tensor::<u8, shape![?, 3]>::from_vec(vec![0; 6]).is_err()); // say the `?` size
    /// ```
    pub fn from_vec(data: Vec<T>) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_vec(Self::static_shape()?, data)?)
    }

    /// A tensor from its sizes (all of them, `?` ones included) and its data.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2, 3], vec![0; 6])?;
    /// assert_eq!(t.sizes(), &[2, 3]);
    /// assert!(Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2, 4], vec![0; 8]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_vec_sized(sizes: &[usize], data: Vec<T>) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_vec(Self::resolved(sizes)?, data)?)
    }

    /// A tensor whose element at each index is `f(index)`, with the given sizes.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<usize, shape![?, 2]>::from_fn(&[2, 2], |i| i[0] + i[1])?;
    /// assert_eq!(t.data(), &[0, 1, 1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_fn(sizes: &[usize], f: impl FnMut(&[usize]) -> T) -> Result<Self, Error> {
        Self::wrap(DynTensor::from_fn(Self::resolved(sizes)?, f)?)
    }

    /// A tensor of a fully static shape with every element `value`.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<f64, shape![2]>::full(0.5)?.data(), &[0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn full(value: T) -> Result<Self, Error>
    where
        T: Clone,
    {
        Self::wrap(DynTensor::full(Self::static_shape()?, value)?)
    }

    /// Checked conversion from a run-time tensor: same rank, names, and static sizes as `S`.
    ///
    /// ```
    /// use shapecast::{names, shape, DynTensor, Tensor};
    /// names!(H);
    /// let d = DynTensor::full("[H: 2, 3]".parse()?, 0)?;
    /// assert!(Tensor::<i32, shape![H, 3]>::from_dyn(d.clone()).is_ok());
    /// assert!(Tensor::<i32, shape![H, 4]>::from_dyn(d).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_dyn(tensor: DynTensor<T>) -> Result<Self, Error> {
        let expected = Self::resolved(tensor.sizes())?;
        if &expected != tensor.shape() {
            return Err(Error::SizesMismatch {
                shape: S::to_dyn(),
                sizes: tensor.sizes().to_vec(),
            });
        }
        Self::wrap(tensor)
    }

    fn wrap(inner: DynTensor<T>) -> Result<Self, Error> {
        Ok(Tensor {
            inner,
            shape: PhantomData,
        })
    }

    /// The run-time tensor.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![2]>::full(1)?;
    /// assert_eq!(t.into_dyn().shape().to_string(), "[2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn into_dyn(self) -> DynTensor<T> {
        self.inner
    }

    /// The run-time tensor, borrowed.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<u8, shape![?]>::from_vec_sized(&[3], vec![1, 2, 3])?;
    /// assert_eq!(t.as_dyn().shape().to_string(), "[3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn as_dyn(&self) -> &DynTensor<T> {
        &self.inner
    }

    /// The sizes, `?` ones resolved.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![?, 2]>::from_vec_sized(&[1, 2], vec![0, 0])?.sizes(), &[1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.inner.sizes()
    }

    /// The data, row-major.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// assert_eq!(Tensor::<u8, shape![2]>::from_vec(vec![4, 5])?.data(), &[4, 5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn data(&self) -> &[T] {
        self.inner.data()
    }

    /// Index-access broadcasting (SPEC §12), as [`DynTensor::at`].
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![1, 2]>::from_vec(vec![3, 4])?;
    /// assert_eq!(*a.at(&[999, 1, 1000, 2000])?, 4);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn at(&self, index: &[usize]) -> Result<&T, Error> {
        self.inner.at(index)
    }

    /// `f(self, rhs)` elementwise by the named rule; fails only on a `?` size that does not
    /// fit (the shapes are checked at compile time).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2])?;
    /// let b = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert!(a.try_zip_with(&b, |x, y| x + y).is_err()); // 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_zip_with<U: Copy, V, B: Shape>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V,
    ) -> Result<Tensor<V, Broadcast<S, B>>, Error>
    where
        T: Copy,
        S: BroadcastWith<B>,
    {
        let inner = self.inner.zip_with(Rule::Named, &rhs.inner, f)?;
        Ok(Tensor {
            inner,
            shape: PhantomData,
        })
    }
}

impl<T: Copy, S: Shape> Tensor<T, S> {
    /// `f(self, rhs)` elementwise under the rule `R` (a marker of [`rule`](crate::rule)): the
    /// shapes are checked at compile time, `?` sizes at run time.
    ///
    /// ```
    /// use shapecast::{rule::Pdpd, rule::Start, shape, Tensor};
    /// let a = Tensor::<i32, shape![2, 3, 2]>::from_fn(&[2, 3, 2], |i| i[1] as i32)?;
    /// let b = Tensor::<i32, shape![3, 1]>::from_vec(vec![10, 20, 30])?;
    /// let c = a.zip_with_rule::<Pdpd<Start<1>>, _, _, _>(&b, |x, y| x + y)?;
    /// assert_eq!(*c.at(&[1, 2, 1])?, 32);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with_rule<R: RuleMarker, U: Copy, V, B: Shape>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V,
    ) -> Result<Tensor<V, BroadcastBy<R, S, B>>, Error>
    where
        S: BroadcastsUnder<R, B>,
    {
        let inner = self.inner.zip_with(R::RULE, &rhs.inner, f)?;
        Ok(Tensor {
            inner,
            shape: PhantomData,
        })
    }

    /// `f` applied to every element.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert_eq!(t.map(|x| x * x).data(), &[1, 4, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn map<V>(&self, f: impl Fn(T) -> V) -> Tensor<V, S> {
        let data = self.inner.data().iter().map(|&x| f(x)).collect();
        let inner = DynTensor::from_vec(self.inner.shape().clone(), data)
            .expect("the same shape holds the same number of elements");
        Tensor {
            inner,
            shape: PhantomData,
        }
    }

    /// `self = f(self, rhs)` by the assignment rule (SPEC §10): `rhs` broadcasts into `self`,
    /// whose shape never changes; fails only on a `?` size that does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![3, 3]>::full(0)?;
    /// a.try_assign_with(&Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?, |_, y| y)?;
    /// assert_eq!(a.data(), &[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_assign_with<U: Copy, B: Shape>(
        &mut self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> T,
    ) -> Result<(), Error>
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.inner = self.inner.zip_with(Rule::Assign, &rhs.inner, f)?;
        Ok(())
    }

    /// Copies `rhs` into `self` by the assignment rule (TML's `a = b`).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![2]>::full(0)?;
    /// a.assign(&Tensor::<i32, shape![]>::from_vec(vec![7])?);
    /// assert_eq!(a.data(), &[7, 7]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn assign<B: Shape>(&mut self, rhs: &Tensor<T, B>)
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.try_assign_with(rhs, |_, y| y)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Comparisons (SPEC §6): a scalar operand, or identical shapes; the result holds booleans.
macro_rules! comparison {
    ($name:ident, $op:tt, $doc:literal) => {
        impl<T: Copy + PartialOrd, S: Shape> Tensor<T, S> {
            #[doc = concat!("`self ", $doc, " rhs` elementwise by the comparison rule (SPEC §6).")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
            /// let b = Tensor::<i32, shape![]>::from_vec(vec![2])?;
            #[doc = concat!("assert_eq!(a.", stringify!($name), "(&b)?.sizes(), &[3]);")]
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $name<B: Shape>(
                &self,
                rhs: &Tensor<T, B>,
            ) -> Result<Tensor<bool, BroadcastBy<Compare, S, B>>, Error>
            where
                S: BroadcastsUnder<Compare, B>,
            {
                self.zip_with_rule::<Compare, _, _, _>(rhs, |x, y| x $op y)
            }
        }
    };
}

comparison!(eq_elem, ==, "==");
comparison!(ne_elem, !=, "!=");
comparison!(lt, <, "<");
comparison!(le, <=, "<=");
comparison!(gt, >, ">");
comparison!(ge, >=, ">=");

/// One compound-assignment operator (`+=` …) by the assignment rule.
macro_rules! assign_op {
    ($Op:ident, $op:ident, $Base:ident, $base:ident) => {
        impl<'a, T: Copy + ops::$Base<Output = T>, A: BroadcastsUnder<Assign, B>, B: Shape>
            ops::$Op<&'a Tensor<T, B>> for Tensor<T, A>
        {
            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(&mut self, rhs: &'a Tensor<T, B>) {
                self.try_assign_with(rhs, |x, y| ops::$Base::$base(x, y))
                    .unwrap_or_else(|e| panic!("{e}"));
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

impl<T: Copy + ops::Neg, S: Shape> ops::Neg for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn neg(self) -> Self::Output {
        self.map(|x| -x)
    }
}

impl<T: Copy + ops::Not, S: Shape> ops::Not for &Tensor<T, S> {
    type Output = Tensor<T::Output, S>;
    fn not(self) -> Self::Output {
        self.map(|x| !x)
    }
}

/// The checked and the panicking form of one binary operator, into a caller's tensor, and
/// with a scalar on the right.
macro_rules! binary_op {
    ($Op:ident, $op:ident, $try_op:ident, $op_into:ident, $doc:literal) => {
        impl<T: Copy + ops::$Op<Output = T>, S: Shape> Tensor<T, S> {
            #[doc = concat!("`out = a ", $doc, " b` by the named rule, written into `out` (its allocation is reused).")]
            ///
            /// The output's type is the broadcast of the operands' shapes, so only a `?` size
            /// can make this fail.
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
            pub fn $op_into<A: BroadcastWith<B, Output = S>, B: Shape>(
                a: &Tensor<T, A>,
                b: &Tensor<T, B>,
                out: &mut Tensor<T, S>,
            ) -> Result<(), Error> {
                a.inner
                    .zip_with_into(Rule::Named, &b.inner, &mut out.inner, |x, y| ops::$Op::$op(x, y))
            }
        }

        impl<'a, T: Copy + ops::$Op, S: Shape> ops::$Op<T> for &'a Tensor<T, S> {
            type Output = Tensor<<T as ops::$Op>::Output, S>;

            #[doc = concat!("Every element `", $doc, "` the scalar.")]
            fn $op(self, rhs: T) -> Self::Output {
                self.map(|x| ops::$Op::$op(x, rhs))
            }
        }

        impl<T: Copy, S: Shape> Tensor<T, S> {
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
            pub fn $try_op<B: Shape>(
                &self,
                rhs: &Tensor<T, B>,
            ) -> Result<Tensor<<T as ops::$Op>::Output, Broadcast<S, B>>, Error>
            where
                T: ops::$Op,
                S: BroadcastWith<B>,
            {
                self.try_zip_with(rhs, |x, y| ops::$Op::$op(x, y))
            }
        }

        impl<'a, T: Copy + ops::$Op, A: BroadcastWith<B>, B: Shape> ops::$Op<&'a Tensor<T, B>>
            for &'a Tensor<T, A>
        {
            type Output = Tensor<<T as ops::$Op>::Output, Broadcast<A, B>>;

            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(self, rhs: &'a Tensor<T, B>) -> Self::Output {
                self.$try_op(rhs).unwrap_or_else(|e| panic!("{e}"))
            }
        }

        impl<T: Copy + ops::$Op, A: BroadcastWith<B>, B: Shape> ops::$Op<Tensor<T, B>>
            for Tensor<T, A>
        {
            type Output = Tensor<<T as ops::$Op>::Output, Broadcast<A, B>>;

            /// Panics with the SPEC §15 message when a `?` size does not fit.
            fn $op(self, rhs: Tensor<T, B>) -> Self::Output {
                ops::$Op::$op(&self, &rhs)
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
            .as_dyn()
            .zip_with(Rule::Named, lbl.as_dyn(), |x, y| x + y)
            .unwrap();
        assert_eq!(sum.as_dyn(), &expected);
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
