//! Elementwise math: `exp`, `ln`, `sqrt`, `abs`, `tanh`, `recip`, `powf`, `powi`, `square` and
//! the activations `relu`, `sigmoid`, `silu`, `gelu` (tanh form) and `gelu_erf` on `f32` and
//! `f64` tensors ([`FloatMath`]), and `maximum` / `minimum` between two tensors by the named
//! rule.
//!
//! Each function of [`FloatMath`] takes its tensor by value or by reference: an owned tensor
//! lends its buffer to the result (no allocation, no page faults), a borrowed one gives a new
//! tensor. The transcendentals are the branch-free functions of [`Transcendental`], compiled
//! for the CPU's best instruction set and split over threads with the `rayon` feature.
//!
//! ```
//! use shapecast::{shape, FloatMath, Tensor};
//! let t = Tensor::<f64, shape![2]>::from_array([1.0, 4.0]);
//! assert_eq!((&t).sqrt().data(), &[1.0, 2.0]);
//! assert_eq!(t.maximum(&Tensor::<f64, shape![]>::from_array(2.0)).data(), &[2.0, 4.0]);
//! let u = t.square(); // `t`'s buffer, reused
//! assert_eq!(u.data(), &[1.0, 16.0]);
//! ```

use num_traits::{Float, One, ToPrimitive, Zero};

use super::zip_plan::ByNamed;
use crate::engine::raw::{self, Cost};
use crate::engine::vmath::{in_wide, Transcendental};
use crate::engine::zip_fn::{cloned, Parallel};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::tensor::Tensor;
use crate::typed::broadcast::{Broadcast, BroadcastWith};
use crate::typed::storage::{Buffer, Storage};
use crate::values::error::{Error, OrPanic};

/// A tensor that elementwise functions run on, by value (its buffer is reused) or by
/// reference (a new tensor): [`Tensor`], [`DynTensor`] and references to them, and views
/// (a new tensor of the view's shape).
pub trait MapSource: Sized {
    /// The element.
    type Elem: Copy + Send + Sync;
    /// What a map gives: the tensor type, owned.
    type Output;
    /// `f` of every element, into the tensor's own buffer when it is owned; with the `rayon`
    /// feature split over threads from the element count `cost` names.
    #[doc(hidden)]
    fn map_elements(self, cost: Cost, f: impl Fn(Self::Elem) -> Self::Elem + Sync) -> Self::Output;
}

impl<T: Copy + Send + Sync, S: Storage<T>> MapSource for Tensor<T, S> {
    type Elem = T;
    type Output = Tensor<T, S>;
    fn map_elements(mut self, cost: Cost, f: impl Fn(T) -> T + Sync) -> Tensor<T, S> {
        raw::map_in_place(self.data.as_mut_slice(), cost, f);
        self
    }
}

impl<T: Copy + Send + Sync, S: Storage<T>> MapSource for &Tensor<T, S> {
    type Elem = T;
    type Output = Tensor<T, S>;
    fn map_elements(self, cost: Cost, f: impl Fn(T) -> T + Sync) -> Tensor<T, S> {
        Tensor::from_parts(self.sizes(), raw::map_to_vec(self.data(), cost, f))
    }
}

impl<T: Copy + Send + Sync, S: Storage<T>> MapSource for crate::tensor::view::TensorView<'_, T, S> {
    type Elem = T;
    type Output = Tensor<T, S>;
    fn map_elements(self, cost: Cost, f: impl Fn(T) -> T + Sync) -> Tensor<T, S> {
        // The view's elements gathered in index order (its own copy), then mapped in place.
        self.to_tensor().map_elements(cost, f)
    }
}

impl<T: Copy + Send + Sync, S: Storage<T>> MapSource
    for &crate::tensor::view::TensorView<'_, T, S>
{
    type Elem = T;
    type Output = Tensor<T, S>;
    fn map_elements(self, cost: Cost, f: impl Fn(T) -> T + Sync) -> Tensor<T, S> {
        (*self).map_elements(cost, f)
    }
}

impl<T: Copy + Send + Sync> MapSource for DynTensor<T> {
    type Elem = T;
    type Output = DynTensor<T>;
    fn map_elements(mut self, cost: Cost, f: impl Fn(T) -> T + Sync) -> DynTensor<T> {
        raw::map_in_place(self.data_mut(), cost, f);
        self
    }
}

impl<T: Copy + Send + Sync> MapSource for &DynTensor<T> {
    type Elem = T;
    type Output = DynTensor<T>;
    fn map_elements(self, cost: Cost, f: impl Fn(T) -> T + Sync) -> DynTensor<T> {
        self.with_data(raw::map_to_vec(self.data(), cost, f))
    }
}

/// `x^n` by repeated squaring (|n| multiplications at most twice over).
#[inline(always)]
fn powi_by_squaring<T: Float>(x: T, n: i32) -> T {
    let (mut base, mut k, mut acc) = (x, n.unsigned_abs(), T::one());
    while k > 0 {
        if k & 1 == 1 {
            acc = acc * base;
        }
        base = base * base;
        k >>= 1;
    }
    if n < 0 {
        acc.recip()
    } else {
        acc
    }
}

/// The type `M`'s elements compute their math in (`f32` for half-precision elements).
type Wide<M> = <<M as MapSource>::Elem as Transcendental>::Wide;

/// A float constant.
#[inline(always)]
fn c<T: Float>(x: f64) -> T {
    // `T` is a `Transcendental` (sealed: the four float types) and the constants are small.
    T::from(x).expect("a float constant converts to every float type")
}

/// `use shapecast::prelude::*` (or `use shapecast::FloatMath`) to call `exp`, `sqrt`, `relu`, …
///
/// Elementwise math on `f32`, `f64`, `bf16` and `f16` tensors ([`Tensor`], [`DynTensor`]; a
/// half-precision element computes in `f32` and is rounded once), by value or by reference:
/// `t.exp()` on an owned `t` writes into `t`'s own buffer, `(&t).exp()` (or `x.exp()` for
/// `x: &Tensor<..>`) returns a new tensor. The transcendentals are those of
/// [`Transcendental`] (at most 2 ulp for `exp` and `ln`, 3 for `tanh`, against libm), run on
/// the CPU's best instruction set; with the `rayon` feature large tensors split over threads
/// (results bit-identical to one thread).
///
/// ```
/// use shapecast::{shape, FloatMath, Tensor};
/// let logits = Tensor::<f32, shape![3]>::from_array([-1.0, 0.0, 2.0]);
/// let p = (&logits).sigmoid();
/// assert!((p.data()[1] - 0.5).abs() < 1e-7);
/// let r = logits.relu(); // reuses `logits`' buffer
/// assert_eq!(r.data(), &[0.0, 0.0, 2.0]);
/// ```
pub trait FloatMath: MapSource<Elem: Transcendental> {
    /// `e^x` of every element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![1]>::from_array([1.0]);
    /// assert!((t.exp().data()[0] - core::f64::consts::E).abs() < 1e-15);
    /// ```
    fn exp(self) -> Self::Output {
        self.map_elements(Cost::Heavy, in_wide::<Self::Elem>(|x| x.exp_v()))
    }

    /// The natural logarithm of every element (NaN below 0, -inf at 0).
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![2]>::from_array([1.0, 0.0]);
    /// assert_eq!(t.ln().data(), &[0.0, f64::NEG_INFINITY]);
    /// ```
    fn ln(self) -> Self::Output {
        self.map_elements(Cost::Heavy, in_wide::<Self::Elem>(|x| x.ln_v()))
    }

    /// `tanh x` of every element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([0.0, f32::INFINITY]);
    /// assert_eq!(t.tanh().data(), &[0.0, 1.0]);
    /// ```
    fn tanh(self) -> Self::Output {
        self.map_elements(Cost::Heavy, in_wide::<Self::Elem>(|x| x.tanh_v()))
    }

    /// `√x` of every element (correctly rounded).
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![1]>::from_array([9.0]);
    /// assert_eq!(t.sqrt().data(), &[3.0]);
    /// ```
    fn sqrt(self) -> Self::Output {
        self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x.sqrt()))
    }

    /// `|x|` of every element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([-2.5, 1.0]);
    /// assert_eq!(t.abs().data(), &[2.5, 1.0]);
    /// ```
    fn abs(self) -> Self::Output {
        self.map_elements(Cost::Cheap, |x| x.abs())
    }

    /// `1 / x` of every element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![1]>::from_array([4.0]);
    /// assert_eq!(t.recip().data(), &[0.25]);
    /// ```
    fn recip(self) -> Self::Output {
        self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x.recip()))
    }

    /// `x²` of every element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([-3.0, 0.5]);
    /// assert_eq!(t.square().data(), &[9.0, 0.25]);
    /// ```
    fn square(self) -> Self::Output {
        self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x * x))
    }

    /// `x^n` for an integer `n`, by repeated multiplication (no libm call; within about
    /// `|n|` ulp of the exact power).
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([2.0, -3.0]);
    /// assert_eq!((&t).powi(3).data(), &[8.0, -27.0]);
    /// assert_eq!(t.powi(-1).data(), &[0.5, -1.0 / 3.0]);
    /// ```
    fn powi(self, n: i32) -> Self::Output {
        match n {
            0 => self.map_elements(Cost::Cheap, |_| Self::Elem::one()),
            1 => self.map_elements(Cost::Cheap, |x| x),
            2 => self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x * x)),
            3 => self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x * x * x)),
            -1 => self.map_elements(Cost::Cheap, in_wide::<Self::Elem>(|x| x.recip())),
            _ => self.map_elements(
                Cost::Heavy,
                in_wide::<Self::Elem>(move |x| powi_by_squaring(x, n)),
            ),
        }
    }

    /// `x^n` of every element. An integral `n` between -64 and 64 runs as
    /// [`powi`](Self::powi) and `n = 0.5` as [`sqrt`](Self::sqrt); other exponents call libm's
    /// `pow` per element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([2.0, 3.0]);
    /// assert_eq!((&t).powf(2.0).data(), &[4.0, 9.0]);
    /// assert!((t.powf(1.5).data()[0] - 2f32.powf(1.5)).abs() < 1e-6);
    /// ```
    fn powf(self, n: Self::Elem) -> Self::Output {
        if n == n.round() && n.abs() <= c(64.0) {
            // Integral and at most 64 in size: it fits `i32`.
            return self.powi(n.to_i32().expect("an integral exponent of at most 64"));
        }
        if n == c(0.5) {
            return self.sqrt();
        }
        let n = n.widen();
        self.map_elements(Cost::Heavy, in_wide::<Self::Elem>(move |x| x.powf(n)))
    }

    /// The rectified linear unit `max(x, 0)` (NaN stays NaN).
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![2]>::from_array([-1.0, 2.0]);
    /// assert_eq!(t.relu().data(), &[0.0, 2.0]);
    /// ```
    fn relu(self) -> Self::Output {
        self.map_elements(Cost::Cheap, |x| {
            if x < Self::Elem::zero() {
                Self::Elem::zero()
            } else {
                x
            }
        })
    }

    /// The logistic function `1 / (1 + e^-x)`.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![3]>::from_array([0.0, -800.0, 800.0]);
    /// assert_eq!(t.sigmoid().data(), &[0.5, 0.0, 1.0]);
    /// ```
    fn sigmoid(self) -> Self::Output {
        let one = Wide::<Self>::one();
        self.map_elements(
            Cost::Heavy,
            in_wide::<Self::Elem>(move |x| one / (one + (-x).exp_v())),
        )
    }

    /// SiLU (swish), `x · sigmoid(x)`.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![2]>::from_array([0.0, 1.0]);
    /// let s = t.silu();
    /// assert_eq!(s.data()[0], 0.0);
    /// assert!((s.data()[1] - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-15);
    /// ```
    fn silu(self) -> Self::Output {
        let one = Wide::<Self>::one();
        self.map_elements(
            Cost::Heavy,
            in_wide::<Self::Elem>(move |x| x / (one + (-x).exp_v())),
        )
    }

    /// GELU in its tanh form (GPT-2's, PyTorch's `gelu(approximate="tanh")`):
    /// `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))`.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f32, shape![3]>::from_array([0.0, 1.0, -10.0]);
    /// let g = t.gelu();
    /// assert_eq!(g.data()[0], 0.0);
    /// assert!((g.data()[1] - 0.841_192).abs() < 1e-6);
    /// assert_eq!(g.data()[2], 0.0);
    /// ```
    fn gelu(self) -> Self::Output {
        let (half, one) = (c::<Wide<Self>>(0.5), Wide::<Self>::one());
        let (k, a) = (
            c::<Wide<Self>>(0.797_884_560_802_865_4),
            c::<Wide<Self>>(0.044_715),
        );
        self.map_elements(
            Cost::Heavy,
            in_wide::<Self::Elem>(move |x| half * x * (one + (k * (x + a * x * x * x)).tanh_v())),
        )
    }

    /// GELU in its exact form, `0.5 x (1 + erf(x / √2))` (PyTorch's default `gelu`); `erf`
    /// is libm's, per element.
    ///
    /// ```
    /// use shapecast::{shape, FloatMath, Tensor};
    /// let t = Tensor::<f64, shape![2]>::from_array([0.0, 1.0]);
    /// let g = t.gelu_erf();
    /// assert_eq!(g.data()[0], 0.0);
    /// assert!((g.data()[1] - 0.841_344_746_068_543).abs() < 1e-14);
    /// ```
    fn gelu_erf(self) -> Self::Output {
        let (half, one) = (c::<Wide<Self>>(0.5), Wide::<Self>::one());
        let r = c::<Wide<Self>>(core::f64::consts::FRAC_1_SQRT_2);
        self.map_elements(
            Cost::Heavy,
            in_wide::<Self::Elem>(move |x| half * x * (one + (x * r).erf_v())),
        )
    }
}

impl<M: MapSource<Elem: Transcendental>> FloatMath for M {}

impl<T: Copy + Send + Sync, S: Storage<T>> Tensor<T, S> {
    /// `f` of every element, written into this tensor's own buffer (no allocation); split over
    /// threads with the `rayon` feature for large tensors. [`map`](Self::map) borrows instead
    /// and may change the element type.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    /// assert_eq!(t.map_into(|x| x * 10).data(), &[10, 20, 30]);
    /// ```
    pub fn map_into(self, f: impl Fn(T) -> T + Sync) -> Tensor<T, S> {
        self.map_elements(Cost::Heavy, f)
    }
}

macro_rules! extremum {
    ($name:ident, $try_name:ident, $pick:ident, $what:literal, $expect:literal) => {
        impl<T: Float + Send + Sync, S: Storage<T>> Tensor<T, S> {
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
            {
                self.zip_by::<ByNamed, _, _, _, _>(rhs, Parallel(cloned($pick::<T>)))
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
