//! `wasmeter suites [NAME]`: suites and their tests.

use super::Ctx;
use crate::InputError;
use crate::fmt::table;
use anyhow::Result;
use serde::Serialize;
use std::process::ExitCode;

#[derive(Serialize)]
struct SuiteJson<'a> {
    name: &'a str,
    kind: &'a str,
    description: &'a str,
    dir: String,
    tests: Vec<TestJson<'a>>,
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
        let v: Vec<SuiteJson> = suites
            .iter()
            .map(|s| SuiteJson {
                name: &s.name,
                kind: s.kind.as_str(),
                description: &s.description,
                dir: s.dir.display().to_string(),
                tests: s
                    .tests
                    .iter()
                    .map(|t| TestJson {
                        name: &t.name,
                        description: &t.description,
                        tags: &t.tags,
                        wasm: t.wasm.display().to_string(),
                    })
                    .collect(),
            })
            .collect();
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
            table(
                &["suite", "tests", "description"].map(String::from),
                &rows,
                3
            )
        );
        return Ok(ExitCode::SUCCESS);
    }
    for s in suites {
        println!("{} — {}", s.name, s.description);
        let rows: Vec<Vec<String>> = s
            .tests
            .iter()
            .map(|t| vec![t.name.clone(), t.tags.join(","), t.description.clone()])
            .collect();
        print!(
            "{}",
            table(&["test", "tags", "description"].map(String::from), &rows, 3)
        );
    }
    Ok(ExitCode::SUCCESS)
}
