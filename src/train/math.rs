//! Elementwise math on tracked values: the functions of [`FloatMath`], each with its
//! derivative in the form PyTorch's autograd uses (GELU's from its `gelu_backward`).

use super::trainable::Trainable;
use super::var::Var;
use crate::engine::split::{piece_len, zip_pieces};
use crate::tensor::{FloatMath, Tensor};
use crate::typed::storage::Storage;

/// A float constant.
fn c<T: Trainable>(x: f64) -> T {
    T::from(x).unwrap_or_else(T::nan)
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// `value`, computed elementwise from this value, whose gradient is `g · d(x, y)` for each
    /// input element `x` and output element `y`.
    /// Large tensors split over threads (the `rayon` feature) in pieces of 2^14 elements, as
    /// the forward maps with a transcendental function do.
    fn unary(
        &self,
        value: Tensor<T, S>,
        d: impl Fn(T, T) -> T + Send + Sync + 'static,
    ) -> Var<T, S> {
        self.unary_op(value, move |mut g, x, y| {
            let piece = piece_len(g.len(), 1 << 14);
            zip_pieces(&mut g, (x.data(), y.data()), piece, |g, x, y| {
                g.iter_mut()
                    .zip(x.iter().zip(y))
                    .for_each(|(g, (&x, &y))| *g = *g * d(x, y))
            });
            Ok(g)
        })
    }

    /// `e^x` of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(1.0));
    /// let tape = Tape::new();
    /// let g = tape.watch(&p).exp().backward()?.of(&p)?;
    /// assert!((g.data()[0] - core::f64::consts::E).abs() < 1e-15);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn exp(&self) -> Var<T, S> {
        self.unary(self.value().exp(), |_, y| y)
    }

    /// The natural logarithm of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(4.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).ln().backward()?.of(&p)?.data(), &[0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn ln(&self) -> Var<T, S> {
        self.unary(self.value().ln(), |x, _| x.recip())
    }

    /// The square root of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(4.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).sqrt().backward()?.of(&p)?.data(), &[0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sqrt(&self) -> Var<T, S> {
        self.unary(self.value().sqrt(), |_, y| (y + y).recip())
    }

    /// The hyperbolic tangent of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(0.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).tanh().backward()?.of(&p)?.data(), &[1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn tanh(&self) -> Var<T, S> {
        self.unary(self.value().tanh(), |_, y| T::one() - y * y)
    }

    /// The logistic function of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(0.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).sigmoid().backward()?.of(&p)?.data(), &[0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sigmoid(&self) -> Var<T, S> {
        self.unary(self.value().sigmoid(), |_, y| y * (T::one() - y))
    }

    /// `max(x, 0)` of every element; the gradient is 0 where `x ≤ 0` (PyTorch's).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f32, shape![3]>::from_array([-1.0, 0.0, 2.0]));
    /// let tape = Tape::new();
    /// let g = tape.watch(&p).relu().sum::<Pos<0>>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[0.0, 0.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn relu(&self) -> Var<T, S> {
        self.unary(self.value().relu(), |_, y| {
            if y > T::zero() {
                T::one()
            } else {
                T::zero()
            }
        })
    }

    /// SiLU, `x · sigmoid(x)`.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(0.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).silu().backward()?.of(&p)?.data(), &[0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn silu(&self) -> Var<T, S> {
        self.unary(self.value().silu(), |x, _| {
            let s = (T::one() + (-x).exp_v()).recip();
            s * (T::one() + x * (T::one() - s))
        })
    }

    /// GELU in its tanh form (PyTorch's `gelu(approximate="tanh")`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(0.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).gelu().backward()?.of(&p)?.data(), &[0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn gelu(&self) -> Var<T, S> {
        let (beta, kappa, half) = (
            c::<T>(0.797_884_560_802_865_4),
            c::<T>(0.044_715),
            c::<T>(0.5),
        );
        self.unary(self.value().gelu(), move |x, _| {
            let x2 = x * x;
            let t = (beta * (x + kappa * x2 * x)).tanh_v();
            let left = half * x;
            let d_right = (T::one() - t * t) * beta * (T::one() + c::<T>(3.0) * kappa * x2);
            half * (T::one() + t) + left * d_right
        })
    }

    /// GELU in its exact form, `0.5 x (1 + erf(x / √2))` (PyTorch's default `gelu`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(0.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).gelu_erf().backward()?.of(&p)?.data(), &[0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn gelu_erf(&self) -> Var<T, S> {
        let (half, r, k) = (
            c::<T>(0.5),
            c::<T>(core::f64::consts::FRAC_1_SQRT_2),
            c::<T>(0.398_942_280_401_432_7),
        );
        self.unary(self.value().gelu_erf(), move |x, _| {
            half * (T::one() + (x * r).erf_v()) + x * k * (-half * x * x).exp_v()
        })
    }

    /// Every element to the integer power `n`.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(2.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).powi(3).backward()?.of(&p)?.data(), &[12.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn powi(&self, n: i32) -> Var<T, S> {
        let k = c::<T>(f64::from(n));
        self.unary(self.value().powi(n), move |x, _| k * x.powi(n - 1))
    }

    /// Every element squared.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(3.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).square().backward()?.of(&p)?.data(), &[6.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn square(&self) -> Var<T, S> {
        self.unary(self.value().square(), |x, _| x + x)
    }

    /// The absolute value of every element; the gradient is 0 at 0 (PyTorch's `sign`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![3]>::from_array([-2.0, 0.0, 2.0]));
    /// let tape = Tape::new();
    /// let g = tape.watch(&p).abs().sum::<Pos<0>>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[-1.0, 0.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn abs(&self) -> Var<T, S> {
        self.unary(self.value().abs(), |x, _| {
            if x > T::zero() {
                T::one()
            } else if x < T::zero() {
                -T::one()
            } else {
                T::zero()
            }
        })
    }

    /// `1 / x` of every element.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![]>::from_array(2.0));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).recip().backward()?.of(&p)?.data(), &[-0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn recip(&self) -> Var<T, S> {
        self.unary(self.value().recip(), |_, y| -y * y)
    }
}
