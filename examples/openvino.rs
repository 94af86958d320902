//! OpenVINO's broadcast rules (seed "Broadcast Rules For Elementwise Operations"): the NUMPY,
//! PDPD and bidirectional examples, through the run-time engine and at compile time.
//!
//! Run: `cargo run --example openvino`

use shapecast::rule::{Bidirectional, Numpy, Pdpd, Start};
use shapecast::{broadcast, shape, Accepts, BroadcastBy, DynShape, Rule, Tensor};

fn check(rule: Rule, a: &str, b: &str, expected: Option<&str>) -> Result<(), shapecast::Error> {
    let (a, b): (DynShape, DynShape) = (a.parse()?, b.parse()?);
    let got = broadcast(rule, &a, &b);
    match (&got, expected) {
        (Ok(r), Some(e)) => assert_eq!(r.shape.to_string(), e),
        (Err(_), None) => {}
        _ => panic!("{rule} {a} {b}: {got:?}"),
    }
    match got {
        Ok(r) => println!("{rule}: {a} with {b} gives {}", r.shape),
        Err(e) => println!("{rule}: {e}"),
    }
    Ok(())
}

fn main() -> Result<(), shapecast::Error> {
    // NUMPY.
    for (a, b, out) in [
        ("[]", "[]", Some("[]")),
        ("[2, 3]", "[1]", Some("[2, 3]")),
        ("[3]", "[2, 3]", Some("[2, 3]")),
        ("[2, 3, 5]", "[]", Some("[2, 3, 5]")),
        ("[2, 1, 5]", "[1, 4, 5]", Some("[2, 4, 5]")),
        ("[6, 5]", "[2, 1, 5]", Some("[2, 6, 5]")),
        ("[2, 1, 5]", "[4, 1]", Some("[2, 4, 5]")),
        ("[3, 2, 1, 4]", "[5, 4]", Some("[3, 2, 5, 4]")),
        ("[1, 5, 3]", "[5, 2, 1, 3]", Some("[5, 2, 5, 3]")),
        ("[3]", "[2]", None),
        ("[3, 1, 5]", "[4, 4, 5]", None),
    ] {
        check(Rule::Numpy, a, b, out)?;
    }
    static_assertions::assert_type_eq_all!(BroadcastBy<Numpy, shape![1, 5, 3], shape![5, 2, 1, 3]>, shape![5, 2, 5, 3]);
    const { assert!(!<shape![3, 1, 5] as Accepts<Numpy, shape![4, 4, 5]>>::VALUE) };

    // PDPD, A = (2, 3, 4, 5).
    let a = "[2, 3, 4, 5]";
    for (b, axis, ok) in [
        ("[3, 4]", 1, true),
        ("[3, 1]", 1, true),
        ("[4, 5]", -1, true),
        ("[4, 5]", 2, true),
        ("[1, 3]", 0, true),
        ("[]", -1, true),
        ("[5]", -1, true),
        ("[5]", 3, true),
    ] {
        check(Rule::Pdpd { axis }, a, b, ok.then_some(a))?;
    }
    check(Rule::Pdpd { axis: 1 }, "[8, 1, 6, 1]", "[7, 1, 5]", None)?;
    static_assertions::assert_type_eq_all!(
        BroadcastBy<Pdpd<Start<1>>, shape![2, 3, 4, 5], shape![3, 1]>,
        shape![2, 3, 4, 5]
    );
    const { assert!(!<shape![8, 1, 6, 1] as Accepts<Pdpd<Start<1>>, shape![7, 1, 5]>>::VALUE) };
    // On data: B (3, 1) with axis 1 adds b[j] along A's axis 1.
    let ta = Tensor::<i32, shape![2, 3, 4, 5]>::zeros()?;
    let tb = Tensor::<i32, shape![3, 1]>::from_array([[10], [20], [30]]);
    let sum = ta.zip_with_rule::<Pdpd<Start<1>>, _, _, _>(&tb, |x, y| x + y)?;
    assert_eq!(*sum.at(&[1, 2, 3, 4])?, 30);

    // Bidirectional: the result may be larger than the target.
    for (a, b, out) in [
        ("[5]", "[1]", "[5]"),
        ("[2, 3]", "[3]", "[2, 3]"),
        ("[3, 1]", "[3, 4]", "[3, 4]"),
        ("[3, 4]", "[]", "[3, 4]"),
        ("[3, 1]", "[2, 1, 6]", "[2, 3, 6]"),
    ] {
        check(Rule::Bidirectional, a, b, Some(out))?;
    }
    static_assertions::assert_type_eq_all!(BroadcastBy<Bidirectional, shape![3, 1], shape![2, 1, 6]>, shape![2, 3, 6]);
    // On data, as a view that copies nothing.
    let x = Tensor::<i32, shape![3, 1]>::from_array([[1], [2], [3]]);
    let v = x.broadcast_to::<shape![2, 1, 6]>()?;
    assert_eq!((v.sizes(), v.strides()), (&[2, 3, 6][..], &[0, 1, 0][..]));
    println!(
        "broadcast_to: (3, 1) to [2, 1, 6] is a view of sizes {:?}, strides {:?}",
        v.sizes(),
        v.strides()
    );
    Ok(())
}
