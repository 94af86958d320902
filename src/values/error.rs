//! The one error type of the library (rule book §15).
//!
//! **Layer.** The values, the bottom layer (`src/values/`): it uses nothing above it
//! (`scripts/layers.py`, run by `.ci/run`, checks every layer's imports).
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

use crate::values::selector::AxisSelector;
use crate::values::shape::{DynShape, Size};

mod parse;
mod refusal;
pub use parse::ParseErrorKind;
pub use refusal::{Reason, Refusal, Side};

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
    /// A backward pass that cannot run, or a gradient asked of a parameter the loss does not
    /// reach (training, [`train`](crate::train)).
    #[error("no gradient: {reason}")]
    Gradient {
        /// What went wrong.
        reason: String,
    },
    /// A learning-rate schedule's parameters that give no rate (a period of 0 steps, a
    /// negative rate; [`train::Schedule`](crate::train::Schedule)).
    #[error("learning-rate schedule: {reason}")]
    Schedule {
        /// What is wrong, with the schedule's name.
        reason: String,
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
    /// A convolution refused (rule book §20): the channel missing from an operand, a weight
    /// that does not have exactly one output channel besides axes the input names, channels
    /// that do not match the groups, or a kernel longer than the padded input.
    ///
    /// ```
    /// use shapecast::dynamic::conv::{conv, ConvSpec};
    /// let err = conv(&"[C: 3, H: 2]".parse()?, &"[K: 4, C: 3, H: 5]".parse()?, "C", &ConvSpec::default()).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot convolve [C: 3, H: 2] with [K: 4, C: 3, H: 5] over C: along axis 1 (H) the kernel spans 5 elements (dilation 1) and the padded input only 2"
    /// );
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot convolve {input} with {weight} over {channel}: {reason}")]
    Convolution {
        /// The input's shape.
        input: DynShape,
        /// The weight's shape.
        weight: DynShape,
        /// The contracted channel's name.
        channel: String,
        /// Why.
        reason: String,
    },
    /// A window operation refused (rule book §20): pooling over an axis the shape lacks or
    /// selects twice, or a window that does not fit.
    ///
    /// ```
    /// use shapecast::dynamic::pool::{pool, PoolSpec};
    /// let err = pool(&"[H: 2]".parse()?, &["W".parse()?], &PoolSpec::new(2)).unwrap_err();
    /// assert_eq!(err.to_string(), "cannot pool [H: 2] over W: it has no axis W");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot {op} {shape} over {axes}: {reason}")]
    Window {
        /// The operation (`pool`, `pad`).
        op: &'static str,
        /// The input's shape.
        shape: DynShape,
        /// The selected axes, as given.
        axes: String,
        /// Why.
        reason: String,
    },
    /// A gather refused (rule book §21): `take` along an axis the source lacks, an index out
    /// of range, names that would repeat; `one_hot` with a label out of range; a loss whose
    /// targets do not fit.
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let embed = DynTensor::from_vec("[VOCAB: 3, E: 2]".parse()?, vec![0.0f32; 6])?;
    /// let tokens = DynTensor::from_vec("[T: 2]".parse()?, vec![1usize, 7])?;
    /// let err = embed.take(&"VOCAB".parse()?, &tokens).unwrap_err();
    /// assert_eq!(err.to_string(), "cannot take [VOCAB: 3, E: 2] along VOCAB by [T: 2]: index 7 at [1] is out of range for VOCAB of size 3");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot {op} {shape} along {by}: {reason}")]
    Gather {
        /// The operation (`take`, `one_hot`, `cross_entropy`, `nll_loss`).
        op: &'static str,
        /// The source's shape.
        shape: DynShape,
        /// The axis and the indices, as given.
        by: String,
        /// Why.
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
    /// An attention refused (rule book §17, attention): queries and keys that do not contract
    /// over the head dimension, a key axis the keys lack or the queries share, values whose
    /// key axis differs from the keys', a mask that does not broadcast into the scores, a
    /// causal axis that is not the queries' own.
    ///
    /// ```
    /// use shapecast::dynamic::attention::{attention, Masking};
    /// let (q, k) = ("[SEQ: 4, HD: 8]".parse()?, "[KSEQ: 6, HD: 8]".parse()?);
    /// let v = "[KSEQ: 5, HD: 8]".parse()?;
    /// let err = attention(&q, &k, &v, &["HD".parse()?], &"KSEQ".parse()?, Masking::None).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot attend [SEQ: 4, HD: 8] to keys [KSEQ: 6, HD: 8] with values [KSEQ: 5, HD: 8]: KSEQ has size 6 in the keys and 5 in the values"
    /// );
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot attend {query} to keys {keys} with values {values}: {reason}")]
    Attention {
        /// The queries' shape.
        query: DynShape,
        /// The keys' shape.
        keys: DynShape,
        /// The values' shape.
        values: DynShape,
        /// Why.
        reason: String,
    },
    /// A norm or a rotary embedding refused (rule book §16, norms): an axis the input lacks or
    /// selects twice, a weight or bias that does not broadcast into the input, a rotation
    /// table that does not fit the features or the positions.
    ///
    /// ```
    /// use shapecast::dynamic::norm::norm;
    /// let err = norm("rms_norm", &"[SEQ: 4, DIM: 8]".parse()?, &["DIM".parse()?], &"[DIM: 6]".parse()?, None).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot rms_norm [SEQ: 4, DIM: 8] over DIM: the weight [DIM: 6] does not broadcast into it (DIM has size 6 in the weight and 8 in the input)"
    /// );
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    #[error("cannot {op} {shape} over {axes}: {reason}")]
    Norm {
        /// The operation (`layer_norm`, `rms_norm`, `rope`).
        op: &'static str,
        /// The input's shape.
        shape: DynShape,
        /// The selected axes, as given.
        axes: String,
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
    /// A file shorter than its header says (`io`): cut off while written or copied.
    #[error("{path} is truncated: {what} needs {promised} bytes, the file holds {holds}")]
    Truncated {
        /// The file.
        path: String,
        /// What the header promises: "the header" or "the data".
        what: &'static str,
        /// The bytes the header promises (up to the end of the part named).
        promised: u64,
        /// The bytes the file holds (of that part).
        holds: u64,
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
    /// A stored tensor's axis names, recorded by `io::save_safetensors`, differ from the
    /// names of the shape asked for at an axis both name (`io`): a square weight saved
    /// `[OUT, IN]` and declared `[IN, OUT]`.
    #[error(
        "{path}, tensor {name:?}: saved as {saved}, which does not fit {shape}: the axis \
         names differ (declare {saved}, then `align_to` the order you need)"
    )]
    FileNames {
        /// The file.
        path: String,
        /// The tensor's name in the file.
        name: String,
        /// The shape recorded with the tensor, names included.
        saved: DynShape,
        /// The shape asked for.
        shape: DynShape,
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
                | Error::Convolution { .. }
                | Error::Window { .. }
                | Error::Gather { .. }
                | Error::Attention { .. }
                | Error::Norm { .. }
        )
    }
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
