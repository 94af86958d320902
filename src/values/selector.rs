//! Axis selectors at run time (rule book §16): a name, or a position counting every axis from
//! 0, and which axes a list of them picks in a shape. Reductions, contractions and shape
//! surgery select axes with them. The twin of `typed::selector`.

use crate::alloc_prelude::*;

use core::fmt;
use core::str::FromStr;

use crate::values::error::Error;
use crate::values::shape::same_str;
use crate::values::shape::{DynShape, Name, MAX_TYPED_RANK};

/// An axis selector: a name, or a position counting every axis from 0 (rule book §16).
/// Parsed from `"CLASS"` or `"1"`.
///
/// ```
/// use shapecast::AxisSelector;
/// assert_eq!("1".parse::<AxisSelector>()?, AxisSelector::Pos(1));
/// assert_eq!("H".parse::<AxisSelector>()?.to_string(), "H");
/// assert!("-1".parse::<AxisSelector>().is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AxisSelector {
    /// The axis of this name.
    Name(Name),
    /// The axis at this position.
    Pos(usize),
}

/// A selector as a constant: its elementary selectors (names and positions) in order, what
/// the type level's [`Selector`](crate::Selector) computes plans from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct StaticSelectors {
    /// How many.
    pub len: usize,
    /// Each a name (`Ok`) or a position (`Err`).
    pub items: [Result<&'static str, usize>; MAX_TYPED_RANK],
}

impl StaticSelectors {
    /// One selector.
    pub const fn one(item: Result<&'static str, usize>) -> StaticSelectors {
        let mut items = [Err(0); MAX_TYPED_RANK];
        items[0] = item;
        StaticSelectors { len: 1, items }
    }

    /// These selectors, then `more`'s (at most [`MAX_TYPED_RANK`] in all).
    pub const fn then(mut self, more: StaticSelectors) -> StaticSelectors {
        let mut k = 0;
        while k < more.len && self.len < MAX_TYPED_RANK {
            self.items[self.len] = more.items[k];
            self.len += 1;
            k += 1;
        }
        self
    }

    /// The position the `k`-th selector picks among `names` (a shape's axis names), if any.
    pub const fn position(&self, k: usize, names: &[Option<&str>]) -> Option<usize> {
        let name = match self.items[k] {
            Err(pos) => return if pos < names.len() { Some(pos) } else { None },
            Ok(name) => name,
        };
        position_of(name, names)
    }
}

/// The position of the axis called `name` among `names`, if any (in a constant).
pub(crate) const fn position_of(name: &str, names: &[Option<&str>]) -> Option<usize> {
    let mut i = 0;
    while i < names.len() {
        if let Some(other) = names[i]
            && same_str(name, other)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

impl fmt::Display for AxisSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxisSelector::Name(n) => write!(f, "{n}"),
            AxisSelector::Pos(k) => write!(f, "position {k}"),
        }
    }
}

impl FromStr for AxisSelector {
    type Err = Error;

    fn from_str(s: &str) -> Result<AxisSelector, Error> {
        let s = s.trim();
        if s.starts_with(|c: char| c.is_ascii_digit()) {
            return s
                .parse()
                .map(AxisSelector::Pos)
                .map_err(|_| Error::InvalidName {
                    name: s.to_string(),
                });
        }
        Ok(AxisSelector::Name(Name::new(s.to_string())?))
    }
}

impl From<usize> for AxisSelector {
    fn from(k: usize) -> AxisSelector {
        AxisSelector::Pos(k)
    }
}

impl AxisSelector {
    /// The position of the axis this selector picks in `shape`, if any.
    ///
    /// ```
    /// use shapecast::AxisSelector;
    /// let s = "[?, CLASS: 10]".parse()?;
    /// assert_eq!("CLASS".parse::<AxisSelector>()?.position(&s), Some(1));
    /// assert_eq!(AxisSelector::Pos(2).position(&s), None);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn position(&self, shape: &DynShape) -> Option<usize> {
        match self {
            AxisSelector::Pos(k) => (*k < shape.rank()).then_some(*k),
            AxisSelector::Name(n) => shape.axes().iter().position(|a| a.name.as_ref() == Some(n)),
        }
    }
}

/// Which axes of `shape` the selectors pick (true = reduced), or the refusal: a selector that
/// picks no axis ([`Error::UnknownAxis`]) or an axis picked twice ([`Error::RepeatedAxis`]),
/// the first such selector named.
///
/// ```
/// use shapecast::dynamic::selector::{selected, AxisSelector};
/// let s = "[2, H: 3, 4]".parse()?;
/// assert_eq!(selected(&s, &["H".parse()?, AxisSelector::Pos(2)])?, vec![false, true, true]);
/// assert!(selected(&s, &["H".parse()?, AxisSelector::Pos(1)]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn selected(shape: &DynShape, selectors: &[AxisSelector]) -> Result<Vec<bool>, Error> {
    let mut mask = vec![false; shape.rank()];
    for selector in selectors {
        let Some(axis) = selector.position(shape) else {
            return Err(Error::UnknownAxis {
                shape: shape.clone(),
                selector: selector.clone(),
            });
        };
        if mask[axis] {
            return Err(Error::RepeatedAxis {
                shape: shape.clone(),
                selector: selector.clone(),
                axis,
            });
        }
        mask[axis] = true;
    }
    Ok(mask)
}
