//! What the standard prelude would bring, from `alloc` (the crate is `no_std`): every module
//! starts with `use crate::alloc_prelude::*;`.

pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::format;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec;
pub(crate) use alloc::vec::Vec;
