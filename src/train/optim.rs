//! The optimizers: SGD with momentum and Adam/AdamW, each step PyTorch's (`torch.optim`'s
//! single-tensor update, in the same order of operations), its state kept per parameter.

use crate::alloc_prelude::*;

use alloc::collections::BTreeMap;

use num_traits::Float;

use super::grads::Grads;
use super::param::{ParamId, ParamSlot, Parameters};
use super::trainable::Trainable;
use crate::engine::split::{each_mut, piece_len};
use crate::values::error::Error;

/// Each parameter that has a gradient, with it; a parameter without one is skipped (as
/// PyTorch skips a parameter whose `.grad` is `None`).
fn each_with_grad<T: Trainable>(
    params: &mut impl Parameters<T>,
    grads: &Grads<T>,
    mut f: impl FnMut(ParamId, &mut [T], &[T]),
) -> Result<(), Error> {
    let mut bad = None;
    params.visit(&mut |p: &mut dyn ParamSlot<T>| {
        let Some(g) = grads.data(p.id()) else { return };
        let (id, name) = (p.id(), p.name().to_string());
        let data = p.data_mut();
        if data.len() != g.len() {
            bad.get_or_insert(Error::Gradient {
                reason: format!(
                    "the gradient of {name:?} has {} elements, the parameter {}",
                    g.len(),
                    data.len()
                ),
            });
            return;
        }
        f(id, data, g);
    });
    bad.map_or(Ok(()), Err)
}

/// Stochastic gradient descent with momentum, dampening, Nesterov momentum and (coupled)
/// weight decay: PyTorch's `torch.optim.SGD`.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Sgd, Tape};
/// let mut p = Param::new("p", Tensor::<f64, shape![]>::from_array(3.0));
/// let mut sgd = Sgd::new(0.1).momentum(0.9);
/// for _ in 0..100 {
///     let tape = Tape::new();
///     let v = tape.watch(&p);
///     let grads = (&v * &v).backward()?; // minimise p²
///     sgd.step(&mut p, &grads)?;
/// }
/// assert!(p.value().data()[0].abs() < 1e-2);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Sgd<T> {
    /// The learning rate.
    pub lr: T,
    /// The momentum factor (0: none).
    pub momentum: T,
    /// The dampening of the momentum.
    pub dampening: T,
    /// The L2 penalty added to the gradient.
    pub weight_decay: T,
    /// Nesterov momentum.
    pub nesterov: bool,
    buffers: BTreeMap<ParamId, Vec<T>>,
}

impl<T: Trainable> Sgd<T> {
    /// Plain SGD at learning rate `lr`.
    ///
    /// ```
    /// let sgd = shapecast::train::Sgd::new(0.01f32);
    /// assert_eq!(sgd.momentum, 0.0);
    /// ```
    pub fn new(lr: T) -> Self {
        Sgd {
            lr,
            momentum: T::zero(),
            dampening: T::zero(),
            weight_decay: T::zero(),
            nesterov: false,
            buffers: BTreeMap::new(),
        }
    }

    /// With momentum `m`.
    ///
    /// ```
    /// assert_eq!(shapecast::train::Sgd::new(0.1f64).momentum(0.9).momentum, 0.9);
    /// ```
    pub fn momentum(mut self, m: T) -> Self {
        self.momentum = m;
        self
    }

    /// With dampening `d` of the momentum.
    ///
    /// ```
    /// assert_eq!(shapecast::train::Sgd::new(0.1f64).dampening(0.5).dampening, 0.5);
    /// ```
    pub fn dampening(mut self, d: T) -> Self {
        self.dampening = d;
        self
    }

    /// With weight decay `w` (added to the gradient as `w · p`).
    ///
    /// ```
    /// assert_eq!(shapecast::train::Sgd::new(0.1f64).weight_decay(1e-4).weight_decay, 1e-4);
    /// ```
    pub fn weight_decay(mut self, w: T) -> Self {
        self.weight_decay = w;
        self
    }

    /// With Nesterov momentum.
    ///
    /// ```
    /// assert!(shapecast::train::Sgd::new(0.1f64).momentum(0.9).nesterov(true).nesterov);
    /// ```
    pub fn nesterov(mut self, on: bool) -> Self {
        self.nesterov = on;
        self
    }

    /// Parameter `id`'s momentum buffer, if it has one.
    #[cfg(feature = "safetensors")]
    pub(crate) fn buffer(&self, id: ParamId) -> Option<&[T]> {
        self.buffers.get(&id).map(Vec::as_slice)
    }

    /// Sets parameter `id`'s momentum buffer.
    #[cfg(feature = "safetensors")]
    pub(crate) fn set_buffer(&mut self, id: ParamId, buffer: Vec<T>) {
        self.buffers.insert(id, buffer);
    }

    /// One update of every parameter that has a gradient in `grads`; an error when a
    /// gradient's element count is not its parameter's (nothing else is refused).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Sgd, Tape};
    /// let mut p = Param::new("p", Tensor::<f32, shape![]>::from_array(1.0));
    /// let tape = Tape::new();
    /// let grads = (&tape.watch(&p) * 2.0).backward()?;
    /// drop(tape);
    /// Sgd::new(0.5).step(&mut p, &grads)?;
    /// assert_eq!(p.value().data(), &[0.0]); // 1 − 0.5·2
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step(&mut self, params: &mut impl Parameters<T>, grads: &Grads<T>) -> Result<(), Error> {
        let (lr, m, damp, wd, nesterov) = (
            self.lr,
            self.momentum,
            self.dampening,
            self.weight_decay,
            self.nesterov,
        );
        let buffers = &mut self.buffers;
        each_with_grad(params, grads, |id, p, g| {
            let mut d: Vec<T> = if wd == T::zero() {
                g.to_vec()
            } else {
                g.iter().zip(p.iter()).map(|(&g, &p)| g + wd * p).collect()
            };
            if m != T::zero() {
                // The first step's buffer is the (decayed) gradient itself, undampened.
                let buf = match buffers.get_mut(&id) {
                    Some(buf) => {
                        buf.iter_mut()
                            .zip(&d)
                            .for_each(|(b, &d)| *b = *b * m + (T::one() - damp) * d);
                        buf
                    }
                    None => buffers.entry(id).or_insert_with(|| d.clone()),
                };
                if nesterov {
                    d.iter_mut()
                        .zip(buf.iter())
                        .for_each(|(d, &b)| *d = *d + m * b);
                } else {
                    d.copy_from_slice(buf);
                }
            }
            p.iter_mut().zip(&d).for_each(|(p, &d)| *p = *p - lr * d);
        })
    }
}

/// Adam and AdamW: PyTorch's `torch.optim.Adam` (weight decay added to the gradient) and
/// `torch.optim.AdamW` (weight decay applied to the parameter, decoupled), with bias
/// correction, in PyTorch's order of operations.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Adam, Param, Tape};
/// let mut p = Param::new("p", Tensor::<f64, shape![2]>::from_array([1.0, -2.0]));
/// let mut adam = Adam::adamw(0.1);
/// for _ in 0..200 {
///     let tape = Tape::new();
///     let v = tape.watch(&p);
///     let grads = (&v * &v).sum::<Pos<0>>().backward()?;
///     adam.step(&mut p, &grads)?;
/// }
/// assert!(p.value().data().iter().all(|x| x.abs() < 0.05));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Adam<T> {
    /// The learning rate.
    pub lr: T,
    /// The decay of the first moment (PyTorch's `betas[0]`, 0.9).
    pub beta1: T,
    /// The decay of the second moment (`betas[1]`, 0.999).
    pub beta2: T,
    /// Added to the denominator (1e-8).
    pub eps: T,
    /// The weight decay (Adam's default 0, AdamW's 0.01).
    pub weight_decay: T,
    /// Whether the weight decay is decoupled (AdamW) rather than added to the gradient.
    pub decoupled: bool,
    state: BTreeMap<ParamId, Moments<T>>,
}

/// A parameter's moments and step count.
#[derive(Clone, Debug)]
struct Moments<T> {
    step: i32,
    m: Vec<T>,
    v: Vec<T>,
}

impl<T: Trainable> Adam<T> {
    /// Adam at learning rate `lr` with PyTorch's defaults (betas 0.9 and 0.999, eps 1e-8, no
    /// weight decay).
    ///
    /// ```
    /// let adam = shapecast::train::Adam::new(1e-3f32);
    /// assert_eq!((adam.beta1, adam.beta2, adam.weight_decay), (0.9, 0.999, 0.0));
    /// ```
    pub fn new(lr: T) -> Self {
        let c = |x: f64| T::from(x).unwrap_or_else(T::zero);
        Adam {
            lr,
            beta1: c(0.9),
            beta2: c(0.999),
            eps: c(1e-8),
            weight_decay: T::zero(),
            decoupled: false,
            state: BTreeMap::new(),
        }
    }

    /// AdamW at learning rate `lr` with PyTorch's defaults (Adam's, and decoupled weight
    /// decay 0.01).
    ///
    /// ```
    /// let adamw = shapecast::train::Adam::adamw(1e-3f64);
    /// assert!(adamw.decoupled);
    /// assert_eq!(adamw.weight_decay, 0.01);
    /// ```
    pub fn adamw(lr: T) -> Self {
        let mut a = Self::new(lr);
        a.weight_decay = T::from(0.01).unwrap_or_else(T::zero);
        a.decoupled = true;
        a
    }

    /// With moment decays `beta1` and `beta2`.
    ///
    /// ```
    /// let a = shapecast::train::Adam::new(1e-3f64).betas(0.8, 0.99);
    /// assert_eq!((a.beta1, a.beta2), (0.8, 0.99));
    /// ```
    pub fn betas(mut self, beta1: T, beta2: T) -> Self {
        (self.beta1, self.beta2) = (beta1, beta2);
        self
    }

    /// With `eps` added to the denominator.
    ///
    /// ```
    /// assert_eq!(shapecast::train::Adam::new(1e-3f64).eps(1e-6).eps, 1e-6);
    /// ```
    pub fn eps(mut self, eps: T) -> Self {
        self.eps = eps;
        self
    }

    /// With weight decay `w` (decoupled for AdamW, added to the gradient for Adam).
    ///
    /// ```
    /// assert_eq!(shapecast::train::Adam::adamw(1e-3f64).weight_decay(0.1).weight_decay, 0.1);
    /// ```
    pub fn weight_decay(mut self, w: T) -> Self {
        self.weight_decay = w;
        self
    }

    /// Parameter `id`'s step count and moments, if it has taken a step.
    #[cfg(feature = "safetensors")]
    pub(crate) fn moments(&self, id: ParamId) -> Option<(i32, &[T], &[T])> {
        self.state
            .get(&id)
            .map(|s| (s.step, s.m.as_slice(), s.v.as_slice()))
    }

    /// Sets parameter `id`'s step count and moments.
    #[cfg(feature = "safetensors")]
    pub(crate) fn set_moments(&mut self, id: ParamId, step: i32, m: Vec<T>, v: Vec<T>) {
        self.state.insert(id, Moments { step, m, v });
    }

    /// One update of every parameter that has a gradient in `grads`; an error when a
    /// gradient's element count is not its parameter's.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Adam, Param, Tape};
    /// let mut p = Param::new("p", Tensor::<f64, shape![]>::from_array(1.0));
    /// let tape = Tape::new();
    /// let grads = (&tape.watch(&p) * 5.0).backward()?;
    /// drop(tape);
    /// Adam::new(0.1).step(&mut p, &grads)?;
    /// assert!((p.value().data()[0] - 0.9).abs() < 1e-7); // the first step moves by lr
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn step(&mut self, params: &mut impl Parameters<T>, grads: &Grads<T>) -> Result<(), Error> {
        let (lr, b1, b2, eps, wd, decoupled) = (
            self.lr,
            self.beta1,
            self.beta2,
            self.eps,
            self.weight_decay,
            self.decoupled,
        );
        let state = &mut self.state;
        let f64_of = |x: T| x.to_f64().unwrap_or(f64::NAN);
        each_with_grad(params, grads, |id, p, g| {
            let s = state.entry(id).or_insert_with(|| Moments {
                step: 0,
                m: vec![T::zero(); p.len()],
                v: vec![T::zero(); p.len()],
            });
            s.step += 1;
            // PyTorch computes the corrections in Python floats (f64).
            let c1 = 1.0 - Float::powi(f64_of(b1), s.step);
            let c2: f64 = 1.0 - Float::powi(f64_of(b2), s.step);
            let step_size = T::from(f64_of(lr) / c1).unwrap_or_else(T::nan);
            let c2_sqrt = T::from(Float::sqrt(c2)).unwrap_or_else(T::nan);
            let (one_b1, one_b2) = (T::one() - b1, T::one() - b2);
            let decay = T::one() - lr * wd;
            let update = |p: &mut [T], g: &[T], m: &mut [T], v: &mut [T]| {
                for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m).zip(v) {
                    let g = if decoupled || wd == T::zero() {
                        g
                    } else {
                        g + wd * *p
                    };
                    if decoupled {
                        *p = *p * decay;
                    }
                    *m = *m + one_b1 * (g - *m);
                    *v = *v * b2 + one_b2 * g * g;
                    let denom = v.sqrt() / c2_sqrt + eps;
                    *p = *p - step_size * (*m / denom);
                }
            };
            // Each element's update is independent of the others': a large parameter is
            // cut into pieces that split over threads (the `rayon` feature).
            let piece = piece_len(p.len(), 1 << 15);
            let mut pieces: Vec<_> = p
                .chunks_mut(piece)
                .zip(g.chunks(piece))
                .zip(s.m.chunks_mut(piece).zip(s.v.chunks_mut(piece)))
                .collect();
            each_mut(&mut pieces, |_, ((p, g), (m, v))| update(p, g, m, v));
        })
    }
}
