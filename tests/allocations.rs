//! What the operators allocate, counted by a global allocator: a typed operation allocates
//! its output's buffer and nothing else, a small static result none at all (it lives
//! inline), an operation into a caller's tensor none. Counted per thread, so the other tests
//! of this binary do not disturb it.

// A counting global allocator is `unsafe` by nature (the workspace denies it elsewhere).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use shapecast::{names, shape, Dot, DynTensor, Pos, Reductions, Rule, Tensor};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the count is a
// thread-local `Cell` with a constant initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (ALLOCATIONS.with(Cell::get) - before, r)
}

names!(C, H, W);

#[test]
fn a_typed_operation_allocates_its_output_only() {
    let a = Tensor::<f32, shape![?, C: 3, H, W]>::from_vec_sized(&[2, 3, 4, 5], vec![1.0; 120])
        .unwrap();
    let b = Tensor::<f32, shape![?, H, W]>::from_vec_sized(&[2, 4, 5], vec![2.0; 40]).unwrap();
    let (n, c) = allocations(|| &a + &b);
    assert_eq!(n, 1, "the output's buffer");
    assert_eq!(c.data()[119], 3.0);
    let mut out = c.clone();
    let (n, r) = allocations(|| Tensor::sub_into(&a, &b, &mut out));
    r.unwrap();
    assert_eq!(n, 0, "into a caller's tensor");
    // The same through views (a permuted one included) and a rule marker.
    let (va, vc) = (a.view(), c.view());
    let (n, d) =
        allocations(|| va.zip_with_rule::<shapecast::rule::Numpy, _, _, _>(&vc, |x, y| x * y));
    assert_eq!(n, 1);
    assert_eq!(d.unwrap().data()[0], 3.0);
    let hw = b.view().align_to::<shape![W, ?, H]>().unwrap();
    let (n, e) = allocations(|| va.try_zip_with(&hw, |x, y| x - y));
    assert_eq!(n, 1);
    assert_eq!(e.unwrap().data()[0], -1.0);
}

#[test]
fn a_small_static_result_allocates_nothing() {
    let a = Tensor::<f32, shape![4, 4]>::from_vec(vec![1.0; 16]).unwrap();
    let b = Tensor::<f32, shape![4]>::from_vec(vec![0.5; 4]).unwrap();
    let (n, c) = allocations(|| &a + &b);
    assert_eq!(n, 0, "the result lives inline");
    assert_eq!(c.data(), &[1.5; 16]);
    let (n, d) = allocations(|| a - b);
    assert_eq!(n, 0);
    assert_eq!(d.data(), &[0.5; 16]);
}

#[test]
fn a_dyn_tensor_operation_allocates_its_output_only_up_to_rank_8() {
    // The rule runs on the shapes at run time, on inline storage: plans and sizes up to rank
    // 8 live inline, shapes and names are shared, and an output shape equal to an operand's
    // shares its axes. What is left is the output's data.
    let a = Tensor::<f32, shape![?, ?]>::from_vec_sized(&[4, 4], vec![1.0; 16]).unwrap();
    let b = Tensor::<f32, shape![?]>::from_vec_sized(&[4], vec![1.0; 4]).unwrap();
    let (da, db) = (a.to_dyn(), b.to_dyn());
    let (n, c) = allocations(|| da.zip_with(Rule::Named, &db, |x, y| x + y));
    assert_eq!((n, c.unwrap().data()), (1, &[2.0; 16][..]));
    // Named shapes, the right transposed: the same.
    let img = DynTensor::from_vec(
        "[B: 2, C: 3, H: 4, W: 5]".parse().unwrap(),
        vec![1.0f32; 120],
    )
    .unwrap();
    let lbl = DynTensor::from_vec("[W: 5, H: 4]".parse().unwrap(), vec![0.5f32; 20]).unwrap();
    let (n, c) = allocations(|| img.zip_with(Rule::Named, &lbl, |x, y| x + y));
    assert_eq!((n, c.unwrap().sizes()), (1, &[2, 3, 4, 5][..]));
    // An output shape that is neither operand's is built: one more.
    let col = DynTensor::from_vec("[4, 1]".parse().unwrap(), vec![1.0f32; 4]).unwrap();
    let row = DynTensor::from_vec("[3]".parse().unwrap(), vec![1.0f32; 3]).unwrap();
    let (n, c) = allocations(|| col.zip_with(Rule::Numpy, &row, |x, y| x + y));
    assert_eq!((n, c.unwrap().sizes()), (2, &[4, 3][..]));
    // Above rank 4 the plan's two sides spill to the heap.
    let wide =
        DynTensor::from_vec("[2, 1, 2, 1, 2, 3]".parse().unwrap(), vec![1.0f32; 24]).unwrap();
    let (n, c) = allocations(|| wide.zip_with(Rule::Named, &row, |x, y| x + y));
    assert_eq!((n, c.unwrap().sizes()), (1 + 2, &[2, 1, 2, 1, 2, 3][..]));
}

#[test]
fn a_typed_reduction_allocates_its_output_and_its_accumulators_only() {
    let a = Tensor::<f32, shape![?, C: 3, H, W]>::from_vec_sized(&[2, 3, 4, 5], vec![1.0; 120])
        .unwrap();
    let (n, s) = allocations(|| a.sum::<(H, W)>());
    assert_eq!((n, s.data()), (1, &[20.0; 6][..]));
    let (n, m) = allocations(|| a.max_keep::<C>());
    assert_eq!((n, m.sizes()), (1, &[2, 1, 4, 5][..]));
    let v = a.view();
    let (n, _) = allocations(|| v.mean::<Pos<0>>());
    assert_eq!(n, 1);
    // Softmax: its output, each cell's shift and each cell's sum.
    let (n, p) = allocations(|| a.softmax::<C>());
    assert_eq!(n, 3);
    assert!((p.data()[0] - 1.0 / 3.0).abs() < 1e-6);
    // Into the tensor's own buffer: the same buffer comes back, and only the cells' shifts
    // and sums are allocated.
    let owned = a.clone();
    let buffer = owned.data().as_ptr();
    let (n, q) = allocations(|| owned.softmax_into::<C>());
    assert_eq!((n, q.data().as_ptr()), (2, buffer));
    assert_eq!(q, p);
}

#[test]
fn a_typed_contraction_allocates_its_output_only() {
    // The plan comes from the types, the kernel's tables live on the stack, and the `gemm`
    // crate packs small products in its own stack memory: the output is the one allocation.
    names!(B, S, K, D);
    let q = Tensor::<f32, shape![B, S, D]>::from_vec_sized(&[2, 3, 4], vec![1.0; 24]).unwrap();
    let k = Tensor::<f32, shape![B, K, D]>::from_vec_sized(&[2, 5, 4], vec![0.5; 40]).unwrap();
    let (n, s) = allocations(|| q.dot::<D>(&k));
    assert_eq!((n, s.sizes()), (1, &[2, 3, 5][..]));
    assert_eq!(s.data(), &[2.0; 30]);
    // A transposed view on the right, by position.
    let kt = k.align_to::<shape![B, D, K]>().unwrap();
    let (n, m) = allocations(|| q.matmul(&kt));
    assert_eq!((n, m.sizes()), (1, &[2, 3, 5][..]));
    assert_eq!(m.data(), s.data());
    // A `?` size that does not fit is refused (the run-time engine words it).
    let short = Tensor::<f32, shape![B, K, D]>::from_vec_sized(&[2, 5, 3], vec![0.5; 30]).unwrap();
    assert!(q.try_dot::<D>(&short).is_err());
}
