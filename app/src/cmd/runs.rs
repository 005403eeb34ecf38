//! `wasmeter runs`: saved runs, newest last; broken ones listed with their error.

use super::Ctx;
use anyhow::Result;
use serde::Serialize;
use std::process::ExitCode;
use wasmeter_core::format::format_time;
use wasmeter_core::store::list_runs;
use wasmeter_core::table::Table;

#[derive(Serialize)]
struct RunJson {
    id: String,
    dir: String,
    label: Option<String>,
    suite: Option<String>,
    started_unix: Option<f64>,
    status: Option<String>,
    runtimes: Vec<String>,
    tests: usize,
    error: Option<String>,
}

pub fn main(ctx: &Ctx, json: bool) -> Result<ExitCode> {
    let runs = list_runs(&ctx.results)?;
    let items: Vec<RunJson> = runs
        .iter()
        .map(|r| {
            let id = r
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            match &r.meta {
                Ok(m) => RunJson {
                    id,
                    dir: r.dir.display().to_string(),
                    label: m.label.clone(),
                    suite: Some(m.suite.clone()),
                    started_unix: Some(m.started_unix),
                    status: Some(m.status.to_string()),
                    runtimes: m.runtimes.iter().map(|r| r.id.clone()).collect(),
                    tests: m.tests.len(),
                    error: None,
                },
                Err(e) => RunJson {
                    id,
                    dir: r.dir.display().to_string(),
                    label: None,
                    suite: None,
                    started_unix: None,
                    status: None,
                    runtimes: Vec::new(),
                    tests: 0,
                    error: Some(e.to_string()),
                },
            }
        })
        .collect();
    if json {
        super::print_json(&items)?;
        return Ok(ExitCode::SUCCESS);
    }
    if items.is_empty() {
        println!("no saved runs in {}", ctx.results.display());
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<Vec<String>> = items
        .iter()
        .map(|r| match &r.error {
            None => vec![
                r.id.clone(),
                r.label.clone().unwrap_or_default(),
                r.started_unix.map(format_time).unwrap_or_default(),
                r.suite.clone().unwrap_or_default(),
                r.status.clone().unwrap_or_default(),
                r.tests.to_string(),
                r.runtimes.join(","),
            ],
            Some(e) => vec![
                r.id.clone(),
                String::new(),
                String::new(),
                String::new(),
                format!("unreadable: {e}"),
                String::new(),
                String::new(),
            ],
        })
        .collect();
    let header = [
        "run",
        "label",
        "started (UTC)",
        "suite",
        "status",
        "tests",
        "runtimes",
    ];
    print!("{}", Table::new(header, 7).with_rows(rows).to_text());
    Ok(ExitCode::SUCCESS)
}
