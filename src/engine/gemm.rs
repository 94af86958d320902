//! How a contraction runs as GEMM calls (rule book §17; the plan comes from
//! [`contract`](super::contract)): of the output axes, the last fed by the left only is `M`,
//! by the right only `N`, and the largest contracted pair `K`, each extended over neighbours
//! contiguous in both operands (contracted pairs that continue one another merge into one
//! `K`); every other axis is a loop around the calls. With the `rayon` feature a batch over
//! the output's outermost axis runs one product per task, and a large single product splits
//! inside the GEMM crate (or, for elements it does not take, into blocks of rows).

use crate::alloc_prelude::*;

use super::layout::{row_major_into, Strided};
use super::raw::{DotElement, DotOperand, Mat};
use super::walk::step;
use crate::values::error::Error;
use crate::values::shape::MAX_RANK;

/// One axis of the iteration: its size and each operand's stride along it (left, right,
/// output).
#[derive(Clone, Copy, Debug)]
struct Axis3 {
    size: usize,
    a: usize,
    b: usize,
    c: usize,
}

/// What the kernel of a contraction runs on: the output's sizes, the source axis of each
/// operand for each output axis, and the contracted pairs.
pub(crate) struct GemmPlan<'p> {
    pub(crate) sizes: &'p [usize],
    pub(crate) lhs: &'p [Option<usize>],
    pub(crate) rhs: &'p [Option<usize>],
    pub(crate) pairs: &'p [(usize, usize)],
}

/// No axis: a GEMM dimension of 1.
const UNIT: Axis3 = Axis3 {
    size: 1,
    a: 0,
    b: 0,
    c: 0,
};

impl GemmPlan<'_> {
    /// The output, row-major, for `total` elements: one GEMM call per block, the working
    /// tables on the stack (at most `N` output axes and `N` loops).
    pub(crate) fn run<const N: usize, T: DotElement, U: DotOperand<T>>(
        &self,
        total: usize,
        a: Strided<'_, T>,
        b: Strided<'_, U>,
    ) -> Result<Vec<T>, Error> {
        if total == 0 || self.pairs.iter().any(|&(i, _)| a.sizes[i] == 0) {
            return Ok(vec![T::zero(); total]);
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
        let stride =
            |(sizes, strides): (&[usize], &[usize]), src: Option<usize>, n: usize| match src {
                Some(i) if sizes[i] == n => strides[i],
                _ => 0,
            };
        // Each output axis, and which operands feed it.
        let mut outputs = [(UNIT, false, false); N];
        for k in 0..rank {
            let (l, r, n) = (self.lhs[k], self.rhs[k], self.sizes[k]);
            let axis = Axis3 {
                size: n,
                a: stride((a.sizes, a.strides), l, n),
                b: stride((b.sizes, b.strides), r, n),
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
        // The GEMM axes: the output axis fed by the left only (M) and the one fed by the
        // right only (N) that give the largest matrices once merged with the contiguous
        // axes before them (the last such axis on a tie), and the largest contracted axis
        // (K). Grouped-query attention's `[SEQ, KVH, GROUP, ..]` queries give M = SEQ (128
        // rows), not the last axis GROUP (2 rows, one tiny product per position).
        // Output axis `k` merged with the preceding output axes while they have its role and
        // continue it in the operand and in the output: the merged axis and its first index.
        let merged = |k: usize, side_of: fn(&Axis3) -> usize| {
            let role = (outputs[k].1, outputs[k].2);
            let (mut ax, mut k) = (outputs[k].0, k);
            while k > 0 {
                let (prev, l, r) = outputs[k - 1];
                if (l, r) != role
                    || side_of(&prev) != side_of(&ax) * ax.size
                    || prev.c != ax.c * ax.size
                {
                    break;
                }
                ax.size *= prev.size;
                k -= 1;
            }
            (ax, k)
        };
        let best_of = |role: (bool, bool), side_of: fn(&Axis3) -> usize| {
            (0..rank)
                .filter(|&k| (outputs[k].1, outputs[k].2) == role && outputs[k].0.size > 1)
                .max_by_key(|&k| merged(k, side_of).0.size)
        };
        let m_at = best_of((true, false), |x| x.a);
        let n_at = best_of((false, true), |x| x.b);
        let k_at = (0..ks.len()).max_by_key(|&p| ks[p].size);
        let mut used = [false; N];
        let mut grow = |at: Option<usize>, side_of: fn(&Axis3) -> usize| -> Axis3 {
            let Some(last) = at else { return UNIT };
            let (ax, first) = merged(last, side_of);
            used[first..=last].iter_mut().for_each(|u| *u = true);
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
        if loops.sizes.is_empty() && !accumulate {
            // One product writing every output element: where the element's kernel writes
            // without reading, into memory never zeroed (zeroing it first was 8% of the
            // Llama prompt's time on two threads, on the calling thread alone).
            let (ma, mb, mc) = gemm.mats([0; 3]);
            if let Some(out) = U::gemm_new((a.data, ma), (b.data, mb), mc, total, true) {
                return Ok(out);
            }
        }
        let mut out = vec![T::zero(); total];
        // A large output is usually fresh zeroed memory the GEMM touches first: huge pages
        // fault it in 2 MiB at a time.
        super::raw::advise_huge_pages(&out);
        #[cfg(feature = "rayon")]
        if let Some(per) = loops.batches(total, m.size * n.size * k.size) {
            // The outermost loop is the output's outermost axis above 1: its iterations write
            // disjoint runs of `per` elements, one task each, each product on its task's
            // thread.
            let inner = loops.without_first();
            super::threads::chunks(&mut out, per, |i, chunk| {
                let at = [i * loops.a[0], i * loops.b[0], 0];
                gemm.each(&inner, (a.data, b.data, chunk), at, false);
            });
            return Ok(out);
        }
        #[cfg(feature = "rayon")]
        if loops.side_by_side(m.size * n.size * k.size) && !accumulate {
            // Products over other output axes (heads beside the sequence), each writing its
            // own cells, run side by side on the pool.
            let mut each = [[0usize; 4]; N];
            for (q, l) in each.iter_mut().enumerate().take(loops.sizes.len()) {
                *l = [loops.sizes[q], loops.a[q], loops.b[q], loops.c[q]];
            }
            let mats = gemm.mats([0; 3]);
            if U::products_into(a.data, b.data, &mut out, mats, &each[..loops.sizes.len()]) {
                return Ok(out);
            }
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

    /// Whether the products (`per_product` multiply-adds each, one per iteration of the
    /// loops) run side by side over rayon's pool rather than one after the other: with more
    /// than one thread, at least 2^20 multiply-adds in all, and either as many products as
    /// threads or products too small to split themselves (below 2^21 multiply-adds).
    #[cfg(feature = "rayon")]
    fn side_by_side(&self, per_product: usize) -> bool {
        let count = self.sizes.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
        let Some(count) = count.filter(|&n| n > 1) else {
            return false;
        };
        if per_product.saturating_mul(count) < 1 << 20 {
            // Small work never touches rayon (its pool starts on first use).
            return false;
        }
        let threads = crate::engine::threads::count();
        threads > 1 && (count >= threads || per_product < 1 << 21)
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
        if !outermost || work < 16 * super::split::PARALLEL_MIN_ELEMENTS {
            // Small work never touches rayon (its pool starts on first use).
            return None;
        }
        let threads = crate::engine::threads::count();
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
    /// The three matrices of the product whose operands and output start at `at`.
    fn mats(&self, at: [usize; 3]) -> (Mat, Mat, Mat) {
        let (m, n, k) = (self.m, self.n, self.k);
        (
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
        )
    }

    /// One product per iteration of `loops`, from the offsets `at` (in `a`, `b` and `c`) on;
    /// `split`: each product may split over threads.
    fn each<T: DotElement, U: DotOperand<T>>(
        &self,
        loops: &Loops<'_>,
        (a, b, c): (&[T], &[U], &mut [T]),
        mut at: [usize; 3],
        split: bool,
    ) {
        let mut index = [0usize; MAX_RANK];
        let index = &mut index[..loops.sizes.len()];
        loop {
            product(a, b, c, self.mats(at), self.accumulate, split);
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
fn product<T: DotElement, U: DotOperand<T>>(
    a: &[T],
    b: &[U],
    c: &mut [T],
    (ma, mb, mc): (Mat, Mat, Mat),
    acc: bool,
    split: bool,
) {
    #[cfg(feature = "rayon")]
    if split {
        let work = mc.rows.saturating_mul(mc.cols).saturating_mul(ma.cols);
        let rows_apart = mc.cs >= 1 && mc.rs >= mc.cols.saturating_mul(mc.cs);
        let big = !U::SPLITS_ITSELF
            && mc.rows > 1
            && rows_apart
            && work >= 16 * super::split::PARALLEL_MIN_ELEMENTS;
        // Small work never touches rayon (its pool starts on first use).
        let threads = if big {
            crate::engine::threads::count()
        } else {
            1
        };
        if threads > 1 {
            let per = mc.rows.div_ceil(threads.min(mc.rows));
            let start = mc.offset.min(c.len());
            let end = start
                .saturating_add(mc.rows.saturating_mul(mc.rs))
                .min(c.len());
            super::threads::chunks(&mut c[start..end], per * mc.rs, |i, block| {
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
                U::gemm_into((a, ma), (b, mb), (block, mc), acc, false);
            });
            return;
        }
    }
    U::gemm_into((a, ma), (b, mb), (c, mc), acc, split);
}
