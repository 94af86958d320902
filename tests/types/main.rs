//! The type level: result types as `static_assertions`, and generated cases holding each
//! type-level rule to the run-time engine (the `*_agreement` modules and `numpy_typed`, each
//! written by its script in `scripts/`), one module per area.
//!
//! One test binary rather than one per file, as `tests/suite` is: each binary links the
//! whole library again.

mod const_sizes;
mod contract_agreement;
mod contract_types;
mod generic;
mod numpy_typed;
mod reduce_agreement;
mod reduce_types;
mod surgery_agreement;
mod typed;
mod typed_agreement;
mod window_types;
