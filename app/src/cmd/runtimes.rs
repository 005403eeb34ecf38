//! `wasmeter runtimes`: what can run here and why not.

use crate::fmt::table;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::runtime::known_runtimes;

pub fn main(json: bool) -> Result<ExitCode> {
    let all = known_runtimes();
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
                match &r.unavailable {
                    None => "yes".into(),
                    Some(why) => format!("no: {why}"),
                },
                r.config.clone(),
            ]
        })
        .collect();
    let header = ["id", "kind", "version", "available", "configuration"].map(String::from);
    print!("{}", table(&header, &rows, 5));
    Ok(ExitCode::SUCCESS)
}
