//! `.safetensors` files from arbitrary bytes: loading gives an error or weights, never a
//! panic; every stored tensor reads at run time as its own element type or is refused, and a
//! typed read agrees with the run-time one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{io, shape};

fuzz_target!(|data: &[u8]| {
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() { dir.to_path_buf() } else { std::env::temp_dir() };
    let path = dir.join(format!("shapecast-fuzz-{}.safetensors", std::process::id()));
    std::fs::write(&path, data).expect("the input is written");
    let Ok(weights) = io::load_safetensors(&path) else {
        return;
    };
    for name in weights.names() {
        let dynamic = weights.get_dyn::<f32>(name);
        let _ = weights.get_dyn::<i64>(name);
        let _ = weights.get_dyn::<u8>(name);
        if let Ok(t) = weights.get::<f32, shape![?, ?]>(name) {
            let d = dynamic.as_ref().expect("read typed, so read at run time");
            // Compared as printed: a NaN read both ways is the same NaN, but not equal to itself.
            assert_eq!(format!("{:?}", (t.sizes(), t.data())), format!("{:?}", (d.sizes(), d.data())));
        }
        if let Ok(d) = &dynamic {
            assert_eq!(d.data().len(), d.sizes().iter().product::<usize>());
        }
    }
});
