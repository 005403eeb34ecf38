//! The vocabulary every layer shares: what a runtime is ([`RuntimeInfo`]), what a suite is
//! ([`SuiteKind`], [`Size`]), what an iteration measures ([`Phase`], [`Metric`]) and why a
//! cell failed ([`Failure`]). Plain data, recorded with every run; it imports nothing else
//! of wasmeter's, so that the engines, the store, the analysis and the front ends can all
//! name it without depending on each other.

mod failure;
mod feature_flags;
pub mod limits;
mod phase;
mod primary;
mod runtime;
mod runtime_id;
mod suite;

pub use failure::{CORE_MODULES_ONLY, Failure};
pub use feature_flags::{FLAGGED, feature_flag, flagged_variant};
pub use phase::{Metric, Phase, PhaseValue};
pub use primary::{PRIMARY_SOURCES, PrimarySource, Statistic};
pub use runtime::{CliCommand, RuntimeInfo, RuntimeKind};
pub use runtime_id::{SettingsPairs, base_id, settings_pairs};
pub use suite::{
    Depth, Execution, HttpKind, KindView, Repetition, Size, SuiteKind, SuiteShape, View,
};
