//! Reductions on tracked values over named axes (rule book §16): `sum`, `mean`, `max`,
//! `min`, `var`, `std`, `logsumexp`, `softmax`, `log_softmax`. The backward of a reduction over `A` expands the
//! gradient back along exactly `A`, the axes the type removed.

use crate::alloc_prelude::*;

use alloc::sync::Arc;

use super::tape::Accumulate;
use super::var::{Trainable, Var};
use crate::engine::gradient::{expand, kept_side, sum_axes, with_expanded};
use crate::tensor::{Reductions, Tensor};
use crate::typed::reduce::{Reduce, ReduceOver};
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// The axes of `S` that `A` reduces.
fn mask<S: ReduceOver<A>, A>() -> Vec<bool> {
    S::MASK[..S::RANK].to_vec()
}

/// The softmax `exp(x - lse)` from the input and its log-sum-exp expanded into it.
fn softmax_from<T: Trainable>(x: &[T], lse: &[T]) -> Vec<T> {
    x.iter().zip(lse).map(|(&x, &l)| (x - l).exp_v()).collect()
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
        Reduce<S, A>: Storage<T>,
    {
        let value = self.value().sum::<A>();
        self.spread::<A, _>(value, None)
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
        Reduce<S, A>: Storage<T>,
    {
        let value = self.value().mean::<A>();
        let count = self.value().data().len() / value.data().len().max(1);
        let scale = T::from(count).map_or_else(T::nan, T::recip);
        self.spread::<A, _>(value, Some(scale))
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
        Reduce<S, A>: Storage<T>,
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
        Reduce<S, A>: Storage<T>,
    {
        let value = self.value().try_min::<A>()?;
        Ok(self.extreme::<A, _>(value))
    }

    /// An extreme `value` over `A`, its gradient shared by the elements equal to it.
    fn extreme<A, R: Storage<T>>(&self, value: Tensor<T, R>) -> Var<T, R>
    where
        S: ReduceOver<A>,
    {
        let (node, input) = (self.node(), self.shared());
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, R>>| {
                let out = Arc::clone(out);
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    let (m, frame) = (mask::<S, A>(), input.sizes());
                    let side = kept_side(&m);
                    let hit = with_expanded(
                        frame,
                        input.data(),
                        (out.data(), out.sizes(), &side),
                        |x, y| {
                            if x == y {
                                T::one()
                            } else {
                                T::zero()
                            }
                        },
                    )?;
                    let count = sum_axes(frame, &m, &hit);
                    let share: Vec<T> = g.iter().zip(&count).map(|(&g, &c)| g / c).collect();
                    let gx =
                        with_expanded(frame, &hit, (&share, out.sizes(), &side), |h, s| *h * *s)?;
                    acc.add(node, gx)
                })
            },
        )
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
        Reduce<S, A>: Storage<T>,
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
        Reduce<S, A>: Storage<T>,
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
        let (node, input) = (self.node(), self.shared());
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, R>>| {
                let out = Arc::clone(out);
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    let (m, frame) = (mask::<S, A>(), input.sizes());
                    let side = kept_side(&m);
                    let n = input.data().len() / out.data().len().max(1);
                    let k = T::from(n.saturating_sub(ddof)).map_or_else(T::nan, T::recip);
                    let mu: Vec<T> = sum_axes(frame, &m, input.data())
                        .into_iter()
                        .map(|s| s * T::from(n).map_or_else(T::nan, T::recip))
                        .collect();
                    let per: Vec<T> = g
                        .iter()
                        .zip(out.data())
                        .map(|(&g, &y)| if root { g * k / y } else { (g + g) * k })
                        .collect();
                    let centred =
                        with_expanded(frame, input.data(), (&mu, out.sizes(), &side), |x, m| {
                            *x - *m
                        })?;
                    let gx =
                        with_expanded(frame, &centred, (&per, out.sizes(), &side), |c, p| *c * *p)?;
                    acc.add(node, gx)
                })
            },
        )
    }

    /// `value`, a reduction over `A` whose gradient is the output's spread over `A`
    /// (times `scale`).
    fn spread<A, R: Storage<T>>(&self, value: Tensor<T, R>, scale: Option<T>) -> Var<T, R>
    where
        S: ReduceOver<A>,
    {
        let (node, sizes) = (self.node(), self.sizes().to_vec());
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, R>>| {
                let kept = out.sizes().to_vec();
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    let side = kept_side(&mask::<S, A>());
                    let mut gx = expand(&sizes, (&g, &kept, &side))?;
                    if let Some(k) = scale {
                        gx.iter_mut().for_each(|x| *x = *x * k);
                    }
                    acc.add(node, gx)
                })
            },
        )
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
        Reduce<S, A>: Storage<T>,
    {
        let value = self.value().logsumexp::<A>();
        let (node, input) = (self.node(), self.shared());
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, Reduce<S, A>>>| {
                let out = Arc::clone(out);
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    let side = kept_side(&mask::<S, A>());
                    let frame = input.sizes();
                    let lse = expand(frame, (out.data(), out.sizes(), &side))?;
                    let p = softmax_from(input.data(), &lse);
                    let gx = with_expanded(frame, &p, (&g, out.sizes(), &side), |p, g| *p * *g)?;
                    acc.add(node, gx)
                })
            },
        )
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
        let node = self.node();
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, S>>| {
                let y = Arc::clone(out);
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    // ∂x = y · (g − Σ_A g·y)
                    let m = mask::<S, A>();
                    let (frame, y) = (y.sizes(), y.data());
                    let gy: Vec<T> = g.iter().zip(y).map(|(&g, &y)| g * y).collect();
                    let s = sum_axes(frame, &m, &gy);
                    let kept: Vec<usize> = frame
                        .iter()
                        .zip(&m)
                        .filter(|&(_, &r)| !r)
                        .map(|(&n, _)| n)
                        .collect();
                    let gs = with_expanded(frame, &g, (&s, &kept, &kept_side(&m)), |g, s| *g - *s)?;
                    acc.add(node, gs.iter().zip(y).map(|(&d, &y)| d * y).collect())
                })
            },
        )
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
        let node = self.node();
        Var::derived(
            self.tape(),
            [node],
            value,
            move |out: &Arc<Tensor<T, S>>| {
                let y = Arc::clone(out);
                Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                    // ∂x = g − exp(y) · Σ_A g
                    let m = mask::<S, A>();
                    let frame = y.sizes();
                    let s = sum_axes(frame, &m, &g);
                    let kept: Vec<usize> = frame
                        .iter()
                        .zip(&m)
                        .filter(|&(_, &r)| !r)
                        .map(|(&n, _)| n)
                        .collect();
                    let spread = expand(frame, (&s, &kept, &kept_side(&m)))?;
                    let gx = g
                        .iter()
                        .zip(y.data())
                        .zip(spread)
                        .map(|((&g, &y), s)| g - y.exp_v() * s)
                        .collect();
                    acc.add(node, gx)
                })
            },
        )
    }
}
