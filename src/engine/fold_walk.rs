//! The walk of a reduction: every element of a strided input folded into its output cell,
//! the output's strides 0 along the reduced axes. Axes contiguous in both layouts are merged
//! first and the innermost run is specialised ([`FoldOp`]: a reduced contiguous run folded
//! in lanes, a kept one combined elementwise into the output row, runs shorter than the lanes
//! several cells side by side); with the `rayon` feature a large walk splits over threads by
//! rows of the output. The reductions on top of it are in [`reduce`](super::reduce).

use super::fold::FoldOp;
use super::layout::Merged;
use super::walk::step;
use crate::values::shape::MAX_RANK;

/// The runs of a walk over two layouts of the same `sizes`: axes contiguous in both are
/// merged, and `f(oa, ob, n, ia, ib)` receives each innermost run: its start in each layout,
/// its length and each layout's stride along it (row-major order of the index).
#[inline(always)]
pub(crate) fn runs(
    sizes: &[usize],
    sa: &[usize],
    sb: &[usize],
    f: impl FnMut(usize, usize, usize, usize, usize),
) {
    if sizes.contains(&0) {
        return;
    }
    merged_runs(&Merged::new(sizes, sa, sb), f);
}

/// [`runs`] of a layout already merged (no axis of size 0).
#[inline(always)]
fn merged_runs(m: &Merged<MAX_RANK>, mut f: impl FnMut(usize, usize, usize, usize, usize)) {
    let Some(last) = m.len.checked_sub(1) else {
        f(0, 0, 1, 0, 0);
        return;
    };
    let (n, ia, ib) = (m.sizes[last], m.a[last], m.b[last]);
    starts(m, last, |oa, ob| f(oa, ob, n, ia, ib));
}

/// `f(oa, ob)` at every index of the merged layout's first `k` axes, in row-major order:
/// where each block of its remaining axes starts in the two layouts.
#[inline(always)]
fn starts(m: &Merged<MAX_RANK>, k: usize, mut f: impl FnMut(usize, usize)) {
    let mut index = [0usize; MAX_RANK];
    let mut at = [0usize; 2];
    loop {
        f(at[0], at[1]);
        if !step(
            &mut index[..k],
            &m.sizes[..k],
            [&m.a[..k], &m.b[..k]],
            &mut at,
        ) {
            return;
        }
    }
}

/// Folds every element of `a` (laid out by `sizes` and `sa`) into the cell of `b` that the
/// strides `sb` give it (0 along the reduced axes), each run by the op's specialised loop.
/// The caller guarantees that every offset is inside both slices (a layout built by this
/// module is).
///
/// With the `rayon` feature, a walk of at least
/// [`PARALLEL_MIN_ELEMENTS`](super::split::PARALLEL_MIN_ELEMENTS) input elements is cut
/// along the outermost axis the output keeps (its rows own disjoint, contiguous blocks of the
/// output) into about four pieces per thread; each cell is folded by one thread, in the same
/// order as on one, so the results are identical. A reduction to one cell runs on one thread.
pub(crate) fn walk<T: Sync, A: Send>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &(impl FoldOp<T, A> + Sync),
) {
    #[cfg(feature = "rayon")]
    if walk_parallel(sizes, (a, sa), (&mut *b, sb), op) {
        return;
    }
    walk_serial(sizes, (a, sa), (b, sb), op);
}

/// How a walk over `sizes` splits over rayon's pool: along `k`, the outermost axis of size
/// above 1, when the output keeps it (`out_row`, its output stride, is not 0), in pieces of
/// `per_piece` rows. Rows `r0..r1` along `k` then own the input block from `r0 * in_row` and
/// the output block `r0 * out_row..r1 * out_row`, which no other piece touches. `None` (stay
/// on the calling thread) for a small walk, one thread, or a reduced outermost axis: cutting
/// an inner kept axis shortens every run and was measured slower (sum over axis 0 of
/// (1024, 1024): 1.2x slower on two threads).
#[cfg(feature = "rayon")]
pub(crate) fn row_split(sizes: &[usize], out: &[usize], out_len: usize) -> Option<(usize, usize)> {
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))?;
    if total < super::split::PARALLEL_MIN_ELEMENTS || sizes.len() > MAX_RANK {
        // Small work never touches rayon (its pool starts on first use).
        return None;
    }
    let threads = crate::engine::threads::count();
    if threads < 2 {
        return None;
    }
    let k = sizes.iter().position(|&n| n > 1)?;
    if out[k] == 0 || out_len != sizes[k] * out[k] {
        return None;
    }
    Some((k, sizes[k].div_ceil(threads * 4)))
}

/// `sizes` with axis `k` cut to `n`, on the stack.
#[cfg(feature = "rayon")]
pub(crate) fn cut(sizes: &[usize], k: usize, n: usize) -> [usize; MAX_RANK] {
    let mut sub = [0usize; MAX_RANK];
    sub[..sizes.len()].copy_from_slice(sizes);
    sub[k] = n;
    sub
}

/// [`walk`] split over rayon's pool (see [`row_split`]); false (nothing done) when it does
/// not split.
#[cfg(feature = "rayon")]
fn walk_parallel<T: Sync, A: Send>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &(impl FoldOp<T, A> + Sync),
) -> bool {
    let Some((k, per_piece)) = row_split(sizes, sb, b.len()) else {
        return false;
    };
    super::threads::chunks(b, per_piece * sb[k], |i, block| {
        let start = i * per_piece;
        let sub = cut(sizes, k, block.len() / sb[k]);
        walk_serial(
            &sub[..sizes.len()],
            (&a[start * sa[k]..], sa),
            (block, sb),
            op,
        );
    });
    true
}

/// [`walk`] on the calling thread.
fn walk_serial<T, A>(
    sizes: &[usize],
    (a, sa): (&[T], &[usize]),
    (b, sb): (&mut [A], &[usize]),
    op: &impl FoldOp<T, A>,
) {
    if sizes.contains(&0) {
        return;
    }
    let m = Merged::new(sizes, sa, sb);
    if short_reduced_runs(&m, a, &mut *b, op) {
        return;
    }
    merged_runs(&m, |oa, ob, n, ia, ib| match (ia, ib) {
        (1, 0) => op.run(&mut b[ob], &a[oa..oa + n]),
        (1, 1) => op.zip(&mut b[ob..ob + n], &a[oa..oa + n]),
        (0, 1) => {
            let x = &a[oa];
            for acc in &mut b[ob..ob + n] {
                op.step(acc, x);
            }
        }
        _ => {
            for j in 0..n {
                op.step(&mut b[ob + j * ib], &a[oa + j * ia]);
            }
        }
    });
}

/// Runs below this length, each reduced into its own cell, are folded several cells at a
/// time ([`FoldOp::short_runs`]).
const SHORT_RUN: usize = 32;

/// [`walk_serial`] when the innermost merged axis is a reduced contiguous run shorter than
/// [`SHORT_RUN`] and the next one keeps consecutive cells (a mean over a few innermost
/// axes, as after an outer broadcast): each row of cells folded by `op.short_runs`, which
/// overlaps the runs' dependent additions. False (nothing done) for any other layout.
fn short_reduced_runs<T, A>(
    m: &Merged<MAX_RANK>,
    a: &[T],
    b: &mut [A],
    op: &impl FoldOp<T, A>,
) -> bool {
    let Some(row) = m.len.checked_sub(2) else {
        return false;
    };
    let (last, n) = (row + 1, m.sizes[row + 1]);
    if (m.a[last], m.b[last], m.b[row]) != (1, 0, 1) || n >= SHORT_RUN {
        return false;
    }
    let (cells, gap) = (m.sizes[row], m.a[row]);
    starts(m, row, |oa, ob| {
        op.short_runs(&mut b[ob..ob + cells], &a[oa..], (n, gap));
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc_prelude::*;
    use crate::engine::fold::{CompensatedSum, Extreme, Sum};
    use crate::engine::summation::Kahan;

    /// The cells' folds one run at a time, as the walk did before runs were folded several
    /// cells at a time.
    fn one_by_one<T, A: Clone>(
        xs: &[T],
        (cells, n, gap): (usize, usize, usize),
        init: A,
        op: &impl FoldOp<T, A>,
    ) -> Vec<A> {
        (0..cells)
            .map(|j| {
                let mut acc = init.clone();
                op.run(&mut acc, &xs[j * gap..j * gap + n]);
                acc
            })
            .collect()
    }

    /// Runs of 1 to 31 elements, adjacent or apart, in rows of cells that are and are not a
    /// multiple of eight, and two rows of them (an outer axis the walk steps): the sums,
    /// extremes (a NaN among them) and compensated sums equal one run a cell, bit for bit.
    #[test]
    fn short_runs_fold_as_one_run_a_cell() {
        for n in 1..SHORT_RUN {
            for cells in [1, 7, 8, 13, 24] {
                for gap in [n, n + 3] {
                    let len = 2 * cells * gap;
                    let mut xs: Vec<f32> = (0..len)
                        .map(|i| ((i * 7919) % 1013) as f32 * 0.37 - 150.0)
                        .collect();
                    xs[len / 3] = f32::NAN;
                    // Two rows of `cells` cells: [2, cells, n] with strides [cells·gap, gap, 1].
                    let sizes = [2, cells, n];
                    let (sa, sb) = ([cells * gap, gap, 1], [cells, 1, 0]);
                    let rest = &xs[cells * gap..];
                    let mut got = vec![0.5f32; 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &Sum);
                    let mut expect = one_by_one(&xs, (cells, n, gap), 0.5, &Sum);
                    expect.extend(one_by_one(rest, (cells, n, gap), 0.5, &Sum));
                    assert_eq!(got.map_bits(), expect.map_bits(), "sum {n} {cells} {gap}");

                    let max = Extreme::<true>;
                    let mut got = vec![f32::NEG_INFINITY; 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &max);
                    let init = f32::NEG_INFINITY;
                    let mut expect = one_by_one(&xs, (cells, n, gap), init, &max);
                    expect.extend(one_by_one(rest, (cells, n, gap), init, &max));
                    assert_eq!(got.map_bits(), expect.map_bits(), "max {n} {cells} {gap}");

                    let mut got = vec![Kahan::zero(); 2 * cells];
                    walk_serial(&sizes, (&xs, &sa), (&mut got, &sb), &CompensatedSum);
                    let z = Kahan::zero();
                    let mut expect = one_by_one(&xs, (cells, n, gap), z, &CompensatedSum);
                    expect.extend(one_by_one(rest, (cells, n, gap), z, &CompensatedSum));
                    let sums = |k: Vec<Kahan<f32>>| k.iter().map(|k| k.sum).collect::<Vec<_>>();
                    assert_eq!(
                        sums(got).map_bits(),
                        sums(expect).map_bits(),
                        "mean {n} {cells}"
                    );
                }
            }
        }
    }

    trait Bits {
        fn map_bits(&self) -> Vec<u32>;
    }
    impl Bits for Vec<f32> {
        fn map_bits(&self) -> Vec<u32> {
            self.iter().map(|x| x.to_bits()).collect()
        }
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use super::*;
    use crate::alloc_prelude::*;
    use crate::engine::fold::Sum;

    /// Split over a pool of three threads (so the split happens on any machine), a reduction
    /// folds every cell as the calling thread does, bit for bit: over the inner axis, a middle
    /// one, a transposed input, a broadcast input, an output row that is the whole input
    /// (softmax's last pass); over the outer axis and into one cell it stays on one thread.
    #[test]
    fn the_parallel_walk_folds_what_the_serial_one_does() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        // (sizes, input strides, output strides, output cells)
        type Case<'a> = (&'a [usize], &'a [usize], &'a [usize], usize);
        let cases: [Case; 7] = [
            (&[300, 301], &[301, 1], &[1, 0], 300),
            (&[300, 301], &[301, 1], &[0, 1], 301),
            (&[5, 200, 101], &[20_200, 101, 1], &[101, 0, 1], 505),
            (&[301, 300], &[1, 301], &[1, 0], 301),
            (&[7, 300, 40], &[0, 40, 1], &[300, 1, 0], 2100),
            (&[257, 263], &[263, 1], &[263, 1], 257 * 263),
            (&[300, 301], &[301, 1], &[0, 0], 1),
        ];
        for (sizes, sa, sb, cells) in cases {
            let need = 1 + sizes
                .iter()
                .zip(sa)
                .map(|(&n, &s)| (n - 1) * s)
                .sum::<usize>();
            let a: Vec<f64> = (0..need)
                .map(|x| ((x * 7919) % 1000) as f64 * 0.37)
                .collect();
            let mut serial = vec![0.5; cells];
            let mut parallel = serial.clone();
            walk_serial(sizes, (&a, sa), (&mut serial, sb), &Sum);
            pool.install(|| walk(sizes, (&a, sa), (&mut parallel, sb), &Sum));
            assert_eq!(parallel, serial, "{sizes:?} {sa:?} {sb:?}");
            let ints: Vec<i64> = (0..need as i64).collect();
            let (mut s, mut p) = (vec![0i64; cells], vec![0i64; cells]);
            walk_serial(sizes, (&ints, sa), (&mut s, sb), &Sum);
            pool.install(|| walk(sizes, (&ints, sa), (&mut p, sb), &Sum));
            assert_eq!(p, s, "{sizes:?} {sa:?} {sb:?}");
        }
    }
}
