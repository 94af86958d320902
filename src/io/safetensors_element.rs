//! The element types `.safetensors` files hold ([`SafetensorsElement`]), and the floats a
//! narrower stored float widens into ([`Widening`]).

use alloc::vec::Vec;

use safetensors::tensor::Dtype;

use crate::values::sealed::Sealed;

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
/// ([`Weights::get_widened`](super::Weights::get_widened)): `f32` takes `F16`, `BF16` and `F32`; `f64` takes those and
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
