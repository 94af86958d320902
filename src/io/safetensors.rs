//! `.safetensors` files (Hugging Face's weights format) through the `safetensors` crate:
//! [`load_safetensors`] gives [`Weights`], from which [`Weights::get`] takes a tensor by
//! name with its shape checked; [`save_safetensors`](super::save_safetensors) writes one
//! (`safetensors_save`), the element types are in `safetensors_element`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};

use super::safetensors_element::{SafetensorsElement, Widening};
use super::{bad, byte_len, fit, io_error, shown};
use crate::tensor::{DynTensor, Tensor};
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::shape::DynShape;

/// One stored tensor: its element type, sizes and where its bytes are.
#[derive(Clone, Debug)]
struct Entry {
    dtype: Dtype,
    sizes: Vec<usize>,
    bytes: core::ops::Range<usize>,
    /// The shape [`save_safetensors`](super::save_safetensors) recorded, axis names included (`None` for a file
    /// written by other tools, or a tensor without names).
    saved: Option<DynShape>,
}

/// The metadata key under which [`save_safetensors`](super::save_safetensors) records tensor `name`'s shape with its
/// axis names (`"[OUT: 3, IN: 2]"`).
pub(super) fn axes_key(name: &str) -> String {
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
    /// declare when the file's sizes are `S`'s reordered); where [`save_safetensors`](super::save_safetensors)
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
    /// [`save_safetensors`](super::save_safetensors) recorded them (unnamed for files from other writers).
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
