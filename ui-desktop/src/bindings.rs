//! The page's TypeScript types of what crosses the IPC boundary, generated from the Rust
//! types (ts-rs) into `web/src/bindings/`, so a Rust change that breaks the page fails its
//! type check instead of a user's run. A test regenerates them and fails on any drift
//! (`WASMETER_BLESS=1` rewrites them after a deliberate change).

use std::path::{Path, PathBuf};
use ts_rs::{Config, TS};
use wasmeter_core::runner::{Event, RunChoices, RunDefaults};

/// Where the page keeps the generated types, under the crate.
pub const DIR: &str = "web/src/bindings";

/// Writes the bindings of every type the commands exchange (with what they refer to) into
/// `dir`, one file per type, as the page imports them.
pub fn export(dir: &Path) -> Result<(), ts_rs::ExportError> {
    // JSON numbers: no count or byte size here comes near 2^53.
    let cfg = Config::new().with_large_int("number").with_out_dir(dir);
    RunChoices::export_all(&cfg)?;
    Event::export_all(&cfg)?;
    RunDefaults::export_all(&cfg)?;
    Ok(())
}

/// The checked-in bindings folder of this crate.
pub fn checked_in() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR)
}
