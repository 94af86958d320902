//! Where a kernel's output goes, run by run: [`Sink`] (a slice of existing elements, a `Vec`,
//! or the uninitialised inline buffer of a new tensor, in `raw`) and [`Runs`] (a kernel call
//! that writes its output in row-major order). A tensor's buffer
//! ([`Buffer::from_runs`](crate::Buffer)) is filled through them, so the type level names the
//! interface and calls no kernel.

use crate::alloc_prelude::*;

/// Where a kernel writes its runs: into a slice of existing elements, onto a `Vec`, or into
/// the uninitialised inline buffer of a new tensor. A hidden method of
/// [`Buffer`](crate::Buffer) names it.
#[doc(hidden)]
pub trait Sink<O> {
    /// Writes the `n` values of `run` starting at output element `at`.
    fn put(&mut self, at: usize, n: usize, run: impl Iterator<Item = O>);
}

/// The output elements of a kernel call, written run by run in row-major order into whatever
/// sink the output's buffer provides.
#[doc(hidden)]
pub trait Runs<O> {
    /// Writes every output element into `sink`, in order.
    fn write_to<K: Sink<O> + ?Sized>(self, sink: &mut K);
}

impl<O> Sink<O> for [O] {
    #[inline(always)]
    fn put(&mut self, at: usize, n: usize, run: impl Iterator<Item = O>) {
        for (o, v) in self[at..at + n].iter_mut().zip(run) {
            *o = v;
        }
    }
}

impl<O> Sink<O> for Vec<O> {
    #[inline(always)]
    fn put(&mut self, _: usize, _: usize, run: impl Iterator<Item = O>) {
        self.extend(run);
    }
}
