//! A progress line for long runs (feature `std`): step, loss and steps per second.

use crate::alloc_prelude::*;

use std::time::Instant;

/// The progress of a training run: [`step`](Self::step) after each step returns a line every
/// `every` steps (`step 100  loss 2.5723  297.0 steps/s`, the rate since the start), to print
/// or log.
///
/// ```
/// let mut progress = shapecast::train::Progress::every(2);
/// assert!(progress.step(3.0).is_none());
/// let line = progress.step(2.5).unwrap();
/// assert!(line.starts_with("step    2  loss 2.5000"), "{line}");
/// assert_eq!(progress.steps(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Progress {
    every: usize,
    steps: usize,
    started: Instant,
}

impl Progress {
    /// A line every `every` steps (at least 1), the clock started now.
    ///
    /// ```
    /// assert_eq!(shapecast::train::Progress::every(10).steps(), 0);
    /// ```
    pub fn every(every: usize) -> Self {
        Progress {
            every: every.max(1),
            steps: 0,
            started: Instant::now(),
        }
    }

    /// Counts a step whose loss was `loss`; the line, when this step is one to report.
    ///
    /// ```
    /// let mut p = shapecast::train::Progress::every(1);
    /// assert!(p.step(1.0).unwrap().contains("steps/s"));
    /// ```
    pub fn step(&mut self, loss: f64) -> Option<String> {
        self.steps += 1;
        if !self.steps.is_multiple_of(self.every) {
            return None;
        }
        let rate = self.steps as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        Some(format!(
            "step {:>4}  loss {loss:.4}  {rate:.1} steps/s",
            self.steps
        ))
    }

    /// How many steps were counted.
    ///
    /// ```
    /// let mut p = shapecast::train::Progress::every(5);
    /// p.step(0.5);
    /// assert_eq!(p.steps(), 1);
    /// ```
    pub fn steps(&self) -> usize {
        self.steps
    }
}
