//! The geometry of a convolution as the engine walks it: sizes and strides of its batch,
//! channel and spatial axes, worked out by the operation from its plan. Shared by the im2col
//! path (`conv`) and Winograd's (`winograd`). And [`SideBySide`], the 2x2 max pool's windows,
//! shared by its forward kernel and its gradient's scatter.

use crate::alloc_prelude::*;

/// Where a convolution's pieces are: sizes and strides of the axes it walks.
pub(crate) struct Geometry {
    /// Input channels per group, output channels per group.
    pub(crate) c_group: usize,
    pub(crate) o_group: usize,
    pub(crate) groups: usize,
    /// The input's stride along its channel, the output's along its channel.
    pub(crate) x_channel: usize,
    pub(crate) out_channel: usize,
    /// Per spatial axis: input size, input stride, kernel, output size.
    pub(crate) spatial: Vec<(usize, usize, usize, usize)>,
    /// The output's stride along the flattened spatial positions, when they are one strided
    /// run (adjacent spatial axes); `None`: a scratch block, scattered after the product.
    pub(crate) out_run: Option<usize>,
    /// The output's strides along each spatial axis.
    pub(crate) out_spatial: Vec<usize>,
    /// Batch axes: size, input stride, output stride.
    pub(crate) batch: Vec<(usize, usize, usize)>,
    /// Taps of the kernel (product of the kernel sizes), and positions (product of the
    /// output's spatial sizes).
    pub(crate) taps: usize,
    pub(crate) positions: usize,
    pub(crate) stride: usize,
    pub(crate) padding: usize,
    pub(crate) dilation: usize,
}

/// The windows of a 2x2 pool of stride 2 and no padding over the last two axes (`h x w` in,
/// `mh x mw` out), every window inside the input: each row of windows reads one pair of
/// input rows, the rows of every outer index one after the other.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideBySide {
    h: usize,
    w: usize,
    mh: usize,
}

impl SideBySide {
    /// The windows of `mh x mw` outputs over `h x w` inputs, when there is a row of them and
    /// each lies inside the input.
    pub(crate) fn new((h, w): (usize, usize), (mh, mw): (usize, usize)) -> Option<Self> {
        (mh > 0 && 2 * mh <= h && 2 * mw <= w).then_some(SideBySide { h, w, mh })
    }

    /// Where the input rows of row `r` of windows start (`r` counted over every outer index).
    pub(crate) fn top(self, r: usize) -> usize {
        (r / self.mh) * self.h * self.w + 2 * (r % self.mh) * self.w
    }
}
