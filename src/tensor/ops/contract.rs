//! Contractions on data (rule book §17): `dot` over named axes and `matmul`, on tensors, views
//! and `DynTensor`, each mapped onto GEMM calls. Of the output axes, those fed by the left
//! only are `M` candidates, by the right only `N`, by both the batch; the contracted pairs
//! are `K`. One `M`, one `N` and one `K` axis go to each GEMM call (extended over neighbours
//! that are contiguous in both operands, so `[16, 256, 256] @ [256, 256]` is a single
//! 4096×256×256 call); every other axis is a loop around the calls, each operand advancing
//! by its own stride (0 where it is broadcast, so nothing is copied). That mapping is
//! `engine::gemm`; this module is the API and the plans.
//!
//! ```
//! use shapecast::{names, shape, Dot, Tensor};
//! names!(I, J, K);
//! let a = Tensor::<f32, shape![I: 2, J: 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
//! let b = Tensor::<f32, shape![J: 3, K: 1]>::from_array([[1.0], [0.0], [1.0]]);
//! let c: Tensor<f32, shape![I: 2, K: 1]> = a.dot::<J>(&b);
//! assert_eq!(c.data(), &[4.0, 10.0]);
//! ```

use crate::alloc_prelude::*;

use crate::dynamic::contract::{contract, matmul, Contracted, StaticContraction};
use crate::engine::gemm::GemmPlan;
use crate::engine::layout::Strided;
use crate::engine::raw::{DotElement, DotOperand};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::Contractible;
use crate::tensor::tensor::Tensor;
use crate::typed::contract::{Contract, ContractWith, MatMul, MatMulWith};
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::{MAX_RANK, MAX_TYPED_RANK};

/// `a` contracted with `b` by the run-time plan `c`: the output's sizes and its data,
/// row-major.
pub(crate) fn run<T: DotElement, U: DotOperand<T>>(
    c: &Contracted,
    a: Strided<'_, T>,
    b: Strided<'_, U>,
) -> Result<(Vec<usize>, Vec<T>), Error> {
    let sizes = c.resolve(a.sizes, b.sizes)?;
    let layout = GemmPlan {
        sizes: &sizes,
        lhs: &c.plan.lhs,
        rhs: &c.plan.rhs,
        pairs: &c.contracted,
    };
    let shape = || c.shape.resolve(&sizes).unwrap_or_else(|_| c.shape.clone());
    let total = crate::engine::allocation::ensure::<T>(&sizes, shape)?;
    // The tables are as long as the ranks need: less to fill for the common ranks (the loops
    // are at most the output's axes and the contracted pairs together).
    let out = if sizes.len() + c.contracted.len() <= TYPED_LOOPS {
        layout.run::<TYPED_LOOPS, T, U>(total, a, b)?
    } else {
        layout.run::<MAX_RANK, T, U>(total, a, b)?
    };
    Ok((sizes, out))
}

/// `use shapecast::prelude::*` (or `use shapecast::Dot`) to call `a.dot::<X>(&b)` and
/// `a.matmul(&b)`.
///
/// `dot::<X>(&rhs)`: contraction over the names `X` with a right operand whose type is the
/// trait's parameter, so a call spells out only `X` (rule book §17). Implemented for tensors
/// and views, with tensors or views on the right; bring it into scope with `use
/// shapecast::Dot` (or `use shapecast::*`).
///
/// ```
/// use shapecast::{names, shape, Dot, Tensor};
/// names!(BATCH, SEQ, KSEQ, DK);
/// let q = Tensor::<f32, shape![BATCH, SEQ, DK: 2]>::from_vec_sized(&[1, 2, 2], vec![1.0, 0.0, 0.0, 1.0])?;
/// let k = Tensor::<f32, shape![BATCH, KSEQ, DK: 2]>::from_vec_sized(&[1, 3, 2], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])?;
/// let scores: Tensor<f32, shape![BATCH, SEQ, KSEQ]> = q.dot::<DK>(&k);
/// assert_eq!(scores.data(), &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
///
/// # Weights as files store them
///
/// The contraction is by name, so a weight's memory order never changes a result, only its
/// speed. `nn.Linear`'s `[OUT, IN]` (contracted over its last axis) multiplies many
/// positions at once more slowly than the same weight laid out `[IN, OUT]`, while one
/// position at a time (generation) runs faster with `[OUT, IN]` (`docs/performance.md`,
/// contractions, has the figures). To
/// prepare a weight for repeated products of many positions, reorder it once, at load:
///
/// ```
/// use shapecast::{names, shape, Dot, Tensor};
/// names!(T, IN, OUT);
/// let w = Tensor::<f32, shape![OUT: 3, IN: 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])?;
/// let prepared = w.view().align_to::<shape![IN: 2, OUT: 3]>()?.to_tensor();
/// let x = Tensor::<f32, shape![T, IN: 2]>::from_vec_sized(&[1, 2], vec![1.0, 1.0])?;
/// // The same names, the same product: [T, OUT] either way.
/// assert_eq!(x.dot::<IN>(&w).data(), &[3.0, 7.0, 11.0]);
/// assert_eq!(x.dot::<IN>(&prepared).data(), x.dot::<IN>(&w).data());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Dot<Rhs>: Contractible {
    /// The contraction over the names `X`: for each output element, the sum over `X` of the
    /// product of the operands (0 over an empty axis). The result's shape is
    /// [`Contract<A, B, X>`](crate::Contract).
    ///
    /// # Panics
    ///
    /// When a contracted or paired `?` size does not fit (the operators' convention);
    /// [`try_dot`](Self::try_dot) returns the error instead.
    #[track_caller]
    fn dot<X>(&self, rhs: &Rhs) -> Tensor<Self::Elem, DotShape<Self, Rhs, X>>
    where
        Self: DotWith<Rhs, X>,
    {
        self.try_dot::<X>(rhs).or_panic()
    }

    /// [`dot`](Self::dot), or the error when a `?` size does not fit.
    fn try_dot<X>(&self, rhs: &Rhs) -> Dotted<Self, Rhs, X>
    where
        Self: DotWith<Rhs, X>;

    /// NumPy's `matmul` by position (rule book §17): `[..., M, K]` with `[..., K, N]` gives
    /// `[..., M, N]`, the batch axes broadcast by the named rule without copying. Either
    /// operand may be a view (a transposed or broadcast operand is not copied). The result's
    /// shape is [`MatMul<A, B>`](crate::MatMul).
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit (the operators' convention);
    /// [`try_matmul`](Self::try_matmul) returns the error instead.
    ///
    /// ```
    /// use shapecast::{names, shape, Dot, Tensor};
    /// names!(I, J, K);
    /// let a = Tensor::<f64, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let b = Tensor::<f64, shape![2]>::from_array([1.0, 1.0]);
    /// let c: Tensor<f64, shape![2]> = a.matmul(&b);
    /// assert_eq!(c.data(), &[3.0, 7.0]);
    ///
    /// // A view on the left: the transpose of `m`, not copied.
    /// let m = Tensor::<f64, shape![I: 2, J: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let t = m.align_to::<shape![J: 2, I: 2]>()?;
    /// let n = Tensor::<f64, shape![I: 2, K: 2]>::from_array([[1.0, 1.0], [0.0, 1.0]]);
    /// let c: Tensor<f64, shape![J: 2, K: 2]> = t.matmul(&n);
    /// assert_eq!(c.data(), &[1.0, 4.0, 2.0, 6.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    fn matmul(&self, rhs: &Rhs) -> Tensor<Self::Elem, MatMulShape<Self, Rhs>>
    where
        Self: MatMulBy<Rhs>,
    {
        self.try_matmul(rhs).or_panic()
    }

    /// [`matmul`](Self::matmul), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Dot, Tensor};
    /// let a = Tensor::<f32, shape![2, ?]>::from_vec_sized(&[2, 3], vec![0.0; 6])?;
    /// let b = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]);
    /// assert!(a.try_matmul(&b).is_err()); // K: 3 against 2
    /// let v = Tensor::<f32, shape![?]>::from_vec_sized(&[2], vec![1.0, 2.0])?;
    /// assert_eq!(v.view().try_matmul(&v)?.data(), &[5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_matmul(&self, rhs: &Rhs) -> MatMulled<Self, Rhs>
    where
        Self: MatMulBy<Rhs>;
}

/// The shape of `L.matmul(&R)`.
type MatMulShape<L, R> = <L as MatMulBy<R>>::Output;

/// What `L.try_matmul(&R)` gives.
type MatMulled<L, R> = Result<Tensor<<L as Contractible>::Elem, MatMulShape<L, R>>, Error>;

/// `Self` multiplies `Rhs` by position: [`MatMulWith`] on the operands' shapes, with an
/// output that can hold the elements. The bound generic code writes for [`Dot::matmul`].
///
/// ```
/// use shapecast::{shape, Dot, MatMulBy, Shape, Tensor};
/// fn out_rank<A: MatMulBy<B>, B>(a: &A, b: &B) -> usize {
///     let _ = a.matmul(b);
///     <A::Output as Shape>::RANK
/// }
/// let a = Tensor::<f32, shape![3, 4]>::from_vec(vec![0.0; 12])?;
/// let b = Tensor::<f32, shape![4, 5]>::from_vec(vec![0.0; 20])?;
/// assert_eq!(out_rank(&a, &b), 2);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Self}` by `{Rhs}` as matrices",
    label = "the operands' last two axes must be `[M, K]` and `[K, N]`, their batch axes broadcasting"
)]
pub trait MatMulBy<Rhs>: Dot<Rhs> {
    /// The shape of the result: [`MatMul<Self::Shape, Rhs::Shape>`](crate::MatMul).
    type Output: Storage<Self::Elem>;
    #[doc(hidden)]
    const PLAN: StaticContraction;
}

impl<L: Contractible, R: Contractible> MatMulBy<R> for L
where
    L::Elem: DotElement,
    R::Elem: DotOperand<L::Elem>,
    L::Shape: MatMulWith<R::Shape>,
    MatMul<L::Shape, R::Shape>: Storage<L::Elem>,
{
    type Output = MatMul<L::Shape, R::Shape>;
    const PLAN: StaticContraction = <L::Shape as MatMulWith<R::Shape>>::PLAN;
}

/// The shape of `L.dot::<X>(&R)`.
type DotShape<L, R, X> = <L as DotWith<R, X>>::Output;

/// What `L.try_dot::<X>(&R)` gives.
type Dotted<L, R, X> = Result<Tensor<<L as Contractible>::Elem, DotShape<L, R, X>>, Error>;

/// `Self` contracts with `Rhs` over `X`: [`ContractWith`] on the operands' shapes, with an
/// output that can hold the elements. The bound generic code writes for [`Dot::dot`].
#[diagnostic::on_unimplemented(
    message = "cannot contract `{Self}` with `{Rhs}` over `{X}`",
    label = "`{X}` must name axes of both operands, with equal sizes"
)]
pub trait DotWith<Rhs, X>: Contractible {
    /// The shape of the result: [`Contract<Self::Shape, Rhs::Shape, X>`](crate::Contract).
    type Output: Storage<Self::Elem>;
    #[doc(hidden)]
    fn names() -> Vec<AxisSelector>;
    #[doc(hidden)]
    const PLAN: StaticContraction;
}

impl<L: Contractible, R: Contractible, X: Selector> DotWith<R, X> for L
where
    R::Elem: DotOperand<L::Elem>,
    R::Shape: ContractedWith<L::Shape, X>,
    <R::Shape as ContractedWith<L::Shape, X>>::Output: Storage<L::Elem>,
{
    type Output = <R::Shape as ContractedWith<L::Shape, X>>::Output;
    fn names() -> Vec<AxisSelector> {
        X::selectors()
    }
    const PLAN: StaticContraction =
        StaticContraction::contract(L::Shape::NAMES, R::Shape::NAMES, &X::STATIC);
}

/// [`ContractWith`] asked of the right operand's shape: `Self` is the right, `A` the left.
/// A bound whose `Self` is the right operand waits until the argument's type is known, so a
/// refusal is reported once, naming both shapes (asked of the left, rustc reported a refusal
/// that the left alone decides twice, the first time with the right printed as `_`).
#[doc(hidden)]
pub trait ContractedWith<A, X> {
    /// [`Contract<A, Self, X>`](crate::Contract).
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl<B: Shape, A: ContractWith<B, X>, X> ContractedWith<A, X> for B {
    type Output = Contract<A, B, X>;
}

/// Runs a typed contraction on the plan its types carry: the run-time checks on the sizes
/// alone, the working tables on the stack, one allocation (the output's). When a `?` size
/// does not fit, the run-time engine (`engine`) words the refusal.
fn typed<T: DotElement, U: DotOperand<T>, O: Storage<T>>(
    plan: &StaticContraction,
    engine: impl Fn() -> Result<Contracted, Error>,
    a: &impl Contractible<Elem = T>,
    b: &impl Contractible<Elem = U>,
) -> Result<Tensor<T, O>, Error> {
    let (mut own_a, mut own_b) = ([0usize; MAX_TYPED_RANK], [0usize; MAX_TYPED_RANK]);
    let (a, b) = (a.layout(&mut own_a), b.layout(&mut own_b));
    let mut sizes = [0usize; MAX_TYPED_RANK];
    let len = plan.plan.len;
    let fits = plan.resolve(a.sizes, b.sizes, &mut sizes);
    let layout = GemmPlan {
        sizes: &sizes[..len],
        lhs: &plan.plan.lhs[..len],
        rhs: &plan.plan.rhs[..len],
        pairs: plan.pairs(),
    };
    if !fits {
        // A `?` size does not fit: the engine words the refusal.
        let (sizes, data) = run(&engine()?, a, b)?;
        return Ok(Tensor::from_parts(&sizes, data));
    }
    // An output that cannot exist (two small operands can multiply to more than memory) is
    // an error before anything is allocated.
    let total = crate::engine::allocation::ensure::<T>(layout.sizes, || {
        crate::values::shape::DynShape::from_sizes(layout.sizes).unwrap_or_default()
    })?;
    let data = layout.run::<TYPED_LOOPS, T, U>(total, a, b)?;
    Ok(Tensor::from_parts(layout.sizes, data))
}

/// The typed kernel's table length: an output of at most [`MAX_TYPED_RANK`] axes, and as many
/// loops as output and contracted axes together.
const TYPED_LOOPS: usize = 2 * MAX_TYPED_RANK;

impl<L: Contractible, R: Contractible> Dot<R> for L
where
    L::Elem: DotElement,
    R::Elem: DotOperand<L::Elem>,
{
    fn try_dot<X>(&self, rhs: &R) -> Dotted<Self, R, X>
    where
        Self: DotWith<R, X>,
    {
        let engine = || {
            contract(
                &L::Shape::to_dyn(),
                &R::Shape::to_dyn(),
                &<Self as DotWith<R, X>>::names(),
            )
        };
        typed(&<Self as DotWith<R, X>>::PLAN, engine, self, rhs)
    }

    fn try_matmul(&self, rhs: &R) -> MatMulled<Self, R>
    where
        Self: MatMulBy<R>,
    {
        let engine = || matmul(&L::Shape::to_dyn(), &R::Shape::to_dyn());
        typed(&<Self as MatMulBy<R>>::PLAN, engine, self, rhs)
    }
}

impl<T: DotElement> DynTensor<T> {
    /// Contraction over run-time names (rule book §17), or the refusal. The right operand
    /// holds this tensor's elements, or `bf16`/`f16` under `f32` ([`DotOperand`]).
    ///
    /// ```
    /// use shapecast::{bf16, DynTensor};
    /// let a = DynTensor::from_vec("[I: 2, J: 2]".parse()?, vec![1.0f32, 2.0, 3.0, 4.0])?;
    /// let b = DynTensor::from_vec("[J: 2]".parse()?, vec![1.0f32, 1.0])?;
    /// assert_eq!(a.dot(&b, &["J".parse()?])?.data(), &[3.0, 7.0]);
    /// assert!(a.dot(&b, &["I".parse()?]).is_err());
    /// // Half-precision weights, accumulated in f32.
    /// assert_eq!(a.dot(&b.cast::<bf16>(), &["J".parse()?])?.data(), &[3.0, 7.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn dot<U: DotOperand<T>>(
        &self,
        rhs: &DynTensor<U>,
        names: &[AxisSelector],
    ) -> Result<DynTensor<T>, Error> {
        let plan = contract(self.shape(), rhs.shape(), names)?;
        self.run_plan(&plan, rhs)
    }

    /// NumPy's `matmul` by position, or the refusal.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[2, 2]".parse()?, vec![1i32, 2, 3, 4])?;
    /// assert_eq!(a.matmul(&a)?.data(), &[7, 10, 15, 22]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn matmul<U: DotOperand<T>>(&self, rhs: &DynTensor<U>) -> Result<DynTensor<T>, Error> {
        let plan = matmul(self.shape(), rhs.shape())?;
        self.run_plan(&plan, rhs)
    }

    fn run_plan<U: DotOperand<T>>(
        &self,
        plan: &Contracted,
        rhs: &DynTensor<U>,
    ) -> Result<DynTensor<T>, Error> {
        let (mut own_a, mut own_b) = Default::default();
        let (sizes, data) = run(plan, self.layout(&mut own_a), rhs.layout(&mut own_b))?;
        let shape = plan.shape.resolve(&sizes)?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use super::*;
    use crate::values::shape::DynShape;

    /// `[b, s, h, d] · [b, k, h, d]` over `d` on a pool of `threads`.
    fn scores<T: DotElement>(
        threads: usize,
        sizes: [usize; 4],
        kseq: usize,
        f: fn(usize) -> T,
    ) -> Vec<T> {
        let [b, s, h, d] = sizes;
        let q: Vec<T> = (0..b * s * h * d).map(f).collect();
        let k: Vec<T> = (0..b * kseq * h * d).map(|i| f(i * 7 + 3)).collect();
        let shape = |s: String| s.parse::<DynShape>().unwrap();
        let q = DynTensor::from_vec(shape(format!("[B: {b}, S: {s}, H: {h}, D: {d}]")), q).unwrap();
        let k = DynTensor::from_vec(shape(format!("[B: {b}, K: {kseq}, H: {h}, D: {d}]")), k);
        let k = k.unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let plan = contract(q.shape(), k.shape(), &["D".parse().unwrap()]).unwrap();
        pool.install(|| q.run_plan(&plan, &k))
            .unwrap()
            .data()
            .to_vec()
    }

    /// Products side by side over the outermost output axis (one task per batch, each product
    /// on one thread) compute what one thread computes, bit for bit; a batch count that does
    /// not divide over the threads, and an outermost axis of size 1, take the GEMM's own split.
    #[test]
    fn batched_products_on_several_threads_are_the_one_thread_products() {
        let real = |i: usize| ((i * 37) % 101) as f32 / 50.0 - 1.0;
        for (sizes, kseq) in [
            ([4, 64, 8, 64], 64),
            ([3, 128, 2, 64], 96),
            ([1, 256, 4, 64], 256),
        ] {
            let one = scores(1, sizes, kseq, real);
            for threads in [2, 3] {
                assert_eq!(
                    scores(threads, sizes, kseq, real),
                    one,
                    "{sizes:?} on {threads}"
                );
            }
        }
        let double = |i: usize| ((i * 37) % 101) as f64 / 50.0 - 1.0;
        assert_eq!(
            scores(2, [4, 64, 8, 64], 64, double),
            scores(1, [4, 64, 8, 64], 64, double)
        );
        let int = |i: usize| (i % 13) as i64 - 6;
        assert_eq!(
            scores(2, [4, 64, 8, 64], 64, int),
            scores(1, [4, 64, 8, 64], 64, int)
        );
    }
}
