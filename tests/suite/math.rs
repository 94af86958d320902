//! `FloatMath` on tensors: every function by value (the buffer reused) and by reference equal
//! to each other and to a naive loop over the elements with std's float functions, on inline
//! static, heap and `?`-sized typed tensors and on `DynTensor`; the scalar operators and
//! compound assignments owned and borrowed; and, with `rayon`, the split maps bit-identical to
//! one thread.

use shapecast::{names, shape, DynTensor, FloatMath, Tensor, Transcendental};

names!(ROW, COL);

/// Values over the interesting range, including ±0 and both signs.
fn values(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| match i % 7 {
            0 => 0.0,
            1 => -0.0,
            _ => ((i * 37 % 1001) as f64 - 500.0) / 37.0,
        })
        .collect()
}

/// Within `rel` of `want`, relatively (NaN equal to NaN). `gelu_erf` is held to 1e-10: in the
/// negative tail `1 + erf(x)` cancels, in libm and in the reference alike.
fn close(got: f64, want: f64, rel: f64) -> bool {
    (got.is_nan() && want.is_nan())
        || got == want
        || (got - want).abs() <= rel * want.abs().max(1e-300)
}

type Case = (
    &'static str,
    fn(Tensor<f64, shape![?, COL]>) -> Tensor<f64, shape![?, COL]>,
    fn(&Tensor<f64, shape![?, COL]>) -> Tensor<f64, shape![?, COL]>,
    fn(f64) -> f64,
    f64,
);

fn gelu_tanh(x: f64) -> f64 {
    0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
}

fn gelu_erf(x: f64) -> f64 {
    0.5 * x * (1.0 + erf_reference(x / std::f64::consts::SQRT_2))
}

/// erf computed independently of libm: its Maclaurin series below |x| = 2.5, the continued
/// fraction of erfc above, ±1 beyond |x| = 6 (where erfc is below 2^-53).
fn erf_reference(x: f64) -> f64 {
    if x.abs() > 6.0 {
        return x.signum();
    }
    // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1)); for large |x| the alternating series
    // loses digits, so the continued fraction for erfc takes over.
    if x.abs() < 2.5 {
        let (mut term, mut sum, mut n) = (x, x, 0.0);
        while term.abs() > 1e-18 * sum.abs() {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        2.0 / std::f64::consts::PI.sqrt() * sum
    } else {
        // erfc x = e^{-x²}/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))) (Lentz, 60 steps).
        let a = x.abs();
        let mut f = a;
        for k in (1..60).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        let erfc = (-a * a).exp() / std::f64::consts::PI.sqrt() / f;
        x.signum() * (1.0 - erfc)
    }
}

fn cases() -> Vec<Case> {
    vec![
        ("exp", |t| t.exp(), |t| t.exp(), f64::exp, 3e-16),
        (
            "ln",
            |t| t.abs().ln(),
            |t| t.map(f64::abs).ln(),
            |x| x.abs().ln(),
            3e-16,
        ),
        ("tanh", |t| t.tanh(), |t| t.tanh(), f64::tanh, 5e-16),
        (
            "sqrt",
            |t| t.abs().sqrt(),
            |t| t.map(f64::abs).sqrt(),
            |x| x.abs().sqrt(),
            0.0,
        ),
        ("abs", |t| t.abs(), |t| t.abs(), f64::abs, 0.0),
        ("recip", |t| t.recip(), |t| t.recip(), f64::recip, 0.0),
        ("square", |t| t.square(), |t| t.square(), |x| x * x, 0.0),
        (
            "powi(3)",
            |t| t.powi(3),
            |t| t.powi(3),
            |x| x.powi(3),
            3e-16,
        ),
        (
            "powi(-5)",
            |t| t.powi(-5),
            |t| t.powi(-5),
            |x| x.powi(-5),
            1e-15,
        ),
        (
            "powf(2.0)",
            |t| t.powf(2.0),
            |t| t.powf(2.0),
            |x| x.powf(2.0),
            3e-16,
        ),
        (
            "powf(0.5)",
            |t| t.abs().powf(0.5),
            |t| t.map(f64::abs).powf(0.5),
            |x| x.abs().powf(0.5),
            3e-16,
        ),
        (
            "powf(1.7)",
            |t| t.abs().powf(1.7),
            |t| t.map(f64::abs).powf(1.7),
            |x| x.abs().powf(1.7),
            0.0,
        ),
        (
            "relu",
            |t| t.relu(),
            |t| t.relu(),
            |x| if x < 0.0 { 0.0 } else { x },
            0.0,
        ),
        (
            "sigmoid",
            |t| t.sigmoid(),
            |t| t.sigmoid(),
            |x| 1.0 / (1.0 + (-x).exp()),
            5e-16,
        ),
        (
            "silu",
            |t| t.silu(),
            |t| t.silu(),
            |x| x / (1.0 + (-x).exp()),
            5e-16,
        ),
        ("gelu", |t| t.gelu(), |t| t.gelu(), gelu_tanh, 2e-15),
        (
            "gelu_erf",
            |t| t.gelu_erf(),
            |t| t.gelu_erf(),
            gelu_erf,
            1e-10,
        ),
    ]
}

#[test]
fn every_function_by_value_and_by_reference_matches_the_naive_loop() {
    // 3 × 40,000 elements: above the threshold at which the `rayon` build splits.
    let data = values(120_000);
    let t = Tensor::<f64, shape![?, COL]>::from_vec_sized(&[3, 40_000], data.clone()).unwrap();
    for (name, owned, borrowed, reference, rel) in cases() {
        let by_ref = borrowed(&t);
        let by_val = owned(t.clone());
        assert_eq!(by_ref.sizes(), t.sizes());
        for (i, ((&a, &b), &x)) in by_ref
            .data()
            .iter()
            .zip(by_val.data())
            .zip(&data)
            .enumerate()
        {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{name}: by value and by reference differ at {i}"
            );
            let want = reference(x);
            assert!(
                close(a, want, rel),
                "{name}({x}) = {a}, the naive loop {want}"
            );
        }
    }
}

#[test]
fn an_owned_tensor_lends_its_buffer() {
    let t = Tensor::<f32, shape![?]>::from_vec_sized(&[1000], vec![0.5; 1000]).unwrap();
    let before = t.data().as_ptr();
    let u = ((t * 2.0 + 1.0).tanh().exp() - 0.5).sigmoid();
    assert_eq!(
        u.data().as_ptr(),
        before,
        "every step wrote into the same buffer"
    );
    let want = 1.0 / (1.0 + (-(2f64.tanh().exp() - 0.5)).exp());
    assert!((u.data()[0] as f64 - want).abs() < 1e-6);
    // `&a op b` writes into `b`'s buffer when it has the output's shape.
    let a = Tensor::<f32, shape![ROW, COL]>::from_vec_sized(&[2, 500], vec![1.0; 1000]).unwrap();
    let b = Tensor::<f32, shape![ROW, COL]>::from_vec_sized(&[2, 500], vec![3.0; 1000]).unwrap();
    let at = b.data().as_ptr();
    let c = &a - b;
    assert_eq!((c.data().as_ptr(), c.data()[7]), (at, -2.0));
    // A right operand smaller than the output cannot hold it: a new buffer.
    let row = Tensor::<f32, shape![COL]>::from_vec_sized(&[500], vec![3.0; 500]).unwrap();
    assert_eq!((&a - row).data()[999], -2.0);
}

#[test]
fn scalar_operators_and_compound_assignment() {
    let t = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    assert_eq!((&t * 3).data(), &[3, 6, 9, 12, 15, 18]);
    assert_eq!((t.clone() - 1).data(), &[0, 1, 2, 3, 4, 5]);
    let mut u = t.clone();
    u *= 2;
    u += 1;
    u %= 4;
    assert_eq!(u.data(), &[3, 1, 3, 1, 3, 1]);
    let mut f = Tensor::<f64, shape![?]>::from_vec_sized(&[3], vec![1.0, 2.0, 4.0]).unwrap();
    f /= 2.0;
    f -= 0.5;
    assert_eq!(f.data(), &[0.0, 0.5, 1.5]);
    let mut bits = Tensor::<u8, shape![2]>::from_array([0b1100, 0b1010]);
    bits ^= 0b0110;
    assert_eq!(bits.data(), &[0b1010, 0b1100]);
}

#[test]
fn inline_static_tensors_and_dyn_tensors_agree_with_the_typed_heap_path() {
    let small =
        Tensor::<f32, shape![ROW: 2, COL: 3]>::from_array([[-1.0, 0.0, 1.0], [2.0, -3.0, 0.5]]);
    let heap = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[2, 3], small.data().to_vec()).unwrap();
    let dynamic = small.to_dyn();
    let want: Vec<f32> = small.data().iter().map(|&x| x.tanh_v()).collect();
    assert_eq!((&small).tanh().data(), &want[..]);
    assert_eq!(small.clone().tanh().data(), &want[..]);
    assert_eq!(heap.tanh().data(), &want[..]);
    assert_eq!((&dynamic).tanh().data(), &want[..]);
    let d2: DynTensor<f32> = dynamic.clone().gelu();
    assert_eq!(d2.shape(), dynamic.shape());
    assert_eq!(d2.data(), (&small).gelu().data());
    assert_eq!(
        small.map_into(|x| x * 2.0).data(),
        &[-2.0, 0.0, 2.0, 4.0, -6.0, 1.0]
    );
}

#[cfg(feature = "rayon")]
#[test]
fn split_maps_are_bit_identical_to_one_thread() {
    let data: Vec<f32> = values(300_001).into_iter().map(|x| x as f32).collect();
    let t = Tensor::<f32, shape![?]>::from_vec_sized(&[data.len()], data).unwrap();
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let (one, three) = (pool(1), pool(3));
    let run = |t: &Tensor<f32, shape![?]>| {
        (t.gelu(), t.clone().exp(), t * 0.5, t.clone() + 1.0, {
            let mut u = t.clone();
            u *= 3.0;
            u
        })
    };
    let a = one.install(|| run(&t));
    let b = three.install(|| run(&t));
    assert_eq!(a, b);
}
