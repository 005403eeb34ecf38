//! Many runs side by side: marking any number of runs in Saved runs, the compare screen
//! (core's compare table, by run or machine, relative to any runtime or none), and runs
//! that cannot be compared.

use crate::common::*;
use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use wasmeter_core::analysis::{CompareOptions, compare_runs};
use wasmeter_core::runner::Plan;
use wasmeter_core::store::SavedRun;
use wasmeter_core::table::compare_table;
use wasmeter_tui::App;
use wasmeter_tui::app::Pane;
use wasmeter_tui::launch::{Launcher, RunHandle};
use wasmeter_tui::panes::compare::ComparePane;

struct NoLaunch;
impl Launcher for NoLaunch {
    fn launch(&mut self, _: Plan, _: &Path) -> anyhow::Result<RunHandle> {
        anyhow::bail!("no runs in these tests")
    }
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| wasmeter_tui::ui::draw(f, app)).unwrap();
    t.backend().to_string()
}

const A: &str = "compute-20261121-101500-a1b2";
const B: &str = "compute-20261122-083000-c3d4";
const C: &str = "compute-20261123-090000-e5f6";

/// Three runs of the compute fixture (wasmtime ≈ 1.3, 1.5, 1.7× native on sha256,
/// chacha20, nbody; wasmer-cranelift ≈ 1.9, 2.4, 2.9×): B is 10 % faster throughout and its
/// wasmtime × nbody half as slow again (≈ 2.55×); C ran on another machine and its
/// wasmer-cranelift × nbody failed.
fn three_runs() -> Vec<SavedRun> {
    let a = saved_run(A, Some("before"), 1.0, None);
    let mut b = saved_run(B, None, 0.9, None);
    for m in b
        .measurements
        .iter_mut()
        .filter(|m| m.runtime == "wasmtime" && m.test == "nbody")
    {
        m.value *= 1.5;
    }
    let mut c = saved_run(C, None, 1.0, Some(("wasmer-cranelift", "nbody")));
    c.meta.machine = machine("fp-2");
    c.meta.machine.cpu_model = "Other CPU @ 2.40GHz".into();
    c.meta.machine.arch = "aarch64".into();
    vec![a, b, c]
}

/// The line of the row of `test` × `runtime`, borders off.
fn row_line<'a>(screen: &'a str, test: &str, runtime: &str) -> &'a str {
    screen
        .lines()
        .map(|l| l.trim_matches(['"', '┃', ' ']))
        .find(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() > 2 && words[0] == test && words[1] == runtime
        })
        .unwrap_or_else(|| panic!("no row {test} × {runtime} in\n{screen}"))
}

/// The figures of the row of `test` × `runtime` (`1.30×`, the interval left out; `-`).
fn figures(screen: &str, test: &str, runtime: &str) -> Vec<String> {
    row_line(screen, test, runtime)
        .split_whitespace()
        .skip(2)
        .filter(|w| !w.starts_with('('))
        .map(String::from)
        .collect()
}

/// Asserts that the row of `test` × `runtime` shows `cells`, left to right.
fn shows_in_order(screen: &str, test: &str, runtime: &str, cells: &[String]) {
    let line = row_line(screen, test, runtime);
    let mut from = 0;
    for c in cells {
        let at = line[from..]
            .find(c.as_str())
            .unwrap_or_else(|| panic!("{c:?} missing after column {from} in {line:?}"));
        from += at + c.len();
    }
}

fn ratio(s: &str) -> f64 {
    s.trim_end_matches('×')
        .parse()
        .unwrap_or_else(|_| panic!("{s:?} is not a ratio"))
}

fn app_with(pane: ComparePane) -> App {
    let mut a = App::new(PathBuf::from("/results"), Box::new(NoLaunch)).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    a.compare = Some(pane);
    a.focus = Pane::Compare;
    a
}

#[test]
fn compare_screen_shows_a_column_per_run_relative_to_its_native() {
    let runs = three_runs();
    let core = compare_table(
        &compare_runs(
            &runs,
            &CompareOptions {
                normalize: Some("native".into()),
                by_machine: false,
            },
        )
        .unwrap(),
    );
    let a = app_with(ComparePane::new(runs).unwrap());
    let s = render(&a, 120, 34);
    for want in [
        "Compare: 3 runs of compute",
        "suite compute: relative to native of the same run, each with its 95 % interval · columns by run",
        "⚠ the runs are from different machines: each figure is relative to its own run's reference",
        A,
        B,
        C,
        "wasmer-cranelift × nbody in compute-20261123-090000-e5f6: trap: unreachable executed",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    // One cell per run, each as core's table has it.
    for (t, test) in TESTS.iter().enumerate() {
        for (r, rt) in RTS.iter().enumerate() {
            let row = &core.rows[t * RTS.len() + r];
            assert_eq!(row[..2], [test.to_string(), rt.to_string()]);
            assert_eq!(figures(&s, test, rt).len(), 3, "{test} × {rt}");
            shows_in_order(&s, test, rt, &row[2..]);
        }
    }
    // The values themselves: native is 1, wasmtime × sha256 about 1.3 in every run, B's
    // wasmtime × nbody half as slow again as A's, C's failed wasmer-cranelift × nbody none.
    assert!(figures(&s, "sha256", "native").iter().all(|f| f == "1.00×"));
    for f in figures(&s, "sha256", "wasmtime") {
        assert!((ratio(&f) - 1.3).abs() < 0.05, "{f}");
    }
    let nbody = figures(&s, "nbody", "wasmtime");
    assert!(
        (ratio(&nbody[1]) / ratio(&nbody[0]) - 1.5).abs() < 0.05,
        "{nbody:?}"
    );
    assert!(
        (ratio(&nbody[2]) - ratio(&nbody[0])).abs() < 0.05,
        "{nbody:?}"
    );
    let failed = figures(&s, "nbody", "wasmer-cranelift");
    assert_eq!(failed[2], "-", "{failed:?}");
    // Geometric means stay under the table: one per runtime.
    let geo = figures(&s, "geomean", "wasmtime");
    assert_eq!(geo.len(), 3, "{geo:?}");
    assert!(ratio(&geo[1]) > ratio(&geo[0]), "{geo:?}");
    insta::assert_snapshot!(s);
}

#[test]
fn compare_switches_to_machines_and_cycles_what_figures_are_relative_to() {
    let mut a = app_with(ComparePane::new(three_runs()).unwrap());
    keys(&mut a, "m");
    let s = render(&a, 120, 34);
    assert!(s.contains("columns by machine"), "{s}");
    // Two runs on one machine keep apart by their ids; the third is its own machine.
    let text = s.replace(['"', '┃'], " ");
    for want in ["Test CPU @ 3.00GHz", "Other CPU @ 2.40GHz", "aarch64"] {
        assert!(text.contains(want), "{want:?} missing in\n{s}");
    }
    assert!(!text.contains(&format!(" {C} ")), "{s}");
    insta::assert_snapshot!("compare_by_machine", s);
    // m again: by run.
    keys(&mut a, "m");
    assert!(render(&a, 120, 34).contains("columns by run"));

    let pane = |a: &App| a.compare.as_ref().unwrap().opts.normalize.clone();
    assert_eq!(
        a.compare.as_ref().unwrap().normalizations(),
        [
            Some("native".to_string()),
            None,
            Some("wasmtime".into()),
            Some("wasmer-cranelift".into())
        ]
    );
    // n: times as measured, no geometric means, the machines' warning says so.
    keys(&mut a, "n");
    assert_eq!(pane(&a), None);
    let s = render(&a, 120, 34);
    assert!(s.contains("suite compute: typical time"), "{s}");
    assert!(s.contains("times are compared as measured"), "{s}");
    assert!(!s.contains("geomean"), "{s}");
    let none = compare_table(
        &compare_runs(
            &three_runs(),
            &CompareOptions {
                normalize: None,
                by_machine: false,
            },
        )
        .unwrap(),
    );
    // sha256 on native: about 2 ms, B's 10 % less.
    let row = &none.rows[0];
    assert_eq!(row[..2], ["sha256", "native"]);
    assert!(
        row[2].starts_with("2.0") && row[2].contains("ms"),
        "{row:?}"
    );
    assert!(row[3].starts_with("1.8"), "{row:?}");
    shows_in_order(&s, "sha256", "native", &row[2..]);
    // n: relative to wasmtime, which is 1 everywhere it ran and native below it.
    keys(&mut a, "n");
    assert_eq!(pane(&a).as_deref(), Some("wasmtime"));
    let s = render(&a, 120, 34);
    assert!(s.contains("relative to wasmtime of the same run"), "{s}");
    assert!(
        figures(&s, "chacha20", "wasmtime")
            .iter()
            .all(|f| f == "1.00×")
    );
    for f in figures(&s, "sha256", "native") {
        assert!((ratio(&f) - 1.0 / 1.3).abs() < 0.05, "{f}");
    }
    keys(&mut a, "nn");
    assert_eq!(pane(&a).as_deref(), Some("native"));
}

#[test]
fn compare_scrolls_rows_and_runs_at_80x24() {
    let mut runs = three_runs();
    let mut d = saved_run("compute-20261124-100000-0a0b", None, 1.0, None);
    d.meta.machine = machine("fp-3");
    runs.push(d);
    let mut a = app_with(ComparePane::new(runs).unwrap());
    let s = render(&a, 80, 24);
    // The tabs take their short titles to fit; not every run fits: the title says which.
    assert!(
        s.lines().next().unwrap().contains("6 Diff  7 Compare"),
        "{s}"
    );
    assert!(
        s.contains("Compare: 4 runs of compute · 1–2 in view (←/→)"),
        "{s}"
    );
    assert!(s.contains("compute-20261121-101500-"), "{s}");
    key(&mut a, KeyCode::Right);
    key(&mut a, KeyCode::Right);
    let s = render(&a, 80, 24);
    assert!(
        s.contains("Compare: 4 runs of compute · 3–4 in view (←/→)"),
        "{s}"
    );
    // The last row, C's failed cell and D's.
    assert_eq!(figures(&s, "nbody", "wasmer-cranelift")[0], "-", "{s}");
    assert_eq!(figures(&s, "nbody", "wasmer-cranelift").len(), 2, "{s}");
    assert!(s.contains("geomean"), "{s}");
    key(&mut a, KeyCode::End);
    assert_eq!(a.compare.as_ref().unwrap().cursor, 8);
    insta::assert_snapshot!(s);
}

/// Marks in Saved runs: any number (A, B, C…), space toggles; D still diffs two; c compares
/// the marked runs in marking order; runs of another suite are refused in one line.
#[test]
fn mark_many_runs_and_compare_them() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let dirs: Vec<PathBuf> = three_runs()
        .iter()
        .map(|r| write_saved_run(&results, r))
        .collect();
    let mut other = saved_run("compute-20261125-120000-f9f9", None, 1.0, None);
    other.meta.suite = "startup".into();
    let other_dir = write_saved_run(&results, &other);
    let mut app =
        App::new(results.clone(), Box::new(NoLaunch)).with_data(runtimes(), suites(), vec![]);
    app.export_dir = dir.path().to_path_buf();
    app.reload_runs();
    key(&mut app, KeyCode::Char('4'));
    // Newest first: other, C, B, A.
    let order: Vec<PathBuf> = app.runs.rows.iter().map(|r| r.dir.clone()).collect();
    assert_eq!(
        order,
        [&other_dir, &dirs[2], &dirs[1], &dirs[0]].map(|d| d.clone())
    );
    // c with nothing marked says how.
    keys(&mut app, "c");
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .0
            .contains("mark two or more runs")
    );
    // Mark A, then C, then B (marking order is column order).
    keys(&mut app, "jjj kk j ");
    assert_eq!(
        app.runs.marked,
        [&dirs[0], &dirs[2], &dirs[1]].map(|d| d.clone())
    );
    let s = render(&app, 120, 30);
    let mark = |s: &str, id: &str| {
        s.lines()
            .find(|l| l.contains(id))
            .and_then(|l| l.trim_start_matches(['"', '┃']).chars().next())
    };
    assert_eq!(mark(&s, "before"), Some('A'), "{s}");
    assert_eq!(mark(&s, C), Some('B'), "{s}");
    assert_eq!(mark(&s, B), Some('C'), "{s}");
    assert!(
        s.contains("3 runs marked (A–C): c compares them side by side"),
        "{s}"
    );
    // e exports the three compared, as `wasmeter export RUN RUN RUN` does.
    keys(&mut app, "e");
    assert_eq!(
        app.export.as_ref().unwrap().compare,
        Some(wasmeter_tui::panes::compare::default_options())
    );
    key(&mut app, KeyCode::Esc);
    // D diffs two runs only.
    keys(&mut app, "D");
    assert_eq!(app.focus, Pane::Runs);
    assert!(app.message.as_ref().unwrap().0.contains("3 are marked"));
    assert!(app.diff.is_none());
    // c compares the three, in marking order.
    keys(&mut app, "c");
    assert_eq!(app.focus, Pane::Compare, "{:?}", app.message);
    let c = &app.compare.as_ref().unwrap().comparison;
    let cols: Vec<&str> = c.columns.iter().map(|c| c.run.as_str()).collect();
    assert_eq!(cols, [A, C, B]);
    let s = render(&app, 120, 34);
    let nbody = figures(&s, "nbody", "wasmtime");
    assert!(
        (ratio(&nbody[2]) / ratio(&nbody[0]) - 1.5).abs() < 0.05,
        "{nbody:?}"
    );
    assert_eq!(figures(&s, "nbody", "wasmer-cranelift")[1], "-", "{s}");

    // e exports the comparison as shown: here relative to wasmtime, as Markdown.
    keys(&mut app, "nn");
    keys(&mut app, "e");
    let d = app.export.as_ref().unwrap();
    assert_eq!(d.runs, [&dirs[0], &dirs[2], &dirs[1]].map(|d| d.clone()));
    let s = render(&app, 120, 34);
    assert!(
        s.contains("Export 3 runs compared (relative to wasmtime, by run)"),
        "{s}"
    );
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Enter);
    let out = app.export.as_ref().unwrap().path.clone();
    let outcome = app.export.as_ref().unwrap().outcome.clone().unwrap();
    assert!(outcome.is_ok() && out.ends_with(".md"), "{outcome:?}");
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.contains("relative to wasmtime of the same run"), "{md}");
    let header = md
        .lines()
        .find(|l| l.contains("| test") && l.contains(A))
        .unwrap_or_else(|| panic!("no comparison header in\n{md}"));
    let (a_at, c_at, b_at) = (
        header.find(A).unwrap(),
        header.find(C).unwrap(),
        header.find(B).unwrap(),
    );
    assert!(a_at < c_at && c_at < b_at, "{header}");
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "nn");

    // Unmark run B (marked third, selected): two marks remain, A and B, and D diffs them as
    // it always did.
    key(&mut app, KeyCode::Char('4'));
    assert_eq!(app.runs.rows[app.runs.cursor].dir, dirs[1]);
    keys(&mut app, " ");
    assert_eq!(app.runs.marked, [&dirs[0], &dirs[2]].map(|d| d.clone()));
    let s = render(&app, 120, 30);
    assert_eq!(mark(&s, B), Some(' '), "{s}");
    assert!(
        s.contains("A and B marked: D diffs them, c compares them"),
        "{s}"
    );
    keys(&mut app, "D");
    assert_eq!(app.focus, Pane::Diff, "{:?}", app.message);
    let d = &app.diff.as_ref().unwrap();
    assert_eq!(d.dirs, (dirs[0].clone(), dirs[2].clone()));

    // A run of another suite: refused in one line, the comparison open stays as it was.
    key(&mut app, KeyCode::Char('4'));
    keys(&mut app, "gg ");
    assert_eq!(app.runs.marked.len(), 3);
    keys(&mut app, "c");
    assert_eq!(app.focus, Pane::Runs);
    let (msg, error) = app.message.clone().unwrap();
    assert!(error);
    assert_eq!(
        msg,
        format!(
            "runs of different suites cannot be compared: {A} is 'compute', {} is 'startup'",
            "compute-20261125-120000-f9f9"
        )
    );
    let s = render(&app, 160, 30);
    assert!(s.contains(&msg), "the status line shows it:\n{s}");
    assert_eq!(
        app.compare.as_ref().unwrap().comparison.columns.len(),
        3,
        "the open comparison is kept"
    );

    // One run marked, another selected: c compares the two, as D would diff them.
    keys(&mut app, " "); // unmark the other suite's run
    keys(&mut app, "j "); // unmark run C (B in marking order)
    assert_eq!(app.runs.marked, [dirs[0].clone()]);
    keys(&mut app, "c");
    assert_eq!(app.focus, Pane::Compare, "{:?}", app.message);
    let cols: Vec<String> = app
        .compare
        .as_ref()
        .unwrap()
        .comparison
        .columns
        .iter()
        .map(|c| c.run.clone())
        .collect();
    assert_eq!(cols, [A, C]);
}

#[test]
fn compare_empty_and_help() {
    let mut a = App::new(PathBuf::from("/results"), Box::new(NoLaunch)).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    keys(&mut a, "7");
    assert_eq!(a.focus, Pane::Compare);
    let s = render(&a, 100, 24);
    assert!(
        s.contains(
            "no comparison open: in Saved runs (4) mark two or more runs with space, press c"
        ),
        "{s}"
    );
    // At 80 columns the tabs take their short titles, and a click finds them there.
    let tabs = render(&a, 80, 24).lines().next().unwrap().to_string();
    assert!(
        tabs.contains(" 4 Saved  5 Detail  6 Diff  7 Compare "),
        "{tabs}"
    );
    let click = |a: &mut App, title: &str, width: u16| {
        let col = tabs.find(title).unwrap() as u16;
        a.on_mouse(
            MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: col,
                row: 0,
                modifiers: KeyModifiers::NONE,
            },
            width,
        );
    };
    click(&mut a, "4 Saved", 80);
    assert_eq!(a.focus, Pane::Runs);
    click(&mut a, "7 Compare", 80);
    assert_eq!(a.focus, Pane::Compare);
    keys(&mut a, "?");
    // At the smallest size the help still shows every pane's keys and how to close it.
    let small = render(&a, 80, 24);
    for want in [
        "R reload",
        "n relative to",
        "e export",
        "any key closes this help",
    ] {
        assert!(small.contains(want), "{want:?} missing in\n{small}");
    }
    let s = render(&a, 100, 30);
    for want in [
        "1 … 7",
        "Compare         ↑/↓ rows  ←/→ runs  m by run/machine  n relative to  e export",
        "c compare",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
}
