//! The guide: what the README does not say, a page a subject, each page's examples run as
//! doctests. Start with [`tensors`](crate::guide::tensors); [`shapes`](crate::guide::shapes) explains the notation and the compile
//! errors, [`generic`](crate::guide::generic) the bounds generic code writes.
//!
//! | page | what it covers |
//! |---|---|
//! | [`shapes`](crate::guide::shapes) | shapes as values and as types, `shape!`, rule markers, compile errors, the size table |
//! | [`tensors`](crate::guide::tensors) | tensors and views, operators, errors and `try_`, the first errors a program meets |
//! | [`reductions`](crate::guide::reductions) | reductions by name, `keep`, softmax, variance |
//! | [`contractions`](crate::guide::contractions) | `dot` by name, `matmul` |
//! | [`images`](crate::guide::images) | convolution, pooling, padding, upsampling and resizing, gathering, losses |
//! | [`surgery`](crate::guide::surgery) | rename, select, slice, split, merge, concat, stack |
//! | [`generic`](crate::guide::generic) | generic code over shapes: the bound of every operation |
//! | [`training`](crate::guide::training) | gradients, parameters, optimizers, what the types catch |
//! | [`weights`](crate::guide::weights) | `.safetensors` and `.npy` files, untrusted input |
//! | [`mistakes`](crate::guide::mistakes) | what the types catch, and what they cannot |
//! | [`editor`](crate::guide::editor) | shapes in rust-analyzer, and its limits |
//! | [`performance`](crate::guide::performance) | measured speed against PyTorch and ndarray, threads, ndarray interop, `no_std` |
//! | [`cli`](crate::guide::cli) | the `shapecast` command and its JSON |
//! | [`testing`](crate::guide::testing) | the test suite, ui-tests, fuzzing, valgrind |
//!
//! The rule book is [`rules`](crate::rules).

#[doc = include_str!("../docs/guide/shapes.md")]
pub mod shapes {}

#[doc = include_str!("../docs/guide/tensors.md")]
pub mod tensors {}

#[doc = include_str!("../docs/guide/reductions.md")]
pub mod reductions {}

#[doc = include_str!("../docs/guide/contractions.md")]
pub mod contractions {}

#[doc = include_str!("../docs/guide/images.md")]
pub mod images {}

#[doc = include_str!("../docs/guide/surgery.md")]
pub mod surgery {}

#[doc = include_str!("../docs/guide/generic.md")]
pub mod generic {}

#[doc = include_str!("../docs/guide/training.md")]
pub mod training {}

#[doc = include_str!("../docs/guide/weights.md")]
pub mod weights {}

#[doc = include_str!("../docs/guide/mistakes.md")]
pub mod mistakes {}

#[doc = include_str!("../docs/guide/editor.md")]
pub mod editor {}

#[doc = include_str!("../docs/guide/performance.md")]
pub mod performance {}

#[doc = include_str!("../docs/guide/cli.md")]
pub mod cli {}

#[doc = include_str!("../docs/guide/testing.md")]
pub mod testing {}
