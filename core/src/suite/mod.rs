//! Benchmark suites: manifest parsing, discovery, and the self-timing output protocol.

mod discovery;
mod http;
mod manifest;
mod output;

pub use discovery::{SuiteCatalog, build_scripts, default_suites_dir, generated_suites_dir};
pub use http::{HttpTest, ServerDef};
pub use manifest::{CheckStep, Size, Suite, SuiteError, SuiteKind, TestCase};
pub(crate) use manifest::{hex, line_of, one_line};
pub use output::{GuestOutput, OutputCheck, check_output, parse_output};
