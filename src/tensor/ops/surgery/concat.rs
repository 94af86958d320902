//! Concatenate along an axis and stack under a new one (rule book §18): a new tensor.

use super::*;

impl<'a, T, Sh: Shape> TensorView<'a, T, Sh> {
    /// This view and `rhs` concatenated along the axis `A` picks (rule book §18): every other
    /// axis of `rhs` is aligned to this one's by name (unnamed axes by position) and must have
    /// the same size. The concatenated axis takes `A`'s size: `T<S<8>>` is checked against
    /// the sum (at compile time when both are static), a bare `T` gives `?`.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor, S};
    /// names!(T, F);
    /// let a = Tensor::<i32, shape![T: 1, F: 2]>::from_vec(vec![1, 2])?;
    /// let b = Tensor::<i32, shape![F: 2, T: 2]>::from_vec(vec![3, 5, 4, 6])?;
    /// let c = a.view().concat::<T<S<3>>, _>(&b.view())?;
    /// assert_eq!(c.data(), &[1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat<A, S2: Shape>(
        &self,
        rhs: &TensorView<'_, T, S2>,
    ) -> Result<Tensor<T, Concat<A, Sh, S2>>, Error>
    where
        Sh: ConcatWith<A, S2>,
        A: OneAxis,
        T: Clone,
    {
        let k = <Sh as ConcatWith<A, S2>>::AT;
        let (first, other) = (self.shape_dyn(), rhs.shape_dyn());
        let op = format!("concatenate {first}, {other} along {}", show::<A>());
        let map = rt::aligned(&op, &first, &other)?;
        let aligned = TensorView::<T, Sh>::from_parts(
            rhs.data_slice(),
            map.iter().map(|&j| rhs.sizes()[j]).collect(),
            map.iter().map(|&j| rhs.strides()[j]).collect(),
        );
        let mut sizes = self.sizes().to_vec();
        for (j, (&a, &b)) in self.sizes().iter().zip(aligned.sizes()).enumerate() {
            if j != k && a != b {
                return Err(Error::Surgery {
                    op,
                    reason: format!("axis {j} has size {a} on the left and {b} on the right"),
                });
            }
        }
        sizes[k] = sizes[k]
            .checked_add(aligned.sizes()[k])
            .ok_or_else(|| Error::Surgery {
                op: op.clone(),
                reason: format!("the sizes along axis {k} add up past {}", usize::MAX),
            })?;
        fit::<Concat<A, Sh, S2>>(&op, &sizes)?;
        let data = interleave(&[*self, aligned], k)?;
        Ok(Tensor::from_parts(&sizes, data))
    }
}

/// The elements of views that agree on every axis but `k`, concatenated along `k`: for each
/// index of the axes before `k`, each view's block in turn. A result with no element is
/// empty at once (no loop over the indices of the axes before `k`); one too large to exist
/// is [`Error::TooLarge`].
pub(super) fn interleave<T: Clone, Sh: Shape>(
    views: &[TensorView<'_, T, Sh>],
    k: usize,
) -> Result<Vec<T>, Error> {
    let Some(first) = views.first() else {
        return Ok(Vec::new());
    };
    // The views' type may be a stand-in (`DynTensor::concat` uses `()`): the sizes say it.
    let shape = || DynShape::from_sizes(first.sizes()).unwrap_or_default();
    let too_many = || Error::TooManyElements { shape: shape() };
    let outer = crate::engine::allocation::count(&first.sizes()[..k]).ok_or_else(too_many)?;
    let blocks = views
        .iter()
        .map(|v| crate::engine::allocation::count(&v.sizes()[k..]))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(too_many)?;
    let per = blocks
        .iter()
        .try_fold(0usize, |acc, &n| acc.checked_add(n))
        .ok_or_else(too_many)?;
    let mut out = crate::engine::allocation::vec_for::<T>(&[outer, per], shape)?;
    if outer == 0 || per == 0 {
        return Ok(out);
    }
    let dense: Option<Vec<&[T]>> = views
        .iter()
        .map(|v| crate::engine::walk::contiguous(&v.strided()))
        .collect();
    if let Some(dense) = dense {
        // Every view row-major: each block is a run of its elements.
        for o in 0..outer {
            for (d, &n) in dense.iter().zip(&blocks) {
                out.extend_from_slice(&d[o * n..(o + 1) * n]);
            }
        }
        return Ok(out);
    }
    let mut iters: Vec<_> = views.iter().map(|v| v.iter()).collect();
    for _ in 0..outer {
        for (it, &n) in iters.iter_mut().zip(&blocks) {
            out.extend(it.by_ref().take(n).cloned());
        }
    }
    Ok(out)
}

impl<T, Sh: Storage<T>> Tensor<T, Sh> {
    /// [`TensorView::concat`] on the tensors' views.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(T, F);
    /// let a = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![1, 2])?;
    /// let b = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![3, 4])?;
    /// assert_eq!(a.concat::<T, _>(&b)?.shape().to_string(), "[T: 2, F: 2]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat<A, S2: Storage<T>>(
        &self,
        rhs: &Tensor<T, S2>,
    ) -> Result<Tensor<T, Concat<A, Sh, S2>>, Error>
    where
        Sh: ConcatWith<A, S2>,
        A: OneAxis,
        T: Clone,
    {
        self.view().concat::<A, S2>(&rhs.view())
    }
}

/// Views of one shape type concatenated along the axis `A` picks (rule book §18): the sizes
/// along it add up, every other size must agree; the axis' size is `?` in the type.
///
/// ```
/// use shapecast::{concat, names, shape, Tensor};
/// names!(T, F);
/// let a = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[1, 2], vec![1, 2])?;
/// let b = Tensor::<i32, shape![T, F: 2]>::from_vec_sized(&[2, 2], vec![3, 4, 5, 6])?;
/// let c = concat::<T, _, _>(&[a.view(), b.view(), a.view()])?;
/// assert_eq!(c.shape().to_string(), "[T: 4, F: 2]");
/// assert_eq!(c.data(), &[1, 2, 3, 4, 5, 6, 1, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn concat<A, T: Clone, Sh>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<Tensor<T, Slice<Sh, A>>, Error>
where
    Sh: SliceAxis<A, crate::typed::size::Dyn>,
    A: OneAxis,
{
    let k = <Sh as SliceAxis<A, crate::typed::size::Dyn>>::AT;
    let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape_dyn()).collect();
    let out = rt::concat(&A::selectors()[0], &shapes)?;
    // Every part has concrete sizes, and `rt::concat` refuses a sum past `usize::MAX`.
    let sizes = out
        .known_sizes()
        .expect("concrete shapes concatenate to a concrete shape");
    Ok(Tensor::from_parts(&sizes, interleave(parts, k)?))
}

/// Views of one shape stacked under a new leading axis named `N` (or
/// [`Unnamed`](crate::Unnamed)) whose size is their count (`?` in the type); their sizes must
/// agree.
///
/// ```
/// use shapecast::{names, shape, stack, Tensor};
/// names!(N, H);
/// let a = Tensor::<i32, shape![H: 2]>::from_vec(vec![1, 2])?;
/// let b = Tensor::<i32, shape![H: 2]>::from_vec(vec![3, 4])?;
/// let s = stack::<N, _, _>(&[a.view(), b.view(), a.view()])?;
/// assert_eq!(s.shape().to_string(), "[N: 3, H: 2]");
/// assert_eq!(s.data(), &[1, 2, 3, 4, 1, 2]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack<N, T: Clone, Sh>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<Tensor<T, Stack<N, Sh>>, Error>
where
    Sh: StackUnder<N>,
    N: Axis,
{
    let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape_dyn()).collect();
    let name = N::NAME.map(|n| Name::new(n).expect("names! declares identifiers"));
    let out = rt::stack(name.as_ref(), &shapes)?;
    let sizes = out
        .known_sizes()
        .expect("concrete shapes stack to a concrete shape");
    let data = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    Ok(Tensor::from_parts(&sizes, data))
}

/// Views of one shape stacked under a new axis named `N` (or [`Unnamed`](crate::Unnamed)) at
/// position `K`, whose size is their count (`?` in the type); their sizes must agree. At the
/// last position this interleaves them: `stack_at::<1, PAIR, _, _>(&[re, im])` of two
/// `[HALF]` views is `[HALF, PAIR]`, each `re` followed by its `im`, in one pass that writes the
/// result once.
///
/// ```
/// use shapecast::{names, shape, stack_at, Tensor};
/// names!(HALF, PAIR);
/// let re = Tensor::<i32, shape![HALF: 3]>::from_vec(vec![1, 2, 3])?;
/// let im = Tensor::<i32, shape![HALF: 3]>::from_vec(vec![10, 20, 30])?;
/// let z = stack_at::<1, PAIR, _, _>(&[re.view(), im.view()])?;
/// assert_eq!(z.shape().to_string(), "[HALF: 3, PAIR: 2]");
/// assert_eq!(z.data(), &[1, 10, 2, 20, 3, 30]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack_at<const K: usize, N, T: Clone, Sh>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<Tensor<T, StackAt<Sh, K, N>>, Error>
where
    Sh: InsertAxisAt<K, N>,
    InsertAxis<Sh, K, N>: SliceAxis<crate::typed::reduce::Pos<K>, crate::typed::size::Dyn>,
    N: Axis,
{
    let (sizes, data) = stacked_at::<K, N, T, Sh>(parts)?;
    Ok(Tensor::from_parts(&sizes, data))
}

/// The sizes and elements of `parts` stacked under `N` at position `K`.
fn stacked_at<const K: usize, N: Axis, T: Clone, Sh: InsertAxisAt<K, N>>(
    parts: &[TensorView<'_, T, Sh>],
) -> Result<(Vec<usize>, Vec<T>), Error> {
    // The run-time rule refuses what the types cannot see: no parts, or sizes that differ.
    let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape_dyn()).collect();
    let name = N::NAME.map(|n| Name::new(n).expect("names! declares identifiers"));
    let out = rt::stack_at(name.as_ref(), K, &shapes)?;
    let sizes = out
        .known_sizes()
        .expect("concrete shapes stack to a concrete shape");
    let grown: Vec<TensorView<'_, T, InsertAxis<Sh, K, N>>> =
        parts.iter().map(|p| p.insert_axis::<K, N>()).collect();
    Ok((sizes, interleave(&grown, K)?))
}

/// `[a.view(), b.view()].stack_at::<K, N>()`: views in an array stacked under a new axis
/// named `N` at position `K`, as [`stack_at`] does, the new axis of static size `M` (the
/// array's length) in the type: `[HALF: 3]` views interleave into `[HALF: 3, PAIR: 2]`, whose
/// static sizes `merge_axes` and the other shape functions keep. Their sizes must agree (a
/// `?` size is checked at run time).
///
/// ```
/// use shapecast::{names, shape, StackArray, Tensor};
/// names!(HALF, PAIR, F);
/// let re = Tensor::<i32, shape![HALF: 3]>::from_vec(vec![1, 2, 3])?;
/// let im = Tensor::<i32, shape![HALF: 3]>::from_vec(vec![10, 20, 30])?;
/// let z: Tensor<i32, shape![HALF: 3, PAIR: 2]> = [re.view(), im.view()].stack_at::<1, PAIR>()?;
/// assert_eq!(z.data(), &[1, 10, 2, 20, 3, 30]);
/// // Adjacent pairs merged back: a static `[F: 6]`, as rotary embeddings interleave.
/// let f: Tensor<i32, shape![F: 6]> = z.merge_axes::<(HALF, PAIR), F>()?.to_tensor();
/// assert_eq!(f.data(), &[1, 10, 2, 20, 3, 30]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait StackArray<'a, T: 'a, Sh: Shape, const M: usize> {
    /// The views, in order.
    #[doc(hidden)]
    fn views(&self) -> &[TensorView<'a, T, Sh>];

    /// The views stacked under `N` at position `K` (see the [trait docs](StackArray)); or
    /// the error when their sizes differ, or when there are none.
    ///
    /// ```
    /// use shapecast::{names, shape, StackArray, Tensor};
    /// names!(H, N);
    /// let a = Tensor::<f32, shape![H]>::from_vec_sized(&[2], vec![1.0, 2.0])?;
    /// let b = Tensor::<f32, shape![H]>::from_vec_sized(&[3], vec![1.0, 2.0, 3.0])?;
    /// assert!([a.view(), b.view()].stack_at::<0, N>().is_err()); // H: 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn stack_at<const K: usize, N: Axis>(
        &self,
    ) -> Result<Tensor<T, StackAtStatic<Sh, K, N, M>>, Error>
    where
        Sh: StacksAt<K, N, M>,
        T: Clone,
    {
        // The new axis is `M` long: the run-time rule checks the rest, as for a slice.
        let (sizes, data) = stacked_at::<K, N, T, Sh>(self.views())?;
        Ok(Tensor::from_parts(&sizes, data))
    }

    /// The views stacked under a new leading axis `N` of static size `M`: `stack_at::<0, N>`.
    ///
    /// ```
    /// use shapecast::{names, shape, StackArray, Tensor};
    /// names!(N, H);
    /// let a = Tensor::<i32, shape![H: 2]>::from_vec(vec![1, 2])?;
    /// let s: Tensor<i32, shape![N: 3, H: 2]> = [a.view(), a.view(), a.view()].stack::<N>()?;
    /// assert_eq!(s.data(), &[1, 2, 1, 2, 1, 2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn stack<N: Axis>(&self) -> Result<Tensor<T, StackAtStatic<Sh, 0, N, M>>, Error>
    where
        Sh: StacksAt<0, N, M>,
        T: Clone,
    {
        self.stack_at::<0, N>()
    }
}

impl<'a, T, Sh: Shape, const M: usize> StackArray<'a, T, Sh, M> for [TensorView<'a, T, Sh>; M] {
    fn views(&self) -> &[TensorView<'a, T, Sh>] {
        self
    }
}

impl<T: Clone> DynTensor<T> {
    /// Tensors concatenated along the axis `axis` picks in the first, the others aligned to
    /// it by name (unnamed axes by position).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[T: 1, F: 2]".parse()?, vec![1, 2])?;
    /// let b = DynTensor::from_vec("[F: 2, T: 2]".parse()?, vec![3, 5, 4, 6])?;
    /// let c = DynTensor::concat(&"T".parse()?, &[&a, &b])?;
    /// assert_eq!((c.shape().to_string(), c.data()), ("[T: 3, F: 2]".to_string(), &[1, 2, 3, 4, 5, 6][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn concat(axis: &AxisSelector, parts: &[&DynTensor<T>]) -> Result<DynTensor<T>, Error> {
        let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape().clone()).collect();
        let shape = rt::concat(axis, &shapes)?;
        let Some(first) = parts.first() else {
            return DynTensor::from_vec(shape, Vec::new());
        };
        let k = rt::find("concatenate", first.shape(), axis)?;
        let views: Vec<TensorView<'_, T, ()>> = parts
            .iter()
            .map(|p| {
                let map = rt::aligned("concatenate", first.shape(), p.shape())?;
                let own = crate::engine::layout::row_major(p.sizes());
                Ok(TensorView::from_parts(
                    p.data(),
                    map.iter().map(|&j| p.sizes()[j]).collect(),
                    map.iter().map(|&j| own[j]).collect(),
                ))
            })
            .collect::<Result<_, Error>>()?;
        DynTensor::from_vec(shape, interleave(&views, k)?)
    }

    /// Tensors of one shape stacked under a new leading axis named `name` (or unnamed)
    /// whose size is their count.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let a = DynTensor::from_vec("[H: 2]".parse()?, vec![1, 2])?;
    /// let s = DynTensor::stack(Some(&"N".parse()?), &[&a, &a])?;
    /// assert_eq!((s.shape().to_string(), s.data()), ("[N: 2, H: 2]".to_string(), &[1, 2, 1, 2][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn stack(name: Option<&Name>, parts: &[&DynTensor<T>]) -> Result<DynTensor<T>, Error> {
        let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape().clone()).collect();
        let shape = rt::stack(name, &shapes)?;
        let data = parts
            .iter()
            .flat_map(|p| p.data().iter().cloned())
            .collect();
        DynTensor::from_vec(shape, data)
    }

    /// Tensors of one shape stacked under a new axis named `name` (or unnamed) at position
    /// `at`, whose size is their count (the run-time twin of [`stack_at`](crate::stack_at)).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let re = DynTensor::from_vec("[HALF: 2]".parse()?, vec![1, 2])?;
    /// let im = DynTensor::from_vec("[HALF: 2]".parse()?, vec![10, 20])?;
    /// let z = DynTensor::stack_at(Some(&"PAIR".parse()?), 1, &[&re, &im])?;
    /// assert_eq!((z.shape().to_string(), z.data()), ("[HALF: 2, PAIR: 2]".to_string(), &[1, 10, 2, 20][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn stack_at(
        name: Option<&Name>,
        at: usize,
        parts: &[&DynTensor<T>],
    ) -> Result<DynTensor<T>, Error> {
        let shapes: Vec<DynShape> = parts.iter().map(|p| p.shape().clone()).collect();
        let shape = rt::stack_at(name, at, &shapes)?;
        let views: Vec<TensorView<'_, T, ()>> = parts
            .iter()
            .map(|p| {
                let (mut sizes, mut strides) = (
                    p.sizes().to_vec(),
                    crate::engine::layout::row_major(p.sizes()),
                );
                sizes.insert(at, 1);
                strides.insert(at, 0);
                TensorView::from_parts(p.data(), sizes, strides)
            })
            .collect();
        DynTensor::from_vec(shape, interleave(&views, at)?)
    }
}
