//! One setting timed against another in one process: this VM's speed drifts between runs
//! tens of seconds apart, which alternating every iteration cancels.

use std::time::Instant;

/// The medians (ms) of `f` run in a pool of one thread and on rayon's global pool, the two
/// alternating for `rounds`; each setting runs once untimed right before its timed run, so
/// each is timed warm (its threads awake), as in a loop of forward passes. Timed cold, the
/// pool's run would start with its workers asleep after the other's and measure them waking.
pub fn one_against_all(rounds: usize, mut f: impl FnMut() + Send) -> (f64, f64) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut timed = || {
        f();
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e3
    };
    let (mut alone, mut all) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        alone.push(one.install(&mut timed));
        all.push(timed());
    }
    (median(alone), median(all))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
