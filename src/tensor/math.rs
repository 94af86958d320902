//! Elementwise math around reductions: `exp`, `ln`, `sqrt`, `abs`, `tanh`, `powf`, `recip` on
//! float tensors (each borrows and returns a new tensor, as ndarray's do), and `maximum` /
//! `minimum` between two tensors by the named rule.
//!
//! ```
//! use shapecast::{shape, Tensor};
//! let t = Tensor::<f64, shape![2]>::from_array([1.0, 4.0]);
//! assert_eq!(t.sqrt().data(), &[1.0, 2.0]);
//! assert_eq!(t.maximum(&Tensor::<f64, shape![]>::from_array(2.0)).data(), &[2.0, 4.0]);
//! ```

use num_traits::Float;

use super::kernel::Serial;
use super::typed::Tensor;
use super::zip::ByNamed;
use crate::error::{Error, OrPanic};
use crate::typed::broadcast::{Broadcast, BroadcastWith};
use crate::typed::storage::Storage;

macro_rules! unary {
    ($($name:ident: $doc:literal, $input:literal => $output:literal;)*) => {
        impl<T: Float, S: Storage<T>> Tensor<T, S> {
            $(
                #[doc = concat!("`", $doc, "` of every element, as a new tensor.")]
                ///
                /// ```
                /// use shapecast::{shape, Tensor};
                #[doc = concat!("let t = Tensor::<f64, shape![1]>::from_array([", $input, "]);")]
                #[doc = concat!("assert!((t.", stringify!($name), "().data()[0] - ", $output, ").abs() < 1e-12);")]
                /// ```
                pub fn $name(&self) -> Tensor<T, S> {
                    self.map_ref(|x| x.$name())
                }
            )*
        }
    };
}

unary! {
    exp: "e^x", "1.0" => "core::f64::consts::E";
    ln: "ln x", "core::f64::consts::E" => "1.0";
    sqrt: "√x", "9.0" => "3.0";
    abs: "|x|", "-2.5" => "2.5";
    tanh: "tanh x", "0.0" => "0.0";
    recip: "1 / x", "4.0" => "0.25";
}

impl<T: Float, S: Storage<T>> Tensor<T, S> {
    /// Every element raised to the power `n`, as a new tensor.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([2.0, 3.0]);
    /// assert_eq!(t.powf(2.0).data(), &[4.0, 9.0]);
    /// ```
    pub fn powf(&self, n: T) -> Tensor<T, S> {
        self.map_ref(|x| x.powf(n))
    }
}

macro_rules! extremum {
    ($name:ident, $try_name:ident, $pick:ident, $what:literal, $expect:literal) => {
        impl<T: Float, S: Storage<T>> Tensor<T, S> {
            #[doc = concat!("The elementwise ", $what, " of `self` and `rhs`, broadcast by the named rule (NaN propagates, as NumPy's `", stringify!($name), "`).")]
            ///
            /// # Panics
            ///
            #[doc = concat!("When a `?` size does not fit; [`", stringify!($try_name), "`](Self::", stringify!($try_name), ") returns the error instead.")]
            ///
            /// ```
            /// use shapecast::{names, shape, Tensor};
            /// names!(H, W);
            /// let a = Tensor::<f32, shape![H: 2, W: 2]>::from_array([[1.0, 5.0], [3.0, 2.0]]);
            /// let b = Tensor::<f32, shape![W: 2]>::from_array([2.0, 4.0]);
            #[doc = concat!("assert_eq!(a.", stringify!($name), "(&b).data(), &", $expect, ");")]
            /// ```
            #[track_caller]
            pub fn $name<B: Storage<T>>(&self, rhs: &Tensor<T, B>) -> Tensor<T, Broadcast<S, B>>
            where
                S: BroadcastWith<B>,
                Broadcast<S, B>: Storage<T>,
            {
                self.$try_name(rhs).or_panic()
            }

            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or the error when a `?` size does not fit.")]
            ///
            /// ```
            /// use shapecast::{shape, Tensor};
            /// let a = Tensor::<f32, shape![?]>::from_vec_sized(&[3], vec![1.0, 2.0, 3.0])?;
            /// let b = Tensor::<f32, shape![2]>::from_array([0.0, 0.0]);
            #[doc = concat!("assert!(a.", stringify!($try_name), "(&b).is_err());")]
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn $try_name<B: Storage<T>>(&self, rhs: &Tensor<T, B>) -> Result<Tensor<T, Broadcast<S, B>>, Error>
            where
                S: BroadcastWith<B>,
                Broadcast<S, B>: Storage<T>,
            {
                self.zip_by::<ByNamed, _, _, _, _>(rhs, Serial(|x: &T, y: &T| $pick(*x, *y)))
            }
        }
    };
}

/// The larger, or a NaN when either is one.
fn larger<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x >= y {
        x
    } else {
        y
    }
}

/// The smaller, or a NaN when either is one.
fn smaller<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x <= y {
        x
    } else {
        y
    }
}

extremum!(
    maximum,
    try_maximum,
    larger,
    "maximum",
    "[2.0, 5.0, 3.0, 4.0]"
);
extremum!(
    minimum,
    try_minimum,
    smaller,
    "minimum",
    "[1.0, 4.0, 2.0, 2.0]"
);
