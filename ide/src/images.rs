//! Every operation of a ResNet at the sizes images have: the 7x7 stride-2 stem on 224x224, on
//! the seed's 256x384 and on 512x512, the 3x3 stride-2 max pool, the 3x3 convolutions of each
//! stage (56, 28, 14, 7) with their stride-2 and 1x1 shortcuts, a Bottleneck's 1x1 widening,
//! the global average pool and the classifier; then strides and windows past ResNet's
//! (a 16x16 patch embedding, a 3x3 stride-3 pool, ceil mode). An editor must show each
//! binding's shape.

use shapecast::prelude::*;
use shapecast::{names, shape, Conv, Pool, Tensor};

names!(N, CH, C64, C128, C256, C512, C2048, ROWS, COLS, CLASS, EMBED);

/// ResNet-18's operations at 224x224, one stage after another.
pub fn resnet18_at_224(
    img: Tensor<f32, shape![N, CH: 3, ROWS: 224, COLS: 224]>,
    stem: Tensor<f32, shape![C64: 64, CH: 3, ROWS: 7, COLS: 7]>,
    w64: Tensor<f32, shape![CH: 64, C64: 64, ROWS: 3, COLS: 3]>,
    w128: Tensor<f32, shape![C128: 128, C64: 64, ROWS: 3, COLS: 3]>,
    down128: Tensor<f32, shape![C128: 128, C64: 64, ROWS: 1, COLS: 1]>,
    w256: Tensor<f32, shape![C256: 256, C128: 128, ROWS: 3, COLS: 3]>,
    w512: Tensor<f32, shape![C512: 512, C256: 256, ROWS: 3, COLS: 3]>,
    w512b: Tensor<f32, shape![CH: 512, C512: 512, ROWS: 3, COLS: 3]>,
    fc: Tensor<f32, shape![CLASS: 1000, CH: 512]>,
) {
    let s112 = img.conv::<CH, Conv<2, 3>>(&stem).relu();
    let s56 = s112.max_pool::<(ROWS, COLS), Pool<3, 2, 1>>();
    let b56 = s56.conv::<C64, Conv<1, 1>>(&w64).relu();
    let back56 = b56.rename::<CH, C64>();
    let s28 = back56.conv::<C64, Conv<2, 1>>(&w128);
    let shortcut28 = back56.conv::<C64, Conv<2>>(&down128);
    let sum28 = &s28 + &shortcut28;
    let s14 = sum28.conv::<C128, Conv<2, 1>>(&w256);
    let s7 = s14.conv::<C256, Conv<2, 1>>(&w512);
    let same7 = s7.conv::<C512, Conv<1, 1>>(&w512b);
    let pooled = same7.mean::<(ROWS, COLS)>();
    let logits = pooled.dot::<CH>(&fc);
}

/// The stem and pool at the seed's 256x384 and at 512x512; a Bottleneck's 1x1 convolutions
/// (ResNet-50) at 56x56.
pub fn stems_and_bottleneck(
    seed: Tensor<f32, shape![N, CH: 3, ROWS: 256, COLS: 384]>,
    big: Tensor<f32, shape![N, CH: 3, ROWS: 512, COLS: 512]>,
    stem: Tensor<f32, shape![C64: 64, CH: 3, ROWS: 7, COLS: 7]>,
    reduce: Tensor<f32, shape![C64: 64, C256: 256, ROWS: 1, COLS: 1]>,
    widen: Tensor<f32, shape![C2048: 256, C64: 64, ROWS: 1, COLS: 1]>,
    x56: Tensor<f32, shape![N, C256: 256, ROWS: 56, COLS: 56]>,
) {
    let seed_stem = seed.conv::<CH, Conv<2, 3>>(&stem);
    let seed_pool = seed_stem.max_pool::<(ROWS, COLS), Pool<3, 2, 1>>();
    let big_stem = big.conv::<CH, Conv<2, 3>>(&stem);
    let big_pool = big_stem.max_pool::<(ROWS, COLS), Pool<3, 2, 1>>();
    let halves = seed.avg_pool::<(ROWS, COLS), Pool<2>>();
    let narrow = x56.conv::<C256, Conv>(&reduce);
    let wide = narrow.conv::<C64, Conv>(&widen);
}

/// Windows past ResNet's: a ViT's 16x16 patch embedding (stride 16), a stride-3 pool, ceil
/// mode, a dilated convolution, all at image sizes.
pub fn other_windows(
    img: Tensor<f32, shape![N, CH: 3, ROWS: 224, COLS: 224]>,
    patch: Tensor<f32, shape![EMBED: 768, CH: 3, ROWS: 16, COLS: 16]>,
    dilated: Tensor<f32, shape![C64: 64, CH: 3, ROWS: 3, COLS: 3]>,
) {
    let patches = img.conv::<CH, Conv<16>>(&patch);
    let thirds = img.max_pool::<(ROWS, COLS), Pool<3>>();
    let ceiled = img.max_pool::<(ROWS, COLS), Pool<3, 2, 0, true>>();
    let atrous = img.conv::<CH, Conv<1, 2, 2>>(&dilated);
}
