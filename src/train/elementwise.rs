//! The operators on tracked values: `+ - * /` by the named rule between two [`Var`]s or a
//! `Var` and a [`Tensor`], with a scalar on either side, and unary `-`; the same four under
//! any rule of the rule book (`add_by::<R>` and its siblings). The backward of a
//! broadcast is a sum by name over exactly the axes the broadcast added (or stretched from
//! size 1), back in the operand's own axis order: the plan the types carry says which.

use crate::alloc_prelude::*;

use alloc::sync::Arc;
use core::ops;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::plan::StaticPlan;
use crate::engine::gradient::{sum_onto, sum_onto_owned, with_expanded};
use crate::tensor::Tensor;
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder};
use crate::typed::rule::RuleMarker;
use crate::typed::storage::Storage;
use crate::values::error::Error;

/// Which arithmetic operator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

/// One operand: its value (shared with the backward pass only when the partner's gradient
/// needs it) and its node, if tracked.
struct Operand<T, S: Storage<T>> {
    value: Arc<Tensor<T, S>>,
    node: Option<usize>,
}

impl<T: Trainable, S: Storage<T>> From<&Var<T, S>> for Operand<T, S> {
    fn from(v: &Var<T, S>) -> Self {
        Operand {
            value: v.shared(),
            node: v.node(),
        }
    }
}

impl<T: Trainable, S: Storage<T>> From<&Tensor<T, S>> for Operand<T, S> {
    fn from(t: &Tensor<T, S>) -> Self {
        Operand {
            value: Arc::new(t.clone()),
            node: None,
        }
    }
}

/// `a op b` by the named rule, recorded on `tape` when an operand is tracked.
fn zip<T: Trainable, A, B>(
    tape: &super::tape::Tape<T>,
    a: Operand<T, A>,
    b: Operand<T, B>,
    op: Arith,
) -> Var<T, Broadcast<A, B>>
where
    A: BroadcastWith<B> + Storage<T>,
    B: Storage<T>,
{
    let (x, y) = (&*a.value, &*b.value);
    let value = match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div => x / y,
    };
    planned(
        tape,
        (a, b),
        op,
        <A as BroadcastWith<B>>::STATIC_PLAN,
        value,
    )
}

/// `a op b` under the rule `R`, or the error of a `?` size that does not fit.
fn zip_by<T: Trainable, R: RuleMarker, A, B>(
    a: &Var<T, A>,
    b: &Var<T, B>,
    op: Arith,
) -> Result<Var<T, BroadcastBy<R, A, B>>, Error>
where
    A: BroadcastsUnder<R, B> + Storage<T>,
    B: Storage<T>,
{
    assert!(a.tape().same(b.tape()), "the operands are on two tapes");
    let f = match op {
        Arith::Add => |x: T, y: T| x + y,
        Arith::Sub => |x: T, y: T| x - y,
        Arith::Mul => |x: T, y: T| x * y,
        Arith::Div => |x: T, y: T| x / y,
    };
    let value = a.value().zip_with_rule::<R, _, _, _>(b.value(), f)?;
    let plan = <A as BroadcastsUnder<R, B>>::STATIC_PLAN;
    Ok(planned(a.tape(), (a.into(), b.into()), op, plan, value))
}

/// `value`, the result of `a op b` broadcast by `plan`, recorded with its backward.
fn planned<T: Trainable, A: Storage<T>, B: Storage<T>, O: Storage<T>>(
    tape: &super::tape::Tape<T>,
    (a, b): (Operand<T, A>, Operand<T, B>),
    op: Arith,
    plan: StaticPlan,
    value: Tensor<T, O>,
) -> Var<T, O> {
    let out = value.sizes().to_vec();
    Var::derived(tape, [a.node, b.node], value, move |_| {
        Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
            let (la, lb) = (&plan.lhs[..plan.len], &plan.rhs[..plan.len]);
            let (x, y) = (&*a.value, &*b.value);
            let (sa, sb) = (x.sizes(), y.sizes());
            // The right operand's first, so that the left's may take `g` itself.
            if b.node.is_some() {
                let gb = match op {
                    Arith::Add => sum_onto(&out, lb, sb, &g),
                    Arith::Sub => negated(sum_onto(&out, lb, sb, &g)),
                    Arith::Mul => sum_onto(
                        &out,
                        lb,
                        sb,
                        &with_expanded(&out, &g, (x.data(), sa, la), |g, x| *g * *x)?,
                    ),
                    Arith::Div => {
                        // ∂(x / y)/∂y = −x / y²
                        let gx = with_expanded(&out, &g, (x.data(), sa, la), |g, x| *g * *x)?;
                        let q =
                            with_expanded(&out, &gx, (y.data(), sb, lb), |t, y| -*t / (*y * *y))?;
                        sum_onto(&out, lb, sb, &q)
                    }
                };
                acc.add(b.node, gb)?;
            }
            if a.node.is_some() {
                let ga = match op {
                    Arith::Add | Arith::Sub => sum_onto_owned(&out, la, sa, g),
                    Arith::Mul => sum_onto(
                        &out,
                        la,
                        sa,
                        &with_expanded(&out, &g, (y.data(), sb, lb), |g, y| *g * *y)?,
                    ),
                    Arith::Div => sum_onto(
                        &out,
                        la,
                        sa,
                        &with_expanded(&out, &g, (y.data(), sb, lb), |g, y| *g / *y)?,
                    ),
                };
                acc.add(a.node, ga)?;
            }
            Ok(())
        })
    })
}

fn negated<T: Trainable>(mut v: Vec<T>) -> Vec<T> {
    v.iter_mut().for_each(|x| *x = -*x);
    v
}

/// `x op s` (or `s op x` when `scalar_left`) for a scalar `s`.
fn with_scalar<T: Trainable, S: Storage<T>>(
    x: &Var<T, S>,
    s: T,
    op: Arith,
    scalar_left: bool,
) -> Var<T, S> {
    let v = x.value();
    let value = match (op, scalar_left) {
        (Arith::Add, _) => v + s,
        (Arith::Mul, _) => v * s,
        (Arith::Sub, false) => v - s,
        (Arith::Div, false) => v / s,
        (Arith::Sub, true) => -&(v - s),
        (Arith::Div, true) => v.map_ref(|&e| s / e),
    };
    let (node, input) = (x.node(), x.shared());
    Var::derived(x.tape(), [node], value, move |_| {
        Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
            let mut g = g;
            match (op, scalar_left) {
                (Arith::Add, _) | (Arith::Sub, false) => {}
                (Arith::Sub, true) => g.iter_mut().for_each(|g| *g = -*g),
                (Arith::Mul, _) => g.iter_mut().for_each(|g| *g = *g * s),
                (Arith::Div, false) => g.iter_mut().for_each(|g| *g = *g / s),
                // ∂(s / x)/∂x = −s / x²
                (Arith::Div, true) => g
                    .iter_mut()
                    .zip(input.data())
                    .for_each(|(g, &x)| *g = -*g * s / (x * x)),
            }
            let gx = g;
            acc.add(node, gx)
        })
    })
}

/// One operator between tracked values, tensors and scalars, owned or borrowed.
macro_rules! operator {
    ($Op:ident, $op:ident, $kind:expr) => {
        impl<T: Trainable, A, B> ops::$Op<&Var<T, B>> for &Var<T, A>
        where
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<T>,
        {
            type Output = Var<T, Broadcast<A, B>>;
            /// By the named rule; the gradient reaches each tracked operand summed back to
            /// its shape.
            ///
            /// # Panics
            ///
            /// When a `?` size does not fit (the tensors' operators' convention), or the
            /// operands are on two tapes.
            #[track_caller]
            fn $op(self, rhs: &Var<T, B>) -> Self::Output {
                assert!(
                    self.tape().same(rhs.tape()),
                    "the operands are on two tapes"
                );
                zip(self.tape(), self.into(), rhs.into(), $kind)
            }
        }

        impl<T: Trainable, A, B> ops::$Op<Var<T, B>> for Var<T, A>
        where
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<T>,
        {
            type Output = Var<T, Broadcast<A, B>>;
            /// As `&a op &b`.
            #[track_caller]
            fn $op(self, rhs: Var<T, B>) -> Self::Output {
                ops::$Op::$op(&self, &rhs)
            }
        }

        impl<T: Trainable, A, B> ops::$Op<&Tensor<T, B>> for &Var<T, A>
        where
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<T>,
        {
            type Output = Var<T, Broadcast<A, B>>;
            /// With an untracked tensor, by the named rule.
            #[track_caller]
            fn $op(self, rhs: &Tensor<T, B>) -> Self::Output {
                zip(self.tape(), self.into(), rhs.into(), $kind)
            }
        }

        impl<T: Trainable, A, B> ops::$Op<&Var<T, B>> for &Tensor<T, A>
        where
            A: BroadcastWith<B> + Storage<T>,
            B: Storage<T>,
        {
            type Output = Var<T, Broadcast<A, B>>;
            /// An untracked tensor with a tracked value, by the named rule.
            #[track_caller]
            fn $op(self, rhs: &Var<T, B>) -> Self::Output {
                zip(rhs.tape(), self.into(), rhs.into(), $kind)
            }
        }

        impl<T: Trainable, S: Storage<T>> ops::$Op<T> for &Var<T, S> {
            type Output = Var<T, S>;
            /// Every element with the scalar.
            fn $op(self, rhs: T) -> Self::Output {
                with_scalar(self, rhs, $kind, false)
            }
        }

        impl<T: Trainable, S: Storage<T>> ops::$Op<T> for Var<T, S> {
            type Output = Var<T, S>;
            /// Every element with the scalar.
            fn $op(self, rhs: T) -> Self::Output {
                with_scalar(&self, rhs, $kind, false)
            }
        }

        impl<S: Storage<f32>> ops::$Op<&Var<f32, S>> for f32 {
            type Output = Var<f32, S>;
            /// The scalar with every element.
            fn $op(self, rhs: &Var<f32, S>) -> Self::Output {
                with_scalar(rhs, self, $kind, true)
            }
        }

        impl<S: Storage<f64>> ops::$Op<&Var<f64, S>> for f64 {
            type Output = Var<f64, S>;
            /// The scalar with every element.
            fn $op(self, rhs: &Var<f64, S>) -> Self::Output {
                with_scalar(rhs, self, $kind, true)
            }
        }
    };
}

operator!(Add, add, Arith::Add);
operator!(Sub, sub, Arith::Sub);
operator!(Mul, mul, Arith::Mul);
operator!(Div, div, Arith::Div);

impl<T: Trainable, S: Storage<T>> ops::Neg for &Var<T, S> {
    type Output = Var<T, S>;
    /// Every element negated.
    fn neg(self) -> Var<T, S> {
        with_scalar(self, T::zero(), Arith::Sub, true)
    }
}

impl<T: Trainable, S: Storage<T>> ops::Neg for Var<T, S> {
    type Output = Var<T, S>;
    /// Every element negated.
    fn neg(self) -> Var<T, S> {
        -&self
    }
}

/// One operator under a rule, a method of tracked values: its doc, its name and its kind.
macro_rules! by_rule {
    ($(#[$doc:meta])* $name:ident, $kind:expr) => {
        $(#[$doc])*
        pub fn $name<R: RuleMarker, B>(
            &self,
            rhs: &Var<T, B>,
        ) -> Result<Var<T, BroadcastBy<R, A, B>>, Error>
        where
            A: BroadcastsUnder<R, B>,
            B: Storage<T>,
        {
            zip_by::<T, R, A, B>(self, rhs, $kind)
        }
    };
}

impl<T: Trainable, A: Storage<T>> Var<T, A> {
    by_rule!(
        /// `self + rhs` under the rule `R` (a marker of [`rule`](crate::rule), as
        /// `Tensor::zip_with_rule`), or the error of a `?` size that does not fit. The gradient
        /// reaches each operand summed back over the axes the rule broadcast.
        ///
        /// ```
        /// use shapecast::prelude::*;
        /// use shapecast::rule::Numpy;
        /// use shapecast::train::{Param, Tape};
        /// let b = Param::new("b", Tensor::<f64, shape![3]>::from_array([1.0, 2.0, 3.0]));
        /// let tape = Tape::new();
        /// let x = tape.constant(Tensor::<f64, shape![2, 3]>::zeros()?);
        /// let y = x.add_by::<Numpy, _>(&tape.watch(&b))?; // NumPy's trailing alignment: [2, 3]
        /// let g = y.sum::<(Pos<0>, Pos<1>)>().backward()?.of(&b)?;
        /// assert_eq!(g.data(), &[2.0, 2.0, 2.0]);
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        add_by,
        Arith::Add
    );

    by_rule!(
        /// `self - rhs` under the rule `R` (see [`add_by`](Self::add_by)).
        ///
        /// ```
        /// use shapecast::prelude::*;
        /// use shapecast::rule::Numpy;
        /// use shapecast::train::{Param, Tape};
        /// let b = Param::new("b", Tensor::<f64, shape![1]>::from_array([1.0]));
        /// let tape = Tape::new();
        /// let x = tape.constant(Tensor::<f64, shape![4]>::zeros()?);
        /// let g = x.sub_by::<Numpy, _>(&tape.watch(&b))?.sum::<Pos<0>>().backward()?.of(&b)?;
        /// assert_eq!(g.data(), &[-4.0]);
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        sub_by,
        Arith::Sub
    );

    by_rule!(
        /// `self * rhs` under the rule `R` (see [`add_by`](Self::add_by)).
        ///
        /// ```
        /// use shapecast::prelude::*;
        /// use shapecast::rule::Numpy;
        /// use shapecast::train::{Param, Tape};
        /// let w = Param::new("w", Tensor::<f64, shape![2]>::from_array([1.0, 2.0]));
        /// let tape = Tape::new();
        /// let x = tape.constant(Tensor::<f64, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]));
        /// let g = x.mul_by::<Numpy, _>(&tape.watch(&w))?.sum::<(Pos<0>, Pos<1>)>().backward()?.of(&w)?;
        /// assert_eq!(g.data(), &[4.0, 6.0]);
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        mul_by,
        Arith::Mul
    );

    by_rule!(
        /// `self / rhs` under the rule `R` (see [`add_by`](Self::add_by)).
        ///
        /// ```
        /// use shapecast::prelude::*;
        /// use shapecast::rule::Numpy;
        /// use shapecast::train::{Param, Tape};
        /// let d = Param::new("d", Tensor::<f64, shape![1]>::from_array([2.0]));
        /// let tape = Tape::new();
        /// let x = tape.constant(Tensor::<f64, shape![2]>::from_array([2.0, 6.0]));
        /// let g = x.div_by::<Numpy, _>(&tape.watch(&d))?.sum::<Pos<0>>().backward()?.of(&d)?;
        /// assert_eq!(g.data(), &[-2.0]); // −(2 + 6) / 2²
        /// # Ok::<(), shapecast::Error>(())
        /// ```
        div_by,
        Arith::Div
    );
}
