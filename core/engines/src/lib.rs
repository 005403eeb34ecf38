//! wasmeter-engines: the runtimes. Embedded engines, CLI runtimes, native code and
//! containers behind one [`runtime::Runtime`] trait, and the registry that names them.
//! Above the model and the profiler; it knows nothing of how runs are planned or read.

pub mod runtime;

// The lower crates' modules this crate builds on, under the paths its code names them by.
#[cfg(feature = "testing")]
use wasmeter_model::random;
use wasmeter_model::{cache, config, model, sample, suite, text};
use wasmeter_profile::profile;
