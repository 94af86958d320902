//! The typed operations on rank-3 tensors whose sizes mix 0 with huge ones: each returns
//! an error or a result, or (for the forms without a `Result`) panics with the error's
//! message; never another panic.

use proptest::prelude::*;
use shapecast::{names, shape, Dot, FloatMath, Pos, Reductions, Tensor};

names!(A, B, C, M);

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(0usize), 3 => 1usize..4, 1 => Just(1usize << 40), 1 => Just(usize::MAX / 2), 1 => Just(usize::MAX)]
}

fn sizes() -> impl Strategy<Value = [usize; 3]> {
    [size(), size(), size()].prop_map(|mut v| {
        if !v.contains(&0) && v.iter().any(|&n| n > 3) {
            let k = v.iter().position(|&n| n > 3).unwrap();
            v[k] = 0;
        }
        v
    })
}

/// Runs `f`; a panic must carry the message of a too-large or overflowing result.
fn no_stray_panic(what: &str, f: impl FnOnce() + std::panic::UnwindSafe) {
    if std::env::var_os("SWEEP_TRACE").is_some() {
        eprintln!("sweep: {what}");
    }
    if let Err(e) = std::panic::catch_unwind(f) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(
            msg.contains("more than can be allocated") || msg.contains("overflows usize"),
            "{what}: {msg}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn typed_operations_never_panic_otherwise(s in sizes(), t in sizes(), i in 0usize..4) {
        let x = Tensor::<f32, shape![A, B, C]>::zeros_sized(&s).unwrap();
        let y = Tensor::<f32, shape![A, B, C]>::zeros_sized(&t).unwrap();
        no_stray_panic("sum", || { let _ = x.sum::<A>(); });
        no_stray_panic("sum two", || { let _ = x.sum::<(B, C)>(); });
        no_stray_panic("max", || { let _ = x.try_max::<Pos<2>>(); });
        no_stray_panic("softmax", || { let _ = x.softmax::<B>(); });
        no_stray_panic("add", || { let _ = x.try_add(&y); });
        no_stray_panic("exp", || { let _ = (&x).exp(); });
        no_stray_panic("select", || { let _ = x.select::<B>(i); });
        no_stray_panic("slice", || { let _ = x.slice::<C>(i..); });
        no_stray_panic("merge", || { let _ = x.merge_axes::<(B, C), M>(); });
        no_stray_panic("view merge", || { let _ = x.view().merge_axes::<(A, B), M>(); });
        no_stray_panic("concat", || { let _ = x.concat::<A, _>(&y); });
        no_stray_panic("to_tensor", || { let _ = x.view().to_tensor(); });
        no_stray_panic("iter", || { let _ = x.view().iter().count(); });
        let u = Tensor::<f32, shape![?, ?, ?]>::zeros_sized(&s).unwrap();
        let v = Tensor::<f32, shape![?, ?, ?]>::zeros_sized(&t).unwrap();
        no_stray_panic("matmul", || { let _ = u.try_matmul(&v); });
        no_stray_panic("numpy add", || { let _ = u.try_add(&v); });
        no_stray_panic("size", || { let _ = x.size::<C>(); });
    }

    /// The same sizes through tracked values and their backward passes: a backward
    /// reaches an empty input without forming sums over its huge other axes.
    #[test]
    fn backward_passes_never_panic_otherwise(s in sizes(), t in sizes(), i in 0usize..4) {
        use shapecast::train::{Param, Tape, Var, VarNorms};
        use shapecast::{rule::Named, Loss, Pool, Reduction};
        let x = Param::new("x", Tensor::<f32, shape![A, B, C]>::zeros_sized(&s).unwrap());
        let y = Param::new("y", Tensor::<f32, shape![A, B, C]>::zeros_sized(&t).unwrap());
        type V = Var<f32, shape![A, B, C]>;
        type Scalar = Option<Var<f32, shape![]>>;
        let run = |what: &str, f: &dyn Fn(&V, &V) -> Scalar| {
            no_stray_panic(what, std::panic::AssertUnwindSafe(|| {
                let tape = Tape::new();
                if let Some(loss) = f(&tape.watch(&x), &tape.watch(&y)) {
                    let _ = loss.backward();
                }
            }));
        };
        run("softmax", &|x, _| Some(x.softmax::<C>().sum::<(A, B, C)>()));
        run("log_softmax", &|x, _| Some(x.log_softmax::<(B, C)>().sum::<(A, B, C)>()));
        run("var", &|x, _| Some(x.var::<B>(i).sum::<(A, C)>()));
        run("add", &|x, y| x.add_by::<Named, _>(y).ok().map(|v| v.sum::<(A, B, C)>()));
        run("concat", &|x, y| x.concat::<A, _>(y).ok().map(|v| v.sum::<(A, B, C)>()));
        run("avg_pool", &|x, _| {
            x.avg_pool::<(B, C), Pool<2, 1, 1>>().ok().map(|v| v.sum::<(A, B, C)>())
        });
        if let Ok(w) = Tensor::<f32, shape![C]>::zeros_sized(&[s[2]]) {
            let w = Param::new("w", w);
            no_stray_panic("norms", || {
                let tape = Tape::new();
                let (v, w) = (tape.watch(&x), tape.watch(&w));
                if let Ok(n) = v.layer_norm::<C>(&w, &w, 1e-5) {
                    let _ = n.sum::<(A, B, C)>().backward();
                }
            });
        }
        if let Ok(labels) = Tensor::<i64, shape![A, B]>::zeros_sized(&[s[0], s[1]]) {
            run("cross_entropy", &|x, _| {
                x.cross_entropy::<C>(&labels, &Loss::default(), Reduction::Mean).ok()
            });
        }
    }
}
