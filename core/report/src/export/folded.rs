//! Folded stacks: a profiled run's samples as `test;runtime;frame;… count` lines, one per
//! distinct stack, which speedscope, inferno and flamegraph.pl open. Each run's lines are
//! prefixed with its id when the report holds more than one.

use super::{Exporter, Report};
use std::io::Write;

/// Writes the folded stacks of every profiled run in the report.
pub struct FoldedExporter;

impl Exporter for FoldedExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if report.runs.iter().all(|r| r.profile.is_none()) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "no run here was profiled: folded stacks need a run made with --profile",
            ));
        }
        let many = report.runs.len() > 1;
        for run in &report.runs {
            let Some(p) = &run.profile else {
                continue;
            };
            for cell in &p.stacks {
                for (stack, n) in &cell.stacks {
                    if many {
                        write!(out, "{};", run.meta.id)?;
                    }
                    writeln!(out, "{};{};{stack} {n}", cell.test, cell.runtime)?;
                }
            }
        }
        Ok(())
    }
}
