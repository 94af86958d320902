//! Reductions on tracked values over named axes (rule book §16): `sum`, `mean`, `max`,
//! `min`, `var`, `std`, `logsumexp`, `softmax`, `log_softmax`. The backward of a reduction over `A` expands the
//! gradient back along exactly `A`, the axes the type removed.

use crate::alloc_prelude::*;

use super::trainable::Trainable;
use super::var::Var;
use crate::engine::gradient::{expand, kept_side, sum_axes, with_expanded};
use crate::tensor::{Reductions, Tensor};
use crate::typed::reduce::{Reduce, ReduceOver};
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// The axes of `S` that `A` reduces.
fn mask<S: ReduceOver<A>, A>() -> Vec<bool> {
    S::MASK[..S::RANK].to_vec()
}

/// A reduction's cells as its backward walks them: which axes of the input are reduced, the
/// kept axes' sizes, and where each input axis sits among them.
struct Cells {
    mask: Vec<bool>,
    kept: Vec<usize>,
    side: Vec<Option<usize>>,
}

impl Cells {
    /// The cells of `S` reduced over `A` (the kept sizes `kept`).
    fn of<S: ReduceOver<A>, A>(kept: &[usize]) -> Cells {
        let mask = mask::<S, A>();
        let side = kept_side(&mask);
        Cells {
            mask,
            kept: kept.to_vec(),
            side,
        }
    }

    /// The cells of an input of sizes `frame` reduced where `mask` says.
    fn of_mask(frame: &[usize], mask: Vec<bool>) -> Cells {
        let kept = frame
            .iter()
            .zip(&mask)
            .filter(|&(_, &r)| !r)
            .map(|(&n, _)| n)
            .collect();
        let side = kept_side(&mask);
        Cells { mask, kept, side }
    }

    /// A value per cell spread over its input elements.
    fn expand<T: Copy + Send + Sync>(&self, frame: &[usize], v: &[T]) -> Result<Vec<T>, Error> {
        expand(frame, (v, &self.kept, &self.side))
    }

    /// `f(x, c)` for each input element `x` and its cell's value `c`.
    fn with<T: Copy + Send + Sync>(
        &self,
        frame: &[usize],
        x: &[T],
        c: &[T],
        f: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<Vec<T>, Error> {
        with_expanded(frame, x, (c, &self.kept, &self.side), f)
    }
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// The sum over the axes `A` selects (a name, a [`Pos`](crate::Pos), or a tuple).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(ROW, COL);
    /// let p = Param::new("p", Tensor::<f64, shape![ROW: 2, COL: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]));
    /// let tape = Tape::new();
    /// let rows = tape.watch(&p).sum::<COL>(); // [ROW: 2]
    /// let loss = (&rows * &rows).sum::<ROW>(); // 3² + 7²
    /// assert_eq!(loss.value().data(), &[58.0]);
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[6.0, 6.0, 14.0, 14.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sum<A>(&self) -> Var<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().sum::<A>();
        self.unary_op(value, |g, x, y| {
            Cells::of::<S, A>(y.sizes()).expand(x.sizes(), &g)
        })
    }

    /// The mean over the axes `A` selects.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![4]>::from_array([1.0, 2.0, 3.0, 4.0]));
    /// let tape = Tape::new();
    /// let g = tape.watch(&p).mean::<Pos<0>>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[0.25; 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn mean<A>(&self) -> Var<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().mean::<A>();
        self.unary_op(value, |g, x, y| {
            let k = T::from(x.data().len() / y.data().len().max(1)).map_or_else(T::nan, T::recip);
            let mut gx = Cells::of::<S, A>(y.sizes()).expand(x.sizes(), &g)?;
            gx.iter_mut().for_each(|v| *v = *v * k);
            Ok(gx)
        })
    }

    /// The maximum over the axes `A` selects (as `Tensor::try_max`); or the error when a
    /// selected axis is empty. The gradient is shared evenly by the elements equal to the
    /// maximum, as PyTorch's `amax` shares it.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 3]>::from_array([2.0, 5.0, 5.0]));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).max::<T>()?.backward()?.of(&p)?.data(), &[0.0, 0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn max<A>(&self) -> Result<Var<T, Reduce<S, A>>, Error>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().try_max::<A>()?;
        Ok(self.extreme::<A, _>(value))
    }

    /// The minimum over the axes `A` selects (as `Tensor::try_min`); the gradient is shared
    /// evenly by the elements equal to the minimum.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 3]>::from_array([2.0, 5.0, 1.0]));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).min::<T>()?.backward()?.of(&p)?.data(), &[0.0, 0.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn min<A>(&self) -> Result<Var<T, Reduce<S, A>>, Error>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().try_min::<A>()?;
        Ok(self.extreme::<A, _>(value))
    }

    /// An extreme `value` over `A`, its gradient shared by the elements equal to it.
    fn extreme<A, R: Storage<T>>(&self, value: Tensor<T, R>) -> Var<T, R>
    where
        S: ReduceOver<A>,
    {
        self.unary_op(value, |g, x, y| {
            let (frame, cells) = (x.sizes(), Cells::of::<S, A>(y.sizes()));
            let hit = cells.with(frame, x.data(), y.data(), |x, y| {
                if x == y {
                    T::one()
                } else {
                    T::zero()
                }
            })?;
            let count = sum_axes(frame, &cells.mask, &hit);
            let share: Vec<T> = g.iter().zip(&count).map(|(&g, &c)| g / c).collect();
            cells.with(frame, &hit, &share, |h, s| *h * *s)
        })
    }

    /// The variance over the axes `A` selects with `ddof` delta degrees of freedom (as
    /// `Tensor::var_ddof`; 0 for the population's, 1 for the unbiased estimate).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 2]>::from_array([1.0, 3.0]));
    /// let tape = Tape::new();
    /// // var = ((x₀ − x₁)/2)²·2/2: ∂/∂x = (x − μ)·2/n
    /// assert_eq!(tape.watch(&p).var::<T>(0).backward()?.of(&p)?.data(), &[-1.0, 1.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn var<A>(&self, ddof: usize) -> Var<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().var_ddof::<A>(ddof);
        self.deviation::<A, _>(value, ddof, false)
    }

    /// The standard deviation over the axes `A` selects with `ddof` delta degrees of freedom
    /// (as `Tensor::std_ddof`).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 2]>::from_array([1.0, 3.0]));
    /// let tape = Tape::new();
    /// assert_eq!(tape.watch(&p).std::<T>(0).backward()?.of(&p)?.data(), &[-0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn std<A>(&self, ddof: usize) -> Var<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().std_ddof::<A>(ddof);
        self.deviation::<A, _>(value, ddof, true)
    }

    /// A variance (or, `root`, a deviation) `value` over `A`: `∂x = g·2(x − μ)/(n − ddof)`,
    /// divided by `2σ` for the deviation.
    fn deviation<A, R: Storage<T>>(&self, value: Tensor<T, R>, ddof: usize, root: bool) -> Var<T, R>
    where
        S: ReduceOver<A>,
    {
        self.unary_op(value, move |g, x, y| {
            let (frame, cells) = (x.sizes(), Cells::of::<S, A>(y.sizes()));
            let n = x.data().len() / y.data().len().max(1);
            let k = T::from(n.saturating_sub(ddof)).map_or_else(T::nan, T::recip);
            let inv_n = T::from(n).map_or_else(T::nan, T::recip);
            let mu: Vec<T> = sum_axes(frame, &cells.mask, x.data())
                .into_iter()
                .map(|s| s * inv_n)
                .collect();
            let per: Vec<T> = g
                .iter()
                .zip(y.data())
                .map(|(&g, &y)| if root { g * k / y } else { (g + g) * k })
                .collect();
            let centred = cells.with(frame, x.data(), &mu, |x, m| *x - *m)?;
            cells.with(frame, &centred, &per, |c, p| *c * *p)
        })
    }

    /// `ln Σ exp(x)` over the axes `A` selects, computed stably; its gradient is the softmax.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// let p = Param::new("p", Tensor::<f64, shape![2]>::from_array([0.0, 0.0]));
    /// let tape = Tape::new();
    /// let g = tape.watch(&p).logsumexp::<Pos<0>>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn logsumexp<A>(&self) -> Var<T, Reduce<S, A>>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().logsumexp::<A>();
        self.unary_op(value, |g, x, y| {
            let (frame, cells) = (x.sizes(), Cells::of::<S, A>(y.sizes()));
            let p = cells.with(frame, x.data(), y.data(), |x, l| (*x - *l).exp_v())?;
            cells.with(frame, &p, &g, |p, g| *p * *g)
        })
    }

    /// The softmax over the axes `A` selects (the shape is kept).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(CLASS);
    /// let p = Param::new("p", Tensor::<f64, shape![CLASS: 2]>::from_array([0.0, 0.0]));
    /// let tape = Tape::new();
    /// let first = Tensor::<f64, shape![CLASS: 2]>::from_array([1.0, 0.0]);
    /// let loss = (&tape.watch(&p).softmax::<CLASS>() * &first).sum::<CLASS>(); // p₀
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[0.25, -0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn softmax<A>(&self) -> Var<T, S>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().softmax::<A>();
        self.unary_op(value, |g, x, y| {
            // ∂x = y · (g − Σ_A g·y)
            let (frame, y) = (x.sizes(), y.data());
            let cells = Cells::of_mask(frame, mask::<S, A>());
            let gy: Vec<T> = g.iter().zip(y).map(|(&g, &y)| g * y).collect();
            let s = sum_axes(frame, &cells.mask, &gy);
            let d = cells.with(frame, &g, &s, |g, s| *g - *s)?;
            Ok(d.iter().zip(y).map(|(&d, &y)| d * y).collect())
        })
    }

    /// The log-softmax over the axes `A` selects, `x − logsumexp(x)` (the shape is kept).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(CLASS);
    /// let p = Param::new("p", Tensor::<f64, shape![CLASS: 2]>::from_array([0.0, 0.0]));
    /// let tape = Tape::new();
    /// let first = Tensor::<f64, shape![CLASS: 2]>::from_array([1.0, 0.0]);
    /// let loss = (&tape.watch(&p).log_softmax::<CLASS>() * &first).sum::<CLASS>(); // ln p₀
    /// assert_eq!(loss.backward()?.of(&p)?.data(), &[0.5, -0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn log_softmax<A>(&self) -> Var<T, S>
    where
        S: ReduceOver<A>,
    {
        let value = self.value().log_softmax::<A>();
        self.unary_op(value, |g, x, y| {
            // ∂x = g − exp(y) · Σ_A g
            let frame = x.sizes();
            let cells = Cells::of_mask(frame, mask::<S, A>());
            let s = cells.expand(frame, &sum_axes(frame, &cells.mask, &g))?;
            Ok(g.iter()
                .zip(y.data())
                .zip(s)
                .map(|((&g, &y), s)| g - y.exp_v() * s)
                .collect())
        })
    }
}
