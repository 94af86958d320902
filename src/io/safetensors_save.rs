//! Writing `.safetensors` files: [`save_safetensors`] over [`SafetensorsTensor`], which typed
//! tensors, views and `DynTensor`s implement.

use alloc::string::ToString;
use alloc::vec::Vec;
use std::path::Path;

use safetensors::tensor::Dtype;

use super::safetensors::axes_key;
use super::safetensors_element::SafetensorsElement;
use super::{bad, byte_len, io_error};
use crate::engine::walk::row_major_elements;
use crate::tensor::{Contractible, DynTensor, Own};
use crate::values::error::Error;
use crate::values::shape::DynShape;

/// A tensor [`save_safetensors`] writes: a [`Tensor`](crate::Tensor), a [`TensorView`](crate::TensorView), a
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
/// `shapecast.axes.NAME`, value such as `[OUT: 3, IN: 2]`), which [`Weights::get`](super::Weights::get) checks
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
