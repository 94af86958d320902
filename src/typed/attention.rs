//! Attention's shape (rule book §17, attention): the twin of `dynamic::attention`. The scores
//! are [`Contract<Q, K, D>`](crate::Contract) (the queries contracted with the keys over the
//! head dimension `D`), the output `Contract<Scores, V, KS>` (the scores contracted with the
//! values over the key axis `KS`).
//!
//! ```
//! use shapecast::{names, shape, Attend};
//! names!(SEQ, KSEQ, KVH, GROUP, HD);
//! static_assertions::assert_type_eq_all!(
//!     Attend<shape![SEQ, KVH: 8, GROUP: 4, HD: 128], shape![KSEQ, KVH: 8, HD: 128], shape![KSEQ, KVH: 8, HD: 128], HD, KSEQ>,
//!     shape![SEQ, KVH: 8, GROUP: 4, HD: 128]
//! );
//! ```

use crate::typed::contract::{Contract, ContractWith};
use crate::typed::shape::Shape;

/// Queries of shape `Self` attend to keys `K` with values `V` over the head dimension `D`
/// and the key axis `KS` (rule book §17, attention): the bound to write in generic code.
/// `Scores` is the queries contracted with the keys over `D`, `Output` the scores
/// contracted with the values over `KS`.
///
/// ```
/// use shapecast::{names, shape, AttendWith, Shape};
/// names!(SEQ, KSEQ, HD);
/// fn rank<Q: AttendWith<K, K, HD, KSEQ>, K: Shape>() -> usize { <Q::Output as Shape>::RANK }
/// assert_eq!(rank::<shape![SEQ, HD: 4], shape![KSEQ, HD: 4]>(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot attend `{Self}` to keys `{K}` with values `{V}` over `{D}` and `{KS}`",
    label = "the queries and keys must contract over `{D}`, and the scores with the values over `{KS}`",
    note = "`{D}` names the head dimension (axes of the queries and the keys, equal in size); `{KS}` names the key axis (an axis of the keys and the values, equal in size)"
)]
pub trait AttendWith<K, V, D, KS>: Shape {
    /// The scores: [`Contract<Self, K, D>`](crate::Contract).
    type Scores: Shape;
    /// The output: [`Contract<Self::Scores, V, KS>`](crate::Contract).
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<Q, K, V, D, KS> AttendWith<K, V, D, KS> for Q
where
    Q: ContractWith<K, D>,
    Contract<Q, K, D>: ContractWith<V, KS>,
{
    type Scores = Contract<Q, K, D>;
    type Output = Contract<Contract<Q, K, D>, V, KS>;
}

/// The shape of an attention: `Contract<Contract<Q, K, D>, V, KS>`.
///
/// ```
/// use shapecast::{names, shape, Attend};
/// names!(SEQ, KSEQ, HD, E);
/// static_assertions::assert_type_eq_all!(
///     Attend<shape![SEQ: 3, HD: 4], shape![KSEQ: 5, HD: 4], shape![KSEQ: 5, E: 2], HD, KSEQ>,
///     shape![SEQ: 3, E: 2]
/// );
/// ```
pub type Attend<Q, K, V, D, KS> = <Q as AttendWith<K, V, D, KS>>::Output;
