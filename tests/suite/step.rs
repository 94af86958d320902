//! `step` (every k-th element along a named axis, from its first) against the definition:
//! index `j` of the result along the axis is index `start + j * k` of the input, as NumPy's
//! `x[..., start::k]`; typed views, writable views and `DynTensor` agree.

use proptest::prelude::*;
use shapecast::{names, shape, DynTensor, Tensor};

names!(A, B, C);

proptest! {
    #[test]
    fn a_step_picks_every_kth_index(
        sizes in proptest::collection::vec(0usize..7, 3),
        axis in 0usize..3,
        start in 0usize..4,
        k in 1usize..5,
    ) {
        let n: usize = sizes.iter().product();
        let t = Tensor::<i64, shape![A, B, C]>::from_vec_sized(&sizes, (0..n as i64).collect()).unwrap();
        let start = start.min(sizes[axis]);
        let picked = match axis {
            0 => t.view().slice::<A>(start..).unwrap().step::<A>(k).unwrap().to_tensor().into_vec(),
            1 => t.view().slice::<B>(start..).unwrap().step::<B>(k).unwrap().to_tensor().into_vec(),
            _ => t.view().slice::<C>(start..).unwrap().step::<C>(k).unwrap().to_tensor().into_vec(),
        };
        // The definition, by three loops.
        let mut want = Vec::new();
        for i in 0..sizes[0] {
            for j in 0..sizes[1] {
                for l in 0..sizes[2] {
                    let at = [i, j, l][axis];
                    if at >= start && (at - start) % k == 0 {
                        want.push(((i * sizes[1] + j) * sizes[2] + l) as i64);
                    }
                }
            }
        }
        prop_assert_eq!(&picked, &want);
        // The run-time twin.
        let d = t.to_dyn();
        let name = ["A", "B", "C"][axis].parse().unwrap();
        let dyn_picked = d.slice(&name, start..).unwrap().step(&name, k).unwrap();
        prop_assert_eq!(dyn_picked.data(), &want[..]);
        // Writing through a stepped view touches exactly those elements.
        let mut w = Tensor::<i64, shape![A, B, C]>::from_vec_sized(&sizes, vec![0; n]).unwrap();
        match axis {
            0 => w.view_mut().slice::<A>(start..).unwrap().step::<A>(k).unwrap().fill(1),
            1 => w.view_mut().slice::<B>(start..).unwrap().step::<B>(k).unwrap().fill(1),
            _ => w.view_mut().slice::<C>(start..).unwrap().step::<C>(k).unwrap().fill(1),
        }
        let marked: Vec<i64> = (0..n as i64).filter(|&i| w.data()[i as usize] == 1).collect();
        prop_assert_eq!(marked, want);
    }
}

#[test]
fn a_step_of_zero_is_an_error_naming_the_axis() {
    let t = Tensor::<f32, shape![A: 4]>::full(0.0).unwrap();
    let err = t.step::<A>(0).unwrap_err().to_string();
    assert!(err.contains("step A of [A: 4] by 0"), "{err}");
    let d = DynTensor::from_vec("[A: 4]".parse().unwrap(), vec![0.0f32; 4]).unwrap();
    assert!(d.step(&"A".parse().unwrap(), 0).is_err());
}
