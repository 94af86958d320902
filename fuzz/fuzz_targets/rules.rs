//! Every run-time rule on two arbitrary shapes: never a panic, and the laws that hold
//! between rules (see tests/suite/laws.rs): named = numpy and outer = numpy without names,
//! bidirectional = named, plans point at real axes, embed accepts what numpy accepts with
//! the same answer, and resolving the `?` sizes never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{broadcast, DynShape, Rule};

/// Every rule (PDPD with its default axis), and PDPD with the axis taken from the input.
fn rules(axis: i8) -> Vec<Rule> {
    let mut rules = Rule::ALL.to_vec();
    rules.push(Rule::Pdpd {
        axis: axis as isize,
    });
    rules
}

fuzz_target!(|data: &[u8]| {
    let Some((&axis, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Some((left, right)) = text.split_once('|') else {
        return;
    };
    let (Ok(a), Ok(b)) = (left.parse::<DynShape>(), right.parse::<DynShape>()) else {
        return;
    };
    let unnamed = a.axes().iter().chain(b.axes()).all(|x| x.name.is_none());
    let mut results = Vec::new();
    for rule in rules(axis as i8) {
        let got = broadcast(rule, &a, &b);
        if let Ok(out) = &got {
            let rank = out.shape.axes().len();
            assert_eq!(out.plan.lhs.len(), rank);
            assert_eq!(out.plan.rhs.len(), rank);
            assert!(out.plan.lhs.iter().flatten().all(|&k| k < a.axes().len()));
            assert!(out.plan.rhs.iter().flatten().all(|&k| k < b.axes().len()));
            // Fill every `?` with 1 and resolve: an error is fine, a panic is not.
            let ones = |s: &DynShape| vec![1; s.axes().len()];
            let _ = out.resolve(&ones(&a), &ones(&b));
        }
        results.push(got.map(|o| o.shape).ok());
    }
    let [numpy, named, outer, embed, _, _, _, _, bidirectional, ..] = &results[..] else {
        unreachable!()
    };
    assert_eq!(bidirectional, named, "bidirectional = named");
    if unnamed {
        assert_eq!(named, numpy, "named = numpy without names");
        assert_eq!(outer, numpy, "outer = numpy without names");
    }
    if numpy.is_some() && unnamed {
        assert_eq!(
            embed, numpy,
            "embed accepts what numpy accepts, with the same answer"
        );
    }
});
