//! History on core's synthetic runs ([`Synthetic::daily`]: 30 runs a day apart, t001 ×
//! rt001 +20 % from run 15): series kept apart by size and plan, partial and busy points
//! marked and left out of change points, an index of other statistics made afresh, the
//! runner's append, and many writers of one index at once.

use super::index::{self, DIR};
use super::*;
use crate::store::{CellRecord, Synthetic, load_run, synthetic_runtime, write_synthetic};
use crate::table::history_table;
use std::collections::HashMap;
use std::path::PathBuf;
use wasmeter_model::machine::Machine;

/// The daily runs in `results`; their ids in run order.
fn daily(results: &Path, step: bool) -> Vec<String> {
    write_synthetic(results, &Synthetic::daily(Machine::detect(), "a", step)).unwrap()
}

/// t001 on rt001, the cell that steps.
fn stepped_cell() -> HistoryQuery {
    HistoryQuery {
        suite: Some("scale".into()),
        test: Some("t001".into()),
        runtime: Some("rt001".into()),
        ..HistoryQuery::default()
    }
}

fn local(results: &Path) -> Results {
    Results::Local(results.to_path_buf())
}

/// Rewrites a run's meta.json (its digests are of the Parquet files: they still hold).
fn edit_meta(results: &Path, id: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = results.join(id).join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut meta);
    std::fs::write(&path, serde_json::to_vec_pretty(&meta).unwrap()).unwrap();
}

/// A run cancelled before its last invocations: it planned 4 where 3 gave values.
fn make_partial(results: &Path, id: &str) {
    edit_meta(results, id, |m| {
        m["settings"]["invocations"] = 4.into();
        m["status"] = "cancelled".into();
    });
}

/// A run during which other processes took every CPU: each invocation says so.
fn make_busy(results: &Path, id: &str) {
    make_busy_where(results, id, &|_| true);
}

/// A run whose invocations `busy` picks ran while other processes took every CPU.
fn make_busy_where(results: &Path, id: &str, busy: &dyn Fn(u32) -> bool) {
    let s = Synthetic::daily(Machine::detect(), "a", true);
    let mut lines = String::new();
    for t in 0..s.tests {
        for r in 0..s.runtimes {
            for invocation in (0..s.invocations).filter(|i| busy(*i)) {
                let c = CellRecord {
                    runtime: synthetic_runtime(r),
                    test: format!("t{t:03}"),
                    invocation,
                    failure: None,
                    wall_ms: 1000.0,
                    other_cores: Some(1024.0),
                    notes: Vec::new(),
                    host: None,
                    started_ms: None,
                };
                lines.push_str(&serde_json::to_string(&c).unwrap());
                lines.push('\n');
            }
        }
    }
    let path = results.join(id).join("cells.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap_or_default();
    text.push_str(&lines);
    std::fs::write(&path, text).unwrap();
}

/// Each cell's typical value in run `id`, summarised from the run itself (not the index).
fn figures(results: &Path, id: &str) -> HashMap<(String, String), f64> {
    let run = load_run(&results.join(id)).unwrap();
    summarize(&run, None)
        .cells
        .into_iter()
        .map(|c| ((c.test, c.runtime), c.stats.unwrap().typical()))
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a / b - 1.0).abs() < 1e-9
}

#[test]
fn a_busy_invocation_is_left_out_of_its_point_not_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = daily(&results, true);
    make_busy_where(&results, &ids[20], &|i| i == 0);
    let h = history(&local(&results), &stepped_cell()).unwrap();
    let p = &h.series[0].points[20];
    assert!(!p.busy && !p.partial, "{p:?}");
    let run = load_run(&results.join(&ids[20])).unwrap();
    let planned = run.meta.settings.invocations;
    assert_eq!(p.invocations, planned - 1, "{p:?}");
    // Its figure is the run's without invocation 0, as a diff would judge it.
    let mut quiet = run.clone();
    quiet.measurements.retain(|m| m.invocation != 0);
    let want = summarize(&quiet, None)
        .cells
        .into_iter()
        .find(|c| c.test == "t001" && c.runtime == "rt001")
        .and_then(|c| c.stats)
        .unwrap()
        .typical();
    assert!(close(p.value, want), "{} against {want}", p.value);
    let all = figures(&results, &ids[20])[&("t001".into(), "rt001".into())];
    assert!(!close(p.value, all), "the busy invocation was kept: {all}");
}

#[test]
fn runs_of_another_size_or_plan_are_other_series() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = daily(&results, false);
    const PLAN: &str = "0123456789abcdef";
    for id in &ids[10..20] {
        edit_meta(&results, id, |m| m["settings"]["size"] = "full".into());
    }
    for id in &ids[20..] {
        edit_meta(&results, id, |m| m["settings"]["plan_hash"] = PLAN.into());
    }
    let h = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(h.runs_read, 30);
    let keys: Vec<(&str, Option<&str>, usize)> = h
        .series
        .iter()
        .map(|s| (s.size.as_str(), s.plan_hash.as_deref(), s.points.len()))
        .collect();
    assert_eq!(
        keys,
        [
            ("full", None, 10),
            ("quick", None, 10),
            ("quick", Some(PLAN), 10)
        ]
    );
    let runs = |s: &Series| s.points.iter().map(|p| p.run.clone()).collect::<Vec<_>>();
    assert_eq!(runs(&h.series[0]), ids[10..20]);
    assert_eq!(runs(&h.series[1]), ids[..10]);
    assert_eq!(runs(&h.series[2]), ids[20..]);
    // Every output says which: the table's title (text), the JSON (CSV: app's test).
    let title = |s: &Series| history_table(s, &h.changes, 0).title.unwrap();
    assert!(
        title(&h.series[0]).ends_with(": execute (self), size full, no plan, 10 runs"),
        "{}",
        title(&h.series[0])
    );
    assert!(
        title(&h.series[2]).ends_with(&format!("size quick, plan {PLAN}, 10 runs")),
        "{}",
        title(&h.series[2])
    );
    let json = serde_json::to_value(&h).unwrap();
    assert_eq!(json["series"][0]["size"], "full");
    assert_eq!(json["series"][0]["plan_hash"], serde_json::Value::Null);
    assert_eq!(json["series"][2]["plan_hash"], PLAN);
}

#[test]
fn partial_and_busy_points_are_marked_and_left_out_of_change_points() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = daily(&results, true);
    for id in &ids[..3] {
        make_partial(&results, id);
    }
    for id in &ids[15..] {
        make_busy(&results, id);
    }
    let h = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(h.series.len(), 1, "{:?}", h.series);
    let s = &h.series[0];
    assert_eq!(s.points.len(), 30, "marked, not dropped");
    for (i, p) in s.points.iter().enumerate() {
        assert_eq!((p.partial, p.busy), (i < 3, i >= 15), "point {i}");
        let want = figures(&results, &ids[i])[&("t001".into(), "rt001".into())];
        assert!(
            close(p.value, want),
            "point {i}: {} against {want}",
            p.value
        );
    }
    // The step is in the busy runs only: nothing left to find it in.
    assert!(s.changes.is_empty(), "{:?}", s.changes);
    let unmarked: Vec<Point> = s
        .points
        .iter()
        .map(|p| Point {
            partial: false,
            busy: false,
            ..p.clone()
        })
        .collect();
    assert_eq!(
        changes_of(&unmarked, &h.changes)
            .iter()
            .map(|c| c.index)
            .collect::<Vec<_>>(),
        [15],
        "counted, the busy runs would make a change"
    );
    // Text: a flag column before the change, and a note.
    let t = history_table(s, &h.changes, 0);
    let names: Vec<&str> = t.columns.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        names,
        [
            "run",
            "started (UTC)",
            "typical (95 % interval)",
            "version",
            "flag",
            "change"
        ]
    );
    assert_eq!(t.rows[0][4], "partial");
    assert_eq!(t.rows[5][4], "");
    assert_eq!(t.rows[20][4], "busy");
    assert!(
        t.notes[0].starts_with("left out of change points: 18 of 30 runs"),
        "{:?}",
        t.notes
    );
    assert_eq!(t.notes[1], "no change points", "12 runs counted");
    // Read afresh (an index that cannot be written): the same marks and figures.
    std::fs::remove_dir_all(results.join(DIR)).unwrap();
    std::fs::write(results.join(DIR), b"not a folder").unwrap();
    let fresh = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(fresh.series, h.series);
}

#[test]
fn change_points_skip_left_out_points_and_index_all_of_them() {
    let point = |i: usize| {
        let level = if i >= 15 { 1.2e6 } else { 1e6 };
        Point {
            run: format!("r{i:02}"),
            started_unix: i as f64,
            value: level * (1.0 + 0.002 * ((i * 7 % 5) as f64 - 2.0)),
            low: None,
            high: None,
            median: level,
            invocations: 3,
            version: None,
            // Outliers that are marked: a busy run twice as slow, partial ones at 5x.
            partial: (5..8).contains(&i),
            busy: i == 22,
        }
    };
    let mut points: Vec<Point> = (0..30).map(point).collect();
    for p in points.iter_mut().filter(|p| p.left_out()) {
        p.value *= if p.busy { 2.0 } else { 5.0 };
    }
    let c = changes_of(&points, &ChangeOptions::default());
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(
        c[0].index, 15,
        "indexed into every point, not the counted ones"
    );
    assert!((c[0].change_pct - 20.0).abs() < 1.0, "{c:?}");
}

/// The index's parts of this version, and the others.
fn parts(results: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    index::listing(results).unwrap()
}

#[test]
fn an_index_of_other_statistics_is_made_afresh() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    daily(&results, true);
    let before = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(before.notes, Vec::<String>::new());
    assert_eq!(before.series[0].changes[0].index, 15);
    // Its rows as other statistics would have made them (every figure doubled), in parts
    // named by another statistics version and by none (the index before versions).
    let rows = index::rows(&results, None, None, None).unwrap();
    assert_eq!(rows.len(), 30 * 6);
    for p in parts(&results).0 {
        std::fs::remove_file(p).unwrap();
    }
    let doubled: Vec<Row> = rows
        .into_iter()
        .map(|mut r| {
            r.point.value *= 2.0;
            r
        })
        .collect();
    index::append(&results, doubled).unwrap();
    let (current, _) = parts(&results);
    assert_eq!(current.len(), 1);
    let idx = results.join(DIR);
    let other = idx.join(format!(
        "v{}.{}-000000000000000000000001-1-0.parquet",
        index::LAYOUT,
        crate::analysis::STATS_VERSION + 1
    ));
    std::fs::copy(
        &current[0],
        idx.join("part-000000000000000000000001-1.parquet"),
    )
    .unwrap();
    std::fs::rename(&current[0], &other).unwrap();
    assert_eq!(parts(&results).1.len(), 2);

    let after = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(after.notes.len(), 1, "{:?}", after.notes);
    assert!(
        after.notes[0]
            .ends_with("was made by another version of wasmeter's statistics: made afresh"),
        "{}",
        after.notes[0]
    );
    assert_eq!(after.series, before.series, "figures summarised afresh");
    let (current, stale) = parts(&results);
    assert_eq!((current.len(), stale.len()), (1, 0));
    assert_eq!(
        index::rows(&results, None, None, None).unwrap().len(),
        30 * 6
    );
    // Said once.
    let again = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(again.notes, Vec::<String>::new());
}

/// Runs ending at once (each appended twice, by two runners), histories building the index
/// and merges, all on one index: afterwards every run is there once with its own figures.
#[test]
fn many_writers_at_once_neither_corrupt_nor_duplicate() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = daily(&results, true);
    let all = HistoryQuery {
        suite: Some("scale".into()),
        ..HistoryQuery::default()
    };
    let start = std::sync::Barrier::new(7);
    std::thread::scope(|scope| {
        // Four runners: each run ended in two of them.
        for t in 0..4 {
            let (ids, results, start) = (&ids, &results, &start);
            scope.spawn(move || {
                start.wait();
                let mine: Vec<&String> = ids.iter().skip(t % 2).step_by(2).collect();
                let order: Vec<&String> = if t < 2 {
                    mine
                } else {
                    mine.into_iter().rev().collect()
                };
                for id in order {
                    index_run(&results.join(id));
                }
            });
        }
        // Two histories, each adding the runs the index lacks when it looks.
        for _ in 0..2 {
            let (results, start, all) = (&results, &start, &all);
            scope.spawn(move || {
                start.wait();
                for _ in 0..3 {
                    let h = history(&local(results), all).unwrap();
                    assert_eq!(h.skipped, Vec::<String>::new());
                    assert!(h.series.iter().all(|s| s.points.len() == 30));
                }
            });
        }
        // A merger that waits for its turn.
        let (results, start) = (&results, &start);
        scope.spawn(move || {
            start.wait();
            for _ in 0..20 {
                index::merge(results, true).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        });
    });
    let rows = index::rows(&results, None, None, None).unwrap();
    let mut seen: HashMap<(String, String, String), usize> = HashMap::new();
    for r in &rows {
        *seen
            .entry((r.point.run.clone(), r.test.clone(), r.runtime.clone()))
            .or_default() += 1;
    }
    assert_eq!(rows.len(), 30 * 6, "every run × cell once");
    assert!(seen.values().all(|n| *n == 1));
    let want: HashMap<&str, HashMap<(String, String), f64>> = ids
        .iter()
        .map(|id| (id.as_str(), figures(&results, id)))
        .collect();
    for r in &rows {
        let w = want[r.point.run.as_str()][&(r.test.clone(), r.runtime.clone())];
        assert!(
            close(r.point.value, w),
            "{} {} {}",
            r.point.run,
            r.test,
            r.runtime
        );
    }
    let indexed = index::indexed(&results).unwrap();
    assert_eq!(indexed.len(), 30);
    // Nothing half-written left behind, and the parts still merge into one.
    let leftovers: Vec<_> = std::fs::read_dir(results.join(DIR))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    index::merge(&results, true).unwrap();
    assert!(parts(&results).0.len() <= 16);
    assert_eq!(
        index::rows(&results, None, None, None).unwrap().len(),
        30 * 6
    );
    let h = history(&local(&results), &stepped_cell()).unwrap();
    assert_eq!(h.runs_read, 30);
    assert_eq!(h.series[0].changes.len(), 1);
    assert_eq!(h.series[0].changes[0].index, 15);
}
