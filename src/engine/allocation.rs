//! Room for a buffer whose size comes from input: the element count's product checked, the
//! bytes held to `isize::MAX`, and a large buffer asked of the allocator as an error rather
//! than an abort. Every tensor constructor, reduction, contraction and broadcast output goes
//! through here before it allocates, so `[0, usize::MAX / 2]` (no element) is fine and a
//! result that cannot exist is [`Error::TooLarge`].

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::shape::DynShape;

/// Buffers at least this large (bytes) are asked of the allocator before the real
/// allocation (a refusal is then an error); below it a failure is an out-of-memory abort,
/// as for any other allocation.
const ASK_FIRST: usize = 1 << 26;

pub(crate) use crate::values::shape::element_count as count;

/// The element count of `sizes` when a buffer of that many `T` can exist, else
/// [`Error::TooLarge`] (or [`Error::TooManyElements`] when the count overflows) naming
/// `shape`.
pub(crate) fn ensure<T>(sizes: &[usize], shape: impl FnOnce() -> DynShape) -> Result<usize, Error> {
    let Some(n) = count(sizes) else {
        return Err(Error::TooManyElements { shape: shape() });
    };
    let bytes = n.checked_mul(core::mem::size_of::<T>());
    let fits = match bytes {
        Some(b) if b <= isize::MAX as usize => {
            b < ASK_FIRST || Vec::<T>::new().try_reserve_exact(n).is_ok()
        }
        _ => false,
    };
    if fits {
        Ok(n)
    } else {
        Err(too_large::<T>(shape(), n))
    }
}

/// [`Error::TooLarge`] for `n` elements of `T`.
fn too_large<T>(shape: DynShape, n: usize) -> Error {
    Error::TooLarge {
        shape,
        elements: n,
        element_bytes: core::mem::size_of::<T>(),
    }
}

/// An empty vector with room for the elements of `sizes`, or the error of [`ensure`].
pub(crate) fn vec_for<T>(
    sizes: &[usize],
    shape: impl FnOnce() -> DynShape,
) -> Result<Vec<T>, Error> {
    let n = ensure::<T>(sizes, shape)?;
    let mut v = Vec::new();
    if v.try_reserve_exact(n).is_err() {
        // `ensure` asked for this much already; the allocator changed its mind.
        return Err(too_large::<T>(
            DynShape::from_sizes(sizes).unwrap_or_default(),
            n,
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bytes_and_memory_are_checked() {
        let shape = || DynShape::from_sizes(&[3]).unwrap();
        assert_eq!(ensure::<u8>(&[2, 3], shape), Ok(6));
        assert_eq!(ensure::<u8>(&[0, usize::MAX], shape), Ok(0));
        assert_eq!(ensure::<u8>(&[usize::MAX, 3, 0], shape), Ok(0));
        assert!(matches!(
            ensure::<u8>(&[usize::MAX, 2], shape),
            Err(Error::TooManyElements { .. })
        ));
        assert!(matches!(
            ensure::<u16>(&[usize::MAX / 2], shape),
            Err(Error::TooLarge { .. })
        ));
        // 2^50 bytes: below isize::MAX, above any machine's memory.
        assert!(matches!(
            ensure::<u8>(&[1 << 50], shape),
            Err(Error::TooLarge { .. })
        ));
        assert_eq!(vec_for::<u32>(&[4, 4], shape).unwrap().capacity(), 16);
    }
}
