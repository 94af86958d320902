//! Sampling along a named axis (feature `rand`): temperature 0 and top-k 1 are the argmax,
//! draws follow the softmax's probabilities (20,000 draws from a seeded generator, within
//! 0.015 of each probability), top-k and top-p never draw what they cut, a seed repeats its
//! draws, and bad options are errors.
#![cfg(feature = "rand")]

use rand::SeedableRng;
use shapecast::{names, shape, DynTensor, Error, Reductions, Sampling, Tensor};

names!(T, VOCAB);

fn rng(seed: u64) -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(seed)
}

/// How often each index is drawn from `logits` in `n` draws.
fn frequencies(logits: [f64; 4], how: &Sampling, n: usize) -> [f64; 4] {
    let rows = vec![logits; n];
    let t = Tensor::<f64, shape![T, VOCAB: 4]>::from_vec_sized(&[n, 4], rows.concat()).unwrap();
    let picks = t.sample::<VOCAB>(how, &mut rng(11)).unwrap();
    let mut f = [0.0; 4];
    for &i in picks.data() {
        f[i] += 1.0 / n as f64;
    }
    f
}

#[test]
fn temperature_zero_and_top_k_one_are_the_argmax() {
    let logits = Tensor::<f32, shape![T: 3, VOCAB: 4]>::from_array([
        [0.0, 5.0, 1.0, 0.0],
        [2.0, 0.0, 0.0, 9.0],
        [1.0, 1.0, 0.5, 0.0], // a tie: the first
    ]);
    let want = logits.argmax::<VOCAB>();
    for how in [
        Sampling::default().temperature(0.0),
        Sampling::default().top_k(1),
    ] {
        assert_eq!(logits.sample::<VOCAB>(&how, &mut rng(1)).unwrap(), want);
        let d = logits
            .to_dyn()
            .sample(&"VOCAB".parse().unwrap(), &how, &mut rng(1))
            .unwrap();
        assert_eq!(d.data(), want.data());
    }
}

#[test]
fn draws_follow_the_softmax() {
    // Probabilities 1/10, 2/10, 3/10, 4/10.
    let logits = [1f64.ln(), 2f64.ln(), 3f64.ln(), 4f64.ln()];
    let f = frequencies(logits, &Sampling::default(), 20_000);
    for (got, want) in f.iter().zip([0.1, 0.2, 0.3, 0.4]) {
        assert!((got - want).abs() < 0.015, "{f:?}");
    }
    // Temperature 2 flattens: probabilities proportional to sqrt(1, 2, 3, 4).
    let f = frequencies(logits, &Sampling::default().temperature(2.0), 20_000);
    let roots: Vec<f64> = [1f64, 2.0, 3.0, 4.0].iter().map(|x| x.sqrt()).collect();
    let sum: f64 = roots.iter().sum();
    for (got, r) in f.iter().zip(&roots) {
        assert!((got - r / sum).abs() < 0.015, "{f:?}");
    }
}

#[test]
fn top_k_and_top_p_never_draw_what_they_cut() {
    let logits = [1f64.ln(), 2f64.ln(), 3f64.ln(), 4f64.ln()];
    // Top-2 keeps 3 and 4: 3/7 and 4/7.
    let f = frequencies(logits, &Sampling::default().top_k(2), 20_000);
    assert_eq!((f[0], f[1]), (0.0, 0.0));
    assert!((f[2] - 3.0 / 7.0).abs() < 0.015, "{f:?}");
    // Top-p 0.65: 0.4 + 0.3 = 0.7 reaches it, so index 1 and 0 are cut.
    let f = frequencies(logits, &Sampling::default().top_p(0.65), 20_000);
    assert_eq!((f[0], f[1]), (0.0, 0.0));
    assert!((f[3] - 4.0 / 7.0).abs() < 0.015, "{f:?}");
    // Top-p 1 keeps everything.
    let f = frequencies(logits, &Sampling::default().top_p(1.0), 20_000);
    assert!(f.iter().all(|&p| p > 0.05), "{f:?}");
}

#[test]
fn a_seed_repeats_its_draws() {
    let t = Tensor::<f32, shape![T, VOCAB: 3]>::from_vec_sized(&[50, 3], vec![0.3; 150]).unwrap();
    let how = Sampling::default().temperature(0.7);
    let a = t.sample::<VOCAB>(&how, &mut rng(5)).unwrap();
    let b = t.view().sample::<VOCAB>(&how, &mut rng(5)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, t.sample::<VOCAB>(&how, &mut rng(6)).unwrap());
}

#[test]
fn bad_options_are_errors_naming_them() {
    let t = Tensor::<f32, shape![VOCAB: 3]>::from_array([0.0, 1.0, 2.0]);
    for (how, says) in [
        (
            Sampling::default().temperature(-1.0),
            "temperature -1 is below 0",
        ),
        (Sampling::default().top_k(0), "top-k keeps at least one"),
        (Sampling::default().top_p(0.0), "top-p 0 is outside (0, 1]"),
        (
            Sampling::default().top_p(1.5),
            "top-p 1.5 is outside (0, 1]",
        ),
    ] {
        let err = t.sample::<VOCAB>(&how, &mut rng(0)).unwrap_err();
        assert!(matches!(err, Error::Gather { .. }), "{err}");
        assert!(err.to_string().contains(says), "{err}");
    }
    let empty =
        DynTensor::from_vec("[T: 2, VOCAB: 0]".parse().unwrap(), Vec::<f32>::new()).unwrap();
    let err = empty.sample(&"VOCAB".parse().unwrap(), &Sampling::default(), &mut rng(0));
    assert!(err.unwrap_err().to_string().contains("the axis has size 0"));
}
