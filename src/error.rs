//! The one error type of the library (rule book §15).
//!
//! Every refusal names both shapes in the notation of rule book §0, the offending axis (its index
//! and name) and the rule:
//!
//! ```
//! use shapecast::{broadcast, DynShape, Rule};
//!
//! let a: DynShape = "[2, 3]".parse()?;
//! let b: DynShape = "[4, 3]".parse()?;
//! let err = broadcast(Rule::Numpy, &a, &b).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "cannot broadcast [2, 3] with [4, 3] (numpy rule): axis 0 has size 2 on the left and 4 on the right"
//! );
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::fmt;

use crate::dynamic::reduce::AxisSelector;
use crate::dynamic::rule::Rule;
use crate::dynamic::shape::{DynShape, Name, Size};

/// Everything that can go wrong: bad input (a malformed shape, a bad name or axis), or a
/// rule refusing two shapes.
///
/// ```
/// use shapecast::{DynShape, Error};
///
/// let err = "[H: 2, H: 3]".parse::<DynShape>().unwrap_err();
/// assert!(matches!(err, Error::Parse { .. }));
/// assert!(!err.is_refusal());
/// ```
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A shape string that is not in the notation.
    #[error("cannot parse shape {input:?} at byte {offset}: {kind}")]
    Parse {
        /// The whole input.
        input: String,
        /// Byte offset of the offending token.
        offset: usize,
        /// What is wrong there.
        kind: ParseErrorKind,
    },
    /// A name that is not an identifier.
    #[error("{name:?} is not an identifier and cannot name an axis")]
    InvalidName {
        /// The offending name.
        name: String,
    },
    /// A name given to two axes of one shape.
    #[error("repeated name {name}: axes {first} and {second} are both named {name}")]
    RepeatedName {
        /// The name.
        name: String,
        /// The first axis with it.
        first: usize,
        /// The second axis with it.
        second: usize,
    },
    /// A rank above [`MAX_RANK`](crate::MAX_RANK).
    #[error("rank {rank} is above the supported limit of {max}")]
    RankTooLarge {
        /// The rank asked for.
        rank: usize,
        /// The limit.
        max: usize,
    },
    /// A PDPD axis that is neither -1 nor non-negative (rule book §8, step 2).
    #[error("invalid pdpd axis {axis}: it must be -1 (the default) or at least 0")]
    InvalidAxis {
        /// The axis given.
        axis: isize,
    },
    /// An element count asked of a shape with a `?` size.
    #[error("the shape {shape} has a size known only at run time: give its sizes (Tensor::from_vec_sized, zeros_sized, or DynShape::resolve)")]
    UnknownSize {
        /// The shape.
        shape: DynShape,
    },
    /// An element count that does not fit `usize`.
    #[error("the element count of {shape} overflows usize")]
    TooManyElements {
        /// The shape.
        shape: DynShape,
    },
    /// Run-time sizes that do not fit a shape.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let e = Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2], vec![0; 6]).unwrap_err();
    /// assert_eq!(e.to_string(), "1 size given for the rank-2 shape [?, 3]");
    /// let e = Tensor::<u8, shape![?, 3]>::from_vec_sized(&[2, 4], vec![0; 8]).unwrap_err();
    /// assert_eq!(e.to_string(), "the sizes [2, 4] do not fit the shape [?, 3]: axis 1 is 3, not 4");
    /// ```
    #[error("{}", sizes_mismatch(shape, sizes))]
    SizesMismatch {
        /// The shape.
        shape: DynShape,
        /// The sizes given.
        sizes: Vec<usize>,
    },
    /// Data and strides that do not fit together (see [`kernel`](crate::kernel)).
    #[error("bad layout: {what}")]
    Layout {
        /// What does not fit.
        what: String,
    },
    /// An index that index-access broadcasting refuses (rule book §12).
    #[error("cannot index {shape}: {reason}")]
    Index {
        /// The tensor's shape.
        shape: DynShape,
        /// Why.
        reason: String,
    },
    /// A rule refusing two shapes.
    #[error(transparent)]
    Refused(Box<Refusal>),
    /// An axis selector that names no axis of the shape: a name it lacks, or a position past
    /// its rank (rule book §16).
    #[error("cannot reduce {shape} over {selector}: {}", match selector { AxisSelector::Name(n) => format!("it has no axis {n}"), AxisSelector::Pos(k) => format!("position {k} is past its rank {}", shape.rank()) })]
    UnknownAxis {
        /// The shape.
        shape: DynShape,
        /// The selector.
        selector: AxisSelector,
    },
    /// An axis selected twice (rule book §16).
    #[error("cannot reduce {shape} over {selector}: it selects axis {axis}, already selected")]
    RepeatedAxis {
        /// The shape.
        shape: DynShape,
        /// The second selector of the axis.
        selector: AxisSelector,
        /// The axis.
        axis: usize,
    },
    /// A contraction refused (rule book §17): a name missing on a side, contracted sizes that
    /// differ, or other axes that do not broadcast.
    #[error("cannot contract {lhs} with {rhs} over {over}: {reason}")]
    Contraction {
        /// The left operand.
        lhs: DynShape,
        /// The right operand.
        rhs: DynShape,
        /// The contracted names, as written.
        over: String,
        /// Why.
        reason: String,
    },
    /// A shape operation refused (rule book §18): a selector that picks no axis, a name that
    /// would occur twice, sizes whose product or sum does not fit, axes that are not adjacent,
    /// an index or a window out of range.
    ///
    /// ```
    /// use shapecast::dynamic::surgery::select;
    /// let err = select(&"[H: 2, W: 3]".parse()?, &"C".parse()?).unwrap_err();
    /// assert_eq!(err.to_string(), "cannot select along C of [H: 2, W: 3]: [H: 2, W: 3] has no axis C");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot {op}: {reason}")]
    Surgery {
        /// What was asked, with the shapes.
        op: String,
        /// What is wrong.
        reason: String,
    },
    /// A matrix product refused (rule book §17): a scalar operand, `K` axes that differ, batch
    /// axes that do not broadcast, or an output that would repeat a name.
    #[error("cannot multiply {lhs} by {rhs} as matrices: {reason}")]
    MatMul {
        /// The left operand.
        lhs: DynShape,
        /// The right operand.
        rhs: DynShape,
        /// Why.
        reason: String,
    },
    /// A maximum, minimum or arg-maximum over an axis of size 0 (rule book §16).
    #[error(
        "cannot take the {op} of {shape} over axis {axis}: it is empty and {op} has no identity"
    )]
    EmptyAxis {
        /// The operation (`max`, `min`, `argmax`, `argmin`).
        op: &'static str,
        /// The tensor's shape.
        shape: DynShape,
        /// The empty axis.
        axis: usize,
    },
    /// A tensor too large to exist: its elements take more than `isize::MAX` bytes, or the
    /// allocator refuses the memory. Checked before anything is allocated, so a shape that
    /// holds no element (`[0, usize::MAX / 2]`) is fine and one whose result would not fit is
    /// this error, never an abort.
    #[error("a tensor of {shape} needs {elements} elements of {element_bytes} bytes, more than can be allocated")]
    TooLarge {
        /// The tensor's shape.
        shape: DynShape,
        /// Its element count.
        elements: usize,
        /// Bytes an element.
        element_bytes: usize,
    },
    /// A file that cannot be opened, read or written (`io`).
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// A file whose contents are not a valid `.npy` or `.safetensors` file, or hold what
    /// shapecast does not read (`io`): a bad or truncated header, data shorter or longer than
    /// the header says, an element type without a Rust twin.
    #[error("{path}: {reason}")]
    BadFile {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A file has no tensor of this name (`io`).
    #[error(
        "{path} has no tensor named {name:?} (it has {})",
        list_names(available)
    )]
    NoSuchTensor {
        /// The file.
        path: String,
        /// The name asked for.
        name: String,
        /// The names it has, sorted.
        available: Vec<String>,
    },
    /// A stored tensor's element type is not the one asked for (`io`).
    #[error("{path}{}: the elements are {found}, not {expected}", in_tensor(name))]
    FileElement {
        /// The file.
        path: String,
        /// The tensor's name in the file (`None` for a `.npy` file).
        name: Option<String>,
        /// The stored element type, as the file writes it.
        found: String,
        /// The Rust element type asked for.
        expected: &'static str,
    },
    /// A stored tensor's sizes do not fit the shape asked for (`io`): the file's sizes, the
    /// type's shape, and, when the file's sizes are a reordering of the shape's, the shape
    /// to declare to read the tensor as stored.
    #[error("{}", file_shape(path, name, sizes, shape, declare.as_ref()))]
    FileShape {
        /// The file.
        path: String,
        /// The tensor's name in the file (`None` for a `.npy` file).
        name: Option<String>,
        /// The stored sizes.
        sizes: Vec<usize>,
        /// The shape asked for.
        shape: DynShape,
        /// The shape with its axes in the file's order, when that order fits.
        declare: Option<DynShape>,
    },
}

/// `, tensor "name"` or nothing.
fn in_tensor(name: &Option<String>) -> String {
    name.as_ref()
        .map_or(String::new(), |n| format!(", tensor {n:?}"))
}

/// The names a file has, for a message (the first ten).
fn list_names(names: &[String]) -> String {
    if names.is_empty() {
        return "no tensors".into();
    }
    let shown: Vec<&str> = names.iter().take(10).map(String::as_str).collect();
    let more = names.len().saturating_sub(10);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The message of [`Error::FileShape`].
fn file_shape(
    path: &str,
    name: &Option<String>,
    sizes: &[usize],
    shape: &DynShape,
    declare: Option<&DynShape>,
) -> String {
    let list: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let mut m = format!(
        "{path}{}: the file holds [{}], which does not fit {shape}",
        in_tensor(name),
        list.join(", ")
    );
    if let Some(d) = declare {
        m.push_str(&format!(
            "; its sizes are {shape} reordered: declare {d} to read it as stored"
        ));
    }
    m
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        Error::Refused(Box::new(r))
    }
}

/// The operators' convention (rule book §15): a refusal becomes a panic with its text, at the
/// caller's line (the method is `#[track_caller]`, so a `#[track_caller]` operator passes its
/// own caller's location on; a closure would not).
pub(crate) trait OrPanic<T> {
    /// The value, or a panic with the error's message.
    fn or_panic(self) -> T;
}

/// The panic of [`OrPanic`], out of line so that the happy path stays small.
#[cold]
#[inline(never)]
#[track_caller]
fn refused(e: Error) -> ! {
    panic!("{e}")
}

impl<T> OrPanic<T> for Result<T, Error> {
    #[track_caller]
    #[inline]
    fn or_panic(self) -> T {
        match self {
            Ok(value) => value,
            Err(e) => refused(e),
        }
    }
}

/// The message itself, so that `fn main() -> Result<(), shapecast::Error>` prints the
/// sentence rather than the structure; match on the variants for the parts.
///
/// ```
/// let err = "[3, 4".parse::<shapecast::DynShape>().unwrap_err();
/// assert_eq!(format!("{err:?}"), err.to_string());
/// ```
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Error {
    /// Whether this is a rule refusing valid shapes (as opposed to bad input).
    ///
    /// ```
    /// use shapecast::{broadcast, DynShape, Rule};
    /// let err = broadcast(Rule::Numpy, &"[3]".parse()?, &"[2]".parse()?).unwrap_err();
    /// assert!(err.is_refusal());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Error::Refused(_)
                | Error::UnknownAxis { .. }
                | Error::RepeatedAxis { .. }
                | Error::Contraction { .. }
                | Error::MatMul { .. }
                | Error::Surgery { .. }
        )
    }
}

/// What is wrong in a malformed shape string.
///
/// ```
/// use shapecast::{DynShape, Error, ParseErrorKind};
/// match "[3,]".parse::<DynShape>() {
///     Err(Error::Parse { kind, .. }) => assert_eq!(kind, ParseErrorKind::EmptyAxis),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The shape does not start with `[`.
    #[error("expected '[' to open the shape")]
    MissingOpenBracket,
    /// The input ends before `]`.
    #[error("missing ']' to close the shape")]
    MissingCloseBracket,
    /// Something after the closing `]`.
    #[error("unexpected {0:?} after ']'")]
    TrailingInput(char),
    /// A comma with no axis before or after it.
    #[error("empty axis")]
    EmptyAxis,
    /// A `NAME:` with no size.
    #[error("missing size after ':'")]
    MissingSize,
    /// A negative size.
    #[error("negative size {0}")]
    NegativeSize(String),
    /// A size that is not a whole number.
    #[error("{0:?} is not a size (a whole number or '?')")]
    InvalidSize(String),
    /// A size that does not fit `usize`.
    #[error("size {0} does not fit usize")]
    SizeOverflow(String),
    /// A name that is not an identifier.
    #[error("{0:?} is not an identifier")]
    InvalidName(String),
    /// A name given twice.
    #[error("repeated name {0}")]
    RepeatedName(String),
    /// More axes than [`MAX_RANK`](crate::MAX_RANK).
    #[error("rank above the supported limit of {max}")]
    RankTooLarge {
        /// The limit.
        max: usize,
    },
    /// A character that has no place here.
    #[error("unexpected {0:?}")]
    Unexpected(char),
}

/// A rule refusing two shapes: both shapes, the rule, and the reason with the axis at fault.
///
/// ```
/// use shapecast::{broadcast, DynShape, Error, Reason, Rule};
///
/// let err = broadcast(Rule::Numpy, &"[H: 2]".parse()?, &"[W: 2]".parse()?).unwrap_err();
/// let Error::Refused(refusal) = err else { panic!() };
/// assert!(matches!(refusal.reason, Reason::Names { axis: 0, .. }));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rule that refused.
    pub rule: Rule,
    /// The left operand (the destination for `assign`, the input for `bidirectional`).
    pub lhs: DynShape,
    /// The right operand (the target for `bidirectional`).
    pub rhs: DynShape,
    /// Why, and where.
    pub reason: Reason,
}

impl core::error::Error for Refusal {}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, r) = (&self.lhs, &self.rhs);
        match self.rule {
            Rule::Assign => write!(f, "cannot assign {r} into {l}")?,
            Rule::Bidirectional => write!(f, "cannot broadcast {l} to {r}")?,
            Rule::Pdpd { .. } => write!(f, "cannot broadcast {r} onto {l}")?,
            Rule::Compare => write!(f, "cannot compare {l} with {r}")?,
            _ => write!(f, "cannot broadcast {l} with {r}")?,
        }
        write!(f, " ({} rule): ", self.rule)?;
        match &self.reason {
            // A pair where one side is named and the other is not: say which is which
            // (rule book §19), and the usual cause.
            Reason::Sizes {
                axis,
                lhs_axis: Some(i),
                rhs_axis: Some(j),
                lhs,
                rhs,
                ..
            } => {
                let (ln, rn) = (&l.axes()[*i].name, &r.axes()[*j].name);
                if ln.is_some() == rn.is_some() {
                    return write!(f, "{}", self.reason);
                }
                let name =
                    |n: &Option<Name>| n.as_ref().map_or("unnamed", Name::as_str).to_string();
                let named = ln.as_ref().or(rn.as_ref()).map_or("", Name::as_str);
                write!(
                    f,
                    "axis {axis} is {} on the left (size {lhs}) and {} on the right (size {rhs}); \
                     {named} has no namesake on the other side, so it took an unnamed axis",
                    name(ln),
                    name(rn),
                )
            }
            Reason::Names {
                axis,
                lhs_name: None,
                rhs_name: Some(n),
                ..
            } if matches!(self.rule, Rule::Assign | Rule::Pdpd { .. }) => write!(
                f,
                "axis {axis} is unnamed in the destination and {n} in the source, so the name {n} \
                 would be lost: rename the source's axis first (or drop its name explicitly)"
            ),
            reason => write!(f, "{reason}"),
        }
    }
}

/// Which operand an axis or a name belongs to.
///
/// ```
/// use shapecast::Side;
/// assert_eq!(Side::Left.to_string(), "left");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The left operand.
    Left,
    /// The right operand.
    Right,
}

impl Side {
    /// The other side.
    ///
    /// ```
    /// use shapecast::Side;
    /// assert_eq!(Side::Left.other(), Side::Right);
    /// ```
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}

/// Why a rule refused, with the output axis at fault where there is one.
///
/// ```
/// use shapecast::{broadcast, DynShape, Error, Reason, Rule, Size};
///
/// let err = broadcast(Rule::Numpy, &"[5, 2, 4, 1]".parse()?, &"[3, 1, 1]".parse()?).unwrap_err();
/// let Error::Refused(r) = err else { panic!() };
/// assert_eq!(r.reason, Reason::Sizes {
///     axis: 1, name: None,
///     lhs_axis: Some(1), rhs_axis: Some(0),
///     lhs: Size::Known(2), rhs: Size::Known(3),
/// });
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Two paired axes whose sizes the rule does not accept.
    Sizes {
        /// The output axis.
        axis: usize,
        /// Its name, if any side names it.
        name: Option<Name>,
        /// The left operand's axis, if any.
        lhs_axis: Option<usize>,
        /// The right operand's axis, if any.
        rhs_axis: Option<usize>,
        /// The left size (1 for an inserted singleton).
        lhs: Size,
        /// The right size (1 for an inserted singleton).
        rhs: Size,
    },
    /// Two paired axes with different names (or, under the strict and compare rules, a name
    /// on one side only).
    Names {
        /// The output axis.
        axis: usize,
        /// The left operand's axis.
        lhs_axis: usize,
        /// The right operand's axis.
        rhs_axis: usize,
        /// The left name.
        lhs_name: Option<Name>,
        /// The right name.
        rhs_name: Option<Name>,
    },
    /// Named rule, step 3: named axes of the smaller operand without a namesake in the other
    /// and no unnamed axis free for them.
    NoNamesake {
        /// The operand that owns the names.
        side: Side,
        /// The names without a namesake.
        names: Vec<Name>,
        /// The output axis where a name met another name.
        axis: usize,
        /// The left operand's axis there.
        lhs_axis: usize,
        /// The right operand's axis there.
        rhs_axis: usize,
    },
    /// Embedding rule: an axis of the smaller operand with no compatible partner left of the
    /// axes matched after it.
    NoMatch {
        /// The smaller operand.
        side: Side,
        /// Its axis that finds no partner.
        axis: usize,
    },
    /// The right operand has more axes than the rule allows (assign, pdpd).
    RhsRank {
        /// The left rank.
        lhs: usize,
        /// The right rank.
        rhs: usize,
    },
    /// The ranks must be equal (strict, compare).
    Ranks {
        /// The left rank.
        lhs: usize,
        /// The right rank.
        rhs: usize,
    },
    /// PDPD: `axis + rank(B)` exceeds `rank(A)`.
    PdpdRange {
        /// The start axis in effect.
        axis: usize,
        /// The right rank after trailing 1s are dropped.
        rhs: usize,
        /// The left rank.
        lhs: usize,
    },
    /// The result would name two axes alike.
    RepeatedName {
        /// The name.
        name: Name,
        /// The first output axis.
        first: usize,
        /// The second output axis.
        second: usize,
    },
    /// Assign: broadcasting would change the destination's size.
    Grows {
        /// The output axis.
        axis: usize,
        /// The destination's size.
        lhs: Size,
        /// The size the broadcast gives.
        out: Size,
    },
}

/// The message of [`Error::SizesMismatch`]: the count when it is wrong, else the first static
/// size that differs.
fn sizes_mismatch(shape: &DynShape, sizes: &[usize]) -> String {
    if sizes.len() != shape.rank() {
        let s = if sizes.len() == 1 { "size" } else { "sizes" };
        return format!(
            "{} {s} given for the rank-{} shape {shape}",
            sizes.len(),
            shape.rank()
        );
    }
    let differs = shape
        .axes()
        .iter()
        .zip(sizes)
        .enumerate()
        .find_map(|(k, (a, &n))| match a.size {
            Size::Known(m) if m != n => Some(format!(": axis {k} is {m}, not {n}")),
            _ => None,
        })
        .unwrap_or_default();
    format!("the sizes {sizes:?} do not fit the shape {shape}{differs}")
}

fn where_(axis: usize, name: &Option<Name>) -> String {
    match name {
        Some(n) => format!("axis {axis} ({n})"),
        None => format!("axis {axis}"),
    }
}

/// One side of a size pair: `size 2`, `size 2 (its axis 1)` or `an inserted 1`; the right
/// side leaves out the word "size" (`2 on the left and 4 on the right`).
fn side_size(size: Size, own: Option<usize>, axis: usize, word: bool) -> String {
    let word = if word { "size " } else { "" };
    match own {
        None => "an inserted 1".to_string(),
        Some(k) if k == axis => format!("{word}{size}"),
        Some(k) => format!("{word}{size} (its axis {k})"),
    }
}

fn names(names: &[Name]) -> String {
    names
        .iter()
        .map(Name::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Sizes {
                axis,
                name,
                lhs_axis,
                rhs_axis,
                lhs,
                rhs,
            } => write!(
                f,
                "{} has {} on the left and {} on the right",
                where_(*axis, name),
                side_size(*lhs, *lhs_axis, *axis, true),
                side_size(*rhs, *rhs_axis, *axis, lhs_axis.is_none()),
            ),
            Reason::Names {
                axis,
                lhs_axis,
                rhs_axis,
                lhs_name,
                rhs_name,
            } => {
                let show = |n: &Option<Name>, k: usize| match n {
                    Some(n) => format!("named {n} (axis {k})"),
                    None => format!("unnamed (axis {k})"),
                };
                write!(
                    f,
                    "axis {axis} pairs an axis {} on the left with one {} on the right",
                    show(lhs_name, *lhs_axis),
                    show(rhs_name, *rhs_axis)
                )
            }
            Reason::NoNamesake {
                side,
                names: n,
                axis,
                ..
            } => write!(
                f,
                "{} on the {side} {} no namesake on the {} and no unnamed axis is free for {} \
                 (at axis {axis} two different names meet; use the outer rule)",
                names(n),
                if n.len() == 1 { "has" } else { "have" },
                side.other(),
                if n.len() == 1 { "it" } else { "them" },
            ),
            Reason::NoMatch { side, axis } => write!(
                f,
                "axis {axis} of the {side} has no compatible partner in order \
                 (no order-preserving matching exists)"
            ),
            Reason::RhsRank { lhs, rhs } => write!(
                f,
                "the right has rank {rhs}, more than the left's rank {lhs}"
            ),
            Reason::Ranks { lhs, rhs } => {
                write!(f, "the ranks differ: {lhs} on the left, {rhs} on the right")
            }
            Reason::PdpdRange { axis, rhs, lhs } => write!(
                f,
                "start axis {axis} plus the right's rank {rhs} exceeds the left's rank {lhs}"
            ),
            Reason::RepeatedName {
                name,
                first,
                second,
            } => write!(
                f,
                "the result would name both axis {first} and axis {second} {name}"
            ),
            Reason::Grows { axis, lhs, out } => write!(
                f,
                "axis {axis} would grow the destination's size {lhs} to {out}"
            ),
        }
    }
}
