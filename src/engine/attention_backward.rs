//! The backward of scaled dot-product attention (`engine::attention`), flash-attention's: per
//! block of query rows, the scores are recomputed from the queries and keys (one GEMM call),
//! softmaxed, and four more GEMM calls give the gradients. With `P` the block's
//! probabilities, `dO` the output's gradient and `Dᵢ = Σ dOᵢ · Oᵢ` each row's,
//!
//! - `dV += Pᵀ · dO`,
//! - `dS = P ∘ (dO · Vᵀ − D)`,
//! - `dQ = scale · dS · K`, `dK += scale · dSᵀ · Q`.
//!
//! A block holds its rows' scores over the keys they see, never the whole matrix. The
//! (batch) pieces split over rayon's pool as the forward pass's do; each piece returns its
//! gradients packed, added into the operands' layouts afterwards in piece order, so a key or
//! query that several batches share (a broadcast head) sums its parts in one order whatever
//! the thread count.

use crate::alloc_prelude::*;

use super::attention::{run_pieces, work, Geometry, Operands};
use super::fold::pick;
use super::raw::{DotElement, Mat};
use super::summation::lanes;
use super::vmath::Transcendental;

/// Query rows per block of the backward pass.
const ROWS: usize = 128;

/// One batch's gradients, packed: the queries' (`rows × depth`), the keys' (`keys × depth`)
/// and the values' (`keys × cols`), row-major.
#[derive(Default)]
struct Piece<T> {
    dq: Vec<T>,
    dk: Vec<T>,
    dv: Vec<T>,
}

/// The gradients of the queries, keys and values (`lens` elements each, laid out as `ops`)
/// of the attention of `ops` by `g` with scores scaled by `scale`, given its output `out`
/// and the output's gradient `d_out` (both in the output's layout by `g`).
pub(crate) fn attend_backward<T>(
    ops: Operands<'_, T>,
    g: &Geometry,
    scale: T,
    (out, d_out): (&[T], &[T]),
    lens: [usize; 3],
) -> [Vec<T>; 3]
where
    T: DotElement + Transcendental + Default + Send + Sync,
{
    let batches = g.batch[0].len();
    let mut pieces: Vec<Piece<T>> = (0..batches).map(|_| Piece::default()).collect();
    let piece = |b: usize, p: &mut Piece<T>| *p = batch_backward(ops, g, scale, (out, d_out), b);
    // The backward does about twice the forward pass' multiply-adds.
    run_pieces(&mut pieces, work(g).saturating_mul(2), piece);
    let [mut dq, mut dk, mut dv] = lens.map(|n| vec![T::zero(); n]);
    let (depth, cols) = (g.depth[0].len(), g.cols[0].len());
    for (b, p) in pieces.iter().enumerate() {
        let [qb, kb, vb] = [0, 1, 2].map(|w| g.batch[w][b]);
        for (r, row) in p.dq.chunks_exact(depth.max(1)).enumerate() {
            let at = qb + g.rows[0][r];
            for (&o, &x) in g.depth[0].iter().zip(row) {
                dq[at + o] = dq[at + o] + x;
            }
        }
        for (j, row) in p.dk.chunks_exact(depth.max(1)).enumerate() {
            let at = kb + j * g.key_strides[0];
            for (&o, &x) in g.depth[1].iter().zip(row) {
                dk[at + o] = dk[at + o] + x;
            }
        }
        for (j, row) in p.dv.chunks_exact(cols.max(1)).enumerate() {
            let at = vb + j * g.key_strides[1];
            for (&o, &x) in g.cols[0].iter().zip(row) {
                dv[at + o] = dv[at + o] + x;
            }
        }
    }
    [dq, dk, dv]
}

/// A row-major `rows × cols` matrix at the start of a buffer, or its transpose.
fn dense(rows: usize, cols: usize, transposed: bool) -> Mat {
    if transposed {
        Mat::new(0, cols, rows, 1, cols)
    } else {
        Mat::new(0, rows, cols, cols, 1)
    }
}

/// Batch `b`'s gradients, block of query rows by block.
fn batch_backward<T>(
    ops: Operands<'_, T>,
    g: &Geometry,
    scale: T,
    (out, d_out): (&[T], &[T]),
    b: usize,
) -> Piece<T>
where
    T: DotElement + Transcendental + Default,
{
    let (rows, keys) = (g.rows[0].len(), g.keys);
    let (depth, cols) = (g.depth[0].len(), g.cols[0].len());
    let [qb, kb, vb, mb, ob, pb] = [0, 1, 2, 3, 4, 5].map(|w| g.batch[w][b]);
    // The batch's keys and values, packed row-major.
    let pack = |data: &[T], base: usize, stride: usize, inner: &[usize]| -> Vec<T> {
        let mut m = Vec::with_capacity(keys * inner.len());
        for j in 0..keys {
            let at = base + j * stride;
            m.extend(inner.iter().map(|&o| data[at + o]));
        }
        m
    };
    let k = pack(ops.k, kb, g.key_strides[0], &g.depth[1]);
    let v = pack(ops.v, vb, g.key_strides[1], &g.cols[0]);
    let mut piece = Piece {
        dq: vec![T::zero(); rows * depth],
        dk: vec![T::zero(); keys * depth],
        dv: vec![T::zero(); keys * cols],
    };
    for r0 in (0..rows).step_by(ROWS) {
        let block = r0..(r0 + ROWS).min(rows);
        let m = block.len();
        // The block's queries scaled, its output and the output's gradient, row-major.
        let (mut q, mut o, mut d_o) = (
            Vec::with_capacity(m * depth),
            Vec::with_capacity(m * cols),
            Vec::with_capacity(m * cols),
        );
        for r in block.clone() {
            let at = qb + g.rows[0][r];
            q.extend(g.depth[0].iter().map(|&x| ops.q[at + x] * scale));
            let at = ob + g.rows[2][r];
            o.extend(g.cols[1].iter().map(|&x| out[at + x]));
            d_o.extend(g.cols[1].iter().map(|&x| d_out[at + x]));
        }
        let positions: Vec<usize> = block.clone().map(|r| pb + g.rows[3][r]).collect();
        let seen = match g.causal {
            Some(offset) => {
                let last = positions.iter().max().copied().unwrap_or(0);
                keys.min(last.saturating_add(offset).saturating_add(1))
            }
            None => keys,
        };
        if seen == 0 {
            continue;
        }
        // P: the scores, masked and softmaxed row by row.
        let mut p = vec![T::zero(); m * seen];
        T::gemm(
            (&q, dense(m, depth, false)),
            (&k, dense(seen, depth, true)),
            (&mut p, dense(m, seen, false)),
            false,
            false,
        );
        for (i, r) in block.clone().enumerate() {
            let row = &mut p[i * seen..(i + 1) * seen];
            if let Some(mask) = ops.mask {
                let at = mb + g.rows[1][r];
                for (j, x) in row.iter_mut().enumerate() {
                    *x = *x + mask[at + j * g.key_strides[2]];
                }
            }
            if let Some(offset) = g.causal {
                let limit = positions[i].saturating_add(offset).saturating_add(1);
                row[limit.min(seen)..].fill(T::neg_infinity());
            }
            let top = lanes(row, T::neg_infinity(), pick::<true, T>);
            if top == T::neg_infinity() {
                // A row that sees no key: its output is NaN, and it passes nothing back.
                row.fill(T::zero());
                continue;
            }
            row.iter_mut().for_each(|x| *x = (*x - top).exp_v());
            let total = lanes(row, T::zero(), |a, b| a + b).recip();
            row.iter_mut().for_each(|x| *x = *x * total);
        }
        // dV += Pᵀ · dO.
        T::gemm(
            (&p, dense(m, seen, true)),
            (&d_o, dense(m, cols, false)),
            (&mut piece.dv[..seen * cols], dense(seen, cols, false)),
            true,
            false,
        );
        // dP = dO · Vᵀ, then dS = P ∘ (dP − D) in P's place.
        let mut dp = vec![T::zero(); m * seen];
        T::gemm(
            (&d_o, dense(m, cols, false)),
            (&v, dense(seen, cols, true)),
            (&mut dp, dense(m, seen, false)),
            false,
            false,
        );
        for i in 0..m {
            let row = i * cols..(i + 1) * cols;
            let d = d_o[row.clone()]
                .iter()
                .zip(&o[row])
                .fold(T::zero(), |s, (&a, &b)| s + a * b);
            let (ps, dps) = (
                &mut p[i * seen..(i + 1) * seen],
                &dp[i * seen..(i + 1) * seen],
            );
            ps.iter_mut()
                .zip(dps)
                .for_each(|(p, &dp)| *p = *p * (dp - d));
        }
        // dK += dSᵀ · (scale · Q); dQ = scale · dS · K.
        T::gemm(
            (&p, dense(m, seen, true)),
            (&q, dense(m, depth, false)),
            (&mut piece.dk[..seen * depth], dense(seen, depth, false)),
            true,
            false,
        );
        let dq = &mut piece.dq[r0 * depth..(r0 + m) * depth];
        T::gemm(
            (&p, dense(m, seen, false)),
            (&k[..seen * depth], dense(seen, depth, false)),
            (dq, dense(m, depth, false)),
            false,
            false,
        );
        dq.iter_mut().for_each(|x| *x = *x * scale);
    }
    piece
}
