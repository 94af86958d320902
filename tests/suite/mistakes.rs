//! Mistakes the types cannot catch, kept as tests so that the guide's page on them
//! (`shapecast::guide::mistakes`) states what the code does. Their refused counterparts (with a named
//! batch axis) are the `ui-tests/mistake_*.rs` cases.

use shapecast::{names, shape, Dot, FloatMath, Reductions, Tensor};

names!(BATCH, SEQ, KSEQ, HEADS, DK, HIDDEN, EMBED, CLASS);

/// With `?` for the batch, an operand whose name has no namesake takes the batch axis: at
/// batch 1 the sum stretches it to the operand's size.
#[test]
fn an_unnamed_batch_is_a_wildcard_a_stray_operand_takes() {
    let h = Tensor::<f32, shape![?, SEQ, HIDDEN: 4]>::zeros_sized(&[1, 2, 4]).unwrap();
    let bias = Tensor::<f32, shape![EMBED: 3]>::ones().unwrap();
    let wrong = &h + &bias;
    assert_eq!(wrong.sizes(), &[3, 2, 4]);
    assert_eq!(wrong.shape().to_string(), "[EMBED: 3, SEQ: 2, HIDDEN: 4]");
}

/// With `?` for the batch, keys left as `SEQ` contract as a batch axis, and the mask's `KSEQ`
/// takes the unnamed batch axis: the scores compile with the wrong meaning.
#[test]
fn keys_not_renamed_compile_when_the_batch_is_unnamed() {
    let q = Tensor::<f32, shape![?, SEQ, HEADS: 2, DK: 4]>::ones_sized(&[1, 3, 2, 4]).unwrap();
    let k = q.clone();
    let mask = Tensor::<f32, shape![SEQ, KSEQ]>::zeros_sized(&[3, 3]).unwrap();
    let scores = q.dot::<DK>(&k) + &mask;
    // One score per query position and head, stretched over the mask's keys where the batch was.
    assert_eq!(scores.shape().to_string(), "[KSEQ: 3, SEQ: 3, HEADS: 2]");
}

/// A reduction over the wrong named axis keeps every shape valid: nothing catches it.
#[test]
fn softmax_over_the_wrong_axis_compiles() {
    let logits =
        Tensor::<f32, shape![BATCH, CLASS: 3]>::from_fn(&[2, 3], |i| (i[0] * 3 + i[1]) as f32)
            .unwrap();
    let right = logits.softmax::<CLASS>();
    let wrong = logits.softmax::<BATCH>();
    assert_eq!(right.sizes(), wrong.sizes());
    assert!(right
        .iter()
        .zip(wrong.iter())
        .any(|(a, b)| (a - b).abs() > 1e-3));
    // Layer norm's mean over SEQ instead of EMBED broadcasts back just as well.
    let x =
        Tensor::<f32, shape![BATCH, SEQ, EMBED: 4]>::from_fn(&[1, 3, 4], |i| (i[1] + i[2]) as f32)
            .unwrap();
    let over_seq = &x - &x.mean::<SEQ>();
    let over_embed = &x - &x.mean::<EMBED>();
    assert_eq!(over_seq.sizes(), over_embed.sizes());
    assert_ne!(over_seq.data(), over_embed.data());
    let _ = (&x).exp();
}
