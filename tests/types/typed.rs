//! Positive compile-time tests of the type level (`static_assertions`), and the run-time
//! facts the types carry.

use shapecast::rule::{Named, Numpy};
use shapecast::{names, shape, Broadcast, BroadcastBy, BroadcastWith, Dyn, Shape, S};
use static_assertions::{assert_impl_all, assert_not_impl_any, assert_type_eq_all};

names!(CHANNEL, CLASS, SCALE1, SCALE2, SCALE3, H, W, N, C);
// Names that could collide with the macro's own generic parameters.
names!(T, Size, Resize);

mod elsewhere {
    // The same name declared in another module is the same axis name.
    shapecast::names!(pub(crate) H);
}

#[test]
fn seed_cases_compile_to_canonical_shapes() {
    assert_type_eq_all!(
        Broadcast<shape![10, CHANNEL: 3, H: 256, W: 384], shape![10, H: 256, W: 384]>,
        shape![10, CHANNEL: 3, H: 256, W: 384]
    );
    assert_type_eq_all!(
        Broadcast<shape![20, H: 512, W: 512], shape![20, CLASS: 3, H: 512, W: 512]>,
        shape![20, CLASS: 3, H: 512, W: 512]
    );
    assert_type_eq_all!(
        Broadcast<shape![20, H: 512, W: 512], shape![20, SCALE1: 1, SCALE2: 17, SCALE3: 15, H: 512, W: 512]>,
        shape![20, SCALE1: 1, SCALE2: 17, SCALE3: 15, H: 512, W: 512]
    );
    assert_type_eq_all!(Broadcast<shape![H: 2, W: 3], shape![W: 3, H: 2]>, shape![H: 2, W: 3]);
    assert_type_eq_all!(Broadcast<shape![3, 4], shape![W: 4]>, shape![3, W: 4]);
    assert_type_eq_all!(Broadcast<shape![?, CHANNEL: 3, H, W], shape![?, H, W]>, shape![?, CHANNEL: 3, H, W]);
}

#[test]
fn run_time_sizes_follow_spec_14() {
    // static n with ?: n; static 1 with ?: ?; ? with ?: ?.
    assert_type_eq_all!(BroadcastBy<Numpy, shape![3, 1, ?], shape![?, ?, ?]>, (S<3>, Dyn, Dyn));
    type B = <shape![3, 1, ?] as BroadcastWith<shape![?, ?, ?]>>::Output;
    assert_type_eq_all!(B, shape![3, ?, ?]);
    let checks = <shape![3, 1, ?] as BroadcastWith<shape![?, ?, ?]>>::checks();
    assert_eq!(
        checks.iter().map(|c| c.axis).collect::<Vec<_>>(),
        vec![0, 2]
    );
}

#[test]
fn names_compare_as_strings() {
    assert_type_eq_all!(
        Broadcast<shape![H: 2, W: 3], (S<3>, elsewhere::H<S<2>>)>,
        shape![H: 2, W: 3]
    );
    assert_type_eq_all!(Broadcast<shape![T: 2, Size: 4, 3], shape![Resize: 3]>, shape![T: 2, Size: 4, Resize: 3]);
}

#[test]
fn sizes_beyond_typenums_table_work() {
    assert_type_eq_all!(BroadcastBy<Numpy, shape![3072, 1], shape![50257]>, shape![3072, 50257]);
    assert_eq!(
        <shape![3072, 50257] as Shape>::SIZES,
        &[Some(3072), Some(50257)]
    );
}

#[test]
fn shapes_are_zero_sized_and_carry_their_facts() {
    assert_eq!(
        core::mem::size_of::<shape![10, CHANNEL: 3, H: 256, W: 384]>(),
        0
    );
    assert_eq!(
        core::mem::size_of::<Broadcast<shape![?, H], shape![?, ?, H]>>(),
        0
    );
    type Img = shape![?, CHANNEL: 3, H, W];
    assert_eq!(Img::to_dyn().to_string(), "[?, CHANNEL: 3, H, W]");
    assert_eq!(<Img as Shape>::RANK, 4);
}

#[test]
fn rank_sixteen_needs_no_recursion_limit_in_user_code() {
    // This file sets no `#![recursion_limit]`.
    type A = shape![2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9];
    type B = shape![1, 4, 1, 6, 1, 8, 1, 2, 1, 4, 1, 6, 1, 8, 1];
    assert_type_eq_all!(BroadcastBy<Numpy, A, B>, A);
    assert_type_eq_all!(BroadcastBy<Named, A, B>, A);
}

assert_impl_all!(shape![3, 4]: BroadcastWith<shape![4]>, BroadcastWith<shape![]>);
assert_not_impl_any!(shape![3, 4]: BroadcastWith<shape![5]>);
assert_not_impl_any!(shape![H: 2]: BroadcastWith<shape![W: 2]>);

/// Concatenation adds static sizes and merging multiplies them when the new axis is written
/// without a size, as the run-time engine does; a `?` among them, or a result beyond the size
/// table (`SIZE_TABLE_MAX`, 2048), leaves `?` (rule book §18).
#[test]
fn concat_and_merge_compute_static_sizes() {
    use shapecast::{Concat, MergeAxes, Pos, Unnamed};
    names!(HW);
    assert_type_eq_all!(Concat<W, shape![H: 2, W: 3], shape![H: 2, W: 4]>, shape![H: 2, W: 7]);
    assert_type_eq_all!(
        Concat<Pos<1>, shape![H: 2, W: 3], shape![W: 4, H: 2]>,
        shape![H: 2, W: 7]
    );
    assert_type_eq_all!(Concat<W, shape![H: 2, W: 3], shape![H: 2, W]>, shape![H: 2, W]);
    assert_type_eq_all!(
        Concat<W<S<7>>, shape![H: 2, W: 3], shape![H: 2, W: 4]>,
        shape![H: 2, W: 7]
    );
    assert_type_eq_all!(Concat<Pos<0>, shape![3, 5], shape![4, 5]>, shape![7, 5]);
    assert_type_eq_all!(
        Concat<Pos<0>, shape![2000, 5], shape![48, 5]>,
        shape![2048, 5]
    );
    assert_type_eq_all!(Concat<Pos<0>, shape![2000, 5], shape![49, 5]>, shape![?, 5]);
    assert_type_eq_all!(Concat<Pos<0>, shape![0, 5], shape![0, 5]>, shape![0, 5]);
    assert_type_eq_all!(MergeAxes<shape![?, H: 4, W: 5], (H, W), HW>, shape![?, HW: 20]);
    assert_type_eq_all!(MergeAxes<shape![?, H: 4, W: 5], (H, W), Unnamed>, shape![?, 20]);
    assert_type_eq_all!(MergeAxes<shape![?, H: 4, W], (H, W), HW>, shape![?, HW]);
    assert_type_eq_all!(MergeAxes<shape![?, H: 32, W: 64], (H, W), HW>, shape![?, HW: 2048]);
    assert_type_eq_all!(MergeAxes<shape![?, H: 64, W: 64], (H, W), HW>, shape![?, HW]);
    assert_type_eq_all!(MergeAxes<shape![2, 3, 4], (Pos<0>, Pos<1>, Pos<2>), HW>, shape![HW: 24]);
    assert_type_eq_all!(MergeAxes<shape![H: 0, W: 9], (H, W), HW>, shape![HW: 0]);
    // What the run-time engine gives for the same operations.
    let shape = |s: &str| s.parse::<shapecast::DynShape>().unwrap();
    let concat = shapecast::dynamic::surgery::concat(
        &"W".parse().unwrap(),
        &[shape("[H: 2, W: 3]"), shape("[H: 2, W: 4]")],
    );
    assert_eq!(concat.unwrap().to_string(), "[H: 2, W: 7]");
    let merged = shapecast::dynamic::surgery::merge_axes(
        &shape("[?, H: 4, W: 5]"),
        &["H".parse().unwrap(), "W".parse().unwrap()],
        Some(&"HW".parse().unwrap()),
    );
    assert_eq!(merged.unwrap().to_string(), "[?, HW: 20]");
}

/// `Padded` by a `(before, after)` pair: the axis grows by their sum on the hex digits, `?`
/// stays `?` and a sum past the size table is `?`; `Pad<P>` is `Pad<P, P>`.
mod padding {
    use super::{C, H, N, T, W};
    use shapecast::{shape, Pad, Padded};
    use static_assertions::assert_type_eq_all;

    assert_type_eq_all!(Padded<shape![N, T: 9], T, Pad<2, 0>>, shape![N, T: 11]);
    assert_type_eq_all!(Padded<shape![N, T: 9], T, Pad<0, 2>>, shape![N, T: 11]);
    assert_type_eq_all!(Padded<shape![N, T], T, Pad<3, 1>>, shape![N, T]);
    assert_type_eq_all!(Padded<shape![N, T: 9], T, Pad<0, 0>>, shape![N, T: 9]);
    assert_type_eq_all!(Padded<shape![T: 9], T, Pad<2>>, Padded<shape![T: 9], T, Pad<2, 2>>);
    // TensorFlow's "same" padding of a 3-wide stride-2 window on 224: one after.
    assert_type_eq_all!(
        Padded<shape![N, C: 3, H: 224, W: 224], (H, W), Pad<0, 1>>,
        shape![N, C: 3, H: 225, W: 225]
    );
    // Carries across hex digits, and the edge of the size table.
    assert_type_eq_all!(Padded<shape![T: 255], T, Pad<1, 16>>, shape![T: 272]);
    assert_type_eq_all!(Padded<shape![T: 2047], T, Pad<1, 0>>, shape![T: 2048]);
    assert_type_eq_all!(Padded<shape![T: 2048], T, Pad<0, 1>>, shape![T]);
}

mod upsampling {
    use super::{C, H, N, T, W};
    use shapecast::{shape, Scale, Upsampled, S};
    use static_assertions::assert_type_eq_all;

    /// `Upsampled<[T: n], T, Scale<f>>` is `[T: n·f]`, the product written by the compiler's
    /// constant evaluation (the size table's `S<N>`), on a grid of sizes and factors.
    macro_rules! times {
        ($($n:literal),* ; $f:literal) => {$(
            assert_type_eq_all!(Upsampled<(T<S<$n>>,), T, Scale<$f>>, (T<S<{ $n * $f }>>,));
        )*};
    }
    times!(0, 1, 2, 3, 7, 15, 16, 17, 127, 255, 256, 511, 1023, 2048; 1);
    times!(0, 1, 2, 3, 7, 8, 15, 16, 17, 56, 127, 128, 255, 256, 511, 1000, 1023, 1024; 2);
    times!(1, 2, 3, 5, 7, 15, 16, 17, 75, 85, 111, 255, 341, 682; 3);
    times!(1, 2, 3, 7, 15, 16, 56, 63, 64, 96, 127, 255, 256, 511, 512; 4);
    times!(1, 3, 13, 31, 51, 204, 409; 5);
    times!(1, 7, 15, 16, 28, 85, 255, 341; 6);
    times!(1, 7, 28, 56, 127, 128, 255, 256; 8);
    times!(1, 9, 17, 63, 64, 99, 127, 128; 16);
    times!(1, 2, 3, 31, 32, 33, 63; 31);
    times!(1, 2, 3, 7, 8; 255);

    // Past the size table the size is `?`; `?` stays `?`; other axes are kept.
    assert_type_eq_all!(Upsampled<shape![T: 1025], T, Scale<2>>, shape![T]);
    assert_type_eq_all!(Upsampled<shape![T: 683], T, Scale<3>>, shape![T]);
    assert_type_eq_all!(Upsampled<shape![T: 2048], T, Scale<1000>>, shape![T]);
    assert_type_eq_all!(Upsampled<shape![N, T], T, Scale<2>>, shape![N, T]);
    // A segmentation head at stride 8 on the seed's 256 x 384 images, selected by name in
    // either order.
    assert_type_eq_all!(
        Upsampled<shape![N, C: 3, H: 32, W: 48], (W, H), Scale<8>>,
        shape![N, C: 3, H: 256, W: 384]
    );
}
