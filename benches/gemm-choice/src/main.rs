//! Times `matrixmultiply` and `gemm` on the products a transformer block makes, f32 and f64,
//! on one thread or two (first argument), and prints a markdown table of medians in µs and
//! GFLOP/s. Each product runs alternately under both crates, so drift hits both alike.

use std::time::Instant;

/// `(batch, m, k, n)`: the block's products and a square reference.
const SHAPES: [(usize, usize, usize, usize); 6] = [
    (1, 128, 256, 256),
    (1, 128, 256, 1024),
    (1, 128, 1024, 256),
    (32, 256, 64, 256),
    (32, 256, 256, 64),
    (1, 512, 512, 512),
];

trait Elem: Copy + Default + Send + Sync + 'static {
    const NAME: &'static str;
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    #[allow(clippy::too_many_arguments)]
    fn mm(m: usize, k: usize, n: usize, a: &[Self], b: &[Self], c: &mut [Self]);
}

macro_rules! elem {
    ($t:ty, $mm:path) => {
        impl Elem for $t {
            const NAME: &'static str = stringify!($t);
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn mm(m: usize, k: usize, n: usize, a: &[Self], b: &[Self], c: &mut [Self]) {
                assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
                // SAFETY: row-major m×k, k×n, m×n matrices inside their slices (checked).
                unsafe {
                    $mm(
                        m, k, n, 1.0, a.as_ptr(), k as isize, 1, b.as_ptr(), n as isize, 1, 0.0,
                        c.as_mut_ptr(), n as isize, 1,
                    )
                }
            }
        }
    };
}
elem!(f32, matrixmultiply::sgemm);
elem!(f64, matrixmultiply::dgemm);

fn gemm_crate<T: Elem>(m: usize, k: usize, n: usize, a: &[T], b: &[T], c: &mut [T], threads: usize) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    let par = if threads > 1 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: row-major m×k, k×n, m×n matrices inside their slices (checked); alpha is
    // ignored when read_dst is false.
    unsafe {
        gemm::gemm(
            m, n, k,
            c.as_mut_ptr(), 1, n as isize,
            false,
            a.as_ptr(), 1, k as isize,
            b.as_ptr(), 1, n as isize,
            T::default(), T::from_f64(1.0),
            false, false, false,
            par,
        )
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn run<T: Elem>(threads: usize) {
    for (batch, m, k, n) in SHAPES {
        let a: Vec<T> = (0..batch * m * k).map(|i| T::from_f64((i % 17) as f64 * 0.1 - 0.8)).collect();
        let b: Vec<T> = (0..batch * k * n).map(|i| T::from_f64((i % 13) as f64 * 0.1 - 0.6)).collect();
        let mut c1 = vec![T::default(); batch * m * n];
        let mut c2 = c1.clone();
        let flops = 2.0 * (batch * m * k * n) as f64;
        let reps = ((2e9 / flops) as usize).clamp(3, 200);
        let (mut t1, mut t2) = (Vec::new(), Vec::new());
        // matrixmultiply splits one product over its own threads; batches go to rayon in
        // shapecast, so a batched product runs its batches over rayon here as well.
        let mm = |c: &mut [T]| {
            if threads > 1 && batch > 1 {
                use rayon::prelude::*;
                c.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| {
                    T::mm(m, k, n, &a[i * m * k..], &b[i * k * n..], c)
                });
            } else {
                for i in 0..batch {
                    T::mm(m, k, n, &a[i * m * k..], &b[i * k * n..], &mut c[i * m * n..]);
                }
            }
        };
        let gm = |c: &mut [T]| {
            if threads > 1 && batch > 1 {
                use rayon::prelude::*;
                c.par_chunks_mut(m * n).enumerate().for_each(|(i, c)| {
                    gemm_crate(m, k, n, &a[i * m * k..], &b[i * k * n..], c, 1)
                });
            } else {
                for i in 0..batch {
                    gemm_crate(m, k, n, &a[i * m * k..], &b[i * k * n..], &mut c[i * m * n..], threads);
                }
            }
        };
        mm(&mut c1);
        gm(&mut c2);
        let err = c1.iter().zip(&c2).map(|(x, y)| (x.to_f64() - y.to_f64()).abs()).fold(0.0, f64::max);
        assert!(err < 1e-2, "the crates disagree by {err}");
        for _ in 0..reps {
            let s = Instant::now();
            mm(&mut c1);
            t1.push(s.elapsed().as_secs_f64());
            let s = Instant::now();
            gm(&mut c2);
            t2.push(s.elapsed().as_secs_f64());
        }
        let (m1, m2) = (median(t1), median(t2));
        println!(
            "| {} | {batch}×{m}×{k}×{n} | {threads} | {:.0} µs ({:.0} GFLOP/s) | {:.0} µs ({:.0} GFLOP/s) | {:.2} |",
            T::NAME,
            m1 * 1e6,
            flops / m1 / 1e9,
            m2 * 1e6,
            flops / m2 / 1e9,
            m2 / m1
        );
    }
}

fn main() {
    let threads: usize = std::env::args().nth(1).map_or(1, |s| s.parse().expect("a thread count"));
    println!("| element | batch×m×k×n | threads | matrixmultiply 0.3 | gemm 0.19 | gemm / matrixmultiply |");
    println!("|---|---|---|---|---|---|");
    run::<f32>(threads);
    run::<f64>(threads);
}
