//! Softmax, log-softmax and logsumexp: the reductions that exponentiate, on the walks of
//! [`fold_walk`](crate::engine::fold_walk). Three passes over the input for any axes and layout (each
//! cell's maximum; `exp(x - m)` with its sum; the division), or one pass per row, in cache,
//! when the reduced axes are the trailing ones of a row-major input (softmax over the last
//! axis). With the `rayon` feature the passes split as the walks do. `DynTensor`'s
//! `softmax`, `log_softmax` and their `_into` forms are here too.

use crate::alloc_prelude::*;

use num_traits::Float;

#[cfg(feature = "rayon")]
use crate::engine::fold_walk::{cut, row_split};
use crate::engine::fold_walk::{runs, walk};
use crate::engine::kernel::zip_map_ref;
use crate::engine::layout::Strided;
use crate::engine::raw;
use crate::engine::reduce::{lanes, pick, Dims, FoldOp, Source, Sum};
use crate::engine::vmath::{computes_wider, narrowed, widen_all, Transcendental};
use crate::tensor::dyn_tensor::DynTensor;
use crate::values::error::Error;
use crate::values::selector::{selected, AxisSelector};
use crate::values::shape::DynShape;

impl<T: Send + Sync> Source<'_, T> {
    /// `ln(sum(exp(x)))` of each cell, computed as `m + ln(sum(exp(x - m)))` with `m` the
    /// cell's maximum (0 when it is not finite), as SciPy does.
    pub(crate) fn logsumexp(&self, shape: impl Fn() -> DynShape) -> Vec<T>
    where
        T: Transcendental,
    {
        if computes_wider::<T>() {
            return narrowed(self.widened(|s| s.logsumexp(shape)));
        }
        let shift = self.shifts(shape);
        let mut acc: Vec<(T, T)> = shift.into_iter().map(|m| (m, T::zero())).collect();
        walk(
            self.x.sizes,
            (self.x.data, self.x.strides),
            (&mut acc, &self.out_strides()),
            &ExpSum,
        );
        acc.into_iter().map(|(m, s)| m + s.ln_v()).collect()
    }

    /// Each cell's maximum where it is finite, else 0 (the stable shift of exp); an empty cell
    /// shifts by 0.
    fn shifts(&self, shape: impl Fn() -> DynShape) -> Vec<T>
    where
        T: Float,
    {
        let max = match self.extreme::<true>(shape) {
            Ok(max) => max,
            Err(_) => vec![T::zero(); self.out_len()],
        };
        max.into_iter()
            .map(|m| if m.is_finite() { m } else { T::zero() })
            .collect()
    }

    /// Softmax (or, with `LOG`, log-softmax) along the reduced axes, in the input's shape and
    /// row-major order: three passes, as a hand loop makes them. The maximum `m` of each cell;
    /// then `y = exp(x - m)` written while its sum accumulates (for log-softmax only the sum);
    /// then `y / sum` (for log-softmax `x - m - ln(sum)`).
    pub(crate) fn softmax<const LOG: bool>(
        &self,
        shape: impl Fn() -> DynShape,
    ) -> Result<Vec<T>, Error>
    where
        T: Transcendental,
    {
        if computes_wider::<T>() {
            return self.widened(|s| s.softmax::<LOG>(shape)).map(narrowed);
        }
        // The output has the input's sizes: room for it (a broadcast view's sizes may hold
        // more than memory), and nothing to compute when it is empty.
        let total = crate::engine::allocation::ensure::<(T, T)>(self.x.sizes, &shape)?;
        if total == 0 {
            return Ok(Vec::new());
        }
        let strides = self.out_strides();
        if LOG {
            let lse = self.logsumexp(shape);
            let mut y = Vec::new();
            zip_map_ref(
                self.x.sizes,
                (self.x.data, self.x.strides),
                (&lse, &strides),
                &mut y,
                |x, l| *x - *l,
            )?;
            return Ok(y);
        }
        let own = Dims::row_major(self.x.sizes);
        if let Some(cell) =
            trailing_cell(self.x.sizes, self.mask).filter(|_| self.x.strides == &*own)
        {
            let mut y = vec![T::zero(); total];
            softmax_rows(Some(self.x.data), &mut y, cell);
            return Ok(y);
        }
        let shift = self.shifts(shape);
        let mut sums = vec![T::zero(); shift.len()];
        // y in the input's row-major order, written at the input's index: the walk runs over
        // the input's strides and the output cells', and y's offset is the row-major one.
        let mut y = vec![T::zero(); total];
        let (x, sx) = (self.x.data, self.x.strides);
        if sx == &*own {
            exps_parallel(
                self.x.sizes,
                (Some(x), &own),
                (&shift, &strides),
                &mut y,
                &mut sums,
            );
        } else {
            // A strided view: y is written in its own order, then summed.
            zip_map_ref(self.x.sizes, (x, sx), (&shift, &strides), &mut y, |x, m| {
                (*x - *m).exp_v()
            })?;
            walk(self.x.sizes, (&y, &own), (&mut sums, &strides), &Sum);
        }
        walk(self.x.sizes, (&sums, &strides), (&mut y, &own), &DivBy);
        Ok(y)
    }

    /// [`softmax`](Self::softmax) written over a row-major input's own buffer: the same
    /// passes, the exponentials (or, with `LOG`, the differences) stored where the inputs
    /// were, so nothing the input's size is allocated.
    pub(crate) fn softmax_in_place<const LOG: bool>(sizes: &[usize], mask: &[bool], data: &mut [T])
    where
        T: Transcendental,
    {
        if data.is_empty() {
            return;
        }
        if computes_wider::<T>() {
            let mut wide = widen_all(data);
            Source::<T::Wide>::softmax_in_place::<LOG>(sizes, mask, &mut wide);
            for (y, w) in data.iter_mut().zip(wide) {
                *y = T::narrow(w);
            }
            return;
        }
        if let Some(cell) = trailing_cell(sizes, mask).filter(|_| !LOG) {
            softmax_rows(None, data, cell);
            return;
        }
        let own = Dims::row_major(sizes);
        let source = Source {
            x: Strided {
                sizes,
                strides: &own,
                data: &*data,
            },
            mask,
        };
        let strides = source.out_strides();
        // The shape is named only by an empty axis's error, which non-empty data cannot
        // have: the sizes alone serve.
        let shape = || DynShape::from_sizes(sizes).unwrap_or_default();
        if LOG {
            let lse = source.logsumexp(shape);
            walk(sizes, (&lse, &strides), (data, &own), &SubtractIt);
            return;
        }
        let shift = source.shifts(shape);
        let mut sums = vec![T::zero(); shift.len()];
        exps_parallel(sizes, (None, &own), (&shift, &strides), data, &mut sums);
        walk(sizes, (&sums, &strides), (data, &own), &DivBy);
    }
}

struct ExpSum;
impl<T: Transcendental> FoldOp<T, (T, T)> for ExpSum {
    #[inline(always)]
    fn step(&self, acc: &mut (T, T), x: &T) {
        acc.1 = acc.1 + (*x - acc.0).exp_v();
    }
}

struct DivBy;
impl<T: Float> FoldOp<T, T> for DivBy {
    #[inline(always)]
    fn step(&self, acc: &mut T, x: &T) {
        *acc = *acc / *x;
    }
}

/// Each element less its cell's value (log-softmax's last pass).
struct SubtractIt;
impl<T: Float> FoldOp<T, T> for SubtractIt {
    #[inline(always)]
    fn step(&self, acc: &mut T, x: &T) {
        *acc = *acc - *x;
    }
}

/// The element count of one cell when the reduced axes are the trailing ones (softmax over
/// the last axis, the common case): each cell is then a contiguous row of a row-major input.
fn trailing_cell(sizes: &[usize], mask: &[bool]) -> Option<usize> {
    let first = mask.iter().position(|&g| g)?;
    mask[first..]
        .iter()
        .all(|&g| g)
        .then(|| sizes[first..].iter().product())
}

/// Softmax of each row of `cell` elements, the row in cache for all three steps: its maximum
/// `m` (NaN if it holds one; a shift of 0 when not finite, as [`Source::shifts`]), then
/// `exp(x - m)` and their sum, then the division: the operations the general passes make
/// on a cell that is one contiguous run, in the same order, so the same bits. `x` of `None`
/// reads the input from `y`. With the `rayon` feature, rows split over threads as
/// [`rows_per_piece`](crate::engine::split::rows_per_piece) says.
fn softmax_rows<T: Transcendental>(x: Option<&[T]>, y: &mut [T], cell: usize) {
    #[cfg(feature = "rayon")]
    if let Some(rows) = crate::engine::split::rows_per_piece(y.len() / cell, y.len()) {
        let per = rows * cell;
        crate::engine::threads::chunks(y, per, |i, y| {
            let x = x.map(|x| &x[i * per..i * per + y.len()]);
            softmax_rows_here(x, y, cell);
        });
        return;
    }
    softmax_rows_here(x, y, cell);
}

/// [`softmax_rows`] on the calling thread.
fn softmax_rows_here<T: Transcendental>(x: Option<&[T]>, y: &mut [T], cell: usize) {
    for (i, y) in y.chunks_mut(cell).enumerate() {
        let x = x.map(|x| &x[i * cell..(i + 1) * cell]);
        let m = lanes(x.unwrap_or(y), T::neg_infinity(), pick::<true, T>);
        let m = if m.is_finite() { m } else { T::zero() };
        let f = move |v: T| (v - m).exp_v();
        match x {
            Some(x) => raw::map_into_slice(x, y, f),
            None => raw::map_slice_in_place(y, f),
        }
        let s = T::zero() + lanes(y, T::zero(), |a, b| a + b);
        raw::map_slice_in_place(y, move |v| v / s);
    }
}

/// Softmax's middle pass over a row-major input `x`: `y = exp(x - m)` with `m` the cell's
/// shift, each cell's sum accumulating alongside (`strides`: the cells' strides in the input's
/// frame). With the `rayon` feature a large pass splits as [`walk`] does, the pieces owning
/// disjoint rows of `y` and of the sums.
fn exps_parallel<T: Transcendental>(
    sizes: &[usize],
    (x, own): (Option<&[T]>, &[usize]),
    (shift, strides): (&[T], &[usize]),
    y: &mut [T],
    sums: &mut [T],
) {
    #[cfg(feature = "rayon")]
    if let Some((k, per_piece)) = row_split(sizes, strides, sums.len()) {
        crate::engine::threads::chunks2(
            (y, per_piece * own[k]),
            (sums, per_piece * strides[k]),
            |i, y, sums| {
                let start = i * per_piece;
                let sub = cut(sizes, k, sums.len() / strides[k]);
                let x = x.map(|x| &x[start * own[k]..]);
                let shift = &shift[start * strides[k]..];
                exps(&sub[..sizes.len()], (x, own), (shift, strides), y, sums);
            },
        );
        return;
    }
    exps(sizes, (x, own), (shift, strides), y, sums);
}

/// [`exps_parallel`] on the calling thread; `x` of `None` reads the input from `y` itself
/// (softmax into its input's buffer).
fn exps<T: Transcendental>(
    sizes: &[usize],
    (x, own): (Option<&[T]>, &[usize]),
    (shift, strides): (&[T], &[usize]),
    y: &mut [T],
    sums: &mut [T],
) {
    runs(sizes, own, strides, |oa, ob, n, ia, ib| {
        match (ia, ib) {
            // A run along the reduced axis: one shift; the run's exps, then their sum
            // while the run is in cache (the exp loop keeps nothing live across calls).
            (1, 0) => {
                let m = shift[ob];
                let ys = &mut y[oa..oa + n];
                let f = move |x: T| (x - m).exp_v();
                match x {
                    Some(x) => raw::map_into_slice(&x[oa..oa + n], ys, f),
                    None => raw::map_slice_in_place(ys, f),
                }
                sums[ob] = sums[ob] + lanes(ys, T::zero(), |a, b| a + b);
            }
            // A run along a kept axis: a row of shifts and of sums.
            (1, 1) => {
                let cells = sums[ob..ob + n].iter_mut().zip(&shift[ob..ob + n]);
                let ys = y[oa..oa + n].iter_mut();
                match x {
                    Some(x) => {
                        for ((y, &x), (t, &m)) in ys.zip(&x[oa..oa + n]).zip(cells) {
                            *y = (x - m).exp_v();
                            *t = *t + *y;
                        }
                    }
                    None => {
                        for (y, (t, &m)) in ys.zip(cells) {
                            *y = (*y - m).exp_v();
                            *t = *t + *y;
                        }
                    }
                }
            }
            _ => {
                for j in 0..n {
                    let (k, c) = (oa + j * ia, ob + j * ib);
                    let e = (x.map_or(y[k], |x| x[k]) - shift[c]).exp_v();
                    y[k] = e;
                    sums[c] = sums[c] + e;
                }
            }
        }
    });
}

/// The run-time family on `DynTensor`: selectors known at run time.
impl<T: Transcendental> DynTensor<T> {
    /// Softmax (`LOG`: log-softmax) along the selected axes, in this tensor's shape.
    fn softmax_family<const LOG: bool>(
        &self,
        axes: &[AxisSelector],
    ) -> Result<DynTensor<T>, Error> {
        self.with_source(axes, |s, shape| {
            Ok(DynTensor::from_parts(
                self.shape().clone(),
                self.sizes().to_vec(),
                s.softmax::<LOG>(shape)?,
            ))
        })
    }

    /// Softmax along the selected axes, in this tensor's shape.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[CLASS: 2]".parse()?, vec![0.0f64, 0.0])?;
    /// assert_eq!(t.softmax(&["CLASS".parse()?])?.data(), &[0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn softmax(&self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
    where
        T: Transcendental,
    {
        self.softmax_family::<false>(axes)
    }

    /// Log-softmax along the selected axes, in this tensor's shape.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[CLASS: 2]".parse()?, vec![0.0f64, 0.0])?;
    /// assert_eq!(t.log_softmax(&["CLASS".parse()?])?.data(), &[-(2f64.ln()), -(2f64.ln())]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn log_softmax(&self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
    where
        T: Transcendental,
    {
        self.softmax_family::<true>(axes)
    }

    /// [`softmax`](Self::softmax) written into this tensor's own buffer: no allocation the
    /// tensor's size, for a tensor not needed afterwards.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[CLASS: 2]".parse()?, vec![0.0f64, 0.0])?;
    /// assert_eq!(t.softmax_into(&["CLASS".parse()?])?.data(), &[0.5, 0.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn softmax_into(self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
    where
        T: Transcendental,
    {
        self.normalised_in_place::<false>(axes)
    }

    /// [`log_softmax`](Self::log_softmax) written into this tensor's own buffer.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let t = DynTensor::from_vec("[CLASS: 2]".parse()?, vec![0.0f64, 0.0])?;
    /// let l = t.log_softmax_into(&["CLASS".parse()?])?;
    /// assert_eq!(l.data(), &[-(2f64.ln()), -(2f64.ln())]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn log_softmax_into(self, axes: &[AxisSelector]) -> Result<DynTensor<T>, Error>
    where
        T: Transcendental,
    {
        self.normalised_in_place::<true>(axes)
    }

    fn normalised_in_place<const LOG: bool>(
        mut self,
        axes: &[AxisSelector],
    ) -> Result<DynTensor<T>, Error>
    where
        T: Transcendental,
    {
        let mask = selected(self.shape(), axes)?;
        let sizes = Dims::from_iter(self.sizes().iter().copied());
        Source::softmax_in_place::<LOG>(&sizes, &mask, self.data_mut());
        Ok(self)
    }
}
