//! Both engines and the kernels against NumPy's own answers (`tests/data/numpy.jsonl`,
//! written by `scripts/gen_numpy_cases.py`): the output shape or the refusal of
//! `np.broadcast_shapes`, and for small cases the values of `a + b`, `a * b` and `a < b`.

use serde_json::Value;
use shapecast::{broadcast, DynShape, DynTensor, Rule};

struct Case {
    a: Vec<usize>,
    b: Vec<usize>,
    out: Option<Vec<usize>>,
    values: Option<Values>,
}

struct Values {
    a: Vec<i64>,
    b: Vec<i64>,
    add: Vec<i64>,
    mul: Vec<i64>,
    lt: Vec<bool>,
}

fn sizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/numpy.jsonl"
    ))
    .expect("tests/data/numpy.jsonl");
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a JSON line");
            Case {
                a: sizes(&v["a"]),
                b: sizes(&v["b"]),
                out: (!v["out"].is_null()).then(|| sizes(&v["out"])),
                values: v.get("add").map(|_| Values {
                    a: ints(&v["a_data"]),
                    b: ints(&v["b_data"]),
                    add: ints(&v["add"]),
                    mul: ints(&v["mul"]),
                    lt: v["lt"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_bool().unwrap())
                        .collect(),
                }),
            }
        })
        .collect()
}

#[test]
fn the_data_is_there() {
    let all = cases();
    assert!(all.len() >= 2000, "{} cases", all.len());
    assert!(all.iter().filter(|c| c.out.is_none()).count() >= 200);
    assert!(all.iter().filter(|c| c.values.is_some()).count() >= 1000);
}

/// The run-time engine gives NumPy's shape or refuses, under the numpy rule and under the
/// rules that equal it on unnamed shapes (named, outer, bidirectional).
#[test]
fn shapes_agree_with_numpy() {
    for c in cases() {
        let (a, b) = (
            DynShape::from_sizes(&c.a).unwrap(),
            DynShape::from_sizes(&c.b).unwrap(),
        );
        for rule in [Rule::Numpy, Rule::Named, Rule::Outer, Rule::Bidirectional] {
            let got = broadcast(rule, &a, &b).map(|r| r.shape.known_sizes().unwrap());
            assert_eq!(got.ok(), c.out, "{rule} {:?} with {:?}", c.a, c.b);
        }
    }
}

/// The kernel computes NumPy's values.
#[test]
fn values_agree_with_numpy() {
    for c in cases() {
        let Some(v) = c.values else { continue };
        let a = DynTensor::from_vec(DynShape::from_sizes(&c.a).unwrap(), v.a).unwrap();
        let b = DynTensor::from_vec(DynShape::from_sizes(&c.b).unwrap(), v.b).unwrap();
        let what = format!("{:?} with {:?}", c.a, c.b);
        let sum = a.zip_with(Rule::Numpy, &b, |x, y| x + y).unwrap();
        assert_eq!(Some(sum.sizes().to_vec()), c.out, "{what}");
        assert_eq!(sum.data(), &v.add[..], "a + b: {what}");
        assert_eq!(
            a.zip_with(Rule::Numpy, &b, |x, y| x * y).unwrap().data(),
            &v.mul[..],
            "a * b: {what}"
        );
        assert_eq!(
            a.zip_with(Rule::Numpy, &b, |x, y| x < y).unwrap().data(),
            &v.lt[..],
            "a < b: {what}"
        );
    }
}
