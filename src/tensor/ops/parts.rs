//! One parallel region over the parts of a tensor: [`Parts::map_parts`] cuts a tensor or
//! view along a named axis into one part per thread, runs a closure on each part on its own
//! thread (every operation inside it unsplit), and concatenates the results along the same
//! axis; `DynTensor::map_parts` is its run-time twin. A chain of operations on the same rows
//! (a norm, products, a gate, a residual) then hands work to the threads once, not once per
//! operation.
//!
//! ```
//! use shapecast::{names, shape, Dot, Norms, Parts, Tensor};
//! names!(SEQ, DIM, HIDDEN);
//! let x = Tensor::<f32, shape![SEQ, DIM: 4]>::from_fn(&[6, 4], |i| (i[0] + i[1]) as f32)?;
//! let g = Tensor::<f32, shape![DIM: 4]>::from_array([1.0; 4]);
//! let w = Tensor::<f32, shape![HIDDEN: 3, DIM: 4]>::from_fn(&[3, 4], |i| i[1] as f32)?;
//! // The norm and the product of each part of the rows run on one thread.
//! let y = x.map_parts::<SEQ, _, _>(|rows, _| Ok(rows.rms_norm::<DIM>(&g, 1e-6).dot::<DIM>(&w)))?;
//! assert_eq!(y.data(), x.rms_norm::<DIM>(&g, 1e-6).dot::<DIM>(&w).data());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::ops::Range;

use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::ops::surgery::concat;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::tensor::view::TensorView;
use crate::typed::reduce::OneAxis;
use crate::typed::size::Dyn;
use crate::typed::storage::Storage;
use crate::typed::surgery::{Slice, SliceAxis};
use crate::values::error::Error;
use crate::values::selector::AxisSelector;

/// The ranges of `n` positions cut into one part per thread (at most `n` parts; one part
/// without the `rayon` feature or with one thread).
fn ranges(n: usize) -> Vec<Range<usize>> {
    let per = n
        .div_ceil(crate::engine::split::threads().clamp(1, n.max(1)))
        .max(1);
    (0..n.div_ceil(per).max(1))
        .map(|i| i * per..((i + 1) * per).min(n))
        .collect()
}

/// `f` on each range, the ranges over rayon's pool (every operation inside `f` on the thread
/// that runs it) with the `rayon` feature; the results in order, or the first error.
fn run<R: Send>(
    ranges: &[Range<usize>],
    f: impl Fn(Range<usize>) -> Result<R, Error> + Sync,
) -> Result<Vec<R>, Error> {
    #[cfg(feature = "rayon")]
    if ranges.len() > 1 {
        return crate::engine::threads::parts(ranges.len(), |i| f(ranges[i].clone()))
            .into_iter()
            .collect();
    }
    ranges.iter().map(|r| f(r.clone())).collect()
}

/// `use shapecast::prelude::*` (or `use shapecast::Parts`) to call
/// `x.map_parts::<A, _, _>(f)`.
///
/// One parallel region over a tensor's parts, on tensors and views: the axis `A` picks is cut
/// into one part per thread of rayon's pool (one part, the whole tensor, without the `rayon`
/// feature or with one thread); `f` runs on each part (a view whose `A` has size `?`) with
/// its range of positions along `A`, each part on its own thread, and every operation inside
/// `f` stays on that thread; the results, each holding the axis `A`, are concatenated along
/// it. It pays for a chain of operations on the same rows, each too small to split well on
/// its own (a decoder layer's norm, products and gate over a prompt's positions:
/// `docs/performance.md`, fused blocks).
///
/// ```
/// use shapecast::{names, shape, Parts, Tensor};
/// names!(SEQ, DIM);
/// let x = Tensor::<f32, shape![SEQ: 5, DIM: 2]>::full(0.0)?;
/// // Each part learns where it lies: `at` is its range of positions along SEQ.
/// let y = x.map_parts::<SEQ, _, _>(|rows, at| {
///     Tensor::<f32, shape![SEQ, DIM: 2]>::from_fn(rows.sizes(), |i| (at.start + i[0]) as f32)
/// })?;
/// assert_eq!(y.data(), &[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Parts: Contractible + Sized {
    /// `f` on the parts of `self` cut along `A`, one part per thread, the results
    /// concatenated along `A` (see the [trait docs](Parts)). `f` gets a part and the range
    /// of positions along `A` it covers. Errors: `f`'s first error, or the concatenation's
    /// when the parts' results differ on another axis.
    ///
    /// ```
    /// use shapecast::{names, shape, FloatMath, Parts, Tensor};
    /// names!(SEQ, DIM);
    /// let x = Tensor::<f32, shape![SEQ, DIM: 3]>::from_fn(&[4, 3], |i| i[1] as f32)?;
    /// let y = x.view().map_parts::<SEQ, _, _>(|rows, _| Ok(rows.silu()))?;
    /// assert_eq!(y.data(), (&x).silu().data());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn map_parts<A, U, S2>(
        &self,
        f: impl Fn(
                TensorView<'_, Self::Elem, Slice<Self::Shape, A>>,
                Range<usize>,
            ) -> Result<Tensor<U, S2>, Error>
            + Sync,
    ) -> Result<Tensor<U, Slice<S2, A>>, Error>
    where
        A: OneAxis,
        Self::Shape: SliceAxis<A, Dyn>,
        Self::Elem: Sync,
        S2: Storage<U> + SliceAxis<A, Dyn>,
        U: Clone + Send,
    {
        let mut own = Own::default();
        let layout = self.layout(&mut own);
        let (data, sizes, strides) = (layout.data, layout.sizes, layout.strides);
        let at = <Self::Shape as SliceAxis<A, Dyn>>::AT;
        // Each part's view is made on its thread, and its result crosses back as its sizes
        // and data.
        let outs = run(&ranges(sizes[at]), |r| {
            let whole = TensorView::<Self::Elem, Self::Shape>::from_parts(
                data,
                sizes.to_vec(),
                strides.to_vec(),
            );
            let out = f(whole.slice::<A>(r.clone())?, r)?;
            Ok((out.sizes().to_vec(), out.into_vec()))
        })?;
        if let [(sizes, _)] = &outs[..] {
            // One part: its result, the axis `A` as `?`, without a copy.
            let sizes = sizes.clone();
            let data = outs.into_iter().next().map(|o| o.1).unwrap_or_default();
            return Ok(Tensor::from_parts(&sizes, data));
        }
        let views: Vec<TensorView<'_, U, S2>> = outs
            .iter()
            .map(|(sizes, data)| {
                let strides = crate::engine::layout::row_major(sizes);
                TensorView::from_parts(data, sizes.clone(), strides)
            })
            .collect();
        concat::<A, U, S2>(&views)
    }
}

impl<X: Contractible> Parts for X {}

impl<T: Clone + Sync> DynTensor<T> {
    /// `f` on the parts of this tensor cut along `axis`, one part per thread of rayon's pool
    /// (one part, the whole tensor, without the `rayon` feature or with one thread), each
    /// with its range of positions along `axis`; every operation inside `f` stays on the
    /// thread that runs it; the results are concatenated along `axis` (the run-time twin of
    /// [`Parts::map_parts`]). Errors: an axis the shape lacks, `f`'s first error, or the
    /// concatenation's.
    ///
    /// ```
    /// use shapecast::{DynTensor, FloatMath};
    /// let x = DynTensor::from_vec("[SEQ: 4, DIM: 2]".parse()?, vec![1.0f32; 8])?;
    /// let y = x.map_parts(&"SEQ".parse()?, |rows, _| Ok(rows.silu()))?;
    /// assert_eq!(y.shape(), x.shape());
    /// assert_eq!(y.data(), (&x).silu().data());
    /// assert!(x.map_parts(&"HEAD".parse()?, |rows, _| Ok(rows)).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn map_parts<U: Clone + Send>(
        &self,
        axis: &AxisSelector,
        f: impl Fn(DynTensor<T>, Range<usize>) -> Result<DynTensor<U>, Error> + Sync,
    ) -> Result<DynTensor<U>, Error> {
        let at = crate::dynamic::surgery::find("map_parts", self.shape(), axis)?;
        let all = ranges(self.sizes()[at]);
        if let [one] = &all[..] {
            return f(self.clone(), one.clone());
        }
        let outs = run(&all, |r| f(self.slice(axis, r.clone())?, r))?;
        let refs: Vec<&DynTensor<U>> = outs.iter().collect();
        DynTensor::concat(axis, &refs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_cover_every_position_once_in_order() {
        for n in 0..40 {
            let all = ranges(n);
            assert!(!all.is_empty() && all.len() <= crate::engine::split::threads().max(1));
            assert_eq!(all[0].start, 0);
            assert_eq!(all.last().map(|r| r.end), Some(n));
            for w in all.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert!(!w[1].is_empty());
            }
        }
    }
}
