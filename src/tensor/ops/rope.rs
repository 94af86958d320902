//! Rotary position embeddings by name (rule book §16, norms and rotations), one pass
//! (`engine::rope`): a [`Rotary`] table of cosines and sines per position and feature pair,
//! and `rope::<P, F>` on tensors and views ([`Rope`]) and `DynTensor::rope`, turning the pairs
//! of the feature axis `F` by the angle of each row's position along `P`.
//!
//! ```
//! use shapecast::{names, shape, Rope, RopeStyle, Rotary, Tensor};
//! names!(SEQ, HEADS, HD);
//! let rot = Rotary::<f32>::new(RopeStyle::Adjacent, 4, 16, 10000.0)?;
//! let q = Tensor::<f32, shape![SEQ, HEADS: 2, HD: 4]>::from_fn(&[3, 2, 4], |i| 1.0 + i[2] as f32)?;
//! // The queries stand at positions 5, 6, 7 (after five cached ones).
//! let turned: Tensor<f32, shape![SEQ, HEADS: 2, HD: 4]> = q.rope::<SEQ, HD>(&rot, 5);
//! // A rotation keeps each pair's length.
//! let len = |a: f32, b: f32| (a * a + b * b).sqrt();
//! assert!((len(turned.data()[0], turned.data()[1]) - len(1.0, 2.0)).abs() < 1e-5);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use num_traits::Float;

use crate::dynamic::rope::{rope, Roped};
use crate::engine::dims::Dims;
use crate::engine::layout::{offset_tables, Strided};
use crate::engine::rope::{rotate, Geometry, Pairs};
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::rope::RotateOver;
use crate::typed::selector::Selector;
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::{Error, OrPanic};
use crate::values::selector::AxisSelector;
use crate::values::shape::DynShape;

/// Which features pair up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RopeStyle {
    /// Adjacent features `(2i, 2i + 1)`: Meta's Llama, llama2.c, GPT-J, torchtune.
    Adjacent,
    /// The two halves `(i, i + d/2)`: Hugging Face's Llama (`rotate_half`), GPT-NeoX.
    Halves,
}

/// The cosines and sines of a rotary embedding: for each position `p < positions` and pair
/// `i < head_dim / 2`, the angle `p · theta^(-2i / head_dim)`, computed in `T` as PyTorch's
/// references compute it in `f32`.
///
/// ```
/// use shapecast::{Rotary, RopeStyle};
/// let rot = Rotary::<f32>::new(RopeStyle::Halves, 64, 2048, 10000.0)?;
/// assert_eq!((rot.head_dim(), rot.positions()), (64, 2048));
/// assert!(Rotary::<f32>::new(RopeStyle::Halves, 63, 2048, 10000.0).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Rotary<T> {
    style: RopeStyle,
    head_dim: usize,
    positions: usize,
    cos: Vec<T>,
    sin: Vec<T>,
}

impl<T: Float> Rotary<T> {
    /// The table of `positions` positions for `head_dim` features (even), with base `theta`
    /// (10000 in Llama 2, 500000 in Llama 3).
    ///
    /// ```
    /// use shapecast::{Rotary, RopeStyle};
    /// let rot = Rotary::<f64>::new(RopeStyle::Adjacent, 2, 3, 10000.0)?;
    /// assert_eq!(rot.style(), RopeStyle::Adjacent);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn new(
        style: RopeStyle,
        head_dim: usize,
        positions: usize,
        theta: T,
    ) -> Result<Self, Error> {
        let d = T::from(head_dim).unwrap_or_else(T::one);
        Self::from_angles(style, head_dim, positions, |p, i| {
            let two_i = T::from(2 * i).unwrap_or_else(T::zero);
            let freq = T::one() / theta.powf(two_i / d);
            T::from(p).unwrap_or_else(T::zero) * freq
        })
    }

    /// The table whose angle for position `p` and pair `i` is `angle(p, i)`: for scaled
    /// variants (Llama 3's frequency scaling, NTK-aware scaling).
    ///
    /// ```
    /// use shapecast::{Rotary, RopeStyle};
    /// // Positions interpolated to half speed.
    /// let rot = Rotary::<f32>::from_angles(RopeStyle::Halves, 4, 8, |p, i| p as f32 * 0.5 / 100f32.powi(i as i32))?;
    /// assert_eq!(rot.positions(), 8);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_angles(
        style: RopeStyle,
        head_dim: usize,
        positions: usize,
        angle: impl Fn(usize, usize) -> T,
    ) -> Result<Self, Error> {
        let table = || DynShape::from_sizes(&[positions, head_dim / 2]).unwrap_or_default();
        if head_dim == 0 || head_dim % 2 == 1 {
            return Err(Error::Norm {
                op: "rope",
                shape: DynShape::from_sizes(&[head_dim]).unwrap_or_default(),
                axes: "its features".into(),
                reason: format!("a rotary table pairs the features, and {head_dim} is not a positive even number"),
            });
        }
        let half = head_dim / 2;
        crate::engine::allocation::ensure::<(T, T)>(&[positions, half], table)?;
        let mut cos = Vec::with_capacity(positions * half);
        let mut sin = Vec::with_capacity(positions * half);
        for p in 0..positions {
            for i in 0..half {
                let (s, c) = angle(p, i).sin_cos();
                cos.push(c);
                sin.push(s);
            }
        }
        Ok(Rotary {
            style,
            head_dim,
            positions,
            cos,
            sin,
        })
    }

    /// The features a row has.
    ///
    /// ```
    /// use shapecast::{Rotary, RopeStyle};
    /// assert_eq!(Rotary::<f32>::new(RopeStyle::Adjacent, 8, 4, 1e4)?.head_dim(), 8);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn head_dim(&self) -> usize {
        self.head_dim
    }

    /// The positions the table covers.
    ///
    /// ```
    /// use shapecast::{Rotary, RopeStyle};
    /// assert_eq!(Rotary::<f32>::new(RopeStyle::Adjacent, 8, 4, 1e4)?.positions(), 4);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Which features pair up.
    ///
    /// ```
    /// use shapecast::{Rotary, RopeStyle};
    /// assert_eq!(Rotary::<f32>::new(RopeStyle::Halves, 8, 4, 1e4)?.style(), RopeStyle::Halves);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn style(&self) -> RopeStyle {
        self.style
    }

    /// The table turning each pair by the opposite angle: a rotation's inverse and its
    /// transpose, which carries a gradient back through it.
    pub(crate) fn reversed(&self) -> Rotary<T> {
        Rotary {
            style: self.style,
            head_dim: self.head_dim,
            positions: self.positions,
            cos: self.cos.clone(),
            sin: self.sin.iter().map(|&s| -s).collect(),
        }
    }
}

/// `x` rotated by `table` by the plan `plan`, its rows at positions `offset..`: the data in
/// `x`'s shape, row-major.
fn run<T: Float + Send + Sync>(
    plan: Roped,
    shape: &dyn Fn() -> DynShape,
    x: Strided<'_, T>,
    table: &Rotary<T>,
    offset: usize,
    axes: &dyn Fn() -> String,
) -> Result<Vec<T>, Error> {
    let refuse = |reason: String| Error::Norm {
        op: "rope",
        shape: shape(),
        axes: axes(),
        reason,
    };
    let (p, f) = (plan.position, plan.feature);
    if x.sizes[f] != table.head_dim {
        return Err(refuse(format!(
            "the features have size {} and the table {}",
            x.sizes[f], table.head_dim
        )));
    }
    let last = offset.checked_add(x.sizes[p]);
    if last.is_none_or(|last| last > table.positions) {
        return Err(refuse(format!(
            "positions {offset}..{offset} + {} are past the table's {}",
            x.sizes[p], table.positions
        )));
    }
    let total = crate::engine::allocation::ensure::<T>(x.sizes, shape)?;
    let out = Dims::row_major(x.sizes);
    let rows: Vec<(usize, [usize; 3])> = (0..x.sizes.len())
        .filter(|&i| i != f)
        .map(|i| (x.sizes[i], [x.strides[i], out[i], usize::from(i == p)]))
        .collect();
    let mut tables = offset_tables(total, &rows);
    tables[2].iter_mut().for_each(|q| *q += offset);
    let g = Geometry {
        rows: tables,
        feature: [x.strides[f], out[f]],
        half: table.head_dim / 2,
    };
    let pairs = match table.style {
        RopeStyle::Adjacent => Pairs::Adjacent,
        RopeStyle::Halves => Pairs::Halves,
    };
    Ok(rotate(pairs, x.data, (&table.cos, &table.sin), &g, total))
}

impl<T: Float + Send + Sync> DynTensor<T> {
    /// The rotary embedding of this tensor (rule book §16): the feature pairs along
    /// `feature` turned by the angle of each row's position along `position`, the first row
    /// at position `offset` (the length of a KV cache before it). Or the refusal
    /// ([`Error::Norm`]): an axis missing, features of another count than the table's,
    /// positions past the table.
    ///
    /// ```
    /// use shapecast::{DynTensor, RopeStyle, Rotary};
    /// let rot = Rotary::<f32>::new(RopeStyle::Adjacent, 2, 4, 10000.0)?;
    /// let x = DynTensor::from_vec("[SEQ: 2, HD: 2]".parse()?, vec![1.0f32, 0.0, 1.0, 0.0])?;
    /// let y = x.rope(&"SEQ".parse()?, &"HD".parse()?, &rot, 0)?;
    /// // Position 1 turns (1, 0) by one radian.
    /// assert!((y.data()[2] - 1f32.cos()).abs() < 1e-6 && (y.data()[3] - 1f32.sin()).abs() < 1e-6);
    /// assert!(x.rope(&"SEQ".parse()?, &"HD".parse()?, &rot, 3).is_err()); // positions 3..5 of 4
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rope(
        &self,
        position: &AxisSelector,
        feature: &AxisSelector,
        table: &Rotary<T>,
        offset: usize,
    ) -> Result<DynTensor<T>, Error> {
        let plan = rope(self.shape(), position, feature)?;
        let mut own = Dims::default();
        let shape = || self.shape().clone();
        let axes = || format!("{position}, {feature}");
        let data = run(plan, &shape, self.layout(&mut own), table, offset, &axes)?;
        Ok(self.with_data(data))
    }
}

/// `use shapecast::prelude::*` (or `use shapecast::Rope`) to call `x.rope::<P, F>(&table,
/// offset)`.
///
/// Rotary position embeddings by name (rule book §16) on tensors and views, one pass: the
/// pairs of the feature axis `F` (adjacent or halves, as the [`Rotary`] table says) turned by
/// the angle of each row's index along `P` plus `offset`. The result has the input's shape,
/// so queries `[SEQ, KVH, GROUP, HD]` and keys `[SEQ, KVH, HD]` go through the same call.
///
/// ```
/// use shapecast::{names, shape, Rope, RopeStyle, Rotary, Tensor};
/// names!(SEQ, HD);
/// let rot = Rotary::<f32>::new(RopeStyle::Halves, 4, 8, 10000.0)?;
/// let x = Tensor::<f32, shape![SEQ, HD: 4]>::from_vec_sized(&[1, 4], vec![1.0, 2.0, 3.0, 4.0])?;
/// // Position 0 turns by nothing.
/// assert_eq!(x.rope::<SEQ, HD>(&rot, 0).data(), x.data());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Rope: Contractible<Elem: Float + Send + Sync> {
    /// The rotated tensor (see the trait).
    ///
    /// # Panics
    ///
    /// When the features are not the table's count or the positions run past the table
    /// (the operators' convention); [`try_rope`](Self::try_rope) returns the error instead.
    #[track_caller]
    fn rope<P, F>(
        &self,
        table: &Rotary<Self::Elem>,
        offset: usize,
    ) -> Tensor<Self::Elem, Self::Shape>
    where
        Self::Shape: RotateOver<P, F> + Storage<Self::Elem>,
        P: Selector,
        F: Selector,
    {
        self.try_rope::<P, F>(table, offset).or_panic()
    }

    /// [`rope`](Self::rope), or the error.
    ///
    /// ```
    /// use shapecast::{names, shape, Rope, RopeStyle, Rotary, Tensor};
    /// names!(SEQ, HD);
    /// let rot = Rotary::<f32>::new(RopeStyle::Halves, 4, 8, 10000.0)?;
    /// let x = Tensor::<f32, shape![SEQ, HD: 4]>::from_vec_sized(&[2, 4], vec![1.0; 8])?;
    /// assert!(x.try_rope::<SEQ, HD>(&rot, 7).is_err()); // positions 7 and 8 of 8
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn try_rope<P, F>(
        &self,
        table: &Rotary<Self::Elem>,
        offset: usize,
    ) -> Result<Tensor<Self::Elem, Self::Shape>, Error>
    where
        Self::Shape: RotateOver<P, F> + Storage<Self::Elem>,
        P: Selector,
        F: Selector,
    {
        let (ps, fs) = (P::selectors().remove(0), F::selectors().remove(0));
        let plan = rope(&Self::Shape::to_dyn(), &ps, &fs)?;
        let mut own = Own::default();
        let x = self.layout(&mut own);
        let shape = || {
            Self::Shape::to_dyn()
                .resolve(x.sizes)
                .unwrap_or_else(|_| Self::Shape::to_dyn())
        };
        let axes = || format!("{ps}, {fs}");
        let data = run(plan, &shape, x, table, offset, &axes)?;
        Ok(Tensor::from_parts(x.sizes, data))
    }
}

impl<X: Contractible<Elem: Float + Send + Sync>> Rope for X {}
