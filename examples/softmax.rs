//! Softmax over a named `CLASS` axis of logits `[BATCH, CLASS: 10]`, written out from `max`,
//! `exp` and `sum`: each reduction has shape `[BATCH]` and broadcasts back by name, so the batch
//! axis can never be confused with the class axis (NumPy's `keepdims` bug), then checked
//! against `softmax::<CLASS>()` and a naive loop.
//!
//! Run: `cargo run --example softmax`

use shapecast::{names, shape, FloatMath, Reductions, Tensor};

names!(BATCH, CLASS);

// The batch axis is named (`BATCH`), not `?`: an unnamed axis is a wildcard a name without
// namesake may take (rule book §2), so with `?` an operand of the wrong shape can broadcast
// into the batch axis instead of being refused.
type Logits = shape![BATCH, CLASS: 10];

fn main() -> Result<(), shapecast::Error> {
    // A batch of 10: the same size as CLASS, where a positional max without keepdims would
    // silently subtract the wrong thing.
    let batch = 10;
    let x = Tensor::<f32, Logits>::from_fn(&[batch, 10], |i| {
        ((i[0] * 31 + i[1] * 17) % 23) as f32 / 3.0 - 2.0
    })?;

    let max: Tensor<f32, shape![BATCH]> = x.max::<CLASS>();
    let e: Tensor<f32, Logits> = (&x - &max).exp();
    let total: Tensor<f32, shape![BATCH]> = e.sum::<CLASS>();
    let p: Tensor<f32, Logits> = &e / &total;

    let q = x.softmax::<CLASS>();
    for (a, b) in p.iter().zip(q.iter()) {
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
    }
    for row in 0..batch {
        let xs: Vec<f32> = (0..10).map(|c| *x.at(&[row, c]).unwrap()).collect();
        let m = xs.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let s: f32 = xs.iter().map(|v| (v - m).exp()).sum();
        for (c, v) in xs.iter().enumerate() {
            assert!((p.at(&[row, c])? - (v - m).exp() / s).abs() < 1e-6);
        }
    }
    let sums = p.sum::<CLASS>();
    assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-5));
    let best = x.argmax::<CLASS>();
    println!(
        "softmax over CLASS: rows sum to 1; predicted classes {:?}",
        best.data()
    );
    Ok(())
}
