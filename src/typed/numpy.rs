//! NumPy rule at the type level (SPEC §1): the twin of [`dynamic::numpy`](crate::dynamic::numpy).
//! The axes are stored last first, so right alignment is a zip; the shorter side meets
//! inserted singletons.
//!
//! ```
//! use shapecast::{rule::Numpy, shape, BroadcastBy};
//! static_assertions::assert_type_eq_all!(
//!     BroadcastBy<Numpy, shape![5, 1, 4, 1], shape![3, 1, 2]>,
//!     shape![5, 3, 4, 2]
//! );
//! ```

use super::list::Ins;
use super::pair::Pair;

/// Right-aligned pairing of two reversed lists.
pub trait ZipRight<R> {
    /// The output elements, last first.
    type Out;
}

impl ZipRight<()> for () {
    type Out = ();
}

impl<X: Pair<Ins>, Xs: ZipRight<()>> ZipRight<()> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}

impl<Y, Ys> ZipRight<(Y, Ys)> for ()
where
    Ins: Pair<Y>,
    (): ZipRight<Ys>,
{
    type Out = (<Ins as Pair<Y>>::Out, <() as ZipRight<Ys>>::Out);
}

impl<X: Pair<Y>, Xs: ZipRight<Ys>, Y, Ys> ZipRight<(Y, Ys)> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}
