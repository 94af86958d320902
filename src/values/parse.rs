//! Parsing the shape notation of rule book §0: `[10, CHANNEL: 3, H: 256, W: 384]`, `[?, H, W]`, `[]`.
//!
//! Grammar (white space is allowed between tokens):
//!
//! ```text
//! shape := '[' ( axis ( ',' axis )* )? ']'
//! axis  := size | NAME | NAME ':' size
//! size  := DIGITS | '?'
//! ```
//!
//! Every malformed input is an [`Error::Parse`] carrying the byte offset and the reason;
//! nothing panics.
//!
//! ```
//! use shapecast::DynShape;
//!
//! let s: DynShape = " [ 10 , CHANNEL : 3,H,W ] ".parse()?;
//! assert_eq!(s.to_string(), "[10, CHANNEL: 3, H, W]");
//! let err = "[3, -1]".parse::<DynShape>().unwrap_err();
//! assert!(err.to_string().contains("negative size"));
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::str::FromStr;

use crate::values::error::{Error, ParseErrorKind};
use crate::values::name::{is_identifier, Name};
use crate::values::shape::{DynAxis, DynShape, Size, MAX_RANK};

impl FromStr for DynShape {
    type Err = Error;

    fn from_str(input: &str) -> Result<DynShape, Error> {
        Parser { input, pos: 0 }.shape()
    }
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn fail<T>(&self, at: usize, kind: ParseErrorKind) -> Result<T, Error> {
        Err(Error::Parse {
            input: self.input.to_string(),
            offset: at,
            kind,
        })
    }

    fn rest(&self) -> &str {
        &self.input[self.pos..]
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.input.len() - trimmed.len();
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Takes the longest run of characters satisfying `f`.
    fn take_while(&mut self, f: impl Fn(char) -> bool) -> (usize, &'a str) {
        let start = self.pos;
        let len = self.rest().find(|c| !f(c)).unwrap_or(self.rest().len());
        self.pos += len;
        (start, &self.input[start..self.pos])
    }

    fn shape(mut self) -> Result<DynShape, Error> {
        if !self.eat('[') {
            return self.fail(self.pos, ParseErrorKind::MissingOpenBracket);
        }
        let mut axes = Vec::new();
        if !self.eat(']') {
            loop {
                if axes.len() == MAX_RANK {
                    return self.fail(self.pos, ParseErrorKind::RankTooLarge { max: MAX_RANK });
                }
                axes.push(self.axis()?);
                if self.eat(',') {
                    continue;
                }
                if self.eat(']') {
                    break;
                }
                self.skip_ws();
                return match self.peek() {
                    None => self.fail(self.pos, ParseErrorKind::MissingCloseBracket),
                    Some(c) => self.fail(self.pos, ParseErrorKind::Unexpected(c)),
                };
            }
        }
        self.skip_ws();
        if let Some(c) = self.peek() {
            return self.fail(self.pos, ParseErrorKind::TrailingInput(c));
        }
        let at = self.pos;
        DynShape::new(axes).or_else(|e| match e {
            Error::RepeatedName { name, .. } => self.fail(at, ParseErrorKind::RepeatedName(name)),
            other => Err(other),
        })
    }

    fn axis(&mut self) -> Result<DynAxis, Error> {
        self.skip_ws();
        match self.peek() {
            None => self.fail(self.pos, ParseErrorKind::MissingCloseBracket),
            Some(',' | ']') => self.fail(self.pos, ParseErrorKind::EmptyAxis),
            Some(c) if c.is_alphabetic() || c == '_' => {
                let (start, word) = self.take_while(|c| c.is_alphanumeric() || c == '_');
                if !is_identifier(word) {
                    return self.fail(start, ParseErrorKind::InvalidName(word.to_string()));
                }
                let name = Name::new(word.to_string())?;
                let size = if self.eat(':') {
                    self.size()?
                } else {
                    Size::Unknown
                };
                Ok(DynAxis {
                    size,
                    name: Some(name),
                })
            }
            Some(_) => Ok(DynAxis::unnamed(self.size()?)),
        }
    }

    fn size(&mut self) -> Result<Size, Error> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some('?') => {
                self.pos += 1;
                Ok(Size::Unknown)
            }
            Some('-') => {
                self.pos += 1;
                let (_, digits) = self.take_while(|c| c.is_ascii_digit());
                let shown = format!("-{digits}");
                self.fail(start, ParseErrorKind::NegativeSize(shown))
            }
            Some(c) if c.is_ascii_digit() => {
                let (_, digits) = self.take_while(|c| c.is_ascii_alphanumeric() || c == '.');
                if !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return self.fail(start, ParseErrorKind::InvalidSize(digits.to_string()));
                }
                match digits.parse::<usize>() {
                    Ok(n) => Ok(Size::Known(n)),
                    Err(_) => self.fail(start, ParseErrorKind::SizeOverflow(digits.to_string())),
                }
            }
            None => self.fail(start, ParseErrorKind::MissingCloseBracket),
            Some(',' | ']') => self.fail(start, ParseErrorKind::MissingSize),
            Some(c) => self.fail(start, ParseErrorKind::Unexpected(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        s.parse::<DynShape>().unwrap_err().to_string()
    }

    #[test]
    fn round_trips_the_notation() {
        for s in [
            "[]",
            "[0]",
            "[10, CHANNEL: 3, H: 256, W: 384]",
            "[?, CHANNEL: 3, H, W]",
            "[?, ?]",
            "[_x: 1, a_1]",
        ] {
            assert_eq!(s.parse::<DynShape>().unwrap().to_string(), s);
        }
    }

    #[test]
    fn accepts_spacing_and_explicit_unknown_named_size() {
        let s: DynShape = "[ H :? ,W:3 ]".parse().unwrap();
        assert_eq!(s.to_string(), "[H, W: 3]");
    }

    #[test]
    fn refuses_bad_input_with_reasons() {
        assert!(err("3, 4]").contains("expected '['"));
        assert!(err("[3, 4").contains("missing ']'"));
        assert!(err("[3, 4] x").contains("after ']'"));
        assert!(err("[3,, 4]").contains("empty axis"));
        assert!(err("[3,]").contains("empty axis"));
        assert!(err("[,]").contains("empty axis"));
        assert!(err("[H: -1]").contains("negative size -1"));
        assert!(err("[-3]").contains("negative size -3"));
        assert!(err("[3.5]").contains("3.5"));
        assert!(err("[99999999999999999999999]").contains("does not fit"));
        assert!(err("[H, H]").contains("repeated name H"));
        assert!(err("[H:]").contains("missing size"));
        assert!(err("[a-b]").contains("unexpected '-'"));
        assert!(err("[_]").contains("not an identifier"));
        assert!(err("[é]").contains("not an identifier"));
        assert!(err("").contains("expected '['"));
        assert!(err("[3 4]").contains("unexpected '4'"));
    }

    #[test]
    fn refuses_rank_above_the_limit() {
        let ok = format!("[{}]", vec!["1"; MAX_RANK].join(", "));
        assert_eq!(ok.parse::<DynShape>().unwrap().rank(), MAX_RANK);
        let long = format!("[{}]", vec!["1"; MAX_RANK + 1].join(", "));
        assert!(err(&long).contains("rank above"));
    }

    #[test]
    fn error_points_at_the_offending_byte() {
        match "[3, H: x]".parse::<DynShape>() {
            Err(Error::Parse { offset, .. }) => assert_eq!(offset, 7),
            other => panic!("unexpected {other:?}"),
        }
    }
}
