//! What is wrong in a malformed shape string: the kinds of [`Error::Parse`](crate::Error::Parse).

use crate::alloc_prelude::*;

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
