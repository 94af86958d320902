//! The PyTorch rule (seed "Broadcasting", PyTorch, in Italian): NumPy's right alignment with
//! the seed's examples.
//!
//! Run: `cargo run --example pytorch`

use shapecast::rule::Numpy;
use shapecast::{broadcast, shape, Accepts, Broadcast, DynShape, Rule, Tensor};

fn main() -> Result<(), shapecast::Error> {
    // a.shape = [4, 3], b.shape = [1, 3]: c = a + b has shape [4, 3].
    let a = Tensor::<f32, shape![4, 3]>::from_fn(&[4, 3], |i| i[0] as f32)?;
    let b = Tensor::<f32, shape![1, 3]>::from_array([[10.0, 20.0, 30.0]]);
    let c = &a + &b;
    assert_eq!(c.sizes(), &[4, 3]);
    assert_eq!(*c.at(&[3, 2])?, 33.0);

    // x (5, 3, 4, 1) and y (3, 1, 1) are broadcastable.
    static_assertions::assert_type_eq_all!(Broadcast<shape![5, 3, 4, 1], shape![3, 1, 1]>, shape![5, 3, 4, 1]);
    // x (5, 2, 4, 1) and y (3, 1, 1) are not: 2 != 3 at the third trailing axis.
    const { assert!(!<shape![5, 2, 4, 1] as Accepts<Numpy, shape![3, 1, 1]>>::VALUE) };
    let x: DynShape = "[5, 2, 4, 1]".parse()?;
    println!(
        "{}",
        broadcast(Rule::Numpy, &x, &"[3, 1, 1]".parse()?).unwrap_err()
    );
    // x (5, 1, 4, 1) + y (3, 1, 2) = s (5, 3, 4, 2): y is prepended a 1.
    static_assertions::assert_type_eq_all!(Broadcast<shape![5, 1, 4, 1], shape![3, 1, 2]>, shape![5, 3, 4, 2]);
    let r = broadcast(Rule::Numpy, &"[5, 1, 4, 1]".parse()?, &"[3, 1, 2]".parse()?)?;
    println!("[5, 1, 4, 1] + [3, 1, 2] = {} (plan {})", r.shape, r.plan);

    // torch.ones(0) has shape [0] (rank 1, not 0); with [3, 4] it does not broadcast
    // because 0 faces 4. (The seed says "rank 0"; the refusal is by size.)
    const { assert!(!<shape![0] as Accepts<Numpy, shape![3, 4]>>::VALUE) };
    println!(
        "{}",
        broadcast(Rule::Numpy, &"[0]".parse()?, &"[3, 4]".parse()?).unwrap_err()
    );
    Ok(())
}
