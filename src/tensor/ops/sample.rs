//! Sampling an index along a named axis of logits (feature `rand`): temperature, top-k and
//! top-p (nucleus) as Hugging Face's `generate` and llama2.c apply them, with a caller's
//! seeded generator (any `rand_core::Rng`, such as `rand::rngs::StdRng`), so that a run
//! repeats. On tensors, views and `DynTensor`.

use crate::alloc_prelude::*;

use num_traits::Float;

use crate::engine::allocation::ensure;
use crate::engine::walk::row_major_elements;
use crate::tensor::dyn_tensor::DynTensor;
use crate::tensor::receiver::{Contractible, Own};
use crate::tensor::tensor::Tensor;
use crate::typed::reduce::{OneAxis, Reduce, ReduceOver, SampleOver};
use crate::values::error::Error;
use crate::values::selector::AxisSelector;

/// How [`sample`](crate::Reductions::sample) picks an index from a line of logits: divide by the
/// temperature (0: the largest, greedy), keep the `top_k` largest, then the fewest largest
/// whose probabilities add up to `top_p`, and draw from what is left in proportion to its
/// probability.
///
/// ```
/// let how = shapecast::Sampling::default().temperature(0.8).top_k(40).top_p(0.95);
/// assert_eq!((how.temperature, how.top_k, how.top_p), (0.8, Some(40), Some(0.95)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// The logits are divided by it: below 1 sharper, above 1 flatter; 0 picks the largest.
    pub temperature: f64,
    /// Only the `k` largest logits may be drawn (`None`: all).
    pub top_k: Option<usize>,
    /// Only the fewest largest logits whose probabilities add up to at least `p` may be
    /// drawn (`None`: all).
    pub top_p: Option<f64>,
}

impl Default for Sampling {
    /// Temperature 1, no top-k, no top-p: a draw from the softmax.
    ///
    /// ```
    /// let how = shapecast::Sampling::default();
    /// assert_eq!((how.temperature, how.top_k, how.top_p), (1.0, None, None));
    /// ```
    fn default() -> Self {
        Sampling {
            temperature: 1.0,
            top_k: None,
            top_p: None,
        }
    }
}

impl Sampling {
    /// These options with the temperature `t`.
    ///
    /// ```
    /// assert_eq!(shapecast::Sampling::default().temperature(0.0).temperature, 0.0);
    /// ```
    pub fn temperature(self, t: f64) -> Self {
        Sampling {
            temperature: t,
            ..self
        }
    }

    /// These options keeping the `k` largest logits.
    ///
    /// ```
    /// assert_eq!(shapecast::Sampling::default().top_k(5).top_k, Some(5));
    /// ```
    pub fn top_k(self, k: usize) -> Self {
        Sampling {
            top_k: Some(k),
            ..self
        }
    }

    /// These options keeping the largest logits whose probabilities add up to `p`.
    ///
    /// ```
    /// assert_eq!(shapecast::Sampling::default().top_p(0.9).top_p, Some(0.9));
    /// ```
    pub fn top_p(self, p: f64) -> Self {
        Sampling {
            top_p: Some(p),
            ..self
        }
    }

    /// The options checked: a temperature of at least 0, a top-k of at least 1, a top-p in
    /// (0, 1].
    fn check(&self) -> Result<(), String> {
        if self.temperature.is_nan() || self.temperature < 0.0 {
            return Err(format!("the temperature {} is below 0", self.temperature));
        }
        if self.top_k == Some(0) {
            return Err("top-k keeps at least one logit".into());
        }
        if let Some(p) = self.top_p.filter(|p| !(*p > 0.0 && *p <= 1.0)) {
            return Err(format!("top-p {p} is outside (0, 1]"));
        }
        Ok(())
    }
}

/// A uniform draw in [0, 1) from 53 random bits.
fn uniform(rng: &mut impl rand_core::Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// One index drawn from the logits of one line (`line(i)` for `i < n`).
fn draw<T: Float>(
    n: usize,
    line: impl Fn(usize) -> T,
    how: &Sampling,
    rng: &mut impl rand_core::Rng,
    order: &mut Vec<(f64, usize)>,
) -> usize {
    let value = |i: usize| line(i).to_f64().unwrap_or(f64::NAN);
    // Largest first, equal logits in index order, NaN last (never drawn before a number).
    let before = |a: f64, b: f64| match (a.is_nan(), b.is_nan()) {
        (false, true) => core::cmp::Ordering::Less,
        (true, false) => core::cmp::Ordering::Greater,
        _ => b.partial_cmp(&a).unwrap_or(core::cmp::Ordering::Equal),
    };
    if how.temperature == 0.0 || n == 1 {
        // Greedy: the first of that order, by one pass rather than a sort.
        let first = |best: usize, i: usize| match before(value(i), value(best)) {
            core::cmp::Ordering::Less => i,
            _ => best,
        };
        return (1..n).fold(0, first);
    }
    order.clear();
    order.extend((0..n).map(|i| (value(i), i)));
    order.sort_by(|a, b| before(a.0, b.0));
    let keep = how.top_k.unwrap_or(n).min(n);
    order.truncate(keep);
    let top = order[0].0;
    // Probabilities up to a common factor: exp((x - max) / t).
    for pair in order.iter_mut() {
        pair.0 = ((pair.0 - top) / how.temperature).exp();
    }
    let total: f64 = order.iter().map(|p| p.0).sum();
    if let Some(p) = how.top_p {
        let mut sum = 0.0;
        let cut = order
            .iter()
            .position(|q| {
                sum += q.0;
                sum >= p * total
            })
            .map_or(order.len(), |i| i + 1);
        order.truncate(cut);
    }
    let total: f64 = order.iter().map(|p| p.0).sum();
    let mut u = uniform(rng) * total;
    for &(w, i) in order.iter() {
        if u < w {
            return i;
        }
        u -= w;
    }
    order[order.len() - 1].1
}

/// One index per line of `data` (row-major over `sizes`) along axis `at`, row-major over the
/// other axes; bad options or an empty axis are `refuse`d with the reason.
fn sample_lines<T: Float>(
    data: &[T],
    sizes: &[usize],
    at: usize,
    (how, rng): (&Sampling, &mut impl rand_core::Rng),
    refuse: impl FnOnce(String) -> Error,
) -> Result<Vec<usize>, Error> {
    let n = sizes[at];
    let no_lines = sizes.iter().enumerate().any(|(j, &s)| j != at && s == 0);
    let empty = (n == 0 && !no_lines).then(|| "the axis has size 0".to_string());
    if let Some(reason) = how.check().err().or(empty) {
        return Err(refuse(reason));
    }
    if no_lines {
        // Nothing to draw; the axis or the others may be huge.
        return Ok(Vec::new());
    }
    let inner: usize = sizes[at + 1..].iter().product();
    let outer: usize = sizes[..at].iter().product();
    let mut order = Vec::with_capacity(n);
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let base = o * n * inner + i;
            out.push(draw(n, |j| data[base + j * inner], how, rng, &mut order));
        }
    }
    Ok(out)
}

/// An index drawn along the one axis `A` selects of a typed tensor or view, for every
/// position of the other axes ([`Reductions::sample`](crate::Reductions::sample)).
pub(super) fn sampled<X, A: OneAxis>(
    x: &X,
    how: &Sampling,
    rng: &mut impl rand_core::Rng,
) -> Result<Tensor<usize, Reduce<X::Shape, A>>, Error>
where
    X: Contractible + ?Sized,
    X::Elem: Float,
    X::Shape: SampleOver<A>,
{
    let at = <X::Shape as ReduceOver<A>>::MASK
        .iter()
        .position(|&m| m)
        .expect("one axis");
    let refuse = |reason| Error::Gather {
        op: "sample",
        shape: x.shape_dyn(),
        by: super::surgery::show::<A>(),
        reason,
    };
    let mut own = Own::default();
    let layout = x.layout(&mut own);
    ensure::<X::Elem>(layout.sizes, || x.shape_dyn())?;
    let data = row_major_elements(&layout);
    let out = sample_lines(&data, layout.sizes, at, (how, rng), refuse)?;
    let mut sizes = layout.sizes.to_vec();
    sizes.remove(at);
    Tensor::from_vec_sized(&sizes, out)
}

impl<T: Float> DynTensor<T> {
    /// An index drawn along `axis` for every position of the other axes, as [`Sampling`]
    /// says: the logits' shape without `axis`. The axis must be the last (the categories, as
    /// PyTorch's `multinomial` reads them); another is an error.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use shapecast::{DynTensor, Sampling};
    /// let logits = DynTensor::from_vec("[VOCAB: 3]".parse()?, vec![0.0f32, 1.0, 8.0])?;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let pick = logits.sample(&"VOCAB".parse()?, &Sampling::default().temperature(0.0), &mut rng)?;
    /// assert_eq!((pick.shape().to_string(), pick.data()), ("[]".to_string(), &[2][..]));
    /// let seq = DynTensor::from_vec("[SEQ: 2, VOCAB: 2]".parse()?, vec![0.0f32; 4])?;
    /// assert!(seq.sample(&"SEQ".parse()?, &Sampling::default(), &mut rng).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn sample(
        &self,
        axis: &AxisSelector,
        how: &Sampling,
        rng: &mut impl rand_core::Rng,
    ) -> Result<DynTensor<usize>, Error> {
        let at = crate::dynamic::surgery::find("sample", self.shape(), axis)?;
        let refuse = |reason| Error::Gather {
            op: "sample",
            shape: self.shape().clone(),
            by: axis.to_string(),
            reason,
        };
        if at + 1 != self.shape().rank() {
            // The typed twin refuses this at compile time (`SampleOver`).
            return Err(refuse(
                "the sampled axis must be the last: the categories, as in PyTorch's `multinomial`"
                    .into(),
            ));
        }
        let out = sample_lines(self.data(), self.sizes(), at, (how, rng), refuse)?;
        let shape = crate::dynamic::surgery::select(self.shape(), axis)?;
        DynTensor::from_vec(shape, out)
    }
}
