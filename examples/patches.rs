//! Images `[BATCH, CHANNEL: 3, H: 32, W: 32]` cut into 4×4 patches, as a vision transformer's
//! input layer does, with named shape surgery only: `split_axis` turns `H` into `PH: 8, H4: 4`
//! and `W` into `PW: 8, W4: 4` (views), `align_to` moves the patch grid in front
//! `[BATCH, PH: 8, PW: 8, CHANNEL: 3, H4: 4, W4: 4]` (a view), and `merge_axes` makes
//! `[BATCH, PATCH: 64, FEAT: 48]` (one copy, where the permuted axes stop being contiguous).
//! Every intermediate type is written out to show what the compiler computed; the result is
//! checked against a naive loop.
//!
//! Run: `cargo run --example patches`

use shapecast::{names, shape, Tensor, S};

names!(BATCH, CHANNEL, H, W, PH, PW, H4, W4, PATCH, FEAT);

// The batch axis is named (`BATCH`), not `?`: an unnamed axis is a wildcard a name without
// namesake may take (rule book §2), so with `?` an operand of the wrong shape can broadcast
// into the batch axis instead of being refused.
type Images = shape![BATCH, CHANNEL: 3, H: 32, W: 32];
type Cells = shape![BATCH, CHANNEL: 3, PH: 8, H4: 4, PW: 8, W4: 4];
type Grid = shape![BATCH, PH: 8, PW: 8, CHANNEL: 3, H4: 4, W4: 4];
type Patches = shape![BATCH, PATCH: 64, FEAT: 48];

fn main() -> Result<(), shapecast::Error> {
    let batch = 2;
    let img = Tensor::<f32, Images>::from_fn(&[batch, 3, 32, 32], |i| {
        (i[0] * 10_000 + i[1] * 1000 + i[2] * 32 + i[3]) as f32
    })?;

    // H: 32 → PH: 8, H4: 4 and W: 32 → PW: 8, W4: 4. A wrong product (say `H4<S<5>>`) does
    // not compile.
    let rows = img.split_axis::<H, (PH<S<8>>, H4<S<4>>)>()?;
    let cells = rows.split_axis::<W, (PW<S<8>>, W4<S<4>>)>()?;
    let _: &shapecast::TensorView<'_, f32, Cells> = &cells;

    // The patch grid in front, by name: no index arithmetic, no copy yet.
    let grid = cells.align_to::<Grid>()?;

    // (PH, PW) → PATCH: 64 and (CHANNEL, H4, W4) → FEAT: 48; the sizes are checked at
    // compile time (`PATCH<S<63>>` does not compile). The first merge copies: PH and PW are
    // not adjacent in memory any more.
    let by_patch = grid.merge_axes::<(PH, PW), PATCH<S<64>>>()?;
    println!(
        "merging (PH, PW): {}",
        if by_patch.is_view() {
            "a view"
        } else {
            "a copy"
        }
    );
    let patches: Tensor<f32, Patches> = by_patch
        .view()
        .merge_axes::<(CHANNEL, H4, W4), FEAT<S<48>>>()?
        .into_tensor();
    assert_eq!(patches.sizes(), &[batch, 64, 48]);

    // The naive loop: patch p = (ph, pw), feature f = (c, h4, w4).
    for b in 0..batch {
        for ph in 0..8 {
            for pw in 0..8 {
                for c in 0..3 {
                    for h4 in 0..4 {
                        for w4 in 0..4 {
                            let want = img.at(&[b, c, ph * 4 + h4, pw * 4 + w4])?;
                            let got = patches.at(&[b, ph * 8 + pw, c * 16 + h4 * 4 + w4])?;
                            assert_eq!(
                                got, want,
                                "b {b} patch ({ph}, {pw}) feature ({c}, {h4}, {w4})"
                            );
                        }
                    }
                }
            }
        }
    }
    println!(
        "{} → {}: every element where the naive loop puts it",
        img.shape(),
        patches.shape()
    );
    Ok(())
}
