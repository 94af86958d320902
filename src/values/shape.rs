//! Run-time shapes: an ordered list of axes, each with a size and an optional name.
//!
//! This is the run-time twin of the type-level shapes: the same notation (rule book §0), the same
//! validity rules (names are identifiers, a name occurs at most once, rank at most
//! [`MAX_RANK`]).
//!
//! ```
//! use shapecast::DynShape;
//!
//! let img: DynShape = "[10, CHANNEL: 3, H: 256, W: 384]".parse()?;
//! assert_eq!(img.rank(), 4);
//! assert_eq!(img.position("H"), Some(2));
//! assert_eq!(img.to_string(), "[10, CHANNEL: 3, H: 256, W: 384]");
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use alloc::borrow::Cow;
use alloc::sync::Arc;
use core::fmt;

pub use super::name::Name;
use crate::values::error::Error;

/// The largest rank a shape may have; a longer shape is an error, never a crash.
///
/// ```
/// use shapecast::{DynShape, MAX_RANK};
///
/// assert!(DynShape::from_sizes(&vec![1; MAX_RANK]).is_ok());
/// assert!(DynShape::from_sizes(&vec![1; MAX_RANK + 1]).is_err());
/// ```
pub const MAX_RANK: usize = 64;

/// The largest rank a shape *type* has: [`shape!`](crate::shape) writes at most this many
/// axes, and the type level implements [`Shape`](crate::Shape) for tuples up to it. The one
/// source of this limit: `scripts/generate.py` reads it here to generate the tuples and
/// the macros' copy.
///
/// ```
/// assert_eq!(shapecast::MAX_TYPED_RANK, 16);
/// ```
pub const MAX_TYPED_RANK: usize = 16;

/// The first name that occurs twice among `axes`: the positions of its first and second
/// occurrence. The one scan for repeated names at run time (shapes, rule outputs); the type
/// level's twin is the `const fn` behind [`Shape::to_dyn`](crate::Shape::to_dyn).
pub(crate) fn first_repeat(axes: &[DynAxis]) -> Option<(usize, usize)> {
    axes.iter().enumerate().find_map(|(i, axis)| {
        let name = axis.name.as_ref()?;
        let j = axes[..i]
            .iter()
            .position(|a| a.name.as_ref() == Some(name))?;
        Some((j, i))
    })
}

/// The size of one axis: a number, or `?` when it is known only at run time.
///
/// ```
/// use shapecast::Size;
///
/// assert_eq!(Size::Known(3).to_string(), "3");
/// assert_eq!(Size::Unknown.to_string(), "?");
/// assert!(Size::Known(1).is_one());
/// assert!(!Size::Unknown.is_one());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// A size known now (0 allowed).
    Known(usize),
    /// A size known only at run time, written `?`.
    Unknown,
}

impl Size {
    /// Whether the size is statically 1 (the only sizes that may stretch under every rule).
    ///
    /// ```
    /// use shapecast::Size;
    /// assert!(Size::Known(1).is_one() && !Size::Known(2).is_one());
    /// ```
    pub fn is_one(self) -> bool {
        self == Size::Known(1)
    }

    /// The number, when known.
    ///
    /// ```
    /// use shapecast::Size;
    /// assert_eq!(Size::Known(7).known(), Some(7));
    /// assert_eq!(Size::Unknown.known(), None);
    /// ```
    pub fn known(self) -> Option<usize> {
        match self {
            Size::Known(n) => Some(n),
            Size::Unknown => None,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Known(n) => write!(f, "{n}"),
            Size::Unknown => f.write_str("?"),
        }
    }
}

/// One axis: a size and, optionally, a name.
///
/// ```
/// use shapecast::{DynAxis, Size};
///
/// let h = DynAxis::named("H", Size::Known(256))?;
/// assert_eq!(h.to_string(), "H: 256");
/// assert_eq!(DynAxis::named("W", Size::Unknown)?.to_string(), "W");
/// assert_eq!(DynAxis::unnamed(Size::Unknown).to_string(), "?");
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DynAxis {
    /// The axis' size.
    pub size: Size,
    /// The axis' name, if any.
    pub name: Option<Name>,
}

impl DynAxis {
    /// An unnamed axis.
    ///
    /// ```
    /// use shapecast::{DynAxis, Size};
    /// assert_eq!(DynAxis::unnamed(Size::Known(3)).to_string(), "3");
    /// ```
    pub fn unnamed(size: Size) -> DynAxis {
        DynAxis { size, name: None }
    }

    /// A named axis; fails if `name` is not an identifier.
    ///
    /// ```
    /// use shapecast::{DynAxis, Size};
    /// assert!(DynAxis::named("C", Size::Known(3)).is_ok());
    /// assert!(DynAxis::named("3C", Size::Known(3)).is_err());
    /// ```
    pub fn named(name: impl Into<Cow<'static, str>>, size: Size) -> Result<DynAxis, Error> {
        Ok(DynAxis {
            size,
            name: Some(Name::new(name)?),
        })
    }

    /// The name as a string, if any.
    ///
    /// ```
    /// use shapecast::{DynAxis, Size};
    /// assert_eq!(DynAxis::named("H", Size::Unknown)?.name_str(), Some("H"));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn name_str(&self) -> Option<&str> {
        self.name.as_ref().map(Name::as_str)
    }
}

impl fmt::Display for DynAxis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.name, self.size) {
            (None, size) => write!(f, "{size}"),
            (Some(name), Size::Unknown) => write!(f, "{name}"),
            (Some(name), Size::Known(n)) => write!(f, "{name}: {n}"),
        }
    }
}

/// A shape whose rank, sizes and names are known at run time.
///
/// Always valid: at most [`MAX_RANK`] axes and no repeated name. Parse it from the notation
/// of rule book §0 with [`str::parse`]; [`Display`](fmt::Display) prints the same notation, so
/// `parse(display(s)) == s`.
///
/// ```
/// use shapecast::DynShape;
///
/// let lbl: DynShape = "[?, H, W]".parse()?;
/// assert_eq!(lbl.to_string(), "[?, H, W]");
/// assert!("[H, H]".parse::<DynShape>().is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DynShape {
    /// Shared: a copy of a shape (every rule's result holds copies of its operands') is a
    /// reference count, not an allocation.
    axes: Arc<[DynAxis]>,
}

impl DynShape {
    /// A shape from its axes; fails on a repeated name or a rank above [`MAX_RANK`].
    ///
    /// ```
    /// use shapecast::{DynAxis, DynShape, Size};
    ///
    /// let s = DynShape::new([DynAxis::unnamed(Size::Known(2)), DynAxis::named("W", Size::Known(3))?])?;
    /// assert_eq!(s.to_string(), "[2, W: 3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn new(axes: impl IntoIterator<Item = DynAxis>) -> Result<DynShape, Error> {
        let axes: Vec<DynAxis> = axes.into_iter().collect();
        if axes.len() > MAX_RANK {
            return Err(Error::RankTooLarge {
                rank: axes.len(),
                max: MAX_RANK,
            });
        }
        if let Some((first, second)) = first_repeat(&axes) {
            return Err(Error::RepeatedName {
                name: axes[second]
                    .name
                    .as_ref()
                    .map(Name::to_string)
                    .unwrap_or_default(),
                first,
                second,
            });
        }
        Ok(DynShape { axes: axes.into() })
    }

    /// The scalar shape `[]`.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!(DynShape::scalar().rank(), 0);
    /// assert_eq!(DynShape::scalar().to_string(), "[]");
    /// ```
    pub fn scalar() -> DynShape {
        DynShape::default()
    }

    /// An unnamed shape of known sizes.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!(DynShape::from_sizes(&[4, 3])?.to_string(), "[4, 3]");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn from_sizes(sizes: &[usize]) -> Result<DynShape, Error> {
        DynShape::new(sizes.iter().map(|&n| DynAxis::unnamed(Size::Known(n))))
    }

    /// Theano's `row`: `[1, ?]`, broadcastable along its first axis.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!(DynShape::row().broadcastable(), vec![true, false]);
    /// ```
    pub fn row() -> DynShape {
        DynShape {
            axes: Arc::new([
                DynAxis::unnamed(Size::Known(1)),
                DynAxis::unnamed(Size::Unknown),
            ]),
        }
    }

    /// Theano's `col`: `[?, 1]`, broadcastable along its second axis.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!(DynShape::col().to_string(), "[?, 1]");
    /// ```
    pub fn col() -> DynShape {
        DynShape {
            axes: Arc::new([
                DynAxis::unnamed(Size::Unknown),
                DynAxis::unnamed(Size::Known(1)),
            ]),
        }
    }

    /// The number of axes.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!("[2, 3, 4]".parse::<DynShape>()?.rank(), 3);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.axes.len()
    }

    /// The axes, in order.
    ///
    /// ```
    /// use shapecast::{DynShape, Size};
    /// let s: DynShape = "[H: 2, ?]".parse()?;
    /// assert_eq!(s.axes()[1].size, Size::Unknown);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn axes(&self) -> &[DynAxis] {
        &self.axes
    }

    /// DynAxis `i`, if the shape has one.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// let s: DynShape = "[H: 2, W: 3]".parse()?;
    /// assert_eq!(s.axis(1).and_then(|a| a.name_str()), Some("W"));
    /// assert!(s.axis(2).is_none());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn axis(&self, i: usize) -> Option<&DynAxis> {
        self.axes.get(i)
    }

    /// The sizes, in order (`Size::Unknown` for `?`).
    ///
    /// ```
    /// use shapecast::{DynShape, Size};
    /// let s: DynShape = "[2, ?]".parse()?;
    /// assert_eq!(s.sizes().collect::<Vec<_>>(), vec![Size::Known(2), Size::Unknown]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sizes(&self) -> impl Iterator<Item = Size> + '_ {
        self.axes.iter().map(|a| a.size)
    }

    /// The sizes as numbers, or `None` if any size is `?`.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!("[2, W: 3]".parse::<DynShape>()?.known_sizes(), Some(vec![2, 3]));
    /// assert_eq!("[2, W]".parse::<DynShape>()?.known_sizes(), None);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn known_sizes(&self) -> Option<Vec<usize>> {
        self.sizes().map(Size::known).collect()
    }

    /// The index of the axis named `name`.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// let s: DynShape = "[?, CHANNEL: 3, H, W]".parse()?;
    /// assert_eq!(s.position("W"), Some(3));
    /// assert_eq!(s.position("X"), None);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn position(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.name_str() == Some(name))
    }

    /// Whether any axis has a name.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert!("[3, W: 4]".parse::<DynShape>()?.has_names());
    /// assert!(!"[3, 4]".parse::<DynShape>()?.has_names());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn has_names(&self) -> bool {
        self.axes.iter().any(|a| a.name.is_some())
    }

    /// Theano's broadcastable pattern (rule book §7): one boolean per axis, true where the size is
    /// statically 1.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!("[1, ?]".parse::<DynShape>()?.broadcastable(), vec![true, false]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn broadcastable(&self) -> Vec<bool> {
        self.sizes().map(Size::is_one).collect()
    }

    /// The number of elements; an error if a size is `?` or the product of sizes none of which
    /// is 0 overflows `usize`.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// assert_eq!("[2, 3, 4]".parse::<DynShape>()?.numel()?, 24);
    /// assert_eq!(DynShape::scalar().numel()?, 1);
    /// assert!(format!("[{0}, {0}]", usize::MAX).parse::<DynShape>()?.numel().is_err());
    /// // A zero size empties the shape whatever the others.
    /// assert_eq!(format!("[{0}, {0}, 0]", usize::MAX).parse::<DynShape>()?.numel()?, 0);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn numel(&self) -> Result<usize, Error> {
        let Some(sizes) = self.known_sizes() else {
            return Err(Error::UnknownSize {
                shape: self.clone(),
            });
        };
        element_count(&sizes).ok_or_else(|| Error::TooManyElements {
            shape: self.clone(),
        })
    }

    /// The same shape with every `?` replaced by the matching entry of `sizes`, checking that
    /// known sizes agree.
    ///
    /// ```
    /// use shapecast::DynShape;
    /// let s: DynShape = "[?, C: 3, H]".parse()?;
    /// assert_eq!(s.resolve(&[2, 3, 5])?.to_string(), "[2, C: 3, H: 5]");
    /// assert!(s.resolve(&[2, 4, 5]).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn resolve(&self, sizes: &[usize]) -> Result<DynShape, Error> {
        let mismatch = || Error::SizesMismatch {
            shape: self.clone(),
            sizes: sizes.to_vec(),
        };
        if !self.fits(sizes) {
            return Err(mismatch());
        }
        Ok(self.clone().into_resolved(sizes))
    }

    /// Whether [`resolve`](Self::resolve) would accept `sizes` (without building the shape).
    pub(crate) fn fits(&self, sizes: &[usize]) -> bool {
        sizes.len() == self.rank()
            && self
                .axes
                .iter()
                .zip(sizes)
                .all(|(axis, &n)| axis.size.known().is_none_or(|k| k == n))
    }

    /// [`resolve`](Self::resolve) in place, for sizes the caller has checked with
    /// [`fits`](Self::fits) (or computed from this shape).
    ///
    /// A shape already resolved (every size known, as `sizes` say) is returned as it is,
    /// sharing its axes.
    pub(crate) fn into_resolved(mut self, sizes: &[usize]) -> DynShape {
        debug_assert!(self.fits(sizes));
        let resolved = |axes: &[DynAxis]| {
            axes.iter()
                .zip(sizes)
                .all(|(axis, &n)| axis.size == Size::Known(n))
        };
        if !resolved(&self.axes) {
            for (axis, &n) in Arc::make_mut(&mut self.axes).iter_mut().zip(sizes) {
                axis.size = Size::Known(n);
            }
        }
        self
    }

    /// Builds a shape whose validity the caller guarantees (no repeated names, rank in range).
    pub(crate) fn from_axes_unchecked(axes: Vec<DynAxis>) -> DynShape {
        debug_assert!(axes.len() <= MAX_RANK && first_repeat(&axes).is_none());
        DynShape { axes: axes.into() }
    }

    /// [`from_axes_unchecked`](Self::from_axes_unchecked) from borrowed axes (names are
    /// shared, so copying them allocates nothing but the shape).
    pub(crate) fn from_slice_unchecked(axes: &[DynAxis]) -> DynShape {
        debug_assert!(axes.len() <= MAX_RANK && first_repeat(axes).is_none());
        DynShape { axes: axes.into() }
    }
}

impl fmt::Display for DynShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, axis) in self.axes.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{axis}")?;
        }
        f.write_str("]")
    }
}
/// The element count of `sizes`: their product, `None` when it overflows `usize`. A zero
/// anywhere makes it 0, whatever the other sizes (`[usize::MAX, 3, 0]` holds no element).
/// The crate's one checked count: shapes, tensor buffers, views and files use it.
pub(crate) fn element_count(sizes: &[usize]) -> Option<usize> {
    if sizes.contains(&0) {
        return Some(0);
    }
    sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n))
}

/// String equality in a const context.
pub(crate) const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
