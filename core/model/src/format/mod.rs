//! Numbers and units as text, in one place so that every front end (the CLI, the Markdown
//! export, the terminal UI) writes a figure the same way: durations, counts, bytes, rates
//! and sizes ([`units`]), dates ([`time`]), and the colour of a ratio ([`colour`]).

pub mod colour;
mod time;
mod units;

pub use time::civil;
pub use time::format_time;
pub use units::{
    FAILED, MISSING, Unit, format_bytes, format_count, format_ns, format_ns_within, format_rate,
    format_size, format_value,
};
