//! The resampling kernels against their definitions: the transpose is the adjoint, one pass
//! is two passes, wide taps weigh to one and stay in the axis.

use super::*;

#[test]
fn the_transpose_is_the_adjoint() {
    // <R x, g> = <x, R^T g> for random-ish x, g on every kind of taps, on rows of one
    // element and of three, and on an output large enough to split over threads.
    for (outer, inner) in [(2, 1), (2, 3), (4096, 3)] {
        adjoint(outer, inner);
    }
}

fn adjoint(outer: usize, inner: usize) {
    let (n, m) = (5, 12);
    let x: Vec<f64> = (0..outer * n * inner)
        .map(|i| ((i * 7) % 11) as f64 - 5.0)
        .collect();
    let g: Vec<f64> = (0..outer * m * inner)
        .map(|i| ((i * 5) % 13) as f64 - 6.0)
        .collect();
    for taps in [
        Taps::nearest(n, m, (false, true), None),
        Taps::nearest(n, m, (true, false), None),
        Taps::linear(n, m, false),
        Taps::linear(n, m, true),
        Taps::linear(n, 3, false),
        Taps::cubic(n, m, false),
        Taps::cubic(n, 3, true),
        Taps::area(n, m),
        Taps::area(n, 3),
        Taps::antialiased(n, m, false, false),
        Taps::antialiased(n, 2, false, true),
        Taps::antialiased(n, 3, true, false),
    ] {
        let m = taps.len();
        let g = &g[..outer * m * inner];
        let y = resample_axis(&x, (outer, n, inner), &taps);
        let back = resample_axis_back(g, (outer, n, inner), &taps);
        let lhs: f64 = y.iter().zip(g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&back).map(|(a, b)| a * b).sum();
        assert!(
            (lhs - rhs).abs() < 1e-9 * (1.0 + lhs.abs()),
            "{lhs} against {rhs}"
        );
    }
}

#[test]
fn a_pair_in_one_pass_is_two_passes() {
    let x: Vec<f32> = (0..2 * 5 * 3 * 4 * 2)
        .map(|i| ((i * 7) % 11) as f32 - 5.0)
        .collect();
    for (exact, corners) in [(false, false), (true, true)] {
        let first = Taps::linear(5, 9, corners);
        let second = Taps::linear(4, 8, !corners);
        let two = resample_axis(&x, (2 * 5 * 3, 4, 2), &second);
        let two = resample_axis(&two, (2, 5, 3 * 8 * 2), &first);
        let one = resample_pair(&x, (2, 5, 3, 4, 2), (&first, &second));
        assert_eq!(one, two);
        let first = Taps::nearest(5, 10, (exact, true), Some(2));
        let second = Taps::nearest(4, 7, (exact, true), None);
        let two = resample_axis(&x, (2 * 5 * 3, 4, 2), &second);
        let two = resample_axis(&two, (2, 5, 3 * 7 * 2), &first);
        let one = resample_pair(&x, (2, 5, 3, 4, 2), (&first, &second));
        assert_eq!(one, two);
    }
    // Large enough to split over threads: each piece starts with no slab held.
    let x: Vec<f64> = (0..64 * 40 * 30).map(|i| ((i * 7) % 11) as f64).collect();
    let (first, second) = (Taps::linear(40, 80, false), Taps::linear(30, 60, false));
    let two = resample_axis(&x, (64 * 40, 30, 1), &second);
    let two = resample_axis(&two, (64, 40, 60), &first);
    assert_eq!(
        resample_pair(&x, (64, 40, 1, 30, 1), (&first, &second)),
        two
    );
}

#[test]
fn doubling_reads_each_element_twice() {
    let t = Taps::nearest(3, 6, (false, true), Some(2));
    let y = resample_axis(&[1.0f32, 2.0, 3.0], (1, 3, 1), &t);
    assert_eq!(y, [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
    let t = Taps::linear(2, 4, false);
    let y = resample_axis(&[0.0f64, 4.0], (1, 2, 1), &t);
    assert_eq!(y, [0.0, 1.0, 3.0, 4.0]);
}

#[test]
fn wide_taps_weigh_to_one_and_stay_in_the_axis() {
    // Every output position's weights sum to 1 (a constant input stays constant), and
    // every run lies inside the axis, for shrinking, growing and equal lengths.
    for n in (1..40).chain([97, 500]) {
        for m in (1..40).chain([97, 500]) {
            for taps in [
                Taps::cubic(n, m, n % 2 == 0),
                Taps::area(n, m),
                Taps::antialiased(n, m, false, false),
                Taps::antialiased(n, m, m % 3 == 0, true),
            ] {
                let wide = taps.wide.as_ref().expect("wide taps");
                assert_eq!(wide.spans.len(), m);
                // The room the plan makes for them (`Resampling::new`).
                assert!(wide.weights.len() <= 4 * (n + m), "{n} to {m}");
                for &(first, at, len) in &wide.spans {
                    assert!(len >= 1 && first + len <= n, "{n} to {m}: {first}+{len}");
                    let sum: f64 = wide.weights[at..at + len].iter().sum();
                    assert!((sum - 1.0).abs() < 1e-12, "{n} to {m}: {sum}");
                }
            }
        }
    }
    // Area halving averages pairs; cubic at an integer source reads it alone.
    let y = resample_axis(&[1.0f64, 3.0, 5.0, 9.0], (1, 4, 1), &Taps::area(4, 2));
    assert_eq!(y, [2.0, 7.0]);
    let y = resample_axis(&[1.0f64, 3.0, 5.0], (1, 3, 1), &Taps::cubic(3, 3, true));
    assert_eq!(y, [1.0, 3.0, 5.0]);
}
