//! `.npy` files from arbitrary bytes, read typed and at run time as every element type: an
//! error or a tensor, never a panic, a hang or an allocation the file does not back; a tensor
//! read typed is the one read at run time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::{shape, DynTensor, Tensor};

/// The input as a file (in memory-backed `/dev/shm` when there is one): the readers take paths.
fn file(data: &[u8]) -> std::path::PathBuf {
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() { dir.to_path_buf() } else { std::env::temp_dir() };
    let path = dir.join(format!("shapecast-fuzz-{}.npy", std::process::id()));
    std::fs::write(&path, data).expect("the input is written");
    path
}

fn both<T: shapecast::io::NpyElement + std::fmt::Debug>(path: &std::path::Path) {
    let dynamic = DynTensor::<T>::read_npy(path);
    let typed = Tensor::<T, shape![?, ?]>::read_npy(path);
    if let Ok(t) = &typed {
        let d = dynamic.as_ref().expect("read typed, so read at run time");
        // Compared as printed: a NaN read both ways is the same NaN, but not equal to itself.
        assert_eq!(format!("{:?}", (t.sizes(), t.data())), format!("{:?}", (d.sizes(), d.data())));
    }
    if let Ok(d) = &dynamic {
        assert_eq!(d.data().len(), d.sizes().iter().product::<usize>());
    }
}

fuzz_target!(|data: &[u8]| {
    let path = file(data);
    both::<f32>(&path);
    both::<f64>(&path);
    both::<i64>(&path);
    both::<u8>(&path);
    both::<bool>(&path);
});
