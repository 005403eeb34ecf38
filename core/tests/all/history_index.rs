//! The runner indexes a run for history when it ends, and a broken index never fails the
//! run: across the runner (core) and history (wasmeter-report).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use wasmeter_core::history::index;
use wasmeter_core::history::{HistoryQuery, INDEX_DIR, Results, history};
use wasmeter_core::runner::{execute, stand_in_run};
use wasmeter_core::store::{RunStatus, load_run};

fn local(results: &Path) -> Results {
    Results::Local(results.to_path_buf())
}

fn parts(results: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    index::listing(results).unwrap()
}

#[test]
fn the_runner_indexes_a_run_when_it_ends_and_never_fails_for_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (plan, worker) = stand_in_run(tmp.path(), 2, 2).unwrap();
    let results = tmp.path().join("results");
    let (tx, _rx) = crossbeam_channel::unbounded();
    let run = |results: &Path| execute(&plan, results, &worker, &tx, &AtomicBool::new(false));
    let out = run(&results).unwrap();
    assert_eq!((out.status, out.failed), (RunStatus::Complete, 0));
    let meta = load_run(&out.dir).unwrap().meta;
    let indexed = index::indexed(&results).unwrap();
    assert_eq!(indexed.len(), 1);
    assert_eq!(indexed.get(&out.run_id), meta.finished_unix.as_ref());
    // Its four cells, each the stand-in's 1 µs.
    let rows = index::rows(&results, None, None, None).unwrap();
    let mut cells: Vec<(&str, &str, f64)> = rows
        .iter()
        .map(|r| (r.test.as_str(), r.runtime.as_str(), r.point.value))
        .collect();
    cells.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    assert_eq!(
        cells,
        [
            ("t000", "native", 1000.0),
            ("t000", "rt001", 1000.0),
            ("t001", "native", 1000.0),
            ("t001", "rt001", 1000.0)
        ]
    );
    // The first history reads the index: it summarises nothing, adds no part.
    let before = parts(&results);
    let h = history(&local(&results), &HistoryQuery::default()).unwrap();
    assert_eq!((h.runs_read, h.series.len()), (1, 4));
    assert_eq!(h.series[0].points[0].run, out.run_id);
    assert_eq!(parts(&results), before);

    // Something else where the index goes: the run still ends well, the thing untouched.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join(INDEX_DIR), b"not a folder").unwrap();
    let out = run(&other).unwrap();
    assert_eq!((out.status, out.failed), (RunStatus::Complete, 0));
    assert_eq!(
        std::fs::read(other.join(INDEX_DIR)).unwrap(),
        b"not a folder"
    );
    let h = history(&local(&other), &HistoryQuery::default()).unwrap();
    assert_eq!((h.runs_read, h.series.len()), (1, 4));
}
