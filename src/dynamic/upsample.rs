//! Interpolation by name at run time (rule book §23): the shape `upsample` leaves, each
//! selected axis `factor` times longer, and the shape `resize` leaves, each selected axis at
//! the size given for it; names kept, every other axis kept. The twin of
//! [`typed::upsample`](crate::typed::upsample).
//!
//! ```
//! use shapecast::dynamic::upsample::upsample;
//! let (shape, at) = upsample(&"[?, C: 3, H: 56, W]".parse()?, &["H".parse()?, "W".parse()?], 4)?;
//! assert_eq!((shape.to_string(), at), ("[?, C: 3, H: 224, W]".to_string(), vec![2, 3]));
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynShape, Size};

/// How an interpolation reads the input (PyTorch's `F.interpolate` modes). Linear and cubic
/// are separable: over two axes they are PyTorch's `bilinear` and `bicubic`, over three
/// linear is its `trilinear`. The enum may gain modes (`#[non_exhaustive]`).
///
/// ```
/// use shapecast::Interpolation;
/// let bilinear = Interpolation::Linear { align_corners: false, antialias: false };
/// assert_ne!(Interpolation::Nearest, bilinear);
/// // torchvision's `Resize`: bilinear, antialiased when it shrinks.
/// let torchvision = Interpolation::Linear { align_corners: false, antialias: true };
/// assert_ne!(torchvision, bilinear);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Interpolation {
    /// The input element at `⌊j·n/m⌋` (`mode='nearest'`, PyTorch's default: an integer
    /// factor repeats each element).
    Nearest,
    /// The input element at `⌊(j + ½)·n/m⌋` (`mode='nearest-exact'`: the same as
    /// `Nearest` for an integer factor, centred when shrinking).
    NearestExact,
    /// Two neighbours weighted by distance along each axis (`mode='linear'`,
    /// `'bilinear'`, `'trilinear'`). With `align_corners` the first and last elements of
    /// the input and the output sit on each other; without it (PyTorch's default) the
    /// elements are cells, their centres at `(j + ½)·n/m − ½`.
    Linear {
        /// PyTorch's `align_corners`.
        align_corners: bool,
        /// PyTorch's `antialias`: when shrinking, the triangle filter is widened by the
        /// shrink factor, so every input element counts (torchvision's `Resize` default).
        /// Growing, it gives plain linear's values.
        antialias: bool,
    },
    /// Four neighbours along each axis weighted by the cubic convolution kernel
    /// (`mode='bicubic'`, `A = −0.75`; the neighbours past an end read the end), the
    /// source positions as `Linear`'s but not clamped at 0. Values can overshoot the
    /// input's range, as PyTorch's do.
    Cubic {
        /// PyTorch's `align_corners`.
        align_corners: bool,
        /// PyTorch's `antialias`: Keys' cubic (`a = −½`, as PIL's) widened by the shrink
        /// factor, the weights normalised at the ends.
        antialias: bool,
    },
    /// The mean of the input elements each output element covers (`mode='area'`:
    /// adaptive average pooling, `⌊j·n/m⌋ ≤ i < ⌈(j + 1)·n/m⌉`); growing, it repeats as
    /// `Nearest` does for an integer factor.
    Area,
}

/// The shape `input` upsampled by `factor` along each selected axis (PyTorch's
/// `F.interpolate(scale_factor=factor)`: `n` becomes `factor·n`, `?` stays `?`), and those
/// axes' positions (ascending); or the error: a factor of 0, a selector that finds no axis
/// or one already selected, a size that overflows.
///
/// ```
/// use shapecast::dynamic::upsample::upsample;
/// assert!(upsample(&"[H: 2]".parse()?, &["H".parse()?], 0).is_err());
/// assert!(upsample(&"[H: 2]".parse()?, &["W".parse()?], 2).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn upsample(
    input: &DynShape,
    axes: &[AxisSelector],
    factor: usize,
) -> Result<(DynShape, Vec<usize>), Error> {
    let refuse = super::pool::refusal("upsample", input, axes);
    if factor == 0 {
        return Err(refuse("a factor of 0 leaves nothing to read".into()));
    }
    let at = super::pool::picked(input, axes, &refuse)?;
    let mut out = input.axes().to_vec();
    for &k in &at {
        if let Size::Known(n) = out[k].size {
            let grown = n
                .checked_mul(factor)
                .ok_or_else(|| refuse(format!("axis {k} upsampled by {factor} overflows")))?;
            out[k].size = Size::Known(grown);
        }
    }
    Ok((DynShape::new(out)?, at))
}

/// The shape `input` resized to `sizes` along the selected axes (one size per selector, in
/// the selectors' order: PyTorch's `F.interpolate(size=…)`), and those axes' positions
/// (ascending); or the error: sizes not one per selector, an output size of 0, a selector
/// that finds no axis or one already selected, an axis of size 0 (nothing to read).
///
/// ```
/// use shapecast::dynamic::upsample::resize;
/// let (shape, at) = resize(&"[C: 3, H: 256, W: 384]".parse()?, &["W".parse()?, "H".parse()?], &[320, 224])?;
/// assert_eq!((shape.to_string(), at), ("[C: 3, H: 224, W: 320]".to_string(), vec![1, 2]));
/// assert!(resize(&"[H: 0]".parse()?, &["H".parse()?], &[2]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn resize(
    input: &DynShape,
    axes: &[AxisSelector],
    sizes: &[usize],
) -> Result<(DynShape, Vec<usize>), Error> {
    let refuse = super::pool::refusal("resize", input, axes);
    if sizes.len() != axes.len() {
        return Err(refuse(format!(
            "{} sizes for {} axes",
            sizes.len(),
            axes.len()
        )));
    }
    if let Some(i) = sizes.iter().position(|&m| m == 0) {
        return Err(refuse(format!("the size for {} is 0", axes[i])));
    }
    let at = super::pool::picked(input, axes, &refuse)?;
    let mut out = input.axes().to_vec();
    // Each selector found its own axis: each takes the size given for it.
    for (k, &m) in axes.iter().filter_map(|a| a.position(input)).zip(sizes) {
        if let Size::Known(0) = out[k].size {
            return Err(refuse(format!(
                "axis {k} is empty: nothing to interpolate from"
            )));
        }
        out[k].size = Size::Known(m);
    }
    Ok((DynShape::new(out)?, at))
}
