//! The reductions of `DynTensor` (rule book §16): the same family as the typed tensors'
//! (`reductions`), the axes picked by selectors known at run time (names or positions), every
//! refusal an [`Error`].

use crate::alloc_prelude::*;

use core::ops::{Add, Mul};

use num_traits::{One, Zero};

use crate::dynamic::reduce::apply;
use crate::engine::reduce::Source;
use crate::engine::vmath::Transcendental;
use crate::tensor::dyn_tensor::DynTensor;
use crate::values::error::Error;
use crate::values::selector::{selected, AxisSelector};
use crate::values::shape::DynShape;

/// The run-time family: selectors known at run time (names or positions, see
/// [`AxisSelector`]), every refusal an [`Error`].
macro_rules! dyn_reductions {
    ($($name:ident, $keep:ident, $what:literal, [$($bound:tt)*], $f:expr_2021;)*) => {
        impl<T> DynTensor<T> {
            $(
                #[doc = concat!("The ", $what, " over the selected axes (rule book §16), or the error: an axis missing or selected twice.")]
                ///
                /// ```
                /// use shapecast::DynTensor;
                /// let t = DynTensor::from_vec("[2, CLASS: 3]".parse()?, vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
                #[doc = concat!("let r = t.", stringify!($name), "(&[\"CLASS\".parse()?])?;")]
                /// assert_eq!(r.shape().to_string(), "[2]");
                #[doc = concat!("assert!(t.", stringify!($name), "(&[\"H\".parse()?]).is_err());")]
                /// # Ok::<(), shapecast::Error>(())
                /// ```
                pub fn $name(&self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
                where
                    T: $($bound)*,
                {
                    self.reduced(axes, false, $f)
                }

                #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") keeping the reduced axes as size-1 axes with their names.")]
                ///
                /// ```
                /// use shapecast::DynTensor;
                /// let t = DynTensor::from_vec("[2, CLASS: 3]".parse()?, vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
                #[doc = concat!("assert_eq!(t.", stringify!($keep), "(&[\"CLASS\".parse()?])?.shape().to_string(), \"[2, CLASS: 1]\");")]
                /// # Ok::<(), shapecast::Error>(())
                /// ```
                pub fn $keep(&self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
                where
                    T: $($bound)*,
                {
                    self.reduced(axes, true, $f)
                }
            )*
        }
    };
}

dyn_reductions! {
    sum, sum_keep, "sum", [Copy + Send + Sync + Zero + Add<Output = T> + 'static], |s, _| Ok(s.sum());
    prod, prod_keep, "product", [Copy + Send + Sync + One + Mul<Output = T>], |s, _| Ok(s.prod());
    mean, mean_keep, "mean", [Transcendental], |s, _| Ok(s.mean());
    var, var_keep, "population variance", [Transcendental], |s, _| Ok(s.var(0));
    std, std_keep, "population standard deviation", [Transcendental], |s, _| Ok(s.std(0));
    logsumexp, logsumexp_keep, "`ln(sum(exp(x)))`", [Transcendental], |s, shape| Ok(s.logsumexp(shape));
    max, max_keep, "maximum (an empty axis is an error)", [Copy + PartialOrd + Send + Sync], |s, shape| s.extreme::<true>(shape);
    min, min_keep, "minimum (an empty axis is an error)", [Copy + PartialOrd + Send + Sync], |s, shape| s.extreme::<false>(shape);
}

impl<T: Transcendental> DynTensor<T> {
    /// The variance over the selected axes with `ddof` delta degrees of freedom: the squared
    /// deviations divided by `n - ddof` (NumPy's `ddof`, PyTorch's `correction`; 1 gives the
    /// unbiased estimate), `inf` or NaN when `ddof` is at least `n`; or the error: an axis
    /// missing or selected twice.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[2, CLASS: 3]".parse()?, vec![1.0f64, 2.0, 3.0, 4.0, 6.0, 8.0])?;
    /// assert_eq!(t.var_ddof(&["CLASS".parse()?], 1)?.data(), &[1.0, 4.0]);
    /// assert_eq!(t.var_ddof(&["CLASS".parse()?], 0)?.data(), t.var(&["CLASS".parse()?])?.data());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn var_ddof(&self, axes: &[AxisSelector], ddof: usize) -> Result<DynTensor<T>, Error> {
        self.reduced(axes, false, |s, _| Ok(s.var(ddof)))
    }

    /// The standard deviation over the selected axes with `ddof` delta degrees of freedom
    /// (the square root of [`var_ddof`](Self::var_ddof)).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[2, CLASS: 3]".parse()?, vec![1.0f64, 2.0, 3.0, 4.0, 6.0, 8.0])?;
    /// assert_eq!(t.std_ddof(&["CLASS".parse()?], 1)?.data(), &[1.0, 2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn std_ddof(&self, axes: &[AxisSelector], ddof: usize) -> Result<DynTensor<T>, Error> {
        self.reduced(axes, false, |s, _| Ok(s.std(ddof)))
    }
}

impl<T> DynTensor<T> {
    /// Runs `f` on this tensor as the source of a reduction over `axes`.
    pub(super) fn with_source<R>(
        &self,
        axes: &[AxisSelector],
        f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let mask = selected(self.shape(), axes)?;
        let mut own = Default::default();
        let source = Source {
            x: self.layout(&mut own),
            mask: &mask,
        };
        f(&source, &|| self.shape().clone())
    }

    fn reduced<V>(
        &self,
        axes: &[AxisSelector],
        keep: bool,
        f: impl FnOnce(&Source<'_, T>, &dyn Fn() -> DynShape) -> Result<Vec<V>, Error>,
    ) -> Result<DynTensor<V>, Error> {
        self.with_source(axes, |s, shape| {
            s.has_room::<(V, V)>(shape)?;
            let data = f(s, shape)?;
            let out = apply(self.shape(), s.mask, keep);
            Ok(DynTensor::from_parts(out, s.out_sizes(keep).to_vec(), data))
        })
    }

    /// The position of the maximum along one axis (first occurrence; a NaN wins), or the
    /// error: the axis missing, or empty.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[2, CLASS: 3]".parse()?, vec![1, 5, 3, 4, 2, 6])?;
    /// assert_eq!(t.argmax(&"CLASS".parse()?)?.data(), &[1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn argmax(&self, axis: &AxisSelector) -> Result<DynTensor<usize>, Error>
    where
        T: Copy + PartialOrd + Send + Sync,
    {
        self.reduced(core::slice::from_ref(axis), false, |s, shape| {
            s.arg::<true>(shape)
        })
    }

    /// The position of the minimum along one axis (first occurrence; a NaN wins), or the
    /// error: the axis missing, or empty.
    ///
    /// ```
    /// use shapecast::{dynamic::reduce::AxisSelector, DynTensor};
    /// let t = DynTensor::from_vec("[2, 3]".parse()?, vec![1, 5, 3, 4, 2, 6])?;
    /// assert_eq!(t.argmin(&AxisSelector::Pos(0))?.data(), &[0, 1, 0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn argmin(&self, axis: &AxisSelector) -> Result<DynTensor<usize>, Error>
    where
        T: Copy + PartialOrd + Send + Sync,
    {
        self.reduced(core::slice::from_ref(axis), false, |s, shape| {
            s.arg::<false>(shape)
        })
    }
}
