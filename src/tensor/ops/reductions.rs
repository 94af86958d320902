//! Reductions by name (rule book §16): [`Reductions`], `sum::<A>()` and its family, each with
//! a `_keep` form, `argmax`/`argmin`, `softmax`/`log_softmax`, written once for every typed
//! receiver (tensors and both views, through [`Contractible`]). The run-time twins on
//! `DynTensor` are in `dyn_reductions`; the kernels in the engine's `reduce`.
//!
//! ```
//! use shapecast::{names, shape, Reductions, Tensor};
//! names!(CLASS);
//! let logits = Tensor::<f32, shape![?, CLASS: 3]>::from_vec_sized(&[2, 3], vec![1.0, 2.0, 3.0, 1.0, 1.0, 1.0])?;
//! // The max over CLASS has shape [?] and broadcasts back by name: no keepdims needed.
//! let shifted = &logits - &logits.max::<CLASS>();
//! assert_eq!(shifted.data(), &[-2.0, -1.0, 0.0, 0.0, 0.0, 0.0]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use num_traits::{One, Zero};

use super::scan::scanned;
use super::topk::top_k;
use crate::engine::reduce::Dims;
use crate::engine::reduce::Source;
use crate::engine::vmath::Transcendental;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
#[cfg(feature = "rand")]
use crate::typed::reduce::SampleOver;
use crate::typed::reduce::{OneAxis, Reduce, ReduceKeep, ReduceNonEmpty, ReduceOver};
use crate::typed::shape::Shape;
use crate::typed::size::Dyn;
use crate::typed::storage::Storage;
use crate::typed::surgery::{Slice, SliceAxis};
use crate::values::error::{Error, OrPanic};
use crate::values::shape::DynShape;

/// The methods of [`Reductions`] that share one form, with their docs: `@plain` a reduction
/// and its `_keep` form, `@extreme` the fallible maximum and minimum, `@arg` the fallible
/// positions, `@ddof` variance and deviation with a `ddof`, `@softmax` the softmax pair.
macro_rules! typed_reductions {
    (@plain $name:ident, $keep:ident, $what:literal, [$($bound:tt)*], $f:expr_2021, $value:literal) => {
        #[doc = concat!("The ", $what, " over the axes `A` selects: a name, a [`Pos<K>`](crate::Pos) or a tuple of them (rule book §16).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Reductions, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert!((r.data()[0] - ", $value, ").abs() < 1e-5);")]
        /// ```
        fn $name<A>(&self) -> Tensor<Self::Elem, Reduce<Self::Shape, A>>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: $($bound)*,
        {
            reduced::<_, A, _, _>(self, false, $f)
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") keeping the reduced axes as statically-1 axes with their names (NumPy's `keepdims=True`).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Reductions, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2, CLASS: 1]> = t.", stringify!($keep), "::<CLASS>();")]
        /// assert_eq!(r.sizes(), &[2, 1]);
        /// ```
        fn $keep<A>(&self) -> Tensor<Self::Elem, ReduceKeep<Self::Shape, A>>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: $($bound)*,
        {
            reduced::<_, A, _, _>(self, true, $f)
        }
    };
    (@extreme $name:ident, $keep:ident, $try_name:ident, $try_keep:ident, $max:literal, $what:literal) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or [`Error::EmptyAxis`] when a selected axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Reductions, Tensor};
        /// let t = Tensor::<f32, shape![?, 2]>::from_vec_sized(&[0, 2], vec![])?;
        #[doc = concat!("assert!(t.", stringify!($try_name), "::<Pos<0>>().is_err());")]
        #[doc = concat!("assert_eq!(t.", stringify!($try_name), "::<Pos<1>>()?.sizes(), &[0]);")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        fn $try_name<A>(&self) -> Result<Tensor<Self::Elem, Reduce<Self::Shape, A>>, Error>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: Copy + PartialOrd + Send + Sync,
        {
            try_reduced::<_, A, _, _>(self, false, |s, shape| s.extreme::<$max>(shape))
        }

        #[doc = concat!("[`", stringify!($keep), "`](Self::", stringify!($keep), "), or [`Error::EmptyAxis`] when a selected axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Reductions, Tensor};
        /// let t = Tensor::<f32, shape![?, 2]>::from_vec_sized(&[1, 2], vec![1.0, 2.0])?;
        #[doc = concat!("assert_eq!(t.", stringify!($try_keep), "::<Pos<1>>()?.sizes(), &[1, 1]);")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        fn $try_keep<A>(&self) -> Result<Tensor<Self::Elem, ReduceKeep<Self::Shape, A>>, Error>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: Copy + PartialOrd + Send + Sync,
        {
            try_reduced::<_, A, _, _>(self, true, |s, shape| s.extreme::<$max>(shape))
        }
    };
    (@arg $name:ident, $try_name:ident, $max:literal, $what:literal, $value:literal) => {
        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), or [`Error::EmptyAxis`] when the axis is empty at run time.")]
        ///
        /// ```
        /// use shapecast::{shape, Pos, Reductions, Tensor};
        /// let t = Tensor::<i32, shape![?]>::from_vec_sized(&[0], vec![])?;
        #[doc = concat!("assert!(t.", stringify!($try_name), "::<Pos<0>>().is_err());")]
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        fn $try_name<A: OneAxis>(&self) -> Result<Tensor<usize, Reduce<Self::Shape, A>>, Error>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: Copy + PartialOrd + Send + Sync,
        {
            try_reduced::<_, A, _, _>(self, false, |s, shape| s.arg::<$max>(shape))
        }
    };
    (@ddof $name:ident, $what:literal, $stat:ident, $value:literal) => {
        #[doc = concat!("The ", $what, " over the axes `A` selects with `ddof` delta degrees of freedom: the squared deviations divided by `n - ddof` (NumPy's `ddof`, PyTorch's `correction`; 1 gives the unbiased estimate), `inf` or NaN when `ddof` is at least `n`. Summed pairwise and compensated: in `f32`, within 1e-6 of an `f64` reference at 4·10^6 elements.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Reductions, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let r: Tensor<f32, shape![2]> = t.", stringify!($name), "::<CLASS>(1);")]
        #[doc = concat!("assert!((r.data()[0] - ", $value, ").abs() < 1e-6);")]
        /// ```
        fn $name<A>(&self, ddof: usize) -> Tensor<Self::Elem, Reduce<Self::Shape, A>>
        where
            Self::Shape: ReduceOver<A>,
            Self::Elem: Transcendental,
        {
            reduced::<_, A, _, _>(self, false, |s, _| s.$stat(ddof))
        }
    };
    (@softmax $name:ident, $log:literal, $what:literal, $value:literal) => {
        #[doc = concat!("The ", $what, " along the axes `A` selects, in `S` (rule book §16). The maximum is subtracted first, so large inputs do not overflow.")]
        ///
        /// ```
        /// use shapecast::{names, shape, Reductions, Tensor};
        /// names!(CLASS);
        /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]);
        #[doc = concat!("let p: Tensor<f32, shape![2, CLASS: 3]> = t.", stringify!($name), "::<CLASS>();")]
        #[doc = concat!("assert!((p.data()[2] - ", $value, ").abs() < 1e-5);")]
        /// ```
        fn $name<A>(&self) -> Tensor<Self::Elem, Self::Shape>
        where
            Self::Shape: ReduceOver<A> + Storage<Self::Elem>,
            Self::Elem: Transcendental,
        {
            with_source::<_, A, _>(self, |s, shape| {
                // An output that cannot exist panics with the error, as the operators do.
                let data = s.softmax::<$log>(shape).or_panic();
                Tensor::from_parts(s.x.sizes, data)
            })
        }
    };
    (@softmax_into $name:ident, $borrowing:ident, $log:literal, $value:literal) => {
        #[doc = concat!("[`", stringify!($borrowing), "`](crate::Reductions::", stringify!($borrowing), ") written into this tensor's own buffer: no allocation the tensor's size, for a tensor not needed afterwards (attention's scores).")]
        ///
        /// ```
        /// use shapecast::{names, shape, Reductions, Tensor};
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
    (family) => {
        typed_reductions!(@plain sum, sum_keep, "sum (0 over an empty axis)", [Copy + Send + Sync + Zero + Add<Output = Self::Elem> + 'static], |s, _| s.sum(), "6.0");
        typed_reductions!(@plain prod, prod_keep, "product (1 over an empty axis)", [Copy + Send + Sync + One + Mul<Output = Self::Elem>], |s, _| s.prod(), "6.0");
        typed_reductions!(@plain mean, mean_keep, "mean (NaN over an empty axis)", [Transcendental], |s, _| s.mean(), "2.0");
        typed_reductions!(@plain var, var_keep, "population variance (ddof 0; [`var_ddof`](Self::var_ddof) for others)", [Transcendental], |s, _| s.var(0), "0.6666667");
        typed_reductions!(@plain std, std_keep, "population standard deviation (ddof 0; [`std_ddof`](Self::std_ddof) for others)", [Transcendental], |s, _| s.std(0), "0.8164966");
        typed_reductions!(@ddof var_ddof, "variance", var, "1.0");
        typed_reductions!(@ddof std_ddof, "standard deviation", std, "1.0");
        typed_reductions!(@plain logsumexp, logsumexp_keep, "`ln(sum(exp(x)))`, computed stably", [Transcendental], |s, shape: &dyn Fn() -> DynShape| s.logsumexp(shape), "3.407606");
        typed_reductions!(@extreme max, max_keep, try_max, try_max_keep, true, "maximum");
        typed_reductions!(@extreme min, min_keep, try_min, try_min_keep, false, "minimum");
        typed_reductions!(@arg argmax, try_argmax, true, "maximum", "2");
        typed_reductions!(@arg argmin, try_argmin, false, "minimum", "0");
        typed_reductions!(@softmax softmax, false, "softmax: `exp(x - max) / sum(exp(x - max))`", "0.6652409");
        typed_reductions!(@softmax log_softmax, true, "log-softmax: `x - logsumexp(x)`", "-0.40760595");
    };
}

/// Reductions over axes selected by name or position (rule book §16), on a [`Tensor`], a
/// [`TensorView`](crate::TensorView) and a [`TensorViewMut`](crate::TensorViewMut) alike: the
/// result's shape is computed at compile time, and a reduced axis is gone from it, so the
/// result broadcasts back by name (no `keepdims` needed; each reduction has a `_keep` form
/// for when it is). In the [prelude](crate::prelude); `DynTensor` has the same family with
/// selectors known at run time.
///
/// ```
/// use shapecast::{names, shape, Reductions, Tensor};
/// names!(CLASS);
/// let logits = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]);
/// let view = logits.view();
/// assert_eq!(view.max::<CLASS>().data(), logits.max::<CLASS>().data());
/// let shifted = &logits - &logits.max::<CLASS>();
/// assert_eq!(shifted.data(), &[-2.0, -1.0, 0.0, 0.0, 0.0, 0.0]);
/// ```
pub trait Reductions: Contractible {
    typed_reductions!(family);

    /// The maximum over the axes `A` selects; NaN propagates (rule book §16). A statically
    /// empty axis does not compile.
    ///
    /// # Panics
    ///
    /// When a selected axis of run-time size turns out to be empty;
    /// [`try_max`](Self::try_max) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// let r: Tensor<i32, shape![W: 2]> = t.max::<H>();
    /// assert_eq!(r.data(), &[3, 4]);
    /// ```
    #[track_caller]
    fn max<A>(&self) -> Tensor<Self::Elem, Reduce<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
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
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.max_keep::<W>().data(), &[4, 3]);
    /// ```
    #[track_caller]
    fn max_keep<A>(&self) -> Tensor<Self::Elem, ReduceKeep<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
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
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.min::<H>().data(), &[1, 2]);
    /// ```
    #[track_caller]
    fn min<A>(&self) -> Tensor<Self::Elem, Reduce<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
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
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(H, W);
    /// let t = Tensor::<i32, shape![H: 2, W: 2]>::from_array([[1, 4], [3, 2]]);
    /// assert_eq!(t.min_keep::<W>().sizes(), &[2, 1]);
    /// ```
    #[track_caller]
    fn min_keep<A>(&self) -> Tensor<Self::Elem, ReduceKeep<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
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
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(CLASS);
    /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [5.0, 2.0, 3.0]]);
    /// let r: Tensor<usize, shape![2]> = t.argmax::<CLASS>();
    /// assert_eq!(r.data(), &[2, 0]);
    /// ```
    #[track_caller]
    fn argmax<A: OneAxis>(&self) -> Tensor<usize, Reduce<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
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
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(CLASS);
    /// let t = Tensor::<f32, shape![2, CLASS: 3]>::from_array([[1.0, 2.0, 3.0], [5.0, 2.0, 3.0]]);
    /// assert_eq!(t.argmin::<CLASS>().data(), &[0, 1]);
    /// ```
    #[track_caller]
    fn argmin<A: OneAxis>(&self) -> Tensor<usize, Reduce<Self::Shape, A>>
    where
        Self::Shape: ReduceNonEmpty<A>,
        Self::Elem: Copy + PartialOrd + Send + Sync,
    {
        self.try_argmin::<A>().or_panic()
    }

    /// The running sum along the one axis `A` selects (NumPy's `cumsum`), the shape kept;
    /// element `i` along the axis is the sum of elements `0..=i`, added in that order.
    ///
    /// ```
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(T, D);
    /// let t = Tensor::<i32, shape![T: 3, D: 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
    /// assert_eq!(t.cumsum::<T>().data(), &[1, 2, 4, 6, 9, 12]);
    /// assert_eq!(t.cumsum::<D>().data(), &[1, 3, 3, 7, 5, 11]);
    /// assert_eq!(t.view().slice::<T>(1..)?.cumsum::<T>().data(), &[3, 4, 8, 10]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn cumsum<A: OneAxis>(&self) -> Tensor<Self::Elem, Self::Shape>
    where
        Self::Shape: ReduceOver<A> + Storage<Self::Elem>,
        Self::Elem: Clone + Add<Output = Self::Elem>,
    {
        scanned::<_, A>(self, |a, b| a + b)
    }

    /// The running product along the one axis `A` selects (NumPy's `cumprod`), the shape
    /// kept.
    ///
    /// ```
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(T);
    /// let t = Tensor::<f64, shape![T: 4]>::from_array([1.0, 2.0, 3.0, 0.5]);
    /// assert_eq!(t.cumprod::<T>().data(), &[1.0, 2.0, 6.0, 3.0]);
    /// ```
    fn cumprod<A: OneAxis>(&self) -> Tensor<Self::Elem, Self::Shape>
    where
        Self::Shape: ReduceOver<A> + Storage<Self::Elem>,
        Self::Elem: Clone + Mul<Output = Self::Elem>,
    {
        scanned::<_, A>(self, |a, b| a * b)
    }

    /// The `k` largest elements along the one axis `A` selects, largest first, and their
    /// positions along it (PyTorch's `topk`): the axis keeps its name with the size `?`. A
    /// `k` above the axis' size is an error.
    ///
    /// ```
    /// use shapecast::{names, shape, Reductions, Tensor};
    /// names!(T, VOCAB);
    /// let logits = Tensor::<f32, shape![T: 2, VOCAB: 4]>::from_array([[0.1, 2.0, -1.0, 2.0], [3.0, 0.0, 1.0, 0.5]]);
    /// let (values, indices) = logits.topk::<VOCAB>(2)?; // [T: 2, VOCAB] each
    /// assert_eq!(values.data(), &[2.0, 2.0, 3.0, 1.0]);
    /// assert_eq!(indices.data(), &[1, 3, 0, 2]); // equal values in index order
    /// assert!(logits.topk::<VOCAB>(5).is_err());
    /// let (v, i) = logits.view().select::<T>(1)?.topk::<VOCAB>(1)?;
    /// assert_eq!((v.data(), i.data()), (&[3.0][..], &[0][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[allow(clippy::type_complexity)] // spelled out: the signature the docs show
    fn topk<A: OneAxis>(
        &self,
        k: usize,
    ) -> Result<
        (
            Tensor<Self::Elem, Slice<Self::Shape, A>>,
            Tensor<usize, Slice<Self::Shape, A>>,
        ),
        Error,
    >
    where
        Self::Shape: SliceAxis<A, Dyn>,
        Self::Elem: PartialOrd + Clone,
    {
        top_k::<_, A>(self, k)
    }

    /// An index drawn along the one axis `A` selects for every position of the other axes,
    /// as [`Sampling`](crate::Sampling) says, from the caller's generator: the logits' shape
    /// without `A` (feature `rand`). `A` must be the last axis, the categories
    /// ([`SampleOver`](crate::SampleOver)): sampling over the sequence instead of the
    /// vocabulary is a compile error.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use shapecast::{names, shape, Reductions, Sampling, Tensor};
    /// names!(T, VOCAB);
    /// let logits = Tensor::<f32, shape![T: 2, VOCAB: 4]>::from_array([[0.0, 5.0, 1.0, 0.0], [2.0, 0.0, 0.0, 9.0]]);
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    /// let greedy = logits.sample::<VOCAB>(&Sampling::default().temperature(0.0), &mut rng)?;
    /// assert_eq!(greedy.data(), &[1, 3]);
    /// // Top-k of 1 is greedy at any temperature; a view samples in place (the last position).
    /// let one = logits.sample::<VOCAB>(&Sampling::default().top_k(1), &mut rng)?;
    /// assert_eq!(one.data(), &[1, 3]);
    /// let last = logits.view().select::<T>(1)?;
    /// assert_eq!(last.sample::<VOCAB>(&Sampling::default().top_k(1), &mut rng)?.data(), &[3]);
    /// assert!(logits.sample::<VOCAB>(&Sampling::default().top_p(1.5), &mut rng).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[cfg(feature = "rand")]
    fn sample<A: OneAxis>(
        &self,
        how: &crate::Sampling,
        rng: &mut impl rand_core::Rng,
    ) -> Result<Tensor<usize, Reduce<Self::Shape, A>>, Error>
    where
        Self::Elem: num_traits::Float,
        Self::Shape: SampleOver<A>,
    {
        super::sample::sampled::<_, A>(self, how, rng)
    }
}

impl<X: Contractible + ?Sized> Reductions for X {}

/// Softmax into an owned tensor's buffer.
impl<T, S: Storage<T>> Tensor<T, S> {
    typed_reductions!(@softmax_into softmax_into, softmax, false, "0.6652409");
    typed_reductions!(@softmax_into log_softmax_into, log_softmax, true, "-0.40760595");
}

/// Runs `f` on `x` as the source of a reduction over `A`.
fn with_source<X, A, R>(
    x: &X,
    f: impl FnOnce(&Source<'_, X::Elem>, &dyn Fn() -> DynShape) -> R,
) -> R
where
    X: Contractible + ?Sized,
    X::Shape: ReduceOver<A>,
{
    let mut own = Own::default();
    let source = Source {
        x: x.layout(&mut own),
        mask: &<X::Shape as ReduceOver<A>>::MASK[..<X::Shape as Shape>::RANK],
    };
    f(&source, &|| x.shape_dyn())
}

/// A reduction's data into a tensor of the output type `O`; an output that cannot exist
/// panics with the error, as the operators do.
fn reduced<X, A, O: Storage<V>, V>(
    x: &X,
    keep: bool,
    f: impl FnOnce(&Source<'_, X::Elem>, &dyn Fn() -> DynShape) -> Vec<V>,
) -> Tensor<V, O>
where
    X: Contractible + ?Sized,
    X::Shape: ReduceOver<A>,
{
    with_source::<X, A, _>(x, |s, shape| {
        s.has_room::<(V, V)>(shape).or_panic();
        Tensor::from_parts(&s.out_sizes(keep), f(s, shape))
    })
}

/// [`reduced`] for a reduction that can fail.
fn try_reduced<X, A, O: Storage<V>, V>(
    x: &X,
    keep: bool,
    f: impl FnOnce(&Source<'_, X::Elem>, &dyn Fn() -> DynShape) -> Result<Vec<V>, Error>,
) -> Result<Tensor<V, O>, Error>
where
    X: Contractible + ?Sized,
    X::Shape: ReduceOver<A>,
{
    with_source::<X, A, _>(x, |s, shape| {
        s.has_room::<(V, V)>(shape)?;
        Ok(Tensor::from_parts(&s.out_sizes(keep), f(s, shape)?))
    })
}
