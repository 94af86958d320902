//! Parameters: a tensor a model learns, with the name its checkpoint stores it under, and the
//! visitor through which an optimizer reaches every parameter of a model.

use crate::alloc_prelude::*;

use alloc::sync::Arc;
use core::sync::atomic::{AtomicU64, Ordering};

use super::trainable::Trainable;
use crate::tensor::Tensor;
use crate::typed::storage::Storage;

/// Which parameter a gradient or an optimizer's state belongs to: unique in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ParamId(u64);

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A tensor a model learns, of shape `S`, with the name a checkpoint stores it under
/// (`"blocks.0.attn.wq"`). [`Tape::watch`](super::Tape::watch) makes a tracked value of it
/// without copying, and an optimizer updates it in place (copying first only while a tape
/// still holds the old value). Its gradient ([`Grads::of`](super::Grads::of)) is a
/// `Tensor<T, S>`: the same shape type.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::Param;
/// names!(IN, OUT);
/// let mut w = Param::new("fc.weight", Tensor::<f32, shape![OUT: 2, IN: 3]>::zeros()?);
/// assert_eq!(w.name(), "fc.weight");
/// w.value_mut().data_mut()[0] = 1.0;
/// assert_eq!(w.value().data()[0], 1.0);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub struct Param<T, S: Storage<T>> {
    name: String,
    id: ParamId,
    value: Arc<Tensor<T, S>>,
}

impl<T: core::fmt::Debug, S: Storage<T>> core::fmt::Debug for Param<T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("value", &*self.value)
            .finish()
    }
}

impl<T, S: Storage<T>> Param<T, S> {
    /// A parameter named `name` holding `value`.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let b = shapecast::train::Param::new("bias", Tensor::<f64, shape![4]>::zeros()?);
    /// assert_eq!(b.value().sizes(), &[4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn new(name: impl Into<String>, value: Tensor<T, S>) -> Self {
        Param {
            name: name.into(),
            id: ParamId(NEXT.fetch_add(1, Ordering::Relaxed)),
            value: Arc::new(value),
        }
    }

    /// The name a checkpoint stores it under.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let b = shapecast::train::Param::new("bias", Tensor::<f64, shape![1]>::zeros()?);
    /// assert_eq!(b.name(), "bias");
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its identity: what [`Grads`](super::Grads) and the optimizers key it by.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::Param;
    /// let a = Param::new("a", Tensor::<f32, shape![1]>::zeros()?);
    /// let b = Param::new("a", Tensor::<f32, shape![1]>::zeros()?);
    /// assert_ne!(a.id(), b.id()); // the same name, two parameters
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn id(&self) -> ParamId {
        self.id
    }

    /// Its value.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let p = shapecast::train::Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// assert_eq!(p.value().data(), &[1.0, 2.0]);
    /// ```
    pub fn value(&self) -> &Tensor<T, S> {
        &self.value
    }

    /// Its value, to change in place (a copy is made first if a tape still holds it).
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let mut p = shapecast::train::Param::new("p", Tensor::<f32, shape![2]>::from_array([1.0, 2.0]));
    /// p.value_mut().data_mut()[1] = 5.0;
    /// assert_eq!(p.value().data(), &[1.0, 5.0]);
    /// ```
    pub fn value_mut(&mut self) -> &mut Tensor<T, S>
    where
        T: Clone,
    {
        Arc::make_mut(&mut self.value)
    }

    /// The value, shared with a tracked value.
    pub(crate) fn shared(&self) -> Arc<Tensor<T, S>> {
        Arc::clone(&self.value)
    }

    /// Its value, giving the parameter up.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// let p = shapecast::train::Param::new("p", Tensor::<f32, shape![1]>::from_array([3.0]));
    /// assert_eq!(p.into_tensor().data(), &[3.0]);
    /// ```
    pub fn into_tensor(self) -> Tensor<T, S>
    where
        T: Clone,
    {
        Arc::try_unwrap(self.value).unwrap_or_else(|shared| (*shared).clone())
    }
}

/// One parameter as an optimizer sees it, whatever its shape: its identity, name, sizes and
/// elements.
pub trait ParamSlot<T> {
    /// The parameter's identity.
    fn id(&self) -> ParamId;
    /// Its name.
    fn name(&self) -> &str;
    /// Its sizes.
    fn sizes(&self) -> &[usize];
    /// Its elements, row-major, to update in place.
    fn data_mut(&mut self) -> &mut [T];
}

impl<T: Clone, S: Storage<T>> ParamSlot<T> for Param<T, S> {
    fn id(&self) -> ParamId {
        self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn sizes(&self) -> &[usize] {
        self.value.sizes()
    }
    fn data_mut(&mut self) -> &mut [T] {
        self.value_mut().data_mut()
    }
}

/// A model's parameters, visited one by one: what an optimizer's `step` takes. Implemented
/// for a [`Param`], for slices, arrays and `Vec`s of anything that implements it, and for
/// tuples of up to eight; a model implements it by visiting its fields, or derives it
/// (`#[derive(Parameters)]`, each field in declaration order, `#[parameters(skip)]` on a
/// field that holds none):
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Parameters};
/// names!(IN, OUT);
/// #[derive(Parameters)]
/// struct Linear {
///     w: Param<f32, shape![IN: 3, OUT: 2]>,
///     b: Param<f32, shape![OUT: 2]>,
///     #[parameters(skip)]
///     label: &'static str,
/// }
/// #[derive(Parameters)]
/// struct Mlp(Linear, Vec<Linear>);
/// let fc = |name: &str| -> Result<Linear, shapecast::Error> {
///     Ok(Linear {
///         w: Param::new(format!("{name}.w"), Tensor::zeros()?),
///         b: Param::new(format!("{name}.b"), Tensor::zeros()?),
///         label: "fc",
///     })
/// };
/// let mut mlp = Mlp(fc("in")?, vec![fc("h0")?, fc("h1")?]);
/// let mut names = Vec::new();
/// mlp.visit(&mut |p| names.push(p.name().to_string()));
/// assert_eq!(names, ["in.w", "in.b", "h0.w", "h0.b", "h1.w", "h1.b"]);
/// assert_eq!(mlp.0.label, "fc");
/// # Ok::<(), shapecast::Error>(())
/// ```
///
/// A field whose type has no parameters (a plain `Tensor`) makes the optimizer's `step` on
/// the model fail to compile, naming that type and saying to wrap it in `Param`.
///
/// By hand:
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, ParamSlot, Parameters, Trainable};
/// names!(IN, OUT);
/// struct Linear<T: Trainable> {
///     w: Param<T, shape![IN: 3, OUT: 2]>,
///     b: Param<T, shape![OUT: 2]>,
/// }
/// impl<T: Trainable> Parameters<T> for Linear<T> {
///     fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
///         (&mut self.w, &mut self.b).visit(f);
///     }
/// }
/// let mut fc = Linear::<f32> {
///     w: Param::new("fc.w", Tensor::zeros()?),
///     b: Param::new("fc.b", Tensor::zeros()?),
/// };
/// let mut names = Vec::new();
/// fc.visit(&mut |p| names.push(p.name().to_string()));
/// assert_eq!(names, ["fc.w", "fc.b"]);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a set of parameters an optimizer can step",
    label = "a `Param`, or a model implementing `Parameters` by visiting its `Param`s",
    note = "a plain tensor has no identity to key a gradient or an optimizer's state by: wrap it in `Param::new(name, tensor)`"
)]
pub trait Parameters<T> {
    /// Calls `f` on every parameter, in a fixed order.
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>));
}

impl<T: Trainable, S: Storage<T>> Parameters<T> for Param<T, S> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
        f(self)
    }
}

impl<T, P: Parameters<T> + ?Sized> Parameters<T> for &mut P {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
        (**self).visit(f)
    }
}

impl<T, P: Parameters<T>> Parameters<T> for [P] {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
        self.iter_mut().for_each(|p| p.visit(f))
    }
}

impl<T, P: Parameters<T>, const N: usize> Parameters<T> for [P; N] {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
        self.as_mut_slice().visit(f)
    }
}

impl<T, P: Parameters<T>> Parameters<T> for Vec<P> {
    fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
        self.as_mut_slice().visit(f)
    }
}

macro_rules! tuple_parameters {
    ($($P:ident . $i:tt),+) => {
        impl<T, $($P: Parameters<T>),+> Parameters<T> for ($($P,)+) {
            fn visit(&mut self, f: &mut dyn FnMut(&mut dyn ParamSlot<T>)) {
                $(self.$i.visit(f);)+
            }
        }
    };
}
tuple_parameters!(A.0);
tuple_parameters!(A.0, B.1);
tuple_parameters!(A.0, B.1, C.2);
tuple_parameters!(A.0, B.1, C.2, D.3);
tuple_parameters!(A.0, B.1, C.2, D.3, E.4);
tuple_parameters!(A.0, B.1, C.2, D.3, E.4, F.5);
tuple_parameters!(A.0, B.1, C.2, D.3, E.4, F.5, G.6);
tuple_parameters!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7);
