//! The run-time tests: operations on data against NumPy, PyTorch or a naive reference, one
//! module per area (`cargo test --test suite tensors::` runs one of them).
//!
//! They are one test binary rather than one per file: each binary links the whole library
//! and its dependencies again, and one per file cost 43 links and 2 GB of disk. Tests that
//! need a process of their own stay apart: `tests/allocations.rs` (a counting global
//! allocator), `tests/bad_input.rs` (also run without overflow checks), `tests/cli.rs` (the
//! command) and `tests/ui.rs` (the compile errors).

#[path = "../common/mod.rs"]
mod common;
mod index;

mod blocks;
mod cases;
mod contractions;
mod conv;
mod gather;
mod half;
mod half_math;
mod half_products;
mod idioms;
mod io;
mod laws;
mod math;
mod messages;
mod mistakes;
mod ndarray;
mod numpy;
mod parts;
mod reductions;
mod sample;
mod scan;
mod step;
mod surgery;
mod tensors;
mod threads;
mod topk;
mod train;
mod train_blocks;
mod train_random;
mod train_tape;
mod upsample;
mod vmath;
mod windows;
