//! Elementwise operations between typed tensors: the rule, the plan and the kernel each
//! operation runs on. The plan is a constant of the types. When every shape is static the
//! kernel runs over a layout worked out at compile time; otherwise the run-time checks that
//! `?` sizes leave run on the sizes alone, and the layout is built on the stack: no shape is
//! built and no rule runs, and the only allocation is the output's. When a check fails, the
//! run-time engine runs on the shapes as written to word the refusal.

use crate::alloc_prelude::*;

use super::elementwise::zip_operands;
use super::zip_plan::{
    all_static, inline_static, row_major_stack, run_time_layout, static_layout, ByNamed, ByRule,
    PlanFor,
};
use crate::dynamic::plan::SizeList;
use crate::engine::fold_walk::runs;
use crate::engine::static_kernel::{known, zip_static, StaticZip};
use crate::engine::zip_fn::{
    cloned, cloned_left, cloned_right, splits, swapped, Parallel, Serial, ZipFn,
};
use crate::tensor::tensor::Tensor;
use crate::typed::broadcast::{Broadcast, BroadcastBy, BroadcastWith, BroadcastsUnder};
use crate::typed::rule::Assign;
use crate::typed::rule::RuleMarker;
use crate::typed::storage::{Buffer, Storage};
use crate::values::error::{Error, OrPanic};
use crate::values::shape::MAX_TYPED_RANK;

impl<T, S: Storage<T>> Tensor<T, S> {
    /// `f(self, rhs)` elementwise by the named rule; fails only on a `?` size that does not
    /// fit (the shapes are checked at compile time).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let a = Tensor::<i32, shape![?]>::from_vec_sized(&[2], vec![1, 2])?;
    /// let b = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert!(a.try_zip_with(&b, |x, y| x + y).is_err()); // 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_zip_with<U: Copy + Sync, V: Send, B>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V + Sync,
    ) -> Result<Tensor<V, Broadcast<S, B>>, Error>
    where
        T: Copy + Sync,
        S: BroadcastWith<B>,
        B: Storage<U>,
    {
        self.zip_by::<ByNamed, _, _, _, _>(rhs, Parallel(cloned(f)))
    }

    /// The kernel under a run-time rule whose output type `O` the caller has checked.
    ///
    /// When all three shapes are static the plan is a compile-time constant: no check is
    /// left, and the kernel runs over a layout worked out at compile time (or, when `f` may
    /// run on several threads and the output is large, the run-time kernel runs over it).
    #[inline]
    pub(crate) fn zip_by<P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl ZipFn<T, U, V>,
    ) -> Result<Tensor<V, O>, Error> {
        if const { all_static(S::SIZES) && all_static(B::SIZES) && all_static(O::SIZES) } {
            let layout = const { static_layout::<P, S, B, O>() };
            let sizes = &const { known(O::SIZES) }[..O::RANK];
            if splits(&f, layout.total()) || layout.reads_across() {
                let mut data = Vec::with_capacity(layout.total());
                let (ms, ma, mb) = layout.merged();
                f.zip::<MAX_TYPED_RANK>(ms, (self.data(), ma), (rhs.data(), mb), &mut data)?;
                return Ok(Tensor::from_parts(sizes, data));
            }
            // Straight into the output's buffer: inline for a small result, no `Vec` on the way.
            let runs = StaticZip {
                layout: &layout,
                a: self.data(),
                b: rhs.data(),
                f: |x: &T, y: &U| f.call(x, y),
            };
            let data = <O as Storage<V>>::Buf::from_runs(layout.total(), runs);
            return Ok(Tensor::from_buf(sizes, data));
        }
        // The layout's arrays are as long as the rank needs (4, 8 or 16): less to fill.
        if const { O::RANK <= 4 } {
            return self.zip_run_time::<4, P, U, V, O, B>(rhs, f);
        }
        if const { O::RANK <= 8 } {
            return self.zip_run_time::<8, P, U, V, O, B>(rhs, f);
        }
        self.zip_run_time::<MAX_TYPED_RANK, P, U, V, O, B>(rhs, f)
    }

    /// [`zip_by`](Self::zip_by) when a size is known only at run time, on a layout of at most
    /// `N` axes.
    fn zip_run_time<const N: usize, P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl ZipFn<T, U, V>,
    ) -> Result<Tensor<V, O>, Error> {
        let mut data = Vec::new();
        let Some(layout) = run_time_layout::<N, P, S, B>(self.sizes(), rhs.sizes()) else {
            // A `?` size does not fit: the run-time engine words the refusal.
            let (_, sizes) = zip_operands(P::RULE, self.operand(), rhs.operand(), &mut data, f)?;
            return Ok(Tensor::from_parts(&sizes, data));
        };
        layout.run(self.data(), rhs.data(), &mut data, f)?;
        Ok(Tensor::from_parts(layout.sizes(), data))
    }

    /// [`zip_by`](Self::zip_by) into `out`, which is left as it was on error.
    pub(crate) fn zip_into<P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        out: &mut Tensor<V, O>,
        f: impl ZipFn<T, U, V>,
    ) -> Result<(), Error> {
        if const { all_static(S::SIZES) && all_static(B::SIZES) && all_static(O::SIZES) } {
            let layout = const { static_layout::<P, S, B, O>() };
            if splits(&f, layout.total()) || layout.reads_across() {
                let (ms, ma, mb) = layout.merged();
                let (a, b) = ((self.data(), ma), (rhs.data(), mb));
                return out
                    .data
                    .write_with(|data| f.zip::<MAX_TYPED_RANK>(ms, a, b, data));
            }
            zip_static(
                &layout,
                self.data(),
                rhs.data(),
                out.data.as_mut_slice(),
                |x, y| f.call(x, y),
            );
            return Ok(());
        }
        if const { O::RANK <= 4 } {
            return self.zip_into_run_time::<4, P, U, V, O, B>(rhs, out, f);
        }
        if const { O::RANK <= 8 } {
            return self.zip_into_run_time::<8, P, U, V, O, B>(rhs, out, f);
        }
        self.zip_into_run_time::<MAX_TYPED_RANK, P, U, V, O, B>(rhs, out, f)
    }

    /// [`zip_into`](Self::zip_into) when a size is known only at run time, on a layout of at
    /// most `N` axes.
    fn zip_into_run_time<const N: usize, P: PlanFor<S, B>, U, V, O: Storage<V>, B: Storage<U>>(
        &self,
        rhs: &Tensor<U, B>,
        out: &mut Tensor<V, O>,
        f: impl ZipFn<T, U, V>,
    ) -> Result<(), Error> {
        let Some(layout) = run_time_layout::<N, P, S, B>(self.sizes(), rhs.sizes()) else {
            let mut sizes = SizeList::new();
            out.data.write_with(|data| {
                let (_, s) = zip_operands(P::RULE, self.operand(), rhs.operand(), data, f)?;
                sizes = s;
                Ok::<(), Error>(())
            })?;
            out.sizes.as_mut().copy_from_slice(&sizes);
            return Ok(());
        };
        out.data
            .write_with(|data| layout.run(self.data(), rhs.data(), data, f))?;
        out.sizes.as_mut().copy_from_slice(layout.sizes());
        Ok(())
    }

    /// `f(self, rhs)` elementwise by the named rule into this tensor's own buffer when it has
    /// the output's shape (the right operand broadcast into it), else into a new one.
    pub(crate) fn reuse_by<U, O: Storage<T>, B: Storage<U>>(
        self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, &U) -> T + Sync,
    ) -> Result<Tensor<T, O>, Error>
    where
        T: Clone + Send + Sync,
        U: Sync,
        S: BroadcastWith<B>,
    {
        // Small static shapes live inline: the compile-time kernel writes a fresh one faster
        // than the buffer can be taken out and put back.
        if const { inline_static(S::SIZES) && all_static(B::SIZES) } {
            return self.zip_by::<ByNamed, U, T, O, B>(rhs, Serial(cloned_left(&f)));
        }
        let Some(layout) =
            run_time_layout::<MAX_TYPED_RANK, ByNamed, S, B>(self.sizes(), rhs.sizes())
        else {
            // A `?` size does not fit: the run-time engine words the refusal.
            return self.zip_by::<ByNamed, U, T, O, B>(rhs, Parallel(cloned_left(&f)));
        };
        if !(layout.lhs_is_frame && layout.sizes() == self.sizes()) {
            let mut data = Vec::new();
            let g = Parallel(cloned_left(&f));
            layout.run(self.data(), rhs.data(), &mut data, g)?;
            return Ok(Tensor::from_parts(layout.sizes(), data));
        }
        let sizes = self.sizes;
        let mut data = self.data.into_vec();
        update_in_place(
            &mut data,
            layout.sizes(),
            (rhs.data(), &layout.b[..layout.len]),
            f,
        );
        Ok(Tensor::from_parts(sizes.as_ref(), data))
    }

    /// `f(self, rhs)` elementwise by the named rule into `rhs`'s own buffer when it has the
    /// output's shape (this tensor broadcast into it), else into a new one: the mirror of
    /// [`reuse_by`](Self::reuse_by) for `&a op b`.
    pub(crate) fn reuse_right_by<U, O: Storage<U>, B: Storage<U>>(
        &self,
        rhs: Tensor<U, B>,
        f: impl Fn(&T, U) -> U + Sync,
    ) -> Result<Tensor<U, O>, Error>
    where
        T: Sync,
        U: Clone + Send + Sync,
        S: BroadcastWith<B>,
    {
        if const { inline_static(B::SIZES) && all_static(S::SIZES) } {
            return self.zip_by::<ByNamed, U, U, O, B>(&rhs, Serial(cloned_right(&f)));
        }
        let Some(layout) =
            run_time_layout::<MAX_TYPED_RANK, ByNamed, S, B>(self.sizes(), rhs.sizes())
        else {
            return self.zip_by::<ByNamed, U, U, O, B>(&rhs, Parallel(cloned_right(&f)));
        };
        if !(layout.rhs_is_frame && layout.sizes() == rhs.sizes()) {
            let mut data = Vec::new();
            let g = Parallel(cloned_right(&f));
            layout.run(self.data(), rhs.data(), &mut data, g)?;
            return Ok(Tensor::from_parts(layout.sizes(), data));
        }
        let sizes = rhs.sizes;
        let mut data = rhs.data.into_vec();
        let other = (self.data(), &layout.a[..layout.len]);
        update_in_place(&mut data, layout.sizes(), other, swapped(&f));
        Ok(Tensor::from_parts(sizes.as_ref(), data))
    }

    /// `self = f(self, rhs)` by the assignment rule, borrowing the elements.
    pub(crate) fn assign_by<U, B: Storage<U>>(
        &mut self,
        rhs: &Tensor<U, B>,
        f: impl Fn(&T, &U) -> T,
    ) -> Result<(), Error> {
        let mut data = Vec::new();
        zip_operands(
            Assign::RULE,
            self.operand(),
            rhs.operand(),
            &mut data,
            Serial(f),
        )?;
        // The assignment rule keeps the destination's shape, sizes included.
        self.data = match S::Buf::from_vec(data) {
            Ok(buf) => buf,
            Err(_) => unreachable!("the assignment rule keeps the element count"),
        };
        Ok(())
    }

    /// `f` applied to every element, borrowed.
    pub(crate) fn map_ref<V>(&self, f: impl Fn(&T) -> V) -> Tensor<V, S>
    where
        S: Storage<V>,
    {
        Tensor::from_parts(self.sizes(), self.data().iter().map(f).collect())
    }
}

impl<T: Copy, S: Storage<T>> Tensor<T, S> {
    /// `f(self, rhs)` elementwise under the rule `R` (a marker of [`rule`](crate::rule)): the
    /// shapes are checked at compile time, `?` sizes at run time.
    ///
    /// ```
    /// use shapecast::{rule::Pdpd, rule::Start, shape, Tensor};
    /// let a = Tensor::<i32, shape![2, 3, 2]>::from_fn(&[2, 3, 2], |i| i[1] as i32)?;
    /// let b = Tensor::<i32, shape![3, 1]>::from_vec(vec![10, 20, 30])?;
    /// let c = a.zip_with_rule::<Pdpd<Start<1>>, _, _, _>(&b, |x, y| x + y)?;
    /// assert_eq!(*c.at(&[1, 2, 1])?, 32);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn zip_with_rule<R: RuleMarker, U: Copy + Sync, V: Send, B>(
        &self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> V + Sync,
    ) -> Result<Tensor<V, BroadcastBy<R, S, B>>, Error>
    where
        T: Sync,
        S: BroadcastsUnder<R, B>,
        B: Storage<U>,
    {
        self.zip_by::<ByRule<R>, _, _, _, _>(rhs, Parallel(cloned(f)))
    }

    /// `f` applied to every element.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let t = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?;
    /// assert_eq!(t.map(|x| x * x).data(), &[1, 4, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn map<V>(&self, f: impl Fn(T) -> V) -> Tensor<V, S>
    where
        S: Storage<V>,
    {
        self.map_ref(|&x| f(x))
    }

    /// `self = f(self, rhs)` by the assignment rule (rule book §10): `rhs` broadcasts into `self`,
    /// whose shape never changes; fails only on a `?` size that does not fit.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![3, 3]>::full(0)?;
    /// a.try_assign_with(&Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3])?, |_, y| y)?;
    /// assert_eq!(a.data(), &[1, 2, 3, 1, 2, 3, 1, 2, 3]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn try_assign_with<U: Copy, B: Storage<U>>(
        &mut self,
        rhs: &Tensor<U, B>,
        f: impl Fn(T, U) -> T,
    ) -> Result<(), Error>
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.assign_by(rhs, cloned(f))
    }

    /// Copies `rhs` into `self` by the assignment rule (TML's `a = b`).
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let mut a = Tensor::<i32, shape![2]>::full(0)?;
    /// a.assign(&Tensor::<i32, shape![]>::from_vec(vec![7])?);
    /// assert_eq!(a.data(), &[7, 7]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[track_caller]
    pub fn assign<B: Storage<T>>(&mut self, rhs: &Tensor<T, B>)
    where
        S: BroadcastsUnder<Assign, B>,
    {
        self.try_assign_with(rhs, |_, y| y).or_panic();
    }
}

/// `x = f(x, y)` for every element `x` of `data` (row-major over `sizes`, the output's own
/// buffer) and the element `y` of `other` that broadcasts onto it (`other`'s strides in the
/// output frame): the in-place half of [`reuse_by`](Tensor::reuse_by) and
/// [`reuse_right_by`](Tensor::reuse_right_by).
///
/// With the `rayon` feature, from
/// [`PARALLEL_MIN_ELEMENTS`](crate::kernel::PARALLEL_MIN_ELEMENTS) elements on, blocks of rows
/// of the outermost axis go to rayon's pool, each block updated where it lies (the same values
/// as on one thread: each element is computed once, by the same function).
fn update_in_place<X: Clone + Send, Y: Sync>(
    data: &mut [X],
    sizes: &[usize],
    (other, strides): (&[Y], &[usize]),
    f: impl Fn(X, &Y) -> X + Sync,
) {
    let own = row_major_stack::<MAX_TYPED_RANK>(sizes);
    #[cfg(feature = "rayon")]
    if let Some(rows) = sizes
        .first()
        .and_then(|&n| crate::engine::split::rows_per_piece(n, data.len()))
    {
        crate::engine::threads::chunks(data, rows * own[0], |i, block| {
            let mut part = [0usize; MAX_TYPED_RANK];
            part[..sizes.len()].copy_from_slice(sizes);
            part[0] = block.len() / own[0];
            let other = &other[i * rows * strides[0]..];
            runs(
                &part[..sizes.len()],
                &own[..sizes.len()],
                strides,
                |oa, ob, len, ia, ib| update_run(block, (oa, ia), (other, ob, ib), len, &f),
            );
        });
        return;
    }
    runs(
        sizes,
        &own[..sizes.len()],
        strides,
        |oa, ob, len, ia, ib| update_run(data, (oa, ia), (other, ob, ib), len, &f),
    );
}

/// `x = f(x, y)` over one run of `len` elements of `data` (from `oa`, stride `ia`) and `rd`
/// (from `ob`, stride `ib`), specialised on the strides so the common runs vectorise (the
/// left's own layout is row-major, so its last merged stride is 1).
#[inline(always)]
fn update_run<T: Clone, U>(
    data: &mut [T],
    (oa, ia): (usize, usize),
    (rd, ob, ib): (&[U], usize, usize),
    len: usize,
    f: &impl Fn(T, &U) -> T,
) {
    match (ia, ib) {
        (1, 1) => {
            for (x, y) in data[oa..oa + len].iter_mut().zip(&rd[ob..ob + len]) {
                *x = f(x.clone(), y);
            }
        }
        (1, 0) => {
            let y = &rd[ob];
            for x in &mut data[oa..oa + len] {
                *x = f(x.clone(), y);
            }
        }
        _ => {
            for j in 0..len {
                let x = &mut data[oa + j * ia];
                *x = f(x.clone(), &rd[ob + j * ib]);
            }
        }
    }
}

#[cfg(all(test, feature = "rayon"))]
mod parallel_tests {
    use crate::{names, shape, Tensor};

    names!(N, H, W);

    /// An operator writing into an owned operand's buffer splits over a pool of three
    /// threads and writes what the borrowing operator writes: the other operand full, a row
    /// broadcast down the outer axis (stride 0 there), a column broadcast along the inner one;
    /// owned on the left and on the right.
    #[test]
    fn owned_operators_on_several_threads_write_what_one_thread_writes() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let (n, h, w) = (7, 211, 200); // 295,400 elements: above the split threshold
        let a = Tensor::<f64, shape![N, H, W]>::from_fn(&[n, h, w], |i| {
            (i[0] * 31 + i[1] * 7 + i[2]) as f64 * 0.5 + 1.0
        })
        .unwrap();
        let full = a.map(|x| x * 0.25 - 1.0);
        let row = Tensor::<f64, shape![H, W]>::from_fn(&[h, w], |i| (i[0] + i[1]) as f64).unwrap();
        let col = Tensor::<f64, shape![N, H, 1]>::from_fn(&[n, h, 1], |i| i[1] as f64).unwrap();
        pool.install(|| {
            assert_eq!(a.clone() - &full, &a - &full);
            assert_eq!(a.clone() * &row, &a * &row);
            assert_eq!(a.clone() + &col, &a + &col);
            assert_eq!(&row - a.clone(), &row - &a);
            assert_eq!(&col / a.clone(), &col / &a);
        });
    }
}
