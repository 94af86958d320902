//! Pooling on data (rule book §20; the shape comes from
//! [`dynamic::pool`](crate::dynamic::pool)): `max_pool` and `avg_pool` over named axes, on
//! typed tensors and views (output sizes computed at compile time) and on `DynTensor`. One
//! walk over the output in row-major order; each element folds the part of its window inside
//! the input, read through the input's strides (a view is not copied).

use crate::alloc_prelude::*;

use num_traits::Float;

use super::dyn_tensor::DynTensor;
use super::gemm_loop::Side;
use super::reduce::pick;
use super::typed::Tensor;
use super::view::TensorView;
use crate::dynamic::pool::{pool, PoolSpec, Pooled};
use crate::dynamic::selector::AxisSelector;
use crate::error::{Error, OrPanic};
use crate::typed::pool::{PoolGeometry, PoolOver, Pooled as PooledShape};
use crate::typed::reduce::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;

/// Each output element of a pool of `x` by the plan `p`: `f(window, divisor)` where the
/// window yields the elements inside the input and the divisor is the average's (the
/// window's length with or without the padding, per the spec). The output's sizes and data.
fn windows<T: Copy, O>(
    p: &Pooled,
    spec: &PoolSpec,
    x: Side<'_, T>,
    mut f: impl FnMut(&mut dyn Iterator<Item = T>, usize) -> O,
) -> Result<(Vec<usize>, Vec<O>), Error> {
    let mut sizes = x.sizes.to_vec();
    for &k in &p.axes {
        sizes[k] = out_len(x.sizes[k], spec);
    }
    let shape = || p.shape.resolve(&sizes).unwrap_or_else(|_| p.shape.clone());
    let total = super::room::ensure::<O>(&sizes, shape)?;
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return Ok((sizes, out));
    }
    let rank = sizes.len();
    let mut index = vec![0usize; rank];
    // Per pooled axis: the window's range inside the input, and its length with padding.
    let mut lo = vec![0usize; rank];
    let mut hi = vec![0usize; rank];
    let mut tap = vec![0usize; rank];
    let (s, pad) = (spec.stride as isize, spec.padding as isize);
    for _ in 0..total {
        let mut base = 0;
        let mut divisor = 1;
        for k in 0..rank {
            if p.axes.contains(&k) {
                let n = x.sizes[k] as isize;
                let start = index[k] as isize * s - pad;
                let end = (start + spec.kernel as isize).min(n + pad);
                lo[k] = start.max(0) as usize;
                hi[k] = end.min(n).max(start.max(0)) as usize;
                divisor *= if spec.count_padding {
                    (end - start) as usize
                } else {
                    hi[k] - lo[k]
                };
            } else {
                base += index[k] * x.strides[k];
                lo[k] = 0;
                hi[k] = 1;
            }
        }
        let empty = p.axes.iter().any(|&k| lo[k] >= hi[k]);
        tap.copy_from_slice(&lo);
        let mut done = empty;
        let mut window = core::iter::from_fn(|| {
            if done {
                return None;
            }
            let at = base + p.axes.iter().map(|&k| tap[k] * x.strides[k]).sum::<usize>();
            // Next tap, row-major over the pooled axes.
            done = true;
            for &k in p.axes.iter().rev() {
                tap[k] += 1;
                if tap[k] < hi[k] {
                    done = false;
                    break;
                }
                tap[k] = lo[k];
            }
            Some(x.data[at])
        });
        out.push(f(&mut window, divisor));
        // Next output index, row-major.
        for k in (0..rank).rev() {
            index[k] += 1;
            if index[k] < sizes[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Ok((sizes, out))
}

/// The output length along a pooled axis (the plan checked it exists).
fn out_len(n: usize, spec: &PoolSpec) -> usize {
    crate::dynamic::conv::out_size(n, spec.kernel, spec.stride, spec.padding, 1, spec.ceil)
        .expect("the plan checked the window fits")
}

/// The maximum of a window (NaN propagates, as in PyTorch); every window holds at least one
/// element of the input (padding is at most half the kernel, and PyTorch's ceil rule drops a
/// window that would start in the padding).
fn max_of<T: Copy + PartialOrd>(w: &mut dyn Iterator<Item = T>, _: usize) -> T {
    let first = w.next().expect("a window holds an element of the input");
    w.fold(first, pick::<true, T>)
}

/// The average of a window: its sum over the divisor.
fn mean_of<T: Float>(w: &mut dyn Iterator<Item = T>, divisor: usize) -> T {
    let sum = w.fold(T::zero(), |a, b| a + b);
    sum / T::from(divisor).unwrap_or_else(T::infinity)
}

impl<T: Copy> DynTensor<T> {
    /// The maximum over windows along the selected axes (rule book §20): PyTorch's
    /// `max_pool1d/2d/3d` by name, the pooled axes keeping their names; or the error of
    /// [`dynamic::pool::pool`](crate::dynamic::pool::pool). NaN propagates.
    ///
    /// ```
    /// use shapecast::{dynamic::pool::PoolSpec, DynTensor};
    /// let x = DynTensor::from_fn("[C: 1, H: 4, W: 5]".parse()?, |i| (i[1] * 5 + i[2]) as f32)?;
    /// let y = x.max_pool(&["H".parse()?, "W".parse()?], &PoolSpec::new(2))?;
    /// assert_eq!(y.shape().to_string(), "[C: 1, H: 2, W: 2]");
    /// assert_eq!(y.data(), &[6.0, 8.0, 16.0, 18.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn max_pool(&self, axes: &[AxisSelector], spec: &PoolSpec) -> Result<DynTensor<T>, Error>
    where
        T: PartialOrd,
    {
        self.pooled(axes, spec, max_of)
    }

    /// The average over windows along the selected axes (rule book §20): PyTorch's
    /// `avg_pool1d/2d/3d` by name (`count_include_pad` is
    /// [`PoolSpec::count_padding`]); or the error of
    /// [`dynamic::pool::pool`](crate::dynamic::pool::pool).
    ///
    /// ```
    /// use shapecast::{dynamic::pool::PoolSpec, DynTensor};
    /// let x = DynTensor::from_vec("[T: 5]".parse()?, vec![1.0f64, 2.0, 3.0, 4.0, 5.0])?;
    /// let y = x.avg_pool(&["T".parse()?], &PoolSpec::new(2).ceil_mode(true))?;
    /// assert_eq!(y.data(), &[1.5, 3.5, 5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn avg_pool(&self, axes: &[AxisSelector], spec: &PoolSpec) -> Result<DynTensor<T>, Error>
    where
        T: Float,
    {
        self.pooled(axes, spec, mean_of)
    }

    fn pooled(
        &self,
        axes: &[AxisSelector],
        spec: &PoolSpec,
        f: impl FnMut(&mut dyn Iterator<Item = T>, usize) -> T,
    ) -> Result<DynTensor<T>, Error> {
        let plan = pool(self.shape(), axes, spec)?;
        let strides = super::kernel::row_major(self.sizes());
        let (sizes, data) = windows(
            &plan,
            spec,
            Side {
                sizes: self.sizes(),
                strides: &strides,
                data: self.data(),
            },
            f,
        )?;
        Ok(DynTensor::from_parts(plan.shape, sizes, data))
    }
}

/// The typed pools of a tensor and a view.
macro_rules! typed_pools {
    ($($header:tt)*) => {
        $($header)* {
            /// The maximum over windows along the axes `A` selects (a name or a tuple of names)
            /// with the geometry `P` ([`Pool<KERNEL, STRIDE, PADDING, CEIL>`](crate::Pool)),
            /// rule book §20: PyTorch's `max_pool` by name, the output sizes computed at
            /// compile time where the input's are static. NaN propagates.
            ///
            /// # Panics
            ///
            /// When a window is longer than a padded axis of run-time size;
            /// [`try_max_pool`](Self::try_max_pool) returns the error instead.
            ///
            /// ```
            /// use shapecast::{names, shape, Pool, Tensor};
            /// names!(C, H, W);
            /// let x = Tensor::<f32, shape![C: 1, H: 5, W: 4]>::from_fn(&[1, 5, 4], |i| (i[1] * 4 + i[2]) as f32)?;
            /// // 2 x 2 windows; the odd row is dropped, as PyTorch drops it.
            /// let y: Tensor<f32, shape![C: 1, H: 2, W: 2]> = x.max_pool::<(H, W), Pool<2>>();
            /// assert_eq!(y.data(), &[5.0, 7.0, 13.0, 15.0]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            #[track_caller]
            pub fn max_pool<A, P>(&self) -> Tensor<T, PooledShape<S, A, P>>
            where
                A: Selector,
                P: PoolGeometry,
                S: PoolOver<A, P>,
                PooledShape<S, A, P>: Storage<T>,
                T: Copy + PartialOrd,
            {
                self.try_max_pool::<A, P>().or_panic()
            }

            /// [`max_pool`](Self::max_pool), or the error when a window does not fit an axis
            /// of run-time size.
            ///
            /// ```
            /// use shapecast::{names, shape, Pool, Tensor};
            /// names!(T);
            /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[1], vec![1.0])?;
            /// assert!(x.try_max_pool::<T, Pool<2>>().is_err());
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn try_max_pool<A, P>(&self) -> Result<Tensor<T, PooledShape<S, A, P>>, Error>
            where
                A: Selector,
                P: PoolGeometry,
                S: PoolOver<A, P>,
                PooledShape<S, A, P>: Storage<T>,
                T: Copy + PartialOrd,
            {
                self.typed_pool::<A, P, _>(max_of)
            }

            /// The average over windows along the axes `A` selects with the geometry `P`
            /// ([`Pool<KERNEL, STRIDE, PADDING, CEIL>`](crate::Pool); the padding counts, as
            /// PyTorch's `count_include_pad` default), rule book §20.
            ///
            /// # Panics
            ///
            /// When a window is longer than a padded axis of run-time size;
            /// [`try_avg_pool`](Self::try_avg_pool) returns the error instead.
            ///
            /// ```
            /// use shapecast::{names, shape, Pool, Tensor};
            /// names!(T);
            /// let x = Tensor::<f64, shape![T: 5]>::from_array([1.0, 2.0, 3.0, 4.0, 5.0]);
            /// // Kernel 3, stride 2, padding 1: the padding's zeros count.
            /// let y: Tensor<f64, shape![T: 3]> = x.avg_pool::<T, Pool<3, 2, 1>>();
            /// assert_eq!(y.data(), &[1.0, 3.0, 3.0]);
            /// ```
            #[track_caller]
            pub fn avg_pool<A, P>(&self) -> Tensor<T, PooledShape<S, A, P>>
            where
                A: Selector,
                P: PoolGeometry,
                S: PoolOver<A, P>,
                PooledShape<S, A, P>: Storage<T>,
                T: Float,
            {
                self.try_avg_pool::<A, P>().or_panic()
            }

            /// [`avg_pool`](Self::avg_pool), or the error when a window does not fit an axis
            /// of run-time size.
            ///
            /// ```
            /// use shapecast::{names, shape, Pool, Tensor};
            /// names!(T);
            /// let x = Tensor::<f32, shape![T]>::from_vec_sized(&[4], vec![1.0, 2.0, 3.0, 4.0])?;
            /// assert_eq!(x.try_avg_pool::<T, Pool<2>>()?.data(), &[1.5, 3.5]);
            /// # Ok::<(), shapecast::Error>(())
            /// ```
            pub fn try_avg_pool<A, P>(&self) -> Result<Tensor<T, PooledShape<S, A, P>>, Error>
            where
                A: Selector,
                P: PoolGeometry,
                S: PoolOver<A, P>,
                PooledShape<S, A, P>: Storage<T>,
                T: Float,
            {
                self.typed_pool::<A, P, _>(mean_of)
            }
        }
    };
}

typed_pools!(impl<T, S: Storage<T>> Tensor<T, S>);
typed_pools!(impl<T, S: Shape> TensorView<'_, T, S>);

impl<T, S: Storage<T>> Tensor<T, S> {
    fn typed_pool<A: Selector, P: PoolGeometry, O: Storage<T>>(
        &self,
        f: impl FnMut(&mut dyn Iterator<Item = T>, usize) -> T,
    ) -> Result<Tensor<T, O>, Error>
    where
        T: Copy,
    {
        self.view().typed_pool::<A, P, O>(f)
    }
}

impl<T, S: Shape> TensorView<'_, T, S> {
    fn typed_pool<A: Selector, P: PoolGeometry, O: Storage<T>>(
        &self,
        f: impl FnMut(&mut dyn Iterator<Item = T>, usize) -> T,
    ) -> Result<Tensor<T, O>, Error>
    where
        T: Copy,
    {
        let plan = pool(&self.shape_dyn(), &A::selectors(), &P::SPEC)?;
        let (sizes, data) = windows(
            &plan,
            &P::SPEC,
            Side {
                sizes: self.sizes(),
                strides: self.strides(),
                data: self.data_slice(),
            },
            f,
        )?;
        Ok(Tensor::from_parts(&sizes, data))
    }
}
