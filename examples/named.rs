//! The named and partly named design (seed "Tensor Broadcasting"): `img` + `lbl`, and the
//! label tensors `lbl_truth`, `lbl_prob`, `lbl_pred`, at compile time and on data.
//!
//! The seed leaves the batch axis unnamed (`?`), and so does this example, to show the rule
//! on the seed's own shapes. In a model, name it (`BATCH`): an unnamed axis is a wildcard
//! that a name without namesake may take (rule book §2), so `[?, SEQ, HIDDEN: 1024]` plus
//! `[EMBED: 256]` compiles and stretches the batch, where `[BATCH, SEQ, HIDDEN: 1024]` plus
//! `[EMBED: 256]` is a compile error (`shapecast::guide::mistakes`).
//!
//! Run: `cargo run --example named`

use shapecast::{broadcast, names, shape, Broadcast, DynShape, Rule, Shape, Tensor};

names!(CHANNEL, CLASS, SCALE1, SCALE2, SCALE3, H, W);

fn main() -> Result<(), shapecast::Error> {
    // img: (10, 3, 256, 384) named ? CHANNEL H W; lbl: (10, 256, 384) named ? H W.
    // The pairing the seed asks for: (0, 0) (2, 1) (3, 2), output (10, 3, 256, 384).
    type Img = shape![?, CHANNEL: 3, H, W];
    type Lbl = shape![?, H, W];
    static_assertions::assert_type_eq_all!(Broadcast<Img, Lbl>, Img);
    let b = broadcast(
        Rule::Named,
        &"[10, CHANNEL: 3, H: 256, W: 384]".parse()?,
        &"[10, H: 256, W: 384]".parse()?,
    )?;
    println!("img + lbl: {} (plan {})", b.shape, b.plan);
    assert_eq!(b.shape.to_string(), "[10, CHANNEL: 3, H: 256, W: 384]");
    assert_eq!(b.plan.to_string(), "0,1,2,3 ; 0,-,1,2");

    // The same on data (small sizes): every channel of img gets lbl added.
    let img = Tensor::<f32, Img>::from_fn(&[2, 3, 4, 5], |i| (i[1] * 100) as f32)?;
    let lbl = Tensor::<f32, Lbl>::from_fn(&[2, 4, 5], |i| (i[1] * 10 + i[2]) as f32)?;
    let sum = &img + &lbl;
    assert_eq!(*sum.at(&[1, 2, 3, 4])?, 234.0);
    println!(
        "img + lbl on data: {:?} -> element [1, 2, 3, 4] = {}",
        sum.sizes(),
        sum.at(&[1, 2, 3, 4])?
    );

    // The label tensors: truth (20, 512, 512) ? H W; probabilities (20, 3, 512, 512)
    // ? CLASS H W; predictions (20, 1, 17, 15, 512, 512) ? SCALE1 SCALE2 SCALE3 H W.
    type Truth = shape![?, H, W];
    type Prob = shape![?, CLASS: 3, H, W];
    type Pred = shape![?, SCALE1: 1, SCALE2: 17, SCALE3: 15, H, W];
    static_assertions::assert_type_eq_all!(Broadcast<Prob, Truth>, Prob);
    static_assertions::assert_type_eq_all!(Broadcast<Pred, Truth>, Pred);
    for (a, b) in [
        (Prob::to_dyn(), Truth::to_dyn()),
        (Pred::to_dyn(), Truth::to_dyn()),
    ] {
        let r = broadcast(Rule::Named, &a, &b)?;
        println!("{a} + {b} = {}", r.shape);
    }
    // Probabilities and predictions have no common frame: CLASS and SCALE3 would face.
    let refused = broadcast(Rule::Named, &Prob::to_dyn(), &Pred::to_dyn()).unwrap_err();
    println!("lbl_prob + lbl_pred: {refused}");
    // The outer rule keeps both instead.
    let outer = broadcast(Rule::Outer, &Prob::to_dyn(), &Pred::to_dyn())?;
    println!("lbl_prob (outer) lbl_pred = {}", outer.shape);

    // The unnamed case of the seed: (64, 32, 8, 5) with (32, 8, 1) broadcasts; with
    // (64, 32, 8) it does not.
    let x: DynShape = "[64, 32, 8, 5]".parse()?;
    assert!(broadcast(Rule::Numpy, &x, &"[32, 8, 1]".parse()?).is_ok());
    println!(
        "{}",
        broadcast(Rule::Numpy, &x, &"[64, 32, 8]".parse()?).unwrap_err()
    );
    Ok(())
}
