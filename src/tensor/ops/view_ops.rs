//! The binary operators on views, by the named rule: a view with a view, a tensor or a
//! scalar, each operand by value or by reference (`&a * &b`, `v * &t`, `&t - v`, `v * 2.0`),
//! so that expressions mixing views and tensors read as they do with tensors alone. A view
//! borrows its elements: taking one by value costs a copy of its sizes and strides, never of
//! the elements.

use core::ops;

use crate::engine::walk::Offsets;
use crate::engine::zip_fn::cloned;
use crate::tensor::elements::Scalar;
use crate::tensor::tensor::Tensor;
use crate::tensor::view::TensorView;
use crate::typed::broadcast::{Broadcast, BroadcastWith};
use crate::typed::shape::Shape;
use crate::typed::storage::Storage;
use crate::values::error::OrPanic;

/// `f` of every element of `v`, as a tensor of `v`'s shape.
fn each<T, V, A: Storage<V>>(v: &TensorView<'_, T, A>, f: impl Fn(&T) -> V) -> Tensor<V, A> {
    let data = v.data_slice();
    let out = Offsets::new(v.sizes(), v.strides())
        .map(|o| f(&data[o]))
        .collect();
    Tensor::from_parts(v.sizes(), out)
}

/// One operand pair's impl: the element and shape bounds every pair shares, plus `extra`
/// (a tensor operand's `Storage`), and a body turning `self` and `rhs` into the shared
/// `&view op &view`.
macro_rules! pair_op {
    ($Op:ident, $op:ident, [$($g:tt)*], $Lhs:ty, $Rhs:ty, [$($extra:tt)*], |$l:ident, $r:ident| $body:expr_2021) => {
        impl<$($g)* T, U, A, B> ops::$Op<$Rhs> for $Lhs
        where
            T: Clone + Sync + ops::$Op<U, Output: Send>,
            U: Clone + Sync,
            A: BroadcastWith<B>,
            B: Shape,
            $($extra)*
        {
            type Output = Tensor<<T as ops::$Op<U>>::Output, Broadcast<A, B>>;

            #[track_caller]
            fn $op(self, rhs: $Rhs) -> Self::Output {
                let ($l, $r) = (self, rhs);
                $body
            }
        }
    };
}

/// One binary operator between views, tensors and scalars.
macro_rules! view_op {
    ($Op:ident, $op:ident) => {
        // View with view: the named rule (§2); panics with the rule book §15 message when a
        // `?` size does not fit. Every other pair reads its operands through views and
        // comes here.
        pair_op!($Op, $op, ['a, 'b,], &TensorView<'a, T, A>, &TensorView<'b, U, B>, [], |l, r| {
            l.try_zip_with(r, cloned(<T as ops::$Op<U>>::$op)).or_panic()
        });
        pair_op!($Op, $op, ['a, 'b,], TensorView<'a, T, A>, TensorView<'b, U, B>, [], |l, r| (&l).$op(&r));
        pair_op!($Op, $op, ['a, 'b,], TensorView<'a, T, A>, &TensorView<'b, U, B>, [], |l, r| (&l).$op(r));
        pair_op!($Op, $op, ['a, 'b,], &TensorView<'a, T, A>, TensorView<'b, U, B>, [], |l, r| l.$op(&r));
        // View with tensor, by reference or owned.
        pair_op!($Op, $op, ['a, 'b,], TensorView<'a, T, A>, &'b Tensor<U, B>, [B: Storage<U>,], |l, r| (&l).$op(&r.view()));
        pair_op!($Op, $op, ['a, 'b,], &TensorView<'a, T, A>, &'b Tensor<U, B>, [B: Storage<U>,], |l, r| l.$op(&r.view()));
        pair_op!($Op, $op, ['a,], TensorView<'a, T, A>, Tensor<U, B>, [B: Storage<U>,], |l, r| (&l).$op(&r.view()));
        pair_op!($Op, $op, ['a,], &TensorView<'a, T, A>, Tensor<U, B>, [B: Storage<U>,], |l, r| l.$op(&r.view()));
        // Tensor, by reference or owned, with view.
        pair_op!($Op, $op, ['a, 'b,], &'a Tensor<T, A>, TensorView<'b, U, B>, [A: Storage<T>,], |l, r| (&l.view()).$op(&r));
        pair_op!($Op, $op, ['a, 'b,], &'a Tensor<T, A>, &TensorView<'b, U, B>, [A: Storage<T>,], |l, r| (&l.view()).$op(r));
        pair_op!($Op, $op, ['b,], Tensor<T, A>, TensorView<'b, U, B>, [A: Storage<T>,], |l, r| (&l.view()).$op(&r));
        pair_op!($Op, $op, ['b,], Tensor<T, A>, &TensorView<'b, U, B>, [A: Storage<T>,], |l, r| (&l.view()).$op(r));

        /// View with a scalar: every element with it.
        impl<'a, T, A> ops::$Op<T> for TensorView<'a, T, A>
        where
            T: Scalar + Copy + ops::$Op<T>,
            A: Shape + Storage<<T as ops::$Op<T>>::Output>,
        {
            type Output = Tensor<<T as ops::$Op<T>>::Output, A>;

            fn $op(self, rhs: T) -> Self::Output {
                (&self).$op(rhs)
            }
        }

        impl<'a, T, A> ops::$Op<T> for &TensorView<'a, T, A>
        where
            T: Scalar + Copy + ops::$Op<T>,
            A: Shape + Storage<<T as ops::$Op<T>>::Output>,
        {
            type Output = Tensor<<T as ops::$Op<T>>::Output, A>;

            fn $op(self, rhs: T) -> Self::Output {
                each(self, |&x| ops::$Op::$op(x, rhs))
            }
        }
    };
}

view_op!(Add, add);
view_op!(Sub, sub);
view_op!(Mul, mul);
view_op!(Div, div);
view_op!(Rem, rem);
view_op!(BitAnd, bitand);
view_op!(BitOr, bitor);
view_op!(BitXor, bitxor);

/// A scalar on the left of a view, for each primitive number.
macro_rules! scalar_view_op {
    ($($t:ty),*) => {$(
        scalar_view_op!(@one $t, Add, add);
        scalar_view_op!(@one $t, Sub, sub);
        scalar_view_op!(@one $t, Mul, mul);
        scalar_view_op!(@one $t, Div, div);
    )*};
    (@one $t:ty, $Op:ident, $op:ident) => {
        impl<'a, A: Shape + Storage<$t>> ops::$Op<TensorView<'a, $t, A>> for $t {
            type Output = Tensor<$t, A>;

            fn $op(self, rhs: TensorView<'a, $t, A>) -> Self::Output {
                each(&rhs, |&x| ops::$Op::$op(self, x))
            }
        }

        impl<'a, A: Shape + Storage<$t>> ops::$Op<&TensorView<'a, $t, A>> for $t {
            type Output = Tensor<$t, A>;

            fn $op(self, rhs: &TensorView<'a, $t, A>) -> Self::Output {
                each(rhs, |&x| ops::$Op::$op(self, x))
            }
        }
    };
}

scalar_view_op!(f32, f64, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

#[cfg(test)]
mod tests {
    use crate::{names, shape, Reductions, Tensor};

    names!(H, W);

    #[test]
    #[allow(clippy::op_ref)] // every form a user may write, references included
    fn every_combination_of_views_tensors_and_scalars_agrees() {
        let a = Tensor::<f32, shape![H: 2, W: 3]>::from_fn(&[2, 3], |i| (i[0] * 3 + i[1]) as f32)
            .unwrap();
        let b = Tensor::<f32, shape![W: 3]>::from_array([1.0, 2.0, 4.0]);
        let want = &a * &b;
        let (va, vb) = (a.view(), b.view());
        assert_eq!(&va * &vb, want);
        assert_eq!(va * &vb, want);
        assert_eq!(&va * vb, want);
        assert_eq!(va * vb, want);
        assert_eq!(va * &b, want);
        assert_eq!(&va * &b, want);
        assert_eq!(&a * vb, want);
        assert_eq!(&a * &vb, want);
        assert_eq!(a.clone() * vb, want);
        assert_eq!(a.clone() * &vb, want);
        assert_eq!(va * b.clone(), want);
        assert_eq!(&va * b.clone(), want);
        assert_eq!(&va * 2.0, &a * 2.0);
        assert_eq!(va - 1.0, &a - 1.0);
        assert_eq!(10.0 - &va, 10.0 - &a);
        assert_eq!(2.0 * va, &a * 2.0);
        // A view copies: still usable after every use above.
        assert_eq!(va.sizes(), &[2, 3]);
    }

    #[test]
    fn math_and_reductions_on_strided_views_match_the_tensor() {
        use crate::FloatMath;
        let a = Tensor::<f32, shape![H: 2, W: 3]>::from_fn(&[2, 3], |i| (i[0] * 3 + i[1]) as f32)
            .unwrap();
        let t = a.view().align_to::<shape![W: 3, H: 2]>().unwrap();
        let want = t.to_tensor();
        assert_eq!(t.exp(), (&want).exp());
        assert_eq!((&t).tanh(), (&want).tanh());
        assert_eq!(t.sum::<H>(), want.sum::<H>());
        assert_eq!(t.softmax::<W>(), want.softmax::<W>());
    }
}
