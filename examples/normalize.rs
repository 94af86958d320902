//! Per-channel normalisation of a batch of images `[BATCH, CHANNEL: 3, H, W]`: the mean and the
//! standard deviation over `(BATCH, H, W)` have shape
//! `[CHANNEL: 3]`, and `(x - mean) / std` lines them up with the images by name, with no
//! `keepdims` and no reshape. Checked against a naive loop.
//!
//! Run: `cargo run --example normalize`

use shapecast::{names, shape, Reductions, Tensor};

names!(BATCH, CHANNEL, H, W);

// The batch axis is named (`BATCH`), not `?`: an unnamed axis is a wildcard a name without
// namesake may take (rule book §2), so with `?` an operand of the wrong shape can broadcast
// into the batch axis instead of being refused.
type Images = shape![BATCH, CHANNEL: 3, H, W];

fn main() -> Result<(), shapecast::Error> {
    let (n, h, w) = (4, 5, 6);
    let x = Tensor::<f64, Images>::from_fn(&[n, 3, h, w], |i| {
        (i[1] * 50) as f64 + ((i[0] * 7 + i[2] * 3 + i[3]) % 11) as f64 * (i[1] + 1) as f64
    })?;

    let mean: Tensor<f64, shape![CHANNEL: 3]> = x.mean::<(BATCH, H, W)>();
    let std: Tensor<f64, shape![CHANNEL: 3]> = x.std::<(BATCH, H, W)>();
    let z: Tensor<f64, Images> = (&x - &mean) / &std;
    println!("per-channel mean {:?}", mean.data());
    println!("per-channel std  {:?}", std.data());

    // The naive loop over the same data.
    for c in 0..3 {
        let values: Vec<f64> = (0..n)
            .flat_map(|b| (0..h).flat_map(move |i| (0..w).map(move |j| [b, c, i, j])))
            .map(|idx| *x.at(&idx).unwrap())
            .collect();
        let m = values.iter().sum::<f64>() / values.len() as f64;
        let s =
            (values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / values.len() as f64).sqrt();
        assert!((mean.data()[c] - m).abs() < 1e-9 && (std.data()[c] - s).abs() < 1e-9);
        for b in 0..n {
            for i in 0..h {
                for j in 0..w {
                    let want = (x.at(&[b, c, i, j])? - m) / s;
                    assert!((z.at(&[b, c, i, j])? - want).abs() < 1e-9);
                }
            }
        }
    }
    // Normalised: every channel now has mean 0 and standard deviation 1.
    let m2 = z.mean::<(BATCH, H, W)>();
    let s2 = z.std::<(BATCH, H, W)>();
    assert!(m2.iter().all(|m| m.abs() < 1e-12) && s2.iter().all(|s| (s - 1.0).abs() < 1e-12));
    println!(
        "normalised: channel means {:?}, stds {:?}",
        m2.data(),
        s2.data()
    );
    Ok(())
}
