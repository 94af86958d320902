//! The kernel on arbitrary small shapes and strides: never a panic (bad layouts are
//! errors), and on the layouts a rule produces, the same values as a naive loop.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{broadcast, kernel, DynShape, Rule};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (ra, rb) = ((data[0] % 4) as usize, (data[1] % 4) as usize);
    let rest = &data[2..];
    if rest.len() < ra + rb {
        return;
    }
    let sa: Vec<usize> = rest[..ra].iter().map(|&x| (x % 4) as usize).collect();
    let sb: Vec<usize> = rest[ra..ra + rb]
        .iter()
        .map(|&x| (x % 4) as usize)
        .collect();
    let (Ok(a_shape), Ok(b_shape)) = (DynShape::from_sizes(&sa), DynShape::from_sizes(&sb)) else {
        return;
    };
    let a: Vec<i64> = (0..sa.iter().product::<usize>() as i64).collect();
    let b: Vec<i64> = (0..sb.iter().product::<usize>() as i64)
        .map(|x| x * 100)
        .collect();
    // Arbitrary strides over the same data: an error or a result, never a panic.
    let strides: Vec<usize> = rest
        .iter()
        .take(ra.max(rb))
        .map(|&x| (x % 5) as usize)
        .collect();
    let sizes: Vec<usize> = strides.iter().map(|s| s % 3 + 1).collect();
    let mut out = Vec::new();
    let _ = kernel::zip_map(&sizes, (&a, &strides), (&b, &strides), &mut out, |x, y| {
        x + y
    });
    // The numpy rule's layout against a naive loop.
    let Ok(plan) = broadcast(Rule::Numpy, &a_shape, &b_shape) else {
        return;
    };
    let out_sizes = plan
        .resolve(&sa, &sb)
        .expect("static shapes have no checks left");
    let fa = kernel::frame_strides(&plan.plan.lhs, &sa).expect("a rule's plan points at real axes");
    let fb = kernel::frame_strides(&plan.plan.rhs, &sb).expect("a rule's plan points at real axes");
    kernel::zip_map(&out_sizes, (&a, &fa), (&b, &fb), &mut out, |x, y| x + y)
        .expect("a rule's layout fits");
    let total: usize = out_sizes.iter().product();
    assert_eq!(out.len(), total);
    for (flat, got) in out.iter().enumerate() {
        let mut rest = flat;
        let (mut oa, mut ob) = (0, 0);
        for i in (0..out_sizes.len()).rev() {
            let k = rest % out_sizes[i];
            rest /= out_sizes[i];
            oa += k * fa[i];
            ob += k * fb[i];
        }
        assert_eq!(*got, a[oa] + b[ob]);
    }
});
