//! Half-precision elements against files PyTorch and NumPy wrote (`scripts/gen_half_files.py`,
//! in tests/data/io): PyTorch's own f32 → bf16/f16 conversions equal `Cast`'s bit for bit,
//! checkpoints stored as BF16/F16 read as they are or widened, and typed tensors of several
//! element types saved in one call come back equal.
#![cfg(all(feature = "npy", feature = "safetensors"))]

use shapecast::io::{self, SafetensorsTensor};
use shapecast::{bf16, f16, names, shape, Cast, DynTensor, Error, Reductions, Tensor};

names!(ROW, COL, OUT, IN);

type Src = shape![ROW: 5, COL: 17];

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/io")
        .join(name)
}

fn file() -> io::Weights {
    io::load_safetensors(data("half.safetensors")).unwrap()
}

/// The same float bit for bit, or both NaN (PyTorch and `half` may pick other NaN payloads).
fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn casting_to_bf16_and_f16_rounds_as_pytorch_does() {
    let w = file();
    let src = w.get::<f32, Src>("src").unwrap();
    let torch_bf16 = w.get::<bf16, Src>("src_bf16").unwrap();
    let torch_f16 = w.get::<f16, Src>("src_f16").unwrap();
    let ours_bf16 = src.cast::<bf16>();
    let ours_f16 = src.cast::<f16>();
    for (i, (a, b)) in ours_bf16.iter().zip(torch_bf16.iter()).enumerate() {
        let (a, b) = (a.to_f64(), b.to_f64());
        assert!(
            same_bits(a, b),
            "bf16 element {i}: {a} against PyTorch's {b}"
        );
    }
    for (i, (a, b)) in ours_f16.iter().zip(torch_f16.iter()).enumerate() {
        let (a, b) = (a.to_f64(), b.to_f64());
        assert!(
            same_bits(a, b),
            "f16 element {i}: {a} against PyTorch's {b}"
        );
    }
    // The edges are there: f16 overflows to inf past 65504, bf16 keeps 1e5 finite.
    assert!(ours_f16.data()[11].to_f32().is_infinite());
    assert!(ours_bf16.data()[11].to_f32().is_finite());
}

#[test]
fn half_checkpoints_widen_into_f32_and_f64_as_pytorch_widens_them() {
    let w = file();
    let wide = w.get_widened::<f32, Src>("src_bf16").unwrap();
    let torch = w.get::<f32, Src>("bf16_as_f32").unwrap();
    assert!(wide
        .iter()
        .zip(torch.iter())
        .all(|(a, b)| same_bits(*a as f64, *b as f64)));
    let wide = w.get_widened::<f64, Src>("src_f16").unwrap();
    let torch = w.get::<f64, Src>("f16_as_f64").unwrap();
    assert!(wide
        .iter()
        .zip(torch.iter())
        .all(|(a, b)| same_bits(*a, *b)));
    // The widening reads the stored type as it is too, and at run time.
    let as_is = w.get_widened::<f32, Src>("src").unwrap();
    let src = w.get::<f32, Src>("src").unwrap();
    assert!(as_is
        .iter()
        .zip(src.iter())
        .all(|(a, b)| same_bits(*a as f64, *b as f64)));
    let d = w.get_dyn_widened::<f32>("src_f16").unwrap();
    assert_eq!(d.sizes(), &[5, 17]);
}

#[test]
fn a_stored_type_the_call_does_not_take_is_refused_by_name() {
    let w = file();
    let strict = w.get::<f32, Src>("src_bf16").unwrap_err();
    assert!(matches!(strict, Error::FileElement { .. }), "{strict}");
    let text = strict.to_string();
    assert!(
        text.contains("BF16") && text.contains("get_widened"),
        "{text}"
    );
    let ints = w.get_widened::<f32, shape![3]>("labels").unwrap_err();
    assert!(
        ints.to_string().contains("I32, not F16, BF16 or F32"),
        "{ints}"
    );
    // f32 does not take F64: the widening is lossless only.
    let path = std::env::temp_dir().join("shapecast-half-f64.safetensors");
    let t = Tensor::<f64, shape![2]>::from_array([1.0, 1e300]);
    io::save_safetensors(&path, &[("t", &t)]).unwrap();
    let e = io::load_safetensors(&path)
        .unwrap()
        .get_widened::<f32, shape![2]>("t")
        .unwrap_err();
    assert!(e.to_string().contains("F64"), "{e}");
}

#[test]
fn tensors_of_several_types_and_shapes_save_in_one_call() {
    let w =
        Tensor::<f32, shape![OUT: 2, IN: 3]>::from_fn(&[2, 3], |i| (i[0] * 3 + i[1]) as f32 / 7.0)
            .unwrap();
    let half = w.cast::<bf16>();
    let transposed = w.align_to::<shape![IN: 3, OUT: 2]>().unwrap();
    let steps = Tensor::<i64, shape![1]>::from_array([12]);
    let d: DynTensor<f16> = w.to_dyn().cast();
    let path = std::env::temp_dir().join("shapecast-half-mixed.safetensors");
    let stored: [(&str, &dyn SafetensorsTensor); 5] = [
        ("w", &w),
        ("w.bf16", &half),
        ("w.t", &transposed),
        ("steps", &steps),
        ("w.f16", &d),
    ];
    io::save_safetensors(&path, &stored).unwrap();
    let back = io::load_safetensors(&path).unwrap();
    assert_eq!(back.get::<f32, shape![OUT: 2, IN: 3]>("w").unwrap(), w);
    assert_eq!(
        back.get::<bf16, shape![OUT: 2, IN: 3]>("w.bf16").unwrap(),
        half
    );
    // The view is written in its own index order, with its names.
    let t = back.get::<f32, shape![IN: 3, OUT: 2]>("w.t").unwrap();
    assert_eq!(t, transposed.to_tensor());
    assert!(back.get::<f32, shape![OUT: 3, IN: 2]>("w.t").is_err());
    assert_eq!(back.get::<i64, shape![1]>("steps").unwrap(), steps);
    let f = back.get_dyn::<f16>("w.f16").unwrap();
    assert_eq!((f.shape(), f.data()), (d.shape(), d.data()));
}

#[test]
fn npy_float16_files_read_and_write() {
    let t = Tensor::<f16, shape![ROW: 2, COL: 3]>::read_npy(data("f16_2x3.npy")).unwrap();
    // NumPy's float16 of k/3: the nearest f16, as `f16::from_f32` gives it.
    let expected: Vec<f16> = (0..6).map(|k| f16::from_f32(k as f32 / 3.0)).collect();
    assert_eq!(t.data(), expected.as_slice());
    let path = std::env::temp_dir().join("shapecast-half.npy");
    t.write_npy(&path).unwrap();
    assert_eq!(DynTensor::<f16>::read_npy(&path).unwrap().data(), t.data());
    // As another element type, it is refused by name.
    let e = Tensor::<f32, shape![2, 3]>::read_npy(data("f16_2x3.npy")).unwrap_err();
    assert!(e.to_string().contains("f32"), "{e}");
}

#[test]
fn operators_run_on_half_tensors() {
    let a = Tensor::<bf16, shape![2]>::from_array([bf16::from_f32(1.5), bf16::from_f32(-2.0)]);
    let b = &a * bf16::from_f32(2.0) + &a;
    assert_eq!(b.cast::<f32>().data(), &[4.5, -6.0]);
}

#[test]
fn sums_of_half_tensors_add_in_f32_and_round_once() {
    // 100,000 values in [0, 1): summed in f32 and rounded once to the half type, where a
    // sum kept in bf16 would stall at 256 + 1 = 256 and one summed pairwise in bf16 drifts
    // by units in the last place.
    let v: Vec<f32> = (0..100_000)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let t = Tensor::<f32, shape![ROW]>::from_vec_sized(&[100_000], v).unwrap();
    let (b, h) = (t.cast::<bf16>(), t.cast::<f16>());
    // The f32 sum of the widened tensor, rounded: what PyTorch's `sum` returns.
    let b_want = bf16::from_f32(b.cast::<f32>().sum::<ROW>().data()[0]);
    let h_want = f16::from_f32(h.cast::<f32>().sum::<ROW>().data()[0]);
    assert_eq!(b.sum::<ROW>().data()[0], b_want);
    assert_eq!(h.sum::<ROW>().data()[0], h_want);
    // And that is the exact sum's nearest half (the f32 error is far below a half's step).
    let exact = |x: &[f64]| x.iter().sum::<f64>();
    let b_exact = exact(&b.iter().map(|x| x.to_f64()).collect::<Vec<_>>());
    let h_exact = exact(&h.iter().map(|x| x.to_f64()).collect::<Vec<_>>());
    assert_eq!(b_want, bf16::from_f64(b_exact));
    assert_eq!(h_want, f16::from_f64(h_exact));
    // Over one axis of several (the strided walk), kept and dropped, typed and at run time.
    let m = Tensor::<f32, shape![ROW: 3, COL: 4]>::from_array([
        [0.1, 0.2, 0.3, 0.4],
        [1.5, 2.5, 3.5, 4.5],
        [100.0, 0.01, 0.02, 0.03],
    ])
    .cast::<bf16>();
    let want: Vec<bf16> = m
        .cast::<f32>()
        .sum::<ROW>()
        .iter()
        .map(|&x| bf16::from_f32(x))
        .collect();
    assert_eq!(m.sum::<ROW>().data(), &want[..]);
    assert_eq!(m.sum_keep::<ROW>().data(), &want[..]);
    let rows = [shapecast::dynamic::reduce::AxisSelector::Pos(0)];
    assert_eq!(m.to_dyn().sum(&rows).unwrap().data(), &want[..]);
    let ones = Tensor::<bf16, shape![ROW]>::from_vec_sized(&[1000], vec![bf16::ONE; 1000]);
    assert_eq!(ones.unwrap().sum::<ROW>().data()[0].to_f32(), 1000.0);
}
