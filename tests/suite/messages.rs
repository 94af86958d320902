//! What a user reads at run time: the pair a refusal names (rule book §19), which side
//! carries which name, and assignment refusing to drop a name (rule book §10).

use shapecast::{broadcast, DynShape, DynTensor, Error, Reason, Rule};

fn refusal(rule: Rule, a: &str, b: &str) -> String {
    broadcast(rule, &a.parse().unwrap(), &b.parse().unwrap())
        .unwrap_err()
        .to_string()
}

#[test]
fn the_leftmost_failing_pair_is_named_names_before_sizes() {
    assert_eq!(
        refusal(Rule::Numpy, "[3, 4]", "[5, 6]"),
        "cannot broadcast [3, 4] with [5, 6] (numpy rule): axis 0 has size 3 on the left and 5 on the right"
    );
    let e = broadcast(
        Rule::Named,
        &"[H: 2, 3]".parse().unwrap(),
        &"[W: 2, 4]".parse().unwrap(),
    )
    .unwrap_err();
    let Error::Refused(r) = e else { panic!("{e}") };
    // The names meet at axis 0 (W has no namesake and no unnamed axis is free for it).
    assert!(
        matches!(
            r.reason,
            Reason::NoNamesake {
                axis: 0,
                lhs_axis: 0,
                rhs_axis: 0,
                ..
            }
        ),
        "{:?}",
        r.reason
    );
    // A size conflict left of a name conflict is the one named.
    let e = broadcast(
        Rule::Strict,
        &"[2, H: 3]".parse().unwrap(),
        &"[4, W: 3]".parse().unwrap(),
    )
    .unwrap_err();
    let Error::Refused(r) = e else { panic!("{e}") };
    assert!(
        matches!(r.reason, Reason::Sizes { axis: 0, .. }),
        "{:?}",
        r.reason
    );
}

#[test]
fn a_refusal_says_which_side_carries_the_name() {
    let img = DynTensor::full("[2, CHANNEL: 3, H: 4, W: 5]".parse().unwrap(), 1.0f32).unwrap();
    let per_class = DynTensor::full("[CLASS: 3]".parse().unwrap(), 1.0f32).unwrap();
    let e = img.try_sub(&per_class).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot broadcast [2, CHANNEL: 3, H: 4, W: 5] with [CLASS: 3] (named rule): axis 0 is \
         unnamed on the left (size 2) and CLASS on the right (size 3); CLASS has no namesake on \
         the other side, so it took an unnamed axis"
    );
    // The same sizes with the name on the left.
    let e = refusal(Rule::Named, "[CLASS: 3, 4]", "[2, 4]");
    assert!(e.ends_with("axis 0 is CLASS on the left (size 3) and unnamed on the right (size 2); CLASS has no namesake on the other side, so it took an unnamed axis"), "{e}");
    // Both named, or both unnamed: the plain form.
    assert!(refusal(Rule::Named, "[H: 3]", "[H: 4]")
        .ends_with("axis 0 (H) has size 3 on the left and 4 on the right"));
}

#[test]
fn assignment_never_drops_a_name() {
    let e = refusal(Rule::Assign, "[N: 2, 3]", "[N: 2, C: 3]");
    assert_eq!(
        e,
        "cannot assign [N: 2, C: 3] into [N: 2, 3] (assign rule): axis 1 is unnamed in the \
         destination and C in the source, so the name C would be lost: rename the source's axis \
         first (or drop its name explicitly)"
    );
    // A namesake, or no name at all, is fine.
    let ok = |a: &str, b: &str| {
        broadcast(
            Rule::Assign,
            &a.parse::<DynShape>().unwrap(),
            &b.parse().unwrap(),
        )
    };
    assert!(ok("[N: 2, C: 3]", "[C: 3]").is_ok());
    assert!(ok("[N: 2, C: 3]", "[1, 3]").is_ok());
    // PDPD keeps the left's shape and drops the right's name, as the rule book says.
    assert!(broadcast(
        Rule::Pdpd { axis: -1 },
        &"[2, 3]".parse().unwrap(),
        &"[C: 3]".parse().unwrap()
    )
    .is_ok());
}
