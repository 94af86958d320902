//! The contraction rule: its constant plan against the run-time one on generated shapes, the
//! rule book's attention cases, the refusals, and `matmul`'s promotions.

use super::*;
use crate::values::shape::Name;
use proptest::prelude::*;

const POOL: [&str; 6] = ["B", "H", "I", "J", "K", "L"];

/// A shape of up to six axes: each named from the pool (at most once) or unnamed, of size
/// 1 to 3.
fn shape() -> impl Strategy<Value = Vec<(Option<&'static str>, usize)>> {
    prop::collection::vec((prop::option::of(0usize..6), 1usize..4), 0..7).prop_map(|axes| {
        let mut seen = [false; 6];
        axes.into_iter()
            .map(|(name, n)| match name {
                Some(k) if !seen[k] => {
                    seen[k] = true;
                    (Some(POOL[k]), n)
                }
                _ => (None, n),
            })
            .collect()
    })
}

fn dyn_shape(axes: &[(Option<&'static str>, usize)]) -> DynShape {
    DynShape::new(axes.iter().map(|&(name, n)| match name {
        Some(name) => DynAxis::named(name, Size::Known(n)).unwrap(),
        None => DynAxis::unnamed(Size::Known(n)),
    }))
    .unwrap()
}

proptest! {
    /// The plan a typed `dot` runs on (a constant computed from the operands' names) is the
    /// run-time engine's, on every contraction the engine accepts.
    #[test]
    fn the_constant_plan_is_the_engines(
        a in shape(),
        b in shape(),
        picks in prop::collection::vec((0usize..6, any::<bool>(), 0usize..6), 1..3),
    ) {
        let items: Vec<Result<&'static str, usize>> = picks
            .iter()
            .map(|&(k, by_name, pos)| if by_name { Ok(POOL[k]) } else { Err(pos) })
            .collect();
        let sels: Vec<AxisSelector> = items
            .iter()
            .map(|item| match *item {
                Ok(name) => AxisSelector::Name(Name::new(name).unwrap()),
                Err(pos) => AxisSelector::Pos(pos),
            })
            .collect();
        let Ok(c) = contract(&dyn_shape(&a), &dyn_shape(&b), &sels) else {
            return Ok(());
        };
        let mut x = StaticSelectors::one(items[0]);
        for &item in &items[1..] {
            x = x.then(StaticSelectors::one(item));
        }
        let names = |s: &[(Option<&'static str>, usize)]| s.iter().map(|a| a.0).collect::<Vec<_>>();
        let plan = StaticContraction::contract(&names(&a), &names(&b), &x);
        prop_assert!(plan.agrees_with(&c), "{plan:?} against {c:?}");
    }
}

fn names(s: &str) -> Vec<AxisSelector> {
    s.split(',').map(|x| x.parse().unwrap()).collect()
}

fn run(a: &str, b: &str, x: &str) -> Result<String, Error> {
    let c = contract(&a.parse()?, &b.parse()?, &names(x))?;
    Ok(format!("{} | {} | {:?}", c.shape, c.plan, c.contracted))
}

#[test]
fn the_rule_books_attention_cases() {
    let q = "[BATCH, HEADS, SEQ, DK: 16]";
    let k = "[BATCH, HEADS, KSEQ, DK: 16]";
    assert_eq!(
        run(q, k, "DK").unwrap(),
        "[BATCH, HEADS, SEQ, KSEQ] | 0,1,2,- ; 0,1,-,2 | [(3, 3)]"
    );
    assert_eq!(
        run(q, k, "HEADS,DK").unwrap(),
        "[BATCH, SEQ, KSEQ] | 0,2,- ; 0,-,2 | [(1, 1), (3, 3)]"
    );
}

#[test]
fn refusals_say_why() {
    let err = |a: &str, b: &str, x: &str| run(a, b, x).unwrap_err().to_string();
    assert_eq!(
        err("[I: 2, J: 3]", "[K: 4]", "J"),
        "cannot contract [I: 2, J: 3] with [K: 4] over J: the right has no axis J"
    );
    assert!(err("[5, I: 2, J: 3]", "[4, J: 3]", "J").contains("the other axes do not broadcast"));
    assert!(err("[I: 2, J: 3]", "[J: 3]", "J,J").contains("selected twice"));
}

#[test]
fn matmul_promotes_rank_one_and_broadcasts_batches() {
    let m = |a: &str, b: &str| {
        matmul(&a.parse().unwrap(), &b.parse().unwrap())
            .map(|c| format!("{} | {}", c.shape, c.plan))
    };
    assert_eq!(m("[3]", "[3]").unwrap(), "[] |  ; ");
    assert_eq!(m("[3]", "[2, 3, 4]").unwrap(), "[2, 4] | -,- ; 0,2");
    assert_eq!(m("[2, 2, 3]", "[3]").unwrap(), "[2, 2] | 0,1 ; -,-");
    assert_eq!(
        m("[?, 1, 2, 3]", "[5, 3, 4]").unwrap(),
        "[?, 5, 2, 4] | 0,1,2,- ; -,0,-,2"
    );
    assert!(m("[2, 2, 3]", "[5, 3, 4]")
        .unwrap_err()
        .to_string()
        .contains("batch"));
    assert!(m("[]", "[3]").unwrap_err().to_string().contains("scalar"));
    assert!(m("[M: 2, K: 3]", "[J: 3, N: 4]")
        .unwrap_err()
        .to_string()
        .contains("two names"));
}
