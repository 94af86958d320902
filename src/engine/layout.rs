//! The layout of strided data: sizes and strides, row-major strides, an operand's strides in
//! an output frame (0 where it is broadcast), and the merging of axes contiguous in every
//! operand. Every kernel of the engine lays its operands out with these.

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::shape::MAX_RANK;

/// Strided data as a kernel reads it: each axis's size, each axis's stride in elements, and
/// the data the offsets index (every offset the sizes and strides reach lies inside it). The
/// one layout every operation hands the engine: an elementwise operand, a contraction's, a
/// convolution's, a pool's, a pad's and a reduction's. Public only because a hidden method
/// of [`Contractible`](crate::Contractible) gives it; not nameable outside the crate.
#[derive(Clone, Copy)]
pub struct Strided<'a, T> {
    /// Each axis's size.
    pub sizes: &'a [usize],
    /// Each axis's stride, in elements (0 on a broadcast axis).
    pub strides: &'a [usize],
    /// The elements the offsets index.
    pub data: &'a [T],
}

/// The strides (in elements) of an operand stored contiguously, row-major, over its own
/// `sizes`, laid out in the output frame by one side of a plan: 0 for an inserted singleton
/// and for an axis of size 1 (both are broadcast). A plan that points past the operand's rank
/// is an [`Error::Layout`].
///
/// ```
/// use shapecast::kernel::frame_strides;
/// // An operand of shape [3, 1] feeding output axes 1 and 2 of a rank-3 output.
/// assert_eq!(frame_strides(&[None, Some(0), Some(1)], &[3, 1])?, vec![0, 1, 0]);
/// assert!(frame_strides(&[Some(2)], &[3, 1]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn frame_strides(plan_side: &[Option<usize>], sizes: &[usize]) -> Result<Vec<usize>, Error> {
    if let Some(k) = plan_side.iter().flatten().find(|&&k| k >= sizes.len()) {
        return Err(Error::Layout {
            what: format!(
                "the plan names axis {k} of an operand of rank {}",
                sizes.len()
            ),
        });
    }
    Ok(frame_strides_of(plan_side, sizes, &row_major(sizes)))
}

/// [`frame_strides`] for an operand laid out with its own `strides` (a view): the stride of
/// the axis feeding each output axis, 0 for an inserted singleton and for an axis of size 1.
/// The caller guarantees that the plan points at real axes (a rule's plan does); a
/// transposed `[3, 2]` operand (strides `[1, 3]`) feeding output axes 0 and 1 has `[1, 3]`.
pub(crate) fn frame_strides_of(
    plan_side: &[Option<usize>],
    sizes: &[usize],
    strides: &[usize],
) -> Vec<usize> {
    let mut frame = vec![0; plan_side.len()];
    frame_strides_into(plan_side, sizes, strides, &mut frame);
    frame
}

/// [`frame_strides_of`] into the first `plan_side.len()` entries of `frame`, for strides kept
/// on the stack.
pub(crate) fn frame_strides_into(
    plan_side: &[Option<usize>],
    sizes: &[usize],
    strides: &[usize],
    frame: &mut [usize],
) {
    for (f, src) in frame.iter_mut().zip(plan_side) {
        *f = match *src {
            Some(k) if sizes[k] != 1 => strides[k],
            _ => 0,
        };
    }
}

/// Row-major strides of a contiguous array of the given sizes.
///
/// ```
/// assert_eq!(shapecast::kernel::row_major(&[2, 3, 4]), vec![12, 4, 1]);
/// ```
pub fn row_major(sizes: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    row_major_into(sizes, &mut strides);
    strides
}

/// [`row_major`] into the first `sizes.len()` entries of `strides` (the crate's one copy of
/// the computation, for strides kept on the stack).
pub(crate) fn row_major_into(sizes: &[usize], strides: &mut [usize]) {
    let mut stride = 1usize;
    for i in (0..sizes.len()).rev() {
        strides[i] = stride;
        stride = stride.saturating_mul(sizes[i]);
    }
}

/// An operand's `strides`, or, for a contiguous one (`None`), row-major strides for `sizes`
/// written into `own`.
pub(crate) fn strides_or_row_major<'a, const N: usize>(
    sizes: &[usize],
    strides: Option<&'a [usize]>,
    own: &'a mut [usize; N],
) -> &'a [usize] {
    match strides {
        Some(strides) => strides,
        None => {
            row_major_into(sizes, own);
            &own[..sizes.len()]
        }
    }
}

/// Output sizes and the two operands' strides after merging: axes of size 1 are dropped, and
/// an axis is merged into the next one when both operands are contiguous across the pair
/// (the output is row-major and contiguous, so it never blocks a merge). At most
/// [`MAX_RANK`] merged axes, held inline; e.g. `[4, 5]` with strides `[5, 1]` and `[5, 1]`
/// is one run of 20, and with `[5, 1]` and `[0, 1]` nothing merges.
pub(crate) struct Merged<const N: usize = MAX_RANK> {
    pub(crate) len: usize,
    pub(crate) sizes: [usize; N],
    pub(crate) a: [usize; N],
    pub(crate) b: [usize; N],
}

impl<const N: usize> Merged<N> {
    /// Merges; the caller guarantees `sizes.len() <= MAX_RANK` and equal lengths. A `const
    /// fn`, so that static shapes merge at compile time (`StaticLayout`).
    pub(crate) const fn new(sizes: &[usize], a: &[usize], b: &[usize]) -> Merged<N> {
        let mut m = Merged {
            len: 0,
            sizes: [0; N],
            a: [0; N],
            b: [0; N],
        };
        let mut i = 0;
        while i < sizes.len() {
            let n = sizes[i];
            // Size 1 is dropped; otherwise the previous (outer) axis may continue this one
            // in both operands. Products wrap: they overflow only for an empty tensor's
            // huge sizes beside its 0, whose walk has no element however they merge (and a
            // checked product made a 4x4 sum 15% slower: `cargo bench --bench kernels -- C6`).
            if n == 1 {
            } else if m.len > 0
                && m.a[m.len - 1] == a[i].wrapping_mul(n)
                && m.b[m.len - 1] == b[i].wrapping_mul(n)
            {
                let last = m.len - 1;
                m.sizes[last] = m.sizes[last].wrapping_mul(n);
                m.a[last] = a[i];
                m.b[last] = b[i];
            } else {
                m.sizes[m.len] = n;
                m.a[m.len] = a[i];
                m.b[m.len] = b[i];
                m.len += 1;
            }
            i += 1;
        }
        m
    }
}

/// The number of elements an operand's data must hold to cover every offset.
pub(crate) fn required_len(sizes: &[usize], strides: &[usize]) -> Option<usize> {
    if sizes.contains(&0) {
        return Some(0);
    }
    sizes.iter().zip(strides).try_fold(1usize, |acc, (&n, &s)| {
        (n - 1).checked_mul(s).and_then(|x| acc.checked_add(x))
    })
}

/// An operand's strides in the output frame given by one side of a plan, on the stack (the
/// first `plan_side.len()` entries, at most `N`): its own `strides`, or row-major ones for
/// `sizes` when `None`, and 0 where it is broadcast.
pub(crate) fn frame_on_stack<const N: usize>(
    plan_side: &[Option<usize>],
    sizes: &[usize],
    strides: Option<&[usize]>,
) -> [usize; N] {
    let mut own = [1usize; N];
    let own = strides_or_row_major(sizes, strides, &mut own);
    let mut frame = [0usize; N];
    frame_strides_into(plan_side, sizes, own, &mut frame);
    frame
}

/// Offset tables of the row-major walk over `axes` (each a size and its strides in the
/// operands), the first axis slowest, for an output of `total` elements that the walk covers
/// part of. Empty when the output is: an empty tensor's part can be `2^62` rows long (a
/// `[2^62, 0]` input normalised over its last axis), and such a walk writes nothing.
/// Otherwise every axis walked is an axis of a tensor that holds elements.
pub(crate) fn offset_tables<const N: usize>(
    total: usize,
    axes: &[(usize, [usize; N])],
) -> [Vec<usize>; N] {
    if total == 0 || axes.iter().any(|a| a.0 == 0) {
        return core::array::from_fn(|_| Vec::new());
    }
    let count: usize = axes.iter().map(|a| a.0).product();
    let mut out: [Vec<usize>; N] = core::array::from_fn(|_| Vec::with_capacity(count));
    let mut index = vec![0usize; axes.len()];
    let mut at = [0usize; N];
    loop {
        for (o, &a) in out.iter_mut().zip(&at) {
            o.push(a);
        }
        // The last axis advances first; an axis that wraps carries into the one before.
        let mut k = axes.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            let (size, strides) = axes[k];
            index[k] += 1;
            for (a, s) in at.iter_mut().zip(strides) {
                *a += s;
            }
            if index[k] < size {
                break;
            }
            for (a, s) in at.iter_mut().zip(strides) {
                *a -= s * size;
            }
            index[k] = 0;
        }
    }
}
