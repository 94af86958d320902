//! The kernels backward passes share: a gradient over an output frame summed back onto one
//! operand's axes (the backward of a broadcast), an operand's values expanded into a frame
//! (the backward of a reduction), and the layouts of a contraction's two backward products.
//!
//! A frame is an output's sizes, row-major; an operand is placed in it by one side of a plan
//! (for each frame axis, the operand axis feeding it, `None` where it was inserted). An operand
//! axis of size 1 facing a larger frame axis was broadcast along it, as an inserted one was.

use crate::alloc_prelude::*;

use core::ops::Add;

use num_traits::Zero;

use super::conv_geometry::SideBySide;
use super::fold::Sum;
use super::fold_walk::walk;
use super::layout::{row_major, Strided};
use super::reduce::Source;
use super::split::{each_mut, piece_rows};
use super::zip_fn::{zip_framed, Parallel};
use crate::values::error::Error;

/// Whether frame axis `k` runs along operand axis `side[k]` (same size), rather than being
/// broadcast over.
pub(crate) fn runs_along(
    frame: &[usize],
    side: &[Option<usize>],
    operand: &[usize],
    k: usize,
) -> bool {
    matches!(side[k], Some(j) if operand.get(j) == Some(&frame[k]))
}

/// Whether the operand is the frame itself: its axes in the frame's order, of its sizes.
fn is_frame(frame: &[usize], side: &[Option<usize>], operand: &[usize]) -> bool {
    frame == operand && side.iter().enumerate().all(|(k, s)| *s == Some(k))
}

/// `g` (row-major over `frame`) summed onto an operand of sizes `operand` placed in the frame by
/// `side`: each operand cell receives the sum of the frame cells it fed (rule book §2 run
/// backwards). Row-major over `operand`; pairwise summation, split over threads as every
/// reduction is.
pub(crate) fn sum_onto<T>(
    frame: &[usize],
    side: &[Option<usize>],
    operand: &[usize],
    g: &[T],
) -> Vec<T>
where
    T: Copy + Zero + Add<Output = T> + Send + Sync,
{
    if is_frame(frame, side, operand) {
        return g.to_vec();
    }
    // The walk follows `g` in memory order (the frame's, row-major); each frame axis the
    // operand runs along steps through the operand's row-major cells, every other axis
    // stays on the cell (stride 0). A bias summed over leading axes is then a row added to
    // the output row after row (vectorised), not a column read down the frame.
    let strides = row_major(frame);
    let own = row_major(operand);
    let out_steps: Vec<usize> = (0..frame.len())
        .map(|k| match side[k] {
            Some(j) if runs_along(frame, side, operand, k) => own[j],
            _ => 0,
        })
        .collect();
    let mut out = vec![T::zero(); operand.iter().product()];
    walk(frame, (g, &strides), (&mut out, &out_steps), &Sum);
    out
}

/// [`sum_onto`] taking `g` itself: returned as it is when the operand is the frame.
pub(crate) fn sum_onto_owned<T>(
    frame: &[usize],
    side: &[Option<usize>],
    operand: &[usize],
    g: Vec<T>,
) -> Vec<T>
where
    T: Copy + Zero + Add<Output = T> + Send + Sync,
{
    if is_frame(frame, side, operand) {
        g
    } else {
        sum_onto(frame, side, operand, &g)
    }
}

/// `g` added at the positions `at` of a gradient of `len` zeros (the backward of a pick), in
/// order on the calling thread.
pub(crate) fn scatter_add<T: Copy + Zero + Add<Output = T>>(
    len: usize,
    at: &[usize],
    g: &[T],
) -> Vec<T> {
    let mut gx = vec![T::zero(); len];
    super::raw::advise_huge_pages(&gx);
    add_at(&mut gx, 0, at, g);
    gx
}

/// `g[i]` added to `gx[at[i] - base]`.
fn add_at<T: Copy + Zero + Add<Output = T>>(gx: &mut [T], base: usize, at: &[usize], g: &[T]) {
    for (&a, &v) in at.iter().zip(g) {
        gx[a - base] = gx[a - base] + v;
    }
}

/// [`scatter_add`] of a 2x2 max pool's gradient (`at` from the tensor layer's `max_pool_2d_argmax` over an
/// input of `sizes` pooled to `pooled`, windows side by side): the output's rows of windows split over threads in blocks, each
/// block adding into the input rows its windows cover, which no other block's reach.
pub(crate) fn scatter_pooled<T: Copy + Zero + Add<Output = T> + Send + Sync>(
    (sizes, pooled): (&[usize], &[usize]),
    at: &[usize],
    g: &[T],
) -> Vec<T> {
    let len = sizes.iter().product();
    let rank = sizes.len();
    if rank < 2 || pooled.len() != rank {
        return scatter_add(len, at, g);
    }
    let (h, w) = (sizes[rank - 2], sizes[rank - 1]);
    let (mh, mw) = (pooled[rank - 2], pooled[rank - 1]);
    let rows = at.len().checked_div(mw).unwrap_or(0);
    let windows = SideBySide::new((h, w), (mh, mw));
    let Some(windows) = windows.filter(|_| rows * mw == at.len() && g.len() == at.len()) else {
        return scatter_add(len, at, g);
    };
    let mut gx = vec![T::zero(); len];
    super::raw::advise_huge_pages(&gx);
    let per = piece_rows(rows, at.len());
    let mut pieces = Vec::with_capacity(rows.div_ceil(per));
    let mut rest: &mut [T] = &mut gx;
    let mut base = 0;
    for (i, (at, g)) in at.chunks(per * mw).zip(g.chunks(per * mw)).enumerate() {
        let end = if (i + 1) * per < rows {
            windows.top((i + 1) * per)
        } else {
            len
        };
        let (own, tail) = core::mem::take(&mut rest).split_at_mut(end - base);
        pieces.push((own, base, at, g));
        (rest, base) = (tail, end);
    }
    each_mut(&mut pieces, |_, (gx, base, at, g)| add_at(gx, *base, at, g));
    gx
}

/// `x` (row-major over `operand`) expanded into `frame` by `side`, each frame cell taking the
/// operand cell that feeds it, then `f(frame cell, g cell)` with `g` row-major over the frame:
/// the backward of a broadcast operand's partner (`g · b` for `a · b`) and of a reduction
/// (`f` returning `x`).
pub(crate) fn with_expanded<T, U, O>(
    frame: &[usize],
    g: &[U],
    (x, operand, side): (&[T], &[usize], &[Option<usize>]),
    f: impl Fn(&U, &T) -> O + Sync,
) -> Result<Vec<O>, Error>
where
    T: Sync,
    U: Sync,
    O: Send,
{
    let own: Vec<Option<usize>> = (0..frame.len()).map(Some).collect();
    let mut out = Vec::new();
    zip_framed(
        frame,
        (&own, side),
        (g, frame, None),
        (x, operand, None),
        &mut out,
        Parallel(f),
    )?;
    Ok(out)
}

/// `x` (row-major over `operand`) expanded into `frame` by `side`: each frame cell takes the
/// operand cell that feeds it (the backward of a reduction, whose kept axes are `side`).
pub(crate) fn expand<T: Copy + Send + Sync>(
    frame: &[usize],
    (x, operand, side): (&[T], &[usize], &[Option<usize>]),
) -> Result<Vec<T>, Error> {
    let mut out = Vec::new();
    zip_framed(
        frame,
        (side, side),
        (x, operand, None),
        (x, operand, None),
        &mut out,
        Parallel(|a: &T, _: &T| *a),
    )?;
    Ok(out)
}

/// `x` (row-major over `sizes`) summed over the axes `mask` marks, row-major over the rest.
pub(crate) fn sum_axes<T>(sizes: &[usize], mask: &[bool], x: &[T]) -> Vec<T>
where
    T: Copy + Zero + Add<Output = T> + Send + Sync,
{
    let strides = row_major(sizes);
    let source = Source {
        x: Strided {
            sizes,
            strides: &strides,
            data: x,
        },
        mask,
    };
    // Gradients are `f32` or `f64`: summed in their own type.
    source.fold(T::zero(), &Sum)
}

/// The kept axes of a reduction as one side of a plan: for each axis of the input, its
/// position among the kept axes, `None` where it is reduced.
pub(crate) fn kept_side(mask: &[bool]) -> Vec<Option<usize>> {
    let mut next = 0;
    mask.iter()
        .map(|&gone| {
            (!gone).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// The layout of one backward product of a contraction `c = a · b` (rule book §17): the
/// gradient of the left operand is `g · b` contracted over `b`'s own axes, with `a`'s axes as
/// its output; the right's is `a · g` over `a`'s own axes. `lhs`/`rhs` are the forward plan's
/// sides and `pairs` its contracted pairs, `left` says which operand's gradient is asked.
/// Returns the output sources for the two factors (`g` first for the left gradient, `a` first
/// for the right) and the pairs they contract.
pub(crate) struct Backward {
    /// For each axis of the operand whose gradient this is, the first factor's source axis.
    pub(crate) first: Vec<Option<usize>>,
    /// The same for the second factor.
    pub(crate) second: Vec<Option<usize>>,
    /// The contracted pairs (first factor's axis, second factor's axis).
    pub(crate) pairs: Vec<(usize, usize)>,
}

/// See [`Backward`]: the plan of `∂a = g · b` (`left`) or `∂b = a · g`, for operands of
/// sizes `sa`, `sb` and an output of sizes `sc`.
/// A contraction's plan: each output axis' left and right source, and the contracted pairs.
type ContractionPlan<'p> = (
    &'p [Option<usize>],
    &'p [Option<usize>],
    &'p [(usize, usize)],
);

pub(crate) fn contraction_backward(
    (lhs, rhs, pairs): ContractionPlan<'_>,
    (sa, sb, sc): (&[usize], &[usize], &[usize]),
    left: bool,
) -> Backward {
    // Name the two sides so that `mine` is the operand whose gradient is asked.
    let (mine, theirs, my_sizes, their_sizes) = if left {
        (lhs, rhs, sa, sb)
    } else {
        (rhs, lhs, sb, sa)
    };
    let my_rank = my_sizes.len();
    // `g` and the other operand, each indexed by its own axes; `first` is `g` for the left
    // gradient and the other operand for the right one, so the sources are swapped at the end.
    let (mut from_g, mut from_other) = (vec![None; my_rank], vec![None; my_rank]);
    let mut out_pairs: Vec<(usize, usize)> = Vec::new(); // (g axis, other axis)
    for &(pa, pb) in pairs {
        let (me, other) = if left { (pa, pb) } else { (pb, pa) };
        from_other[me] = Some(other);
    }
    for k in 0..sc.len() {
        match (mine[k], theirs[k]) {
            (Some(j), None) => from_g[j] = Some(k),
            (Some(j), Some(i)) if my_sizes[j] == sc[k] => {
                from_g[j] = Some(k);
                from_other[j] = Some(i);
            }
            // A batch axis this operand broadcast (size 1 against the output's): summed.
            (Some(_), Some(i)) => out_pairs.push((k, i)),
            (None, Some(i)) => out_pairs.push((k, i)),
            (None, None) => {}
        }
    }
    let _ = their_sizes;
    if left {
        Backward {
            first: from_g,
            second: from_other,
            pairs: out_pairs,
        }
    } else {
        Backward {
            first: from_other,
            second: from_g,
            pairs: out_pairs.into_iter().map(|(k, i)| (i, k)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broadcast_sums_back_onto_its_operand() {
        // [2, 3] framed from an operand [3] (right-aligned) and from [2, 1].
        let g = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(
            sum_onto(&[2, 3], &[None, Some(0)], &[3], &g),
            vec![5.0, 7.0, 9.0]
        );
        assert_eq!(
            sum_onto(&[2, 3], &[Some(0), Some(1)], &[2, 1], &g),
            vec![6.0, 15.0]
        );
        // A transposed operand [3, 2] feeding the frame's axes 1 and 0.
        assert_eq!(
            sum_onto(&[2, 3], &[Some(1), Some(0)], &[3, 2], &g),
            vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
        );
    }

    #[test]
    fn an_operand_expands_into_its_frame() {
        let g = [1.0f64; 6];
        let out = with_expanded(
            &[2, 3],
            &g,
            (&[10.0, 20.0], &[2], &[Some(0), None]),
            |g, x| g * x,
        );
        assert_eq!(out.unwrap(), vec![10.0, 10.0, 10.0, 20.0, 20.0, 20.0]);
    }
}
