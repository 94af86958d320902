//! The eight elementwise cases (`out = a + b`, f32) and a hand-written loop for each, shared
//! by the kernel benchmark and the public-API benchmark.

/// One case: the operands' sizes and a hand-written loop for it.
pub struct Case {
    pub name: &'static str,
    pub a: &'static [usize],
    pub b: &'static [usize],
    pub hand: fn(&[f32], &[f32], &mut [f32]),
}

fn hand_same(a: &[f32], b: &[f32], out: &mut [f32]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x + y;
    }
}

fn hand_row(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = b.len();
    for (orow, arow) in out.chunks_exact_mut(n).zip(a.chunks_exact(n)) {
        for ((o, x), y) in orow.iter_mut().zip(arow).zip(b) {
            *o = x + y;
        }
    }
}

fn hand_col(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = a.len() / b.len();
    for ((orow, arow), y) in out.chunks_exact_mut(n).zip(a.chunks_exact(n)).zip(b) {
        for (o, x) in orow.iter_mut().zip(arow) {
            *o = x + y;
        }
    }
}

fn hand_c4(a: &[f32], b: &[f32], out: &mut [f32]) {
    // (64, 1, 128, 1) + (32, 1, 64) -> (64, 32, 128, 64)
    let mut k = 0;
    for i in 0..64 {
        for j in 0..32 {
            let brow = &b[j * 64..j * 64 + 64];
            for l in 0..128 {
                let x = a[i * 128 + l];
                for (o, y) in out[k..k + 64].iter_mut().zip(brow) {
                    *o = x + y;
                }
                k += 64;
            }
        }
    }
}

fn hand_scalar(a: &[f32], b: &[f32], out: &mut [f32]) {
    let y = b[0];
    for (o, x) in out.iter_mut().zip(a) {
        *o = x + y;
    }
}

fn hand_outer(a: &[f32], b: &[f32], out: &mut [f32]) {
    let n = b.len();
    for (orow, &x) in out.chunks_exact_mut(n).zip(a) {
        for (o, y) in orow.iter_mut().zip(b) {
            *o = x + y;
        }
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "C1 (1024,1024)+(1024,1024)",
        a: &[1024, 1024],
        b: &[1024, 1024],
        hand: hand_same,
    },
    Case {
        name: "C2 (1024,1024)+(1024)",
        a: &[1024, 1024],
        b: &[1024],
        hand: hand_row,
    },
    Case {
        name: "C3 (1024,1024)+(1024,1)",
        a: &[1024, 1024],
        b: &[1024, 1],
        hand: hand_col,
    },
    Case {
        name: "C4 (64,1,128,1)+(32,1,64)",
        a: &[64, 1, 128, 1],
        b: &[32, 1, 64],
        hand: hand_c4,
    },
    Case {
        name: "C5 (1024,1024)+scalar",
        a: &[1024, 1024],
        b: &[],
        hand: hand_scalar,
    },
    Case {
        name: "C6 (4,4)+(4)",
        a: &[4, 4],
        b: &[4],
        hand: hand_row,
    },
    Case {
        name: "C7 (16,1024,1024)+(16,1024,1024)",
        a: &[16, 1024, 1024],
        b: &[16, 1024, 1024],
        hand: hand_same,
    },
    Case {
        name: "C8 (4096,1)+(1,4096)",
        a: &[4096, 1],
        b: &[1, 4096],
        hand: hand_outer,
    },
];
