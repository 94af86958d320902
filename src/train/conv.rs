//! Convolution and pooling of tracked values (rule book §20). A convolution's gradients are
//! GEMM calls on the forward pass's patches (`engine::conv_backward`); a pool's go back
//! through each axis' pool in turn, the maximum's to its window's first maximum; an
//! upsampling's through each axis' resampling transposed.

use crate::alloc_prelude::*;

use super::tape::Accumulate;
use super::trainable::Trainable;
use super::var::Var;
use crate::dynamic::pool::pool;
use crate::dynamic::upsample::Interpolation;
use crate::engine::gradient;
use crate::tensor::{typed_interpolation, Target};
use crate::tensor::{Contractible, ConvOut, Convolution, ConvolveWith, Pooling, Tensor};
use crate::typed::pool::{PoolGeometry, PoolOver, Pooled};
use crate::typed::reduce::Selector;
use crate::typed::storage::Storage;
use crate::typed::upsample::{
    ResizeOver, ResizeTarget, Resized, UpsampleFactor, UpsampleOver, Upsampled,
};
use crate::values::error::Error;

/// What `L.conv::<C, G>(&Var<_, W>)` gives.
type Convolved<L, W, C, G> = Var<
    <L as VarConv<W>>::Elem,
    ConvOut<
        Tensor<<L as VarConv<W>>::Elem, <L as VarConv<W>>::Shape>,
        Tensor<<L as VarConv<W>>::Elem, W>,
        C,
        G,
    >,
>;

/// `conv::<C, G>` on tracked values: `use shapecast::train::VarConv` (in the prelude). The
/// weight's type is the trait's parameter, so a call spells out only the channel and the
/// geometry, as [`Convolution`] does for tensors.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Tape};
/// names!(C, K, T);
/// let w = Param::new("w", Tensor::<f64, shape![K: 1, C: 1, T: 2]>::from_array([[[1.0, -1.0]]]));
/// let tape = Tape::new();
/// let x = tape.constant(Tensor::<f64, shape![C: 1, T: 4]>::from_array([[1.0, 2.0, 4.0, 8.0]]));
/// let y = x.conv::<C, Conv<1>>(&tape.watch(&w)); // [K: 1, T: 3]: x[t] − x[t + 1]
/// assert_eq!(y.value().data(), &[-1.0, -2.0, -4.0]);
/// let g = y.sum::<(K, T)>().backward()?.of(&w)?;
/// assert_eq!(g.data(), &[7.0, 14.0]); // Σ x[t] over the three taps' reach
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait VarConv<W> {
    /// The element type.
    type Elem: Trainable;
    /// The input's shape.
    type Shape: Storage<Self::Elem>;

    /// The convolution over the channel `C` with the geometry `G` (as
    /// [`Convolution::conv`]); the gradients of the input and of the weight.
    ///
    /// # Panics
    ///
    /// When a `?` size does not fit, as `Tensor`'s `conv`, or the operands are on two tapes.
    fn conv<C, G>(&self, weight: &Var<Self::Elem, W>) -> Convolved<Self, W, C, G>
    where
        W: Storage<Self::Elem>,
        Tensor<Self::Elem, Self::Shape>: ConvolveWith<Tensor<Self::Elem, W>, C, G>
            + Contractible<Elem = Self::Elem, Shape = Self::Shape>;
}

impl<T: Trainable, S: Storage<T>, W> VarConv<W> for Var<T, S> {
    type Elem = T;
    type Shape = S;

    #[track_caller]
    fn conv<C, G>(&self, weight: &Var<T, W>) -> Var<T, ConvOut<Tensor<T, S>, Tensor<T, W>, C, G>>
    where
        W: Storage<T>,
        Tensor<T, S>: ConvolveWith<Tensor<T, W>, C, G> + Contractible<Elem = T, Shape = S>,
    {
        assert!(
            self.tape().same(weight.tape()),
            "the operands are on two tapes"
        );
        let value =
            <Tensor<T, S> as Convolution<Tensor<T, W>>>::conv::<C, G>(self.value(), weight.value());
        let channel = <Tensor<T, S> as ConvolveWith<Tensor<T, W>, C, G>>::CHANNEL;
        let spec = <Tensor<T, S> as ConvolveWith<Tensor<T, W>, C, G>>::SPEC;
        let (nx, nw) = (self.node(), weight.node());
        let (x, w) = (self.shared(), weight.shared());
        Var::derived(self.tape(), [nx, nw], value, move |_| {
            Box::new(move |g: Vec<T>, acc: &mut Accumulate<'_, T>| {
                let (gx, gw) = crate::tensor::conv_backward(
                    (&x.shape(), x.sizes(), x.data()),
                    (&w.shape(), w.sizes(), w.data()),
                    (channel, &spec),
                    &g,
                    (nx.is_some(), nw.is_some()),
                )?;
                if let Some(gx) = gx {
                    acc.add(nx, gx)?;
                }
                if let Some(gw) = gw {
                    acc.add(nw, gw)?;
                }
                Ok(())
            })
        })
    }
}

impl<T: Trainable, S: Storage<T>> Var<T, S> {
    /// The maximum over windows along the axes `A` selects with the geometry `P` (as
    /// `Tensor::try_max_pool`); the gradient goes to each window's first maximum, as
    /// PyTorch's does.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(H, W);
    /// let p = Param::new("x", Tensor::<f64, shape![H: 2, W: 2]>::from_array([[1.0, 4.0], [4.0, 2.0]]));
    /// let tape = Tape::new();
    /// let y = tape.watch(&p).max_pool::<(H, W), Pool<2>>()?; // [H: 1, W: 1]: 4
    /// let g = y.sum::<(H, W)>().backward()?.of(&p)?;
    /// assert_eq!(g.data(), &[0.0, 1.0, 0.0, 0.0]); // the first 4 in row-major order
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn max_pool<A, P>(&self) -> Result<Var<T, Pooled<S, A, P>>, Error>
    where
        A: Selector,
        P: PoolGeometry,
        S: PoolOver<A, P>,
    {
        let plan = pool(&self.value().shape(), &A::selectors(), &P::SPEC)?;
        let rank = self.sizes().len();
        if plan.axes.len() == 2 && plan.axes[0] + 2 == rank && plan.axes[1] + 1 == rank {
            // An image's rows and columns: the maxima found once, with where they are.
            let x = self.value().data();
            let (sizes, at, max) = crate::tensor::max_pool_2d_argmax(x, self.sizes(), &P::SPEC);
            let value = Tensor::from_vec_sized(&sizes, max)?;
            // Windows side by side (2x2, stride 2) cover rows no other output row's reach:
            // the scatter splits over threads by rows of windows.
            let side_by_side = P::SPEC.kernel == 2 && P::SPEC.stride == 2 && P::SPEC.padding == 0;
            let (input, pooled) = (self.sizes().to_vec(), sizes);
            return Ok(self.unary_op(value, move |g, _, _| {
                Ok(if side_by_side {
                    gradient::scatter_pooled((&input, &pooled), &at, &g)
                } else {
                    gradient::scatter_add(input.iter().product(), &at, &g)
                })
            }));
        }
        let value = self.value().try_max_pool::<A, P>()?;
        self.pooled::<A, P, _>(value, true)
    }

    /// The average over windows along the axes `A` selects with the geometry `P` (as
    /// `Tensor::try_avg_pool`); the gradient is spread over each window by its divisor.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 4]>::from_array([1.0, 2.0, 3.0, 4.0]));
    /// let tape = Tape::new();
    /// let y = tape.watch(&p).avg_pool::<T, Pool<2>>()?; // [T: 2]
    /// assert_eq!(y.sum::<T>().backward()?.of(&p)?.data(), &[0.5; 4]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn avg_pool<A, P>(&self) -> Result<Var<T, Pooled<S, A, P>>, Error>
    where
        A: Selector,
        P: PoolGeometry,
        S: PoolOver<A, P>,
    {
        let value = self.value().try_avg_pool::<A, P>()?;
        self.pooled::<A, P, _>(value, false)
    }

    /// This value upsampled by `P` ([`Scale<F>`](crate::Scale)) along each axis `A` selects,
    /// read by `mode` (as `Tensor::try_upsample`: PyTorch's `F.interpolate`); each output
    /// element's gradient goes back to the elements it was read from, by their weights.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 2]>::from_array([0.0, 4.0]));
    /// let tape = Tape::new();
    /// let linear = Interpolation::Linear { align_corners: false, antialias: false };
    /// let y = tape.watch(&p).upsample::<T, Scale<2>>(linear)?; // [0, 1, 3, 4]
    /// let w = Tensor::<f64, shape![T: 4]>::from_array([1.0, 10.0, 100.0, 1000.0]);
    /// // x[0] is read with weights 1, 3/4, 1/4, 0; x[1] with 0, 1/4, 3/4, 1.
    /// assert_eq!((&y * &w).sum::<T>().backward()?.of(&p)?.data(), &[33.5, 1077.5]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn upsample<A, P>(&self, mode: Interpolation) -> Result<Var<T, Upsampled<S, A, P>>, Error>
    where
        A: Selector,
        P: UpsampleFactor,
        S: UpsampleOver<A, P>,
    {
        self.interpolated::<A, _>(Target::Factor(P::FACTOR), mode)
    }

    /// This value with each axis `A` selects resized to the static size `Z` (`S<N>`), read
    /// by `mode` (rule book §23; [`Upsampling::resize`](crate::Upsampling::resize)), with
    /// its gradient: each axis' interpolation transposed.
    ///
    /// ```
    /// use shapecast::prelude::*;
    /// use shapecast::train::{Param, Tape};
    /// names!(T);
    /// let p = Param::new("x", Tensor::<f64, shape![T: 4]>::from_array([1.0, 3.0, 5.0, 9.0]));
    /// let tape = Tape::new();
    /// let y = tape.watch(&p).resize::<T, S<2>>(Interpolation::Area)?; // [2, 7]
    /// let w = Tensor::<f64, shape![T: 2]>::from_array([1.0, 10.0]);
    /// // Each output is the mean of two inputs.
    /// assert_eq!((&y * &w).sum::<T>().backward()?.of(&p)?.data(), &[0.5, 0.5, 5.0, 5.0]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn resize<A, Z>(&self, mode: Interpolation) -> Result<Var<T, Resized<S, A, Z>>, Error>
    where
        A: Selector,
        Z: ResizeTarget,
        S: ResizeOver<A, Z>,
    {
        self.interpolated::<A, _>(Target::Size(Z::TARGET), mode)
    }

    /// This value interpolated to `target` over the axes `A` selects, with the gradient.
    fn interpolated<A: Selector, O: Storage<T>>(
        &self,
        target: Target<'_>,
        mode: Interpolation,
    ) -> Result<Var<T, O>, Error> {
        let (plan, data) = typed_interpolation::<_, A>(self.value(), target, mode)?;
        let value = Tensor::from_parts(&plan.output, data);
        Ok(self.unary_op(value, move |g, _, _| Ok(plan.back(g))))
    }

    fn pooled<A: Selector, P: PoolGeometry, O: Storage<T>>(
        &self,
        value: Tensor<T, O>,
        max: bool,
    ) -> Result<Var<T, O>, Error> {
        let plan = pool(&self.value().shape(), &A::selectors(), &P::SPEC)?;
        Ok(self.unary_op(value, move |g, x, _| {
            Ok(crate::tensor::pool_backward(
                x.data(),
                x.sizes(),
                &plan.axes,
                &P::SPEC,
                max,
                &g,
            ))
        }))
    }
}
