//! Layer normalisation over `EMBED` of activations `[BATCH, SEQ, EMBED: 64]`, with a learned scale
//! `gamma` and shift `beta` of shape `[EMBED: 64]`: the mean and variance over `EMBED` have
//! shape `[BATCH, SEQ]` and line up by name. Written with the operators on owned and borrowed
//! tensors, checked against a naive loop.
//!
//! Run: `cargo run --example layer_norm`

use shapecast::{names, shape, FloatMath, Reductions, Tensor};

names!(BATCH, SEQ, EMBED);

// The batch axis is named (`BATCH`), not `?`: an unnamed axis is a wildcard a name without
// namesake may take (rule book §2), so with `?` an operand of the wrong shape can broadcast
// into the batch axis instead of being refused.
type Activations = shape![BATCH, SEQ, EMBED: 64];
type Params = shape![EMBED: 64];

fn layer_norm(
    x: &Tensor<f32, Activations>,
    gamma: &Tensor<f32, Params>,
    beta: &Tensor<f32, Params>,
) -> Tensor<f32, Activations> {
    let mean: Tensor<f32, shape![BATCH, SEQ]> = x.mean::<EMBED>();
    let var: Tensor<f32, shape![BATCH, SEQ]> = x.var::<EMBED>();
    (x - &mean) / (var + 1e-5).sqrt() * gamma + beta
}

fn main() -> Result<(), shapecast::Error> {
    let (batch, seq) = (2, 5);
    let x = Tensor::<f32, Activations>::from_fn(&[batch, seq, 64], |i| {
        ((i[0] * 13 + i[1] * 7 + i[2] * 5) % 17) as f32 * 0.25 - 1.5
    })?;
    let gamma = Tensor::<f32, Params>::from_fn(&[64], |i| 1.0 + i[0] as f32 / 64.0)?;
    let beta = Tensor::<f32, Params>::from_fn(&[64], |i| i[0] as f32 / 128.0 - 0.25)?;
    let y = layer_norm(&x, &gamma, &beta);

    for b in 0..batch {
        for s in 0..seq {
            let row: Vec<f32> = (0..64).map(|e| *x.at(&[b, s, e]).unwrap()).collect();
            let m = row.iter().sum::<f32>() / 64.0;
            let v = row.iter().map(|r| (r - m) * (r - m)).sum::<f32>() / 64.0;
            for (e, r) in row.iter().enumerate() {
                let want = (r - m) / (v + 1e-5).sqrt() * gamma.data()[e] + beta.data()[e];
                let got = *y.at(&[b, s, e])?;
                assert!((got - want).abs() < 1e-4, "{got} vs {want}");
            }
        }
    }
    println!(
        "layer norm over EMBED of {}: checked against a naive loop",
        y.shape()
    );
    Ok(())
}
