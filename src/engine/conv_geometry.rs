//! The geometry of a convolution as the engine walks it: sizes and strides of its batch,
//! channel and spatial axes, worked out by the operation from its plan. Shared by the im2col
//! path (`conv`) and Winograd's (`winograd`).

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
