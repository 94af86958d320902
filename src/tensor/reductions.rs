//! Reductions by name on tensors and views (rule book §16): `sum::<A>()` and its family, each
//! with a `_keep` form, `argmax`/`argmin`, `softmax`/`log_softmax`; the run-time twins on
//! [`DynTensor`] with selectors known at run time. The kernels are in `reduce`.
//!
//! ```
//! use shapecast::{names, shape, Tensor};
//! names!(CLASS);
//! let logits = Tensor::<f32, shape![?, CLASS: 3]>::from_vec_sized(&[2, 3], vec![1.0, 2.0, 3.0, 1.0, 1.0, 1.0])?;
//! // The max over CLASS has shape [?] and broadcasts back by name: no keepdims needed.
//! let shifted = &logits - &logits.max::<CLASS>();
//! assert_eq!(shifted.data(), &[-2.0, -1.0, 0.0, 0.0, 0.0, 0.0]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use num_traits::{Float, One, Zero};

use super::contract::Contractible;
use super::tensor::Tensor;
use super::view::TensorView;
use crate::engine::reduce::Dims;
use crate::engine::reduce::Source;
use crate::engine::vmath::Transcendental;
use crate::typed::reduce::{NonEmpty, OneAxis, Reduce, ReduceKeep, ReduceOver};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::shape::{DynShape, MAX_TYPED_RANK};

/// The family of typed reductions, for a tensor and for a view; `$source` gives the
/// reduction's [`Source`] and `$shape` the run-time shape (for error messages).
macro_rules! typed_reductions {
    (@plain $name:ident, $keep:ident, $what:literal, [$($bound:tt)*], $f:expr_2021, $value:literal) => {
        #[doc = concat!("The ", $what, " over the axes `A` selects: a name, a [`Pos<K>`](crate::Pos) or a tuple of them (rule book §16).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert!((r.data()[0] - ", $value, ").abs() < 1e-5);")]
        /// ```
        pub fn $name<A>(&self) -> Tensor<T, Reduce<S, A>>
        where
            S: ReduceOver<A>,
            Reduce<S, A>: Storage<T>,
            T: $($bound)*,
        {
            self.reduced::<A, Reduce<S, A>, T>(false, $f)
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") keeping the reduced axes as statically-1 axes with their names (NumPy's `keepdims=True`).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2, CLASS: 1]> = t.", stringify!($keep), "::<CLASS>();")]
        /// assert_eq!(r.sizes(), &[2, 1]);
        /// ```
        pub fn $keep<A>(&self) -> Tensor<T, ReduceKeep<S, A>>
        where
            S: ReduceOver<A>,
            ReduceKeep<S, A>: Storage<T>,
            T: $($bound)*,
        {
            self.reduced::<A, ReduceKeep<S, A>, T>(true, $f)
        }
    };
    (@extreme yes, $name:ident, $keep:ident, $try_name:ident, $try_keep:ident, $max:literal, $what:literal) => {
        #[doc = concat!("The ", $what, " over the axes `A` selects; NaN propagates (rule book §16). A statically empty axis does not compile.")]
        ///
        /// # Panics
        ///
        #[doc = concat!("When a selected axis of run-time size turns out to be empty; [`", stringify!($try_name), "`](Self::", stringify!($try_name), ") returns the error instead.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(H, W);
        /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
        #[doc = concat!("let r: Tensor<i32, shape![W: 2]> = t.", stringify!($name), "::<H>();")]
        /// assert_eq!(r.sizes(), &[2]);
        /// ```
        #[track_caller]
        pub fn $name<A>(&self) -> Tensor<T, Reduce<S, A>>
        where
            S: ReduceOver<A>,
            <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
            Reduce<S, A>: Storage<T>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.$try_name::<A>().or_panic()
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") keeping the reduced axes as statically-1 axes.")]
        ///
        /// # Panics
        ///
        #[doc = concat!("As [`", stringify!($name), "`](Self::", stringify!($name), ").")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(H, W);
        /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
        #[doc = concat!("assert_eq!(t.", stringify!($keep), "::<W>().sizes(), &[2, 1]);")]
        /// ```
        #[track_caller]
        pub fn $keep<A>(&self) -> Tensor<T, ReduceKeep<S, A>>
        where
            S: ReduceOver<A>,
            <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
            ReduceKeep<S, A>: Storage<T>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.$try_keep::<A>().or_panic()
        }

        typed_reductions!(@extreme no, $name, $keep, $try_name, $try_keep, $max, $what);
    };
    (@extreme no, $name:ident, $keep:ident, $try_name:ident, $try_keep:ident, $max:literal, $what:literal) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or [`Error::EmptyAxis`] when a selected axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Tensor};
        /// let t = Tensor::<f32, shape![?, 2]>::from_vec_sized(&[0, 2], vec![])?;
        #[doc = concat!("assert!(t.", stringify!($try_name), "::<Pos<0>>().is_err());")]
        #[doc = concat!("assert_eq!(t.", stringify!($try_name), "::<Pos<1>>()?.sizes(), &[0]);")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        pub fn $try_name<A>(&self) -> Result<Tensor<T, Reduce<S, A>>, Error>
        where
            S: ReduceOver<A>,
            Reduce<S, A>: Storage<T>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.try_reduced::<A, Reduce<S, A>, T>(false, |s, shape| s.extreme::<$max>(shape))
        }

        #[doc = concat!("[`", stringify!($keep), "`](Self::", stringify!($keep), "), or [`Error::EmptyAxis`] when a selected axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Tensor};
        /// let t = Tensor::<f32, shape![?, 2]>::from_vec_sized(&[1, 2], vec![1.0, 2.0])?;
        #[doc = concat!("assert_eq!(t.", stringify!($try_keep), "::<Pos<1>>()?.sizes(), &[1, 1]);")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        pub fn $try_keep<A>(&self) -> Result<Tensor<T, ReduceKeep<S, A>>, Error>
        where
            S: ReduceOver<A>,
            ReduceKeep<S, A>: Storage<T>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.try_reduced::<A, ReduceKeep<S, A>, T>(true, |s, shape| s.extreme::<$max>(shape))
        }
    };
    (@arg yes, $name:ident, $try_name:ident, $max:literal, $what:literal, $value:literal) => {
        #[doc = concat!("The position of the ", $what, " along the one axis `A` selects (first occurrence; a NaN wins, as in NumPy).")]
        ///
        /// # Panics
        ///
        #[doc = concat!("When the axis has run-time size 0; [`", stringify!($try_name), "`](Self::", stringify!($try_name), ") returns the error instead.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<usize, shape![2]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert_eq!(r.data()[0], ", $value, ");")]
        /// ```
        #[track_caller]
        pub fn $name<A: OneAxis>(&self) -> Tensor<usize, Reduce<S, A>>
        where
            S: ReduceOver<A>,
            <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
            Reduce<S, A>: Storage<usize>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.$try_name::<A>().or_panic()
        }

        typed_reductions!(@arg no, $name, $try_name, $max, $what, $value);
    };
    (@arg no, $name:ident, $try_name:ident, $max:literal, $what:literal, $value:literal) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or [`Error::EmptyAxis`] when the axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Tensor};
        /// let t = Tensor::<i32, shape![?]>::from_vec_sized(&[0], vec![])?;
        #[doc = concat!("assert!(t.", stringify!($try_name), "::<Pos<0>>().is_err());")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        pub fn $try_name<A: OneAxis>(&self) -> Result<Tensor<usize, Reduce<S, A>>, Error>
        where
            S: ReduceOver<A>,
            Reduce<S, A>: Storage<usize>,
            T: Copy + PartialOrd + Send + Sync,
        {
            self.try_reduced::<A, Reduce<S, A>, usize>(false, |s, shape| s.arg::<$max>(shape))
        }
    };
    (@ddof $name:ident, $what:literal, $f:expr_2021, $value:literal) => {
        #[doc = concat!("The ", $what, " over the axes `A` selects with `ddof` delta degrees of freedom: the squared deviations divided by `n - ddof` (NumPy's `ddof`, PyTorch's `correction`; 1 gives the unbiased estimate), `inf` or NaN when `ddof` is at least `n`. Summed pairwise and compensated: in `f32`, within 1e-6 of an `f64` reference at 4·10^6 elements.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2]> = t.", stringify!($name), "::<CLASS>(1);")]
        #[doc = concat!("assert!((r.data()[0] - ", $value, ").abs() < 1e-6);")]
        /// ```
        pub fn $name<A>(&self, ddof: usize) -> Tensor<T, Reduce<S, A>>
        where
            S: ReduceOver<A>,
            Reduce<S, A>: Storage<T>,
            T: Float + Send + Sync,
        {
            self.reduced::<A, Reduce<S, A>, T>(false, |s, _| s.var(ddof).into_iter().map($f).collect())
        }
    };
    (@softmax $name:ident, $log:literal, $what:literal, $value:literal) => {
        #[doc = concat!("The ", $what, " along the axes `A` selects, in `S` (rule book §16). The maximum is subtracted first, so large inputs do not overflow.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let p: Tensor<f32, shape![2, CLASS: 3]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert!((p.data()[2] - ", $value, ").abs() < 1e-5);")]
        /// ```
        pub fn $name<A>(&self) -> Tensor<T, S>
        where
            S: ReduceOver<A> + Storage<T>,
            T: Transcendental,
        {
            self.with_source::<A, _>(|s, shape| {
                // An output that cannot exist panics with the error, as the operators do.
                let data = s.softmax::<$log>(shape).or_panic();
                Tensor::from_parts(s.x.sizes, data)
            })
        }
    };
    (@softmax_into $name:ident, $borrowing:ident, $log:literal, $value:literal) => {
        #[doc = concat!("[`", stringify!($borrowing), "`](Self::", stringify!($borrowing), ") written into this tensor's own buffer: no allocation the tensor's size, for a tensor not needed afterwards (attention's scores).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let p: Tensor<f32, shape![2, CLASS: 3]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert!((p.data()[2] - ", $value, ").abs() < 1e-5);")]
        /// ```
        pub fn $name<A>(mut self) -> Tensor<T, S>
        where
            S: ReduceOver<A> + Storage<T>,
            T: Transcendental,
        {
            let sizes = Dims::from_iter(self.sizes().iter().copied());
            Source::softmax_in_place::<$log>(&sizes, &S::MASK[..S::RANK], self.data_mut());
            self
        }
    };
    ($panicking:ident; $($header:tt)*) => {
        $($header)* {
            typed_reductions!(@plain sum, sum_keep, "sum (0 over an empty axis)", [Copy + Send + Sync + Zero + Add<Output = T>], |s, _| s.sum(), "6.0");
            typed_reductions!(@plain prod, prod_keep, "product (1 over an empty axis)", [Copy + Send + Sync + One + Mul<Output = T>], |s, _| s.prod(), "6.0");
            typed_reductions!(@plain mean, mean_keep, "mean (NaN over an empty axis)", [Float + Send + Sync], |s, _| s.mean(), "2.0");
            typed_reductions!(@plain var, var_keep, "population variance (ddof 0; [`var_ddof`](Self::var_ddof) for others)", [Float + Send + Sync], |s, _| s.var(0), "0.6666667");
            typed_reductions!(@plain std, std_keep, "population standard deviation (ddof 0; [`std_ddof`](Self::std_ddof) for others)", [Float + Send + Sync], |s, _| s.var(0).into_iter().map(T::sqrt).collect(), "0.8164966");
            typed_reductions!(@ddof var_ddof, "variance", |v: T| v, "1.0");
            typed_reductions!(@ddof std_ddof, "standard deviation", T::sqrt, "1.0");
            typed_reductions!(@plain logsumexp, logsumexp_keep, "`ln(sum(exp(x)))`, computed stably", [Transcendental], |s, shape: &dyn Fn() -> DynShape| s.logsumexp(shape), "3.407606");
            typed_reductions!(@extreme $panicking, max, max_keep, try_max, try_max_keep, true, "maximum");
            typed_reductions!(@extreme $panicking, min, min_keep, try_min, try_min_keep, false, "minimum");
            typed_reductions!(@arg $panicking, argmax, try_argmax, true, "maximum", "2");
            typed_reductions!(@arg $panicking, argmin, try_argmin, false, "minimum", "0");
            typed_reductions!(@softmax softmax, false, "softmax: `exp(x - max) / sum(exp(x - max))`", "0.6652409");
            typed_reductions!(@softmax log_softmax, true, "log-softmax: `x - logsumexp(x)`", "-0.40760595");
        }
    };
}

typed_reductions!(no; impl<T, S: Storage<T>> Tensor<T, S>);

/// Softmax into an owned tensor's buffer.
impl<T, S: Storage<T>> Tensor<T, S> {
    typed_reductions!(@softmax_into softmax_into, softmax, false, "0.6652409");
    typed_reductions!(@softmax_into log_softmax_into, log_softmax, true, "-0.40760595");
}
typed_reductions!(yes; impl<T, S: Shape> TensorView<'_, T, S>);

/// The panicking maximum, minimum and arg forms of a tensor, written out so that a refused
/// call's diagnostic points at a plain signature.
impl<T: Copy + PartialOrd + Send + Sync, S: Storage<T>> Tensor<T, S> {
    /// The maximum over the axes `A` selects; NaN propagates (rule book §16). A statically
    /// empty axis does not compile.
    ///
    /// # Panics
    ///
    /// When a selected axis of run-time size turns out to be empty;
    /// [`try_max`](Self::try_max) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// let r: Tensor<i32, shape![W: 2]> = t.max::<H>();
    /// assert_eq!(r.data(), &[3, 4]);
    /// ```
    #[track_caller]
    pub fn max<A>(&self) -> Tensor<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        Reduce<S, A>: Storage<T>,
    {
        self.try_max::<A>().or_panic()
    }

    /// [`max`](Self::max) keeping the reduced axes as statically-1 axes.
    ///
    /// # Panics
    ///
    /// As [`max`](Self::max).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.max_keep::<W>().data(), &[4, 3]);
    /// ```
    #[track_caller]
    pub fn max_keep<A>(&self) -> Tensor<T, ReduceKeep<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        ReduceKeep<S, A>: Storage<T>,
    {
        self.try_max_keep::<A>().or_panic()
    }

    /// The minimum over the axes `A` selects; NaN propagates (rule book §16). A statically
    /// empty axis does not compile.
    ///
    /// # Panics
    ///
    /// When a selected axis of run-time size turns out to be empty;
    /// [`try_min`](Self::try_min) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.min::<H>().data(), &[1, 2]);
    /// ```
    #[track_caller]
    pub fn min<A>(&self) -> Tensor<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        Reduce<S, A>: Storage<T>,
    {
        self.try_min::<A>().or_panic()
    }

    /// [`min`](Self::min) keeping the reduced axes as statically-1 axes.
    ///
    /// # Panics
    ///
    /// As [`min`](Self::min).
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.min_keep::<W>().sizes(), &[2, 1]);
    /// ```
    #[track_caller]
    pub fn min_keep<A>(&self) -> Tensor<T, ReduceKeep<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        ReduceKeep<S, A>: Storage<T>,
    {
        self.try_min_keep::<A>().or_panic()
    }

    /// The position of the maximum along the one axis `A` selects (first occurrence; a NaN
    /// wins, as in NumPy).
    ///
    /// # Panics
    ///
    /// When the axis has run-time size 0; [`try_argmax`](Self::try_argmax) returns the error
    /// instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(CLASS);
    /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [5.0, 2.0, 3.0]]);
    /// let r: Tensor<usize, shape![2]> = t.argmax::<CLASS>();
    /// assert_eq!(r.data(), &[2, 0]);
    /// ```
    #[track_caller]
    pub fn argmax<A: OneAxis>(&self) -> Tensor<usize, Reduce<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        Reduce<S, A>: Storage<usize>,
    {
        self.try_argmax::<A>().or_panic()
    }

    /// The position of the minimum along the one axis `A` selects (first occurrence; a NaN
    /// wins, as in NumPy).
    ///
    /// # Panics
    ///
    /// When the axis has run-time size 0; [`try_argmin`](Self::try_argmin) returns the error
    /// instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(CLASS);
    /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [5.0, 2.0, 3.0]]);
    /// assert_eq!(t.argmin::<CLASS>().data(), &[0, 1]);
    /// ```
    #[track_caller]
    pub fn argmin<A: OneAxis>(&self) -> Tensor<usize, Reduce<S, A>>
    where
        S: ReduceOver<A>,
        <S as ReduceOver<A>>::HasZero: NonEmpty<S, A>,
        Reduce<S, A>: Storage<usize>,
    {
        self.try_argmin::<A>().or_panic()
    }
}

impl<T, S: Storage<T>> Tensor<T, S> {
    /// Runs `f` on this tensor as the source of a reduction over `A`.
    fn with_source<A, R>(&self, f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> R) -> R
    where
        S: ReduceOver<A>,
    {
        let mut own = [0; MAX_TYPED_RANK];
        let source = Source {
            x: self.layout(&mut own),
            mask: &S::MASK[..S::RANK],
        };
        f(&source, &|| self.shape())
    }
}

impl<T, S: Shape> TensorView<'_, T, S> {
    /// Runs `f` on this view as the source of a reduction over `A`.
    fn with_source<A, R>(&self, f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> R) -> R
    where
        S: ReduceOver<A>,
    {
        let mut own = [0; MAX_TYPED_RANK];
        let source = Source {
            x: self.layout(&mut own),
            mask: &S::MASK[..S::RANK],
        };
        f(&source, &|| self.shape_dyn())
    }
}

/// The plumbing both carry: a reduction's data into a tensor of the output type `O`.
macro_rules! plumbing {
    ($($header:tt)*) => {
        $($header)* {
            fn reduced<A, O: Storage<V>, V>(
                &self,
                keep: bool,
                f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> Vec<V>,
            ) -> Tensor<V, O>
            where
                S: ReduceOver<A>,
            {
                self.with_source::<A, _>(|s, shape| {
                    s.has_room::<(V, V)>(shape).or_panic();
                    Tensor::from_parts(&s.out_sizes(keep), f(s, shape))
                })
            }

            fn try_reduced<A, O: Storage<V>, V>(
                &self,
                keep: bool,
                f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> Result<Vec<V>, Error>,
            ) -> Result<Tensor<V, O>, Error>
            where
                S: ReduceOver<A>,
            {
                self.with_source::<A, _>(|s, shape| {
                    s.has_room::<(V, V)>(shape)?;
                    Ok(Tensor::from_parts(&s.out_sizes(keep), f(s, shape)?))
                })
            }
        }
    };
}

plumbing!(impl<T, S: Storage<T>> Tensor<T, S>);
plumbing!(impl<T, S: Shape> TensorView<'_, T, S>);
