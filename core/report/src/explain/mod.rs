//! Where the time goes, function by function: a run's profiles (sampled by
//! [`crate::profile`]) joined by name across engines and native, with each function's share,
//! time per iteration and ratio to native ([`explain`]), its hottest function's wasm beside
//! its machine code ([`hot`]), and the flame graphs and report the exports carry
//! ([`flame`], [`report`]).

mod causes;
pub mod flame;
mod functions;
pub mod hot;
pub mod report;

pub use causes::{Callee, Causes, checks_text, short_count};
pub use functions::{
    ExplainError, ExplainOptions, Explanation, FunctionCell, FunctionRow, RuntimeColumn,
    TestExplained, explain, explain_rows,
};
