//! The binary operators on [`DynTensor`]: `+ - * / % & | ^` by the named rule, on borrowed
//! operands, panicking with the refusal's text as the typed operators do, with `try_` forms
//! that return it.
//!
//! ```
//! use shapecast::DynTensor;
//! let img = DynTensor::from_vec("[2, H: 2]".parse()?, vec![1, 2, 3, 4])?;
//! let row = DynTensor::from_vec("[H: 2]".parse()?, vec![10, 20])?;
//! assert_eq!((&img + &row).data(), &[11, 22, 13, 24]);
//! assert!(img.try_add(&DynTensor::from_vec("[H: 3]".parse()?, vec![0, 0, 0])?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use core::ops;

use crate::engine::zip_fn::{cloned, Parallel};
use crate::tensor::dyn_tensor::DynTensor;
use crate::values::error::{Error, OrPanic};
use crate::values::rule::Rule;

macro_rules! dyn_binary_op {
    ($Op:ident, $op:ident, $try_op:ident, $doc:literal) => {
        impl<T> DynTensor<T> {
            #[doc = concat!("`self ", $doc, " rhs` elementwise by the named rule, or the refusal.")]
            ///
            /// ```
            /// use shapecast::DynTensor;
            /// let a = DynTensor::from_vec("[2, 2]".parse()?, vec![8, 6, 4, 2])?;
            /// let b = DynTensor::from_vec("[2]".parse()?, vec![2, 1])?;
            #[doc = concat!("assert_eq!(a.", stringify!($try_op), "(&b)?.sizes(), &[2, 2]);")]
            #[doc = concat!("assert!(a.", stringify!($try_op), "(&DynTensor::from_vec(\"[3]\".parse()?, vec![1, 1, 1])?).is_err());")]
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $try_op<U>(&self, rhs: &DynTensor<U>) -> Result<DynTensor<<T as ops::$Op<U>>::Output>, Error>
            where
                T: Clone + Sync + ops::$Op<U, Output: Send>,
                U: Clone + Sync,
            {
                let mut out = DynTensor::unfilled();
                let f = Parallel(cloned(<T as ops::$Op<U>>::$op));
                self.zip_ref_into(Rule::Named, rhs, &mut out, f)?;
                Ok(out)
            }
        }

        impl<T, U> ops::$Op<&DynTensor<U>> for &DynTensor<T>
        where
            T: Clone + Sync + ops::$Op<U, Output: Send>,
            U: Clone + Sync,
        {
            type Output = DynTensor<<T as ops::$Op<U>>::Output>;

            #[doc = concat!("`self ", $doc, " rhs` by the named rule.")]
            ///
            /// # Panics
            ///
            #[doc = concat!("With the refusal's text when the shapes do not broadcast; [`DynTensor::", stringify!($try_op), "`] returns it.")]
            #[track_caller]
            fn $op(self, rhs: &DynTensor<U>) -> Self::Output {
                self.$try_op(rhs).or_panic()
            }
        }
    };
}

dyn_binary_op!(Add, add, try_add, "+");
dyn_binary_op!(Sub, sub, try_sub, "-");
dyn_binary_op!(Mul, mul, try_mul, "*");
dyn_binary_op!(Div, div, try_div, "/");
dyn_binary_op!(Rem, rem, try_rem, "%");
dyn_binary_op!(BitAnd, bitand, try_bitand, "&");
dyn_binary_op!(BitOr, bitor, try_bitor, "|");
dyn_binary_op!(BitXor, bitxor, try_bitxor, "^");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_broadcast_by_name_and_panic_with_the_refusal() {
        let a = DynTensor::from_vec("[H: 2, W: 2]".parse().unwrap(), vec![1, 2, 3, 4]).unwrap();
        let b = DynTensor::from_vec("[W: 2, H: 1]".parse().unwrap(), vec![10, 20]).unwrap();
        assert_eq!((&a * &b).data(), &[10, 40, 30, 80]);
        assert_eq!((&a ^ &a).data(), &[0, 0, 0, 0]);
        let c = DynTensor::from_vec("[C: 3]".parse().unwrap(), vec![1, 1, 1]).unwrap();
        let err = a.try_sub(&c).unwrap_err();
        let panic = std::panic::catch_unwind(|| &a - &c).unwrap_err();
        assert_eq!(panic.downcast_ref::<String>(), Some(&err.to_string()));
    }
}
