//! `wasmeter runtimes`: what can run here and why not.

use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::runtime::known_runtimes;
use wasmeter_core::table::Table;

pub fn main(ctx: &super::Ctx, json: bool) -> Result<ExitCode> {
    let all = known_runtimes(&ctx.config()?);
    if json {
        super::print_json(&all)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<Vec<String>> = all
        .iter()
        .map(|r| {
            vec![
                r.id.clone(),
                r.kind.to_string(),
                r.version.clone(),
                r.config.clone(),
                match (&r.unavailable, &r.hint) {
                    (None, _) => "yes".into(),
                    (Some(why), Some(hint)) => format!("no: {why}; install: {hint}"),
                    (Some(why), None) => format!("no: {why}"),
                },
            ]
        })
        .collect();
    let header = ["id", "kind", "version", "configuration", "available"];
    print!("{}", Table::new(header, 5).with_rows(rows).to_text());
    Ok(ExitCode::SUCCESS)
}
