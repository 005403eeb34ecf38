//! The saved-run loader: a run directory with any bytes in its files must load, or fail with
//! an error naming the file, never panic; what loads must summarise without panicking.
//!
//! Input: one flag byte, then the files' contents separated by `SEPARATOR`, in the order
//! meta.json, cells.jsonl, measurements, samples (`pack_run.py` makes one from a real run).
//! Flag bits: 0 measurements as Parquet (else JSON lines), 1 samples as Parquet, 2 cells
//! present, 3 measurements present, 4 samples present.
//!
//! The fuzz build leaves out core's `parquet` feature (polars, instrumented, was most of
//! the fuzz build's time): a Parquet file is refused by name, as a build without polars
//! must. In a full build Parquet reaches polars only when meta.json holds its digest and
//! the bytes match it, which mutated bytes never do; without a digest (runs saved before
//! digests existed) polars' reader can abort the whole process on hostile bytes (an
//! allocation sized by a corrupt page header): that path would only fuzz polars
//! (docs/reliability.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use wasmeter_core::analysis::summarize;
use wasmeter_core::store::load_run;

const SEPARATOR: &[u8] = b"\n\x00wasmeter-fuzz-file\x00\n";

/// One scratch run directory per fuzzing process, rewritten for every input.
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!(
            "wasmeter-fuzz-{}/20260101-000000-fuzz-0000",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("scratch run directory");
        dir
    })
}

fn split(mut data: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    while let Some(i) = data.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
        parts.push(&data[..i]);
        data = &data[i + SEPARATOR.len()..];
    }
    parts.push(data);
    parts
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let parts = split(rest);
    let part = |i: usize| parts.get(i).copied().unwrap_or_default();
    let dir = scratch();
    for name in [
        "meta.json",
        "cells.jsonl",
        "measurements.parquet",
        "measurements.jsonl",
        "samples.parquet",
        "samples.jsonl",
    ] {
        let _ = std::fs::remove_file(dir.join(name));
    }
    let ext = |bit: u8| if flags & bit != 0 { "parquet" } else { "jsonl" };
    let mut files = vec![("meta.json".to_string(), part(0))];
    if flags & 4 != 0 {
        files.push(("cells.jsonl".into(), part(1)));
    }
    if flags & 8 != 0 {
        files.push((format!("measurements.{}", ext(1)), part(2)));
    }
    if flags & 16 != 0 {
        files.push((format!("samples.{}", ext(2)), part(3)));
    }
    let meta: Option<serde_json::Value> = serde_json::from_slice(part(0)).ok();
    let guarded = |name: &str| {
        meta.as_ref()
            .is_some_and(|m| m["files"][name]["sha256"].is_string())
    };
    if files
        .iter()
        .any(|(name, _)| name.ends_with(".parquet") && !guarded(name))
    {
        return;
    }
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).expect("scratch file");
    }
    match load_run(dir) {
        Ok(run) => {
            let summary = summarize(&run, None);
            // One cell per runtime × test the run names, whatever its files hold.
            assert_eq!(
                summary.cells.len(),
                summary.runtimes.len() * summary.tests.len()
            );
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n'), "{message}");
            assert!(message.contains(&*dir.to_string_lossy()), "{message}");
        }
    }
});
