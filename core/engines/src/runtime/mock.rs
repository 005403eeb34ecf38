//! A test double with known timing distributions, for testing the runner, the statistics,
//! diffs and exports exactly (like hyperfine's mock executor). Never listed as a runtime:
//! it exists only in code that constructs it, and only with the `testing` feature (the
//! workspace's tests and benches turn it on), outside the public API.

use super::{Failure, Iteration, Job, Metric, Phase, PhaseValue, Runtime};
use crate::random::{Rng, seed_for};
use std::cell::RefCell;

/// Draws each iteration's self-timed value from a log-normal distribution.
pub struct MockRuntime {
    /// Median of the distribution, ns, before `slowdown`.
    pub median_ns: f64,
    /// Coefficient of variation (e.g. 0.02 for 2 % noise).
    pub cv: f64,
    /// Multiplies every value (1.05 plants a 5 % slowdown).
    pub slowdown: f64,
    rng: RefCell<Rng>,
}

impl MockRuntime {
    /// A mock with a median, noise level and seed.
    pub fn new(median_ns: f64, cv: f64, seed: u64) -> MockRuntime {
        MockRuntime {
            median_ns,
            cv,
            slowdown: 1.0,
            rng: RefCell::new(Rng::new(seed)),
        }
    }

    /// The same mock, slower by a factor.
    pub fn with_slowdown(mut self, factor: f64) -> MockRuntime {
        self.slowdown = factor;
        self
    }

    /// One draw, ns. Each test gets its own median (spread over a decade by its name), so
    /// a suite of mock tests looks like a real one.
    pub fn draw(&self, test: &str) -> f64 {
        let spread = (seed_for(&[test]) % 1000) as f64 / 1000.0;
        let median = self.median_ns * 10f64.powf(spread) * self.slowdown;
        median * (self.cv * self.rng.borrow_mut().normal()).exp()
    }
}

impl Runtime for MockRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        let ns = self.draw(&job.name);
        let mut it = Iteration {
            stdout: format!("mock {}\nwasmeter:time_ns={}\n", job.name, ns as u64).into_bytes(),
            ..Default::default()
        };
        it.values.push(PhaseValue {
            phase: Phase::Execute,
            metric: Metric::WallNs,
            value: ns * 1.001,
        });
        Ok(it)
    }
}
