//! Code written by `scripts/generate.py` (each file says so in its first line; `.ci/run`
//! regenerates them and fails if they differ): the tuples' [`Shape`](crate::Shape) impls for
//! every rank up to 16 (`tuples`), the size table (`sizes`), the hex digits of names' hashes
//! (`digits`) and of sizes (`size_hex`) with their equality, sums
//! (`hex_sum`), differences and divisions (`hex_window`), and inline element counts
//! (`counts`). The type level re-exports the modules under its own path (`typed::sizes` …).

pub mod any;
pub mod counts;
pub mod digits;
pub mod hex_sum;
pub mod hex_window;
pub mod search;
pub mod size_hex;
pub mod sizes;
mod tuples;
pub mod walks;
