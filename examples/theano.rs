//! Theano's broadcastable patterns (seed "Broadcasting", Theano): `row` and `col` added to a
//! matrix under the static rule, with the seed's values.
//!
//! Run: `cargo run --example theano`

use shapecast::rule::{Col, Row, Static};
use shapecast::{shape, BroadcastBy, Shape, Tensor};

fn main() -> Result<(), shapecast::Error> {
    // r = T.row(): broadcastable (True, False); mtr = T.matrix(): (False, False).
    assert_eq!(<Row as Shape>::BROADCASTABLE, &[true, false]);
    assert_eq!(<Col as Shape>::BROADCASTABLE, &[false, true]);
    assert_eq!(<shape![?, ?] as Shape>::BROADCASTABLE, &[false, false]);
    // A vector (2,) is (False,), expanded on the left to (True, False): a row.
    static_assertions::assert_type_eq_all!(BroadcastBy<Static, shape![?], shape![?, ?]>, shape![?, ?]);

    // R = [[0, 1, 2]], M = arange(9).reshape(3, 3): R + M.
    let r = Tensor::<f64, Row>::from_vec_sized(&[1, 3], vec![0.0, 1.0, 2.0])?;
    let m = Tensor::<f64, shape![?, ?]>::from_fn(&[3, 3], |i| (i[0] * 3 + i[1]) as f64)?;
    let sum = r.zip_with_rule::<Static, _, _, _>(&m, |x, y| x + y)?;
    assert_eq!(sum.data(), &[0.0, 2.0, 4.0, 3.0, 5.0, 7.0, 6.0, 8.0, 10.0]);
    println!("f_row(R, M) = {:?}", sum.data());

    // C = [[0], [1], [2]]: C + M.
    let c = Tensor::<f64, Col>::from_vec_sized(&[3, 1], vec![0.0, 1.0, 2.0])?;
    let sum = c.zip_with_rule::<Static, _, _, _>(&m, |x, y| x + y)?;
    assert_eq!(sum.data(), &[0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0]);
    println!("f_col(C, M) = {:?}", sum.data());

    // A matrix whose first size is only known at run time is not broadcastable, even when
    // it turns out to be 1: Theano needs to know at compile time.
    let one_row = Tensor::<f64, shape![?, ?]>::from_vec_sized(&[1, 3], vec![0.0, 1.0, 2.0])?;
    let refused = one_row
        .zip_with_rule::<Static, _, _, _>(&m, |x, y| x + y)
        .unwrap_err();
    println!("matrix (1 at run time) + M: {refused}");
    Ok(())
}
