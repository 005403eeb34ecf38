//! The page's report fixtures carry core's headlines: each run's sentence is
//! `run_headline` of its summary, the diff's is `diff_headline` of its diff, so the
//! page's tests (which show the fixture's sentence) hold the desktop to core's words.
//! `WASMETER_WRITE_FIXTURES=1` writes them anew.

use serde_json::Value;
use std::path::Path;
use wasmeter_core::analysis::{Diff, RunSummary, diff_headline, run_headline};

const REPORTS: [&str; 4] = ["run.json", "diff.json", "http.json", "lifecycle.json"];

#[test]
fn the_page_fixtures_carry_cores_headlines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/test/fixtures");
    let write = std::env::var_os("WASMETER_WRITE_FIXTURES").is_some();
    for name in REPORTS {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let report: Value = serde_json::from_str(&text).unwrap();
        let mut want: Vec<(String, String)> = Vec::new();
        for (k, run) in report["runs"].as_array().unwrap().iter().enumerate() {
            let s: RunSummary = serde_json::from_value(run["summary"].clone())
                .unwrap_or_else(|e| panic!("{name}: runs[{k}].summary: {e}"));
            let got = run["headline"].as_str().unwrap_or_default().to_string();
            want.push((got, run_headline(&s)));
        }
        if !report["diff"].is_null() {
            let d: Diff = serde_json::from_value(report["diff"].clone())
                .unwrap_or_else(|e| panic!("{name}: diff: {e}"));
            let got = report["diff_headline"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            want.push((got, diff_headline(&d)));
        }
        if write {
            // Replace each sentence in place: the fixtures keep their own layout.
            let mut text = text.clone();
            for (got, new) in &want {
                let quoted = |s: &str| serde_json::to_string(s).unwrap();
                text = text.replacen(&quoted(got), &quoted(new), 1);
            }
            std::fs::write(&path, text).unwrap();
            continue;
        }
        for (got, new) in want {
            assert_eq!(
                got, new,
                "fixtures/{name}: not core's headline (WASMETER_WRITE_FIXTURES=1 writes it)"
            );
        }
    }
}
