//! Scaled dot-product attention in one pass per block of queries (flash-attention's online
//! softmax): for each block of query rows and each block of keys, the scores are one GEMM
//! call, a running maximum and sum rescale what the block adds, and the values' product is
//! a second GEMM call accumulating into the block's output. The score matrix is never held
//! whole: a block holds at most [`QUERY_BLOCK`] × [`KEY_BLOCK`] scores, so memory is linear in the
//! sequence. The operands arrive as offset tables ([`Geometry`]), built by the operation
//! from the rule's plan, so any layout and any arrangement of named axes runs here.
//!
//! A *batch* is an index of the axes along which the keys or the values change (a head, a
//! KV head); its *rows* are the query positions that share those keys (the query sequence
//! and, in grouped-query attention, the query heads of a group), and are the GEMM's rows.
//! With the `rayon` feature the (batch, block of rows) pieces split over the pool.

use crate::alloc_prelude::*;

use super::fold::pick;
use super::raw::{self, DotElement, Mat};
use super::summation::lanes;
use super::vmath::{computes_wider, narrowed, widen_all, Transcendental};

/// Query rows per block: the scores of a block of keys fit in L1 with the block's rows.
pub(crate) const QUERY_BLOCK: usize = 64;
/// Keys per block.
pub(crate) const KEY_BLOCK: usize = 256;
/// Below this many rows a block multiplies as written rather than transposed.
const FEW_ROWS: usize = 32;
/// Up to this many rows (a generated token's query heads of one KV head) a block's scores
/// and weighted values are computed key by key ([`raw::few_rows_dots`]), each key and value
/// read once, rather than by GEMM calls whose 16-row kernels the rows would fill a quarter.
const DIRECT_ROWS: usize = 8;

/// The transpose of a matrix: the same elements, rows and columns exchanged.
fn transpose(m: Mat) -> Mat {
    Mat {
        offset: m.offset,
        rows: m.cols,
        cols: m.rows,
        rs: m.cs,
        cs: m.rs,
    }
}

/// Where attention reads and writes, as offset tables: every element is `base + offset`
/// with `base` the batch's offset and the offset the row's, the key's, the contracted
/// index's or the value column's.
#[derive(Clone, Debug, Default)]
pub(crate) struct Geometry {
    /// Per batch: the offsets of the queries, keys, values, mask and output, and the
    /// position added to each row's (causal masking).
    pub batch: [Vec<usize>; 6],
    /// Per query row: the offsets of the queries, mask and output, and the row's position
    /// along the causal axis.
    pub rows: [Vec<usize>; 4],
    /// The number of keys.
    pub keys: usize,
    /// The strides of the keys, values and mask along the key axis.
    pub key_strides: [usize; 3],
    /// Per contracted index: the offsets of the queries and keys.
    pub depth: [Vec<usize>; 2],
    /// Per value column: the offsets of the values and output.
    pub cols: [Vec<usize>; 2],
    /// Causal: key `j` is seen from a row at position `p` when `j <= p + offset`.
    pub causal: Option<usize>,
}

/// The operands of one attention: queries, keys, values and the additive mask.
#[derive(Clone, Copy)]
pub(crate) struct Operands<'a, T> {
    pub q: &'a [T],
    pub k: &'a [T],
    pub v: &'a [T],
    pub mask: Option<&'a [T]>,
}

/// `Some(stride)` when `offsets` are `0, stride, 2·stride, …` (one strided run, which a
/// GEMM call reads in place).
fn one_run(offsets: &[usize]) -> Option<usize> {
    match offsets {
        [] => Some(1),
        [_] => Some(1),
        [0, second, ..] => offsets
            .iter()
            .enumerate()
            .all(|(i, &o)| o == i * second)
            .then_some(*second),
        _ => None,
    }
}

/// The keys' or values' matrix of each batch: read in place when its inner offsets are one
/// run and it is not asked for by keys, else packed (every batch's, as many elements as the
/// operand has), keys along the rows or, `by_keys`, each inner index's keys contiguous.
struct Operand<'a, T> {
    data: &'a [T],
    /// Packed: batch `b` starts at `b · keys · inner`.
    packed: bool,
    keys: usize,
    inner: usize,
    inner_stride: usize,
    key_stride: usize,
}

impl<'a, T: Copy> Operand<'a, T> {
    /// Operand `which` (1: keys, 2: values) of `g`, with `inner` its offsets along the
    /// contracted index or the value columns.
    fn new(
        g: &Geometry,
        (data, which): (&'a [T], usize),
        inner: &[usize],
        by_keys: bool,
        store: &'a mut Vec<T>,
    ) -> Self {
        let key_stride = g.key_strides[which - 1];
        match one_run(inner) {
            Some(stride) if !by_keys || key_stride == 1 => {
                return Operand {
                    data,
                    packed: false,
                    keys: g.keys,
                    inner: inner.len(),
                    inner_stride: stride,
                    key_stride,
                }
            }
            _ => {}
        }
        store.clear();
        store.reserve(g.batch[which].len() * g.keys * inner.len());
        for &base in &g.batch[which] {
            if by_keys {
                for &o in inner {
                    store.extend((0..g.keys).map(|j| data[base + o + j * key_stride]));
                }
            } else {
                for j in 0..g.keys {
                    let at = base + j * key_stride;
                    store.extend(inner.iter().map(|&o| data[at + o]));
                }
            }
        }
        let (inner_stride, key_stride) = if by_keys {
            (g.keys, 1)
        } else {
            (1, inner.len())
        };
        Operand {
            data: store,
            packed: true,
            keys: g.keys,
            inner: inner.len(),
            inner_stride,
            key_stride,
        }
    }

    /// Keys `j0..j0 + n` of batch `b` (at offset `base`) as a matrix: keys along the rows, or
    /// with `by_columns` along the columns.
    fn block(&self, b: usize, base: usize, j0: usize, n: usize, by_columns: bool) -> Mat {
        let start = if self.packed {
            b * self.keys * self.inner
        } else {
            base
        };
        let offset = start + j0 * self.key_stride;
        let (rows, cols, rs, cs) = (n, self.inner, self.key_stride, self.inner_stride);
        if by_columns {
            Mat::new(offset, cols, rows, cs, rs)
        } else {
            Mat::new(offset, rows, cols, rs, cs)
        }
    }
}

/// Scaled dot-product attention of `ops` by `g`, scores multiplied by `scale` (given in the
/// type the scores are computed in): the output in the order of `g`'s output offsets, `len`
/// elements (every one written).
pub(crate) fn attend<T>(ops: Operands<'_, T>, g: &Geometry, scale: T::Wide, len: usize) -> Vec<T>
where
    T: DotElement + Transcendental<Wide: DotElement + Default> + Default,
{
    if computes_wider::<T>() {
        // Half precision: the operands widened once, the scores, the online softmax and the
        // weighted sums in `f32`, each output rounded once (PyTorch's CPU attention on bf16).
        let (q, k, v) = (widen_all(ops.q), widen_all(ops.k), widen_all(ops.v));
        let mask = ops.mask.map(widen_all);
        let ops = Operands {
            q: &q,
            k: &k,
            v: &v,
            mask: mask.as_deref(),
        };
        return narrowed(attend(ops, g, scale, len));
    }
    let scale = T::narrow(scale);
    let (mut ks, mut vs) = (Vec::new(), Vec::new());
    let rows = g.rows[0].len();
    // The GEMM crate multiplies fastest with operands whose columns are contiguous: the
    // products are computed transposed (`sᵀ = k · qᵀ`, `accᵀ += vᵀ · pᵀ`), so the keys are
    // packed with each contracted index's keys contiguous when many rows read them (a
    // prompt), and read in place by one or a few rows (generation reads each key once).
    let k = Operand::new(g, (ops.k, 1), &g.depth[1], rows >= QUERY_BLOCK, &mut ks);
    let v = Operand::new(g, (ops.v, 2), &g.cols[0], false, &mut vs);
    let cols = g.cols[0].len();
    let batches = g.batch[0].len();
    let blocks = rows.div_ceil(QUERY_BLOCK);
    let mut out = vec![T::default(); len];
    if rows == 0 || cols == 0 || batches == 0 {
        return out;
    }
    // Each piece computes its rows' outputs into its own block (rows × cols, row-major);
    // the blocks are then written to the output's offsets.
    // Under a causal mask a later block of rows sees more keys (three times the first's
    // scores for the second of two): the pieces go last block first, so that the threads
    // taking them in turn end together.
    let batch_block = |i: usize| (i % batches, blocks - 1 - i / batches);
    let mut results: Vec<Vec<T>> = (0..batches * blocks).map(|_| Vec::new()).collect();
    let piece = |i: usize, result: &mut Vec<T>| {
        let (b, block) = batch_block(i);
        let r0 = block * QUERY_BLOCK;
        let r1 = (r0 + QUERY_BLOCK).min(rows);
        *result = rows_of(ops, g, (&k, &v), scale, b, r0..r1);
    };
    run_pieces(&mut results, work(g), piece);
    // An output row's columns one after the other (a head's features last) are copied as
    // one run.
    let contiguous = g.cols[1].iter().enumerate().all(|(j, &o)| o == j);
    for (i, result) in results.iter().enumerate() {
        let (b, block) = batch_block(i);
        let base = g.batch[4][b];
        for (r, row) in result.chunks(cols).enumerate() {
            let at = base + g.rows[2][block * QUERY_BLOCK + r];
            if contiguous {
                out[at..at + row.len()].copy_from_slice(row);
                continue;
            }
            for (&o, &x) in g.cols[1].iter().zip(row) {
                out[at + o] = x;
            }
        }
    }
    out
}

/// The multiply-adds of an attention without masking: what decides whether it splits.
pub(super) fn work(g: &Geometry) -> usize {
    g.batch[0]
        .len()
        .saturating_mul(g.rows[0].len())
        .saturating_mul(g.keys)
        .saturating_mul(g.depth[0].len() + g.cols[0].len())
}

/// Runs `piece(i, &mut results[i])` for every piece: over rayon's pool when the work pays
/// for a split, else on the calling thread.
pub(super) fn run_pieces<R: Send>(
    results: &mut [R],
    work: usize,
    piece: impl Fn(usize, &mut R) + Sync,
) {
    #[cfg(feature = "rayon")]
    if results.len() > 1 && work >= super::split::PARALLEL_MIN_ELEMENTS * 4 {
        super::threads::chunks(results, 1, |i, r| piece(i, &mut r[0]));
        return;
    }
    let _ = work;
    for (i, r) in results.iter_mut().enumerate() {
        piece(i, r);
    }
}

/// The outputs of rows `rows` of batch `b`, `rows.len() × cols` row-major: the online
/// softmax over blocks of keys.
fn rows_of<T>(
    ops: Operands<'_, T>,
    g: &Geometry,
    (k, v): (&Operand<'_, T>, &Operand<'_, T>),
    scale: T,
    b: usize,
    rows: core::ops::Range<usize>,
) -> Vec<T>
where
    T: DotElement + Transcendental + Default,
{
    let m = rows.len();
    let depth = g.depth[0].len();
    let cols = g.cols[0].len();
    let [qb, kb, vb, mb, _, pb] = [0, 1, 2, 3, 4, 5].map(|w| g.batch[w][b]);
    // The block's queries, scaled: m × depth, row-major.
    let mut q = Vec::with_capacity(m * depth);
    for r in rows.clone() {
        let at = qb + g.rows[0][r];
        q.extend(g.depth[0].iter().map(|&o| ops.q[at + o] * scale));
    }
    let positions: Vec<usize> = rows.clone().map(|r| pb + g.rows[3][r]).collect();
    // The keys any row sees: all of them, or up to the last row's causal limit.
    let seen = match g.causal {
        Some(offset) => {
            let last = positions.iter().max().copied().unwrap_or(0);
            g.keys.min(last.saturating_add(offset).saturating_add(1))
        }
        None => g.keys,
    };
    let mut max = vec![T::neg_infinity(); m];
    let mut sum = vec![T::zero(); m];
    let mut acc = vec![T::zero(); m * cols];
    // As many keys a block as keep the block's scores within QUERY_BLOCK × KEY_BLOCK: few
    // rows (generation) take many keys at once, and so make few GEMM calls.
    let keys = (KEY_BLOCK * QUERY_BLOCK / m.max(1)).max(KEY_BLOCK);
    let mut s = vec![T::zero(); m * keys.min(seen.max(1))];
    // qᵀ, sᵀ, accᵀ: each row's values contiguous, a column of the transposed matrix. The
    // GEMM crate reads a matrix in place when its columns are contiguous and packs it
    // otherwise: many rows (a prompt) multiply transposed, the keys and values then read in
    // place; a few rows (generation) multiply as written, which reads the keys and values
    // in place whatever their layout (the small matrices are packed instead).
    let few = m < FEW_ROWS;
    let direct = m <= DIRECT_ROWS && depth > 0 && k.inner_stride == 1 && v.inner_stride == 1;
    let qt = Mat {
        offset: 0,
        rows: depth,
        cols: m,
        rs: 1,
        cs: depth,
    };
    let at = Mat {
        offset: 0,
        rows: cols,
        cols: m,
        rs: 1,
        cs: cols,
    };
    for j0 in (0..seen).step_by(keys) {
        let n = keys.min(seen - j0);
        let st = Mat {
            offset: 0,
            rows: n,
            cols: m,
            rs: 1,
            cs: n,
        };
        if direct {
            let keys = k.block(b, kb, j0, n, false);
            let scores = &mut s[..m * n];
            raw::few_rows_dots((&q, m, depth), (&k.data[keys.offset..], keys.rs), scores);
        } else if few {
            let (qm, sm) = (transpose(qt), transpose(st));
            T::gemm(
                (&q, qm),
                (k.data, k.block(b, kb, j0, n, true)),
                (&mut s[..m * n], sm),
                false,
                false,
            );
        } else {
            T::gemm(
                (k.data, k.block(b, kb, j0, n, false)),
                (&q, qt),
                (&mut s[..m * n], st),
                false,
                false,
            );
        }
        for (i, r) in rows.clone().enumerate() {
            let row = &mut s[i * n..(i + 1) * n];
            if let Some(mask) = ops.mask {
                let at = mb + g.rows[1][r] + j0 * g.key_strides[2];
                for (j, x) in row.iter_mut().enumerate() {
                    *x = *x + mask[at + j * g.key_strides[2]];
                }
            }
            if let Some(offset) = g.causal {
                // Keys past the row's position plus the offset are not seen.
                let limit = positions[i].saturating_add(offset).saturating_add(1);
                let from = limit.saturating_sub(j0).min(n);
                row[from..].fill(T::neg_infinity());
            }
            let top = pick::<true, T>(max[i], lanes(row, T::neg_infinity(), pick::<true, T>));
            if top == T::neg_infinity() {
                // Nothing seen yet: the block adds nothing.
                row.fill(T::zero());
                continue;
            }
            let kept = (max[i] - top).exp_v();
            raw::map_slice_in_place(row, move |x| (x - top).exp_v());
            let total = lanes(row, T::zero(), |a, b| a + b);
            sum[i] = sum[i] * kept + total;
            if kept != T::one() {
                acc[i * cols..(i + 1) * cols]
                    .iter_mut()
                    .for_each(|a| *a = *a * kept);
            }
            max[i] = top;
        }
        if direct {
            let values = v.block(b, vb, j0, n, false);
            let others = (&v.data[values.offset..], values.rs, cols);
            raw::few_rows_weighted((&s[..m * n], n), others, &mut acc);
        } else if few {
            let (sm, am) = (transpose(st), transpose(at));
            T::gemm(
                (&s[..m * n], sm),
                (v.data, v.block(b, vb, j0, n, false)),
                (&mut acc, am),
                true,
                false,
            );
        } else {
            T::gemm(
                (v.data, v.block(b, vb, j0, n, true)),
                (&s[..m * n], st),
                (&mut acc, at),
                true,
                false,
            );
        }
    }
    for (i, row) in acc.chunks_mut(cols).enumerate() {
        // A row that saw no key divides 0 by 0: NaN, as PyTorch's softmax of a row of -inf.
        let total = sum[i];
        row.iter_mut().for_each(|a| *a = *a / total);
    }
    acc
}
