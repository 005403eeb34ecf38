//! `wasmeter suites [NAME]`: suites and their tests; broken ones listed with their error.

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use serde::Serialize;
use std::process::ExitCode;
use wasmeter_core::table::Table;

#[derive(Serialize)]
struct SuiteJson<'a> {
    name: &'a str,
    /// Left out for a broken suite (its manifest did not say, or not usably).
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    description: &'a str,
    dir: String,
    tests: Vec<TestJson<'a>>,
    /// Why a broken suite does not load; left out for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

#[derive(Serialize)]
struct TestJson<'a> {
    name: &'a str,
    description: &'a str,
    tags: &'a [String],
    wasm: String,
}

pub fn main(ctx: &Ctx, name: Option<&str>, json: bool) -> Result<ExitCode> {
    let cat = ctx.catalog()?;
    let suites: Vec<_> = match name {
        Some(n) => vec![cat.get(n).map_err(|e| InputError(e.to_string()))?],
        None => cat.suites.iter().collect(),
    };
    if json {
        let mut v: Vec<SuiteJson> = suites
            .iter()
            .map(|s| SuiteJson {
                name: &s.name,
                kind: Some(s.kind.as_str()),
                description: &s.description,
                dir: s.dir.display().to_string(),
                tests: s
                    .tests
                    .iter()
                    .map(|t| TestJson {
                        name: &t.name,
                        description: &t.description,
                        tags: &t.tags,
                        wasm: t
                            .wasm()
                            .map(|w| w.display().to_string())
                            .unwrap_or_default(),
                    })
                    .collect(),
                error: None,
            })
            .collect();
        if name.is_none() {
            v.extend(cat.broken.iter().map(|b| {
                SuiteJson {
                    name: &b.name,
                    kind: None,
                    description: "",
                    dir: b
                        .manifest
                        .parent()
                        .map(|d| d.display().to_string())
                        .unwrap_or_default(),
                    tests: Vec::new(),
                    error: Some(b.error.as_str()),
                }
            }));
        }
        super::print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    if name.is_none() {
        let mut rows: Vec<Vec<String>> = suites
            .iter()
            .map(|s| {
                vec![
                    s.name.clone(),
                    s.tests.len().to_string(),
                    s.description.clone(),
                ]
            })
            .collect();
        // Suites whose manifest does not load: their error, as `runs` lists a broken run.
        rows.extend(
            cat.broken
                .iter()
                .map(|b| vec![b.name.clone(), "-".into(), format!("broken: {}", b.error)]),
        );
        // Suites a script makes, not built yet: say how to get them.
        rows.extend(cat.unbuilt.iter().map(|(n, _)| {
            vec![
                n.clone(),
                "-".into(),
                format!("not built yet: wasmeter suite build {n}"),
            ]
        }));
        print!(
            "{}",
            Table::new(["suite", "tests", "description"], 3)
                .with_rows(rows)
                .to_text()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for s in suites {
        println!("{} — {}", s.name, s.description);
        let d = wasmeter_core::runner::RunDefaults::for_suite(s);
        let r = d.repetition;
        println!(
            "defaults: {} invocations × ({} warm-up + {} runs), {}, timeout {} s ({})",
            r.invocations,
            r.warmup,
            r.runs,
            d.order,
            d.timeout_secs,
            match d.timeout_source {
                wasmeter_core::runner::TimeoutSource::Suite => "the suite's own",
                _ => "default",
            },
        );
        let rows: Vec<Vec<String>> = s
            .tests
            .iter()
            .map(|t| vec![t.name.clone(), t.tags.join(","), t.description.clone()])
            .collect();
        print!(
            "{}",
            Table::new(["test", "tags", "description"], 3)
                .with_rows(rows)
                .to_text()
        );
    }
    Ok(ExitCode::SUCCESS)
}
