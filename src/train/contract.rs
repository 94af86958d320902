//! Contractions of tracked values (rule book §17): `dot` over names and `matmul`. The
//! gradient of each operand is again a contraction, of the output's gradient with the other
//! operand over the other's own axes, written straight into the operand's axis order by the
//! same GEMM calls the forward product makes.

use crate::alloc_prelude::*;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::contract::StaticContraction;
use crate::engine::gemm::GemmPlan;
use crate::engine::gradient::contraction_backward;
use crate::engine::layout::{row_major, Strided};
use crate::tensor::{Contractible, Dot, DotWith, MatMulBy, Tensor};
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::shape::MAX_TYPED_RANK;

/// The working tables' length: as many loops as output and contracted axes together.
const LOOPS: usize = 2 * MAX_TYPED_RANK;

/// A row-major operand.
fn strided<'a, T>(sizes: &'a [usize], strides: &'a [usize], data: &'a [T]) -> Strided<'a, T> {
    Strided {
        sizes,
        strides,
        data,
    }
}

/// `a · b` by the constant plan `plan` (whose value `value` the forward product computed),
/// recorded with the backward of both operands.
fn contracted<T: Trainable, A: Storage<T>, B: Storage<T>, O: Storage<T>>(
    a: &Var<T, A>,
    b: &Var<T, B>,
    plan: StaticContraction,
    value: Tensor<T, O>,
) -> Var<T, O> {
    assert!(a.tape().same(b.tape()), "the operands are on two tapes");
    let (na, nb) = (a.node(), b.node());
    let (x, y) = (a.shared(), b.shared());
    Var::derived(a.tape(), [na, nb], value, move |out| {
        let sc = out.sizes().to_vec();
        Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
            let n = plan.plan.len;
            let sides = (&plan.plan.lhs[..n], &plan.plan.rhs[..n], plan.pairs());
            let (sa, sb) = (x.sizes(), y.sizes());
            let (ra, rb, rc) = (row_major(sa), row_major(sb), row_major(&sc));
            let (ga_, xa, yb) = (
                strided(&sc, &rc, &g),
                strided(sa, &ra, x.data()),
                strided(sb, &rb, y.data()),
            );
            if na.is_some() {
                let bw = contraction_backward(sides, (sa, sb, &sc), true);
                acc.add(na, product(sa, &bw, ga_, yb)?)?;
            }
            if nb.is_some() {
                let bw = contraction_backward(sides, (sa, sb, &sc), false);
                acc.add(nb, product(sb, &bw, xa, ga_)?)?;
            }
            Ok(())
        })
    })
}

/// One backward product into an output of `sizes`.
fn product<T: Trainable>(
    sizes: &[usize],
    bw: &crate::engine::gradient::Backward,
    first: Strided<'_, T>,
    second: Strided<'_, T>,
) -> Result<Vec<T>, Error> {
    let total = sizes.iter().product();
    let layout = GemmPlan {
        sizes,
        lhs: &bw.first,
        rhs: &bw.second,
        pairs: &bw.pairs,
    };
    layout.run::<LOOPS, T, T>(total, first, second)
}

/// The output shape of `Var<T, S>.dot::<X>(&Var<T, B>)`: the tensors' [`DotWith`] output.
pub type DotOf<T, S, B, X> = <Tensor<T, S> as DotWith<Tensor<T, B>, X>>::Output;

/// The output shape of `Var<T, S>.matmul(&Var<T, B>)`.
pub type MatMulOf<T, S, B> = <Tensor<T, S> as MatMulBy<Tensor<T, B>>>::Output;

/// What `L.dot::<X>(&Var<_, B>)` gives.
type Dotted<L, B, X> =
    Var<<L as VarDot<B>>::Elem, DotOf<<L as VarDot<B>>::Elem, <L as VarDot<B>>::Shape, B, X>>;

/// `dot::<X>` and `matmul` on tracked values: `use shapecast::train::VarDot` (the right
/// operand's type is the trait's parameter, so a call spells out only `X`, as
/// [`Dot`] does for tensors). The gradients are the two backward products.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape, VarDot};
/// names!(B, IN, OUT);
/// let w = Param::new("w", Tensor::<f64, shape![OUT: 1, IN: 2]>::from_array([[1.0, 2.0]]));
/// let tape = Tape::new();
/// let x = tape.constant(Tensor::<f64, shape![B: 2, IN: 2]>::from_array([[1.0, 0.0], [3.0, 4.0]]));
/// let y = x.dot::<IN>(&tape.watch(&w)); // [B: 2, OUT: 1]
/// let g = y.sum::<(B, OUT)>().backward()?.of(&w)?;
/// assert_eq!(g.data(), &[4.0, 4.0]); // Σ over the batch of x
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait VarDot<B> {
    /// The element type.
    type Elem: Trainable;
    /// The left operand's shape.
    type Shape: Storage<Self::Elem>;

    /// The contraction over the names `X` (as [`Dot::dot`]).
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit, as `Tensor`'s `dot`, or the operands are on two tapes.
    fn dot<X>(&self, rhs: &Var<Self::Elem, B>) -> Dotted<Self, B, X>
    where
        B: Storage<Self::Elem>,
        Tensor<Self::Elem, Self::Shape>: DotWith<Tensor<Self::Elem, B>, X>
            + Contractible<Elem = Self::Elem, Shape = Self::Shape>;

    /// NumPy's `matmul` by position (as [`Dot::matmul`]).
    ///
    /// # Panics
    ///
    /// As [`dot`](Self::dot).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape, VarDot};
    /// let w = Param::new("w", Tensor::<f64, shape![2, 1]>::from_array([[1.0], [2.0]]));
    /// let tape = Tape::new();
    /// let x = tape.constant(Tensor::<f64, shape![1, 2]>::from_array([[3.0, 4.0]]));
    /// let y = x.matmul(&tape.watch(&w)); // [1, 1]: 11
    /// assert_eq!(y.value().data(), &[11.0]);
    /// let g = y.sum::<(Pos<0>, Pos<1>)>().backward()?.of(&w)?;
    /// assert_eq!(g.data(), &[3.0, 4.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn matmul(
        &self,
        rhs: &Var<Self::Elem, B>,
    ) -> Var<Self::Elem, MatMulOf<Self::Elem, Self::Shape, B>>
    where
        B: Storage<Self::Elem>,
        Tensor<Self::Elem, Self::Shape>:
            MatMulBy<Tensor<Self::Elem, B>> + Contractible<Elem = Self::Elem, Shape = Self::Shape>;
}

impl<T: Trainable, S: Storage<T>, B> VarDot<B> for Var<T, S> {
    type Elem = T;
    type Shape = S;

    #[track_caller]
    fn dot<X>(&self, rhs: &Var<T, B>) -> Var<T, DotOf<T, S, B, X>>
    where
        B: Storage<T>,
        Tensor<T, S>: DotWith<Tensor<T, B>, X> + Contractible<Elem = T, Shape = S>,
    {
        let value = <Tensor<T, S> as Dot<Tensor<T, B>>>::dot::<X>(self.value(), rhs.value());
        contracted(
            self,
            rhs,
            <Tensor<T, S> as DotWith<Tensor<T, B>, X>>::PLAN,
            value,
        )
    }

    #[track_caller]
    fn matmul(&self, rhs: &Var<T, B>) -> Var<T, MatMulOf<T, S, B>>
    where
        B: Storage<T>,
        Tensor<T, S>: MatMulBy<Tensor<T, B>> + Contractible<Elem = T, Shape = S>,
    {
        let value = <Tensor<T, S> as Dot<Tensor<T, B>>>::matmul(self.value(), rhs.value());
        contracted(
            self,
            rhs,
            <Tensor<T, S> as MatMulBy<Tensor<T, B>>>::PLAN,
            value,
        )
    }
}
