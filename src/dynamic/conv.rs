//! Convolution by name at run time (rule book §20): the shape a sliding window
//! leaves, with the plan the kernels run. The twin of [`typed::conv`](crate::typed::conv).
//!
//! A convolution pairs axes by name: the input and the weight share a channel name, which is
//! contracted; every other name they share is a spatial axis the window slides along (the
//! weight's size there is the kernel's); the weight's one remaining axis is the output's
//! channel, which takes the input channel's place. Axes of the input the weight lacks (the
//! batch) are kept. Along each spatial axis of size `n`, with kernel `k`, stride `s`, padding
//! `p` and dilation `d`, the output has PyTorch's size `(n + 2p - d(k - 1) - 1) / s + 1`.
//!
//! ```
//! use shapecast::dynamic::conv::{conv, ConvSpec};
//! let x = "[?, C: 3, H: 256, W: 384]".parse()?;
//! let w = "[OUT: 16, C: 3, H: 3, W: 3]".parse()?;
//! let c = conv(&x, &w, "C", &ConvSpec::default().padding(1).stride(2))?;
//! assert_eq!(c.shape.to_string(), "[?, OUT: 16, H: 128, W: 192]");
//! assert_eq!(
//!     conv(&x, &"[OUT: 16, C: 4, H: 3, W: 3]".parse()?, "C", &ConvSpec::default())
//!         .unwrap_err()
//!         .to_string(),
//!     "cannot convolve [?, C: 3, H: 256, W: 384] with [OUT: 16, C: 4, H: 3, W: 3] over C: \
//!      the input has 3 channels and the weight 4 per group, in 1 group"
//! );
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::shape::{DynAxis, DynShape, Size};

/// The largest stride, padding, dilation or pooling kernel a window takes: a quarter of
/// `isize::MAX`, so that every position a window computes (signed, the padding subtracted)
/// stays in range. Larger ones are refused.
///
/// ```
/// assert_eq!(shapecast::dynamic::conv::WINDOW_LIMIT, isize::MAX as usize / 4);
/// ```
pub const WINDOW_LIMIT: usize = isize::MAX as usize / 4;

/// A convolution's stride, padding, dilation (the same along every spatial axis) and groups,
/// with PyTorch's defaults (1, 0, 1, 1).
///
/// ```
/// use shapecast::dynamic::conv::ConvSpec;
/// let spec = ConvSpec::default().stride(2).padding(1);
/// assert_eq!((spec.stride, spec.padding, spec.dilation, spec.groups), (2, 1, 1, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvSpec {
    /// The step between windows (at least 1).
    pub stride: usize,
    /// Zeros added at both ends of every spatial axis.
    pub padding: usize,
    /// The step between a kernel's taps (at least 1).
    pub dilation: usize,
    /// Channel groups: input and output channels split into this many groups, each group's
    /// outputs see only its inputs (`groups` = channels is a depthwise convolution).
    pub groups: usize,
}

impl Default for ConvSpec {
    fn default() -> ConvSpec {
        ConvSpec {
            stride: 1,
            padding: 0,
            dilation: 1,
            groups: 1,
        }
    }
}

impl ConvSpec {
    /// This spec with another stride.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::conv::ConvSpec::default().stride(2).stride, 2);
    /// ```
    pub fn stride(self, stride: usize) -> ConvSpec {
        ConvSpec { stride, ..self }
    }

    /// This spec with another padding.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::conv::ConvSpec::default().padding(1).padding, 1);
    /// ```
    pub fn padding(self, padding: usize) -> ConvSpec {
        ConvSpec { padding, ..self }
    }

    /// This spec with another dilation.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::conv::ConvSpec::default().dilation(2).dilation, 2);
    /// ```
    pub fn dilation(self, dilation: usize) -> ConvSpec {
        ConvSpec { dilation, ..self }
    }

    /// This spec with another number of groups.
    ///
    /// ```
    /// assert_eq!(shapecast::dynamic::conv::ConvSpec::default().groups(3).groups, 3);
    /// ```
    pub fn groups(self, groups: usize) -> ConvSpec {
        ConvSpec { groups, ..self }
    }
}

/// One spatial axis of a convolution: where it is in the input (and output) and in the
/// weight, and its sizes where known.
///
/// ```
/// use shapecast::{dynamic::conv::{conv, ConvSpec}, Size};
/// let c = conv(&"[C: 3, H: 8]".parse()?, &"[K: 2, H: 3, C: 3]".parse()?, "C", &ConvSpec::default())?;
/// let h = &c.spatial[0];
/// assert_eq!((h.axis, h.weight_axis, h.kernel, h.out), (1, 1, Size::Known(3), Size::Known(6)));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spatial {
    /// The axis' position in the input and the output.
    pub axis: usize,
    /// The namesake's position in the weight.
    pub weight_axis: usize,
    /// The input's size along it.
    pub size: Size,
    /// The kernel's size (the weight's size along it).
    pub kernel: Size,
    /// The output's size along it.
    pub out: Size,
}

/// What [`conv`] gives: the output shape and where each kind of axis is.
///
/// ```
/// use shapecast::dynamic::conv::{conv, ConvSpec};
/// let c = conv(&"[N, H: 8, C: 3]".parse()?, &"[K: 2, C: 3, H: 3]".parse()?, "C", &ConvSpec::default())?;
/// assert_eq!(c.shape.to_string(), "[N, H: 6, K: 2]");
/// assert_eq!((c.channel, c.weight_channel, c.weight_out), (2, 1, 0));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Convolved {
    /// The output's shape.
    pub shape: DynShape,
    /// The contracted channel's position in the input (the output channel's in the output).
    pub channel: usize,
    /// The channel's position in the weight.
    pub weight_channel: usize,
    /// The output channel's position in the weight.
    pub weight_out: usize,
    /// The spatial axes, in the input's order.
    pub spatial: Vec<Spatial>,
}

/// The output size of a window of `kernel` taps along an axis of `size` elements, PyTorch's
/// formula: `(size + 2·padding − dilation·(kernel − 1) − 1) / stride + 1`, the division
/// rounded up when `ceil` (pooling's `ceil_mode`: a last window may run past the end, but a
/// window that would start in the right padding is dropped). `None` where PyTorch refuses: no
/// window fits (the dilated kernel is longer than the padded axis, or the output would be
/// empty), a zero kernel, stride or dilation, or a count that overflows.
///
/// ```
/// use shapecast::dynamic::conv::out_size;
/// assert_eq!(out_size(256, 3, 2, 1, 1, false), Some(128));
/// assert_eq!(out_size(5, 2, 2, 0, 1, false), Some(2));
/// assert_eq!(out_size(5, 2, 2, 0, 1, true), Some(3));
/// assert_eq!(out_size(1, 2, 2, 0, 1, true), Some(1));
/// assert_eq!(out_size(2, 5, 1, 1, 1, false), None);
/// ```
pub fn out_size(
    size: usize,
    kernel: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil: bool,
) -> Option<usize> {
    if kernel == 0 || stride == 0 || dilation == 0 {
        return None;
    }
    let round = if ceil { stride - 1 } else { 0 };
    let reach = size
        .checked_add(padding.checked_mul(2)?)?
        .checked_add(round)?;
    let span = dilation.checked_mul(kernel - 1)?.checked_add(1)?;
    let mut out = reach.checked_sub(span)? / stride + 1;
    if ceil && (out - 1).checked_mul(stride)? >= size.checked_add(padding)? {
        out -= 1;
    }
    (out >= 1).then_some(out)
}

/// The shape of `input` convolved with `weight` over the channel `channel` (rule book §20),
/// or the error: the channel missing from either, a weight axis other than one output channel
/// without namesake, channels that do not match the groups, or a kernel longer than the padded
/// input.
///
/// ```
/// use shapecast::dynamic::conv::{conv, ConvSpec};
/// let x = "[N, C: 8, T: 100]".parse()?;
/// // A depthwise 1-D convolution: 8 groups, one input channel each.
/// let w = "[K: 8, C: 1, T: 5]".parse()?;
/// let c = conv(&x, &w, "C", &ConvSpec::default().groups(8).dilation(2))?;
/// assert_eq!(c.shape.to_string(), "[N, K: 8, T: 92]");
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn conv(
    input: &DynShape,
    weight: &DynShape,
    channel: &str,
    spec: &ConvSpec,
) -> Result<Convolved, Error> {
    let refuse = |reason: String| Error::Convolution {
        input: input.clone(),
        weight: weight.clone(),
        channel: channel.into(),
        reason,
    };
    if spec.stride == 0 || spec.dilation == 0 || spec.groups == 0 {
        return Err(refuse(
            "stride, dilation and groups must be at least 1".into(),
        ));
    }
    if [spec.stride, spec.padding, spec.dilation]
        .iter()
        .any(|&v| v > WINDOW_LIMIT)
    {
        return Err(refuse(format!(
            "stride, padding and dilation must be at most {WINDOW_LIMIT}"
        )));
    }
    let c_in = input
        .position(channel)
        .ok_or_else(|| refuse(format!("the input has no axis {channel}")))?;
    let c_w = weight
        .position(channel)
        .ok_or_else(|| refuse(format!("the weight has no axis {channel}")))?;
    let mut out_axis = None;
    let mut pairs = Vec::new();
    for (j, a) in weight.axes().iter().enumerate() {
        if j == c_w {
            continue;
        }
        match a.name_str().and_then(|n| input.position(n)) {
            Some(i) => pairs.push((i, j)),
            None if out_axis.is_none() => out_axis = Some(j),
            None => {
                return Err(refuse(format!(
                    "the weight's axes {} and {} both lack a namesake in the input: \
                     only the output channel may",
                    describe(weight, out_axis.expect("set above")),
                    describe(weight, j)
                )))
            }
        }
    }
    let o_w = out_axis.ok_or_else(|| {
        refuse("every weight axis has a namesake in the input: the weight needs one output channel axis whose name the input lacks".into())
    })?;
    if pairs.is_empty() {
        return Err(refuse(
            "the weight shares no spatial axis with the input".into(),
        ));
    }
    pairs.sort_unstable();
    let groups = spec.groups;
    let size_of = |s: &DynShape, k: usize| s.axes()[k].size;
    if let (Size::Known(c), Size::Known(per)) = (size_of(input, c_in), size_of(weight, c_w))
        && per.checked_mul(groups) != Some(c)
    {
        return Err(refuse(format!(
            "the input has {c} channels and the weight {per} per group, in {groups} group{}",
            if groups == 1 { "" } else { "s" }
        )));
    }
    if let Size::Known(o) = size_of(weight, o_w)
        && o % groups != 0
    {
        return Err(refuse(format!(
            "{} output channels do not split into {groups} groups",
            o
        )));
    }
    let mut out_axes: Vec<DynAxis> = input.axes().to_vec();
    out_axes[c_in] = weight.axes()[o_w].clone();
    let mut planned = Vec::with_capacity(pairs.len());
    for &(i, j) in &pairs {
        let (size, kernel) = (size_of(input, i), size_of(weight, j));
        if kernel == Size::Known(0) {
            return Err(refuse(format!(
                "the kernel is empty along {}",
                describe(input, i)
            )));
        }
        let out = match (size, kernel) {
            (Size::Known(n), Size::Known(k)) => Size::Known(
                out_size(n, k, spec.stride, spec.padding, spec.dilation, false).ok_or_else(
                    || {
                        refuse(format!(
                            "along {} the kernel spans {} elements (dilation {}) and the \
                             padded input only {}",
                            describe(input, i),
                            span(k, spec.dilation),
                            spec.dilation,
                            padded(n, spec.padding)
                        ))
                    },
                )?,
            ),
            _ => Size::Unknown,
        };
        out_axes[i].size = out;
        planned.push(Spatial {
            axis: i,
            weight_axis: j,
            size,
            kernel,
            out,
        });
    }
    let shape = DynShape::new(out_axes).map_err(|e| match e {
        Error::RepeatedName { name, .. } => refuse(format!(
            "the output channel's name {name} already names an axis of the input"
        )),
        other => other,
    })?;
    Ok(Convolved {
        shape,
        channel: c_in,
        weight_channel: c_w,
        weight_out: o_w,
        spatial: planned,
    })
}

/// The padded length, for messages (saturating: a message never overflows).
fn padded(n: usize, p: usize) -> usize {
    n.saturating_add(p.saturating_mul(2))
}

/// The dilated kernel's span, for messages.
fn span(k: usize, d: usize) -> usize {
    d.saturating_mul(k.saturating_sub(1)).saturating_add(1)
}

/// `axis 2 (H)` or `axis 0`.
fn describe(shape: &DynShape, k: usize) -> String {
    match shape.axes()[k].name_str() {
        Some(n) => format!("axis {k} ({n})"),
        None => format!("axis {k}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PyTorch's output sizes (`torch.nn.functional.conv1d` and `max_pool1d` on a zeros input,
    /// recorded for these arguments): (size, kernel, stride, padding, dilation, ceil, out).
    #[test]
    fn out_size_is_pytorchs() {
        type Case = (usize, usize, usize, usize, usize, bool, Option<usize>);
        let cases: &[Case] = &[
            (7, 3, 1, 0, 1, false, Some(5)),
            (7, 3, 2, 1, 1, false, Some(4)),
            (7, 3, 2, 0, 2, false, Some(2)),
            (8, 2, 2, 0, 1, true, Some(4)),
            (7, 2, 2, 0, 1, true, Some(4)),
            (6, 3, 2, 1, 1, true, Some(4)),
            (5, 3, 3, 1, 1, true, Some(2)),
            (1, 1, 1, 0, 1, false, Some(1)),
            (2, 3, 1, 0, 1, false, None),
            (2, 3, 1, 1, 1, false, Some(2)),
            (3, 2, 1, 0, 3, false, None),
        ];
        for &(n, k, s, p, d, c, want) in cases {
            assert_eq!(out_size(n, k, s, p, d, c), want, "{n} {k} {s} {p} {d} {c}");
        }
    }
}
