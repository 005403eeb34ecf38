//! Application state: the panes, which one has focus, dialogs, and the run in flight.
//! Keys and runner events change it; `ui::draw` renders it.

use crate::TuiOptions;
use crate::component::{Action, Component, InRun};
use crate::launch::{Launcher, RunHandle, ThreadLauncher};
use crate::panes::compare::ComparePane;
use crate::panes::confirm::Confirm;
use crate::panes::detail::DetailPane;
use crate::panes::diff::DiffPane;
use crate::panes::export::ExportDialog;
use crate::panes::history::HistoryPane;
use crate::panes::live::LivePane;
use crate::panes::runs::{RunRow, RunsPane};
use crate::panes::runtimes::RuntimesPane;
use crate::panes::settings::SettingsPane;
use crate::panes::tests::TestsPane;
use crossbeam_channel::{Receiver, TryRecvError};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;
use wasmeter_core::analysis::{DiffOptions, compare_runtimes, compare_tests, diff_runs};
use wasmeter_core::config::Config;
use wasmeter_core::history::HistoryQuery;
use wasmeter_core::runner::{Plan, RunRequest};
use wasmeter_core::runtime::{RuntimeInfo, known_runtimes};
use wasmeter_core::store::{list_runs, load_run};
use wasmeter_core::suite::{ModuleStaging, Suite, SuiteCatalog, with_natives};

/// A pane that can have focus, in Tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// Runtimes list.
    Runtimes,
    /// Suites & tests tree.
    Tests,
    /// Run settings.
    Settings,
    /// Live run.
    Live,
    /// Saved runs.
    Runs,
    /// Run detail.
    Detail,
    /// Diff.
    Diff,
    /// Many runs side by side.
    Compare,
    /// A cell's history, opened from run detail (on its screen, not in Tab order: esc goes
    /// back to the run).
    History,
}

/// Panes in Tab order.
pub const PANES: [Pane; 8] = [
    Pane::Runtimes,
    Pane::Tests,
    Pane::Settings,
    Pane::Live,
    Pane::Runs,
    Pane::Detail,
    Pane::Diff,
    Pane::Compare,
];

impl Pane {
    /// The screen (tab) the pane is on.
    pub fn screen(self) -> usize {
        match self {
            Pane::Runtimes => 0,
            Pane::Tests | Pane::Settings => 1,
            Pane::Live => 2,
            Pane::Runs => 3,
            Pane::Detail | Pane::History => 4,
            Pane::Diff => 5,
            Pane::Compare => 6,
        }
    }

    /// The first pane of a screen.
    pub fn of_screen(screen: usize) -> Pane {
        match screen {
            0 => Pane::Runtimes,
            1 => Pane::Tests,
            2 => Pane::Live,
            3 => Pane::Runs,
            4 => Pane::Detail,
            5 => Pane::Diff,
            _ => Pane::Compare,
        }
    }
}

/// The whole UI state.
pub struct App {
    /// Results directory.
    pub results: PathBuf,
    /// Directory export paths default to.
    pub export_dir: PathBuf,
    /// Runtimes pane.
    pub runtimes: RuntimesPane,
    /// Suites & tests pane.
    pub tests: TestsPane,
    /// Settings pane.
    pub settings: SettingsPane,
    /// Live-run pane.
    pub live: LivePane,
    /// Saved-runs pane.
    pub runs: RunsPane,
    /// Open run, if any.
    pub detail: Option<DetailPane>,
    /// Open diff, if any.
    pub diff: Option<DiffPane>,
    /// Open comparison of many runs, if any.
    pub compare: Option<ComparePane>,
    /// Open history of a cell, if any.
    pub history: Option<HistoryPane>,
    /// Export dialog, when open.
    pub export: Option<ExportDialog>,
    /// Question awaiting yes/no.
    pub confirm: Option<Confirm>,
    /// A long run planned and waiting for its confirmation.
    pending: Option<(Plan, Option<ModuleStaging>, Vec<String>)>,
    /// Help overlay shown.
    pub help: bool,
    /// Focused pane.
    pub focus: Pane,
    /// Status line: text and whether it is an error.
    pub message: Option<(String, bool)>,
    /// Something changed since the last frame.
    pub dirty: bool,
    quit: bool,
    config: Config,
    run: Option<RunHandle>,
    run_started: Option<Instant>,
    launcher: Box<dyn Launcher>,
    runtimes_rx: Option<Receiver<Vec<RuntimeInfo>>>,
    /// The folder the suite of modules added by path was made in, while their run is in
    /// flight (it goes when dropped).
    staging: Option<ModuleStaging>,
}

impl App {
    /// The application over real data: suites from disk, saved runs, and runtimes detected
    /// on a thread (detection takes longer than a first frame may).
    pub fn start(opts: TuiOptions) -> anyhow::Result<App> {
        let (config, config_err) = match wasmeter_core::runtime::load_config() {
            Ok(c) => (c, None),
            Err(e) => (Config::default(), Some(e.to_string())),
        };
        let mut app = App::new(opts.results, Box::new(ThreadLauncher));
        app.config = config.clone();
        match SuiteCatalog::discover(&opts.suites) {
            Ok(c) => {
                app.tests.set(c.suites);
                app.tests.broken = c.broken;
            }
            Err(e) => app.tests.error = Some(e.to_string()),
        }
        app.sync_settings();
        app.reload_runs();
        let (tx, rx) = crossbeam_channel::bounded(1);
        std::thread::Builder::new()
            .name("wasmeter-detect".into())
            .spawn(move || {
                let _ = tx.send(known_runtimes(&config));
            })?;
        app.runtimes_rx = Some(rx);
        if let Some(e) = config_err {
            app.message = Some((format!("config: {e} (using defaults)"), true));
        }
        Ok(app)
    }

    /// An empty application; fill it with [`App::with_data`] or the panes' `set`.
    pub fn new(results: PathBuf, launcher: Box<dyn Launcher>) -> App {
        App {
            results,
            export_dir: PathBuf::from("."),
            runtimes: RuntimesPane::default(),
            tests: TestsPane::default(),
            settings: SettingsPane::default(),
            live: LivePane::default(),
            runs: RunsPane::default(),
            detail: None,
            diff: None,
            compare: None,
            history: None,
            export: None,
            confirm: None,
            pending: None,
            help: false,
            focus: Pane::Runtimes,
            message: None,
            dirty: true,
            quit: false,
            config: Config::default(),
            run: None,
            run_started: None,
            launcher,
            runtimes_rx: None,
            staging: None,
        }
    }

    /// Fills the panes with given data (tests and tools use this; no detection, no disk).
    pub fn with_data(
        mut self,
        runtimes: Vec<RuntimeInfo>,
        suites: Vec<Suite>,
        runs: Vec<RunRow>,
    ) -> App {
        self.set_runtimes(runtimes);
        self.tests.set(suites);
        self.runs.set(runs);
        self.sync_settings();
        self
    }

    /// Tells the settings which suite is ticked (its kind's warm-up, runs and invocations,
    /// its own timeout; for HTTP suites the load fields).
    fn sync_settings(&mut self) {
        self.settings.modules = self.tests.ticked_modules().is_some();
        self.settings.set_suite(self.tests.ticked_suite());
    }

    fn set_runtimes(&mut self, runtimes: Vec<RuntimeInfo>) {
        self.settings.runtime_ids = runtimes
            .iter()
            .filter(|r| r.available())
            .map(|r| r.id.clone())
            .collect();
        self.runtimes.set(runtimes);
    }

    /// True while a run is in flight.
    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// True once the user quit.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Re-reads the saved runs.
    pub fn reload_runs(&mut self) {
        match list_runs(&self.results) {
            Ok(l) => {
                self.runs.error = None;
                self.runs
                    .set(l.into_iter().map(RunRow::from_listing).collect());
            }
            Err(e) => self.runs.error = Some(e.to_string()),
        }
        self.dirty = true;
    }

    fn say(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some((text.into(), error));
    }

    /// Advances time: takes detected runtimes, drains runner events without blocking,
    /// notices the end of a run.
    pub fn tick(&mut self, now: Instant) {
        if let Some(rx) = &self.runtimes_rx
            && let Ok(list) = rx.try_recv()
        {
            self.runtimes_rx = None;
            self.set_runtimes(list);
            self.dirty = true;
        }
        if let Some(outcome) = self.history.as_mut().and_then(|h| h.poll()) {
            if let Err(e) = outcome {
                self.say(format!("cannot read the history: {e}"), true);
            }
            self.dirty = true;
        }
        let Some(run) = &self.run else { return };
        // Events fold in at the run's clock (their times make the ETA).
        if let Some(t0) = self.run_started {
            self.live.elapsed = now.saturating_duration_since(t0);
        }
        let mut ended = false;
        // Bounded so a flood of events can never hold up a frame.
        for _ in 0..10_000 {
            match run.events.try_recv() {
                Ok(ev) => {
                    self.live.apply(ev);
                    self.dirty = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    ended = true;
                    break;
                }
            }
        }
        let thread_done = run.thread.as_ref().is_none_or(|t| t.is_finished());
        if ended && thread_done {
            self.finish_run();
        }
    }

    fn finish_run(&mut self) {
        let Some(mut run) = self.run.take() else {
            return;
        };
        self.run_started = None;
        let outcome = run.thread.take().map(|t| t.join());
        self.staging = None;
        match outcome {
            Some(Ok(Ok(o))) => {
                let msg = format!(
                    "run {} {} ({} of {} cells failed), saved in {}",
                    o.run_id,
                    o.status,
                    o.failed,
                    o.cells,
                    o.dir.display()
                );
                self.say(msg, o.failed > 0);
            }
            Some(Ok(Err(e))) => {
                self.live.stop(e.clone());
                self.say(format!("run stopped: {e}"), true);
            }
            Some(Err(_)) => {
                self.live.stop("the runner thread panicked".into());
                self.say("run stopped: the runner thread panicked", true);
            }
            None => {
                if let Some(failed) = self.live.run.head.failed_reported {
                    let st = self.live.run.head.state;
                    self.say(format!("run {st}, {failed} cells failed"), failed > 0);
                }
            }
        }
        self.reload_runs();
        self.dirty = true;
    }

    /// Builds the plan from the selection and starts it. Modules added by path are staged
    /// first into a suite of their own (as `wasmeter run FILE.wasm` stages them), kept until
    /// the run ends.
    pub fn start_run(&mut self) {
        if self.is_running() {
            return self.say("a run is already in flight (c cancels it)", true);
        }
        if self.runtimes.items.is_none() {
            return self.say("still detecting runtimes…", true);
        }
        let (req, staging) = match self.tests.ticked_modules() {
            Some(modules) => match self.module_request(&modules) {
                Ok((staging, req)) => (req, Some(staging)),
                Err(e) => return self.say(e, true),
            },
            None => match self.run_request() {
                Ok(r) => (r, None),
                Err(e) => return self.say(e, true),
            },
        };
        let ids = req.runtimes.clone();
        let plan = match Plan::new(req) {
            Ok(p) => p,
            Err(e) => return self.say(format!("cannot start: {e}"), true),
        };
        // What the run will do and how long it should take; a long one is asked about.
        let fingerprint = wasmeter_core::machine::Machine::detect().fingerprint;
        let scope = wasmeter_core::runner::scope(&plan, &self.results, &fingerprint);
        if scope.needs_confirmation(wasmeter_core::runner::CONFIRM_ABOVE_SECS) {
            self.pending = Some((plan, staging, ids));
            self.confirm = Some(Confirm::LongRun(scope.describe()));
            return;
        }
        self.launch_plan(plan, staging, ids, Some(scope.describe()));
    }

    /// Launches a planned run and shows it live; `scope` is said in the status line when
    /// nothing more important is.
    fn launch_plan(
        &mut self,
        plan: Plan,
        staging: Option<ModuleStaging>,
        ids: Vec<String>,
        scope: Option<String>,
    ) {
        // Core may pick another baseline (modules have no native build unless given one).
        let baseline = plan.settings.baseline.clone();
        // Runtimes the suite does not apply to (native and CLIs for lifecycle) are left out.
        let left_out: Vec<String> = plan.not_applicable.iter().map(|n| n.what()).collect();
        let lifecycle = plan.suite.kind.is_lifecycle();
        match self.launcher.launch(plan, &self.results) {
            Ok(h) => {
                self.run = Some(h);
                self.staging = staging;
                self.run_started = Some(Instant::now());
                self.live = LivePane::new(&baseline);
                self.focus = Pane::Live;
                if !left_out.is_empty() {
                    self.say(
                        format!(
                            "n/a (not run): {} — not applicable to this suite",
                            left_out.join(", ")
                        ),
                        false,
                    );
                } else if lifecycle || ids.contains(&baseline) {
                    self.message = scope.map(|s| (s, false));
                } else {
                    self.say(
                        format!("baseline {baseline} is not in this run: no relative figures"),
                        false,
                    );
                }
            }
            Err(e) => self.say(format!("cannot start: {e:#}"), true),
        }
        self.dirty = true;
    }

    /// The request the ticked tests, the included runtimes and the settings describe, what
    /// was left alone decided by core ([`RunRequest::from_choices`]).
    pub fn run_request(&self) -> Result<RunRequest, String> {
        if self.tests.ticked_modules().is_some() {
            return Err("modules added by path are staged when their run starts".into());
        }
        let ids = self.runtimes.selected_ids();
        if ids.is_empty() {
            return Err("no runtime included: tick runtimes in Runtimes (space)".into());
        }
        let (suite, tests) = self.tests.selection()?;
        let choices = self.settings.choices(suite.kind, tests, ids);
        Ok(RunRequest::from_choices(
            suite,
            choices,
            self.config.clone(),
        ))
    }

    /// The request for a run of `modules` (added by path and ticked), run as the settings
    /// say, and the staging folder their suite was made in (keep it until the run ends).
    /// Errors are one line: a bad setting, a native build that is missing or matches no
    /// module, a results directory that is not writable.
    pub fn module_request(
        &self,
        modules: &[PathBuf],
    ) -> Result<(ModuleStaging, RunRequest), String> {
        let ids = self.runtimes.selected_ids();
        if ids.is_empty() {
            return Err("no runtime included: tick runtimes in Runtimes (space)".into());
        }
        if modules.is_empty() {
            return Err("no test ticked: tick tests in Suites & tests (space)".into());
        }
        let fields = &self.settings.module;
        let run = fields.run()?;
        let each = with_natives(modules, &run, &fields.natives()?)?;
        let (staging, suite) = ModuleStaging::stage(&self.results, &each)?;
        // The staged suite holds the ticked modules only (and what core adds to every suite
        // of modules): all of its tests run, as `wasmeter run` runs them.
        let tests = suite.test_names();
        let choices = self.settings.choices(suite.kind, tests, ids);
        Ok((
            staging,
            RunRequest::from_choices(suite, choices, self.config.clone()),
        ))
    }

    fn pane_mut(&mut self, p: Pane) -> Option<&mut dyn Component> {
        Some(match p {
            Pane::Runtimes => &mut self.runtimes,
            Pane::Tests => &mut self.tests,
            Pane::Settings => &mut self.settings,
            Pane::Live => &mut self.live,
            Pane::Runs => &mut self.runs,
            Pane::Detail => self.detail.as_mut()?,
            Pane::Diff => self.diff.as_mut()?,
            Pane::Compare => self.compare.as_mut()?,
            Pane::History => self.history.as_mut()?,
        })
    }

    /// The pane as a component, when it has content.
    pub fn pane(&self, p: Pane) -> Option<&dyn Component> {
        Some(match p {
            Pane::Runtimes => &self.runtimes,
            Pane::Tests => &self.tests,
            Pane::Settings => &self.settings,
            Pane::Live => &self.live,
            Pane::Runs => &self.runs,
            Pane::Detail => self.detail.as_ref()?,
            Pane::Diff => self.diff.as_ref()?,
            Pane::Compare => self.compare.as_ref()?,
            Pane::History => self.history.as_ref()?,
        })
    }

    fn captures_input(&self) -> bool {
        self.pane(self.focus).is_some_and(|p| p.captures_input())
    }

    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        self.key(key);
        self.sync_settings();
    }

    fn key(&mut self, key: KeyEvent) {
        self.dirty = true;
        let ctrl_c =
            key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
        if let Some(c) = self.confirm.clone() {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    self.confirm = None;
                    self.confirmed(c);
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => self.confirm = None,
                _ if ctrl_c => self.confirm = None,
                _ => {}
            }
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if ctrl_c {
            return self.request_quit();
        }
        if let Some(d) = &mut self.export {
            if d.on_key(key) == Action::Close {
                self.export = None;
            }
            return;
        }
        if !self.captures_input() {
            match key.code {
                KeyCode::Char('?') => {
                    self.help = true;
                    return;
                }
                KeyCode::Char('q') => return self.request_quit(),
                KeyCode::Tab => return self.cycle(true),
                KeyCode::BackTab => return self.cycle(false),
                KeyCode::Char(c @ '1'..='7') => {
                    self.focus = Pane::of_screen(c as usize - '1' as usize);
                    return;
                }
                KeyCode::Char('r') if !matches!(self.focus, Pane::Runs | Pane::History) => {
                    return self.start_run();
                }
                _ => {}
            }
        }
        let focus = self.focus;
        let action = match self.pane_mut(focus) {
            Some(p) => p.on_key(key),
            None => Action::Ignored,
        };
        if focus == Pane::History && action == Action::Close {
            self.history = None;
            self.focus = Pane::Detail;
            return;
        }
        self.act(action);
    }

    fn cycle(&mut self, forward: bool) {
        // The history stands in for the run it was opened from.
        let at = match self.focus {
            Pane::History => Pane::Detail,
            p => p,
        };
        let i = PANES.iter().position(|p| *p == at).unwrap_or(0);
        let n = PANES.len();
        self.focus = PANES[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }];
    }

    fn request_quit(&mut self) {
        if self.is_running() {
            self.confirm = Some(Confirm::Quit);
        } else {
            self.quit = true;
        }
    }

    /// Handles a mouse event: the wheel moves the focused list; a click on a tab title
    /// switches screen (where the titles are depends on the terminal's `width`).
    pub fn on_mouse(&mut self, m: MouseEvent, width: u16) {
        let key = match m.kind {
            MouseEventKind::ScrollDown => KeyCode::Down,
            MouseEventKind::ScrollUp => KeyCode::Up,
            MouseEventKind::Down(_) if m.row == 0 => {
                if let Some(s) = crate::tabs::tab_at(m.column, width) {
                    self.focus = Pane::of_screen(s);
                    self.dirty = true;
                }
                return;
            }
            _ => return,
        };
        if self.confirm.is_none() && !self.help && self.export.is_none() {
            self.on_key(KeyEvent::from(key));
        }
    }

    fn confirmed(&mut self, c: Confirm) {
        match c {
            Confirm::DeleteRun(dir) => match std::fs::remove_dir_all(&dir) {
                Ok(()) => {
                    if self.detail.as_ref().is_some_and(|d| d.run.dir == dir) {
                        self.detail = None;
                    }
                    self.say(format!("deleted {}", dir.display()), false);
                    self.reload_runs();
                }
                Err(e) => self.say(format!("cannot delete {}: {e}", dir.display()), true),
            },
            Confirm::CancelRun => self.cancel_run(),
            Confirm::LongRun(_) => {
                if let Some((plan, staging, ids)) = self.pending.take() {
                    self.launch_plan(plan, staging, ids, None);
                }
            }
            Confirm::Quit => {
                self.cancel_run();
                self.quit = true;
            }
        }
    }

    fn cancel_run(&mut self) {
        if let Some(r) = &self.run {
            r.cancel.store(true, Ordering::SeqCst);
            self.live.run.cancelling = true;
            self.say("cancelling: finished cells stay saved", false);
        }
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::None | Action::Ignored | Action::Close => {}
            Action::StartRun => self.start_run(),
            Action::CancelRun => self.confirm = Some(Confirm::CancelRun),
            Action::DeleteRun(d) => self.confirm = Some(Confirm::DeleteRun(d)),
            Action::OpenRun(d) => self.open_run(&d),
            Action::Diff(a, b) => self.open_diff(a, b),
            Action::DiffInRun(dir, kind, a, b) => self.open_diff_in_run(dir, kind, &a, &b),
            Action::Compare(runs) => self.open_compare(&runs),
            Action::History(q) => self.open_history(q),
            Action::Export(runs) => self.export = Some(ExportDialog::new(runs, &self.export_dir)),
            Action::ExportCompared(runs, opts) => {
                self.export = Some(ExportDialog::new(runs, &self.export_dir).compared(opts))
            }
            Action::Reload => self.reload_runs(),
            Action::Message(m) => self.say(m, true),
            Action::Info(m) => self.say(m, false),
        }
    }

    /// Opens a saved run in the detail screen.
    pub fn open_run(&mut self, dir: &Path) {
        match load_run(dir) {
            Ok(run) => {
                self.detail = Some(DetailPane::new(run));
                self.focus = Pane::Detail;
                self.message = None;
            }
            Err(e) => self.say(format!("cannot open: {e}"), true),
        }
    }

    /// Diffs two saved runs (B against A) in the diff screen.
    pub fn open_diff(&mut self, a: PathBuf, b: PathBuf) {
        let loaded = load_run(&a).and_then(|ra| Ok((ra, load_run(&b)?)));
        match loaded {
            Ok((ra, rb)) => match diff_runs(&ra, &rb, &DiffOptions::default()) {
                Ok(diff) => {
                    self.diff = Some(DiffPane::new(diff, (a, b)));
                    self.focus = Pane::Diff;
                    self.message = None;
                }
                Err(e) => self.say(format!("cannot diff: {e}"), true),
            },
            Err(e) => self.say(format!("cannot diff: {e}"), true),
        }
    }

    /// Opens the paired diff of two runtimes (or tests) of one saved run, as `wasmeter diff
    /// RUN --runtimes A,B` (or `--tests A,B`) gives it.
    pub fn open_diff_in_run(&mut self, dir: PathBuf, kind: InRun, a: &str, b: &str) {
        let diffed = load_run(&dir).map_err(|e| e.to_string()).and_then(|run| {
            let opts = DiffOptions::default();
            match kind {
                InRun::Runtimes => compare_runtimes(&run, a, b, &opts),
                InRun::Tests => compare_tests(&run, a, b, &opts),
            }
            .map_err(|e| e.to_string())
        });
        match diffed {
            Ok(diff) => {
                self.diff = Some(DiffPane::new(diff, (dir.clone(), dir)));
                self.focus = Pane::Diff;
                self.message = None;
            }
            Err(e) => self.say(format!("cannot diff {a} and {b}: {e}"), true),
        }
    }

    /// Puts saved runs side by side in the compare screen, in the order given. Runs that
    /// cannot be read, or are of different suites, are said in one line and nothing opens.
    pub fn open_compare(&mut self, dirs: &[PathBuf]) {
        let loaded = dirs
            .iter()
            .map(|d| load_run(d))
            .collect::<Result<Vec<_>, _>>();
        match loaded {
            Ok(runs) => match ComparePane::new(runs) {
                Ok(c) => {
                    self.compare = Some(c);
                    self.focus = Pane::Compare;
                    self.message = None;
                }
                Err(e) => self.say(e.to_string(), true),
            },
            Err(e) => self.say(format!("cannot compare: {e}"), true),
        }
    }

    /// Opens the history of a cell (`q`: suite, test, runtime) over every saved run; it is
    /// read on a thread, the pane says so meanwhile.
    pub fn open_history(&mut self, q: HistoryQuery) {
        self.history = Some(HistoryPane::open(self.results.clone(), q));
        self.focus = Pane::History;
        self.message = None;
    }

    /// True while a history is being read.
    pub fn is_reading_history(&self) -> bool {
        self.history.as_ref().is_some_and(|h| h.is_reading())
    }

    /// Cancels a run in flight and waits for its thread (on quit).
    pub fn shutdown(&mut self) {
        if let Some(mut r) = self.run.take() {
            r.cancel.store(true, Ordering::SeqCst);
            if let Some(t) = r.thread.take() {
                let _ = t.join();
            }
        }
        self.staging = None;
    }
}
