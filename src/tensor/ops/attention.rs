//! Scaled dot-product attention by name, one operation (rule book §17, attention): the
//! queries contracted with the keys over the head dimension `D`, scaled, masked, softmaxed
//! over the key axis `KS` and contracted with the values over `KS`, computed in one pass per
//! block of queries without holding the score matrix (`engine::attention`). The head axes
//! pair by name: keys with a KV head axis and no group axis serve every query head of their
//! group (grouped-query attention), with nothing copied. The mask is nothing ([`NoMask`]),
//! causal along a named query axis ([`Causal`], with the position of the first query, for a
//! KV cache), or a tensor broadcast into the scores by the assignment rule.
//!
//! ```
//! use shapecast::{names, shape, Attention, Causal, Tensor};
//! names!(SEQ, KSEQ, HEADS, HD);
//! let q = Tensor::<f32, shape![SEQ, HEADS: 2, HD: 4]>::from_fn(&[3, 2, 4], |i| i[2] as f32 * 0.1)?;
//! let k = Tensor::<f32, shape![KSEQ, HEADS: 2, HD: 4]>::from_fn(&[3, 2, 4], |i| i[0] as f32 * 0.2)?;
//! let v = Tensor::<f32, shape![KSEQ, HEADS: 2, HD: 4]>::from_fn(&[3, 2, 4], |i| i[0] as f32)?;
//! let out: Tensor<f32, shape![SEQ, HEADS: 2, HD: 4]> =
//!     q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None);
//! // The first query sees only the first key, whose values are 0.
//! assert_eq!(out.data()[..4], [0.0; 4]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::marker::PhantomData;

use crate::dynamic::attention::{attention, Attended as Plan, Masking};
use crate::engine::attention::{attend, Geometry, Operands};
use crate::engine::dims::Dims;
use crate::engine::layout::{offset_tables as offsets, Strided};
use crate::engine::raw::DotElement;
use crate::engine::vmath::Transcendental;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::attention::AttendWith;
use crate::typed::axis::Axis;
use crate::typed::broadcast::BroadcastsUnder;
use crate::typed::reduce::Selector;
use crate::typed::rule::Assign;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::typed::surgery::HasAxis;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// An element attention runs on: `f32`, `f64` (GEMM calls and a stable `exp`), and `bf16` or
/// `f16`, whose queries, keys and values are widened once to `f32`, where the scores, the
/// online softmax and the weighted sums run, each output rounded once.
pub trait AttentionElement:
    DotElement + Transcendental<Wide: DotElement + Default> + Default
{
}
impl<T: DotElement + Transcendental<Wide: DotElement + Default> + Default> AttentionElement for T {}

/// The mask of a run-time attention ([`DynTensor::attention`]).
#[derive(Clone, Copy, Debug)]
pub enum DynMask<'a, T> {
    /// No mask.
    None,
    /// Causal along the queries' axis `axis`: query `p` along it sees keys `0..=p + offset`
    /// (`offset`: the position of the first query, the length of a KV cache before it).
    Causal {
        /// The queries' position axis.
        axis: &'a AxisSelector,
        /// The first query's position among the keys.
        offset: usize,
    },
    /// Added to the scores, broadcast into them by the assignment rule.
    Additive(&'a DynTensor<T>),
}

/// No mask: every query sees every key.
///
/// ```
/// use shapecast::{names, shape, Attention, NoMask, Tensor};
/// names!(SEQ, KSEQ, HD);
/// let q = Tensor::<f32, shape![SEQ: 1, HD: 2]>::from_array([[0.0, 0.0]]);
/// let k = Tensor::<f32, shape![KSEQ: 2, HD: 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]);
/// let out = q.attention::<HD, KSEQ>(&k, &k, NoMask, None);
/// assert_eq!(out.data(), &[0.5, 0.5]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct NoMask;

/// A causal mask along the queries' axis `A`: the query at index `p` along `A` sees the keys
/// `0..=p + offset`. [`new`](Causal::new) is PyTorch's `is_causal` (offset 0); with a KV
/// cache holding `pos` earlier positions, [`at(pos)`](Causal::at).
///
/// ```
/// use shapecast::{names, shape, Attention, Causal, Tensor};
/// names!(SEQ, KSEQ, HD);
/// // One new query after two cached positions sees all three keys.
/// let q = Tensor::<f32, shape![SEQ: 1, HD: 1]>::from_array([[0.0]]);
/// let k = Tensor::<f32, shape![KSEQ: 3, HD: 1]>::from_array([[0.0], [0.0], [0.0]]);
/// let v = Tensor::<f32, shape![KSEQ: 3, HD: 1]>::from_array([[3.0], [6.0], [9.0]]);
/// assert_eq!(q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::at(2), None).data(), &[6.0]);
/// assert_eq!(q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None).data(), &[3.0]);
/// ```
#[derive(Debug)]
pub struct Causal<A> {
    offset: usize,
    axis: PhantomData<A>,
}

impl<A> Clone for Causal<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for Causal<A> {}

impl<A> Causal<A> {
    /// Query `p` sees keys `0..=p`.
    ///
    /// ```
    /// use shapecast::{names, Causal};
    /// names!(SEQ);
    /// let _ = Causal::<SEQ>::new();
    /// ```
    pub fn new() -> Self {
        Self::at(0)
    }

    /// Query `p` sees keys `0..=p + offset`: the queries stand at positions `offset..`.
    ///
    /// ```
    /// use shapecast::{names, Causal};
    /// names!(SEQ);
    /// let _ = Causal::<SEQ>::at(128);
    /// ```
    pub fn at(offset: usize) -> Self {
        Causal {
            offset,
            axis: PhantomData,
        }
    }
}

impl<A> Default for Causal<A> {
    fn default() -> Self {
        Self::new()
    }
}

/// A mask for scores of shape `Scores`: [`NoMask`], [`Causal`] along an axis of the scores,
/// or a tensor or view that broadcasts into the scores by the assignment rule.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a mask for scores `{Scores}`",
    label = "not a mask for these scores",
    note = "a mask is `NoMask`, `Causal::<A>` with `A` an axis of the queries, or a tensor whose axes are axes of the scores (each of the same size or 1)"
)]
pub trait AttentionMask<T, Scores> {
    /// The mask as the run-time rule takes it: its selector or layout.
    #[doc(hidden)]
    fn masking<'s>(
        &'s self,
        own: &'s mut Own,
        axis: &'s mut Option<AxisSelector>,
    ) -> MaskParts<'s, T>;
}

/// A mask's parts at run time.
#[doc(hidden)]
pub enum MaskParts<'s, T> {
    None,
    Causal(&'s AxisSelector, usize),
    Additive(DynShape, Strided<'s, T>),
}

#[diagnostic::do_not_recommend]
impl<T, Scores> AttentionMask<T, Scores> for NoMask {
    fn masking<'s>(&'s self, _: &'s mut Own, _: &'s mut Option<AxisSelector>) -> MaskParts<'s, T> {
        MaskParts::None
    }
}

#[diagnostic::do_not_recommend]
impl<T, Scores: HasAxis<A>, A: Axis> AttentionMask<T, Scores> for Causal<A> {
    fn masking<'s>(
        &'s self,
        _: &'s mut Own,
        axis: &'s mut Option<AxisSelector>,
    ) -> MaskParts<'s, T> {
        let sel = axis.insert(A::selectors().remove(0));
        MaskParts::Causal(sel, self.offset)
    }
}

/// A tensor or a view as a mask: one impl over the operands `Contractible` lays out.
#[diagnostic::do_not_recommend]
impl<T, Scores: Shape, X: Contractible<Elem = T>> AttentionMask<T, Scores> for &X
where
    Scores: BroadcastsUnder<Assign, X::Shape>,
{
    fn masking<'s>(
        &'s self,
        own: &'s mut Own,
        _: &'s mut Option<AxisSelector>,
    ) -> MaskParts<'s, T> {
        MaskParts::Additive(X::Shape::to_dyn(), self.layout(own))
    }
}

/// The stride of an operand's axis `a` (of size `size`) along an output axis of size `n`: 0
/// for an absent or stretched axis.
fn stride_of(x: &Strided<'_, impl Sized>, a: Option<usize>) -> usize {
    match a {
        Some(a) if x.sizes[a] != 1 => x.strides[a],
        _ => 0,
    }
}

/// What an attention's backward needs of its forward pass: the offset tables the engine ran
/// on and the scale the scores were multiplied by.
pub(crate) struct Trace<T: AttentionElement> {
    pub(crate) geometry: Geometry,
    pub(crate) scale: T::Wide,
}

/// An attention's output sizes and data, row-major, and its trace.
type Ran<T> = Result<(Vec<usize>, Vec<T>, Trace<T>), Error>;

/// Attention by the plan `plan` on these layouts: the output's sizes and data, row-major,
/// and its trace.
fn run<T: AttentionElement>(
    plan: &Plan,
    (q, k, v): (Strided<'_, T>, Strided<'_, T>, Strided<'_, T>),
    mask: Option<Strided<'_, T>>,
    offset: usize,
    scale: Option<T>,
) -> Ran<T> {
    let refuse = |reason: String| Error::Attention {
        query: plan
            .scores
            .lhs
            .resolve(q.sizes)
            .unwrap_or_else(|_| plan.scores.lhs.clone()),
        keys: plan
            .scores
            .rhs
            .resolve(k.sizes)
            .unwrap_or_else(|_| plan.scores.rhs.clone()),
        values: plan
            .output
            .rhs
            .resolve(v.sizes)
            .unwrap_or_else(|_| plan.output.rhs.clone()),
        reason,
    };
    // A `?` size that does not fit: the contraction's reason, in attention's words.
    let reason = |e: Error, sides: [&str; 2]| match e {
        Error::Contraction { reason, .. } => refuse(
            reason
                .replace("on the left", &format!("in the {}", sides[0]))
                .replace("on the right", &format!("in the {}", sides[1])),
        ),
        other => other,
    };
    let scores = plan
        .scores
        .resolve(q.sizes, k.sizes)
        .map_err(|e| reason(e, ["queries", "keys"]))?;
    let sizes = plan
        .output
        .resolve(&scores, v.sizes)
        .map_err(|e| reason(e, ["scores", "values"]))?;
    // The mask's stride along each scores axis, its sizes checked against the scores'.
    let mut mask_strides = vec![0usize; scores.len()];
    if let (Some(m), Some(mp)) = (&mask, &plan.mask) {
        for (i, src) in mp.plan.rhs.iter().enumerate() {
            if let Some(a) = *src {
                if m.sizes[a] != scores[i] && m.sizes[a] != 1 {
                    return Err(refuse(format!(
                        "the mask's axis {a} has size {} where the scores have {}",
                        m.sizes[a], scores[i]
                    )));
                }
                mask_strides[i] = stride_of(m, Some(a));
            }
        }
    }
    let out_strides = Dims::row_major(&sizes);
    let total = crate::engine::allocation::ensure::<T>(&sizes, || {
        plan.output
            .shape
            .resolve(&sizes)
            .unwrap_or_else(|_| plan.output.shape.clone())
    })?;
    let (sl, sr) = (&plan.scores.plan.lhs, &plan.scores.plan.rhs);
    let (ol, or) = (&plan.output.plan.lhs, &plan.output.plan.rhs);
    // Batch axes (the keys or values change along them): q, k, v, mask, out, position.
    let mut batch: Vec<(usize, [usize; 6])> = Vec::new();
    // Query rows (both are constant along them): q, mask, out, position.
    let mut rows: Vec<(usize, [usize; 4])> = Vec::new();
    for (i, &n) in scores.iter().enumerate() {
        if i == plan.key {
            continue;
        }
        let o = ol
            .iter()
            .position(|&s| s == Some(i))
            .expect("every scores axis but the key's is an output axis");
        let (sq, sk, sv) = (
            stride_of(&q, sl[i]),
            stride_of(&k, sr[i]),
            stride_of(&v, or[o]),
        );
        let pos = usize::from(plan.causal == Some(i));
        if sk != 0 || sv != 0 {
            batch.push((n, [sq, sk, sv, mask_strides[i], out_strides[o], pos]));
        } else {
            rows.push((n, [sq, mask_strides[i], out_strides[o], pos]));
        }
    }
    let depth: Vec<(usize, [usize; 2])> = plan
        .scores
        .contracted
        .iter()
        .map(|&(a, b)| (q.sizes[a], [q.strides[a], k.strides[b]]))
        .collect();
    let cols: Vec<(usize, [usize; 2])> = (0..sizes.len())
        .filter(|&o| ol[o].is_none())
        .map(|o| (sizes[o], [stride_of(&v, or[o]), out_strides[o]]))
        .collect();
    let (_, vkey) = plan.output.contracted[0];
    let kkey = sr[plan.key].expect("the key axis is the keys'");
    let geometry = Geometry {
        batch: offsets(total, &batch),
        rows: offsets(total, &rows),
        keys: scores[plan.key],
        key_strides: [k.strides[kkey], v.strides[vkey], mask_strides[plan.key]],
        depth: offsets(total, &depth),
        cols: offsets(total, &cols),
        causal: plan.causal.map(|_| offset),
    };
    let head: usize = depth.iter().map(|d| d.0).product();
    // In the type the scores are computed in (`f32` for half precision, as PyTorch's).
    let scale = scale.map(T::widen).unwrap_or_else(|| {
        use num_traits::{Float, NumCast};
        let head: T::Wide = NumCast::from(head.max(1)).expect("a size is a float");
        head.sqrt().recip()
    });
    let ops = Operands {
        q: q.data,
        k: k.data,
        v: v.data,
        mask: mask.map(|m| m.data),
    };
    let data = attend(ops, &geometry, scale, total);
    Ok((sizes, data, Trace { geometry, scale }))
}

impl<T: AttentionElement> DynTensor<T> {
    /// Scaled dot-product attention of these queries to `keys` with `values` (rule book §17,
    /// attention): contracted over `depth` (the head dimension), scaled by `scale` (by
    /// default `1/sqrt(n)` with `n` the head dimension's size, as PyTorch), masked, softmaxed
    /// over `key` (the keys' and values' sequence axis) and contracted with the values, in
    /// one pass per block of queries. Or the refusal ([`Error::Attention`]).
    ///
    /// ```
    /// use shapecast::{DynMask, DynTensor};
    /// let q = DynTensor::from_vec("[SEQ: 2, HD: 2]".parse()?, vec![1.0f32, 0.0, 0.0, 1.0])?;
    /// let k = DynTensor::from_vec("[KSEQ: 2, HD: 2]".parse()?, vec![1.0f32, 0.0, 0.0, 1.0])?;
    /// let seq = "SEQ".parse()?;
    /// let out = q.attention(&k, &k, &["HD".parse()?], &"KSEQ".parse()?, DynMask::Causal { axis: &seq, offset: 0 }, None)?;
    /// assert_eq!(out.shape().to_string(), "[SEQ: 2, HD: 2]");
    /// assert_eq!(&out.data()[..2], &[1.0, 0.0]);
    /// assert!(q.attention(&k, &k, &["HD".parse()?], &"SEQ".parse()?, DynMask::None, None).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn attention(
        &self,
        keys: &DynTensor<T>,
        values: &DynTensor<T>,
        depth: &[AxisSelector],
        key: &AxisSelector,
        mask: DynMask<'_, T>,
        scale: Option<T>,
    ) -> Result<DynTensor<T>, Error> {
        let (masking, offset) = match mask {
            DynMask::None => (Masking::None, 0),
            DynMask::Causal { axis, offset } => (Masking::Causal(axis), offset),
            DynMask::Additive(m) => (Masking::Additive(m.shape()), 0),
        };
        let plan = attention(
            self.shape(),
            keys.shape(),
            values.shape(),
            depth,
            key,
            masking,
        )?;
        let mut own: [Dims; 4] = Default::default();
        let [oq, ok, ov, om] = &mut own;
        let layouts = (self.layout(oq), keys.layout(ok), values.layout(ov));
        let mask = match mask {
            DynMask::Additive(m) => Some(m.layout(om)),
            _ => None,
        };
        let (sizes, data, _) = run(&plan, layouts, mask, offset, scale)?;
        let shape = plan.output.shape.resolve(&sizes)?;
        Ok(DynTensor::from_parts(shape, sizes, data))
    }
}

/// `use shapecast::prelude::*` (or `use shapecast::Attention`) to call
/// `q.attention::<D, KS>(&k, &v, mask, scale)`.
///
/// Scaled dot-product attention by name (rule book §17, attention), for tensors and views
/// with tensors or views as keys and values: the queries contracted with the keys over the
/// head dimension `D` (a name or a tuple of names), scaled (by default `1/sqrt(n)`, `n` the
/// size of `D`), masked, softmaxed over the key axis `KS` (a name the keys and values have
/// and the queries do not) and contracted with the values over `KS`, in one pass per block
/// of queries: the scores are never held whole. The result's shape is
/// [`Attend<Q, K, V, D, KS>`](crate::Attend), computed at compile time: the composition
/// `q.dot::<D>(&k).softmax::<KS>().dot::<KS>(&v)` would give the same shape and, to
/// rounding, the same values.
///
/// Grouped-query attention is the head axes paired by name: queries `[SEQ, KVH, GROUP, HD]`
/// with keys and values `[KSEQ, KVH, HD]` give `[SEQ, KVH, GROUP, HD]`, each KV head serving
/// its group (nothing copied).
///
/// ```
/// use shapecast::{names, shape, Attention, Causal, Dot, Reductions, Tensor};
/// names!(SEQ, KSEQ, KVH, GROUP, HD);
/// let q = Tensor::<f32, shape![SEQ, KVH: 2, GROUP: 2, HD: 4]>::from_fn(&[5, 2, 2, 4], |i| ((i[0] * 7 + i[3]) % 5) as f32 * 0.3)?;
/// let k = Tensor::<f32, shape![KSEQ, KVH: 2, HD: 4]>::from_fn(&[5, 2, 4], |i| ((i[0] + i[1] * 3 + i[2]) % 4) as f32 * 0.2)?;
/// let v = Tensor::<f32, shape![KSEQ, KVH: 2, HD: 4]>::from_fn(&[5, 2, 4], |i| (i[0] * 4 + i[2]) as f32)?;
/// let fused = q.attention::<HD, KSEQ>(&k, &v, Causal::<SEQ>::new(), None);
/// // The same by its parts: scores, a causal mask by name, softmax, values.
/// let mask = Tensor::<f32, shape![SEQ, KSEQ]>::from_fn(&[5, 5], |i| if i[1] > i[0] { f32::NEG_INFINITY } else { 0.0 })?;
/// let parts = (q.dot::<HD>(&k) * 0.5 + &mask).softmax::<KSEQ>().dot::<KSEQ>(&v);
/// assert_eq!(fused.sizes(), parts.sizes());
/// assert!(fused.data().iter().zip(parts.data()).all(|(a, b)| (a - b).abs() < 1e-4));
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Attention<K, V>: Contractible {
    /// The attention of these queries to `keys` with `values` (see the trait).
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit (the operators' convention), or on a refusal only the
    /// run-time rule sees (the queries having the key axis too, a causal axis the keys
    /// share); [`try_attention`](Self::try_attention) returns the error instead.
    #[track_caller]
    fn attention<D, KS>(
        &self,
        keys: &K,
        values: &V,
        mask: impl AttentionMask<Self::Elem, ScoresOf<Self, K, V, D, KS>>,
        scale: Option<Self::Elem>,
    ) -> Tensor<Self::Elem, AttendShape<Self, K, V, D, KS>>
    where
        Self: AttendBy<K, V, D, KS>,
    {
        self.try_attention::<D, KS>(keys, values, mask, scale)
            .or_panic()
    }

    /// [`attention`](Self::attention), or the error when a `?` size does not fit or the
    /// run-time rule refuses.
    ///
    /// ```
    /// use shapecast::{names, shape, Attention, NoMask, Tensor};
    /// names!(SEQ, KSEQ, HD);
    /// let q = Tensor::<f32, shape![SEQ: 1, HD]>::from_vec_sized(&[1, 2], vec![1.0, 1.0])?;
    /// let k = Tensor::<f32, shape![KSEQ: 2, HD]>::from_vec_sized(&[2, 3], vec![0.0; 6])?;
    /// assert!(q.try_attention::<HD, KSEQ>(&k, &k, NoMask, None).is_err()); // HD: 2 against 3
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_attention<D, KS>(
        &self,
        keys: &K,
        values: &V,
        mask: impl AttentionMask<Self::Elem, ScoresOf<Self, K, V, D, KS>>,
        scale: Option<Self::Elem>,
    ) -> Attended<Self, K, V, D, KS>
    where
        Self: AttendBy<K, V, D, KS>,
    {
        Self::attend((self, keys, values), mask, scale)
    }
}

/// The scores' shape of `Q`'s attention to `K` with `V` over `D` and `KS`: the queries
/// contracted with the keys over `D`, what a mask must broadcast into.
pub type ScoresOf<Q, K, V, D, KS> = <Q as AttendBy<K, V, D, KS>>::Scores;

/// The shape of `Q.attention::<D, KS>(&K, &V, ..)`.
type AttendShape<Q, K, V, D, KS> = <Q as AttendBy<K, V, D, KS>>::Output;

/// What `Q.try_attention::<D, KS>(&K, &V, ..)` gives.
type Attended<Q, K, V, D, KS> =
    Result<Tensor<<Q as Contractible>::Elem, AttendShape<Q, K, V, D, KS>>, Error>;

/// `Self` (queries) attends to keys `K` with values `V` over `D` and `KS`: [`AttendWith`] on
/// the operands' shapes, with an output that can hold the elements. The bound generic code
/// writes for [`Attention::attention`].
#[diagnostic::on_unimplemented(
    message = "cannot attend `{Self}` to keys `{K}` with values `{V}` over `{D}` and `{KS}`",
    label = "the queries and keys must contract over `{D}`, and the scores with the values over `{KS}`",
    note = "`{D}` names the head dimension (axes of the queries and the keys, equal in size); `{KS}` names the key axis (an axis of the keys and the values, equal in size)"
)]
pub trait AttendBy<K, V, D, KS>: Contractible {
    /// The shape of the result: [`Attend<Self::Shape, K::Shape, V::Shape, D, KS>`](crate::Attend).
    type Output: Storage<Self::Elem>;
    /// The scores' shape: [`Contract<Self::Shape, K::Shape, D>`](crate::Contract).
    type Scores: Shape;
    /// The head dimension's and the key axis' selectors.
    #[doc(hidden)]
    fn selectors() -> (Vec<AxisSelector>, AxisSelector);
    /// [`Attention::try_attention`], with every bound it needs.
    #[doc(hidden)]
    fn attend(
        operands: (&Self, &K, &V),
        mask: impl AttentionMask<Self::Elem, Self::Scores>,
        scale: Option<Self::Elem>,
    ) -> Result<Tensor<Self::Elem, Self::Output>, Error>;
}

#[diagnostic::do_not_recommend]
impl<Q, K, V, D, KS> AttendBy<K, V, D, KS> for Q
where
    Q: Contractible,
    Q::Elem: AttentionElement,
    K: Contractible<Elem = Q::Elem>,
    V: Contractible<Elem = Q::Elem>,
    D: Selector,
    KS: Axis,
    Q::Shape: AttendWith<K::Shape, V::Shape, D, KS>,
    <Q::Shape as AttendWith<K::Shape, V::Shape, D, KS>>::Output: Storage<Q::Elem>,
{
    type Output = <Q::Shape as AttendWith<K::Shape, V::Shape, D, KS>>::Output;
    type Scores = <Q::Shape as AttendWith<K::Shape, V::Shape, D, KS>>::Scores;
    fn selectors() -> (Vec<AxisSelector>, AxisSelector) {
        (D::selectors(), KS::selectors().remove(0))
    }
    fn attend(
        operands: (&Self, &K, &V),
        mask: impl AttentionMask<Self::Elem, Self::Scores>,
        scale: Option<Self::Elem>,
    ) -> Result<Tensor<Self::Elem, Self::Output>, Error> {
        traced::<Q, K, V, D, KS, _>(operands, mask, scale, |sizes, data, _, _| {
            Tensor::from_parts(&sizes, data)
        })
    }
}

impl<Q: Contractible, K, V> Attention<K, V> for Q {}

/// The attention of `q` to `k` with `v` by the rule, handed to `finish` as its sizes, its
/// data, its trace and the mask's elements (as the trace's offsets read them), or the
/// refusal.
pub(crate) fn traced<Q, K, V, D, KS, R>(
    (q, keys, values): (&Q, &K, &V),
    mask: impl AttentionMask<Q::Elem, ScoresOf<Q, K, V, D, KS>>,
    scale: Option<Q::Elem>,
    finish: impl FnOnce(Vec<usize>, Vec<Q::Elem>, Trace<Q::Elem>, Option<&[Q::Elem]>) -> R,
) -> Result<R, Error>
where
    Q: AttendBy<K, V, D, KS>,
    Q::Elem: AttentionElement,
    K: Contractible<Elem = Q::Elem>,
    V: Contractible<Elem = Q::Elem>,
{
    let mut own: [Own; 4] = Default::default();
    let [oq, ok, ov, om] = &mut own;
    let mut axis = None;
    let parts = mask.masking(om, &mut axis);
    let (masking, layout, offset) = match &parts {
        MaskParts::None => (Masking::None, None, 0),
        MaskParts::Causal(sel, offset) => (Masking::Causal(sel), None, *offset),
        MaskParts::Additive(shape, layout) => (Masking::Additive(shape), Some(*layout), 0),
    };
    let (depth, key) = <Q as AttendBy<K, V, D, KS>>::selectors();
    let plan = attention(
        &Q::Shape::to_dyn(),
        &K::Shape::to_dyn(),
        &V::Shape::to_dyn(),
        &depth,
        &key,
        masking,
    )?;
    let layouts = (q.layout(oq), keys.layout(ok), values.layout(ov));
    let (sizes, data, trace) = run(&plan, layouts, layout, offset, scale)?;
    Ok(finish(sizes, data, trace, layout.map(|m| m.data)))
}
