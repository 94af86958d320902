//! Pooling by name at run time (rule book §20): the shape a max or average pool leaves. The
//! twin of [`typed::pool`](crate::typed::pool). Each pooled axis keeps its name and takes
//! PyTorch's output size (`max_pool2d`/`avg_pool2d`: kernel `k`, stride `s` (by default `k`),
//! padding `p`, `ceil_mode`); the other axes are kept. Global pooling is a reduction
//! (`mean`, `max`, rule book §16).
//!
//! ```
//! use shapecast::dynamic::pool::{pool, PoolSpec};
//! let x = "[?, C: 16, H: 255, W: 384]".parse()?;
//! let hw = ["H".parse()?, "W".parse()?];
//! assert_eq!(pool(&x, &hw, &PoolSpec::new(2))?.shape.to_string(), "[?, C: 16, H: 127, W: 192]");
//! assert_eq!(
//!     pool(&x, &hw, &PoolSpec::new(2).ceil_mode(true))?.shape.to_string(),
//!     "[?, C: 16, H: 128, W: 192]"
//! );
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use super::conv::out_size;
use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynShape, Size};

/// A pooling window: kernel, stride (PyTorch's default: the kernel), padding and
/// `ceil_mode`, the same along every pooled axis; and whether an average counts the padding.
///
/// ```
/// use shapecast::dynamic::pool::PoolSpec;
/// let spec = PoolSpec::new(3).stride(2).padding(1);
/// assert_eq!((spec.kernel, spec.stride, spec.padding, spec.ceil), (3, 2, 1, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSpec {
    /// The window's length along each pooled axis (at least 1).
    pub kernel: usize,
    /// The step between windows (at least 1).
    pub stride: usize,
    /// Padding at both ends of each pooled axis, at most half the kernel (PyTorch's limit):
    /// never the maximum, and in an average only with
    /// [`count_padding`](Self::count_padding).
    pub padding: usize,
    /// Rounds the output size up (PyTorch's `ceil_mode`); a last window that would start in
    /// the right padding is dropped, as PyTorch drops it.
    pub ceil: bool,
    /// Whether an average divides by the window's length including padding (PyTorch's
    /// `count_include_pad`, true by default there) rather than by the elements inside.
    pub count_padding: bool,
}

impl PoolSpec {
    /// A window of `kernel` along each pooled axis, stride `kernel`, no padding, rounding
    /// down, averages counting the padding (PyTorch's defaults).
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::pool::PoolSpec::new(3).stride, 3);
    /// ```
    pub fn new(kernel: usize) -> PoolSpec {
        PoolSpec {
            kernel,
            stride: kernel,
            padding: 0,
            ceil: false,
            count_padding: true,
        }
    }

    /// This spec with another stride.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::pool::PoolSpec::new(3).stride(2).stride, 2);
    /// ```
    pub fn stride(self, stride: usize) -> PoolSpec {
        PoolSpec { stride, ..self }
    }

    /// This spec with another padding.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::pool::PoolSpec::new(3).padding(1).padding, 1);
    /// ```
    pub fn padding(self, padding: usize) -> PoolSpec {
        PoolSpec { padding, ..self }
    }

    /// This spec rounding the output size up (`true`) or down.
    ///
    /// ```
    /// assert!(shapecast::dynamic::pool::PoolSpec::new(2).ceil_mode(true).ceil);
    /// ```
    pub fn ceil_mode(self, ceil: bool) -> PoolSpec {
        PoolSpec { ceil, ..self }
    }

    /// This spec counting the padding in an average or not.
    ///
    /// ```
    /// assert!(!shapecast::dynamic::pool::PoolSpec::new(2).count_padding(false).count_padding);
    /// ```
    pub fn count_padding(self, count_padding: bool) -> PoolSpec {
        PoolSpec {
            count_padding,
            ..self
        }
    }
}

/// What [`pool`] gives: the output shape and the pooled axes' positions, in the shape's order.
///
/// ```
/// use shapecast::dynamic::pool::{pool, PoolSpec};
/// let p = pool(&"[W: 9, C: 2, H: 4]".parse()?, &["H".parse()?, "W".parse()?], &PoolSpec::new(2))?;
/// assert_eq!((p.shape.to_string(), p.axes), ("[W: 4, C: 2, H: 2]".to_string(), vec![0, 2]));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pooled {
    /// The output's shape.
    pub shape: DynShape,
    /// The pooled axes' positions, ascending.
    pub axes: Vec<usize>,
}

/// The shape `input` pooled over the selected axes leaves (rule book §20), or the error: a
/// selector that finds no axis or one already selected, no axis at all, a zero kernel or
/// stride, padding above half the kernel, an empty pooled axis, or a window longer than the
/// padded axis.
///
/// ```
/// use shapecast::dynamic::pool::{pool, PoolSpec};
/// let x = "[N, C: 3, T: 10]".parse()?;
/// let p = pool(&x, &["T".parse()?], &PoolSpec::new(3).stride(2).padding(1))?;
/// assert_eq!(p.shape.to_string(), "[N, C: 3, T: 5]");
/// assert_eq!(
///     pool(&x, &["H".parse()?], &PoolSpec::new(2)).unwrap_err().to_string(),
///     "cannot pool [N, C: 3, T: 10] over H: it has no axis H"
/// );
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn pool(input: &DynShape, axes: &[AxisSelector], spec: &PoolSpec) -> Result<Pooled, Error> {
    let refuse = refusal("pool", input, axes);
    if axes.is_empty() {
        return Err(refuse("no axis is selected".into()));
    }
    if spec.kernel == 0 || spec.stride == 0 {
        return Err(refuse("kernel and stride must be at least 1".into()));
    }
    let limit = super::conv::WINDOW_LIMIT;
    if [spec.kernel, spec.stride, spec.padding]
        .iter()
        .any(|&v| v > limit)
    {
        return Err(refuse(format!(
            "kernel, stride and padding must be at most {limit}"
        )));
    }
    if spec.padding > spec.kernel / 2 {
        return Err(refuse(format!(
            "padding {} is more than half the kernel {}",
            spec.padding, spec.kernel
        )));
    }
    let at = picked(input, axes, &refuse)?;
    let mut out = input.axes().to_vec();
    for &k in &at {
        if out[k].size == Size::Known(0) {
            return Err(refuse(format!(
                "axis {k} is empty: a window needs an element"
            )));
        }
        if let Size::Known(n) = out[k].size {
            let o = out_size(n, spec.kernel, spec.stride, spec.padding, 1, spec.ceil).ok_or_else(
                || {
                    refuse(format!(
                        "along axis {k} the window of {} is longer than the padded axis of {}",
                        spec.kernel,
                        n.saturating_add(spec.padding.saturating_mul(2))
                    ))
                },
            )?;
            out[k].size = Size::Known(o);
        }
    }
    Ok(Pooled {
        shape: DynShape::new(out)?,
        axes: at,
    })
}

/// The positions the selectors pick in `input`, ascending, or `refuse`'s error: a selector
/// that finds no axis, or one already picked (pooling and padding alike).
pub(crate) fn picked(
    input: &DynShape,
    axes: &[AxisSelector],
    refuse: &dyn Fn(String) -> Error,
) -> Result<Vec<usize>, Error> {
    let mut at = Vec::with_capacity(axes.len());
    for a in axes {
        let k = a
            .position(input)
            .ok_or_else(|| refuse(format!("it has no axis {a}")))?;
        if at.contains(&k) {
            return Err(refuse(format!("{a} selects axis {k} twice")));
        }
        at.push(k);
    }
    at.sort_unstable();
    Ok(at)
}

/// The refusal of the window operation `op` (pool, pad, upsample, resize) of `input` over
/// `axes`, for a reason: [`Error::Window`] naming the selectors as given.
pub(crate) fn refusal<'a>(
    op: &'static str,
    input: &'a DynShape,
    axes: &'a [AxisSelector],
) -> impl Fn(String) -> Error + 'a {
    move |reason| Error::Window {
        op,
        shape: input.clone(),
        axes: axes
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        reason,
    }
}
