//! The terminal UI at 10,000 cells (issue 10): a run of 100 runtimes × 100 tests through the
//! real runner and the real application state, drawn the way the TUI's loop draws (a frame
//! per 50 ms while running), then the saved run opened and scrolled. Each cell is a real
//! worker process, a stand-in script that reports one measurement: no engine is measured,
//! only what the UI does with 10,000 cells. Then a cell's history of 10,000 runs drawn.
//! Prints frame-time percentiles and peak RSS.
//!
//! `cargo bench --profile ci -p wasmeter-tui --bench scale`; with `WASMETER_SCALE_RESULTS=DIR`
//! the run is saved there and kept (scripts/bench-desktop opens it in the desktop app).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wasmeter_core::runner::{Plan, WorkerCommand, execute, stand_in_run};
use wasmeter_tui::App;
use wasmeter_tui::component::Component;
use wasmeter_tui::launch::{Launcher, RunHandle};
use wasmeter_tui::panes::history::HistoryPane;

#[path = "../tests/all/history_fixture.rs"]
mod history_fixture;

const RUNTIMES: usize = 100;
const TESTS: usize = 100;

/// Peak resident memory of this process so far, MiB.
fn peak_rss_mib() -> f64 {
    let kib: f64 = std::fs::read_to_string("/proc/self/status")
        .expect("/proc/self/status")
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib / 1024.0
}

/// Launches the 10,000-cell plan whatever the UI asked for: the UI's own plan can only name
/// runtimes that exist on this machine.
struct StandIn {
    plan: Option<Plan>,
    worker: WorkerCommand,
}

impl Launcher for StandIn {
    fn launch(&mut self, _: Plan, results: &Path) -> anyhow::Result<RunHandle> {
        let plan = self.plan.take().expect("one run");
        let worker = self.worker.clone();
        let results = results.to_path_buf();
        let (tx, rx) = crossbeam_channel::unbounded();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let thread = std::thread::spawn(move || {
            execute(&plan, &results, &worker, &tx, &flag).map_err(|e| e.to_string())
        });
        Ok(RunHandle {
            events: rx,
            cancel,
            thread: Some(thread),
        })
    }
}

fn percentiles(name: &str, mut v: Vec<Duration>) {
    v.sort();
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{name}: {} frames, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        v.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (plan, worker) = stand_in_run(tmp.path(), RUNTIMES, TESTS).expect("stand-in run");
    let suite = plan.suite.clone();
    // What the UI's own plan names (it must exist here); the launcher runs the big one.
    let native = plan.runtimes[0].clone();
    let results = std::env::var_os("WASMETER_SCALE_RESULTS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| tmp.path().join("results"));
    let launcher = StandIn {
        plan: Some(plan),
        worker,
    };
    let mut app = App::new(results.clone(), Box::new(launcher)).with_data(
        vec![native],
        vec![suite],
        Vec::new(),
    );
    let mut term = Terminal::new(TestBackend::new(160, 50)).expect("terminal");
    let before = peak_rss_mib();

    // The TUI's loop while running: events drained in tick(), a frame every 50 ms.
    let started = Instant::now();
    app.start_run();
    assert!(app.is_running(), "{:?}", app.message);
    let mut frames = Vec::new();
    while app.is_running() {
        let t = Instant::now();
        app.tick(t);
        term.draw(|f| wasmeter_tui::ui::draw(f, &app))
            .expect("draw");
        app.dirty = false;
        frames.push(t.elapsed());
        std::thread::sleep(wasmeter_tui::RUN_FRAME.saturating_sub(t.elapsed()));
    }
    let run_secs = started.elapsed().as_secs_f64();
    let screen = term.backend().to_string();
    assert!(
        app.message
            .as_ref()
            .is_some_and(|(m, err)| !err && m.contains("0 of 10000 cells failed")),
        "{:?}",
        app.message
    );
    println!(
        "live run of {} cells: {run_secs:.1} s, peak RSS {:.0} MiB (+{:.0} MiB over the run)",
        RUNTIMES * TESTS,
        peak_rss_mib(),
        peak_rss_mib() - before
    );
    percentiles("live frames (tick + draw)", frames);
    assert!(
        screen.contains("t0"),
        "the live table shows cells:\n{screen}"
    );

    // The saved run: open (load + summarise), first frame, then scrolling.
    let dir = results.join(app.live.run.head.run_id.clone().expect("the run's id"));
    let t = Instant::now();
    app.open_run(&dir);
    term.draw(|f| wasmeter_tui::ui::draw(f, &app))
        .expect("draw");
    println!(
        "open the saved run and draw it: {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    assert!(app.detail.is_some(), "{:?}", app.message);
    let mut scroll = Vec::new();
    for code in [
        KeyCode::PageDown,
        KeyCode::Down,
        KeyCode::End,
        KeyCode::Home,
    ] {
        for _ in 0..25 {
            let t = Instant::now();
            app.on_key(KeyEvent::from(code));
            term.draw(|f| wasmeter_tui::ui::draw(f, &app))
                .expect("draw");
            scroll.push(t.elapsed());
        }
    }
    percentiles("saved run, key + frame", scroll);

    // A cell's history of 10,000 runs: made once, then each frame only draws it.
    let t = Instant::now();
    let pane = HistoryPane::with_history(
        results.clone(),
        Default::default(),
        history_fixture::ten_thousand_runs(),
    );
    println!("history of 10,000 runs: pane made in {:?}", t.elapsed());
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 160, 50));
    let history_frames = (0..50)
        .map(|_| {
            let t = Instant::now();
            pane.render(buf.area, &mut buf, true);
            t.elapsed()
        })
        .collect();
    percentiles("history of 10,000 runs, frame", history_frames);
    println!("peak RSS at the end: {:.0} MiB", peak_rss_mib());
}
