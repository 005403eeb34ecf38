//! Key-driven flows on the application state: pick runtimes and tests, start, feed runner
//! events, see results, open a diff, export; cancel and delete with confirmation.

use crate::common::*;
use crossbeam_channel::Sender;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wasmeter_core::runner::{Event, Plan};
use wasmeter_core::store::{RunOrder, RunStatus};
use wasmeter_core::suite::SuiteKind;
use wasmeter_tui::App;
use wasmeter_tui::app::Pane;
use wasmeter_tui::launch::{Launcher, RunHandle};

#[derive(Default, Clone)]
struct Fake {
    plan: Arc<Mutex<Option<Plan>>>,
    tx: Arc<Mutex<Option<Sender<Event>>>>,
    cancel: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

impl Launcher for Fake {
    fn launch(&mut self, plan: Plan, _: &Path) -> anyhow::Result<RunHandle> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let cancel = Arc::new(AtomicBool::new(false));
        *self.plan.lock().unwrap() = Some(plan);
        *self.tx.lock().unwrap() = Some(tx);
        *self.cancel.lock().unwrap() = Some(cancel.clone());
        Ok(RunHandle {
            events: rx,
            cancel,
            thread: None,
        })
    }
}

/// The app on the common runtimes and suites, its runs launched by a [`Fake`].
fn fake_app(results: &Path) -> (App, Fake) {
    let fake = Fake::default();
    let app = App::new(results.to_path_buf(), Box::new(fake.clone())).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    (app, fake)
}

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(120, 36)).unwrap();
    t.draw(|f| wasmeter_tui::ui::draw(f, app)).unwrap();
    t.backend().to_string()
}

fn send(fake: &Fake, ev: Event) {
    fake.tx.lock().unwrap().as_ref().unwrap().send(ev).unwrap();
}

/// Keys: keep native and wasmtime, tick only sha256, 3 runs in each of 2 invocations
/// (from core's compute defaults of 2 and 3), start.
fn pick_and_start(app: &mut App) {
    key(app, KeyCode::Char('1'));
    keys(app, "jj "); // leave out wasmtime-winch
    keys(app, "j "); // and wasmer-cranelift
    assert_eq!(app.runtimes.selected_ids(), ["native", "wasmtime"]);
    key(app, KeyCode::Char('2'));
    key(app, KeyCode::Char(' ')); // untick the whole compute suite
    keys(app, "/sha");
    key(app, KeyCode::Enter);
    keys(app, "j "); // tick sha256
    assert_eq!(app.tests.selection().unwrap().1, ["sha256"]);
    key(app, KeyCode::Tab); // settings
    let core = wasmeter_core::runner::Repetition::default_for(SuiteKind::Command);
    assert_eq!(app.settings.repetition(), core);
    keys(app, "jj"); // runs
    for _ in core.runs..3 {
        key(app, KeyCode::Right);
    }
    key(app, KeyCode::Char('j')); // invocations
    for _ in 2..core.invocations {
        key(app, KeyCode::Left);
    }
    assert_eq!(
        app.settings.repetition(),
        wasmeter_core::runner::Repetition {
            invocations: 2,
            warmup: core.warmup,
            runs: 3
        }
    );
    key(app, KeyCode::Char('r'));
}

#[test]
fn pick_run_watch_diff_export() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let a_dir = write_run(
        &results,
        "compute-20261121-101500-a1b2",
        Some("before"),
        1.0,
    );
    let (mut app, fake) = fake_app(&results);
    app.reload_runs();
    app.export_dir = dir.path().to_path_buf();
    pick_and_start(&mut app);
    assert!(app.is_running(), "status: {:?}", app.message);
    assert_eq!(app.focus, Pane::Live);
    {
        let plan = fake.plan.lock().unwrap();
        let plan = plan.as_ref().unwrap();
        let ids: Vec<_> = plan.runtimes.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["native", "wasmtime"]);
        assert_eq!(
            plan.tests
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>(),
            ["sha256"]
        );
        assert_eq!(
            (
                plan.settings.warmup,
                plan.settings.runs,
                plan.settings.invocations
            ),
            (
                wasmeter_core::runner::Repetition::default_for(SuiteKind::Command).warmup,
                3,
                2
            )
        );
        assert_eq!(plan.settings.order, RunOrder::Interleaved);
    }

    // The runner's events, as a real run sends them: two rounds, each cell's k-th
    // invocation in a shuffled order (wasmtime first in round 0); a cell finishes only
    // after its last invocation, and its progress counts over its invocations.
    let cells = vec![
        ("native".to_string(), "sha256".to_string()),
        ("wasmtime".into(), "sha256".into()),
    ];
    send(
        &fake,
        Event::Planned {
            run_id: "compute-20261122-090000-beef".into(),
            suite: "compute".into(),
            suite_kind: wasmeter_core::suite::SuiteKind::Command,
            baseline: "native".into(),
            cells,
            iterations_per_cell: 8,
            invocations: 2,
        },
    );
    let bases = [2.0e6, 3.0e6];
    for (round, order) in [(0u32, [1usize, 0]), (1, [0, 1])] {
        for i in order {
            let rt = ["native", "wasmtime"][i];
            send(
                &fake,
                Event::CellStarted {
                    index: i,
                    invocation: round,
                    beside: false,
                },
            );
            for k in 0..4 {
                send(
                    &fake,
                    Event::Progress {
                        index: i,
                        done: round * 4 + k + 1,
                    },
                );
                send(
                    &fake,
                    crate::common::invocation_measurement(rt, "sha256", round, k, bases[i]),
                );
            }
            app.tick(Instant::now());
            let s = screen(&app);
            let want = format!("running {}/8 · invocation {}/2", round * 4 + 4, round + 1);
            assert!(s.contains(&want), "{want:?} missing in\n{s}");
            assert!(s.contains(&format!("invocation {}/2 ·", round + 1)), "{s}");
            if (round, i) == (0, 0) {
                // wasmtime ran its first invocation and waits for its second.
                assert!(
                    s.contains("wasmtime × sha256") && s.contains("queued 1/2"),
                    "{s}"
                );
            }
            if round == 1 {
                send(
                    &fake,
                    Event::CellFinished {
                        index: i,
                        failure: None,
                        wall_ms: 50.0,
                    },
                );
            }
        }
    }
    app.tick(Instant::now());
    let s = screen(&app);
    assert!(s.contains("16/16 iterations"), "{s}");
    assert!(!s.contains("queued"), "{s}");
    assert!(
        s.contains("1.50×"),
        "results table shows wasmtime relative to native:\n{s}"
    );
    assert!(app.is_running());

    // The run ends: the runner saved run B; the UI reloads the list.
    let b_dir = write_run(&results, "compute-20261122-090000-beef", Some("after"), 1.5);
    send(
        &fake,
        Event::RunFinished {
            status: RunStatus::Complete,
            failed: 0,
        },
    );
    *fake.tx.lock().unwrap() = None;
    app.tick(Instant::now());
    assert!(!app.is_running());
    assert!(screen(&app).contains("complete, 0 failed"));

    // Saved runs: newest first; mark A (second row), select B, diff.
    key(&mut app, KeyCode::Char('4'));
    assert_eq!(app.runs.rows.len(), 2);
    assert_eq!(app.runs.rows[0].dir, b_dir);
    keys(&mut app, "j ");
    keys(&mut app, "k");
    keys(&mut app, "D");
    assert_eq!(app.focus, Pane::Diff, "{:?}", app.message);
    let d = &app.diff.as_ref().unwrap().diff;
    assert!(
        d.rows
            .iter()
            .any(|r| r.verdict == wasmeter_core::analysis::Verdict::Slower)
    );
    let s = screen(&app);
    assert!(s.contains("slower") && s.contains("B/A [CI]"), "{s}");

    // Export both runs with the diff as HTML.
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Enter);
    let out = dir.path().join(format!(
        "wasmeter-{}-vs-{}.html",
        a_dir.file_name().unwrap().to_string_lossy(),
        b_dir.file_name().unwrap().to_string_lossy()
    ));
    let outcome = app.export.as_ref().unwrap().outcome.clone().unwrap();
    assert!(outcome.is_ok(), "{outcome:?}");
    assert!(out.is_file(), "{outcome:?}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("<html"));
    assert!(screen(&app).contains("wrote "));
    key(&mut app, KeyCode::Esc);
    assert!(app.export.is_none());

    // Open run A in the detail screen.
    key(&mut app, KeyCode::Char('4'));
    keys(&mut app, "j");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.focus, Pane::Detail);
    assert!(screen(&app).contains("Matrix"));
}

#[test]
fn cancel_asks_then_sets_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, fake) = fake_app(dir.path());
    pick_and_start(&mut app);
    send(
        &fake,
        Event::Planned {
            run_id: "r1".into(),
            suite: "compute".into(),
            suite_kind: wasmeter_core::suite::SuiteKind::Command,
            baseline: "native".into(),
            cells: vec![("native".into(), "sha256".into())],
            iterations_per_cell: 2,
            invocations: 1,
        },
    );
    send(
        &fake,
        Event::CellStarted {
            index: 0,
            invocation: 0,
            beside: false,
        },
    );
    app.tick(Instant::now());
    let flag = fake.cancel.lock().unwrap().clone().unwrap();
    key(&mut app, KeyCode::Char('c'));
    assert!(app.confirm.is_some());
    assert!(screen(&app).contains("Cancel the run?"));
    key(&mut app, KeyCode::Char('n'));
    assert!(!flag.load(Ordering::SeqCst));
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Char('y'));
    assert!(flag.load(Ordering::SeqCst));
    assert!(screen(&app).contains("cancelling"));
    // Quitting during a run asks too.
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(!app.should_quit());
    key(&mut app, KeyCode::Char('y'));
    assert!(app.should_quit());
}

#[test]
fn delete_asks_and_broken_runs_do_not_hide_others() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().to_path_buf();
    write_run(&results, "compute-20261121-101500-a1b2", None, 1.0);
    let broken = results.join("compute-20261121-120000-bad0");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("meta.json"), "{ not json").unwrap();
    let mut app = App::new(results.clone(), Box::new(Fake::default())).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    app.reload_runs();
    key(&mut app, KeyCode::Char('4'));
    let s = screen(&app);
    assert!(
        s.contains("unreadable") && s.contains("not valid run metadata"),
        "{s}"
    );
    assert!(s.contains("compute-20261121-101500-a1b2"), "{s}");
    // Broken run is first (newest); opening it says why.
    key(&mut app, KeyCode::Enter);
    assert!(app.message.as_ref().unwrap().0.contains("cannot open"));
    key(&mut app, KeyCode::Char('d'));
    key(&mut app, KeyCode::Esc);
    assert!(broken.exists());
    key(&mut app, KeyCode::Char('d'));
    key(&mut app, KeyCode::Char('y'));
    assert!(!broken.exists());
    assert_eq!(app.runs.rows.len(), 1);
}

#[test]
fn start_refuses_without_selection() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(dir.path().to_path_buf(), Box::new(Fake::default())).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    keys(&mut app, "a"); // every available runtime was on: now none
    key(&mut app, KeyCode::Char('r'));
    assert!(!app.is_running());
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .0
            .contains("no runtime included")
    );
}

#[test]
fn mouse_wheel_moves_and_tab_click_switches() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(dir.path().to_path_buf(), Box::new(Fake::default())).with_data(
        runtimes(),
        suites(),
        vec![],
    );
    let mouse = |kind, column, row| MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    app.on_mouse(mouse(MouseEventKind::ScrollDown, 10, 5), 120);
    app.on_mouse(mouse(MouseEventKind::ScrollDown, 10, 5), 120);
    assert_eq!(app.runtimes.cursor, 2);
    app.on_mouse(mouse(MouseEventKind::ScrollUp, 10, 5), 120);
    assert_eq!(app.runtimes.cursor, 1);
    // A click on the title of tab 4 opens Saved runs.
    let tabs = screen(&app).lines().next().unwrap().to_string();
    let col = tabs.find("4 Saved runs").unwrap() as u16;
    app.on_mouse(mouse(MouseEventKind::Down(MouseButton::Left), col, 0), 120);
    assert_eq!(app.focus, Pane::Runs, "{tabs}");
}

/// An HTTP suite: ticking it switches the settings to core's defaults for HTTP suites (no
/// warm-up, one run in each of three fresh processes) and shows the load fields; the plan carries the load; live results compare the cells'
/// latency over one connection.
#[test]
fn http_suite_settings_and_live_latency() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, fake) = fake_app(dir.path());
    key(&mut app, KeyCode::Char('1'));
    keys(&mut app, "jj "); // leave out wasmtime-winch
    keys(&mut app, "j "); // and wasmer-cranelift
    key(&mut app, KeyCode::Char('2'));
    assert!(!app.settings.http_suite());
    key(&mut app, KeyCode::Char(' ')); // untick compute
    keys(&mut app, "jjjjj "); // tick the http (gateway) suite
    assert_eq!(app.tests.selection().unwrap().0.name, "http");
    assert!(app.settings.http_suite());
    assert_eq!(
        app.settings.repetition(),
        wasmeter_core::runner::Repetition::default_for(SuiteKind::Gateway)
    );
    assert_eq!(
        app.settings.repetition(),
        wasmeter_core::runner::Repetition {
            invocations: 3,
            warmup: 0,
            runs: 1
        }
    );
    key(&mut app, KeyCode::Tab);
    let s = screen(&app);
    for want in [
        "warm-up       0",
        "runs          1",
        "invocations   3",
        "order         interleaved",
        "connections",
        "s per level",
        "each cell: 3 fresh worker processes × (0",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    // connections: type 1,8; seconds per level: one step down from the quick load's 0.8 s.
    keys(&mut app, "jjjjjjjjjjjjj");
    key(&mut app, KeyCode::Enter);
    for _ in 0..30 {
        key(&mut app, KeyCode::Backspace);
    }
    keys(&mut app, "8, 1");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.settings.error, None);
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Left);
    // A bad list is refused and says why.
    key(&mut app, KeyCode::Char('k'));
    key(&mut app, KeyCode::Enter);
    keys(&mut app, ",x");
    key(&mut app, KeyCode::Enter);
    assert!(
        app.settings
            .error
            .as_deref()
            .is_some_and(|e| e == "--concurrency takes whole numbers, not 'x'"),
        "{:?}",
        app.settings.error
    );
    assert_eq!(app.settings.http.levels, [1, 8]);
    key(&mut app, KeyCode::Char('r'));
    assert!(app.is_running(), "status: {:?}", app.message);
    {
        let plan = fake.plan.lock().unwrap();
        let plan = plan.as_ref().unwrap();
        assert_eq!(
            (
                plan.settings.warmup,
                plan.settings.runs,
                plan.settings.invocations
            ),
            (0, 1, 3)
        );
        let http = plan.settings.http.as_ref().unwrap();
        assert_eq!(http.levels, [1, 8]);
        assert_eq!(http.duration_ms, 500);
    }
    // The runner's events for an HTTP cell: cold start, latency, throughput rows.
    let cells = vec![
        ("native".to_string(), "hello".to_string()),
        ("wasmtime".into(), "hello".into()),
    ];
    send(
        &fake,
        Event::Planned {
            run_id: "20261122-123047-http-e7f9".into(),
            suite: "gateway".into(),
            suite_kind: wasmeter_core::suite::SuiteKind::Gateway,
            baseline: "native".into(),
            cells,
            iterations_per_cell: 3,
            invocations: 3,
        },
    );
    for (index, (rt, lat)) in [("native", 8.0e3), ("wasmtime", 44.0e3)]
        .into_iter()
        .enumerate()
    {
        for i in 0..3 {
            send(
                &fake,
                Event::CellStarted {
                    index,
                    invocation: i,
                    beside: false,
                },
            );
            let row = |phase, metric, value| wasmeter_core::store::MeasurementRow {
                runtime: rt.into(),
                test: "hello".into(),
                phase,
                invocation: i,
                iteration: 0,
                warmup: false,
                metric,
                value,
            };
            use wasmeter_core::runtime::{Metric, Phase};
            send(
                &fake,
                Event::Measurement {
                    rows: vec![
                        row(Phase::ColdStart, Metric::WallNs, 4.0e6),
                        row(Phase::Latency, Metric::WallNs, lat),
                        row(Phase::Latency, Metric::P99Ns, lat * 2.0),
                        row(Phase::Throughput(8), Metric::Rps, 1.0e9 / lat),
                        row(Phase::Throughput(8), Metric::WallNs, lat * 8.0),
                    ],
                },
            );
            send(&fake, Event::Progress { index, done: i + 1 });
        }
        send(
            &fake,
            Event::CellFinished {
                index,
                failure: None,
                wall_ms: 1600.0,
            },
        );
    }
    app.tick(Instant::now());
    let results = app.live.results();
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0].1, 8.0e3);
    assert_eq!(results[1].1, 44.0e3);
    assert!((results[1].2.unwrap() - 5.5).abs() < 1e-9);
    let s = screen(&app);
    assert!(s.contains("5.50×"), "{s}");
}

/// The plan the terminal UI makes is core's plan for the same choices: a suite's own
/// timeout (faults' 10 s, libsodium's 600 s) is kept, not raised to the 60 s default, and
/// a timeout typed in the settings wins; warm-up, runs and invocations left alone are
/// the suite kind's.
#[test]
fn the_terminal_ui_plans_as_core_does() {
    use wasmeter_core::config::Config;
    use wasmeter_core::runner::{planned, timeout_cases};
    use wasmeter_core::suite::SuiteCatalog;
    let cat =
        SuiteCatalog::discover(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites")).unwrap();
    let wasmtime = wasmeter_core::runtime::known_runtimes(&Config::default())
        .into_iter()
        .find(|r| r.id == "wasmtime")
        .unwrap();
    // What the settings pane shows for each of core's cases, in their order.
    let shown = ["10 (suite's)", "600 (suite's)", "60 (default)", "30", "30"];
    let cases = timeout_cases(&cat);
    assert_eq!(cases.len(), shown.len());
    for (case, shown) in cases.iter().zip(shown) {
        let (suite, timeout, want) = (&case.suite, case.timeout, case.want);
        let dir = tempfile::tempdir().unwrap();
        let mut app = App::new(dir.path().to_path_buf(), Box::new(Fake::default())).with_data(
            vec![wasmtime.clone()],
            vec![suite.clone()],
            vec![],
        );
        key(&mut app, KeyCode::Char('2'));
        key(&mut app, KeyCode::Tab); // settings
        keys(&mut app, "jjjjj"); // timeout
        if let Some(t) = timeout {
            key(&mut app, KeyCode::Enter);
            keys(&mut app, &t.to_string());
            key(&mut app, KeyCode::Enter);
        }
        let s = screen(&app);
        assert!(
            s.contains(&format!("timeout (s) ◂ {shown} ▸")),
            "{}: {s}",
            suite.name
        );
        let tui = planned(app.run_request().unwrap());
        assert_eq!(tui.timeout_secs, want, "{}", suite.name);
        assert_eq!(tui, case.core_settings(), "{}", suite.name);
    }
}

/// A pair and a precision set in the settings reach the plan (`run --pair`, `--pair-mode`,
/// `--precision`, `--budget`); bad values are refused with why and block nothing else.
#[test]
fn pair_and_precision_from_the_settings_reach_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, fake) = fake_app(dir.path());
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Settings);
    let set = set_setting;
    // Refused, each with why.
    assert_eq!(
        set(&mut app, "pair", "wasmtime").as_deref(),
        Some("--pair needs two or more arms, got 'wasmtime'")
    );
    // The same line as the CLI's and the desktop's for the same value
    // (app/tests/all/gate.rs, ui-desktop/tests/all/commands.rs).
    assert_eq!(
        set(&mut app, "pair", "wasmtime,native,wasmtime").as_deref(),
        Some("--pair needs different arms, got 'wasmtime' twice")
    );
    // A budget alone applies to core's default precision; with none at all it has none.
    assert_eq!(set(&mut app, "precision %", "off"), None);
    assert_eq!(
        set(&mut app, "budget", "2m").as_deref(),
        Some("budget: set a precision first")
    );
    assert_eq!(
        set(&mut app, "precision %", "0").as_deref(),
        Some("--precision must be a percentage over 0 and at most 100, got 0")
    );
    assert_eq!(app.settings.precision, None);
    // Set: a pair of two runtimes, its mode stepped from core's choice to alternate, a
    // precision of 5 % within 2 minutes.
    assert_eq!(set(&mut app, "pair", "wasmtime, native"), None);
    assert_eq!(set(&mut app, "precision %", "5"), None);
    assert_eq!(set(&mut app, "budget", "2m"), None);
    assert_eq!(
        set(&mut app, "budget", "2 weeks").as_deref(),
        Some("--budget takes a duration such as 90s, 10m or 1h30m, not '2 weeks'")
    );
    app.settings.cursor = settings_field(&app, "pair mode");
    key(&mut app, KeyCode::Right);
    app.settings.cursor = 0;
    let s = screen(&app);
    for want in [
        "pair          wasmtime,native",
        "pair mode     alternate",
        "precision %   5",
        "budget        120s",
        // The paired rounds core makes for a pair (invocations left alone), not the 6 of
        // a run without one.
        "invocations   20",
        "each cell: 20 fresh worker processes",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    key(&mut app, KeyCode::Char('r'));
    assert!(app.is_running(), "status: {:?}", app.message);
    let plan = fake.plan.lock().unwrap();
    let settings = &plan.as_ref().unwrap().settings;
    assert_eq!(
        settings.pair,
        Some(vec!["wasmtime".to_string(), "native".to_string()])
    );
    assert_eq!(
        settings.pair_mode,
        Some(wasmeter_core::store::PairMode::Alternate)
    );
    assert_eq!(settings.invocations, 20);
    assert_eq!(
        settings.precision,
        Some(wasmeter_core::store::Precision {
            pct: 5.0,
            budget_secs: Some(120)
        })
    );
}

/// A number out of core's range is refused as it is typed, in core's words: the same line
/// as the CLI's and the desktop's for the same value (app/tests/all/gate.rs,
/// ui-desktop/tests/all/commands.rs); the value before it stays.
#[test]
fn numbers_out_of_range_are_refused_in_cores_words() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _fake) = fake_app(dir.path());
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    for (field, value, line) in [
        (
            "invocations",
            "0",
            "--invocations must be from 1 to 10000, got 0",
        ),
        (
            "runs",
            "100001",
            "--runs must be from 1 to 100000, got 100001",
        ),
        (
            "timeout (s)",
            "90000",
            "--timeout must be from 1 to 86400 s, got 90000",
        ),
        (
            "budget",
            "200h",
            "--budget must be from 1 to 604800 s, got 720000",
        ),
        ("runs", "many", "--runs takes a whole number, not 'many'"),
    ] {
        assert_eq!(
            set_setting(&mut app, field, value).as_deref(),
            Some(line),
            "{field} {value}"
        );
    }
    let rep = app.run_request().unwrap();
    assert_eq!((rep.invocations, rep.runs), (6, 1));
    // In range: taken.
    assert_eq!(set_setting(&mut app, "invocations", "10000"), None);
    assert_eq!(app.run_request().unwrap().invocations, 10000);
}

/// A sweep typed in the settings (`--set`) puts every combination in place of its engine
/// in the plan; a setting an engine does not have is refused with what it has.
#[test]
fn a_sweep_from_the_settings_reaches_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, fake) = fake_app(dir.path());
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    let set = |app: &mut App, value: &str| set_setting(app, "sweep", value);
    let refused = set(&mut app, "wasmtime.colour=red").unwrap_or_default();
    assert!(
        refused.starts_with("wasmtime has no setting 'colour' (its settings: compiler,"),
        "{refused}"
    );
    assert_eq!(
        set(&mut app, "wasmtime.cow=on,off; wasmtime.opt-level=none"),
        None
    );
    assert_eq!(
        app.settings.sweep,
        ["wasmtime.cow=on,off", "wasmtime.opt-level=none"]
    );
    key(&mut app, KeyCode::Char('r'));
    assert!(app.is_running(), "status: {:?}", app.message);
    let plan = fake.plan.lock().unwrap();
    let ids: Vec<String> = plan
        .as_ref()
        .unwrap()
        .runtimes
        .iter()
        .map(|r| r.id.clone())
        .collect();
    for want in [
        "wasmtime[cow=on,opt-level=none]",
        "wasmtime[cow=off,opt-level=none]",
    ] {
        assert!(ids.iter().any(|i| i == want), "{want} not in {ids:?}");
    }
    assert!(!ids.iter().any(|i| i == "wasmtime"), "{ids:?}");
}

/// Issue 48 item 7: in a run's matrix, `p` on two runtime columns (or `P` on two test rows)
/// opens the paired diff of the two inside the run, as `diff RUN --runtimes A,B` gives it.
#[test]
fn two_marked_columns_or_rows_open_their_paired_diff() {
    let dir = tempfile::tempdir().unwrap();
    let run = write_run(dir.path(), "compute-20261122-090000-beef", None, 1.0);
    let (mut app, _fake) = fake_app(dir.path());
    app.open_run(&run);
    let id = "compute-20261122-090000-beef";
    {
        let d = app.detail.as_mut().unwrap();
        d.col = 1;
        d.row = 0;
    }
    key(&mut app, KeyCode::Char('p'));
    let s = screen(&app);
    assert!(
        s.contains("wasmtime marked: select another runtime column and press p"),
        "{s}"
    );
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.focus, Pane::Diff);
    let diff = &app.diff.as_ref().unwrap().diff;
    assert!(diff.paired);
    assert_eq!(
        (diff.a.as_str(), diff.b.as_str()),
        (
            format!("{id}:wasmtime").as_str(),
            format!("{id}:wasmer-cranelift").as_str()
        )
    );
    // One row per test, each from the two runtimes' shared rounds.
    let execute: Vec<_> = diff.rows.iter().filter(|r| r.phase == "execute").collect();
    assert_eq!(execute.len(), TESTS.len(), "{:?}", diff.rows);
    assert!(
        execute
            .iter()
            .all(|r| r.pairs == Some(INVOCATIONS as usize))
    );
    // wasmer-cranelift's planted factor over wasmtime's: (1.9 + 0.5 t) / (1.3 + 0.2 t).
    let sha = execute.iter().find(|r| r.test == "sha256").unwrap();
    assert!(
        (sha.ratio.unwrap() / (1.9 / 1.3) - 1.0).abs() < 0.06,
        "{sha:?}"
    );
    assert!(app.detail.as_ref().unwrap().marked.is_none());
    // Two test rows; Esc unmarks a mark.
    key(&mut app, KeyCode::Char('5'));
    assert_eq!(app.focus, Pane::Detail);
    key(&mut app, KeyCode::Char('P'));
    assert!(app.detail.as_ref().unwrap().marked.is_some());
    key(&mut app, KeyCode::Esc);
    assert!(app.detail.as_ref().unwrap().marked.is_none());
    app.detail.as_mut().unwrap().row = 0;
    key(&mut app, KeyCode::Char('P'));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('P'));
    assert_eq!(app.focus, Pane::Diff);
    let diff = &app.diff.as_ref().unwrap().diff;
    assert!(diff.paired);
    assert_eq!(diff.b, format!("{id}:chacha20"));
    assert!(
        diff.rows
            .iter()
            .filter(|r| r.phase == "execute")
            .all(|r| RTS.contains(&r.runtime.as_str()))
    );
}

/// A live cell's figure is core's, as the run detail will show it: over two invocations the
/// typical value (the geometric mean of each invocation's), not the median of all values,
/// and the column says so.
#[test]
fn a_live_cell_shows_cores_typical_value() {
    use wasmeter_tui::panes::live::LivePane;
    let mut live = LivePane::new("native");
    live.apply(Event::Planned {
        run_id: "r".into(),
        suite: "compute".into(),
        suite_kind: SuiteKind::Command,
        baseline: "native".into(),
        cells: vec![("native".into(), "t".into())],
        iterations_per_cell: 4,
        invocations: 2,
    });
    for (invocation, i, v) in [(0, 0, 100.0), (0, 1, 100.0), (1, 0, 400.0), (1, 1, 400.0)] {
        live.apply(invocation_measurement("native", "t", invocation, i, v));
    }
    live.apply(Event::CellFinished {
        index: 0,
        failure: None,
        wall_ms: 1.0,
    });
    let figure = live.results()[0].1;
    assert!(
        (figure - 200.0).abs() < 1e-9,
        "{figure}: the median of all would be 250"
    );
    assert_eq!(live.run.head.suite_kind.shape().live_value, "typical");
}
