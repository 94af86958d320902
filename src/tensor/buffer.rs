//! The two buffers a tensor's elements live in ([`Buffer`]): a `Vec` on the heap, and an
//! array `[T; N]` inline, filled by the kernels without first writing a placeholder
//! (`raw::init_inline`). Which one a shape gets is worked out at the type level
//! (`typed::storage`).

use crate::alloc_prelude::*;
use crate::engine::sink::Runs;
use crate::typed::storage::Buffer;

impl<T> Buffer<T> for Vec<T> {
    fn as_slice(&self) -> &[T] {
        self
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
    fn from_vec(data: Vec<T>) -> Result<Self, Vec<T>> {
        Ok(data)
    }
    fn into_vec(self) -> Vec<T> {
        self
    }
    fn from_runs<R: Runs<T>>(total: usize, runs: R) -> Self {
        let mut v = Vec::with_capacity(total);
        crate::engine::raw::advise_huge_pages(&v);
        runs.write_to(&mut v);
        v
    }
    fn clone_buf(&self) -> Self
    where
        T: Clone,
    {
        self.clone()
    }
    fn write_with<E>(&mut self, fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<(), E> {
        // `fill` validates before clearing, so on failure `self` still holds its elements.
        fill(self)
    }
}

impl<T, const N: usize> Buffer<T> for [T; N] {
    fn as_slice(&self) -> &[T] {
        self
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
    fn from_vec(data: Vec<T>) -> Result<Self, Vec<T>> {
        data.try_into()
    }
    fn into_vec(self) -> Vec<T> {
        self.into()
    }
    #[inline(always)]
    fn from_runs<R: Runs<T>>(_total: usize, runs: R) -> Self {
        crate::engine::raw::init_inline(|sink| runs.write_to(sink))
    }
    fn clone_buf(&self) -> Self
    where
        T: Clone,
    {
        self.clone()
    }
    fn write_with<E>(&mut self, fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<(), E> {
        let mut data = Vec::with_capacity(N);
        fill(&mut data)?;
        match Self::from_vec(data) {
            Ok(filled) => *self = filled,
            // `fill` writes the tensor's element count, which for an inline buffer is `N`.
            Err(_) => unreachable!("an inline buffer's element count is static"),
        }
        Ok(())
    }
}
