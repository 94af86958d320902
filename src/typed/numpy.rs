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

/// Right-aligned pairing of two reversed lists under policy `Pol`.
pub trait ZipRight<R, Pol> {
    /// The output elements, last first.
    type Out;
}

impl<Pol> ZipRight<(), Pol> for () {
    type Out = ();
}

impl<X: Pair<Ins, Pol>, Xs: ZipRight<(), Pol>, Pol> ZipRight<(), Pol> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}

impl<Y, Ys, Pol> ZipRight<(Y, Ys), Pol> for ()
where
    Ins: Pair<Y, Pol>,
    (): ZipRight<Ys, Pol>,
{
    type Out = (<Ins as Pair<Y, Pol>>::Out, <() as ZipRight<Ys, Pol>>::Out);
}

impl<X: Pair<Y, Pol>, Xs: ZipRight<Ys, Pol>, Y, Ys, Pol> ZipRight<(Y, Ys), Pol> for (X, Xs) {
    type Out = (X::Out, Xs::Out);
}
