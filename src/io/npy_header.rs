//! The `.npy` header, checked before `npyz` reads it: bounded in size and memory and parsed in
//! time linear in its length, so a file from a stranger can neither hang the reader (`npyz`'s
//! own parser takes time exponential in the nesting depth of a dict or list) nor make it
//! allocate what the file does not hold.
//!
//! The header is a Python dict literal with exactly the three keys NumPy's format defines
//! (`'descr'`, `'fortran_order'`, `'shape'`), as `numpy.lib.format` writes it. This parser is
//! strict: a key or string is quoted without escapes, `'fortran_order'` is `True` or `False`,
//! `'shape'` a tuple of decimal integers (an `L` suffix allowed, as Python 2 wrote them), and
//! `'descr'` a simple type string (`'<f4'`). That is every header NumPy writes; NumPy's own
//! reader (`ast.literal_eval`) also accepts hexadecimal sizes, underscores in numbers and
//! escapes in keys, which no writer produces and which are refused here with their spelling
//! named. Structured dtypes (a list as `'descr'`) and strings, objects, dates and complex
//! numbers are refused as unsupported, by name.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::fs::File;
use std::io::{Read, Seek};
use std::path::Path;

use super::{bad, io_error, shown};
use crate::values::error::Error;

/// The longest header read, NumPy's default `max_header_size` (its reader refuses longer
/// headers unless asked).
pub(super) const MAX_HEADER_BYTES: usize = 10_000;

/// What a checked header says.
#[derive(Debug, PartialEq)]
pub(super) struct Header {
    pub(super) descr: String,
    pub(super) fortran_order: bool,
    pub(super) shape: Vec<usize>,
}

/// Reads and checks the header of the open file `path` (`file_len` bytes long), then rewinds
/// it for `npyz`. Nothing is allocated beyond [`MAX_HEADER_BYTES`].
pub(super) fn check(path: &Path, file: &mut File, file_len: u64) -> Result<Header, Error> {
    let mut preamble = [0u8; 12];
    let got = read_up_to(file, &mut preamble).map_err(|e| io_error(path, e))?;
    if got < 10 || &preamble[..6] != b"\x93NUMPY" {
        if got < 10 && preamble[..got] == b"\x93NUMPY"[..got.min(6)] {
            return Err(truncated(path, "the preamble", 10, got as u64));
        }
        return Err(bad(
            path,
            "not a .npy file: it does not start with \\x93NUMPY",
        ));
    }
    let (start, len) = match preamble[6] {
        1 => (10u64, u16::from_le_bytes([preamble[8], preamble[9]]) as u64),
        2 | 3 if got == 12 => (
            12,
            u32::from_le_bytes([preamble[8], preamble[9], preamble[10], preamble[11]]) as u64,
        ),
        2 | 3 => return Err(truncated(path, "the preamble", 12, got as u64)),
        v => {
            return Err(bad(
                path,
                format!("not a .npy file shapecast reads: format version {v} (1 to 3 are)"),
            ))
        }
    };
    if len > MAX_HEADER_BYTES as u64 {
        return Err(bad(
            path,
            format!("the header is {len} bytes long, above NumPy's limit of {MAX_HEADER_BYTES}"),
        ));
    }
    if start + len > file_len {
        return Err(truncated(path, "the header", start + len, file_len));
    }
    let mut text = alloc::vec![0u8; len as usize];
    file.seek(std::io::SeekFrom::Start(start))
        .and_then(|_| file.read_exact(&mut text))
        .map_err(|e| io_error(path, e))?;
    let text =
        core::str::from_utf8(&text).map_err(|_| bad(path, "the header is not text (UTF-8)"))?;
    let header = parse(text).map_err(|reason| bad(path, format!("bad header: {reason}")))?;
    file.rewind().map_err(|e| io_error(path, e))?;
    Ok(header)
}

fn truncated(path: &Path, what: &'static str, promised: u64, holds: u64) -> Error {
    Error::Truncated {
        path: shown(path),
        what,
        promised,
        holds,
    }
}

/// `read` until `buf` is full or the file ends; the count read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

/// The header's dict, strictly (see the module's docs); the reason when it is refused.
pub(super) fn parse(text: &str) -> Result<Header, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    p.ws();
    p.expect(b'{')?;
    loop {
        p.ws();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.ws();
        p.expect(b':')?;
        p.ws();
        let seen = match key {
            "descr" => descr.replace(p.descr()?).is_some(),
            "fortran_order" => fortran.replace(p.boolean()?).is_some(),
            "shape" => shape.replace(p.shape()?).is_some(),
            other => {
                return Err(format!(
                    "the key {other:?} is not one of 'descr', 'fortran_order', 'shape'"
                ))
            }
        };
        if seen {
            return Err(format!("the key {key:?} appears twice"));
        }
        p.ws();
        if !p.eat(b',') {
            p.ws();
            p.expect(b'}')?;
            break;
        }
    }
    // NumPy pads with spaces and ends with a newline.
    if let Some(&c) = p.s[p.at..].iter().find(|c| !c.is_ascii_whitespace()) {
        return Err(format!("unexpected {:?} after the dict", c as char));
    }
    let missing = |k: &str| format!("the key '{k}' is missing");
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
    })
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.s.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.s.get(self.at) == Some(&c);
        self.at += usize::from(hit);
        hit
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            return Ok(());
        }
        Err(match self.s.get(self.at) {
            Some(&found) => format!(
                "expected {:?} at byte {}, found {:?}",
                c as char, self.at, found as char
            ),
            None => format!(
                "expected {:?} at byte {}, found the end",
                c as char, self.at
            ),
        })
    }

    /// A quoted string without escapes.
    fn string(&mut self) -> Result<&'a str, String> {
        let quote = match self.s.get(self.at) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => {
                return Err(format!(
                    "expected a quoted key or string at byte {}",
                    self.at
                ))
            }
        };
        let start = self.at + 1;
        let len = self.s[start..]
            .iter()
            .position(|&c| c == quote)
            .ok_or("a string is not closed")?;
        let body = &self.s[start..start + len];
        if body.contains(&b'\\') {
            return Err("escapes in a string are not read (NumPy writes none)".to_string());
        }
        self.at = start + len + 1;
        core::str::from_utf8(body).map_err(|_| "a string is not UTF-8".to_string())
    }

    /// `'descr'`: a plain type string; a list (a structured dtype) is refused by name.
    fn descr(&mut self) -> Result<String, String> {
        if self.s.get(self.at) == Some(&b'[') {
            return Err("the elements are a structured dtype (a list of fields), which shapecast does not read".to_string());
        }
        Ok(self.string()?.to_string())
    }

    fn boolean(&mut self) -> Result<bool, String> {
        for (word, value) in [(&b"True"[..], true), (&b"False"[..], false)] {
            if self.s[self.at..].starts_with(word) {
                self.at += word.len();
                return Ok(value);
            }
        }
        Err(format!(
            "'fortran_order' must be True or False (byte {})",
            self.at
        ))
    }

    /// The refusal of a size spelt other than in decimal digits, quoting it from `start`.
    fn not_decimal(&self, start: usize) -> String {
        let rest: String = self.s[start..]
            .iter()
            .take(12)
            .map(|&c| c as char)
            .collect();
        format!("a size must be written in decimal digits, not {rest:?}")
    }

    /// `(n, ...)`: decimal sizes that fit `usize`.
    fn shape(&mut self) -> Result<Vec<usize>, String> {
        self.expect(b'(')?;
        let mut sizes = Vec::new();
        loop {
            self.ws();
            if self.eat(b')') {
                return Ok(sizes);
            }
            let start = self.at;
            while self.s.get(self.at).is_some_and(u8::is_ascii_digit) {
                self.at += 1;
            }
            let digits = core::str::from_utf8(&self.s[start..self.at]).expect("ASCII digits");
            if digits.is_empty() {
                return Err(self.not_decimal(start));
            }
            if sizes.len() == crate::values::shape::MAX_RANK {
                return Err(format!(
                    "the shape has more than {} axes",
                    crate::values::shape::MAX_RANK
                ));
            }
            sizes.push(
                digits
                    .parse()
                    .map_err(|_| format!("the size {digits} does not fit usize"))?,
            );
            self.eat(b'L');
            if self
                .s
                .get(self.at)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
            {
                return Err(self.not_decimal(start));
            }
            self.ws();
            if !self.eat(b',') {
                self.ws();
                self.expect(b')')?;
                return Ok(sizes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpys_headers_parse() {
        let h = parse("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }          \n")
            .unwrap();
        assert_eq!(
            h,
            Header {
                descr: "<f4".into(),
                fortran_order: false,
                shape: vec![2, 3]
            }
        );
        assert_eq!(
            parse("{'descr': '|b1', 'fortran_order': True, 'shape': (5,)}")
                .unwrap()
                .shape,
            vec![5]
        );
        assert_eq!(
            parse("{\"shape\": (), \"descr\": \"<i8\", \"fortran_order\": False}")
                .unwrap()
                .shape,
            Vec::<usize>::new()
        );
        assert_eq!(
            parse("{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 4L), }")
                .unwrap()
                .shape,
            vec![3, 4]
        );
    }

    #[test]
    fn what_is_refused_and_why() {
        let refused = |h: &str| parse(h).unwrap_err();
        assert!(
            refused("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}")
                .contains("structured")
        );
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, 'shape': (0x10,)}")
                .contains("decimal")
        );
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, 'shape': (1_000,)}")
                .contains("decimal")
        );
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}").contains("'('")
        );
        assert!(refused(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}"
        )
        .contains("does not fit"));
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (3,)}")
                .contains("twice")
        );
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, '\\x73hape': (2,)}")
                .contains("escapes")
        );
        assert!(refused("{'descr': '<f4', 'fortran_order': False}").contains("missing"));
        assert!(
            refused("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}")
                .contains("True or False")
        );
        assert!(
            refused("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}")
                .contains("not one of")
        );
    }

    #[test]
    fn nesting_is_refused_at_once() {
        // npyz takes time exponential in this depth; the strict parser stops at the first '['.
        let deep = format!(
            "{{'descr': {}'<f4'{}, 'fortran_order': False, 'shape': (2, 3), }}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        assert!(parse(&deep).unwrap_err().contains("structured"));
        let deep = format!(
            "{{'descr': '<f4', 'fortran_order': False, 'shape': {}(2,){}}}",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        assert!(parse(&deep).is_err());
    }
}
