//! Benchmark suites: what a suite and its tests are ([`Suite`], [`TestCase`] by kind), how
//! manifests are read (`manifest/`, one file per kind of test), how suites are found on
//! disk, and the self-timing output protocol.

mod definition;
mod discovery;
mod error;
pub mod lifecycle_file;
pub mod lifecycle_modules;
mod manifest;
mod module_run;
mod modules;
mod output;
mod test;

pub use crate::model::{Execution, HttpKind, Size, SuiteKind};
pub use definition::Suite;
pub use discovery::{
    BrokenSuite, SuiteCatalog, build_scripts, default_suites_dir, generated_suites_dir,
};
pub use error::SuiteError;
pub use lifecycle_file::LifecycleModule;
pub use lifecycle_modules::{ANSWER, CALL_EXPORT, Fill, ModuleSpec, PEEK_EXPORT};
pub use manifest::COMPONENT_RUNTIMES;
pub use module_run::{ModuleRun, Preopen};
pub use modules::{
    MODULES_SUITE, ModuleStaging, STARTUP_TEST, WasmHeader, empty_command, env_var, find_modules,
    modules_suite, serves_http, test_name, wasm_header, with_natives,
};
pub use output::{GuestOutput, OutputCheck, check_output, parse_output};
pub use test::{
    Build, CheckStep, CommandTest, GatewayTest, Guest, HttpTest, ServerDef, SourceBuild, TestCase,
    TestKind,
};
