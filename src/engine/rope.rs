//! Rotary position embeddings in one pass: every feature pair of every row turned by its
//! position's angle, read once and written once. The pairs are adjacent features
//! `(2i, 2i + 1)` (Meta's Llama, llama2.c, GPT-J) or the two halves `(i, i + d/2)` (Hugging
//! Face's Llama, GPT-NeoX); the cosines and sines come from a table per position and pair.

use crate::alloc_prelude::*;

use num_traits::Float;

/// Where the pair `i` of a row sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pairs {
    /// `(2i, 2i + 1)`.
    Adjacent,
    /// `(i, i + half)`.
    Halves,
}

/// Where a rotation reads and writes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Geometry {
    /// Per row: the input's offset, the output's, and the row's position.
    pub rows: [Vec<usize>; 3],
    /// The features' stride in the input and in the output.
    pub feature: [usize; 2],
    /// The number of pairs (half the features).
    pub half: usize,
}

/// `x` rotated by `g`, with `cos` and `sin` the table (`half` entries a position, row-major):
/// `len` output elements, every one written.
pub(crate) fn rotate<T: Float + Send + Sync>(
    pairs: Pairs,
    x: &[T],
    (cos, sin): (&[T], &[T]),
    g: &Geometry,
    len: usize,
) -> Vec<T> {
    let mut out = vec![T::zero(); len];
    let half = g.half;
    let [sx, so] = g.feature;
    let (a, b) = match pairs {
        Pairs::Adjacent => (2, 1),
        Pairs::Halves => (1, half),
    };
    let one_row = |r: usize, y: &mut [T], base: usize| {
        let (xo, p) = (g.rows[0][r], g.rows[2][r]);
        let (c, s) = (
            &cos[p * half..(p + 1) * half],
            &sin[p * half..(p + 1) * half],
        );
        if sx == 1 && so == 1 {
            // Contiguous features: the pairs as slices, which vectorise.
            let (x, y) = (&x[xo..xo + 2 * half], &mut y[base..base + 2 * half]);
            match pairs {
                Pairs::Adjacent => {
                    let pairs = y.chunks_exact_mut(2).zip(x.chunks_exact(2));
                    for ((y, x), (&c, &s)) in pairs.zip(c.iter().zip(s)) {
                        y[0] = x[0] * c - x[1] * s;
                        y[1] = x[0] * s + x[1] * c;
                    }
                }
                Pairs::Halves => {
                    let ((x1, x2), (y1, y2)) = (x.split_at(half), y.split_at_mut(half));
                    for i in 0..half {
                        y1[i] = x1[i] * c[i] - x2[i] * s[i];
                        y2[i] = x1[i] * s[i] + x2[i] * c[i];
                    }
                }
            }
            return;
        }
        for i in 0..half {
            let (j, k) = (i * a, i * a + b);
            let (u, v) = (x[xo + j * sx], x[xo + k * sx]);
            y[base + j * so] = u * c[i] - v * s[i];
            y[base + k * so] = u * s[i] + v * c[i];
        }
    };
    let rows = g.rows[0].len();
    let cell = 2 * half;
    #[cfg(feature = "rayon")]
    if so == 1
        && g.rows[1].iter().enumerate().all(|(r, &o)| o == r * cell)
        && let Some(per) =
            super::split::rows_per_piece_from(rows, len, super::split::FUSED_MIN_ELEMENTS)
    {
        super::threads::chunks(&mut out, per * cell, |piece, chunk| {
            for k in 0..chunk.len() / cell {
                one_row(piece * per + k, chunk, k * cell);
            }
        });
        return out;
    }
    let _ = cell;
    for r in 0..rows {
        let at = g.rows[1][r];
        one_row(r, &mut out, at);
    }
    out
}
