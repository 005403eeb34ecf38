//! The engine-facing side of the suites that drive an engine in-process: the lifecycle
//! suite's [`lifecycle::Engine`] and the gateway's [`gateway::Backend`]. The suites and the
//! embedded engines both import these; neither imports the other.

pub mod gateway;
pub mod lifecycle;
#[cfg(feature = "embedded")]
mod pool;
