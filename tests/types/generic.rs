//! Generic code over shapes needs only the public bounds: `S: Shape` to take and return a
//! tensor, `A: BroadcastWith<B>` for the operators between two of them.

use shapecast::{names, shape, Broadcast, BroadcastWith, Shape, Tensor};

names!(CLASS, H, W);

fn centre<A, B: Shape>(x: &Tensor<f32, A>, m: &Tensor<f32, B>) -> Tensor<f32, Broadcast<A, B>>
where
    A: BroadcastWith<B>,
{
    x - m
}

fn total<S: Shape>(t: &Tensor<f32, S>) -> f32 {
    t.iter().sum()
}

fn twice<S: Shape>(t: Tensor<f32, S>) -> Tensor<f32, S> {
    t * 2.0
}

fn copy<S: Shape>(t: &Tensor<f32, S>) -> Tensor<f32, S> {
    t.clone()
}

#[test]
fn generic_functions_need_only_shape_and_broadcast_with() {
    let x = Tensor::<f32, shape![CLASS: 2, H: 2]>::from_vec(vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    let m = Tensor::<f32, shape![H: 2]>::from_vec(vec![1.0, 1.0]).unwrap();
    let c = centre(&x, &m);
    assert_eq!(c.data(), &[0.0, 1.0, 2.0, 3.0]);
    assert_eq!(total(&c), 6.0);
    assert_eq!(twice(copy(&c)).data(), &[0.0, 2.0, 4.0, 6.0]);
}

mod more {
    use shapecast::{
        names, shape, Broadcast, BroadcastWith, Contract, ContractWith, Dot, OneAxis, Reduce,
        ReduceKeep, ReduceNonEmpty, ReduceOver, Reductions, Select, SelectAxis, Selector, Shape,
        Tensor,
    };
    names!(CLASS, N, K, M);

    fn mean_over<S: ReduceOver<A>, A>(t: &Tensor<f32, S>) -> Tensor<f32, Reduce<S, A>> {
        t.mean::<A>()
    }

    fn centred<S, A>(t: &Tensor<f32, S>) -> Tensor<f32, Broadcast<S, ReduceKeep<S, A>>>
    where
        S: ReduceOver<A> + BroadcastWith<ReduceKeep<S, A>>,
    {
        t - &t.mean_keep::<A>()
    }

    fn probabilities<S: ReduceOver<A>, A>(t: &Tensor<f32, S>) -> Tensor<f32, S> {
        t.softmax::<A>()
    }

    fn largest<S: ReduceNonEmpty<A>, A>(t: &Tensor<f32, S>) -> Tensor<f32, Reduce<S, A>> {
        t.max::<A>()
    }

    fn first<S: SelectAxis<A>, A: OneAxis>(t: &Tensor<f32, S>) -> Tensor<f32, Select<S, A>> {
        t.select::<A>(0).unwrap().to_tensor()
    }

    fn product<A: ContractWith<B, X>, B: Shape, X: Selector>(
        a: &Tensor<f32, A>,
        b: &Tensor<f32, B>,
    ) -> Tensor<f32, Contract<A, B, X>> {
        a.dot::<X>(b)
    }

    #[test]
    fn reductions_contractions_and_surgery_in_generic_code() {
        let t = Tensor::<f32, shape![N: 2, CLASS: 2]>::from_array([[1.0, 3.0], [2.0, 6.0]]);
        assert_eq!(mean_over::<_, CLASS>(&t).data(), &[2.0, 4.0]);
        assert_eq!(centred::<_, CLASS>(&t).data(), &[-1.0, 1.0, -2.0, 2.0]);
        assert_eq!(largest::<_, CLASS>(&t).data(), &[3.0, 6.0]);
        assert!((probabilities::<_, CLASS>(&t).iter().sum::<f32>() - 2.0).abs() < 1e-6);
        assert_eq!(first::<_, N>(&t).data(), &[1.0, 3.0]);
        let b = Tensor::<f32, shape![CLASS: 2, M: 1]>::from_array([[1.0], [1.0]]);
        assert_eq!(product::<_, _, CLASS>(&t, &b).data(), &[4.0, 8.0]);
    }
}
