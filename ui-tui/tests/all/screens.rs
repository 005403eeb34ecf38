//! Snapshot tests of every screen, rendered with `TestBackend` from deterministic data.

use crate::common::*;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wasmeter_core::analysis::{DiffOptions, Verdict, diff_runs};
use wasmeter_core::runner::{Event, Plan};
use wasmeter_core::runtime::Failure;
use wasmeter_core::store::{RunStatus, SampleRow, SavedRun};
use wasmeter_tui::App;
use wasmeter_tui::app::Pane;
use wasmeter_tui::launch::{Launcher, RunHandle};
use wasmeter_tui::panes::detail::{DetailPane, View};
use wasmeter_tui::panes::diff::DiffPane;
use wasmeter_tui::panes::live::LivePane;
use wasmeter_tui::panes::runs::RunRow;

struct NoLaunch;
impl Launcher for NoLaunch {
    fn launch(&mut self, _: Plan, _: &Path) -> anyhow::Result<RunHandle> {
        anyhow::bail!("not in snapshot tests")
    }
}

fn app() -> App {
    let mut ok = meta(
        "compute-20261121-101500-a1b2",
        Some("baseline"),
        1_795_256_100.0,
    );
    ok.status = RunStatus::Complete;
    let mut cancelled = meta("compute-20261122-083000-c3d4", None, 1_795_336_200.0);
    cancelled.status = RunStatus::Cancelled;
    let rows = vec![
        RunRow { dir: PathBuf::from("/results/compute-20261121-101500-a1b2"), meta: Ok(ok) },
        RunRow {
            dir: PathBuf::from("/results/compute-20261121-230000-dead"),
            meta: Err("/results/compute-20261121-230000-dead/meta.json: not valid run metadata: expected value at line 1 column 1".into()),
        },
        RunRow { dir: PathBuf::from("/results/compute-20261122-083000-c3d4"), meta: Ok(cancelled) },
    ];
    App::new(PathBuf::from("/results"), Box::new(NoLaunch)).with_data(runtimes(), suites(), rows)
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| wasmeter_tui::ui::draw(f, app)).unwrap();
    t.backend().to_string()
}

fn m(rt: &str, test: &str, i: u32, v: f64) -> Event {
    crate::common::measurement_event(rt, test, i, v)
}

/// A live run two cells in, the third failed, the fourth running.
/// Each cell's status, iterations done, invocation and invocations ended.
fn statuses(l: &LivePane) -> Vec<(wasmeter_core::live::CellStatus, u32, u32, u32)> {
    (l.run.cells.iter())
        .map(|c| (c.status, c.done, c.invocation, c.invocations_ended))
        .collect()
}

pub fn live_pane() -> LivePane {
    let mut l = LivePane::new("native");
    let cells: Vec<(String, String)> = ["native", "wasmtime", "wasmer-cranelift"]
        .iter()
        .flat_map(|r| {
            ["sha256", "nbody"]
                .iter()
                .map(move |t| (r.to_string(), t.to_string()))
        })
        .collect();
    l.apply(Event::Planned {
        run_id: "compute-20261122-090000-beef".into(),
        suite: "compute".into(),
        suite_kind: wasmeter_core::suite::SuiteKind::Command,
        baseline: "native".into(),
        cells,
        iterations_per_cell: 3,
        invocations: 1,
    });
    let finish = |l: &mut LivePane, i: usize, rt: &str, t: &str, base: f64| {
        l.apply(Event::CellStarted {
            index: i,
            invocation: 0,
            beside: false,
        });
        for k in 0..3 {
            l.apply(Event::Progress {
                index: i,
                done: k + 1,
            });
            l.apply(m(rt, t, k, base * (1.0 + 0.01 * k as f64)));
        }
        // A cell every 3 s: the ETA goes by that pace.
        l.elapsed = Duration::from_secs(3 * (i as u64 + 1));
        l.apply(Event::CellFinished {
            index: i,
            failure: None,
            wall_ms: base * 3.0 / 1e6 + 40.0,
        });
    };
    finish(&mut l, 0, "native", "sha256", 2.0e6);
    finish(&mut l, 1, "native", "nbody", 1.2e7);
    finish(&mut l, 2, "wasmtime", "sha256", 2.6e6);
    l.apply(Event::CellStarted {
        index: 3,
        invocation: 0,
        beside: false,
    });
    l.apply(Event::Progress { index: 3, done: 1 });
    l.elapsed = Duration::from_secs(12);
    l.apply(Event::CellFinished {
        index: 3,
        failure: Some(Failure::Trap("unreachable executed".into())),
        wall_ms: 80.0,
    });
    l.apply(Event::CellStarted {
        index: 4,
        invocation: 0,
        beside: false,
    });
    l.apply(Event::Progress { index: 4, done: 1 });
    for i in 0..30u64 {
        l.apply(Event::Sample {
            sample: SampleRow {
                t_ms: i as f64 * 100.0,
                runtime: "wasmer-cranelift".into(),
                test: "sha256".into(),
                cpu_pct: [95.0, 100.0, 60.0][i as usize % 3],
                rss_bytes: (20 + i) << 20,
            },
        });
    }
    l.elapsed = Duration::from_secs(12);
    l
}

#[test]
fn runtimes_screen() {
    let mut a = app();
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Char(' '));
    insta::assert_snapshot!(render(&a, 100, 28));
}

#[test]
fn runtimes_detecting() {
    let a = App::new(PathBuf::from("/results"), Box::new(NoLaunch));
    insta::assert_snapshot!(render(&a, 80, 24));
}

#[test]
fn suites_screen_filtered() {
    let mut a = app();
    key(&mut a, KeyCode::Char('2'));
    keys(&mut a, "/ch");
    insta::assert_snapshot!(render(&a, 100, 28));
}

#[test]
fn settings_editing() {
    let mut a = app();
    key(&mut a, KeyCode::Char('2'));
    key(&mut a, KeyCode::Tab);
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Right);
    key(&mut a, KeyCode::Right);
    key(&mut a, KeyCode::End);
    // From the last field (sweep) up past budget, precision, pair mode and pair to the
    // label.
    for _ in 0..5 {
        key(&mut a, KeyCode::Up);
    }
    key(&mut a, KeyCode::Enter);
    keys(&mut a, "nightly");
    insta::assert_snapshot!(render(&a, 100, 28));
}

#[test]
fn live_run_in_flight() {
    let mut a = app();
    a.live = live_pane();
    a.focus = Pane::Live;
    insta::assert_snapshot!(render(&a, 120, 36));
}

#[test]
fn live_run_80x24() {
    let mut a = app();
    a.live = live_pane();
    a.focus = Pane::Live;
    insta::assert_snapshot!(render(&a, 80, 24));
}

#[test]
fn live_run_finished() {
    let mut a = app();
    let mut l = live_pane();
    l.apply(m("wasmer-cranelift", "nbody", 0, 3.1e7));
    l.apply(Event::CellFinished {
        index: 4,
        failure: None,
        wall_ms: 300.0,
    });
    l.apply(Event::CellStarted {
        index: 5,
        invocation: 0,
        beside: false,
    });
    l.apply(m("wasmer-cranelift", "sha256", 0, 5.1e6));
    l.apply(Event::CellFinished {
        index: 5,
        failure: None,
        wall_ms: 90.0,
    });
    l.apply(Event::RunFinished {
        status: RunStatus::Complete,
        failed: 1,
    });
    a.live = l;
    a.focus = Pane::Live;
    insta::assert_snapshot!(render(&a, 100, 30));
}

/// Interleaved invocations: a cell between its invocations is queued with how many
/// ended, the running one says which invocation it is in, and so does the gauge.
#[test]
fn live_run_interleaved() {
    let mut l = LivePane::new("native");
    l.apply(Event::Planned {
        run_id: "compute-20261122-090000-beef".into(),
        suite: "compute".into(),
        suite_kind: wasmeter_core::suite::SuiteKind::Command,
        baseline: "native".into(),
        cells: vec![
            ("native".into(), "sha256".into()),
            ("wasmtime".into(), "sha256".into()),
            ("wasmtime".into(), "nbody".into()),
        ],
        iterations_per_cell: 6,
        invocations: 2,
    });
    // Round 0: wasmtime × sha256, native, then wasmtime × nbody half way.
    for (i, done) in [(1usize, 3u32), (0, 3), (2, 2)] {
        l.apply(Event::CellStarted {
            index: i,
            invocation: 0,
            beside: false,
        });
        for d in 1..=done {
            l.apply(Event::Progress { index: i, done: d });
        }
    }
    use wasmeter_core::live::CellStatus::{Queued, Running};
    // (status, iterations done, invocation, invocations ended) of each cell.
    assert_eq!(
        statuses(&l),
        [(Queued, 3, 0, 1), (Queued, 3, 0, 1), (Running, 2, 0, 0)]
    );
    // Round 1 begins with native, 5 s in: wasmtime × nbody's first invocation ended.
    l.elapsed = Duration::from_secs(5);
    l.apply(Event::CellStarted {
        index: 0,
        invocation: 1,
        beside: false,
    });
    l.apply(Event::Progress { index: 0, done: 4 });
    assert_eq!(statuses(&l)[0], (Running, 4, 1, 1));
    assert_eq!(statuses(&l)[2], (Queued, 2, 0, 1));
    let mut a = app();
    a.live = l;
    a.focus = Pane::Live;
    let s = render(&a, 120, 30);
    assert!(
        s.contains("9/18 iterations · 0/3 cells · invocation 2/2 ·"),
        "{s}"
    );
    for (cell, want) in [
        ("native × sha256", "running 4/6 · invocation 2/2"),
        ("wasmtime × sha256", "queued 1/2"),
        ("wasmtime × nbody", "queued 1/2"),
    ] {
        assert!(
            s.lines().any(|l| l.contains(cell) && l.contains(want)),
            "{cell}: {want:?} missing in\n{s}"
        );
    }
    insta::assert_snapshot!(s);
}

/// An alternating pair: both arms run in one worker, so both show running until the next
/// worker starts, and then both wait for their next invocation.
#[test]
fn live_alternating_pair_runs_both_arms_at_once() {
    use wasmeter_core::live::CellStatus::{Queued, Running};
    let mut l = LivePane::new("native");
    l.apply(Event::Planned {
        run_id: "compute-20261126-090000-beef".into(),
        suite: "compute".into(),
        suite_kind: wasmeter_core::suite::SuiteKind::Command,
        baseline: "native".into(),
        cells: vec![
            ("wasmtime".into(), "sha256".into()),
            ("wasmer-cranelift".into(), "sha256".into()),
            ("native".into(), "sha256".into()),
        ],
        iterations_per_cell: 4,
        invocations: 2,
    });
    for (index, beside) in [(1usize, false), (0, true)] {
        l.apply(Event::CellStarted {
            index,
            invocation: 0,
            beside,
        });
    }
    for (index, done) in [(0usize, 1u32), (1, 1), (1, 2), (0, 2)] {
        l.apply(Event::Progress { index, done });
    }
    assert_eq!(statuses(&l)[..2], [(Running, 2, 0, 0), (Running, 2, 0, 0)]);
    // The next worker: both arms ended their invocation.
    l.apply(Event::CellStarted {
        index: 2,
        invocation: 0,
        beside: false,
    });
    assert_eq!(
        statuses(&l),
        [(Queued, 2, 0, 1), (Queued, 2, 0, 1), (Running, 0, 0, 0)]
    );
    assert_eq!((l.run.head.current, l.run.head.alongside), (Some(2), None));
}

#[test]
fn live_empty() {
    let mut a = app();
    key(&mut a, KeyCode::Char('3'));
    insta::assert_snapshot!(render(&a, 80, 24));
}

#[test]
fn saved_runs_with_broken_run() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Char(' '));
    key(&mut a, KeyCode::Up);
    insta::assert_snapshot!(render(&a, 110, 24));
}

fn detail_app(view: View) -> App {
    let mut a = app();
    let mut d = DetailPane::new(saved_run(
        "compute-20261121-101500-a1b2",
        Some("baseline"),
        1.0,
        Some(("wasmer-cranelift", "nbody")),
    ));
    d.view = view;
    d.col = 1;
    d.row = 1;
    a.detail = Some(d);
    a.focus = Pane::Detail;
    a
}

#[test]
fn detail_distribution() {
    insta::assert_snapshot!(render(&detail_app(View::Distribution), 100, 32));
}

#[test]
fn detail_resources() {
    insta::assert_snapshot!(render(&detail_app(View::Resources), 100, 32));
}

#[test]
fn detail_phases() {
    insta::assert_snapshot!(render(&detail_app(View::Phases), 100, 32));
}

fn lifecycle_app(view: View) -> App {
    let mut a = app();
    let mut d = DetailPane::new(lifecycle_run());
    d.view = view;
    d.col = 1;
    d.row = 3;
    a.detail = Some(d);
    a.focus = Pane::Detail;
    a
}

/// A lifecycle run: instantiation times in the matrix (no geomean), every measurement of
/// the selected module, and instantiation against heap size with dense and sparse lines.
#[test]
fn detail_lifecycle_measurements() {
    insta::assert_snapshot!(render(&lifecycle_app(View::Operations), 100, 32));
}

#[test]
fn detail_lifecycle_heap() {
    let mut a = lifecycle_app(View::Operations);
    key(&mut a, KeyCode::Char('v'));
    let heap = render(&a, 110, 30);
    // m: the next measurement (first instantiate) against heap size.
    key(&mut a, KeyCode::Char('m'));
    insta::assert_snapshot!(format!("{heap}\n{}", render(&a, 110, 30)));
}

/// Issue 20: at 160×45 the matrix showed 17 of 19 tests while the pane under it was
/// mostly empty. It now gets the rows it needs, and says which tests it shows when it must
/// scroll.
#[test]
fn the_detail_matrix_gets_the_rows_it_needs_and_says_when_it_scrolls() {
    let mut run = saved_run("compute-20261121-101500-a1b2", None, 1.0, None);
    for i in 0..16 {
        run.meta.tests.push(wasmeter_core::store::TestRecord {
            name: format!("extra{i:02}"),
            source_hash: "x".into(),
            module_bytes: None,
            native_bytes: None,
            as_given: None,
        });
    }
    let mut a = app();
    a.detail = Some(DetailPane::new(run));
    a.focus = Pane::Detail;
    let big = render(&a, 160, 45);
    for t in TESTS
        .iter()
        .map(|t| t.to_string())
        .chain((0..16).map(|i| format!("extra{i:02}")))
    {
        assert!(big.contains(&t), "{t} not shown at 160×45:\n{big}");
    }
    assert!(big.contains("geomean"), "{big}");
    assert!(!big.contains("of 19 (↑↓)"), "{big}");
    let small = render(&a, 80, 24);
    assert!(small.contains("tests 1–"), "{small}");
    assert!(small.contains("of 19 (↑↓)"), "{small}");
}

/// The detail's first line is core's headline for the run, as `wasmeter show` prints it.
#[test]
fn the_detail_leads_with_cores_headline() {
    let run = saved_run(
        "compute-20261121-101500-a1b2",
        Some("baseline"),
        1.0,
        Some(("wasmer-cranelift", "nbody")),
    );
    let want =
        wasmeter_core::analysis::run_headline(&wasmeter_core::analysis::summarize(&run, None));
    assert!(want.contains("native"), "{want}");
    let s = render(&detail_app(View::Distribution), 240, 32);
    let first = s
        .lines()
        .find(|l| l.contains(&want))
        .unwrap_or_else(|| panic!("{want:?} missing in\n{s}"));
    // Above the run's id line.
    let at = |needle: &str| s.lines().position(|l| l.contains(needle)).unwrap();
    assert!(
        at(first) < at("compute-20261121-101500-a1b2 \"baseline\""),
        "{s}"
    );
}

/// `/` in the detail pane filters the matrix's tests by name: only those rows stay, the
/// selection moves onto one of them, the arrows walk only them, and Esc brings back all.
#[test]
fn the_detail_matrix_filters_tests_by_name() {
    let mut a = detail_app(View::Distribution);
    // The matrix's rows: lines that start (after the border) with a test's name.
    let rows = |s: &str| -> Vec<&'static str> {
        TESTS
            .iter()
            .copied()
            .filter(|t| {
                s.lines().any(|l| {
                    l.trim_start_matches(['"', '┃', '│', ' '])
                        .starts_with(&format!("{t} "))
                })
            })
            .collect()
    };
    assert_eq!(rows(&render(&a, 120, 32)), TESTS);
    a.detail.as_mut().unwrap().row = 2; // nbody
    key(&mut a, KeyCode::Char('/'));
    keys(&mut a, "HA");
    let s = render(&a, 120, 32);
    assert_eq!(rows(&s), ["sha256", "chacha20"], "{s}");
    assert!(s.contains("filter: HA▏"), "{s}");
    key(&mut a, KeyCode::Enter);
    let d = a.detail.as_ref().unwrap();
    assert_eq!(d.filter, "HA");
    assert!(!d.editing);
    // The selection (nbody, hidden) moved to the first shown test; down walks the shown.
    assert_eq!(d.row, 0);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.detail.as_ref().unwrap().row, 1);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.detail.as_ref().unwrap().row, 1, "nbody is filtered out");
    // Nothing matches: said, with how to clear it.
    key(&mut a, KeyCode::Char('/'));
    keys(&mut a, "zz");
    let none = render(&a, 120, 32);
    assert!(rows(&none).is_empty(), "{none}");
    assert!(none.contains("no test of 3 matches (Esc clears)"), "{none}");
    key(&mut a, KeyCode::Esc);
    let back = render(&a, 120, 32);
    assert_eq!(rows(&back), TESTS, "{back}");
    assert!(!back.contains("filter:"), "{back}");
}

/// A matrix row is written in one form: when one cell's full text (`7.7 ms ±10.8 % (1.51×)`)
/// does not fit its column, every cell of that row is compact (`1.51× ±10.8%`), while a row
/// whose texts all fit stays full (issue 61: at about 80 columns rows mixed the two). Checked
/// at every width from 80 to 160 columns, some of which put full and compact rows in one
/// matrix.
#[test]
fn a_matrix_row_never_mixes_full_and_compact_cell_texts() {
    let apps: [(App, &[&str]); 2] = [
        (
            detail_app(View::Distribution),
            &["sha256", "chacha20", "nbody"],
        ),
        (http_app(0, 0), &["hello", "echo-1k"]),
    ];
    let mut both_forms_in_one_matrix = false;
    for (a, tests) in &apps {
        for w in 80..=160 {
            let s = render(a, w, 24);
            let rows: Vec<&str> = s
                .lines()
                .filter(|l| tests.iter().any(|t| l.contains(&format!("┃{t} "))))
                .collect();
            assert_eq!(rows.len(), tests.len(), "{s}");
            let (mut full_rows, mut compact_rows) = (0, 0);
            for row in &rows {
                let full = row.matches("×)").count();
                let compact = row.matches("× ±").count();
                // The baseline's own cell reads `1.00× ±2.5%` in a compact row.
                assert!(
                    full == 0 || compact == 0,
                    "a row mixes the two at {w} columns:\n{s}"
                );
                full_rows += usize::from(full > 0);
                compact_rows += usize::from(compact > 0);
            }
            both_forms_in_one_matrix |= full_rows > 0 && compact_rows > 0;
        }
    }
    assert!(
        both_forms_in_one_matrix,
        "no width put a full row beside a compact one"
    );
}

#[test]
fn detail_80x24() {
    insta::assert_snapshot!(render(&detail_app(View::Distribution), 80, 24));
}

#[test]
fn detail_and_diff_empty() {
    let mut a = app();
    key(&mut a, KeyCode::Char('5'));
    let d = render(&a, 80, 24);
    key(&mut a, KeyCode::Char('6'));
    insta::assert_snapshot!(format!("{d}\n{}", render(&a, 80, 24)));
}

/// Two runs to diff: B's times 10 % shorter, and all of wasmtime × nbody 30 % longer
/// than that; `fail` a cell that failed in B.
fn nbody_slower_in_b(fail: Option<(&str, &str)>) -> (SavedRun, SavedRun) {
    let ra = saved_run("compute-20261121-101500-a1b2", None, 1.0, None);
    let mut rb = saved_run("compute-20261122-083000-c3d4", None, 0.9, fail);
    for m in rb
        .measurements
        .iter_mut()
        .filter(|m| m.runtime == "wasmtime" && m.test == "nbody")
    {
        m.value *= 1.3;
    }
    (ra, rb)
}

#[test]
fn diff_screen() {
    let mut a = app();
    let (ra, mut rb) = nbody_slower_in_b(Some(("wasmer-cranelift", "nbody")));
    rb.meta.machine = machine("fp-2");
    let diff = diff_runs(&ra, &rb, &DiffOptions::default()).unwrap();
    // Two invocations of three runs a side: every row has an interval and a verdict. B's
    // times are 10 % shorter (its compile, instantiate and teardown unchanged), and all of
    // wasmtime × nbody 30 % longer than that.
    assert!(
        diff.rows
            .iter()
            .all(|r| r.ci_low.is_some() && r.halfwidth_pct.is_some() && r.n == (6, 6)),
        "{:#?}",
        diff.rows
    );
    for r in &diff.rows {
        let want = match (r.runtime.as_str(), r.test.as_str(), r.phase.as_str()) {
            ("wasmtime", "nbody", _) => Verdict::Slower,
            (_, _, "execute" | "total") => Verdict::Faster,
            _ => Verdict::NoChange,
        };
        assert_eq!(r.verdict, want, "{r:?}");
    }
    let c = diff.counts();
    assert_eq!(
        (
            c.faster,
            c.slower,
            c.no_change,
            c.insufficient,
            c.not_comparable
        ),
        (14, 5, 12, 0, 0)
    );
    let headline = wasmeter_core::analysis::diff_headline(&diff);
    // wasmer-cranelift × nbody failed in B: its 5 phases only in A.
    assert_eq!(
        headline,
        "5 slower, 14 faster, 12 no change, 0 undecided; 5 only in A"
    );
    a.diff = Some(DiffPane {
        cursor: 2,
        changes_only: false,
        ..DiffPane::new(diff, (ra.dir.clone(), rb.dir.clone()))
    });
    a.focus = Pane::Diff;
    let s = render(&a, 110, 32);
    for want in [
        // Core's headline first, as `wasmeter diff` prints it.
        "5 slower, 14 faster, 12 no change, 0 undecided; 5 only in A · not normalised",
        "how: B/A of geometric means over invocations, 95 % Student-t interval over invocations (Welch)",
        "B/A [CI] ±noise",
        "n 6/6 from 2/2 invocations",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    insta::assert_snapshot!(s);
}

/// The diff through keys: it opens on the changed rows, `c` shows all, `s` sorts by B/A
/// (`S` the other way), `/` filters by runtime, test or phase.
#[test]
fn diff_keys_sort_filter_and_show_changes_only() {
    let mut a = app();
    let (ra, rb) = nbody_slower_in_b(None);
    let diff = diff_runs(&ra, &rb, &DiffOptions::default()).unwrap();
    let changes = diff.rows.iter().filter(|r| r.verdict.is_change()).count();
    let all = diff.rows.len();
    assert!(changes > 0 && changes < all, "{changes} of {all}");
    a.diff = Some(DiffPane::new(diff, (ra.dir.clone(), rb.dir.clone())));
    a.focus = Pane::Diff;
    let pane = |a: &App| a.diff.as_ref().unwrap().visible();
    let verdicts = |a: &App| {
        let d = a.diff.as_ref().unwrap();
        pane(a)
            .iter()
            .map(|&i| d.diff.rows[i].verdict)
            .collect::<Vec<_>>()
    };
    assert_eq!(pane(&a).len(), changes);
    assert!(verdicts(&a).iter().all(|v| v.is_change()));
    let s = render(&a, 110, 32);
    assert!(
        s.contains(&format!(
            "showing {changes} of {all} rows (changes only: c shows all)"
        )),
        "{s}"
    );
    key(&mut a, KeyCode::Char('c'));
    assert_eq!(pane(&a).len(), all);
    // s: B/A ascending; S: descending.
    key(&mut a, KeyCode::Char('s'));
    let ratios = |a: &App| {
        let d = a.diff.as_ref().unwrap();
        pane(a)
            .iter()
            .filter_map(|&i| d.diff.rows[i].ratio)
            .collect::<Vec<f64>>()
    };
    let up = ratios(&a);
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "{up:?}");
    key(&mut a, KeyCode::Char('S'));
    let down = ratios(&a);
    assert!(down.windows(2).all(|w| w[0] >= w[1]), "{down:?}");
    assert!(render(&a, 110, 32).contains("sorted by B/A ↓"));
    // s again: by verdict, slower first.
    key(&mut a, KeyCode::Char('s'));
    assert_eq!(verdicts(&a)[0], Verdict::Slower);
    // /: the filter takes the keys (1–7 and q are text, not screens or quit).
    keys(&mut a, "/nbody");
    assert_eq!(a.focus, Pane::Diff);
    key(&mut a, KeyCode::Enter);
    let d = a.diff.as_ref().unwrap();
    assert!(!pane(&a).is_empty());
    assert!(pane(&a).iter().all(|&i| d.diff.rows[i].test == "nbody"));
    let s = render(&a, 110, 32);
    assert!(s.contains("filter: nbody"), "{s}");
    insta::assert_snapshot!(s);
}

/// A diff whose rows cannot all carry a verdict: B is a cancelled run with a partial cell
/// and a cell timed by the harness only; in A every sha256 cell ended one of its two
/// invocations. Wide (160 columns): the note column shows why; the selected row's note
/// shows under the table; the header names the normalisation.
#[test]
fn diff_guards_160() {
    let mut a = app();
    let mut ra = saved_run("compute-20261121-101500-a1b2", None, 1.0, None);
    // A: every sha256 cell ended one of its two invocations.
    ra.measurements
        .retain(|m| !(m.test == "sha256" && m.invocation == 1));
    ra.cells
        .retain(|c| !(c.test == "sha256" && c.invocation == 1));
    let rb = guarded_run("compute-20261122-083000-c3d4");
    let opts = DiffOptions::parse(2.0, Some("native")).unwrap();
    let diff = diff_runs(&ra, &rb, &opts).unwrap();
    let row = |rt: &str, t: &str, ph: &str| {
        diff.rows
            .iter()
            .find(|r| r.runtime == rt && r.test == t && r.phase == ph)
            .unwrap_or_else(|| panic!("no row {rt} {t} {ph}: {:#?}", diff.rows))
    };
    let sha = row("wasmtime", "sha256", "execute");
    assert_eq!(sha.verdict, Verdict::InsufficientData, "{sha:?}");
    assert_eq!(sha.ci_low, None);
    assert!(
        sha.note.as_deref().unwrap().contains("invocation"),
        "{sha:?}"
    );
    let partial = row("wasmer-cranelift", "chacha20", "execute");
    assert_eq!(partial.verdict, Verdict::InsufficientData, "{partial:?}");
    assert_eq!(
        partial.note.as_deref(),
        Some("partial cell in B: 1 of 2 invocations")
    );
    let nc = row("wasmtime", "nbody", "execute");
    assert_eq!(nc.verdict, Verdict::NotComparable, "{nc:?}");
    assert_eq!(nc.ratio, None);
    let cursor = diff.rows.iter().position(|r| std::ptr::eq(r, nc)).unwrap();
    a.diff = Some(DiffPane {
        cursor,
        changes_only: false,
        ..DiffPane::new(diff, (ra.dir.clone(), rb.dir.clone()))
    });
    a.focus = Pane::Diff;
    let s = render(&a, 160, 40);
    for want in [
        "each side relative to its run's native",
        "insufficient data",
        "not comparable",
        "partial cell in B: 1 of 2 invocations",
        // The selected row: no ratio, its note under the table.
        "wasmtime × nbody (execute): - · n 6/6",
        "not comparable: timing sources differ",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    // Every verdict is whole, none cut by a narrow column.
    for line in s.lines().filter(|l| l.contains("insufficient")) {
        assert!(line.contains("insufficient data"), "{line}");
    }
    insta::assert_snapshot!(s);
}

/// The detail of a cancelled run: the partial cell is marked and has no relative value,
/// the cell timed by the harness only says why it is not compared, the geomean names the
/// tests it covers, and every cell shows its noise.
#[test]
fn detail_guards() {
    let mut a = app();
    let mut d = DetailPane::new(guarded_run("compute-20261122-083000-c3d4"));
    let s = &d.summary;
    let cell = |rt: &str, t: &str| s.cell(rt, t).unwrap();
    let partial = cell("wasmer-cranelift", "chacha20");
    assert!(partial.partial && partial.relative.is_none());
    assert_eq!(partial.invocations, 1);
    assert_eq!(partial.note.as_deref(), Some("partial: 1 of 2 invocations"));
    let nc = cell("wasmtime", "nbody");
    assert_eq!(nc.relative, None);
    assert_eq!(
        nc.note.as_deref(),
        Some("not comparable: timing sources differ (wall vs self)")
    );
    let wasmtime = &s.per_runtime[1];
    assert_eq!((wasmtime.tests_compared, wasmtime.tests_total), (2, 3));
    let sha = cell("wasmtime", "sha256");
    let h = sha.halfwidth_pct.unwrap();
    assert!(h > 0.0 && h < 5.0, "{h}");
    d.row = 2; // nbody
    d.col = 1; // wasmtime
    a.detail = Some(d);
    a.focus = Pane::Detail;
    let s = render(&a, 140, 32);
    for want in [
        "2 invocations × (1 warm-up + 3 runs), interleaved",
        &format!("±{h:.1} %"),
        "partial",
        "(2 of 3 tests)",
        "wasmtime × nbody:",
        "not comparable: timing sources differ (wall vs self)",
        "6 values from 2 invocations",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    insta::assert_snapshot!(s);
}

#[test]
fn export_dialog() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    key(&mut a, KeyCode::Char('e'));
    key(&mut a, KeyCode::Right);
    insta::assert_snapshot!(render(&a, 100, 28));
}

#[test]
fn confirm_delete() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    key(&mut a, KeyCode::Char('d'));
    insta::assert_snapshot!(render(&a, 100, 28));
}

#[test]
fn help_overlay() {
    let mut a = app();
    key(&mut a, KeyCode::Char('?'));
    insta::assert_snapshot!(render(&a, 100, 30));
}

#[test]
fn too_small() {
    let a = app();
    insta::assert_snapshot!(render(&a, 60, 20));
}

fn http_app(row: usize, col: usize) -> App {
    let mut a = app();
    let mut d = DetailPane::new(http_run());
    d.row = row;
    d.col = col;
    a.detail = Some(d);
    a.focus = Pane::Detail;
    a
}

/// An HTTP run opens on its variants: latency in the matrix, the overview table of the
/// selected request and requests/s against connections, one line per variant.
#[test]
fn detail_http() {
    let a = http_app(0, 2);
    assert_eq!(a.detail.as_ref().unwrap().view, View::Http);
    let s = render(&a, 110, 36);
    for want in [
        "Matrix: typical latency over one connection × native",
        "connections 1 10 50 100, 0.5 s per level, latency 0.3 s",
        "hello: variants under load",
        // native: cold start, p50/p90/p99 over one connection, best rps at 50 connections
        "4.14 ms",
        "8.1 µs",
        "181.8k/s (50)",
        // wasmtime-pooling: best at 10 connections, about an eighth of native's
        "21.2k/s (10)",
        "0.12×",
        // peak RSS and CPU per 1k requests of the best level
        "11.9 MiB",
        "3.33 ms",
        // the chart: axis titles, decades on the y axis, a legend entry per variant
        "requests/s (log)",
        "100k/s",
        "10k/s",
        "connections (log)",
        "━ native",
        "━ wasmtime-pooling",
        "━ wasmer-cranelift",
        // the selected variant's requests/s at each level, failed requests marked
        "conns    req/s",
        "    1  12.1k/s",
        "  100   9.1k/s 12 err",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    let labels = s
        .lines()
        .rev()
        .find(|l| l.contains(" 10 ") && l.contains(" 100"))
        .unwrap_or_else(|| panic!("no level labels in\n{s}"));
    for lv in ["1", "10", "50", "100"] {
        assert!(
            labels
                .split(|c: char| c.is_whitespace() || c == '│')
                .any(|w| w == lv),
            "{labels}"
        );
    }
    insta::assert_snapshot!(s);
}

/// The selected request has a failed variant: FAILED in the table, no line in the chart,
/// the reason under it.
#[test]
fn detail_http_failed_variant() {
    let a = http_app(1, 2);
    let s = render(&a, 110, 36);
    for want in [
        "echo-1k: variants under load",
        "FAILED",
        "wasmer-cranelift failed: trap: out of bounds memory access",
        "━ native",
        "━ wasmtime-pooling",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    assert!(!s.contains("━ wasmer-cranelift"), "{s}");
    insta::assert_snapshot!(s);
}

/// v cycles the HTTP run's views: variants, distribution, resources, variants again (the
/// command phases mean nothing here).
#[test]
fn detail_http_views() {
    let mut a = http_app(0, 0);
    let mut seen = vec![];
    for _ in 0..4 {
        seen.push(a.detail.as_ref().unwrap().view);
        key(&mut a, KeyCode::Char('v'));
    }
    assert_eq!(
        seen,
        [View::Http, View::Distribution, View::Resources, View::Http]
    );
    // Any size draws without panicking (the level labels are placed by hand).
    for w in (20..=160).step_by(7) {
        for h in (8..=50).step_by(3) {
            render(&a, w, h);
        }
    }
}

#[test]
fn detail_http_80x24() {
    insta::assert_snapshot!(render(&http_app(0, 0), 80, 24));
}

/// A run measured on a busy machine says so in its header, with the load core measured;
/// a quiet one gives its load in grey.
#[test]
fn detail_busy_run() {
    let run = |share: f64| {
        let mut r = saved_run("compute-20261121-101500-a1b2", None, 1.0, None);
        let cores = r.meta.machine.cores as f64;
        for c in &mut r.cells {
            c.other_cores = Some(share * cores);
        }
        let mut a = app();
        a.detail = Some(DetailPane::new(r));
        a.focus = Pane::Detail;
        render(&a, 200, 32)
    };
    let busy = run(0.75);
    assert!(
        busy.contains("busy: other processes took") && busy.contains("a diff gives no verdicts"),
        "{busy}"
    );
    let quiet = run(0.05);
    assert!(
        quiet.contains("· other processes ") && !quiet.contains("busy:"),
        "{quiet}"
    );
}

/// Issue 32: a run of prebuilt programs shows their module, native and compiled sizes and
/// each cell's peak memory in a view of its own (`v` after the phases); a run without
/// sizes goes from the phases back to the distribution.
#[test]
fn a_run_of_programs_shows_their_sizes_after_the_phases() {
    use wasmeter_core::runtime::{Metric, Phase};
    use wasmeter_core::store::MeasurementRow;
    let mut run = saved_run("apps-20261126-235458-4ee2", None, 1.0, None);
    for (i, t) in run.meta.tests.iter_mut().enumerate() {
        t.module_bytes = Some(300_000 + 1000 * i as u64);
        t.native_bytes = Some(280_000);
        t.as_given = Some(false);
    }
    let value = |runtime: &str, test: &str, metric, value| MeasurementRow {
        runtime: runtime.into(),
        test: test.into(),
        phase: Phase::Compile,
        invocation: 0,
        iteration: 0,
        warmup: false,
        metric,
        value,
    };
    run.measurements.push(value(
        "wasmtime",
        "sha256",
        Metric::ArtifactBytes,
        800.0 * 1024.0,
    ));
    run.measurements
        .push(value("native", "sha256", Metric::MaxRssKib, 7.0 * 1024.0));
    let mut a = app();
    a.detail = Some(DetailPane::new(run));
    a.focus = Pane::Detail;
    for _ in 0..3 {
        key(&mut a, KeyCode::Char('v'));
    }
    let shown = render(&a, 140, 40);
    assert!(shown.contains("Sizes: module, native build"), "{shown}");
    assert!(shown.contains("wasmtime compiled"), "{shown}");
    // sha256: 293.0 KiB of wasm, 273.4 KiB native, 1.07, wasmtime's artifact 800.0 KiB.
    let row = shown
        .lines()
        .find(|l| l.contains("sha256") && l.contains("800.0 KiB"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        row.contains("293.0 KiB") && row.contains("273.4 KiB") && row.contains("1.07"),
        "{row}"
    );
    assert!(shown.contains("Peak resident memory per cell"), "{shown}");
    assert!(shown.contains("7.0 MiB"), "{shown}");
    key(&mut a, KeyCode::Char('v'));
    assert!(!render(&a, 140, 40).contains("Sizes: module"));

    // The compute run has no sizes: phases, then the distribution again.
    let mut b = detail_app(View::Phases);
    key(&mut b, KeyCode::Char('v'));
    assert!(!render(&b, 140, 40).contains("Sizes: module"));
}

/// Issue 46: a profiled run opens on its profile: the selected cell's runtime beside the
/// baseline, function by function, as core's table (shares, times, ratios); `a` shows
/// every runtime; a profile file that cannot be read is said in one line.
#[test]
fn a_profiled_run_shows_where_the_time_goes_per_function() {
    use std::collections::BTreeMap;
    use wasmeter_core::profile::{PROFILES_FILE, ProfileRow};
    let tmp = tempfile::tempdir().unwrap();
    let mut run = saved_run("compute-20261128-090000-abcd", None, 1.0, None);
    run.meta.settings.profile = Some(1000);
    let row = |rt: &str, stacks: &[(&str, u64)]| ProfileRow {
        runtime: rt.into(),
        test: "sha256".into(),
        invocation: 0,
        method: "software CPU clock every 250 µs".into(),
        period_ns: 250_000,
        iterations: 3,
        stacks: stacks
            .iter()
            .map(|(s, n)| (s.to_string(), *n))
            .collect::<BTreeMap<_, _>>(),
        libraries: BTreeMap::new(),
        functions: vec!["main".into(), "memcpy".into(), "sha256_block".into()],
        kernel: true,
        ..ProfileRow::default()
    };
    let rows = [
        row(
            "native",
            &[("sha256_block", 800), ("memcpy", 150), ("[kernel]", 50)],
        ),
        row(
            "wasmtime",
            &[
                ("main;sha256_block", 1800),
                ("main;memcpy", 900),
                ("[engine & host]", 300),
            ],
        ),
        row("wasmer-cranelift", &[("main;sha256_block", 2000)]),
    ];
    // Written as the runner writes a run: its rows, then each iteration's profile.
    let mut w = wasmeter_core::store::RunWriter::create(tmp.path(), run.meta.clone()).unwrap();
    w.measurements(&run.measurements).unwrap();
    for c in &run.cells {
        w.cell(c).unwrap();
    }
    for r in &rows {
        w.profile(r).unwrap();
    }
    let dir = w.finish(RunStatus::Complete).unwrap();
    let loaded = wasmeter_core::store::load_run(&dir).unwrap();
    let mut a = app();
    a.detail = Some(DetailPane::new(loaded));
    a.focus = Pane::Detail;
    // The matrix starts on native; one step right compares wasmtime with it.
    key(&mut a, KeyCode::Right);
    let shown = render(&a, 170, 46);
    assert!(
        shown.contains("Profile: sha256 — samples: native 1000, wasmtime 3000"),
        "{shown}"
    );
    let line = |name: &str| {
        shown
            .lines()
            .find(|l| l.contains(&format!("│{name} ")))
            .unwrap_or_else(|| panic!("no {name} row:\n{shown}"))
            .to_string()
    };
    let block = line("sha256_block");
    assert!(
        block.contains("80.0 %") && block.contains("60.0 %"),
        "{block}"
    );
    assert!(!shown.contains("wasmer-cranelift share"), "{shown}");
    let memcpy = line("memcpy");
    assert!(
        memcpy.contains("15.0 %") && memcpy.contains("30.0 %"),
        "{memcpy}"
    );
    assert!(line("[engine & host]").contains("10.0 %"), "{shown}");
    // Every runtime with `a`.
    key(&mut a, KeyCode::Char('a'));
    let all = render(&a, 170, 46);
    assert!(all.contains("wasmer-cranelift share"), "{all}");
    assert!(all.contains("100.0 %"), "{all}");

    // A damaged profile file: the view says which file and why.
    std::fs::write(dir.join(PROFILES_FILE), "{\"runtime\": 3}\n").unwrap();
    let mut b = app();
    b.detail = Some(DetailPane::new(
        wasmeter_core::store::load_run(&dir).unwrap(),
    ));
    b.focus = Pane::Detail;
    let broken = render(&b, 170, 46);
    assert!(
        broken.contains("profiles.jsonl: line 1: not a profile"),
        "{broken}"
    );
}
