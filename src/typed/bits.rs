//! Type-level booleans: typenum's `B0`/`B1`, with `If`, `Not` and `Or` as generic associated
//! types, so rules can choose between types without extra bounds.

pub use typenum::{B0, B1};

/// A type-level boolean: `<B1 as Cond>::If<T, E> = T`, `<B0 as Cond>::If<T, E> = E`.
pub trait Cond {
    /// `T` when true, `E` when false.
    type If<T, E>;
    /// The negation.
    type Not: Cond;
    /// `Self or B`.
    type Or<B: Cond>: Cond;
    /// `Self and B`.
    type And<B: Cond>: Cond;
    /// Whether `Self` equals `B`.
    type Is<B: Cond>: Cond;
    /// The list `R` with `X` in front when true, `R` when false (a filter's step).
    type Keep<X, R>;
    /// The value.
    const VALUE: bool;
}

impl Cond for B1 {
    type If<T, E> = T;
    type Not = B0;
    type Or<B: Cond> = B1;
    type And<B: Cond> = B;
    type Is<B: Cond> = B;
    type Keep<X, R> = (X, R);
    const VALUE: bool = true;
}

impl Cond for B0 {
    type If<T, E> = E;
    type Not = B1;
    type Or<B: Cond> = B;
    type And<B: Cond> = B0;
    type Is<B: Cond> = B::Not;
    type Keep<X, R> = R;
    const VALUE: bool = false;
}

/// `A or B`.
pub type Or<A, B> = <A as Cond>::Or<B>;

/// `not A`.
pub type Not<A> = <A as Cond>::Not;

/// `A and B`.
pub type And<A, B> = <A as Cond>::And<B>;
