//! The lifecycle suite: how long a WebAssembly instance takes to be compiled, loaded,
//! instantiated, called and torn down, what it costs in memory, and how instantiation grows
//! with the initial heap (Lucet's study, on today's engines).
//!
//! The host drives everything here (no guest timing): the suite's [`modules`] generates
//! the modules and its [`file`] reads module files (a build script's real programs), [`harness`] batches fast
//! operations criterion-style, each engine's folder under `runtime/embedded/` implements
//! [`Engine`] (defined below both, in `runtime::suite_api`), and [`Driver`] takes one cell
//! (engine configuration × module) through its measurements, one sample of each per
//! iteration.

mod driver;
pub mod harness;

pub use crate::suite::{lifecycle_file as file, lifecycle_modules as modules};

pub use crate::runtime::suite_api::lifecycle::{Engine, LIVE_MAX, Source};
pub use crate::suite::{Fill, LifecycleModule, ModuleSpec};
pub use driver::{Driver, first_in_process};

use crate::runtime::Failure;

/// The lifecycle engine of an embedded runtime id, or why that runtime has none.
pub fn engine(runtime_id: &str) -> Result<Box<dyn Engine>, Failure> {
    if let Some(engine) = crate::runtime::embedded::Embedded::parse(runtime_id) {
        return engine.lifecycle();
    }
    Err(Failure::Unavailable(format!(
        "runtime '{runtime_id}' has no lifecycle engine (embedded runtimes only)"
    )))
}
