//! Tensors in and out of files, their shapes checked against the types: `.npy` (feature
//! `npy`, on the `npyz` crate) and `.safetensors` (feature `safetensors`, on the
//! `safetensors` crate). A file carries its sizes; reading it into `Tensor<T, S>` checks them
//! against `S`, so a weight stored `[HIDDEN, EMBED]` but declared `[EMBED, HIDDEN]` is an
//! error at load time (naming the shape to declare), not plausible garbage later. Every
//! failure is an [`Error`]: a missing file or name, another element type, other sizes, a
//! corrupt or truncated file (checked against the file's length before anything is
//! allocated).
//!
//! **Layer.** The top layer, with `interop` (ndarray) and the command line: it may use
//! every layer below (`scripts/layers.py`, run by `.ci/run`, checks it).
//!
//! Files may come from strangers; what holds on any input (`fuzz/`'s `npy` and `safetensors`
//! targets check it, `tests/suite/io.rs` has an attacker's cases):
//!
//! | | `.npy` | `.safetensors` |
//! |---|---|---|
//! | header size | at most 10,000 bytes (NumPy's `max_header_size`), its length field checked against the file's length before it is read | as long as the file (it is read whole) |
//! | header parsing | one pass, linear in the header's length, no recursion: the three keys NumPy writes, decimal sizes; anything else refused by name | `serde_json` (linear, nesting limited to 128) |
//! | memory | the header, then the data once its byte count (checked for overflow, at most `isize::MAX` as NumPy allows) equals what the file holds | the file's bytes, then each tensor read once |
//! | errors | one line, naming the file; [`Error::Truncated`] for a file cut short; unsupported element types named | one line, naming the file and the tensor at fault |
//!
//! ```
//! # #[cfg(all(feature = "npy", feature = "safetensors"))] {
//! use shapecast::{io, names, shape, Tensor};
//! names!(EMBED, HIDDEN);
//! let dir = std::env::temp_dir().join("shapecast-io-doc");
//! std::fs::create_dir_all(&dir).unwrap();
//! let w = Tensor::<f32, shape![EMBED: 2, HIDDEN: 3]>::from_fn(&[2, 3], |i| i[0] as f32 + 0.5).unwrap();
//! w.write_npy(dir.join("w.npy")).unwrap();
//! let back = Tensor::<f32, shape![EMBED: 2, HIDDEN: 3]>::read_npy(dir.join("w.npy")).unwrap();
//! assert_eq!(back, w);
//! let err = Tensor::<f32, shape![HIDDEN: 3, EMBED: 2]>::read_npy(dir.join("w.npy")).unwrap_err();
//! assert!(err.to_string().contains("declare [EMBED: 2, HIDDEN: 3]"));
//!
//! io::save_safetensors(dir.join("w.safetensors"), &[("w", &w.to_dyn())]).unwrap();
//! let weights = io::load_safetensors(dir.join("w.safetensors")).unwrap();
//! assert_eq!(weights.names(), vec!["w"]);
//! assert_eq!(weights.get::<f32, shape![EMBED: 2, HIDDEN: 3]>("w").unwrap(), w);
//! # }
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::path::Path;

use crate::values::error::Error;
use crate::values::shape::{DynAxis, DynShape, Size};

#[cfg(feature = "npy")]
mod npy;
#[cfg(feature = "npy")]
mod npy_header;
#[cfg(feature = "npy")]
pub use npy::NpyElement;

#[cfg(feature = "safetensors")]
mod safetensors;
#[cfg(feature = "safetensors")]
mod safetensors_element;
#[cfg(feature = "safetensors")]
mod safetensors_save;
#[cfg(feature = "safetensors")]
pub use self::safetensors::{load_safetensors, Under, Weights};
#[cfg(feature = "safetensors")]
pub use self::safetensors_element::{SafetensorsElement, Widening};
#[cfg(feature = "safetensors")]
pub use self::safetensors_save::{save_safetensors, SafetensorsTensor};

// The file element traits are sealed; `bool` is the element they take that the GEMM's sealed
// `DotElement` does not.
impl crate::values::sealed::Sealed for bool {}

/// The path as a message shows it.
fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// [`Error::Io`] for `path`.
fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        path: shown(path),
        message: e.to_string(),
    }
}

/// [`Error::BadFile`] for `path`, its reason on one line (a parser's multi-line report is
/// folded into one).
fn bad(path: &Path, reason: impl Into<String>) -> Error {
    let mut reason = reason.into();
    if reason.contains('\n') {
        reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    Error::BadFile {
        path: shown(path),
        reason,
    }
}

/// The element count of stored sizes and its byte length for `item` bytes an element, or the
/// error that they overflow (a corrupt header).
fn byte_len(path: &Path, sizes: &[usize], item: usize) -> Result<(usize, usize), Error> {
    let count = crate::values::shape::element_count(sizes)
        .ok_or_else(|| bad(path, "the sizes' product overflows usize"))?;
    let bytes = count
        .checked_mul(item)
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| bad(path, "the data's byte length overflows"))?;
    Ok((count, bytes))
}

/// The stored sizes checked against `shape` (the type's): the sizes to build the tensor with,
/// or [`Error::FileShape`] naming both and, when the file's sizes are the shape's reordered,
/// the shape to declare.
fn fit(path: &Path, name: Option<&str>, sizes: &[usize], shape: DynShape) -> Result<(), Error> {
    if shape.fits(sizes) {
        return Ok(());
    }
    let declare = reordered(&shape, sizes);
    Err(Error::FileShape {
        path: shown(path),
        name: name.map(str::to_string),
        sizes: sizes.to_vec(),
        shape,
        declare,
    })
}

/// `shape`'s axes in an order whose sizes are `sizes` (a `?` fits any size, a static size
/// is matched first), when there is one.
fn reordered(shape: &DynShape, sizes: &[usize]) -> Option<DynShape> {
    if sizes.len() != shape.rank() {
        return None;
    }
    let axes = shape.axes();
    let mut used = alloc::vec![false; axes.len()];
    let mut order: Vec<Option<usize>> = alloc::vec![None; sizes.len()];
    // Static sizes first, so a `?` does not take the place a static axis needs.
    for (j, &n) in sizes.iter().enumerate() {
        if let Some(k) = (0..axes.len()).find(|&k| !used[k] && axes[k].size == Size::Known(n)) {
            used[k] = true;
            order[j] = Some(k);
        }
    }
    for slot in order.iter_mut().filter(|o| o.is_none()) {
        let k = (0..axes.len()).find(|&k| !used[k] && axes[k].size == Size::Unknown)?;
        used[k] = true;
        *slot = Some(k);
    }
    // The loop above filled every empty slot or returned `None`.
    let axes: Vec<DynAxis> = order
        .iter()
        .map(|k| axes[k.expect("every slot is filled")].clone())
        .collect();
    DynShape::new(axes).ok()
}
