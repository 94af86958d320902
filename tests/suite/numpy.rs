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

/// A JSON number, or one of the strings NumPy's NaN and infinities are written as.
fn float(v: &Value) -> f64 {
    match v {
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("unexpected {other}"),
        },
        v => v.as_f64().unwrap(),
    }
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(float).collect()
}

fn agree(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(&g, &w)| {
            (g.is_nan() && w.is_nan())
                || g == w
                || (g - w).abs() <= 1e-9 * (1.0 + g.abs().max(w.abs()))
        })
}

#[test]
fn reductions_agree_with_numpy() {
    use shapecast::dynamic::reduce::AxisSelector;
    let text = include_str!("../data/numpy_reduce.jsonl");
    let mut checked = 0;
    for (line, case) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(case).unwrap();
        let s = sizes(&case["sizes"]);
        let t =
            DynTensor::from_vec(DynShape::from_sizes(&s).unwrap(), floats(&case["data"])).unwrap();
        let axes: Vec<AxisSelector> = sizes(&case["axes"])
            .into_iter()
            .map(AxisSelector::Pos)
            .collect();
        let at = |what: &str| format!("line {} ({what}): {case}", line + 1);
        let sum = t.sum(&axes).unwrap();
        assert_eq!(sum.sizes(), &sizes(&case["shape"])[..], "{}", at("shape"));
        assert_eq!(
            t.sum_keep(&axes).unwrap().sizes(),
            &sizes(&case["shape_keep"])[..],
            "{}",
            at("keepdims")
        );
        assert!(agree(sum.data(), &floats(&case["sum"])), "{}", at("sum"));
        assert!(
            agree(t.prod(&axes).unwrap().data(), &floats(&case["prod"])),
            "{}",
            at("prod")
        );
        assert!(
            agree(t.mean(&axes).unwrap().data(), &floats(&case["mean"])),
            "{}",
            at("mean")
        );
        assert!(
            agree(t.var(&axes).unwrap().data(), &floats(&case["var"])),
            "{}",
            at("var")
        );
        assert!(
            agree(t.std(&axes).unwrap().data(), &floats(&case["std"])),
            "{}",
            at("std")
        );
        match (&case["max"], t.max_keep(&axes)) {
            (Value::Null, Err(e)) => assert!(e.to_string().contains("is empty"), "{}", at("max")),
            (want, Ok(got)) if !want.is_null() => {
                assert!(agree(got.data(), &floats(want)), "{}", at("max"));
                assert!(
                    agree(t.min(&axes).unwrap().data(), &floats(&case["min"])),
                    "{}",
                    at("min")
                );
                assert!(
                    agree(
                        t.logsumexp_keep(&axes).unwrap().data(),
                        &floats(&case["logsumexp"])
                    ),
                    "{}",
                    at("logsumexp")
                );
                assert!(
                    agree(t.softmax(&axes).unwrap().data(), &floats(&case["softmax"])),
                    "{}",
                    at("softmax")
                );
            }
            (want, got) => panic!("{}: numpy {want}, shapecast {got:?}", at("max")),
        }
        if let [axis] = sizes(&case["axes"])[..] {
            for (key, got) in [
                ("argmax", t.argmax(&AxisSelector::Pos(axis))),
                ("argmin", t.argmin(&AxisSelector::Pos(axis))),
            ] {
                match (&case[key], got) {
                    (Value::Null, Err(_)) => {}
                    (want, Ok(got)) => assert_eq!(got.data(), &sizes(want)[..], "{}", at(key)),
                    (want, got) => panic!("{}: numpy {want}, shapecast {got:?}", at(key)),
                }
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 600);
}

#[test]
fn contractions_agree_with_numpy() {
    use shapecast::dynamic::reduce::AxisSelector;
    let ints = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect()
    };
    let (mut dots, mut matmuls, mut refused) = (0, 0, 0);
    for (line, text) in include_str!("../data/numpy_contract.jsonl")
        .lines()
        .enumerate()
    {
        let case: Value = serde_json::from_str(text).unwrap();
        let at = format!("line {}: {case}", line + 1);
        if case["kind"] == "dot" {
            let a = DynTensor::from_vec(
                case["a"].as_str().unwrap().parse().unwrap(),
                ints(&case["a_data"]),
            )
            .unwrap();
            let b = DynTensor::from_vec(
                case["b"].as_str().unwrap().parse().unwrap(),
                ints(&case["b_data"]),
            )
            .unwrap();
            let over: Vec<AxisSelector> = case["over"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().parse().unwrap())
                .collect();
            let c = a.dot(&b, &over).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(c.shape().to_string(), case["out"].as_str().unwrap(), "{at}");
            assert_eq!(c.data(), &ints(&case["data"])[..], "{at}");
            // The same in f64, through the GEMM crate.
            let f = |t: &DynTensor<i64>| {
                DynTensor::from_vec(
                    t.shape().clone(),
                    t.data().iter().map(|&v| v as f64).collect(),
                )
                .unwrap()
            };
            let cf = f(&a).dot(&f(&b), &over).unwrap();
            assert_eq!(
                cf.data(),
                &ints(&case["data"])
                    .iter()
                    .map(|&v| v as f64)
                    .collect::<Vec<_>>()[..],
                "{at}"
            );
            dots += 1;
        } else {
            let a = DynTensor::from_vec(
                DynShape::from_sizes(&sizes(&case["a"])).unwrap(),
                ints(&case["a_data"]),
            )
            .unwrap();
            let b = DynTensor::from_vec(
                DynShape::from_sizes(&sizes(&case["b"])).unwrap(),
                ints(&case["b_data"]),
            )
            .unwrap();
            match (&case["out"], a.matmul(&b)) {
                (Value::Null, Err(e)) => {
                    assert!(e.is_refusal(), "{at}: {e}");
                    refused += 1;
                }
                (out, Ok(c)) if !out.is_null() => {
                    assert_eq!(c.sizes(), &sizes(out)[..], "{at}");
                    assert_eq!(c.data(), &ints(&case["data"])[..], "{at}");
                    matmuls += 1;
                }
                (out, got) => panic!("{at}: numpy {out}, shapecast {got:?}"),
            }
        }
    }
    assert_eq!(dots, 300);
    assert!(
        matmuls > 150 && refused > 10,
        "{matmuls} products, {refused} refusals"
    );
}

/// `x` with its axes permuted: axis `j` of the result is axis `perm[j]` of `x`.
fn transposed(x: &DynTensor<i64>, perm: &[usize]) -> DynTensor<i64> {
    let sizes: Vec<usize> = perm.iter().map(|&p| x.sizes()[p]).collect();
    DynTensor::from_fn(DynShape::from_sizes(&sizes).unwrap(), |i| {
        let mut src = vec![0; i.len()];
        for (j, &p) in perm.iter().enumerate() {
            src[p] = i[j];
        }
        *x.at(&src).unwrap()
    })
    .unwrap()
}

#[test]
fn surgery_agrees_with_numpy() {
    use shapecast::dynamic::reduce::AxisSelector;
    let text = include_str!("../data/numpy_surgery.jsonl");
    let (mut ok, mut refused) = (0, 0);
    for (line, case) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(case).unwrap();
        let at = format!("line {}: {case}", line + 1);
        let shape = |s: &[usize]| DynShape::from_sizes(s).unwrap();
        let x = DynTensor::from_vec(shape(&sizes(&case["sizes"])), ints(&case["data"])).unwrap();
        let v = transposed(&x, &sizes(&case["perm"]));
        let k = case["axis"].as_u64().unwrap() as usize;
        let axis = AxisSelector::Pos(k);
        let got = match case["op"].as_str().unwrap() {
            "select" => v.select(&axis, case["index"].as_u64().unwrap() as usize),
            "slice" => {
                let r = sizes(&case["range"]);
                v.slice(&axis, r[0]..r[1])
            }
            "split" => v.split_axis(&axis, &shape(&sizes(&case["parts"]))),
            "merge" => {
                let c = case["count"].as_u64().unwrap() as usize;
                let axes: Vec<AxisSelector> = (k..k + c).map(AxisSelector::Pos).collect();
                v.merge_axes(&axes, None)
            }
            "concat" => {
                let y =
                    DynTensor::from_vec(shape(&sizes(&case["other"])), ints(&case["other_data"]))
                        .unwrap();
                DynTensor::concat(&axis, &[&v, &y])
            }
            "stack" => {
                let ys: Vec<DynTensor<i64>> = case["others"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| DynTensor::from_vec(v.shape().clone(), ints(d)).unwrap())
                    .collect();
                let mut all = vec![&v];
                all.extend(ys.iter());
                DynTensor::stack(None, &all)
            }
            op => panic!("unknown op {op}"),
        };
        match (&case["out"], got) {
            (Value::Null, Err(e)) => {
                assert!(e.is_refusal(), "{at}: {e}");
                refused += 1;
            }
            (want, Ok(t)) if !want.is_null() => {
                assert_eq!(t.sizes(), &sizes(want)[..], "{at}");
                assert_eq!(t.data(), &ints(&case["out_data"])[..], "{at}");
                ok += 1;
            }
            (want, got) => panic!("{at}: NumPy {want}, shapecast {got:?}"),
        }
    }
    assert!(ok > 350 && refused > 20, "{ok} agreed, {refused} refused");
}
