//! The gather family (rule book §21): `take`, `one_hot`, `cross_entropy` and `nll_loss`
//! against PyTorch's values (`tests/data/torch_gather.jsonl`, written by
//! `scripts/gen_gather_cases.py`: 1- to 3-D, class weights, label smoothing, ignore_index)
//! and against naive references; typed against run-time; the refusals' messages.
// `shape![...]` writes a tuple type, which clippy scores as complex when written inline.
#![allow(clippy::type_complexity)]

use proptest::prelude::*;
use serde_json::Value;
use shapecast::prelude::*;
use shapecast::Loss;

names!(N, CLASS, D, H, W, VOCAB, EMBED, B, T);

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
    let text = include_str!("data/torch_gather.jsonl");
    let mut seen = 0;
    for line in text.lines() {
        let c: Value = serde_json::from_str(line).unwrap();
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
        let targets: Vec<usize> = c["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        let t = DynTensor::from_vec(DynShape::new(tshape).unwrap(), targets).unwrap();
        let weight: Option<Vec<f64>> = c["weight"]
            .as_array()
            .map(|w| w.iter().map(|v| v.as_f64().unwrap()).collect());
        let mut opts = Loss::default().label_smoothing(c["smoothing"].as_f64().unwrap());
        if let Some(w) = &weight {
            opts = opts.weight(w);
        }
        if let Some(i) = c["ignore"].as_u64() {
            opts = opts.ignore_index(i as usize);
        }
        let class = "CLASS".parse().unwrap();
        let got = if c["op"] == "cross_entropy" {
            x.cross_entropy(&class, &t, &opts).unwrap()
        } else {
            x.log_softmax(std::slice::from_ref(&class))
                .unwrap()
                .nll_loss(&class, &t, &opts)
                .unwrap()
        };
        assert_eq!(got.sizes(), &tsizes[..]);
        for (g, w) in got.data().iter().zip(c["values"].as_array().unwrap()) {
            let w = w.as_f64().unwrap();
            assert!(
                (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
                "{line}: {g} against {w}"
            );
        }
        seen += 1;
    }
    assert_eq!(seen, 48);
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
        "cannot cross_entropy [N: 2, CLASS: 3] along CLASS against [N: 2]: target 3 at position 1 is not a class: there are 3"
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
        "cannot one_hot [N: 1] along CLASS: label 4 at position 0 is not below 3"
    );
}
