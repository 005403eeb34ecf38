//! Sizes of a command run: each program's module beside its native build and the
//! engines' compiled artifacts, and each cell's peak resident memory — the overhead
//! study's size table, on the programs run.

use super::Table;
use crate::analysis::CellSizes;
use crate::format::{MISSING, format_bytes};
use crate::store::TestRecord;
use crate::suite::STARTUP_TEST;

/// The size table (when any test recorded its module's size: module, native build, their
/// ratio, then each engine's compiled artifact) and the peak-memory table (tests down,
/// runtimes across) beside it; nothing for runs without module sizes.
pub fn sizes_tables(tests: &[TestRecord], runtimes: &[String], cells: &[CellSizes]) -> Vec<Table> {
    // The start-up probe (an empty module run beside modules as given) is the harness's.
    let tests: Vec<&TestRecord> = tests.iter().filter(|t| t.name != STARTUP_TEST).collect();
    if tests.iter().all(|t| t.module_bytes.is_none()) {
        return Vec::new();
    }
    let bytes = |b: Option<u64>| b.map_or_else(|| MISSING.into(), |b| format_bytes(b as f64));
    let cell = |rt: &str, test: &str| cells.iter().find(|c| c.runtime == rt && c.test == test);
    let compiled: Vec<&String> = runtimes
        .iter()
        .filter(|rt| {
            cells
                .iter()
                .any(|c| &c.runtime == *rt && c.artifact_bytes.is_some())
        })
        .collect();
    let titles: Vec<String> = ["test", "wasm", "native", "wasm ÷ native"]
        .into_iter()
        .map(String::from)
        .chain(compiled.iter().map(|rt| format!("{rt} compiled")))
        .collect();
    let mut sizes = Table::new(titles.iter().map(String::as_str), 1).titled(
        "sizes: each test's module beside its native build from the same sources, and each engine's compiled artifact (serialized module or precompiled file)",
    );
    for t in tests.iter().filter(|t| t.module_bytes.is_some()) {
        let ratio = match (t.module_bytes, t.native_bytes) {
            (Some(w), Some(n)) if n > 0 => format!("{:.2}", w as f64 / n as f64),
            _ => MISSING.into(),
        };
        let mut row = vec![
            t.name.clone(),
            bytes(t.module_bytes),
            bytes(t.native_bytes),
            ratio,
        ];
        row.extend(
            compiled
                .iter()
                .map(|rt| bytes(cell(rt, &t.name).and_then(|c| c.artifact_bytes))),
        );
        sizes.rows.push(row);
    }
    let mut out = vec![sizes];
    if cells.iter().any(|c| c.peak_rss_bytes.is_some()) {
        let mut memory = Table::new(
            std::iter::once("test").chain(runtimes.iter().map(String::as_str)),
            1,
        )
        .titled(
            "peak resident memory: the kernel's maximum of the program's own process (native, runtime CLIs; Linux counts in the size of the process that started it, wasmeter's worker, so small programs read as that), or the largest live sample of the worker running an embedded engine (wasmeter's own share included)",
        );
        for t in &tests {
            let mut row = vec![t.name.clone()];
            row.extend(
                runtimes
                    .iter()
                    .map(|rt| bytes(cell(rt, &t.name).and_then(|c| c.peak_rss_bytes))),
            );
            memory.rows.push(row);
        }
        out.push(memory);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &str, wasm: Option<u64>, native: Option<u64>) -> TestRecord {
        TestRecord {
            name: name.into(),
            source_hash: String::new(),
            module_bytes: wasm,
            native_bytes: native,
            as_given: Some(false),
        }
    }

    #[test]
    fn module_beside_native_artifacts_and_peak_memory_per_cell() {
        let tests = [
            test("sqlite", Some(1_133_009), Some(1_197_632)),
            test("lua", Some(320_364), None),
        ];
        let cells = [
            CellSizes {
                runtime: "wasmtime".into(),
                test: "lua".into(),
                peak_rss_bytes: Some(3 << 20),
                artifact_bytes: Some(800 << 10),
            },
            CellSizes {
                runtime: "native".into(),
                test: "sqlite".into(),
                peak_rss_bytes: Some(12 << 20),
                artifact_bytes: None,
            },
        ];
        let rts = ["native".to_string(), "wasmtime".to_string()];
        let t = sizes_tables(&tests, &rts, &cells);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].columns.len(), 5, "one artifact column: wasmtime's");
        assert_eq!(t[0].columns[4].title, "wasmtime compiled");
        assert_eq!(
            t[0].rows[0],
            ["sqlite", "1.1 MiB", "1.1 MiB", "0.95", MISSING]
        );
        assert_eq!(
            t[0].rows[1],
            ["lua", "312.9 KiB", MISSING, MISSING, "800.0 KiB"]
        );
        assert_eq!(t[1].rows[0], ["sqlite", "12.0 MiB", MISSING]);
        assert_eq!(t[1].rows[1], ["lua", MISSING, "3.0 MiB"]);
        // A run without module sizes (the compute suite's) has no size tables.
        assert!(sizes_tables(&[test("crc32", None, None)], &rts, &cells).is_empty());
    }
}
