//! The geometry of a convolution as the engine walks it: sizes and strides of its batch,
//! channel and spatial axes, worked out by the operation from its plan. Shared by the im2col
//! path (`conv`) and Winograd's (`winograd`). And [`SideBySide`], the 2x2 max pool's windows,
//! shared by its forward kernel and its gradient's scatter. And [`split_columns`], an input
//! row's even and odd columns: Winograd's tiles (four columns, one every second column) and
//! the patches of a stride-2 convolution both read a row that way; and [`PANEL`], the GEMM
//! kernel's rows, which both paths size their products' row counts by.

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

/// The rows of the GEMM crate's widest f32 kernel with AVX-512 (four vectors of 16): a
/// product whose row count is a multiple of it runs no row on a narrower kernel.
pub(crate) const PANEL: usize = 64;

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

/// One input row (`row[col * sx]` for `col < w`) as its even and odd columns shifted by
/// the padding: `even[k]` is column `2k − p`, `odd[k]` column `2k + 1 − p`, zero outside.
pub(crate) fn split_columns<T: Copy + num_traits::Zero>(
    row: &[T],
    (w, sx): (usize, usize),
    p: usize,
    even: &mut [T],
    odd: &mut [T],
) {
    let n = even.len();
    // Columns inside the row for both lanes: 2k − p ≥ 0 and 2k + 1 − p < w.
    let lo = p.div_ceil(2).min(n);
    let hi = ((w + p) / 2).clamp(lo, n);
    let column = |col: usize| if col < w { row[col * sx] } else { T::zero() };
    for k in (0..lo).chain(hi..n) {
        even[k] = column((2 * k).wrapping_sub(p));
        odd[k] = column((2 * k + 1).wrapping_sub(p));
    }
    if lo < hi {
        let start = 2 * lo - p;
        if sx == 1 {
            let pairs = row[start..start + 2 * (hi - lo)].chunks_exact(2);
            for ((e, o), pair) in even[lo..hi].iter_mut().zip(&mut odd[lo..hi]).zip(pairs) {
                *e = pair[0];
                *o = pair[1];
            }
        } else {
            for k in lo..hi {
                let col = 2 * k - p;
                even[k] = row[col * sx];
                odd[k] = row[(col + 1) * sx];
            }
        }
    }
}
