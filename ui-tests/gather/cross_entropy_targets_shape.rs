use shapecast::prelude::*;
names!(N, CLASS, H, W);

fn main() {
    let logits = Tensor::<f32, shape![N: 2, CLASS: 3, H: 4, W: 4]>::from_vec(vec![0.0; 96]).unwrap();
    // Labels laid out [N, W, H]: not the logits' shape without CLASS.
    let labels = Tensor::<usize, shape![N: 2, W: 4, H: 4]>::from_vec(vec![0; 32]).unwrap();
    let _ = logits.cross_entropy::<CLASS>(&labels);
}
