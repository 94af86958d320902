//! Reductions at the type level (rule book §16): result types, masks and what is refused.

use shapecast::{names, shape, AcceptsReduce, Pos, Reduce, ReduceKeep, ReduceOver, Shape};
use static_assertions::assert_type_eq_all;

names!(CLASS, N, C, H, W);

assert_type_eq_all!(Reduce<shape![?, CLASS: 10], CLASS>, shape![?]);
assert_type_eq_all!(ReduceKeep<shape![?, CLASS: 10], CLASS>, shape![?, CLASS: 1]);
assert_type_eq_all!(Reduce<shape![N: 2, C: 3, H: 4, W: 5], (H, W)>, shape![N: 2, C: 3]);
assert_type_eq_all!(
    ReduceKeep<shape![N: 2, C: 3, H: 4, W: 5], (H, W)>,
    shape![N: 2, C: 3, H: 1, W: 1]
);
assert_type_eq_all!(Reduce<shape![4, 5], Pos<1>>, shape![4]);
assert_type_eq_all!(ReduceKeep<shape![4, 5], Pos<1>>, shape![4, 1]);
// A tuple mixing a position and names, in any order.
assert_type_eq_all!(Reduce<shape![?, C: 3, H, W], (W, Pos<0>, H)>, shape![C: 3]);
assert_type_eq_all!(ReduceKeep<shape![?, C: 3, H, W], (Pos<0>, H, W)>, shape![1, C: 3, H: 1, W: 1]);
// Everything reduced: the scalar shape.
assert_type_eq_all!(Reduce<shape![H: 2, W: 3], (H, W)>, shape![]);
assert_type_eq_all!(Reduce<shape![7], Pos<0>>, shape![]);
// Rank 8 and 16.
assert_type_eq_all!(
    Reduce<shape![1, 2, 3, 4, 5, 6, 7, 8], (Pos<7>, Pos<0>, Pos<3>)>,
    shape![2, 3, 5, 6, 7]
);
assert_type_eq_all!(
    Reduce<shape![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], Pos<15>>,
    shape![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
);

fn mask<S: ReduceOver<A>, A>() -> Vec<bool> {
    S::MASK[..S::RANK].to_vec()
}

#[test]
fn masks_mark_the_reduced_axes() {
    assert_eq!(mask::<shape![?, CLASS: 10], CLASS>(), [false, true]);
    assert_eq!(
        mask::<shape![N: 2, C: 3, H: 4, W: 5], (W, N)>(),
        [true, false, false, true]
    );
    assert_eq!(mask::<shape![4, 5, 6], Pos<1>>(), [false, true, false]);
    assert_eq!(mask::<shape![4], Pos<0>>(), [true]);
}

#[test]
fn kept_shapes_print_as_numpy_keepdims() {
    assert_eq!(
        <ReduceKeep<shape![?, C: 3, H, W], (H, W)>>::to_dyn().to_string(),
        "[?, C: 3, H: 1, W: 1]"
    );
    assert_eq!(
        <Reduce<shape![?, C: 3, H, W], C>>::to_dyn().to_string(),
        "[?, H, W]"
    );
}

/// Checked while compiling: a wrong verdict fails the build of this test.
#[test]
fn refusals_are_visible_as_constants() {
    // (The compile errors themselves are in ui-tests/.)
    const { assert!(<shape![H: 2, 3] as AcceptsReduce<(H, Pos<1>)>>::VALUE) };
    const {
        assert!(
            !<shape![H: 2, 3] as AcceptsReduce<W>>::VALUE,
            "a missing name"
        )
    };
    const {
        assert!(
            !<shape![H: 2, 3] as AcceptsReduce<Pos<2>>>::VALUE,
            "past the rank"
        )
    };
    const {
        assert!(
            !<shape![H: 2, 3] as AcceptsReduce<(H, H)>>::VALUE,
            "a name twice"
        )
    };
    const {
        assert!(
            !<shape![H: 2, 3] as AcceptsReduce<(Pos<1>, H, Pos<1>)>>::VALUE,
            "a position twice"
        )
    };
    const {
        assert!(
            !<shape![] as AcceptsReduce<Pos<0>>>::VALUE,
            "a scalar has no axis"
        )
    };
}
