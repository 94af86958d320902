//! TML's broadcasting (seed "Broadcasting", TML): comparisons, arithmetic, assignment,
//! index-access broadcasting, narrowcasting and nested tensors, with the seed's values.
//!
//! Run: `cargo run --example tml`

use shapecast::{rule::Numpy, shape, Accepts, Tensor};

fn main() -> Result<(), shapecast::Error> {
    // Comparisons: a scalar against a tensor, or equal shapes; never stretching.
    let a = Tensor::<i32, shape![]>::from_array(1);
    let b = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    let c = Tensor::<i32, shape![3, 3]>::from_array([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
    assert_eq!(a.gt(&b)?.data(), &[false; 3]); // 1 > [1, 2, 3]
    assert_eq!(a.gt(&c)?.data(), &[false; 9]); // 1 > c
    let bb = Tensor::<i32, shape![3]>::from_array([4, 5, -1]);
    let d = Tensor::<i32, shape![3, 3]>::from_array([[4, 5, -1], [4, 5, -1], [4, 5, -1]]);
    assert_eq!(b.gt(&bb)?.data(), &[false, false, true]);
    assert_eq!(
        c.gt(&d)?.data(),
        &[false, false, true, false, false, true, false, false, true]
    );
    println!("comparisons: c > d = {:?}", c.gt(&d)?.data());

    // Arithmetic: a row [1, 2, 3] plus a column [1; 2; 3].
    let row = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    let col = Tensor::<i32, shape![3, 1]>::from_array([[1], [2], [3]]);
    let sum = &row + &col;
    assert_eq!(sum.data(), &[2, 3, 4, 3, 4, 5, 4, 5, 6]);
    println!("a + b = {:?}", sum.data());
    // [[1, 2]; [1, 2]] + [[1, 2, 3]; [1, 2, 3]]: not possible (a compile error with `+`).
    const { assert!(!<shape![2, 2] as Accepts<Numpy, shape![2, 3]>>::VALUE) };

    // Assignment: the left side keeps its type.
    let mut a3 = Tensor::<i32, shape![3]>::zeros()?;
    a3.assign(&Tensor::<i32, shape![]>::from_array(1));
    assert_eq!(a3.data(), &[1, 1, 1]);
    let mut b33 = Tensor::<i32, shape![3, 3]>::zeros()?;
    b33.assign(&Tensor::<i32, shape![3]>::from_array([1, 1, 1]));
    assert_eq!(b33.data(), &[1; 9]);
    // `a = [1, 3]` into tensor<int, 3>: not possible.
    const { assert!(!<shape![3] as Accepts<shapecast::rule::Assign, shape![2]>>::VALUE) };
    println!("assignment: b = {:?}", b33.data());

    // Index-access broadcasting: a = [[3, 4]] of type tensor<real, 1, 2>.
    let a12 = Tensor::<f64, shape![1, 2]>::from_array([[3.0, 4.0]]);
    assert_eq!(*a12.at(&[0, 1])?, 4.0);
    assert_eq!(*a12.at(&[999, 1])?, 4.0);
    assert_eq!(*a12.at(&[999, 1, 1000, 2000])?, 4.0);
    assert_eq!(*a12.at(&[999, 0, 1000, 2000])?, 3.0);
    // A scalar ignores every index, for reading and writing.
    let mut s = Tensor::<i32, shape![]>::from_array(42);
    assert_eq!((*s.at(&[])?, *s.at(&[500])?, *s.at(&[4, 5])?), (42, 42, 42));
    *s.at_mut(&[1, 2, 3])? = 3;
    assert_eq!(*s.at(&[])?, 3);
    println!(
        "index-access broadcasting: a[999][1][1000][2000] = {}",
        a12.at(&[999, 1, 1000, 2000])?
    );

    // Narrowcasting.
    let c1 = Tensor::<i32, shape![1]>::from_array([1]);
    let d1: i32 = c1.narrow(); // tensor<int, 1> gives int
    let e = Tensor::<i32, shape![1, 5, 1]>::from_array([[[1], [1], [1], [1], [1]]]);
    let f: Tensor<i32, shape![5]> = e.narrow(); // tensor<int, 1, 5, 1> gives tensor<int, 5>
    let g = Tensor::<i32, shape![5, 5]>::ones()?;
    let h: Tensor<i32, shape![5, 5]> = g.narrow(); // unchanged
                                                   // tensor<tensor<int, 1>, 5, 5>: only the outer level is narrowed.
    let i = Tensor::<Tensor<i32, shape![1]>, shape![5, 5]>::full(Tensor::from_array([1]))?;
    let j: Tensor<Tensor<i32, shape![1]>, shape![5, 5]> = i.narrow();
    assert_eq!(
        (d1, f.sizes(), h.sizes(), j.sizes()),
        (1, &[5][..], &[5, 5][..], &[5, 5][..])
    );
    println!("narrowcasting: tensor<int, 1, 5, 1> -> {:?}", f.sizes());

    // Nested tensors: tensor<tensor<int, 3>, 3, 3> is not 3x3x3; the outer shapes
    // broadcast, then the elements (a scalar element facing a tensor broadcasts into it).
    let nested =
        Tensor::<Tensor<i32, shape![3]>, shape![3, 3]>::full(Tensor::from_array([1, 2, 3]))?;
    let plus = &nested + &Tensor::<i32, shape![3]>::from_array([10, 20, 30]);
    assert_eq!(plus.at(&[2, 1])?.data(), &[21, 22, 23]);
    println!("nested: element [2, 1] = {:?}", plus.at(&[2, 1])?.data());
    Ok(())
}
