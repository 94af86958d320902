//! ndarray interop (feature `ndarray`): zero-copy where the layout allows, checked shapes,
//! clear errors otherwise.
#![cfg(feature = "ndarray")]

use ndarray::{s, Array, ArrayD, IxDyn};
use shapecast::{names, shape, DynTensor, Error, Tensor, TensorView, TensorViewMut};

names!(H, W);

fn iota(rows: usize, cols: usize) -> ArrayD<i32> {
    Array::from_shape_vec((rows, cols), (0..(rows * cols) as i32).collect())
        .unwrap()
        .into_dyn()
}

#[test]
fn owned_arrays_move_without_copying() {
    let a = iota(3, 4);
    let ptr = a.as_ptr();
    let t = Tensor::<i32, shape![H, W: 4]>::from_ndarray(a).unwrap();
    assert_eq!(t.data().as_ptr(), ptr, "the buffer moved, not copied");
    assert_eq!(t.shape().to_string(), "[H: 3, W: 4]");
    let back = t.into_ndarray().unwrap();
    assert_eq!(back.as_ptr(), ptr);
    assert_eq!(back, iota(3, 4));
    let d = DynTensor::try_from(iota(2, 2)).unwrap();
    assert_eq!(ArrayD::try_from(d).unwrap(), iota(2, 2));
}

#[test]
fn other_layouts_are_copied_in_row_major_order() {
    // Transposed (column-major) and sliced arrays.
    let t = Tensor::<i32, shape![4, 3]>::from_ndarray(iota(3, 4).reversed_axes()).unwrap();
    assert_eq!(&t.data()[..4], &[0, 4, 8, 1]);
    let sliced = iota(4, 4).slice_move(s![1.., ..]);
    let t = Tensor::<i32, shape![?, 4]>::from_ndarray(sliced).unwrap();
    assert_eq!(t.sizes(), &[3, 4]);
    assert_eq!(t.data()[0], 4, "the offset into the buffer is honoured");
}

#[test]
fn mismatches_are_errors() {
    let err = Tensor::<i32, shape![H, W: 5]>::from_ndarray(iota(3, 4)).unwrap_err();
    assert!(err.to_string().contains("[H, W: 5]"), "{err}");
    assert!(Tensor::<i32, shape![?]>::from_ndarray(iota(3, 4)).is_err());
    let a = iota(3, 4);
    let reversed = a.slice(s![..;-1, ..]);
    assert!(matches!(
        TensorView::<i32, shape![3, 4]>::from_ndarray(reversed),
        Err(Error::Layout { .. })
    ));
    let stepped = a.slice(s![.., ..;2]);
    let err = TensorView::<i32, shape![3, 2]>::from_ndarray(stepped).unwrap_err();
    assert!(err.to_string().contains("not contiguous"), "{err}");
}

#[test]
fn views_are_borrowed_both_ways() {
    let a = iota(2, 3);
    let v = TensorView::<i32, shape![W: 3, H: 2]>::from_ndarray(a.t()).unwrap();
    assert_eq!(v.strides(), &[1, 3]);
    let b = Tensor::<i32, shape![H: 2]>::from_array([100, 200]);
    let sum = v.try_zip_with(&b.view(), |x, y| x + y).unwrap();
    assert_eq!(sum.data(), &[100, 203, 101, 204, 102, 205]);
    // A broadcast view goes out with its zero stride.
    let wide = b.broadcast_to::<shape![3, H: 2]>().unwrap();
    let nd = wide.to_ndarray().unwrap();
    assert_eq!(nd.strides(), &[0, 1]);
    assert_eq!(
        nd,
        Array::from_shape_vec((3, 2), vec![100, 200, 100, 200, 100, 200])
            .unwrap()
            .into_dyn()
    );
    // Writing through a shapecast view of an ndarray view.
    let mut m = ArrayD::<i32>::zeros(IxDyn(&[2, 2]));
    let row = Tensor::<i32, shape![2]>::from_array([1, 2]);
    TensorViewMut::<i32, shape![2, 2]>::from_ndarray(m.view_mut())
        .unwrap()
        .assign(&row.view())
        .unwrap();
    assert_eq!(
        m,
        Array::from_shape_vec((2, 2), vec![1, 2, 1, 2])
            .unwrap()
            .into_dyn()
    );
    let mut t = Tensor::<i32, shape![2]>::from_array([1, 2]);
    t.as_ndarray_mut().unwrap()[[1]] = 5;
    assert_eq!(t.as_ndarray().unwrap().sum(), 6);
}

#[test]
fn an_array_above_the_rank_limit_is_an_error() {
    let deep = ndarray::ArrayD::<u8>::zeros(ndarray::IxDyn(&[1; shapecast::MAX_RANK + 1]));
    let err = DynTensor::try_from(deep).unwrap_err();
    assert!(
        matches!(err, shapecast::Error::RankTooLarge { rank: 65, max: 64 }),
        "{err}"
    );
    let ok = ndarray::ArrayD::<u8>::zeros(ndarray::IxDyn(&[1; shapecast::MAX_RANK]));
    assert_eq!(DynTensor::try_from(ok).unwrap().shape().rank(), 64);
}

#[test]
fn tensors_ndarray_cannot_describe_are_errors() {
    // Legal in shapecast (no element), refused by ndarray (its non-zero sizes multiply past
    // isize::MAX): every conversion to ndarray returns the error instead of panicking.
    let mut t = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[0, usize::MAX], vec![]).unwrap();
    for e in [
        t.as_ndarray().map(|_| ()).unwrap_err(),
        t.view().to_ndarray().map(|_| ()).unwrap_err(),
        t.as_ndarray_mut().map(|_| ()).unwrap_err(),
        t.clone().into_ndarray().map(|_| ()).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::Layout { what } if what.contains("ndarray cannot hold")),
            "{e}"
        );
    }
    let d = DynTensor::<i32>::from_vec(
        "[0, 5, ?]"
            .parse::<shapecast::DynShape>()
            .unwrap()
            .resolve(&[0, 5, usize::MAX])
            .unwrap(),
        vec![],
    )
    .unwrap();
    assert!(ArrayD::try_from(d).is_err());
    // Sizes ndarray can hold convert, empty or not.
    let e = Tensor::<i32, shape![?, ?]>::from_vec_sized(&[0, 3], vec![]).unwrap();
    assert_eq!(e.into_ndarray().unwrap().shape(), &[0, 3]);
}
