//! `wasmeter runtimes`: what can run here and why not.

use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::runtime::engine_settings;
use wasmeter_core::runtime::known_runtimes;
use wasmeter_core::runtime::settings::Values;
use wasmeter_core::table::Table;

pub fn main(ctx: &super::Ctx, json: bool, settings: bool) -> Result<ExitCode> {
    if settings {
        return list_settings(json);
    }
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

/// `runtimes --settings`: each engine's settings, what they accept and do.
fn list_settings(json: bool) -> Result<ExitCode> {
    let engines = engine_settings();
    if json {
        super::print_json(&engines)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<Vec<String>> = engines
        .iter()
        .flat_map(|e| {
            e.settings.iter().map(|s| {
                vec![
                    format!("{}.{}", e.engine, s.name),
                    match s.values {
                        Values::OneOf(v) => v.join(" | "),
                        Values::Bytes => "bytes (0, 64k, 2g…)".into(),
                    },
                    s.default.to_string(),
                    s.what.to_string(),
                ]
            })
        })
        .collect();
    let mut t = Table::new(["setting", "values", "default", "what it changes"], 4).with_rows(rows);
    t.notes.push(
        "sweep with `wasmeter run --set ENGINE.NAME=V1,V2 …`; one runtime with values: `--runtimes 'wasmtime[allocator=pooling,cow=off]'`".into(),
    );
    print!("{}", t.to_text());
    Ok(ExitCode::SUCCESS)
}
