//! A cell's history from run detail (H): read on a thread, the change point core finds
//! described under the chart, core's table of the runs, a series per machine, too few runs,
//! no runs, errors in the status line, and a series of 10,000 runs drawn.

use crate::common::*;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use wasmeter_core::format::{format_ns, format_time};
use wasmeter_core::history::HistoryQuery;
use wasmeter_core::machine::Machine;
use wasmeter_core::runner::Plan;
use wasmeter_core::store::{Synthetic, write_synthetic};
use wasmeter_tui::App;
use wasmeter_tui::app::Pane;
use wasmeter_tui::component::Component;
use wasmeter_tui::launch::{Launcher, RunHandle};
use wasmeter_tui::panes::history::HistoryPane;

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

/// Ticks until the history has been read (as the event loop does).
fn settle(app: &mut App) {
    let t0 = Instant::now();
    while app.is_reading_history() {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the history is still being read"
        );
        std::thread::sleep(Duration::from_millis(10));
        app.tick(Instant::now());
    }
}

/// Core's daily runs ([`Synthetic::daily`]), only `runs` of them.
fn synthetic(runs: usize, machine: Machine, tag: &str, step: bool) -> Synthetic {
    Synthetic {
        runs,
        ..Synthetic::daily(machine, tag, step)
    }
}

/// Braille dots drawn on screen: the chart's lines.
fn braille(screen: &str) -> usize {
    screen
        .chars()
        .filter(|c| ('\u{2801}'..='\u{28ff}').contains(c))
        .count()
}

fn app(results: &Path) -> App {
    App::new(results.to_path_buf(), Box::new(NoLaunch)).with_data(runtimes(), suites(), vec![])
}

/// Opens run `id` in detail, moves to `test` × `runtime` with the keys, presses H.
fn history_of(app: &mut App, id: &str, test: &str, runtime: &str) {
    app.open_run(&app.results.join(id));
    assert_eq!(app.focus, Pane::Detail, "{:?}", app.message);
    let d = app.detail.as_ref().unwrap();
    let row = d.summary.tests.iter().position(|t| t == test).unwrap();
    let col = d
        .summary
        .runtimes
        .iter()
        .position(|r| r == runtime)
        .unwrap();
    for _ in 0..row {
        key(app, KeyCode::Down);
    }
    for _ in 0..col {
        key(app, KeyCode::Right);
    }
    key(app, KeyCode::Char('H'));
}

#[test]
fn history_of_a_cell_shows_its_change_point_and_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = write_synthetic(&results, &synthetic(30, machine("fp-1"), "a", true)).unwrap();
    let mut a = app(&results);
    history_of(&mut a, &ids[29], "t001", "rt001");
    assert_eq!(a.focus, Pane::History);
    assert!(render(&a, 120, 40).contains("reading history of scale · t001 · rt001"));
    settle(&mut a);
    assert_eq!(a.message, None);

    let s = a.history.as_ref().unwrap().current().unwrap().clone();
    assert_eq!(
        (s.test.as_str(), s.runtime.as_str(), s.points.len()),
        ("t001", "rt001", 30)
    );
    assert_eq!(s.changes.len(), 1, "{:?}", s.changes);
    let c = s.changes[0].clone();
    assert_eq!(c.index, 15);
    assert!((c.change_pct - 20.0).abs() < 3.0, "{}", c.change_pct);

    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("History of scale · t001 · rt001"),
        "{screen}"
    );
    assert!(
        screen.contains("scale · t001 · rt001 on Test CPU @ 3.00GHz"),
        "{screen}"
    );
    // The change under the chart, in core's words: the run the new level starts from.
    let change = screen
        .lines()
        .find(|l| l.contains("change from"))
        .unwrap_or_else(|| panic!("no change line in\n{screen}"));
    assert!(
        change.contains(&format!("change from {} (", ids[15])),
        "{change}"
    );
    assert!(change.contains("→"), "{change}");
    assert!(
        change.contains(" (+2") || change.contains(" (+1"),
        "{change}"
    );
    assert!(
        change.contains(&format!("{:+.1} %, p = {:.3}", c.change_pct, c.p_value)),
        "{change}"
    );
    // The table: the last runs with their typical time, the newest selected.
    let last = &s.points[29];
    let row = screen
        .lines()
        .find(|l| l.contains(&ids[29]))
        .unwrap_or_else(|| panic!("no row of the last run in\n{screen}"));
    assert!(row.contains(&format_ns(last.value)), "{row}");
    assert!(row.contains("1.0"), "version: {row}");
    assert!(screen.contains(&ids[28]), "{screen}");
    assert!(
        !screen.contains(&ids[0]),
        "the first run is scrolled away:\n{screen}"
    );
    // The chart: lines drawn, axes labelled with core's formats.
    assert!(braille(&screen) > 100, "{screen}");
    for p in [&s.points[0], &s.points[29]] {
        let date = format_time(p.started_unix);
        assert!(screen.contains(&date), "{date} on the x axis:\n{screen}");
    }

    // At 80×24 the change line wraps whole, and the start time gives way to the run ids.
    let small = render(&a, 80, 24);
    let under: String = small
        .lines()
        .skip_while(|l| !l.contains("change from"))
        .take(2)
        .map(|l| l.trim_matches(['"', '┃', ' ']))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        under.contains(&format!("{:+.1} %, p = {:.3})", c.change_pct, c.p_value)),
        "{small}"
    );
    assert!(small.contains(&ids[29]), "{small}");
    assert!(!small.contains("started (UTC)"), "{small}");
    assert!(braille(&small) > 30, "{small}");
    // Up to the first run: the table scrolls.
    key(&mut a, KeyCode::Home);
    let top = render(&a, 120, 40);
    assert!(top.contains(&ids[0]), "{top}");
    assert!(!top.contains(&ids[29]), "{top}");
    // The row of run 15 carries its change.
    for _ in 0..15 {
        key(&mut a, KeyCode::Down);
    }
    let at15 = render(&a, 120, 40);
    let row15 = at15
        .lines()
        .find(|l| l.contains(&ids[15]) && !l.contains("change from"))
        .unwrap();
    assert!(
        row15.contains(&format!("{:+.1} %", c.change_pct)),
        "{row15}"
    );

    // r reads it again (and starts no run); esc goes back to the run.
    key(&mut a, KeyCode::Char('r'));
    assert!(a.is_reading_history());
    assert_eq!(a.message, None);
    settle(&mut a);
    assert_eq!(a.history.as_ref().unwrap().cursor, 15);
    assert!(render(&a, 120, 40).contains("change from"));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.focus, Pane::Detail);
    assert!(a.history.is_none());
    assert!(render(&a, 120, 40).contains("H history"));
}

#[test]
fn history_with_a_single_run_is_too_short_to_tell() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = write_synthetic(&results, &synthetic(1, machine("fp-1"), "a", true)).unwrap();
    let mut a = app(&results);
    history_of(&mut a, &ids[0], "t000", "rt002");
    settle(&mut a);
    let screen = render(&a, 100, 30);
    assert!(
        screen.contains("no change points: too few runs to tell (at least 10 are needed)"),
        "{screen}"
    );
    assert!(screen.contains(&ids[0]), "{screen}");
    assert!(!screen.contains("change from"), "{screen}");
    assert!(braille(&screen) >= 1, "the one point is drawn:\n{screen}");
    // At the smallest size it still draws the chart, the note and the run.
    let small = render(&a, 80, 24);
    assert!(small.contains("too few runs"), "{small}");
    assert!(small.contains("t000"), "{small}");
}

#[test]
fn history_switches_between_the_machines_series() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = write_synthetic(&results, &synthetic(12, machine("fp-1"), "a", true)).unwrap();
    let mut other = machine("fp-2");
    other.cpu_model = "Imaginary ARM Neoverse".into();
    other.arch = "aarch64".into();
    write_synthetic(&results, &synthetic(12, other, "b", false)).unwrap();
    let mut a = app(&results);
    history_of(&mut a, &ids[0], "t000", "native");
    settle(&mut a);
    let first = render(&a, 120, 40);
    let title = |s: &str| s.lines().nth(1).unwrap().to_string();
    assert!(
        title(&first).contains("History of scale · t000 · native · series 1 of 2 (s: next)"),
        "{first}"
    );
    let h = a.history.as_ref().unwrap();
    let labels: Vec<String> = h
        .history()
        .unwrap()
        .series
        .iter()
        .map(|s| s.machine_label.clone())
        .collect();
    assert_eq!(labels.len(), 2);
    assert!(
        first.contains(&format!("native on {}", labels[0])),
        "{first}"
    );
    key(&mut a, KeyCode::Char('s'));
    let second = render(&a, 120, 40);
    assert_ne!(title(&first), title(&second));
    assert!(title(&second).contains("series 2 of 2"), "{second}");
    assert!(
        second.contains(&format!("native on {}", labels[1])),
        "{second}"
    );
    assert!(
        !second.contains(&format!("native on {}", labels[0])),
        "{second}"
    );
    assert!(
        labels.iter().any(|l| l.contains("Imaginary ARM Neoverse")),
        "{labels:?}"
    );
    // Each machine's runs only: 12 in each table (the title, which now also names the
    // size and plan, is whole at 160 columns).
    let wide = render(&a, 160, 40);
    assert!(wide.contains("12 runs"), "{wide}");
    key(&mut a, KeyCode::Char('S'));
    assert_eq!(title(&render(&a, 120, 40)), title(&first));
}

#[test]
fn history_of_nothing_and_unreadable_results() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    write_synthetic(&results, &synthetic(2, machine("fp-1"), "a", false)).unwrap();
    let mut a = app(&results);
    a.open_history(HistoryQuery {
        suite: Some("scale".into()),
        test: Some("t009".into()),
        runtime: Some("rt001".into()),
        ..HistoryQuery::default()
    });
    settle(&mut a);
    let screen = render(&a, 100, 30);
    assert!(
        screen.contains("no history: no finished run in"),
        "{screen}"
    );
    assert!(screen.contains("has scale · t009 · rt001"), "{screen}");
    assert_eq!(braille(&screen), 0, "{screen}");

    // A results "directory" that is a file: the error in the status line and the pane.
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let mut b = app(&file);
    b.open_history(HistoryQuery {
        test: Some("t000".into()),
        ..HistoryQuery::default()
    });
    settle(&mut b);
    let (msg, error) = b.message.clone().expect("an error in the status line");
    assert!(
        error && msg.starts_with("cannot read the history: "),
        "{msg}"
    );
    let screen = render(&b, 100, 30);
    assert!(screen.contains("cannot read the history"), "{screen}");
}

/// 10,000 runs of one cell with a step at 6,000: the pane is made once, each frame only
/// draws it (how long that takes: `cargo bench --bench scale`).
#[test]
fn history_of_ten_thousand_runs_is_drawn_whole() {
    let h = crate::history_fixture::ten_thousand_runs();
    let pane = HistoryPane::with_history(PathBuf::from("/results"), HistoryQuery::default(), h);
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 160, 50));
    pane.render(buf.area, &mut buf, true);
    let screen: String = buf.content().iter().map(|c| c.symbol()).collect();
    assert!(screen.contains("change from run-06000"), "{screen}");
    assert!(screen.contains("+20.0 %, p = 0.005"), "{screen}");
    assert!(screen.contains("run-09999"), "{screen}");
    assert!(braille(&screen) > 500);
}
