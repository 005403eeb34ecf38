//! Numbers and units as text, in one place so that every front end (the CLI, the Markdown
//! export, the terminal UI) writes a figure the same way: durations, counts, bytes, rates
//! and sizes ([`units`]), the figures of a summary or a diff as their cells read
//! ([`results`]), dates ([`time`]), and the colour of a ratio ([`colour`]).

pub mod colour;
mod results;
mod time;
mod units;

pub use results::{FAILED, MISSING, format_cell, format_geomean, format_ratio};
pub(crate) use time::civil;
pub use time::format_time;
pub use units::{format_bytes, format_count, format_ns, format_rate, format_size, format_value};
