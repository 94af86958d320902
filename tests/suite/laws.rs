//! Laws every rule must obey, checked on random shapes (proptest).

use proptest::prelude::*;
use shapecast::dynamic::{assign, bidirectional, embed, named, numpy, outer};
use shapecast::{broadcast, Broadcasted, DynAxis, DynShape, Error, Name, Rule, Size};

const NAMES: [&str; 6] = ["A", "B", "C", "H", "W", "CHANNEL"];

fn size() -> impl Strategy<Value = Size> {
    prop_oneof![
        3 => (0usize..4).prop_map(Size::Known),
        1 => Just(Size::Known(1)),
        1 => Just(Size::Unknown),
    ]
}

fn known_size() -> impl Strategy<Value = Size> {
    prop_oneof![3 => (0usize..4).prop_map(Size::Known), 1 => Just(Size::Known(1))]
}

/// A shape of rank 0 to 6 built from `sizes`, with names from a small pool when `names`.
fn shape_of(sizes: BoxedStrategy<Size>, names: bool) -> impl Strategy<Value = DynShape> {
    prop::collection::vec((sizes, prop::option::weighted(0.4, 0..NAMES.len())), 0..=6).prop_map(
        move |axes| {
            let mut used = Vec::new();
            let axes = axes.into_iter().map(|(size, name)| {
                let name = name.filter(|n| names && !used.contains(n)).map(|n| {
                    used.push(n);
                    Name::new(NAMES[n]).unwrap()
                });
                DynAxis { size, name }
            });
            DynShape::new(axes).unwrap()
        },
    )
}

fn unnamed() -> impl Strategy<Value = DynShape> {
    shape_of(size().boxed(), false)
}

fn any_shape() -> impl Strategy<Value = DynShape> {
    shape_of(size().boxed(), true)
}

fn static_shape(names: bool) -> impl Strategy<Value = DynShape> {
    shape_of(known_size().boxed(), names)
}

/// The observable outcome: shape and plan, or "refused".
fn outcome(r: Result<Broadcasted, Error>) -> Option<(String, String)> {
    r.ok().map(|b| (b.shape.to_string(), b.plan.to_string()))
}

const ALL: [Rule; 10] = Rule::ALL;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_display_round_trips(s in any_shape()) {
        let text = s.to_string();
        let back: DynShape = text.parse().unwrap();
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn named_is_numpy_without_names(a in unnamed(), b in unnamed()) {
        prop_assert_eq!(outcome(named::broadcast(&a, &b)), outcome(numpy::broadcast(&a, &b)));
    }

    #[test]
    fn outer_is_numpy_without_names(a in unnamed(), b in unnamed()) {
        prop_assert_eq!(
            outcome(outer::broadcast(&a, &b)).map(|o| o.0),
            outcome(numpy::broadcast(&a, &b)).map(|o| o.0)
        );
    }

    #[test]
    fn embed_accepts_what_numpy_accepts_with_the_same_answer(a in any_shape(), b in any_shape()) {
        if let Some(np) = outcome(numpy::broadcast(&a, &b)) {
            prop_assert_eq!(outcome(embed::broadcast(&a, &b)), Some(np));
        }
    }

    #[test]
    fn bidirectional_is_named(a in any_shape(), b in any_shape()) {
        prop_assert_eq!(outcome(bidirectional::broadcast(&a, &b)), outcome(named::broadcast(&a, &b)));
    }

    #[test]
    fn numpy_is_symmetric_in_shape(a in unnamed(), b in unnamed()) {
        prop_assert_eq!(
            outcome(numpy::broadcast(&a, &b)).map(|o| o.0),
            outcome(numpy::broadcast(&b, &a)).map(|o| o.0)
        );
    }

    #[test]
    fn named_holds_the_same_axes_either_way(a in any_shape(), b in any_shape()) {
        let ab = named::broadcast(&a, &b).ok();
        let ba = named::broadcast(&b, &a).ok();
        prop_assert_eq!(ab.is_some(), ba.is_some());
        if let (Some(ab), Some(ba)) = (ab, ba) {
            let mut x: Vec<String> = ab.shape.axes().iter().map(|a| a.to_string()).collect();
            let mut y: Vec<String> = ba.shape.axes().iter().map(|a| a.to_string()).collect();
            if a.rank() != b.rank() {
                prop_assert_eq!(&x, &y); // the frame is the larger operand both ways
            }
            x.sort();
            y.sort();
            prop_assert_eq!(x, y);
        }
    }

    #[test]
    fn assign_never_changes_the_destination(a in any_shape(), b in any_shape()) {
        if let Ok(r) = assign::broadcast(&a, &b) {
            prop_assert_eq!(r.shape, a);
        }
    }

    #[test]
    fn plans_point_at_real_axes(a in any_shape(), b in any_shape(), axis in -1isize..4) {
        for rule in ALL {
            let rule = if let Rule::Pdpd { .. } = rule { Rule::Pdpd { axis } } else { rule };
            if let Ok(r) = broadcast(rule, &a, &b) {
                prop_assert_eq!(r.plan.lhs.len(), r.shape.rank());
                prop_assert_eq!(r.plan.rhs.len(), r.shape.rank());
                for (i, (l, rr)) in r.plan.lhs.iter().zip(&r.plan.rhs).enumerate() {
                    prop_assert!(l.is_some() || rr.is_some() || rule == Rule::Compare, "{rule}: axis {i} fed by nothing");
                    prop_assert!(l.is_none_or(|k| k < a.rank()));
                    prop_assert!(rr.is_none_or(|k| k < b.rank()));
                }
                // No operand axis feeds two output axes.
                for side in [&r.plan.lhs, &r.plan.rhs] {
                    let mut seen: Vec<usize> = side.iter().flatten().copied().collect();
                    let n = seen.len();
                    seen.sort();
                    seen.dedup();
                    prop_assert_eq!(seen.len(), n);
                }
            }
        }
    }

    /// The symbolic engine agrees with the concrete one: resolving the `?` sizes of a
    /// symbolic result gives exactly what the rule gives on the concrete shapes.
    #[test]
    fn symbolic_agrees_with_concrete(
        a in any_shape(), b in any_shape(),
        fill in prop::collection::vec(0usize..4, 12),
    ) {
        let concrete = |s: &DynShape, off: usize| -> Vec<usize> {
            s.sizes().enumerate().map(|(i, z)| z.known().unwrap_or(fill[(i + off) % fill.len()])).collect()
        };
        let (la, lb) = (concrete(&a, 0), concrete(&b, 6));
        let (ca, cb) = (a.resolve(&la).unwrap(), b.resolve(&lb).unwrap());
        for rule in [Rule::Numpy, Rule::Named, Rule::Outer, Rule::Strict, Rule::Compare, Rule::Assign, Rule::Bidirectional] {
            let sym = broadcast(rule, &a, &b);
            let con = broadcast(rule, &ca, &cb);
            match (sym, con) {
                (Ok(s), Ok(c)) => {
                    prop_assert_eq!(&s.plan, &c.plan, "{}", rule);
                    prop_assert_eq!(s.resolve(&la, &lb).ok(), c.shape.known_sizes(), "{}", rule);
                }
                (Ok(s), Err(_)) => prop_assert!(s.resolve(&la, &lb).is_err(), "{}: symbolic passes checks the concrete refuses", rule),
                (Err(_), Ok(c)) => prop_assert!(false, "{}: symbolic refused what {} accepts", rule, c.shape),
                (Err(_), Err(_)) => {}
            }
        }
    }

    #[test]
    fn static_rule_is_named_on_static_shapes(a in static_shape(true), b in static_shape(true)) {
        prop_assert_eq!(
            outcome(broadcast(Rule::Static, &a, &b)),
            outcome(named::broadcast(&a, &b))
        );
    }

    #[test]
    fn narrow_removes_exactly_the_ones(s in any_shape()) {
        let n = s.narrow();
        prop_assert!(n.shape.sizes().all(|z| !z.is_one()));
        prop_assert_eq!(n.shape.rank() + s.sizes().filter(|z| z.is_one()).count(), s.rank());
        prop_assert_eq!(n.scalar, n.shape.rank() == 0);
        prop_assert_eq!(n.shape.narrow().shape, n.shape.clone());
    }

    /// Nothing panics on any input: arbitrary strings through the parser, and whatever parses
    /// through every rule with any axis.
    #[test]
    fn never_panics(x in "\\PC{0,24}", y in "[\\[\\]0-9?A-Z:, _-]{0,24}", axis in any::<isize>()) {
        for (l, r) in [(&x, &y), (&y, &x), (&y, &y)] {
            if let (Ok(a), Ok(b)) = (l.parse::<DynShape>(), r.parse::<DynShape>()) {
                for rule in ALL {
                    let rule = if let Rule::Pdpd { .. } = rule { Rule::Pdpd { axis } } else { rule };
                    let _ = broadcast(rule, &a, &b);
                }
                let _ = a.narrow();
            }
        }
    }
}

/// Found by fuzzing (fuzz/fuzz_targets/rules.rs): the outer rule on two shapes of rank 40
/// would give rank 80, above the limit; it is an error, not an invalid shape.
#[test]
fn outer_above_the_rank_limit_is_an_error() {
    let names = |prefix: &str| -> String {
        let axes: Vec<String> = (0..40).map(|i| format!("{prefix}{i}: 2")).collect();
        format!("[{}]", axes.join(", "))
    };
    let (a, b) = (names("A").parse().unwrap(), names("B").parse().unwrap());
    let err = broadcast(Rule::Outer, &a, &b).unwrap_err();
    assert!(
        matches!(err, shapecast::Error::RankTooLarge { rank: 80, .. }),
        "{err}"
    );
}
