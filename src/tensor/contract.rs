//! Contractions on data (rule book §17): `dot` over named axes and `matmul`, on tensors, views
//! and `DynTensor`, each mapped onto GEMM calls. Of the output axes, those fed by the left
//! only are `M` candidates, by the right only `N`, by both the batch; the contracted pairs
//! are `K`. One `M`, one `N` and one `K` axis go to each GEMM call (extended over neighbours
//! that are contiguous in both operands, so `[16, 256, 256] @ [256, 256]` is a single
//! 4096×256×256 call); every other axis is a loop around the calls, each operand advancing
//! by its own stride (0 where it is broadcast, so nothing is copied).
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

use super::dyn_tensor::DynTensor;
use super::kernel::{row_major_into, strides_or_row_major};
use super::raw::{DotElement, Mat};
use super::strided::step;
use super::typed::Tensor;
use super::view::TensorView;
use crate::dynamic::contract::{contract, matmul, Contracted, StaticContraction};
use crate::dynamic::reduce::AxisSelector;
use crate::dynamic::shape::{MAX_RANK, MAX_TYPED_RANK};
use crate::error::{Error, OrPanic};
use crate::typed::contract::{Contract, ContractWith, MatMul, MatMulWith};
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;

/// An operand: sizes, strides and data.
pub(crate) struct Side<'a, T> {
    pub(crate) sizes: &'a [usize],
    pub(crate) strides: &'a [usize],
    pub(crate) data: &'a [T],
}

/// One axis of the iteration: its size and each operand's stride along it (left, right,
/// output).
#[derive(Clone, Copy, Debug)]
struct Axis3 {
    size: usize,
    a: usize,
    b: usize,
    c: usize,
}

/// `a` contracted with `b` by the run-time plan `c`: the output's sizes and its data,
/// row-major.
pub(crate) fn run<T: DotElement>(
    c: &Contracted,
    a: Side<'_, T>,
    b: Side<'_, T>,
) -> Result<(Vec<usize>, Vec<T>), Error> {
    let sizes = c.resolve(a.sizes, b.sizes)?;
    let layout = Layout {
        sizes: &sizes,
        lhs: &c.plan.lhs,
        rhs: &c.plan.rhs,
        pairs: &c.contracted,
    };
    let shape = || c.shape.resolve(&sizes).unwrap_or_else(|_| c.shape.clone());
    let total = super::room::ensure::<T>(&sizes, shape)?;
    // The tables are as long as the ranks need: less to fill for the common ranks (the loops
    // are at most the output's axes and the contracted pairs together).
    let out = if sizes.len() + c.contracted.len() <= TYPED_LOOPS {
        layout.run::<TYPED_LOOPS, T>(total, a, b)?
    } else {
        layout.run::<MAX_RANK, T>(total, a, b)?
    };
    Ok((sizes, out))
}

/// What the kernel of a contraction runs on: the output's sizes, the source axis of each
/// operand for each output axis, and the contracted pairs.
struct Layout<'p> {
    sizes: &'p [usize],
    lhs: &'p [Option<usize>],
    rhs: &'p [Option<usize>],
    pairs: &'p [(usize, usize)],
}

/// No axis: a GEMM dimension of 1.
const UNIT: Axis3 = Axis3 {
    size: 1,
    a: 0,
    b: 0,
    c: 0,
};

impl Layout<'_> {
    /// The output, row-major, for `total` elements: one GEMM call per block, the working
    /// tables on the stack (at most `N` output axes and `N` loops).
    fn run<const N: usize, T: DotElement>(
        &self,
        total: usize,
        a: Side<'_, T>,
        b: Side<'_, T>,
    ) -> Result<Vec<T>, Error> {
        let mut out = vec![T::zero(); total];
        // A large output is usually fresh zeroed memory the GEMM touches first: huge pages
        // fault it in 2 MiB at a time.
        super::raw::advise_huge_pages(&out);
        if total == 0 || self.pairs.iter().any(|&(i, _)| a.sizes[i] == 0) {
            return Ok(out);
        }
        let rank = self.sizes.len();
        if rank > N || self.pairs.len() > N {
            return Err(Error::RankTooLarge {
                rank: rank.max(self.pairs.len()),
                max: N,
            });
        }
        let mut own = [0usize; N];
        row_major_into(self.sizes, &mut own);
        // A stride that an axis of size 1 facing a larger one must not advance.
        let stride = |side: &Side<'_, T>, src: Option<usize>, n: usize| match src {
            Some(i) if side.sizes[i] == n => side.strides[i],
            _ => 0,
        };
        // Each output axis, and which operands feed it.
        let mut outputs = [(UNIT, false, false); N];
        for k in 0..rank {
            let (l, r, n) = (self.lhs[k], self.rhs[k], self.sizes[k]);
            let axis = Axis3 {
                size: n,
                a: stride(&a, l, n),
                b: stride(&b, r, n),
                c: own[k],
            };
            outputs[k] = (axis, l.is_some(), r.is_some());
        }
        let outputs = &outputs[..rank];
        let mut ks = [UNIT; N];
        for (p, &(i, j)) in self.pairs.iter().enumerate() {
            ks[p] = Axis3 {
                size: a.sizes[i],
                a: a.strides[i],
                b: b.strides[j],
                c: 0,
            };
        }
        let ks = merge_contracted(&mut ks[..self.pairs.len()]);
        // The GEMM axes: the last output axis fed by the left only (M), by the right only (N),
        // and the largest contracted axis (K), each merged with contiguous neighbours.
        let last_of = |role: (bool, bool)| {
            (0..rank)
                .rev()
                .find(|&k| (outputs[k].1, outputs[k].2) == role && outputs[k].0.size > 1)
        };
        let m_at = last_of((true, false));
        let n_at = last_of((false, true));
        let k_at = (0..ks.len()).max_by_key(|&p| ks[p].size);
        let mut used = [false; N];
        let mut grow = |at: Option<usize>, side_of: fn(&Axis3) -> usize| -> Axis3 {
            let Some(mut k) = at else { return UNIT };
            used[k] = true;
            let (mut ax, role) = (outputs[k].0, (outputs[k].1, outputs[k].2));
            // Merge the preceding output axis while it has the same role and continues this
            // one in the operand and in the output.
            while k > 0 {
                let (prev, l, r) = outputs[k - 1];
                if (l, r) != role
                    || side_of(&prev) != side_of(&ax) * ax.size
                    || prev.c != ax.c * ax.size
                {
                    break;
                }
                ax = Axis3 {
                    size: prev.size * ax.size,
                    ..ax
                };
                k -= 1;
                used[k] = true;
            }
            ax
        };
        let m = grow(m_at, |x| x.a);
        let n = grow(n_at, |x| x.b);
        let k = k_at.map_or(UNIT, |p| ks[p]);
        // Every other axis of size above 1 is a loop around the calls.
        let others = (0..rank)
            .filter(|&q| !used[q])
            .map(|q| outputs[q].0)
            .chain((0..ks.len()).filter(|&p| Some(p) != k_at).map(|p| ks[p]))
            .filter(|x| x.size != 1);
        let (mut ls, mut la, mut lb, mut lc) = ([0usize; N], [0usize; N], [0usize; N], [0usize; N]);
        let mut loops = 0;
        for x in others {
            if loops == N {
                return Err(Error::RankTooLarge {
                    rank: loops + 1,
                    max: N,
                });
            }
            (ls[loops], la[loops], lb[loops], lc[loops]) = (x.size, x.a, x.b, x.c);
            loops += 1;
        }
        let loops = Loops {
            sizes: &ls[..loops],
            a: &la[..loops],
            b: &lb[..loops],
            c: &lc[..loops],
        };
        // Each output block is written once unless another contracted axis is looped over.
        let accumulate = ks.len() > 1;
        let gemm = Gemm {
            m,
            n,
            k,
            accumulate,
        };
        #[cfg(feature = "rayon")]
        if let Some(per) = loops.batches(total, m.size * n.size * k.size) {
            // The outermost loop is the output's outermost axis above 1: its iterations write
            // disjoint runs of `per` elements, one task each, each product on its task's
            // thread.
            use rayon::prelude::*;
            let inner = loops.without_first();
            out.par_chunks_mut(per).enumerate().for_each(|(i, chunk)| {
                let at = [i * loops.a[0], i * loops.b[0], 0];
                gemm.each(&inner, (a.data, b.data, chunk), at, false);
            });
            return Ok(out);
        }
        gemm.each(&loops, (a.data, b.data, &mut out), [0; 3], true);
        Ok(out)
    }
}

/// The contracted axes with every pair that continues one another in both operands merged
/// into one (`(HEADS, DK)` over `[.., HEADS, DK]` and `[HEADS, DK, ..]` is one `K` of
/// `HEADS·DK`): one product instead of a loop of accumulating ones. Returns the merged prefix.
fn merge_contracted(ks: &mut [Axis3]) -> &[Axis3] {
    let mut len = ks.len();
    let mut p = 0;
    while p < len {
        // An axis `q` whose whole extent is one step of `p` in both operands sits inside it.
        let inner = (0..len).find(|&q| {
            q != p
                && ks[q].a.checked_mul(ks[q].size) == Some(ks[p].a)
                && ks[q].b.checked_mul(ks[q].size) == Some(ks[p].b)
        });
        match inner {
            Some(q) => {
                ks[p] = Axis3 {
                    size: ks[p].size * ks[q].size,
                    ..ks[q]
                };
                ks.copy_within(q + 1..len, q);
                len -= 1;
                // Start over: the merged axis may continue or contain another.
                p = 0;
            }
            None => p += 1,
        }
    }
    &ks[..len]
}

/// The axes looped around the GEMM calls: sizes, and strides in each operand and the output.
struct Loops<'s> {
    sizes: &'s [usize],
    a: &'s [usize],
    b: &'s [usize],
    c: &'s [usize],
}

impl<'s> Loops<'s> {
    /// The loops inside the outermost one.
    #[cfg(feature = "rayon")]
    fn without_first(&self) -> Loops<'s> {
        Loops {
            sizes: &self.sizes[1..],
            a: &self.a[1..],
            b: &self.b[1..],
            c: &self.c[1..],
        }
    }

    /// With more than one thread, the output elements each iteration of the outermost loop
    /// writes when that loop can run in parallel: it walks the output's outermost axis above
    /// size 1 (its iterations own disjoint, contiguous runs of the output), it divides evenly
    /// over the threads (or has many iterations), and the products are large enough
    /// (`per_product` multiply-adds each).
    #[cfg(feature = "rayon")]
    fn batches(&self, total: usize, per_product: usize) -> Option<usize> {
        let (&n, &c) = (self.sizes.first()?, self.c.first()?);
        let outermost = c > 0 && c.checked_mul(n) == Some(total);
        let work = per_product.saturating_mul(n);
        if !outermost || work < 16 * crate::kernel::PARALLEL_MIN_ELEMENTS {
            // Small work never touches rayon (its pool starts on first use).
            return None;
        }
        let threads = rayon::current_num_threads();
        let even = n % threads == 0 || n >= 4 * threads;
        (threads > 1 && even).then_some(c)
    }
}

/// The matrix product at the heart of a contraction: `m × k` by `k × n`, accumulated or
/// written.
#[derive(Clone, Copy)]
struct Gemm {
    m: Axis3,
    n: Axis3,
    k: Axis3,
    accumulate: bool,
}

impl Gemm {
    /// One product per iteration of `loops`, from the offsets `at` (in `a`, `b` and `c`) on;
    /// `split`: each product may split over threads.
    fn each<T: DotElement>(
        &self,
        loops: &Loops<'_>,
        (a, b, c): (&[T], &[T], &mut [T]),
        mut at: [usize; 3],
        split: bool,
    ) {
        let (m, n, k) = (self.m, self.n, self.k);
        let mut index = [0usize; MAX_RANK];
        let index = &mut index[..loops.sizes.len()];
        loop {
            let mats = (
                Mat {
                    offset: at[0],
                    rows: m.size,
                    cols: k.size,
                    rs: m.a,
                    cs: k.a,
                },
                Mat {
                    offset: at[1],
                    rows: k.size,
                    cols: n.size,
                    rs: k.b,
                    cs: n.b,
                },
                Mat {
                    offset: at[2],
                    rows: m.size,
                    cols: n.size,
                    rs: m.c,
                    cs: n.c,
                },
            );
            product(a, b, c, mats, self.accumulate, split);
            if !step(index, loops.sizes, [loops.a, loops.b, loops.c], &mut at) {
                return;
            }
        }
    }
}

/// One matrix product `c (+)= a · b`. With the `rayon` feature, `f32` and `f64` products are
/// split by the GEMM crate over rayon's pool; for the other elements a product of at least
/// 16 × [`PARALLEL_MIN_ELEMENTS`](crate::kernel::PARALLEL_MIN_ELEMENTS) multiply-adds whose
/// output rows lie apart is cut into one block of rows per thread of rayon's pool, each
/// block a product of its own into its own slice of `c`.
fn product<T: DotElement>(
    a: &[T],
    b: &[T],
    c: &mut [T],
    (ma, mb, mc): (Mat, Mat, Mat),
    acc: bool,
    split: bool,
) {
    #[cfg(feature = "rayon")]
    if split {
        use rayon::prelude::*;
        let work = mc.rows.saturating_mul(mc.cols).saturating_mul(ma.cols);
        let rows_apart = mc.cs >= 1 && mc.rs >= mc.cols.saturating_mul(mc.cs);
        let big = !T::SPLITS_ITSELF
            && mc.rows > 1
            && rows_apart
            && work >= 16 * crate::kernel::PARALLEL_MIN_ELEMENTS;
        // Small work never touches rayon (its pool starts on first use).
        let threads = if big { rayon::current_num_threads() } else { 1 };
        if threads > 1 {
            let per = mc.rows.div_ceil(threads.min(mc.rows));
            let start = mc.offset.min(c.len());
            let blocks = c[start..].par_chunks_mut(per * mc.rs);
            blocks
                .enumerate()
                .take(mc.rows.div_ceil(per))
                .for_each(|(i, block)| {
                    let (r0, rows) = (i * per, per.min(mc.rows - i * per));
                    let ma = Mat {
                        offset: ma.offset + r0 * ma.rs,
                        rows,
                        ..ma
                    };
                    let mc = Mat {
                        offset: 0,
                        rows,
                        ..mc
                    };
                    T::gemm((a, ma), (b, mb), (block, mc), acc, false);
                });
            return;
        }
    }
    T::gemm((a, ma), (b, mb), (c, mc), acc, split);
}

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

impl<L: Contractible, R: Contractible<Elem = L::Elem>, X: Selector> DotWith<R, X> for L
where
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

/// An operand of a typed contraction: a tensor or a view.
pub trait Contractible {
    /// The element type.
    type Elem;
    /// Its shape.
    type Shape: Shape;
    /// Its sizes, its strides (`None`: contiguous, row-major) and its data.
    #[doc(hidden)]
    fn parts(&self) -> (&[usize], Option<&[usize]>, &[Self::Elem]);
}

impl<T, S: Storage<T>> Contractible for Tensor<T, S> {
    type Elem = T;
    type Shape = S;
    fn parts(&self) -> (&[usize], Option<&[usize]>, &[T]) {
        (self.sizes(), None, self.data())
    }
}

impl<T, S: Shape> Contractible for TensorView<'_, T, S> {
    type Elem = T;
    type Shape = S;
    fn parts(&self) -> (&[usize], Option<&[usize]>, &[T]) {
        (self.sizes(), Some(self.strides()), self.data_slice())
    }
}

/// Runs a typed contraction on the plan its types carry: the run-time checks on the sizes
/// alone, the working tables on the stack, one allocation (the output's). When a `?` size
/// does not fit, the run-time engine (`engine`) words the refusal.
fn typed<T: DotElement, O: Storage<T>>(
    plan: &StaticContraction,
    engine: impl Fn() -> Result<Contracted, Error>,
    a: &impl Contractible<Elem = T>,
    b: &impl Contractible<Elem = T>,
) -> Result<Tensor<T, O>, Error> {
    let ((za, ta, da), (zb, tb, db)) = (a.parts(), b.parts());
    let (mut own_a, mut own_b) = ([0usize; MAX_TYPED_RANK], [0usize; MAX_TYPED_RANK]);
    let a = Side {
        sizes: za,
        strides: strides_or_row_major(za, ta, &mut own_a),
        data: da,
    };
    let b = Side {
        sizes: zb,
        strides: strides_or_row_major(zb, tb, &mut own_b),
        data: db,
    };
    let mut sizes = [0usize; MAX_TYPED_RANK];
    let len = plan.plan.len;
    let fits = plan.resolve(a.sizes, b.sizes, &mut sizes);
    let layout = Layout {
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
    let total = super::room::ensure::<T>(layout.sizes, || {
        crate::DynShape::from_sizes(layout.sizes).unwrap_or_default()
    })?;
    let data = layout.run::<TYPED_LOOPS, T>(total, a, b)?;
    Ok(Tensor::from_parts(layout.sizes, data))
}

/// The typed kernel's table length: an output of at most [`MAX_TYPED_RANK`] axes, and as many
/// loops as output and contracted axes together.
const TYPED_LOOPS: usize = 2 * MAX_TYPED_RANK;

impl<L: Contractible, R: Contractible<Elem = L::Elem>> Dot<R> for L
where
    L::Elem: DotElement,
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
}

impl<T, S: Storage<T>> Tensor<T, S> {
    /// NumPy's `matmul` by position (rule book §17): `[..., M, K]` with `[..., K, N]` gives
    /// `[..., M, N]`, the batch axes broadcast by the named rule without copying.
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit; [`try_matmul`](Self::try_matmul) returns the error.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<f64, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let b = Tensor::<f64, shape![2]>::from_array([1.0, 1.0]);
    /// let c: Tensor<f64, shape![2]> = a.matmul(&b);
    /// assert_eq!(c.data(), &[3.0, 7.0]);
    /// ```
    #[track_caller]
    pub fn matmul<R: Contractible<Elem = T>>(&self, rhs: &R) -> Tensor<T, MatMul<S, R::Shape>>
    where
        T: DotElement,
        S: MatMulWith<R::Shape>,
        MatMul<S, R::Shape>: Storage<T>,
    {
        self.try_matmul(rhs).or_panic()
    }

    /// [`matmul`](Self::matmul), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<f32, shape![2, ?]>::from_vec_sized(&[2, 3], vec![0.0; 6])?;
    /// let b = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]);
    /// assert!(a.try_matmul(&b).is_err()); // K: 3 against 2
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_matmul<R: Contractible<Elem = T>>(
        &self,
        rhs: &R,
    ) -> Result<Tensor<T, MatMul<S, R::Shape>>, Error>
    where
        T: DotElement,
        S: MatMulWith<R::Shape>,
        MatMul<S, R::Shape>: Storage<T>,
    {
        let engine = || matmul(&S::to_dyn(), &R::Shape::to_dyn());
        typed(&<S as MatMulWith<R::Shape>>::PLAN, engine, self, rhs)
    }
}

impl<T, S: Shape> TensorView<'_, T, S> {
    /// NumPy's `matmul` by position on a view (a transposed or broadcast operand is not
    /// copied); see [`Tensor::matmul`].
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit; [`try_matmul`](Self::try_matmul) returns the error.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(I, J, K);
    /// let a = Tensor::<f64, shape![I: 2, J: 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let t = a.align_to::<shape![J: 2, I: 2]>()?; // the transpose, as a view
    /// let b = Tensor::<f64, shape![I: 2, K: 2]>::from_array([[1.0, 1.0], [0.0, 1.0]]);
    /// let c: Tensor<f64, shape![J: 2, K: 2]> = t.matmul(&b);
    /// assert_eq!(c.data(), &[1.0, 4.0, 2.0, 6.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    pub fn matmul<R: Contractible<Elem = T>>(&self, rhs: &R) -> Tensor<T, MatMul<S, R::Shape>>
    where
        T: DotElement,
        S: MatMulWith<R::Shape>,
        MatMul<S, R::Shape>: Storage<T>,
    {
        self.try_matmul(rhs).or_panic()
    }

    /// [`matmul`](Self::matmul), or the error when a `?` size does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<f32, shape![?]>::from_vec_sized(&[2], vec![1.0, 2.0])?;
    /// assert_eq!(a.view().try_matmul(&a)?.data(), &[5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_matmul<R: Contractible<Elem = T>>(
        &self,
        rhs: &R,
    ) -> Result<Tensor<T, MatMul<S, R::Shape>>, Error>
    where
        T: DotElement,
        S: MatMulWith<R::Shape>,
        MatMul<S, R::Shape>: Storage<T>,
    {
        let engine = || matmul(&S::to_dyn(), &R::Shape::to_dyn());
        typed(&<S as MatMulWith<R::Shape>>::PLAN, engine, self, rhs)
    }
}

impl<T: DotElement> DynTensor<T> {
    /// Contraction over run-time names (rule book §17), or the refusal.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[I: 2, J: 2]".parse()?, vec![1.0f32, 2.0, 3.0, 4.0])?;
    /// let b = DynTensor::from_vec("[J: 2]".parse()?, vec![1.0f32, 1.0])?;
    /// assert_eq!(a.dot(&b, &["J".parse()?])?.data(), &[3.0, 7.0]);
    /// assert!(a.dot(&b, &["I".parse()?]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn dot(&self, rhs: &DynTensor<T>, names: &[AxisSelector]) -> Result<DynTensor<T>, Error> {
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
    pub fn matmul(&self, rhs: &DynTensor<T>) -> Result<DynTensor<T>, Error> {
        let plan = matmul(self.shape(), rhs.shape())?;
        self.run_plan(&plan, rhs)
    }

    fn run_plan(&self, plan: &Contracted, rhs: &DynTensor<T>) -> Result<DynTensor<T>, Error> {
        let (mut ta, mut tb) = ([0usize; MAX_RANK], [0usize; MAX_RANK]);
        let (sizes, data) = run(
            plan,
            Side {
                sizes: self.sizes(),
                strides: strides_or_row_major(self.sizes(), None, &mut ta),
                data: self.data(),
            },
            Side {
                sizes: rhs.sizes(),
                strides: strides_or_row_major(rhs.sizes(), None, &mut tb),
                data: rhs.data(),
            },
        )?;
        let shape = plan.shape.resolve(&sizes)?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use super::*;
    use crate::dynamic::shape::DynShape;

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
