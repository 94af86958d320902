//! Checkpoints (feature `safetensors`): a model's parameters under their names, and an
//! optimizer's state under `{name}.{key}`, in one `.safetensors` file; loading checks every
//! name and every shape against the model.

use crate::alloc_prelude::*;

use std::path::Path;

use super::optim::{Adam, Sgd};
use super::param::{ParamId, ParamSlot, Parameters};
use super::trainable::Trainable;
use crate::io::{self, SafetensorsElement, SafetensorsTensor, Weights};
use crate::tensor::DynTensor;
use crate::values::error::Error;
use crate::values::shape::DynShape;

/// Reads one piece of an optimizer's state from a checkpoint by its key (`"adam.m"`): `None`
/// where the checkpoint has none.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{OptimizerState, Param, Sgd, StateReader};
/// let w = Param::new("w", Tensor::<f32, shape![4]>::from_array([0.0; 4]));
/// let mut sgd = Sgd::<f32>::new(0.1);
/// let mut pieces = |key: &str| (key == "sgd.momentum").then(|| vec![0.5; 3]);
/// let get: StateReader<'_, f32> = &mut pieces;
/// assert!(sgd.import(w.id(), 4, get).is_err()); // 3 elements where 4 are expected
/// ```
pub type StateReader<'a, T> = &'a mut dyn FnMut(&str) -> Option<Vec<T>>;

/// An optimizer whose state a checkpoint holds: per parameter, named pieces (`"adam.m"`), each
/// of the parameter's element count or a single value.
pub trait OptimizerState<T> {
    /// The state of parameter `id`: each piece's key and elements.
    fn export(&self, id: ParamId) -> Vec<(&'static str, Vec<T>)>;
    /// Restores the state of parameter `id` (`len` elements) from the pieces `get` reads.
    fn import(&mut self, id: ParamId, len: usize, get: StateReader<'_, T>) -> Result<(), Error>;
}

impl<T: Trainable> OptimizerState<T> for Sgd<T> {
    fn export(&self, id: ParamId) -> Vec<(&'static str, Vec<T>)> {
        self.buffer(id)
            .map(|b| vec![("sgd.momentum", b.to_vec())])
            .unwrap_or_default()
    }
    fn import(&mut self, id: ParamId, len: usize, get: StateReader<'_, T>) -> Result<(), Error> {
        match get("sgd.momentum") {
            Some(b) if b.len() != len => Err(state_error("sgd.momentum", b.len(), len)),
            Some(b) => {
                self.set_buffer(id, b);
                Ok(())
            }
            None => Ok(()),
        }
    }
}

impl<T: Trainable> OptimizerState<T> for Adam<T> {
    fn export(&self, id: ParamId) -> Vec<(&'static str, Vec<T>)> {
        self.moments(id)
            .map(|(step, m, v)| {
                let step = T::from(step).unwrap_or_else(T::zero);
                vec![
                    ("adam.step", vec![step]),
                    ("adam.m", m.to_vec()),
                    ("adam.v", v.to_vec()),
                ]
            })
            .unwrap_or_default()
    }
    fn import(&mut self, id: ParamId, len: usize, get: StateReader<'_, T>) -> Result<(), Error> {
        let (Some(step), Some(m), Some(v)) = (get("adam.step"), get("adam.m"), get("adam.v"))
        else {
            return Ok(());
        };
        for (key, got, want) in [
            ("adam.step", step.len(), 1),
            ("adam.m", m.len(), len),
            ("adam.v", v.len(), len),
        ] {
            if got != want {
                return Err(state_error(key, got, want));
            }
        }
        let step = step[0]
            .to_i32()
            .ok_or_else(|| state_error("adam.step", 0, 1))?;
        self.set_moments(id, step, m, v);
        Ok(())
    }
}

fn state_error(key: &str, got: usize, want: usize) -> Error {
    Error::Gradient {
        reason: format!("the optimizer state {key:?} has {got} elements where {want} are expected"),
    }
}

/// Saves `model`'s parameters under their names and `optimizer`'s state under
/// `{name}.{key}` to the `.safetensors` file `path`; an error when two parameters share a name.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{load_checkpoint, save_checkpoint, Adam, Param, Tape};
/// let grads_of = |p: &Param<f32, shape![2]>| {
///     let tape = Tape::new();
///     (&tape.watch(p) * 3.0).sum::<Pos<0>>().backward()
/// };
/// let mut p = Param::new("fc.bias", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
/// let mut adam = Adam::new(0.1);
/// let g = grads_of(&p)?;
/// adam.step(&mut p, &g)?;
/// let path = std::env::temp_dir().join("shapecast-checkpoint-doc.safetensors");
/// save_checkpoint(&path, &mut p, &adam)?;
///
/// // Another process: a fresh model and optimizer, resumed from the file.
/// let mut q = Param::new("fc.bias", Tensor::<f32, shape![2]>::zeros()?);
/// let mut resumed = Adam::new(0.1);
/// load_checkpoint(&path, &mut q, &mut resumed)?;
/// assert_eq!(q.value().data(), p.value().data());
/// // The same next step as the optimizer that was saved (its moments came back).
/// let (gp, gq) = (grads_of(&p)?, grads_of(&q)?);
/// adam.step(&mut p, &gp)?;
/// resumed.step(&mut q, &gq)?;
/// assert_eq!(q.value().data(), p.value().data());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn save_checkpoint<T: Trainable + SafetensorsElement>(
    path: impl AsRef<Path>,
    model: &mut impl Parameters<T>,
    optimizer: &impl OptimizerState<T>,
) -> Result<(), Error> {
    let mut stored: Vec<(String, DynTensor<T>)> = Vec::new();
    let mut bad = None;
    model.visit(&mut |p: &mut dyn ParamSlot<T>| {
        let name = p.name().to_string();
        let sizes = p.sizes().to_vec();
        let mut add = |key: String, sizes: &[usize], data: Vec<T>| {
            if stored.iter().any(|(n, _)| *n == key) {
                bad.get_or_insert(Error::Gradient {
                    reason: format!("two parameters are named {key:?}"),
                });
            }
            match DynShape::from_sizes(sizes).and_then(|s| DynTensor::from_vec(s, data)) {
                Ok(t) => stored.push((key, t)),
                Err(e) => {
                    bad.get_or_insert(e);
                }
            }
        };
        for (key, data) in optimizer.export(p.id()) {
            let shape = if data.len() == 1 && key.ends_with("step") {
                vec![1]
            } else {
                sizes.clone()
            };
            add(format!("{name}.{key}"), &shape, data);
        }
        let data = p.data_mut().to_vec();
        add(name, &sizes, data);
    });
    if let Some(e) = bad {
        return Err(e);
    }
    let refs: Vec<(&str, &dyn SafetensorsTensor)> = stored
        .iter()
        .map(|(n, t)| (n.as_str(), t as &dyn SafetensorsTensor))
        .collect();
    io::save_safetensors(path, &refs)
}

/// Loads `model`'s parameters by name from the `.safetensors` file `path`, each checked to
/// have its parameter's sizes, and `optimizer`'s state where the file holds it; the first
/// missing name or wrong shape is the error (parameters before it are already loaded).
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{load_checkpoint, save_checkpoint, Param, Sgd};
/// let mut p = Param::new("w", Tensor::<f64, shape![3]>::from_array([1.0, 2.0, 3.0]));
/// let path = std::env::temp_dir().join("shapecast-checkpoint-shape-doc.safetensors");
/// save_checkpoint(&path, &mut p, &Sgd::new(0.1))?;
/// let mut wrong = Param::new("w", Tensor::<f64, shape![2]>::zeros()?);
/// assert!(load_checkpoint(&path, &mut wrong, &mut Sgd::new(0.1)).is_err());
/// let mut missing = Param::new("v", Tensor::<f64, shape![3]>::zeros()?);
/// assert!(load_checkpoint(&path, &mut missing, &mut Sgd::new(0.1)).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn load_checkpoint<T: Trainable + SafetensorsElement>(
    path: impl AsRef<Path>,
    model: &mut impl Parameters<T>,
    optimizer: &mut impl OptimizerState<T>,
) -> Result<(), Error> {
    let path = path.as_ref();
    let weights: Weights = io::load_safetensors(path)?;
    let mut result = Ok(());
    model.visit(&mut |p: &mut dyn ParamSlot<T>| {
        if result.is_err() {
            return;
        }
        let name = p.name().to_string();
        let loaded = weights.get_dyn::<T>(&name).and_then(|t| {
            if t.sizes() != p.sizes() {
                return Err(Error::BadFile {
                    path: path.display().to_string(),
                    reason: format!(
                        "{name:?} has the sizes {:?}, the parameter {:?}",
                        t.sizes(),
                        p.sizes()
                    ),
                });
            }
            Ok(t)
        });
        result = loaded.and_then(|t| {
            p.data_mut().copy_from_slice(t.data());
            let mut get = |key: &str| {
                weights
                    .get_dyn::<T>(&format!("{name}.{key}"))
                    .ok()
                    .map(|t| t.data().to_vec())
            };
            optimizer.import(p.id(), t.data().len(), &mut get)
        });
    });
    result
}
