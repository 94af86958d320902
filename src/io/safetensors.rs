//! `.safetensors` files (Hugging Face's weights format) through the `safetensors` crate:
//! [`load_safetensors`] gives [`Weights`], from which [`Weights::get`] takes a tensor by
//! name with its shape checked; [`save_safetensors`] writes one.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};

use super::{bad, byte_len, fit, io_error, shown};
use crate::engine::walk::row_major_elements;
use crate::tensor::{Contractible, DynTensor, Own, Tensor};
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::sealed::Sealed;
use crate::values::shape::DynShape;

/// An element type `.safetensors` files store: `f32`, `f64`, the half-precision
/// [`f16`](crate::f16) (`F16`) and [`bf16`](crate::bf16) (`BF16`), the signed and unsigned
/// integers of 8 to 64 bits, and `bool` (stored little-endian).
///
/// ```
/// fn name<T: shapecast::io::SafetensorsElement>() -> &'static str { T::NAME }
/// assert_eq!(name::<i64>(), "i64");
/// ```
pub trait SafetensorsElement: Copy + Sealed {
    /// The Rust type's name, for messages.
    const NAME: &'static str;
    /// What a refusal of the stored type `stored` says was asked for: the name, and for a
    /// narrower float asked for as `f32` or `f64` the call that widens it.
    #[doc(hidden)]
    fn asked(stored: Dtype) -> &'static str {
        let _ = stored;
        Self::NAME
    }
    /// The file's element type.
    #[doc(hidden)]
    const DTYPE: Dtype;
    /// Bytes an element.
    #[doc(hidden)]
    const SIZE: usize;
    /// The element of `SIZE` little-endian bytes, `None` for a value the type cannot hold
    /// (a `bool` byte other than 0 or 1).
    #[doc(hidden)]
    fn from_le(bytes: &[u8]) -> Option<Self>;
    /// The element's little-endian bytes, appended to `out`.
    #[doc(hidden)]
    fn to_le(self, out: &mut Vec<u8>);
}

macro_rules! numbers {
    ($($t:ty => $d:ident $([$($narrow:ident)|+] $hint:literal)?),*) => {$(
        impl SafetensorsElement for $t {
            const NAME: &'static str = stringify!($t);
            $(fn asked(stored: Dtype) -> &'static str {
                match stored {
                    $(Dtype::$narrow)|+ => $hint,
                    _ => Self::NAME,
                }
            })?
            const DTYPE: Dtype = Dtype::$d;
            const SIZE: usize = core::mem::size_of::<$t>();
            fn from_le(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.try_into().ok()?))
            }
            fn to_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
numbers!(f32 => F32 [F16 | BF16] "f32 (`get_widened` reads F16 and BF16 into f32)",
         f64 => F64 [F16 | BF16 | F32] "f64 (`get_widened` reads F16, BF16 and F32 into f64)");
numbers!(i8 => I8, i16 => I16, i32 => I32, i64 => I64,
         u8 => U8, u16 => U16, u32 => U32, u64 => U64);

macro_rules! halves {
    ($($t:ident => $d:ident),*) => {$(
        impl SafetensorsElement for half::$t {
            const NAME: &'static str = stringify!($t);
            const DTYPE: Dtype = Dtype::$d;
            const SIZE: usize = 2;
            fn from_le(bytes: &[u8]) -> Option<Self> {
                Some(half::$t::from_le_bytes(bytes.try_into().ok()?))
            }
            fn to_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
halves!(f16 => F16, bf16 => BF16);

/// A float element a stored float of another width can be read into without loss
/// ([`Weights::get_widened`]): `f32` takes `F16`, `BF16` and `F32`; `f64` takes those and
/// `F64`. Checkpoints are published in half precision; computing in `f32` on them is one
/// call.
///
/// ```
/// fn takes<T: shapecast::io::Widening>() -> &'static str { T::FROM }
/// assert_eq!(takes::<f32>(), "F16, BF16 or F32");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float that stored floats widen into",
    label = "`get_widened` reads into `f32` or `f64`; `get` reads a tensor as it is stored"
)]
pub trait Widening: SafetensorsElement {
    /// The stored element types it reads, as the file names them.
    const FROM: &'static str;
    /// The bytes an element stored as `dtype` takes, `None` for a type it does not read.
    #[doc(hidden)]
    fn width(dtype: Dtype) -> Option<usize>;
    /// The element of `bytes` stored as `dtype` (one [`width`](Self::width) accepts).
    #[doc(hidden)]
    fn widen(dtype: Dtype, bytes: &[u8]) -> Option<Self>;
}

#[diagnostic::do_not_recommend]
impl Widening for f32 {
    const FROM: &'static str = "F16, BF16 or F32";
    fn width(dtype: Dtype) -> Option<usize> {
        matches!(dtype, Dtype::F16 | Dtype::BF16 | Dtype::F32).then(|| dtype.bitsize() / 8)
    }
    fn widen(dtype: Dtype, bytes: &[u8]) -> Option<f32> {
        match dtype {
            Dtype::F16 => half::f16::from_le(bytes).map(half::f16::to_f32),
            Dtype::BF16 => half::bf16::from_le(bytes).map(half::bf16::to_f32),
            Dtype::F32 => f32::from_le(bytes),
            _ => None,
        }
    }
}

#[diagnostic::do_not_recommend]
impl Widening for f64 {
    const FROM: &'static str = "F16, BF16, F32 or F64";
    fn width(dtype: Dtype) -> Option<usize> {
        f32::width(dtype).or((dtype == Dtype::F64).then_some(8))
    }
    fn widen(dtype: Dtype, bytes: &[u8]) -> Option<f64> {
        match dtype {
            Dtype::F64 => f64::from_le(bytes),
            _ => f32::widen(dtype, bytes).map(f64::from),
        }
    }
}

impl SafetensorsElement for bool {
    const NAME: &'static str = "bool";
    const DTYPE: Dtype = Dtype::BOOL;
    const SIZE: usize = 1;
    fn from_le(bytes: &[u8]) -> Option<Self> {
        match bytes {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
    fn to_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
}

/// One stored tensor: its element type, sizes and where its bytes are.
#[derive(Clone, Debug)]
struct Entry {
    dtype: Dtype,
    sizes: Vec<usize>,
    bytes: core::ops::Range<usize>,
    /// The shape [`save_safetensors`] recorded, axis names included (`None` for a file
    /// written by other tools, or a tensor without names).
    saved: Option<DynShape>,
}

/// The metadata key under which [`save_safetensors`] records tensor `name`'s shape with its
/// axis names (`"[OUT: 3, IN: 2]"`).
fn axes_key(name: &str) -> String {
    format!("shapecast.axes.{name}")
}

/// The tensors of a `.safetensors` file, read whole and checked once
/// ([`load_safetensors`]); [`get`](Weights::get) takes one by name into a typed tensor,
/// checking its element type and sizes.
///
/// ```
/// use shapecast::{io, names, shape, DynTensor, Tensor};
/// names!(EMBED, HIDDEN);
/// let path = std::env::temp_dir().join("shapecast-weights-doc.safetensors");
/// let w1 = DynTensor::from_vec("[1024, 256]".parse()?, vec![0.5f32; 1024 * 256])?;
/// io::save_safetensors(&path, &[("w1", &w1)])?;
/// let weights = io::load_safetensors(&path)?;
/// // Stored [1024, 256], declared the other way round: refused, naming the shape to declare.
/// let err = weights.get::<f32, shape![EMBED: 256, HIDDEN: 1024]>("w1").unwrap_err();
/// assert!(err.to_string().contains("declare [HIDDEN: 1024, EMBED: 256]"));
/// let w1 = weights.get::<f32, shape![HIDDEN: 1024, EMBED: 256]>("w1")?;
/// assert_eq!(w1.sizes(), &[1024, 256]);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Weights {
    path: PathBuf,
    bytes: Vec<u8>,
    entries: BTreeMap<String, Entry>,
}

/// The tensors of a [`Weights`] under a name prefix ([`Weights::under`]): names are read as
/// `prefix.name`.
///
/// ```
/// use shapecast::{io, DynTensor};
/// let path = std::env::temp_dir().join("shapecast-under-type-doc.safetensors");
/// io::save_safetensors(&path, &[("fc.bias", &DynTensor::from_vec("[1]".parse()?, vec![3.0f64])?)])?;
/// let w = io::load_safetensors(&path)?;
/// assert_eq!(w.under("fc").get_dyn::<f64>("bias")?.data(), &[3.0]);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Under<'a> {
    weights: &'a Weights,
    prefix: String,
}

impl Under<'_> {
    /// The full name of `name` under this prefix.
    fn full(&self, name: &str) -> String {
        format!("{}.{name}", self.prefix)
    }

    /// [`Weights::get`] of `prefix.name`.
    ///
    /// ```
    /// use shapecast::{io, shape, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-under-get-doc.safetensors");
    /// io::save_safetensors(&path, &[("a.b", &DynTensor::from_vec("[1]".parse()?, vec![1i64])?)])?;
    /// assert_eq!(io::load_safetensors(&path)?.under("a").get::<i64, shape![1]>("b")?.data(), &[1]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get<T: SafetensorsElement, S: Storage<T>>(
        &self,
        name: &str,
    ) -> Result<Tensor<T, S>, Error> {
        self.weights.get(&self.full(name))
    }

    /// [`Weights::get_dyn`] of `prefix.name`.
    ///
    /// ```
    /// use shapecast::{io, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-under-get-dyn-doc.safetensors");
    /// io::save_safetensors(&path, &[("a.b", &DynTensor::from_vec("[1]".parse()?, vec![2u8])?)])?;
    /// assert_eq!(io::load_safetensors(&path)?.under("a").get_dyn::<u8>("b")?.data(), &[2]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get_dyn<T: SafetensorsElement>(&self, name: &str) -> Result<DynTensor<T>, Error> {
        self.weights.get_dyn(&self.full(name))
    }

    /// [`Weights::get_widened`] of `prefix.name`.
    ///
    /// ```
    /// use shapecast::{bf16, io, shape, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-under-widened-doc.safetensors");
    /// let b = DynTensor::from_vec("[1]".parse()?, vec![bf16::from_f32(2.0)])?;
    /// io::save_safetensors(&path, &[("a.b", &b)])?;
    /// let w = io::load_safetensors(&path)?;
    /// assert_eq!(w.under("a").get_widened::<f32, shape![1]>("b")?.data(), &[2.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get_widened<T: Widening, S: Storage<T>>(
        &self,
        name: &str,
    ) -> Result<Tensor<T, S>, Error> {
        self.weights.get_widened(&self.full(name))
    }

    /// The tensors under `prefix.sub`: a submodule's.
    ///
    /// ```
    /// use shapecast::{io, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-under-under-doc.safetensors");
    /// io::save_safetensors(&path, &[("a.b.c", &DynTensor::from_vec("[1]".parse()?, vec![5i32])?)])?;
    /// let w = io::load_safetensors(&path)?;
    /// assert_eq!(w.under("a").under("b").get_dyn::<i32>("c")?.data(), &[5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn under(&self, sub: &str) -> Under<'_> {
        Under {
            weights: self.weights,
            prefix: self.full(sub),
        }
    }
}

/// Reads a `.safetensors` file: its header is checked against the file's length (a bad or
/// truncated file is [`Error::BadFile`], with no allocation sized by the header).
///
/// ```
/// use shapecast::io;
/// let path = std::env::temp_dir().join("shapecast-not-there.safetensors");
/// assert!(matches!(io::load_safetensors(&path), Err(shapecast::Error::Io { .. })));
/// ```
pub fn load_safetensors(path: impl AsRef<Path>) -> Result<Weights, Error> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
    let mut entries = BTreeMap::new();
    {
        let file = SafeTensors::deserialize(&bytes).map_err(|e| {
            at_fault(&bytes).map_or_else(
                || bad(path, format!("not a valid .safetensors file: {e}")),
                |why| bad(path, format!("not a valid .safetensors file: {why}")),
            )
        })?;
        let (_, header) = SafeTensors::read_metadata(&bytes)
            .map_err(|e| bad(path, format!("not a valid .safetensors file: {e}")))?;
        let recorded = header.metadata().as_ref();
        let base = bytes.as_ptr() as usize;
        for (name, view) in file.tensors() {
            let start = view.data().as_ptr() as usize - base;
            let sizes = view.shape().to_vec();
            let saved = match recorded.and_then(|m| m.get(&axes_key(&name))) {
                Some(text) => Some(saved_shape(path, &name, text, &sizes)?),
                None => None,
            };
            let entry = Entry {
                dtype: view.dtype(),
                sizes,
                bytes: start..start + view.data().len(),
                saved,
            };
            entries.insert(name, entry);
        }
    }
    Ok(Weights {
        path: path.to_path_buf(),
        bytes,
        entries,
    })
}

/// The tensor whose entry the header gets wrong, and how, for a header the safetensors crate
/// refuses without naming one ("invalid shape, data type, or offset for tensor"): the header
/// read again without its checks, then each tensor's byte count set against its offsets, in
/// the order the file stores them. `None` when the header does not parse at all (the crate's
/// own error says why).
fn at_fault(bytes: &[u8]) -> Option<String> {
    use serde_json::Value;
    let len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let end = 8usize.checked_add(usize::try_from(len).ok()?)?;
    let header: serde_json::Map<String, Value> = serde_json::from_slice(bytes.get(8..end)?).ok()?;
    // (start, stop, name, shape, dtype) of every tensor entry, in the order of their data.
    let mut entries = Vec::new();
    for (name, entry) in &header {
        if name == "__metadata__" {
            continue;
        }
        let offsets: (usize, usize) =
            serde_json::from_value(entry.get("data_offsets")?.clone()).ok()?;
        let shape: Vec<usize> = serde_json::from_value(entry.get("shape")?.clone()).ok()?;
        let dtype: safetensors::Dtype = serde_json::from_value(entry.get("dtype")?.clone()).ok()?;
        entries.push((offsets.0, offsets.1, name, shape, dtype));
    }
    entries.sort_by_key(|e| (e.0, e.1));
    let mut next = 0;
    for (start, stop, name, shape, dtype) in entries {
        let bits = shape
            .iter()
            .try_fold(dtype.bitsize(), |b, &n| b.checked_mul(n));
        let why = if start != next || stop < start {
            format!(
                "its data offsets {start}..{stop} do not follow the previous tensor's end, {next}"
            )
        } else if let Some(bits) = bits.filter(|b| b % 8 == 0) {
            if bits / 8 == stop - start {
                next = stop;
                continue;
            }
            format!(
                "its shape {shape:?} of {dtype:?} takes {} bytes, its data offsets {start}..{stop} hold {}",
                bits / 8,
                stop - start
            )
        } else {
            format!(
                "its shape {shape:?} of {dtype:?} is not a whole number of bytes below 2^64 bits"
            )
        };
        return Some(format!("tensor {name:?}: {why}"));
    }
    None
}

/// The shape recorded for tensor `name` (`text`), checked against its stored sizes.
fn saved_shape(path: &Path, name: &str, text: &str, sizes: &[usize]) -> Result<DynShape, Error> {
    let shape: DynShape = text.parse().map_err(|e| {
        bad(
            path,
            format!("tensor {name:?}: the recorded axes {text:?} do not parse: {e}"),
        )
    })?;
    if !shape.fits(sizes) || shape.rank() != sizes.len() {
        return Err(bad(
            path,
            format!("tensor {name:?}: the recorded axes {shape} do not fit its sizes {sizes:?}"),
        ));
    }
    Ok(shape)
}

/// Whether the declared shape's names agree with the recorded ones, axis by axis, where
/// both name the axis.
fn names_agree(path: &Path, name: &str, saved: &DynShape, shape: DynShape) -> Result<(), Error> {
    let clash = saved
        .axes()
        .iter()
        .zip(shape.axes())
        .any(|(a, b)| matches!((&a.name, &b.name), (Some(x), Some(y)) if x != y));
    if !clash {
        return Ok(());
    }
    Err(Error::FileNames {
        path: shown(path),
        name: name.to_string(),
        saved: saved.clone(),
        shape,
    })
}

impl Weights {
    /// The names of the stored tensors, sorted.
    ///
    /// ```
    /// use shapecast::{io, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-names-doc.safetensors");
    /// let t = DynTensor::from_vec("[2]".parse()?, vec![1.0f64, 2.0])?;
    /// io::save_safetensors(&path, &[("b", &t), ("a", &t)])?;
    /// assert_eq!(io::load_safetensors(&path)?.names(), vec!["a", "b"]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn names(&self) -> Vec<&str> {
        self.entries.keys().map(String::as_str).collect()
    }

    /// The stored tensor `name` as `Tensor<T, S>`: its element type must be `T` and its
    /// sizes must fit `S` (the message names the file's sizes and `S`, and the shape to
    /// declare when the file's sizes are `S`'s reordered); where [`save_safetensors`]
    /// recorded axis names, every axis both name must have the same name
    /// ([`Error::FileNames`]). Files from other writers load by sizes alone.
    ///
    /// ```
    /// use shapecast::{io, names, shape, DynTensor};
    /// names!(CLASS);
    /// let path = std::env::temp_dir().join("shapecast-get-doc.safetensors");
    /// io::save_safetensors(&path, &[("bias", &DynTensor::from_vec("[3]".parse()?, vec![1i32, 2, 3])?)])?;
    /// let w = io::load_safetensors(&path)?;
    /// assert_eq!(w.get::<i32, shape![CLASS: 3]>("bias")?.data(), &[1, 2, 3]);
    /// assert!(w.get::<f32, shape![CLASS: 3]>("bias").is_err()); // stored as i32
    /// assert!(w.get::<i32, shape![CLASS: 3]>("weight").is_err()); // no such tensor
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get<T: SafetensorsElement, S: Storage<T>>(
        &self,
        name: &str,
    ) -> Result<Tensor<T, S>, Error> {
        let (sizes, data) = self.elements::<T>(name)?;
        self.typed(name, &sizes, data)
    }

    /// [`get`](Self::get) reading a narrower stored float into `T` without loss ([`Widening`]):
    /// a `BF16` or `F16` checkpoint into `f32` tensors, converted once at load. Another
    /// stored type is refused by name.
    ///
    /// ```
    /// use shapecast::{bf16, io, names, shape, Cast, Tensor};
    /// names!(OUT, IN);
    /// let path = std::env::temp_dir().join("shapecast-widened-doc.safetensors");
    /// let w = Tensor::<f32, shape![OUT: 2, IN: 2]>::from_array([[1.0, 0.1], [-2.0, 3.5]]);
    /// io::save_safetensors(&path, &[("w", &w.cast::<bf16>())])?;
    /// let file = io::load_safetensors(&path)?;
    /// assert!(file.get::<f32, shape![OUT: 2, IN: 2]>("w").is_err()); // stored as BF16
    /// let wide = file.get_widened::<f32, shape![OUT: 2, IN: 2]>("w")?;
    /// assert_eq!(wide.data(), &[1.0, 0.100097656, -2.0, 3.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get_widened<T: Widening, S: Storage<T>>(
        &self,
        name: &str,
    ) -> Result<Tensor<T, S>, Error> {
        let (sizes, data) = self.widened::<T>(name)?;
        self.typed(name, &sizes, data)
    }

    /// [`get_dyn`](Self::get_dyn) reading a narrower stored float into `T` without loss, as
    /// [`get_widened`](Self::get_widened).
    ///
    /// ```
    /// use shapecast::{f16, io, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-widened-dyn-doc.safetensors");
    /// let h = DynTensor::from_vec("[T: 2]".parse()?, vec![f16::from_f32(0.5), f16::from_f32(-1.0)])?;
    /// io::save_safetensors(&path, &[("h", &h)])?;
    /// let t = io::load_safetensors(&path)?.get_dyn_widened::<f64>("h")?;
    /// assert_eq!((t.shape().to_string(), t.data()), ("[T: 2]".to_string(), &[0.5, -1.0][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get_dyn_widened<T: Widening>(&self, name: &str) -> Result<DynTensor<T>, Error> {
        let (sizes, data) = self.widened::<T>(name)?;
        self.run_time(name, &sizes, data)
    }

    /// The stored tensor `name` with its stored sizes, its axes named as
    /// [`save_safetensors`] recorded them (unnamed for files from other writers).
    ///
    /// ```
    /// use shapecast::{io, DynTensor};
    /// let path = std::env::temp_dir().join("shapecast-get-dyn-doc.safetensors");
    /// io::save_safetensors(&path, &[("m", &DynTensor::from_vec("[2, 1]".parse()?, vec![4u8, 5])?)])?;
    /// let m = io::load_safetensors(&path)?.get_dyn::<u8>("m")?;
    /// assert_eq!((m.shape().to_string(), m.data()), ("[2, 1]".to_string(), &[4, 5][..]));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn get_dyn<T: SafetensorsElement>(&self, name: &str) -> Result<DynTensor<T>, Error> {
        let (sizes, data) = self.elements::<T>(name)?;
        self.run_time(name, &sizes, data)
    }

    /// The tensors under the name prefix `prefix` (a module's, `layer2.0`): its `get("conv1.weight")`
    /// reads `layer2.0.conv1.weight`, so a module's loader takes its prefix once. A missing
    /// tensor's error names it in full.
    ///
    /// ```
    /// use shapecast::{io, names, shape, DynTensor};
    /// names!(OUT);
    /// let path = std::env::temp_dir().join("shapecast-under-doc.safetensors");
    /// let b = DynTensor::from_vec("[2]".parse()?, vec![1.0f32, 2.0])?;
    /// io::save_safetensors(&path, &[("layer1.0.bn1.bias", &b)])?;
    /// let w = io::load_safetensors(&path)?;
    /// let block = w.under("layer1.0");
    /// assert_eq!(block.get::<f32, shape![OUT: 2]>("bn1.bias")?.data(), &[1.0, 2.0]);
    /// let err = block.under("bn2").get::<f32, shape![OUT: 2]>("bias").unwrap_err();
    /// assert!(err.to_string().contains("layer1.0.bn2.bias"));
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn under(&self, prefix: &str) -> Under<'_> {
        Under {
            weights: self,
            prefix: prefix.to_string(),
        }
    }

    /// Tensor `name`'s elements as `Tensor<T, S>`: its sizes fit to `S`, its recorded names
    /// checked against `S`'s.
    fn typed<T, S: Storage<T>>(
        &self,
        name: &str,
        sizes: &[usize],
        data: Vec<T>,
    ) -> Result<Tensor<T, S>, Error> {
        fit(&self.path, Some(name), sizes, S::to_dyn())?;
        if let Some(saved) = self.entries.get(name).and_then(|e| e.saved.as_ref()) {
            names_agree(&self.path, name, saved, S::to_dyn())?;
        }
        Tensor::from_vec_sized(sizes, data)
    }

    /// Tensor `name`'s elements as a `DynTensor`, its axes named as recorded.
    fn run_time<T>(
        &self,
        name: &str,
        sizes: &[usize],
        data: Vec<T>,
    ) -> Result<DynTensor<T>, Error> {
        match self.entries.get(name).and_then(|e| e.saved.clone()) {
            Some(saved) => DynTensor::from_vec(saved.resolve(sizes)?, data),
            None => DynTensor::from_vec(DynShape::from_sizes(sizes)?, data),
        }
    }

    /// The sizes and elements of the stored tensor `name`, its element type checked.
    fn elements<T: SafetensorsElement>(&self, name: &str) -> Result<(Vec<usize>, Vec<T>), Error> {
        let size = |d: Dtype| (d == T::DTYPE).then_some(T::SIZE);
        let asked = self
            .entries
            .get(name)
            .map_or(T::NAME, |e| T::asked(e.dtype));
        self.decoded(name, asked, size, |_, bytes| T::from_le(bytes))
    }

    /// The sizes and elements of the stored tensor `name`, any float `T` widens from.
    fn widened<T: Widening>(&self, name: &str) -> Result<(Vec<usize>, Vec<T>), Error> {
        self.decoded(name, T::FROM, T::width, T::widen)
    }

    /// The sizes and elements of the stored tensor `name`: `size` gives the bytes an element
    /// of a stored type takes (`None` refuses the type as not `asked`), `decode` an element.
    fn decoded<T>(
        &self,
        name: &str,
        asked: &'static str,
        size: impl Fn(Dtype) -> Option<usize>,
        decode: impl Fn(Dtype, &[u8]) -> Option<T>,
    ) -> Result<(Vec<usize>, Vec<T>), Error> {
        let path = &self.path;
        let entry = self.entries.get(name).ok_or_else(|| Error::NoSuchTensor {
            path: shown(path),
            name: name.to_string(),
            available: self.entries.keys().cloned().collect(),
        })?;
        let Some(item) = size(entry.dtype) else {
            return Err(Error::FileElement {
                path: shown(path),
                name: Some(name.to_string()),
                found: format!("{:?}", entry.dtype),
                expected: asked,
            });
        };
        let (count, len) = byte_len(path, &entry.sizes, item)?;
        let bytes = &self.bytes[entry.bytes.clone()];
        if bytes.len() != len {
            return Err(bad(
                path,
                format!("tensor {name:?} holds {} bytes, not {len}", bytes.len()),
            ));
        }
        let mut data = Vec::new();
        data.try_reserve_exact(count)
            .map_err(|_| bad(path, format!("no memory for {count} elements")))?;
        for chunk in bytes.chunks_exact(item) {
            let v = decode(entry.dtype, chunk).ok_or_else(|| {
                bad(
                    path,
                    format!("tensor {name:?} holds a value that is not a {asked}"),
                )
            })?;
            data.push(v);
        }
        Ok((entry.sizes.clone(), data))
    }
}

/// A tensor [`save_safetensors`] writes: a [`Tensor`], a [`TensorView`](crate::TensorView), a
/// [`TensorViewMut`](crate::TensorViewMut) or a [`DynTensor`] whose elements are a
/// [`SafetensorsElement`]. Tensors of different element types and shapes go in one call,
/// each as it is (no `to_dyn()` copy), its bytes encoded only as the file is written.
///
/// ```
/// use shapecast::{bf16, io, names, shape, Cast, Tensor};
/// use shapecast::io::SafetensorsTensor;
/// names!(OUT, IN);
/// let w = Tensor::<f32, shape![OUT: 2, IN: 3]>::from_fn(&[2, 3], |i| i[1] as f32)?;
/// let stored: &dyn SafetensorsTensor = &w.view();
/// let path = std::env::temp_dir().join("shapecast-tensor-trait-doc.safetensors");
/// io::save_safetensors(&path, &[("w", stored), ("w_half", &w.cast::<bf16>())])?;
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait SafetensorsTensor {
    /// The file's element type.
    #[doc(hidden)]
    fn dtype(&self) -> Dtype;
    /// Bytes an element.
    #[doc(hidden)]
    fn element_size(&self) -> usize;
    /// The shape (its names are recorded when it has any) and the sizes.
    #[doc(hidden)]
    fn stored(&self) -> (DynShape, Vec<usize>);
    /// The elements' little-endian bytes in row-major order, appended to `out`.
    #[doc(hidden)]
    fn encode(&self, out: &mut Vec<u8>);
}

impl<X: Contractible + ?Sized> SafetensorsTensor for X
where
    X::Elem: SafetensorsElement,
{
    fn dtype(&self) -> Dtype {
        X::Elem::DTYPE
    }
    fn element_size(&self) -> usize {
        X::Elem::SIZE
    }
    fn stored(&self) -> (DynShape, Vec<usize>) {
        let mut own = Own::default();
        (self.shape_dyn(), self.layout(&mut own).sizes.to_vec())
    }
    fn encode(&self, out: &mut Vec<u8>) {
        let mut own = Own::default();
        for &v in row_major_elements(&self.layout(&mut own)).iter() {
            v.to_le(out);
        }
    }
}

impl<T: SafetensorsElement> SafetensorsTensor for DynTensor<T> {
    fn dtype(&self) -> Dtype {
        T::DTYPE
    }
    fn element_size(&self) -> usize {
        T::SIZE
    }
    fn stored(&self) -> (DynShape, Vec<usize>) {
        (self.shape().clone(), self.sizes().to_vec())
    }
    fn encode(&self, out: &mut Vec<u8>) {
        for &v in self.data() {
            v.to_le(out);
        }
    }
}

/// One tensor as the `safetensors` crate writes it: its bytes made when asked for, so a file
/// of many tensors holds one tensor's bytes at a time.
struct Encoding<'a> {
    tensor: &'a dyn SafetensorsTensor,
    sizes: Vec<usize>,
    len: usize,
}

impl safetensors::View for Encoding<'_> {
    fn dtype(&self) -> Dtype {
        self.tensor.dtype()
    }
    fn shape(&self) -> &[usize] {
        &self.sizes
    }
    fn data(&self) -> alloc::borrow::Cow<'_, [u8]> {
        let mut bytes = Vec::with_capacity(self.len);
        self.tensor.encode(&mut bytes);
        alloc::borrow::Cow::Owned(bytes)
    }
    fn data_len(&self) -> usize {
        self.len
    }
}

/// Writes tensors to a `.safetensors` file under the given names: typed tensors, views and
/// `DynTensor`s of any [`SafetensorsElement`], mixed in one call ([`SafetensorsTensor`]). A
/// tensor with axis names has its shape recorded in the file's metadata (key
/// `shapecast.axes.NAME`, value such as `[OUT: 3, IN: 2]`), which [`Weights::get`] checks
/// against the shape it is asked for: a square weight saved `[OUT, IN]` and declared
/// `[IN, OUT]`, whose sizes fit either way, is refused ([`Error::FileNames`]). Other
/// readers ignore the metadata.
///
/// ```
/// use shapecast::{io, names, shape, DynTensor, Tensor};
/// names!(OUT, IN);
/// let path = std::env::temp_dir().join("shapecast-save-doc.safetensors");
/// let w = Tensor::<f32, shape![OUT: 2, IN: 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0])?;
/// let steps = Tensor::<i64, shape![1]>::from_array([1000]);
/// io::save_safetensors(&path, &[("w", &w), ("steps", &steps)])?;
/// let file = io::load_safetensors(&path)?;
/// assert_eq!(file.get::<f32, shape![OUT: 2, IN: 2]>("w")?, w);
/// assert!(file.get::<f32, shape![IN: 2, OUT: 2]>("w").is_err()); // transposed by mistake
/// assert_eq!(file.get_dyn::<f32>("w")?.shape().to_string(), "[OUT: 2, IN: 2]");
/// assert_eq!(file.get_dyn::<i64>("steps")?.data(), &[1000]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn save_safetensors(
    path: impl AsRef<Path>,
    tensors: &[(&str, &dyn SafetensorsTensor)],
) -> Result<(), Error> {
    let path = path.as_ref();
    let mut views = Vec::with_capacity(tensors.len());
    // Each tensor's axis names, where it has any, in the file's metadata.
    let mut info = std::collections::HashMap::new();
    for &(name, tensor) in tensors {
        let (shape, sizes) = tensor.stored();
        let (_, len) = byte_len(path, &sizes, tensor.element_size())?;
        if shape.axes().iter().any(|a| a.name.is_some()) {
            info.insert(axes_key(name), shape.to_string());
        }
        views.push((name.to_string(), Encoding { tensor, sizes, len }));
    }
    let info = (!info.is_empty()).then_some(info);
    safetensors::serialize_to_file(views, info, path).map_err(|e| match e {
        safetensors::SafeTensorError::IoError(e) => io_error(path, e),
        e => bad(path, format!("cannot write: {e}")),
    })
}
