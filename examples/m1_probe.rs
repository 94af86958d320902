use shapecast::{bf16, f16, names, shape, Cast, Dot, Tensor};
use std::time::Instant;
names!(P, E, F);
fn main() {
    let layers = 24;
    let x = Tensor::<f32, shape![P: 1, E: 512]>::from_fn(&[1, 512], |i| {
        ((i[0] * 7 + i[1]) % 13) as f32 / 13.0 - 0.5
    })
    .unwrap();
    let ws: Vec<_> = (0..layers)
        .map(|l| {
            Tensor::<f32, shape![F: 1376, E: 512]>::from_fn(&[1376, 512], |i| {
                ((i[0] * 5 + i[1] + l) % 11) as f32 / 11.0 - 0.5
            })
            .unwrap()
        })
        .collect();
    let wt: Vec<_> = (0..layers)
        .map(|l| {
            Tensor::<f32, shape![E: 512, F: 1376]>::from_fn(&[512, 1376], |i| {
                ((i[1] * 5 + i[0] + l) % 11) as f32 / 11.0 - 0.5
            })
            .unwrap()
        })
        .collect();
    let wsb: Vec<_> = ws.iter().map(|w| w.cast::<bf16>()).collect();
    let wtb: Vec<_> = wt.iter().map(|w| w.cast::<bf16>()).collect();
    let wsh: Vec<_> = ws.iter().map(|w| w.cast::<f16>()).collect();
    let wth: Vec<_> = wt.iter().map(|w| w.cast::<f16>()).collect();
    let mut t = [f64::MAX; 6];
    let mut sum = 0.0f32;
    macro_rules! time {
        ($i:expr, $ws:expr) => {{
            let s = Instant::now();
            for w in $ws {
                let y = x.dot::<E>(w);
                sum += y.data()[7];
            }
            t[$i] = t[$i].min(s.elapsed().as_secs_f64() / layers as f64 * 1e6);
        }};
    }
    for _ in 0..30 {
        time!(0, &ws);
        time!(1, &wt);
        time!(2, &wsb);
        time!(3, &wtb);
        time!(4, &wsh);
        time!(5, &wth);
    }
    println!("1x512 by [out, in] / [in, out] (us): f32 {:.1} / {:.1}, bf16 {:.1} / {:.1}, f16 {:.1} / {:.1} ({sum})", t[0], t[1], t[2], t[3], t[4], t[5]);
}
