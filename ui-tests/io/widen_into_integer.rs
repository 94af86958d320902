// Widening reads narrower floats into `f32` or `f64`: an integer target is refused.
use shapecast::{io, shape};

fn main() {
    let w = io::load_safetensors("weights.safetensors").unwrap();
    let _ = w.get_widened::<i32, shape![3]>("labels");
}
