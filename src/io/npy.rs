//! `.npy` files (NumPy's format) through the `npyz` crate: [`Tensor::read_npy`],
//! [`Tensor::write_npy`] and [`DynTensor::read_npy`].

use alloc::format;
use alloc::vec::Vec;
use std::fs::File;
use std::io::{BufReader, BufWriter, Seek};
use std::path::Path;

use npyz::{DType, NpyFile, NpyHeader, Order, WriterBuilder};

use super::{bad, byte_len, fit, io_error, shown};
use crate::tensor::{DynTensor, Tensor};
use crate::typed::storage::Storage;
use crate::values::error::Error;
use crate::values::sealed::Sealed;
use crate::values::shape::DynShape;

/// An element type `.npy` files store: `f32`, `f64`, [`f16`](crate::f16) (NumPy's
/// `float16`, `<f2`), the signed and unsigned integers of 8 to 64 bits, and `bool`. (Either
/// byte order is read; files are written in the machine's.) NumPy has no bfloat16.
///
/// ```
/// fn name<T: shapecast::io::NpyElement>() -> &'static str { T::NAME }
/// assert_eq!(name::<f32>(), "f32");
/// ```
pub trait NpyElement: npyz::Deserialize + npyz::AutoSerialize + Clone + Sealed {
    /// The Rust type's name, for messages.
    const NAME: &'static str;
}

macro_rules! npy_elements {
    ($($t:ty),*) => {$(
        impl NpyElement for $t {
            const NAME: &'static str = stringify!($t);
        }
    )*};
}
npy_elements!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool);

impl NpyElement for half::f16 {
    const NAME: &'static str = "f16";
}

/// The sizes and the row-major elements of a `.npy` file. The header's sizes are checked
/// against the file's length before the elements are read, so a bad header allocates
/// nothing.
fn read_file<T: NpyElement>(path: &Path) -> Result<(Vec<usize>, Vec<T>), Error> {
    let mut file = File::open(path).map_err(|e| io_error(path, e))?;
    let file_len = file.metadata().map_err(|e| io_error(path, e))?.len();
    // The header checked strictly first, bounded in size and time (see `npy_header`).
    let checked = super::npy_header::check(path, &mut file, file_len)?;
    check_elements(path, &checked)?;
    let header = NpyHeader::from_reader(&mut file)
        .map_err(|e| bad(path, format!("not a .npy file: {e}")))?;
    let start = file.stream_position().map_err(|e| io_error(path, e))?;
    let sizes = header
        .shape()
        .iter()
        .map(|&n| usize::try_from(n))
        .collect::<Result<Vec<usize>, _>>()
        .map_err(|_| bad(path, "a size does not fit usize"))?;
    let dtype = header.dtype();
    let item = match &dtype {
        DType::Plain(ts) if !ts.uses_pickled_array() => usize::try_from(ts.size_field())
            .map_err(|_| bad(path, "the element size does not fit usize"))?,
        _ => {
            return Err(bad(
                path,
                format!(
                    "the elements are {}, which shapecast does not read",
                    dtype.descr()
                ),
            ))
        }
    };
    let (count, bytes) = byte_len(path, &sizes, item)?;
    let held = file_len.saturating_sub(start);
    if held < bytes as u64 {
        return Err(Error::Truncated {
            path: shown(path),
            what: "the data",
            promised: bytes as u64,
            holds: held,
        });
    }
    if held > bytes as u64 {
        return Err(bad(
            path,
            format!("the header promises {bytes} bytes of data and the file holds {held}"),
        ));
    }
    let npy = NpyFile::with_header(header, BufReader::new(file));
    let order = npy.order();
    let reader = npy.data::<T>().map_err(|_| Error::FileElement {
        path: shown(path),
        name: None,
        found: dtype.descr(),
        expected: T::NAME,
    })?;
    let mut data = Vec::new();
    data.try_reserve_exact(count)
        .map_err(|_| bad(path, format!("no memory for {count} elements")))?;
    for v in reader {
        data.push(v.map_err(|e| bad(path, format!("cannot read the data: {e}")))?);
    }
    if order == Order::Fortran && sizes.len() > 1 {
        data = from_fortran(&sizes, data);
    }
    Ok((sizes, data))
}

/// Refuses what the header describes but shapecast does not read, by name (strings, objects,
/// dates, complex numbers), and sizes NumPy itself refuses: an axis or a byte
/// count (zeros aside) above `isize::MAX`. Runs before anything is allocated for the data.
fn check_elements(path: &Path, header: &super::npy_header::Header) -> Result<(), Error> {
    let descr = header.descr.as_str();
    let body = descr.trim_start_matches(['<', '>', '|', '=']);
    // The kind is one character (of any width: a stranger's header may put any there).
    let (kind, width) = body.split_at(body.chars().next().map_or(0, char::len_utf8));
    let unsupported = match kind {
        "U" | "S" | "a" => Some("strings"),
        "O" => Some("Python objects"),
        "M" => Some("datetime64 dates"),
        "m" => Some("timedelta64 durations"),
        "c" => Some("complex numbers"),
        "V" => Some("raw bytes (void)"),
        "f" | "i" | "u" | "b" => None,
        _ => Some("an unknown type"),
    };
    if let Some(what) = unsupported {
        return Err(bad(
            path,
            format!("the elements are {what} ({descr:?}), which shapecast does not read"),
        ));
    }
    let item = width.parse::<u64>().unwrap_or(1).max(1);
    let limit = isize::MAX as u64;
    let bytes = header
        .shape
        .iter()
        .filter(|&&n| n != 0)
        .try_fold(item, |b, &n| {
            b.checked_mul(n as u64).filter(|&b| b <= limit)
        });
    if header.shape.iter().any(|&n| n as u64 > limit) || bytes.is_none() {
        return Err(bad(
            path,
            format!(
                "the shape {:?} of {descr:?} elements is larger than any array can be (NumPy refuses it too)",
                header.shape
            ),
        ));
    }
    Ok(())
}

/// Column-major (Fortran-order) elements in row-major order: the crate's strided walk over
/// the column-major strides (the row-major strides of the reversed sizes, reversed).
fn from_fortran<T: Clone>(sizes: &[usize], data: Vec<T>) -> Vec<T> {
    let reversed: Vec<usize> = sizes.iter().rev().copied().collect();
    let mut strides = crate::engine::layout::row_major(&reversed);
    strides.reverse();
    let view = crate::TensorView::<T, ()>::from_parts(&data, sizes.to_vec(), strides);
    view.iter().cloned().collect()
}

impl<T: NpyElement, S: Storage<T>> Tensor<T, S> {
    /// The tensor a `.npy` file holds, its sizes checked against `S`: a missing file, other
    /// elements, other sizes (the message says which shape to declare when the file's sizes
    /// are `S`'s reordered) and a corrupt or truncated file are errors. Fortran-order files
    /// are read into row-major order.
    ///
    /// ```
    /// use shapecast::{names, shape, Tensor};
    /// names!(EMBED, HIDDEN);
    /// let path = std::env::temp_dir().join("shapecast-read-npy-doc.npy");
    /// let w = Tensor::<f32, shape![EMBED: 2, HIDDEN]>::from_fn(&[2, 3], |i| i[1] as f32).unwrap();
    /// w.write_npy(&path).unwrap();
    /// assert_eq!(Tensor::<f32, shape![EMBED: 2, HIDDEN]>::read_npy(&path).unwrap(), w);
    /// let err = Tensor::<f32, shape![EMBED: 4, HIDDEN]>::read_npy(&path).unwrap_err();
    /// assert!(err.to_string().ends_with("the file holds [2, 3], which does not fit [EMBED: 4, HIDDEN]"));
    /// ```
    pub fn read_npy(path: impl AsRef<Path>) -> Result<Tensor<T, S>, Error> {
        let path = path.as_ref();
        let (sizes, data) = read_file::<T>(path)?;
        fit(path, None, &sizes, S::to_dyn())?;
        Tensor::from_vec_sized(&sizes, data)
    }

    /// Writes the tensor to a `.npy` file (row-major, the machine's byte order), which
    /// NumPy's `np.load` reads.
    ///
    /// ```
    /// use shapecast::{shape, Tensor};
    /// let path = std::env::temp_dir().join("shapecast-write-npy-doc.npy");
    /// Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]).write_npy(&path).unwrap();
    /// let back = Tensor::<i32, shape![?, ?]>::read_npy(&path).unwrap();
    /// assert_eq!((back.sizes(), back.data()), (&[2, 2][..], &[1, 2, 3, 4][..]));
    /// ```
    pub fn write_npy(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        write_file(path.as_ref(), self.sizes(), self.data())
    }
}

/// Writes sizes and row-major elements as a `.npy` file.
fn write_file<T: NpyElement>(path: &Path, sizes: &[usize], data: &[T]) -> Result<(), Error> {
    let shape: Vec<u64> = sizes.iter().map(|&n| n as u64).collect();
    let file = File::create(path).map_err(|e| io_error(path, e))?;
    let io = |e: std::io::Error| io_error(path, e);
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&shape)
        .writer(BufWriter::new(file))
        .begin_nd()
        .map_err(io)?;
    writer.extend(data.iter().cloned()).map_err(io)?;
    writer.finish().map_err(io)
}

impl<T: NpyElement> DynTensor<T> {
    /// The tensor a `.npy` file holds, with unnamed axes of the file's sizes.
    ///
    /// ```
    /// use shapecast::{shape, DynTensor, Tensor};
    /// let path = std::env::temp_dir().join("shapecast-dyn-npy-doc.npy");
    /// Tensor::<f64, shape![3]>::from_array([0.5, 1.5, 2.5]).write_npy(&path).unwrap();
    /// let t = DynTensor::<f64>::read_npy(&path).unwrap();
    /// assert_eq!((t.shape().to_string(), t.data()), ("[3]".to_string(), &[0.5, 1.5, 2.5][..]));
    /// ```
    pub fn read_npy(path: impl AsRef<Path>) -> Result<DynTensor<T>, Error> {
        let path = path.as_ref();
        let (sizes, data) = read_file::<T>(path)?;
        DynTensor::from_vec(DynShape::from_sizes(&sizes)?, data)
    }

    /// Writes the tensor to a `.npy` file (its names are not stored).
    ///
    /// ```
    /// use shapecast::DynTensor;
    /// let path = std::env::temp_dir().join("shapecast-dyn-write-npy-doc.npy");
    /// let t = DynTensor::from_vec("[N: 2]".parse()?, vec![7u8, 9])?;
    /// t.write_npy(&path)?;
    /// assert_eq!(DynTensor::<u8>::read_npy(&path)?.data(), &[7, 9]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn write_npy(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        write_file(path.as_ref(), self.sizes(), self.data())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_becomes_row_major() {
        // [[0, 1, 2], [3, 4, 5]] stored column by column.
        let f = alloc::vec![0, 3, 1, 4, 2, 5];
        assert_eq!(from_fortran(&[2, 3], f), alloc::vec![0, 1, 2, 3, 4, 5]);
        let f3: Vec<usize> = (0..24).collect();
        let c = from_fortran(&[2, 3, 4], f3);
        // Row-major index (i, j, k) holds the column-major offset i + 2 j + 6 k.
        assert_eq!(c[12 + 2 * 4 + 3], 1 + 2 * 2 + 6 * 3);
    }
}
