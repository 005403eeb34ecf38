//! Modules added by path in Suites & tests: the path typed with Tab completion, refused
//! with a one-line error when it names no module, their options in the settings, and a
//! real run of one on embedded runtimes, saved as a run of the suite `modules`.

use crate::common::{key, keys};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use wasmeter_core::config::Config;
use wasmeter_core::runner::{Repetition, SUITE_COPY, WorkerCommand};
use wasmeter_core::runtime::known_runtimes;
use wasmeter_core::store::{RunStatus, list_runs, load_run};
use wasmeter_core::suite::{Build, MODULES_SUITE, Suite, SuiteKind};
use wasmeter_tui::App;
use wasmeter_tui::app::Pane;
use wasmeter_tui::launch::WorkerLauncher;

/// Set by [`worker`]'s shell for the one process that serves as a cell's worker.
const WORKER_ENV: &str = "WASMETER_TUI_TEST_WORKER";

/// The worker of the real runs below: this test binary, running only this test, which
/// hands its stdin and stdout to core's worker. Ignored (and inert without [`WORKER_ENV`])
/// in ordinary test runs.
#[test]
#[ignore = "the worker process of real runs, started by them"]
fn worker_process() {
    if std::env::var_os(WORKER_ENV).is_none() {
        return;
    }
    let code = wasmeter_core::runner::run_host_command(
        wasmeter_core::runner::WORKER,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )
    .unwrap_or(2);
    std::process::exit(code);
}

/// How the runner starts [`worker_process`]: through a shell that keeps only the worker's
/// JSON lines of the test binary's output (the test harness prints its own lines).
fn worker() -> WorkerCommand {
    let exe = std::env::current_exe().unwrap();
    WorkerCommand {
        program: "/bin/sh".into(),
        args: vec![
            "-c".into(),
            format!(
                "{WORKER_ENV}=1 \"$0\" --ignored --exact modules::worker_process \
                 --nocapture --quiet --test-threads=1 | grep --line-buffered '^{{'"
            ),
            exe.display().to_string(),
        ],
    }
}

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(120, 36)).unwrap();
    t.draw(|f| wasmeter_tui::ui::draw(f, app)).unwrap();
    t.backend().to_string()
}

/// The committed crc32 module, copied into `dir` (its own folder: the suites stay as
/// they are).
fn crc32_in(dir: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/compute/wasm/crc32.wasm");
    let to = dir.join("crc32.wasm");
    std::fs::copy(from, &to).unwrap();
    to
}

/// The app over the test data's suites and these real runtimes, on Suites & tests.
fn app(results: PathBuf, ids: &[&str]) -> App {
    let runtimes = known_runtimes(&Config::default())
        .into_iter()
        .filter(|r| ids.contains(&r.id.as_str()))
        .collect();
    let mut app = App::new(results, Box::new(WorkerLauncher(worker()))).with_data(
        runtimes,
        crate::common::suites(),
        vec![],
    );
    key(&mut app, KeyCode::Char('2'));
    assert_eq!(app.focus, Pane::Tests);
    app
}

#[test]
fn tab_completes_the_module_path() {
    let tmp = tempfile::tempdir().unwrap();
    let mods = tmp.path().join("my-modules");
    std::fs::create_dir(&mods).unwrap();
    crc32_in(&mods);
    std::fs::write(mods.join("crc64.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(mods.join("crc.txt"), b"not offered").unwrap();
    let mut app = app(tmp.path().join("results"), &[]);
    key(&mut app, KeyCode::Char('a'));
    let base = tmp.path().display().to_string();
    keys(&mut app, &format!("{base}/my-m"));
    key(&mut app, KeyCode::Tab);
    assert_eq!(
        app.tests.adding.as_deref(),
        Some(format!("{base}/my-modules/").as_str()),
        "a lone folder completes with its slash"
    );
    keys(&mut app, "c");
    key(&mut app, KeyCode::Tab);
    assert_eq!(
        app.tests.adding.as_deref(),
        Some(format!("{base}/my-modules/crc").as_str()),
        "two modules: their common prefix (the text file is not offered)"
    );
    assert_eq!(app.tests.add_matches, ["crc32.wasm", "crc64.wasm"]);
    let s = screen(&app);
    assert!(
        s.contains(&format!("add module: {base}/my-modules/crc▏")),
        "{s}"
    );
    assert!(s.contains("crc32.wasm  crc64.wasm"), "{s}");
    keys(&mut app, "3");
    key(&mut app, KeyCode::Tab);
    assert_eq!(
        app.tests.adding.as_deref(),
        Some(format!("{base}/my-modules/crc32.wasm").as_str())
    );
    assert!(app.tests.add_matches.is_empty());
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.tests.adding, None);
    assert_eq!(
        app.tests.modules,
        [mods.join("crc32.wasm").canonicalize().unwrap()]
    );
    let s = screen(&app);
    assert!(s.contains("[x] modules (1)"), "{s}");
    assert!(s.contains("[x] crc32"), "{s}");
    // The folder adds the module not added yet; a second Enter on it adds nothing.
    key(&mut app, KeyCode::Char('a'));
    keys(&mut app, &format!("{base}/my-modules"));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.tests.modules.len(), 2);
    assert!(screen(&app).contains("[x] modules (2)"));
    key(&mut app, KeyCode::Char('a'));
    keys(&mut app, &format!("{base}/my-modules"));
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.tests.add_error.as_deref(),
        Some(format!("{base}/my-modules: added already").as_str())
    );
    key(&mut app, KeyCode::Esc);
    // Removing: `x` on a module's row, then on the suite's row for all of them.
    let rows = app.tests.visible();
    let m = app.tests.modules_index().unwrap();
    app.tests.cursor = rows
        .iter()
        .position(|n| *n == wasmeter_tui::panes::tests::Node::Test(m, 1))
        .unwrap();
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.tests.modules.len(), 1);
    assert!(app.tests.modules[0].ends_with("crc32.wasm"));
    app.tests.cursor = app
        .tests
        .visible()
        .iter()
        .position(|n| *n == wasmeter_tui::panes::tests::Node::Suite(m))
        .unwrap();
    key(&mut app, KeyCode::Char('x'));
    assert!(app.tests.modules.is_empty());
    assert_eq!(app.tests.suites.len(), crate::common::suites().len());
    assert!(!screen(&app).contains("modules ("));
}

#[test]
fn a_path_that_names_no_module_shows_why_and_adds_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let text = tmp.path().join("x.wasm");
    std::fs::write(&text, "hello, I am text").unwrap();
    let mut app = app(tmp.path().join("results"), &[]);
    let suites = app.tests.suites.len();
    for (path, why) in [
        (
            tmp.path().join("missing.wasm"),
            format!(
                "{}: No such file or directory (os error 2)",
                tmp.path().join("missing.wasm").display()
            ),
        ),
        (
            text.clone(),
            format!(
                "{}: not a WebAssembly module (no \\0asm header)",
                text.display()
            ),
        ),
    ] {
        key(&mut app, KeyCode::Char('a'));
        keys(&mut app, &path.display().to_string());
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.tests.add_error.as_deref(), Some(why.as_str()));
        // Still typing, the path kept to fix.
        assert_eq!(
            app.tests.adding.as_deref(),
            Some(path.display().to_string().as_str())
        );
        let s = screen(&app);
        assert!(s.contains(&why), "{why:?} not on screen:\n{s}");
        assert!(app.tests.modules.is_empty());
        assert_eq!(app.tests.suites.len(), suites);
        key(&mut app, KeyCode::Esc);
        assert_eq!((&app.tests.adding, &app.tests.add_error), (&None, &None));
    }
    // The first suite's tests are still the ones ticked.
    assert_eq!(app.tests.selection().unwrap().0.name, "compute");
}

#[test]
fn bad_module_options_show_and_block_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let module = crc32_in(tmp.path());
    let results = tmp.path().join("results");
    let mut app = app(results.clone(), &["wasmtime"]);
    key(&mut app, KeyCode::Char('a'));
    keys(&mut app, &module.display().to_string());
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Settings);
    assert!(app.settings.modules, "the modules' fields show");
    let field = crate::common::settings_field;
    for (name, value, why) in [
        (
            "env",
            "GREETING",
            "env takes KEY=VALUE, not 'GREETING'".to_string(),
        ),
        (
            "stdin",
            "/no/such/input",
            "stdin: /no/such/input: No such file or directory (os error 2)".to_string(),
        ),
        (
            "dir",
            "/no/such/folder::data",
            "/no/such/folder: No such file or directory (os error 2)".to_string(),
        ),
        (
            "arguments",
            "'unclosed",
            "arguments: a ' is not closed".to_string(),
        ),
    ] {
        app.settings.cursor = field(&app, name);
        key(&mut app, KeyCode::Enter);
        keys(&mut app, value);
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.settings.error.as_deref(), Some(why.as_str()), "{name}");
        let s = screen(&app);
        assert!(s.contains(&why), "{why:?} not on screen:\n{s}");
        assert!(s.contains(value), "the value stays to be fixed:\n{s}");
        key(&mut app, KeyCode::Char('r'));
        assert!(!app.is_running(), "{name}: a bad value blocks the run");
        assert_eq!(app.message, Some((why.clone(), true)));
        // Fixed: empty again.
        key(&mut app, KeyCode::Enter);
        for _ in 0..value.len() {
            key(&mut app, KeyCode::Backspace);
        }
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.settings.error, None, "{name}");
    }
    // A native build for a module that is not there.
    app.settings.cursor = field(&app, "native");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "sha=/bin/true");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('r'));
    assert!(!app.is_running());
    assert_eq!(
        app.message,
        Some((
            "--native sha=/bin/true: no module named 'sha'".to_string(),
            true
        ))
    );
    // Nothing was staged or saved.
    assert!(list_runs(&results).map(|l| l.is_empty()).unwrap_or(true));
}

/// Adds crc32 by path, gives it the argument `quick`, runs it for real on `ids` and waits
/// for the run to end; returns the saved run's directory.
fn run_crc32_on(ids: &[&str]) -> (tempfile::TempDir, PathBuf, App) {
    let tmp = tempfile::tempdir().unwrap();
    let module = crc32_in(tmp.path());
    let results = tmp.path().join("results");
    let mut app = app(results.clone(), ids);
    assert_eq!(app.runtimes.selected_ids().len(), ids.len(), "{ids:?}");
    key(&mut app, KeyCode::Char('a'));
    keys(&mut app, &module.display().to_string());
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.tests.ticked_modules(),
        Some(vec![module.canonicalize().unwrap()])
    );
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Settings);
    // One short iteration a cell.
    app.settings.repetition.insert(
        SuiteKind::Command,
        Repetition {
            warmup: 0,
            runs: 1,
            invocations: 1,
        },
    );
    app.settings.cursor = app
        .settings
        .shown()
        .iter()
        .position(|&i| wasmeter_tui::panes::settings::FIELDS[i] == "arguments")
        .unwrap();
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "quick");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.settings.module.args, "quick");
    assert_eq!(app.settings.error, None);
    key(&mut app, KeyCode::Char('r'));
    assert!(app.is_running(), "{:?}", app.message);
    assert_eq!(app.focus, Pane::Live);
    let started = Instant::now();
    let mut live_seen = false;
    while app.is_running() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the run did not end"
        );
        std::thread::sleep(Duration::from_millis(50));
        app.tick(Instant::now());
        live_seen |= screen(&app).contains("crc32");
    }
    assert!(live_seen, "the live view showed the module's cells");
    let runs = list_runs(&results).unwrap();
    assert_eq!(runs.len(), 1, "{:?}", app.message);
    let dir = runs[0].dir.clone();
    // The staging folder went with the run.
    assert!(!results.join(".staging").exists());
    (tmp, dir, app)
}

#[test]
fn a_module_added_by_path_runs_on_embedded_runtimes_and_is_saved() {
    let ids = ["wasmtime", "wasmi"];
    let (_tmp, dir, mut app) = run_crc32_on(&ids);
    let run = load_run(&dir).unwrap();
    assert_eq!(run.meta.suite, MODULES_SUITE);
    assert_eq!(run.meta.status, RunStatus::Complete, "{:?}", app.message);
    let tests: Vec<&str> = run.meta.tests.iter().map(|t| t.name.as_str()).collect();
    assert!(tests.contains(&"crc32"), "{tests:?}");
    // The run keeps the suite it staged: the module with the argument set in the settings.
    let kept = Suite::load(&dir.join(SUITE_COPY)).unwrap();
    match &kept.test("crc32").unwrap().guest().unwrap().build {
        Build::Module(m) => assert_eq!(m.args, ["quick"]),
        other => panic!("crc32 is not a module as given: {other:?}"),
    }
    let runtimes: Vec<&str> = run.meta.runtimes.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(runtimes, ids);
    for rt in ids {
        let cell = run
            .cells
            .iter()
            .find(|c| c.runtime == rt && c.test == "crc32")
            .unwrap_or_else(|| panic!("no {rt} × crc32 cell in {:?}", run.cells));
        assert_eq!(cell.failure, None, "{rt}");
        assert!(cell.wall_ms > 0.0, "{rt}");
    }
    assert!(
        run.cells.iter().all(|c| c.failure.is_none()),
        "{:?}",
        run.cells
    );
    assert!(
        run.measurements
            .iter()
            .any(|m| m.test == "crc32" && m.runtime == "wasmi"),
        "measured"
    );
    // Run detail opens it as any run.
    app.open_run(&dir);
    assert_eq!(app.focus, Pane::Detail);
    let s = screen(&app);
    assert!(s.contains(MODULES_SUITE) && s.contains("crc32"), "{s}");
}

#[test]
fn tab_completes_the_paths_of_module_options() {
    let tmp = tempfile::tempdir().unwrap();
    let module = crc32_in(tmp.path());
    std::fs::write(tmp.path().join("input.txt"), "data").unwrap();
    std::fs::create_dir(tmp.path().join("shared")).unwrap();
    let mut app = app(tmp.path().join("results"), &["wasmtime"]);
    key(&mut app, KeyCode::Char('a'));
    keys(&mut app, &module.display().to_string());
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Settings);
    let base = tmp.path().display().to_string();
    let field = crate::common::settings_field;
    // Any file for stdin; the Tab stays in the field.
    app.settings.cursor = field(&app, "stdin");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, &format!("{base}/inp"));
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Settings);
    assert_eq!(
        app.settings.editing.as_deref(),
        Some(format!("{base}/input.txt").as_str())
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.settings.error, None);
    assert_eq!(
        app.settings.module.run().unwrap().stdin,
        Some(tmp.path().join("input.txt"))
    );
    // Folders for --dir, the last word completed and the others kept.
    app.settings.cursor = field(&app, "dir");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, &format!("{base}::a {base}/sh"));
    key(&mut app, KeyCode::Tab);
    assert_eq!(
        app.settings.editing.as_deref(),
        Some(format!("{base}::a {base}/shared/").as_str())
    );
    keys(&mut app, "::data");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.settings.error, None);
    let dirs = app.settings.module.run().unwrap().dirs;
    let guests: Vec<&str> = dirs.iter().map(|d| d.guest.as_str()).collect();
    assert_eq!(guests, ["a", "data"]);
    assert_eq!(
        dirs[1].host,
        tmp.path().join("shared").canonicalize().unwrap()
    );
}
