//! The page's TypeScript types of what crosses the IPC boundary, generated from the Rust
//! types (ts-rs) into `web/src/bindings/`, so a Rust change that breaks the page fails its
//! type check instead of a user's run. A test regenerates them and fails on any drift
//! (`WASMETER_BLESS=1` rewrites them after a deliberate change).

use crate::commands::catalog::{PolicyView, RuntimeView, SuiteView};
use crate::commands::compare::CompareRequest;
use crate::commands::modules::{ModulesSuiteView, ModulesView, PickKind};
use crate::commands::runs::RunListItem;
use std::path::{Path, PathBuf};
use ts_rs::{Config, TS};
use wasmeter_core::export::Report;
use wasmeter_core::history::History;
use wasmeter_core::runner::{Event, RunChoices};

/// Where the page keeps the generated types, under the crate.
pub const DIR: &str = "web/src/bindings";

/// Writes the bindings of every type the commands exchange (with what they refer to) into
/// `dir`, one file per type, as the page imports them.
pub fn export(dir: &Path) -> Result<(), ts_rs::ExportError> {
    // JSON numbers: no count or byte size here comes near 2^53.
    let cfg = Config::new().with_large_int("number").with_out_dir(dir);
    // What the commands take.
    RunChoices::export_all(&cfg)?;
    ModulesView::export_all(&cfg)?;
    PickKind::export_all(&cfg)?;
    CompareRequest::export_all(&cfg)?;
    // What they answer and stream.
    Event::export_all(&cfg)?;
    RuntimeView::export_all(&cfg)?;
    SuiteView::export_all(&cfg)?;
    PolicyView::export_all(&cfg)?;
    ModulesSuiteView::export_all(&cfg)?;
    RunListItem::export_all(&cfg)?;
    Report::export_all(&cfg)?;
    History::export_all(&cfg)?;
    Ok(())
}

/// The checked-in bindings folder of this crate.
pub fn checked_in() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR)
}
