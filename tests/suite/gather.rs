//! The gather family (rule book §21): `take`, `gather`, `one_hot`, `cross_entropy` and
//! `nll_loss` against PyTorch's values (`tests/data/torch_gather.jsonl`, written by
//! `scripts/gen_gather_cases.py`: 1- to 3-D, class weights, label smoothing, ignore_index
//! including PyTorch's default -100, the sum and mean reductions; `gather` along every axis of
//! 1- to 4-D sources) and against naive references; typed against run-time; every index
//! element type; the refusals' messages.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use serde_json::Value;
use shapecast::prelude::*;
use shapecast::{Loss, Reduction};

names!(N, CLASS, D, H, W, VOCAB, EMBED, B, T);

fn close(g: f64, w: f64, what: &str) {
    assert!(
        (g - w).abs() <= 1e-12 * (1.0 + w.abs()) || (g.is_nan() && w.is_nan()),
        "{what}: {g} against {w}"
    );
}

fn class_shape(sizes: &[usize]) -> DynShape {
    let spatial = ["D", "H", "W"];
    let d = sizes.len() - 2;
    let mut axes = vec![format!("N: {}", sizes[0]), format!("CLASS: {}", sizes[1])];
    for (j, n) in sizes[2..].iter().enumerate() {
        axes.push(format!("{}: {n}", spatial[3 - d + j]));
    }
    format!("[{}]", axes.join(", ")).parse().unwrap()
}

#[test]
fn losses_are_pytorchs() {
    let text = include_str!("../data/torch_gather.jsonl");
    let mut seen = 0;
    for line in text.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        if c["op"] == "gather" {
            continue;
        }
        let sizes: Vec<usize> = c["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let n: usize = sizes.iter().product();
        let logits: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin() * 3.0).collect();
        let x = DynTensor::from_vec(class_shape(&sizes), logits).unwrap();
        let mut tsizes = sizes.clone();
        tsizes.remove(1);
        let mut tshape = class_shape(&sizes).axes().to_vec();
        tshape.remove(1);
        let targets: Vec<i64> = c["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let t = DynTensor::from_vec(DynShape::new(tshape).unwrap(), targets).unwrap();
        let weight: Option<Vec<f64>> = c["weight"]
            .as_array()
            .map(|w| w.iter().map(|v| v.as_f64().unwrap()).collect());
        let mut opts = Loss::default().label_smoothing(c["smoothing"].as_f64().unwrap());
        if let Some(w) = &weight {
            opts = opts.weight(w);
        }
        if let Some(i) = c["ignore"].as_i64() {
            opts = opts.ignore_index(i);
        }
        let class = "CLASS".parse().unwrap();
        let logp = x.log_softmax(std::slice::from_ref(&class)).unwrap();
        let (got, reduced) = if c["op"] == "cross_entropy" {
            let r = |how| {
                x.cross_entropy_reduced(&class, &t, &opts, how)
                    .unwrap()
                    .data()[0]
            };
            let none = x.cross_entropy(&class, &t, &opts).unwrap();
            (none, [r(Reduction::Sum), r(Reduction::Mean)])
        } else {
            let r = |how| {
                logp.nll_loss_reduced(&class, &t, &opts, how)
                    .unwrap()
                    .data()[0]
            };
            let none = logp.nll_loss(&class, &t, &opts).unwrap();
            (none, [r(Reduction::Sum), r(Reduction::Mean)])
        };
        assert_eq!(got.sizes(), &tsizes[..]);
        for (g, w) in got.data().iter().zip(c["values"].as_array().unwrap()) {
            close(*g, w.as_f64().unwrap(), line);
        }
        close(reduced[0], c["sum"].as_f64().unwrap(), line);
        close(reduced[1], c["mean"].as_f64().unwrap(), line);
        seen += 1;
    }
    assert_eq!(seen, 48);
}

/// `gather` along every axis of 1- to 4-D sources is PyTorch's `gather`, with the indices as
/// `i64` and as `usize`.
#[test]
fn gather_is_pytorchs() {
    let names = ["P", "Q", "R", "U"];
    let shaped = |sizes: &[u64]| -> DynShape {
        let axes: Vec<String> = sizes
            .iter()
            .zip(names)
            .map(|(s, n)| format!("{n}: {s}"))
            .collect();
        format!("[{}]", axes.join(", ")).parse().unwrap()
    };
    let mut seen = 0;
    for line in include_str!("../data/torch_gather.jsonl").lines() {
        let c: Value = serde_json::from_str(line).unwrap();
        if c["op"] != "gather" {
            continue;
        }
        let list = |k: &str| -> Vec<u64> {
            c[k].as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        };
        let sizes = list("shape");
        let n: u64 = sizes.iter().product();
        let source = DynTensor::from_vec(
            shaped(&sizes),
            (0..n).map(|i| ((i * 7) % 11) as f64 - 5.0).collect(),
        )
        .unwrap();
        let indices: Vec<i64> = list("indices").into_iter().map(|i| i as i64).collect();
        let ishape = shaped(&list("index_shape"));
        let axis = names[c["axis"].as_u64().unwrap() as usize].parse().unwrap();
        let by_i64 = DynTensor::from_vec(ishape.clone(), indices.clone()).unwrap();
        let by_usize =
            DynTensor::from_vec(ishape, indices.iter().map(|&i| i as usize).collect()).unwrap();
        let got = source.gather(&axis, &by_i64).unwrap();
        assert_eq!(got.shape(), by_i64.shape());
        assert_eq!(got.data(), source.gather(&axis, &by_usize).unwrap().data());
        for (g, w) in got.data().iter().zip(c["values"].as_array().unwrap()) {
            assert_eq!(*g, w.as_f64().unwrap(), "{line}");
        }
        seen += 1;
    }
    assert_eq!(seen, 30);
}

proptest! {
    /// `take` along any axis of a rank-3 source by indices of rank 0 to 2 is the naive
    /// gather; `one_hot` of random labels has one 1 per row, at the label.
    #[test]
    fn take_and_one_hot_are_the_definitions(
        sizes in prop::collection::vec(1usize..5, 3),
        axis in 0usize..3,
        index_sizes in prop::collection::vec(1usize..4, 0..3),
        seed in any::<u64>(),
    ) {
        let names = ["P", "Q", "R"];
        let shape: DynShape = format!("[{}]", names.iter().zip(&sizes).map(|(n, s)| format!("{n}: {s}")).collect::<Vec<_>>().join(", ")).parse().unwrap();
        let x = DynTensor::from_fn(shape, |i| i[0] * 100 + i[1] * 10 + i[2]).unwrap();
        let ishape: DynShape = format!("[{}]", index_sizes.iter().enumerate().map(|(k, s)| format!("I{k}: {s}")).collect::<Vec<_>>().join(", ")).parse().unwrap();
        let count: usize = index_sizes.iter().product();
        let idx: Vec<usize> = (0..count).map(|k| ((seed >> (k % 60)) as usize + k) % sizes[axis]).collect();
        let it = DynTensor::from_vec(ishape, idx.clone()).unwrap();
        let got = x.take(&names[axis].parse().unwrap(), &it).unwrap();
        // Naive: for every output index, the source element at the looked-up position.
        let mut want = Vec::new();
        let outer: usize = sizes[..axis].iter().product();
        let inner: usize = sizes[axis + 1..].iter().product();
        for o in 0..outer {
            for &i in &idx {
                for r in 0..inner {
                    let mut full = [0; 3];
                    let mut oo = o;
                    for k in (0..axis).rev() { full[k] = oo % sizes[k]; oo /= sizes[k]; }
                    full[axis] = i;
                    let mut rr = r;
                    for k in (axis + 1..3).rev() { full[k] = rr % sizes[k]; rr /= sizes[k]; }
                    want.push(full[0] * 100 + full[1] * 10 + full[2]);
                }
            }
        }
        prop_assert_eq!(got.data(), &want[..]);
        let hot = it.one_hot::<i32>("CLASS", sizes[axis]).unwrap();
        for (row, &l) in hot.data().chunks(sizes[axis]).zip(&idx) {
            prop_assert_eq!(row.iter().sum::<i32>(), 1);
            prop_assert_eq!(row[l], 1);
        }
    }
}

/// The typed forms are the run-time ones: an embedding lookup, one-hot encoding, the losses;
/// `argmax` gives indices that `take` and `eq_elem` accept.
#[test]
fn typed_gathers_are_the_run_time_ones() {
    let embed =
        Tensor::<f32, shape![VOCAB: 5, EMBED: 3]>::from_fn(&[5, 3], |i| (i[0] * 3 + i[1]) as f32)
            .unwrap();
    let tokens = Tensor::<usize, shape![B, T]>::from_vec_sized(&[2, 2], vec![4, 0, 1, 4]).unwrap();
    let x: Tensor<f32, shape![B, T, EMBED: 3]> = embed.take::<VOCAB, _>(&tokens);
    let d = embed
        .to_dyn()
        .take(&"VOCAB".parse().unwrap(), &tokens.to_dyn())
        .unwrap();
    assert_eq!(x.data(), d.data());
    assert!(embed
        .try_take::<VOCAB, _>(&Tensor::<usize, shape![T: 1]>::from_vec(vec![5]).unwrap())
        .is_err());

    let logits = Tensor::<f64, shape![N: 2, CLASS: 3, H: 2]>::from_fn(&[2, 3, 2], |i| {
        ((i[0] * 7 + i[1] * 3 + i[2]) % 5) as f64 - 2.0
    })
    .unwrap();
    let labels: Tensor<usize, shape![N: 2, H: 2]> = logits.argmax::<CLASS>();
    let hits = labels.eq_elem(&labels).unwrap();
    assert!(hits.data().iter().all(|&h| h));
    let loss: Tensor<f64, shape![N: 2, H: 2]> = logits.cross_entropy::<CLASS>(&labels);
    let dl = logits
        .to_dyn()
        .cross_entropy(
            &"CLASS".parse().unwrap(),
            &labels.to_dyn(),
            &Loss::default(),
        )
        .unwrap();
    assert_eq!(loss.data(), dl.data());
    let w = [1.0, 2.0, 0.5];
    let opts = Loss::default().weight(&w).label_smoothing(0.2);
    let lw = logits.try_cross_entropy::<CLASS>(&labels, &opts).unwrap();
    let dw = logits
        .to_dyn()
        .cross_entropy(&"CLASS".parse().unwrap(), &labels.to_dyn(), &opts)
        .unwrap();
    assert_eq!(lw.data(), dw.data());

    let hot: Tensor<f32, shape![N: 2, H: 2, CLASS: 3]> = labels.one_hot::<CLASS<S<3>>, f32>();
    let dh = labels.to_dyn().one_hot::<f32>("CLASS", 3).unwrap();
    assert_eq!(hot.data(), dh.data());
    assert_eq!(hot.sum::<CLASS>().data(), &[1.0; 4]);
}

proptest! {
    /// `gather` along any axis of a rank-3 source, by indices with that axis at any place,
    /// is the definition: at every index position, the source element at the same named
    /// positions with the gathered axis replaced by the index there.
    #[test]
    fn gather_by_name_is_the_definition(
        sizes in prop::collection::vec(1usize..4, 3),
        axis in 0usize..3,
        place in 0usize..3,
        m in 1usize..4,
        seed in any::<u64>(),
    ) {
        let names = ["P", "Q", "R"];
        let shape: DynShape = format!("[{}]", names.iter().zip(&sizes).map(|(n, s)| format!("{n}: {s}")).collect::<Vec<_>>().join(", ")).parse().unwrap();
        let x = DynTensor::from_fn(shape, |i| (i[0] * 100 + i[1] * 10 + i[2]) as i32).unwrap();
        let mut isizes = sizes.clone();
        isizes[axis] = m;
        // Index axis k is the source's axis order[k]: the others in order, `axis` at `place`.
        let mut order: Vec<usize> = (0..3).filter(|&a| a != axis).collect();
        order.insert(place, axis);
        let ishape: DynShape = format!("[{}]", order.iter().map(|&a| format!("{}: {}", names[a], isizes[a])).collect::<Vec<_>>().join(", ")).parse().unwrap();
        let idx = DynTensor::from_fn(ishape, |i| (((seed >> ((i[0] + 3 * i[1] + 7 * i[2]) % 60)) as usize + i[0] + i[2]) % sizes[axis]) as i64).unwrap();
        let got = x.gather(&names[axis].parse().unwrap(), &idx).unwrap();
        let mut k = 0;
        for a in 0..isizes[order[0]] {
            for b in 0..isizes[order[1]] {
                for c in 0..isizes[order[2]] {
                    let mut at = [0usize; 3];
                    at[order[0]] = a;
                    at[order[1]] = b;
                    at[order[2]] = c;
                    at[axis] = idx.data()[k] as usize;
                    prop_assert_eq!(got.data()[k], (at[0] * 100 + at[1] * 10 + at[2]) as i32);
                    k += 1;
                }
            }
        }
    }
}

/// Indices and labels of every element type give the same results, and a negative one is
/// refused by name (never wrapped), at both levels.
#[test]
fn every_index_type_is_accepted_and_negatives_refused() {
    let embed = DynTensor::from_fn("[VOCAB: 5, E: 2]".parse().unwrap(), |i| {
        (i[0] * 2 + i[1]) as f32
    })
    .unwrap();
    let vocab = "VOCAB".parse().unwrap();
    let want = embed
        .take(
            &vocab,
            &DynTensor::from_vec("[T: 3]".parse().unwrap(), vec![4usize, 0, 2]).unwrap(),
        )
        .unwrap();
    macro_rules! each {
        ($($t:ty),*) => {$(
            let idx = DynTensor::from_vec("[T: 3]".parse().unwrap(), vec![4 as $t, 0, 2]).unwrap();
            assert_eq!(embed.take(&vocab, &idx).unwrap(), want);
            assert_eq!(idx.one_hot::<f32>("CLASS", 5).unwrap(), DynTensor::from_vec("[T: 3]".parse().unwrap(), vec![4usize, 0, 2]).unwrap().one_hot::<f32>("CLASS", 5).unwrap());
        )*};
    }
    each!(usize, u32, u64, i32, i64);
    let negative = DynTensor::from_vec("[T: 3]".parse().unwrap(), vec![4i64, -1, 2]).unwrap();
    assert_eq!(
        embed.take(&vocab, &negative).unwrap_err().to_string(),
        "cannot take [VOCAB: 5, E: 2] along VOCAB by [T: 3]: index -1 at [1] is negative"
    );
    assert_eq!(
        negative.one_hot::<f32>("CLASS", 5).unwrap_err().to_string(),
        "cannot one_hot [T: 3] along CLASS: label -1 at position 1 is not in 0..5"
    );
    // A loss ignores PyTorch's -100 by default, and refuses any other negative target.
    let logits = DynTensor::from_vec("[N: 2, CLASS: 3]".parse().unwrap(), vec![0.0f64; 6]).unwrap();
    let class = "CLASS".parse().unwrap();
    let t = |v: Vec<i64>| DynTensor::from_vec("[N: 2]".parse().unwrap(), v).unwrap();
    assert_eq!(
        logits
            .cross_entropy(&class, &t(vec![1, -100]), &Loss::default())
            .unwrap()
            .data()[1],
        0.0
    );
    assert_eq!(
        logits.cross_entropy(&class, &t(vec![1, -100]), &Loss::default().ignore_none()).unwrap_err().to_string(),
        "cannot cross_entropy [N: 2, CLASS: 3] along CLASS against [N: 2]: target -100 at position 1 is not a class: there are 3"
    );
    assert!(logits
        .cross_entropy(&class, &t(vec![-1, 0]), &Loss::default())
        .is_err());

    let typed = Tensor::<f32, shape![VOCAB: 5, EMBED: 2]>::from_vec(embed.data().to_vec()).unwrap();
    let neg = Tensor::<i32, shape![T: 2]>::from_array([0, -3]);
    assert_eq!(
        typed.try_take::<VOCAB, _>(&neg).unwrap_err().to_string(),
        "cannot take [VOCAB: 5, EMBED: 2] along VOCAB by [T: 2]: index -3 at [1] is negative"
    );
}

/// The typed `gather`, typed losses with typed class weights and their reductions are the
/// run-time ones.
#[test]
fn typed_gather_and_reductions_are_the_run_time_ones() {
    let logits = Tensor::<f64, shape![N: 3, CLASS: 4]>::from_fn(&[3, 4], |i| {
        ((i[0] * 5 + i[1] * 3) % 7) as f64 * 0.3
    })
    .unwrap();
    let labels = Tensor::<i64, shape![N: 3, CLASS: 1]>::from_array([[3], [0], [2]]);
    let picked: Tensor<f64, shape![N: 3, CLASS: 1]> = logits.gather::<CLASS, _>(&labels);
    let dyn_picked = logits
        .to_dyn()
        .gather(&"CLASS".parse().unwrap(), &labels.to_dyn())
        .unwrap();
    assert_eq!(picked.data(), dyn_picked.data());
    assert_eq!(
        picked.data(),
        &[logits.data()[3], logits.data()[4], logits.data()[10]]
    );
    // Indices in the other order, by name: [CLASS: 2, N: 3].
    let across = Tensor::<u32, shape![CLASS: 2, N: 3]>::from_array([[0, 1, 2], [3, 3, 3]]);
    let by_name: Tensor<f64, shape![CLASS: 2, N: 3]> = logits.gather::<CLASS, _>(&across);
    assert_eq!(by_name.data()[1], logits.data()[5]); // CLASS row 0, N 1: class 1 of sample 1
    assert_eq!(by_name.data()[5], logits.data()[11]);

    let targets = Tensor::<i64, shape![N: 3]>::from_array([3, -100, 1]);
    let w = Tensor::<f64, shape![CLASS: 4]>::from_array([1.0, 2.0, 0.5, 4.0]);
    let typed_opts = Loss::default().class_weights(&w).label_smoothing(0.1);
    let slice_opts = Loss::default().weight(w.data()).label_smoothing(0.1);
    let dyn_logits = logits.to_dyn();
    let class = "CLASS".parse().unwrap();
    for how in [Reduction::Sum, Reduction::Mean] {
        let typed: Tensor<f64, shape![]> = logits
            .try_cross_entropy_reduced::<CLASS>(&targets, &typed_opts, how)
            .unwrap();
        let run = dyn_logits
            .cross_entropy_reduced(&class, &targets.to_dyn(), &slice_opts, how)
            .unwrap();
        assert_eq!(typed.data(), run.data());
    }
    let per = logits
        .try_cross_entropy::<CLASS>(&targets, &typed_opts)
        .unwrap();
    let sum: f64 = per.data().iter().sum();
    let mean = logits
        .try_cross_entropy_reduced::<CLASS>(&targets, &typed_opts, Reduction::Mean)
        .unwrap();
    close(mean.data()[0], sum / (4.0 + 2.0), "weighted mean");
    // Every target ignored: a mean of nothing is NaN, as PyTorch's.
    let none = Tensor::<i64, shape![N: 3]>::from_array([-100; 3]);
    assert!(logits
        .try_cross_entropy_reduced::<CLASS>(&none, &Loss::default(), Reduction::Mean)
        .unwrap()
        .data()[0]
        .is_nan());
}

/// What the gathers refuse at run time, each naming the shapes and the fault.
#[test]
fn gather_refusals_name_shapes_and_fault() {
    let embed = DynTensor::from_vec("[VOCAB: 3, E: 2]".parse().unwrap(), vec![0.0f32; 6]).unwrap();
    let t = |shape: &str, v: Vec<usize>| DynTensor::from_vec(shape.parse().unwrap(), v).unwrap();
    let msg = |r: Result<DynTensor<f32>, Error>| r.unwrap_err().to_string();
    assert_eq!(
        msg(embed.take(&"V".parse().unwrap(), &t("[T: 1]", vec![0]))),
        "cannot take [VOCAB: 3, E: 2] along V by [T: 1]: it has no axis V"
    );
    assert_eq!(
        msg(embed.take(&"VOCAB".parse().unwrap(), &t("[E: 1]", vec![0]))),
        "cannot take [VOCAB: 3, E: 2] along VOCAB by [E: 1]: the indices' axis E would name a second axis of the result: rename one"
    );
    let logits = DynTensor::from_vec("[N: 2, CLASS: 3]".parse().unwrap(), vec![0.0f32; 6]).unwrap();
    let class = "CLASS".parse().unwrap();
    assert_eq!(
        msg(logits.cross_entropy(&class, &t("[N: 2]", vec![0, 3]), &Loss::default())),
        "cannot cross_entropy [N: 2, CLASS: 3] along CLASS against [N: 2]: target 3 at position 1 is not a class: there are 3, and the ignored index is -100"
    );
    assert_eq!(
        msg(logits.cross_entropy(&class, &t("[M: 2]", vec![0, 1]), &Loss::default())),
        "cannot cross_entropy [N: 2, CLASS: 3] along CLASS against [M: 2]: the targets must have the logits' shape without the class axis, [N: 2]"
    );
    let w = [1.0f32];
    assert_eq!(
        msg(logits.cross_entropy(&class, &t("[N: 2]", vec![0, 1]), &Loss::default().weight(&w))),
        "cannot cross_entropy [N: 2, CLASS: 3] along CLASS against [N: 2]: 1 class weights for 3 classes"
    );
    assert_eq!(
        t("[N: 1]", vec![4])
            .one_hot::<f32>("CLASS", 3)
            .unwrap_err()
            .to_string(),
        "cannot one_hot [N: 1] along CLASS: label 4 at position 0 is not in 0..3"
    );
    let source = DynTensor::from_vec("[N: 2, CLASS: 3]".parse().unwrap(), vec![0.0f32; 6]).unwrap();
    let idx = |shape: &str, v: Vec<i64>| DynTensor::from_vec(shape.parse().unwrap(), v).unwrap();
    assert_eq!(
        msg(source.gather(&class, &idx("[N: 2]", vec![0, 1]))),
        "cannot gather [N: 2, CLASS: 3] along CLASS by [N: 2]: the indices have no axis CLASS"
    );
    assert_eq!(
        msg(source.gather(&"K".parse().unwrap(), &idx("[N: 2]", vec![0, 1]))),
        "cannot gather [N: 2, CLASS: 3] along K by [N: 2]: it has no axis K"
    );
    assert_eq!(
        msg(source.gather(&class, &idx("[M: 2, CLASS: 1]", vec![0, 1]))),
        "cannot gather [N: 2, CLASS: 3] along CLASS by [M: 2, CLASS: 1]: besides CLASS, the indices must have the source's axes, [N: 2]"
    );
    assert_eq!(
        msg(source.gather(&class, &idx("[N: 3, CLASS: 1]", vec![0, 1, 2]))),
        "cannot gather [N: 2, CLASS: 3] along CLASS by [N: 3, CLASS: 1]: besides CLASS, the indices must have the source's axes, [N: 2]"
    );
    assert_eq!(
        msg(source.gather(&class, &idx("[N: 2, CLASS: 1]", vec![0, 3]))),
        "cannot gather [N: 2, CLASS: 3] along CLASS by [N: 2, CLASS: 1]: index 3 at [1, 0] is out of range for CLASS of size 3"
    );
    // A `?` size is only known at run time: it must still be the source's.
    let open = Tensor::<f32, shape![N, CLASS: 3]>::from_vec_sized(&[2, 3], vec![0.0; 6]).unwrap();
    let three = Tensor::<i64, shape![N, CLASS: 1]>::from_vec_sized(&[3, 1], vec![0, 1, 2]).unwrap();
    assert_eq!(
        open.try_gather::<CLASS, _>(&three).unwrap_err().to_string(),
        "cannot gather [N: 2, CLASS: 3] along CLASS by [N: 3, CLASS: 1]: besides CLASS, the indices must have the source's axes, [N: 2]"
    );
}
