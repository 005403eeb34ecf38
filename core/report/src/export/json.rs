//! JSON: the whole report, every number.

use super::{Exporter, Report};
use std::io::Write;

/// Writes the report as pretty JSON.
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, report)?;
        out.write_all(b"\n")
    }
}
