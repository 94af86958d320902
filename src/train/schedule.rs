//! Learning-rate schedules: the rate of each optimizer step as PyTorch's
//! `torch.optim.lr_scheduler` gives it, in closed form (`f64`, as PyTorch keeps its rates), to
//! set an optimizer's `lr` before each step. [`Schedule::then`] chains two
//! (`SequentialLR`): a linear warm-up, then a cosine decay.
//!
//! ```
//! use shapecast::train::{CosineAnnealing, LinearLr, Schedule};
//! // 100 steps from 1% to the full rate, then a cosine decay to 1e-5 over 900 steps.
//! let warmup = LinearLr::new(3e-4, 0.01, 1.0, 100)?;
//! let schedule = warmup.then(100, CosineAnnealing::new(3e-4, 900, 1e-5)?);
//! assert!((schedule.lr(0) - 3e-6).abs() < 1e-15);
//! assert!((schedule.lr(100) - 3e-4).abs() < 1e-15);
//! assert!((schedule.lr(1000) - 1e-5).abs() < 1e-15);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use core::f64::consts::PI;

use num_traits::Float;

use crate::values::error::Error;

/// The learning rate at each step, counted from 0 (the rate of the first optimizer step): the
/// value PyTorch's scheduler holds after `step` calls of `scheduler.step()`.
///
/// ```
/// use shapecast::prelude::*;
/// use shapecast::train::{Param, Schedule, Sgd, StepLr, Tape};
/// let mut p = Param::new("p", Tensor::<f32, shape![]>::from_array(3.0));
/// let mut sgd = Sgd::new(0.0f32);
/// let schedule = StepLr::new(0.1, 10, 0.5)?;
/// for step in 0..30 {
///     sgd.lr = schedule.lr(step) as f32;
///     let tape = Tape::new();
///     let v = tape.watch(&p);
///     sgd.step(&mut p, &(&v * &v).backward()?)?;
/// }
/// assert_eq!(sgd.lr, 0.025);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub trait Schedule {
    /// The rate at `step`.
    fn lr(&self, step: usize) -> f64;

    /// This schedule up to `milestone`, then `next` from its own step 0 (PyTorch's
    /// `SequentialLR` with one milestone).
    ///
    /// ```
    /// use shapecast::train::{ExponentialLr, LinearLr, Schedule};
    /// let s = LinearLr::new(1.0, 0.5, 1.0, 2)?.then(2, ExponentialLr::new(1.0, 0.5)?);
    /// let rates: Vec<f64> = (0..5).map(|t| s.lr(t)).collect();
    /// assert_eq!(rates, [0.5, 0.75, 1.0, 0.5, 0.25]);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    fn then<S: Schedule>(self, milestone: usize, next: S) -> Then<Self, S>
    where
        Self: Sized,
    {
        Then {
            first: self,
            milestone,
            next,
        }
    }
}

/// A closure from the step to the rate is a schedule (PyTorch's `LambdaLR` gives the base rate
/// times such a function's factor), so a rule of one's own chains with the others.
///
/// ```
/// use shapecast::train::{CosineAnnealing, Schedule};
/// // nanoGPT's warm-up: (step + 1) / (warmup + 1) of the rate, then a cosine decay.
/// let warmup = |step: usize| 6e-4 * (step + 1) as f64 / 11.0;
/// let s = warmup.then(10, CosineAnnealing::new(6e-4, 90, 6e-5)?);
/// assert!((s.lr(0) - 6e-4 / 11.0).abs() < 1e-18 && s.lr(10) == 6e-4);
/// # Ok::<(), shapecast::Error>(())
/// ```
impl<F: Fn(usize) -> f64> Schedule for F {
    fn lr(&self, step: usize) -> f64 {
        self(step)
    }
}

/// A schedule's refusal of its parameters.
fn refuse(reason: String) -> Error {
    Error::Schedule { reason }
}

/// A rate or a factor: finite and not negative.
fn not_negative(name: &str, what: &str, f: f64) -> Result<f64, Error> {
    if f.is_finite() && f >= 0.0 {
        Ok(f)
    } else {
        Err(refuse(format!(
            "{name}: {what} must be finite and not negative, not {f}"
        )))
    }
}

/// A count of steps: at least 1.
fn steps(name: &str, what: &str, n: usize) -> Result<usize, Error> {
    if n > 0 {
        Ok(n)
    } else {
        Err(refuse(format!("{name}: {what} must be at least 1 step")))
    }
}

/// `lr · γ^k` for a step count (`powi` takes an `i32`; past it the power is `γ^i32::MAX`, 0
/// or 1 or the limit for any `γ` a schedule takes). A rate of 0 stays 0, as PyTorch's
/// step-by-step products keep it, where `0 · ∞` would be NaN.
fn times_power(lr: f64, gamma: f64, k: usize) -> f64 {
    if lr == 0.0 {
        return 0.0;
    }
    lr * Float::powi(gamma, i32::try_from(k).unwrap_or(i32::MAX))
}

/// The rate times `gamma` every `step_size` steps (PyTorch's `StepLR`).
///
/// ```
/// use shapecast::train::{Schedule, StepLr};
/// let s = StepLr::new(0.1, 3, 0.5)?;
/// assert_eq!((s.lr(2), s.lr(3), s.lr(6)), (0.1, 0.05, 0.025));
/// assert!(StepLr::new(0.1, 0, 0.5).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct StepLr {
    lr: f64,
    step_size: usize,
    gamma: f64,
}

impl StepLr {
    /// From the base rate `lr`, the period `step_size` (at least 1) and the factor `gamma`;
    /// or the error for a step size of 0, or a negative or non-finite rate or factor.
    ///
    /// ```
    /// assert!(shapecast::train::StepLr::new(0.1, 10, f64::NAN).is_err());
    /// ```
    pub fn new(lr: f64, step_size: usize, gamma: f64) -> Result<Self, Error> {
        Ok(StepLr {
            lr: not_negative("StepLr", "the rate", lr)?,
            step_size: steps("StepLr", "the step size", step_size)?,
            gamma: not_negative("StepLr", "gamma", gamma)?,
        })
    }
}

impl Schedule for StepLr {
    fn lr(&self, step: usize) -> f64 {
        times_power(self.lr, self.gamma, step / self.step_size)
    }
}

/// The rate times `gamma` at each milestone passed (PyTorch's `MultiStepLR`; a milestone
/// given twice counts twice, as there).
///
/// ```
/// use shapecast::train::{MultiStepLr, Schedule};
/// let s = MultiStepLr::new(1.0, &[2, 5], 0.1)?;
/// assert_eq!((s.lr(1), s.lr(2), s.lr(5)), (1.0, 0.1, 1.0 * 0.1 * 0.1));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MultiStepLr {
    lr: f64,
    milestones: Vec<usize>,
    gamma: f64,
}

impl MultiStepLr {
    /// From the base rate `lr`, the steps at which the rate falls, in any order, and the
    /// factor `gamma`; or the error for a negative or non-finite rate or factor.
    ///
    /// ```
    /// assert!(shapecast::train::MultiStepLr::new(-1.0, &[3], 0.1).is_err());
    /// ```
    pub fn new(lr: f64, milestones: &[usize], gamma: f64) -> Result<Self, Error> {
        let mut milestones = milestones.to_vec();
        milestones.sort_unstable();
        Ok(MultiStepLr {
            lr: not_negative("MultiStepLr", "the rate", lr)?,
            milestones,
            gamma: not_negative("MultiStepLr", "gamma", gamma)?,
        })
    }
}

impl Schedule for MultiStepLr {
    fn lr(&self, step: usize) -> f64 {
        let passed = self.milestones.partition_point(|&m| m <= step);
        times_power(self.lr, self.gamma, passed)
    }
}

/// The rate times `gamma` every step (PyTorch's `ExponentialLR`).
///
/// ```
/// use shapecast::train::{ExponentialLr, Schedule};
/// let s = ExponentialLr::new(1.0, 0.5)?;
/// assert_eq!((s.lr(0), s.lr(3)), (1.0, 0.125));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ExponentialLr {
    lr: f64,
    gamma: f64,
}

impl ExponentialLr {
    /// From the base rate `lr` and the factor `gamma`; or the error for a negative or
    /// non-finite one.
    ///
    /// ```
    /// assert!(shapecast::train::ExponentialLr::new(1.0, f64::INFINITY).is_err());
    /// ```
    pub fn new(lr: f64, gamma: f64) -> Result<Self, Error> {
        Ok(ExponentialLr {
            lr: not_negative("ExponentialLr", "the rate", lr)?,
            gamma: not_negative("ExponentialLr", "gamma", gamma)?,
        })
    }
}

impl Schedule for ExponentialLr {
    fn lr(&self, step: usize) -> f64 {
        times_power(self.lr, self.gamma, step)
    }
}

/// The rate times a factor that moves linearly from `start_factor` to `end_factor` over
/// `total_iters` steps, then stays (PyTorch's `LinearLR`: a linear warm-up, or a decay).
///
/// ```
/// use shapecast::train::{LinearLr, Schedule};
/// let s = LinearLr::new(0.1, 0.25, 1.0, 4)?;
/// assert!((s.lr(0) - 0.025).abs() < 1e-15 && (s.lr(2) - 0.0625).abs() < 1e-15);
/// assert_eq!(s.lr(4), s.lr(100));
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LinearLr {
    lr: f64,
    start: f64,
    end: f64,
    total: usize,
}

impl LinearLr {
    /// From the base rate `lr`, the factors at step 0 (`start_factor`, in `(0, 1]` as
    /// PyTorch asks) and from step `total_iters` on (`end_factor`, in `[0, 1]`); or the error
    /// for a factor outside those ranges, `total_iters` of 0, or a negative or non-finite
    /// rate.
    ///
    /// ```
    /// use shapecast::train::LinearLr;
    /// assert!(LinearLr::new(0.1, 0.0, 1.0, 10).is_err()); // a warm-up must start above 0
    /// assert!(LinearLr::new(0.1, 1.0, 0.0, 10).is_ok()); // a decay may end at 0
    /// ```
    pub fn new(
        lr: f64,
        start_factor: f64,
        end_factor: f64,
        total_iters: usize,
    ) -> Result<Self, Error> {
        if !(start_factor > 0.0 && start_factor <= 1.0) {
            return Err(refuse(format!(
                "LinearLr: the start factor must be in (0, 1], not {start_factor}"
            )));
        }
        if !(0.0..=1.0).contains(&end_factor) {
            return Err(refuse(format!(
                "LinearLr: the end factor must be in [0, 1], not {end_factor}"
            )));
        }
        Ok(LinearLr {
            lr: not_negative("LinearLr", "the rate", lr)?,
            start: start_factor,
            end: end_factor,
            total: steps("LinearLr", "the warm-up", total_iters)?,
        })
    }
}

impl Schedule for LinearLr {
    fn lr(&self, step: usize) -> f64 {
        let done = step.min(self.total) as f64 / self.total as f64;
        self.lr * (self.start + (self.end - self.start) * done)
    }
}

/// Half a cosine from the rate down to `eta_min` over `t_max` steps (PyTorch's
/// `CosineAnnealingLR`, in its closed form; past `t_max` the cosine goes on, back up, as
/// there).
///
/// ```
/// use shapecast::train::{CosineAnnealing, Schedule};
/// let s = CosineAnnealing::new(0.1, 5, 0.01)?;
/// assert_eq!(s.lr(0), 0.1);
/// assert!((s.lr(5) - 0.01).abs() < 1e-15);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CosineAnnealing {
    lr: f64,
    t_max: usize,
    eta_min: f64,
}

impl CosineAnnealing {
    /// From the base rate `lr`, the half period `t_max` (at least 1) and the floor `eta_min`;
    /// or the error for a `t_max` of 0 or a negative or non-finite rate.
    ///
    /// ```
    /// assert!(shapecast::train::CosineAnnealing::new(0.1, 0, 0.0).is_err());
    /// ```
    pub fn new(lr: f64, t_max: usize, eta_min: f64) -> Result<Self, Error> {
        Ok(CosineAnnealing {
            lr: not_negative("CosineAnnealing", "the rate", lr)?,
            t_max: steps("CosineAnnealing", "t_max", t_max)?,
            eta_min: not_negative("CosineAnnealing", "eta_min", eta_min)?,
        })
    }
}

impl Schedule for CosineAnnealing {
    fn lr(&self, step: usize) -> f64 {
        let angle = PI * step as f64 / self.t_max as f64;
        self.eta_min + (self.lr - self.eta_min) * (1.0 + Float::cos(angle)) / 2.0
    }
}

/// The one-cycle policy (PyTorch's `OneCycleLR` with its defaults' shape: cosine phases,
/// not three): from `max_lr / div_factor` up to `max_lr` over the first `pct_start` of
/// `total_steps`, then down to `max_lr / div_factor / final_div_factor` at the last step.
///
/// ```
/// use shapecast::train::{OneCycle, Schedule};
/// let s = OneCycle::new(1.0, 10)?; // PyTorch's defaults: 30% up, 25, 1e4
/// assert!((s.lr(0) - 0.04).abs() < 1e-12);
/// assert_eq!(s.lr(2), 1.0);
/// assert!((s.lr(9) - 4e-6).abs() < 1e-18);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OneCycle {
    max_lr: f64,
    total: usize,
    pct_start: f64,
    div_factor: f64,
    final_div_factor: f64,
}

impl OneCycle {
    /// Up to `max_lr` and down over `total_steps` (at least 2), with PyTorch's defaults:
    /// `pct_start` 0.3, `div_factor` 25, `final_div_factor` 1e4; or the error for fewer steps
    /// or a negative or non-finite rate.
    ///
    /// ```
    /// assert!(shapecast::train::OneCycle::new(1.0, 1).is_err());
    /// ```
    pub fn new(max_lr: f64, total_steps: usize) -> Result<Self, Error> {
        if total_steps < 2 {
            return Err(refuse(format!(
                "OneCycle: a cycle needs at least 2 steps, not {total_steps}"
            )));
        }
        Ok(OneCycle {
            max_lr: not_negative("OneCycle", "the rate", max_lr)?,
            total: total_steps,
            pct_start: 0.3,
            div_factor: 25.0,
            final_div_factor: 1e4,
        })
    }

    /// With the share of the steps spent going up (PyTorch's `pct_start`, in `[0, 1]`); or
    /// the error for a share outside it, or one that leaves no step to go down in.
    ///
    /// ```
    /// use shapecast::train::{OneCycle, Schedule};
    /// let s = OneCycle::new(1.0, 12)?.pct_start(0.5)?;
    /// assert_eq!(s.lr(5), 1.0); // up for 0.5 · 12 − 1 steps, PyTorch's count
    /// assert!(OneCycle::new(1.0, 12)?.pct_start(1.0).is_err());
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn pct_start(mut self, pct: f64) -> Result<Self, Error> {
        let up_end = pct * self.total as f64 - 1.0;
        if !(0.0..=1.0).contains(&pct) || up_end >= (self.total - 1) as f64 {
            return Err(refuse(format!(
                "OneCycle: pct_start must be in [0, 1] and leave a step to go down in, not {pct}"
            )));
        }
        self.pct_start = pct;
        Ok(self)
    }

    /// With the divisors of the first rate (`max_lr / div_factor`, PyTorch's 25) and of the
    /// last (`max_lr / div_factor / final_div_factor`, 1e4); or the error for one that is not
    /// finite and positive.
    ///
    /// ```
    /// use shapecast::train::{OneCycle, Schedule};
    /// let s = OneCycle::new(1.0, 10)?.div_factors(10.0, 100.0)?;
    /// assert!((s.lr(0) - 0.1).abs() < 1e-15 && (s.lr(9) - 1e-3).abs() < 1e-15);
    /// # Ok::<(), shapecast::Error>(())
    /// ```
    pub fn div_factors(mut self, div_factor: f64, final_div_factor: f64) -> Result<Self, Error> {
        for (what, f) in [
            ("div_factor", div_factor),
            ("final_div_factor", final_div_factor),
        ] {
            if !(f.is_finite() && f > 0.0) {
                return Err(refuse(format!(
                    "OneCycle: {what} must be finite and positive, not {f}"
                )));
            }
        }
        self.div_factor = div_factor;
        self.final_div_factor = final_div_factor;
        Ok(self)
    }
}

impl Schedule for OneCycle {
    /// As PyTorch: the first phase ends at step `pct_start · total_steps − 1`, the second at
    /// `total_steps − 1`; each is half a cosine. Past the last step the rate stays at its
    /// last value (PyTorch refuses to step past it).
    fn lr(&self, step: usize) -> f64 {
        let initial = self.max_lr / self.div_factor;
        let last = initial / self.final_div_factor;
        let up_end = self.pct_start * self.total as f64 - 1.0;
        let end = (self.total - 1) as f64;
        let t = (step as f64).min(end);
        let anneal =
            |from: f64, to: f64, pct: f64| to + (from - to) / 2.0 * (1.0 + Float::cos(PI * pct));
        if t <= up_end {
            // A first phase of one step (`up_end` 0) starts, and ends, at the first rate.
            let pct = if up_end > 0.0 { t / up_end } else { 0.0 };
            anneal(initial, self.max_lr, pct)
        } else {
            anneal(self.max_lr, last, (t - up_end) / (end - up_end))
        }
    }
}

/// One schedule up to a milestone, then another from its own step 0 ([`Schedule::then`]:
/// PyTorch's `SequentialLR`).
///
/// ```
/// use shapecast::train::{CosineAnnealing, LinearLr, Schedule};
/// let s = LinearLr::new(0.1, 0.1, 1.0, 3)?.then(3, CosineAnnealing::new(0.1, 6, 0.0)?);
/// assert!((s.lr(0) - 0.01).abs() < 1e-15 && s.lr(3) == 0.1 && s.lr(9) == 0.0);
/// # Ok::<(), shapecast::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Then<A, B> {
    first: A,
    milestone: usize,
    next: B,
}

impl<A: Schedule, B: Schedule> Schedule for Then<A, B> {
    fn lr(&self, step: usize) -> f64 {
        match step.checked_sub(self.milestone) {
            Some(t) => self.next.lr(t),
            None => self.first.lr(step),
        }
    }
}
