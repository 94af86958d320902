//! Axis names: an identifier such as `H` or `CHANNEL`, compared as a string, held as a
//! `'static` string or a shared one built at run time (a copy is a pointer either way).

use crate::alloc_prelude::*;

use alloc::borrow::Cow;
use alloc::sync::Arc;
use core::fmt;

use crate::values::error::Error;

/// An axis name: an identifier such as `H` or `CHANNEL`. Names compare as strings.
///
/// ```
/// use shapecast::Name;
///
/// let h = Name::new("H")?;
/// assert_eq!(h.as_str(), "H");
/// assert!(Name::new("2D").is_err());
/// assert!(Name::new("_").is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone)]
pub struct Name(Text);

/// A name's text: a `'static` string as written in a program, or a shared one built at run
/// time. Either way a copy of a name (every shape the rules compute copies some) is a pointer
/// copy, not an allocation.
#[derive(Clone)]
enum Text {
    Static(&'static str),
    Shared(Arc<str>),
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl core::hash::Hash for Name {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Name").field(&self.as_str()).finish()
    }
}

impl Name {
    /// Checks that `name` is an identifier (`[A-Za-z_][A-Za-z0-9_]*`, not `_` alone).
    ///
    /// ```
    /// use shapecast::Name;
    /// assert!(Name::new("SCALE1").is_ok());
    /// assert!(Name::new("my-axis").is_err());
    /// ```
    pub fn new(name: impl Into<Cow<'static, str>>) -> Result<Name, Error> {
        let name = name.into();
        if is_identifier(&name) {
            Ok(Name(match name {
                Cow::Borrowed(s) => Text::Static(s),
                Cow::Owned(s) => Text::Shared(Arc::from(s)),
            }))
        } else {
            Err(Error::InvalidName {
                name: name.into_owned(),
            })
        }
    }

    /// The name as a string.
    ///
    /// ```
    /// use shapecast::Name;
    /// assert_eq!(Name::new("W")?.as_str(), "W");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Static(s) => s,
            Text::Shared(s) => s,
        }
    }
}

/// Parses a name, checked as [`Name::new`] checks it.
///
/// ```
/// use shapecast::Name;
/// assert_eq!("CHANNEL".parse::<Name>()?.as_str(), "CHANNEL");
/// assert!("2D".parse::<Name>().is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
impl core::str::FromStr for Name {
    type Err = Error;
    fn from_str(s: &str) -> Result<Name, Error> {
        Name::new(s.to_string())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether `s` is an identifier as the notation accepts it.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    s != "_" && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
