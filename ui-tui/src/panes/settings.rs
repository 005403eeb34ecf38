//! Run settings: size, warm-up, runs, invocations (fresh worker processes per cell) and
//! their order, timeout, baseline runtime, label; a pair of runtimes or tests run side by
//! side (`--pair A,B`) and how (`--pair-mode`); a precision to aim at with its budget
//! (`--precision`, `--budget`); engine settings to sweep (`--set`, `;` between settings:
//! `wasmtime.allocator=pooling,on-demand; wasmtime.cow=on,off`); for an HTTP suite (gateway, servers) the
//! load: connection levels, seconds per level, seconds of latency. Warm-up, runs and
//! invocations start from core's defaults for the ticked suite's kind
//! ([`Repetition::default_for`]) and are kept per kind once changed. The timeout is the
//! ticked suite's own (or core's default) until the user sets one, which then wins for
//! every suite; typing an empty one goes back ([`wasmeter_core::runner::resolve_timeout`]).
//! For modules added by path, how they run, as `wasmeter run FILE.wasm` takes it: their
//! arguments, `--env`, `--stdin`, `--expect`, `--dir`, `--invoke` and `--native`, typed as
//! on a command line (words quoted as a shell quotes them). ←/→ steps a value, Enter types
//! one, Tab completes a path.

use super::{pane_block, selected};
use crate::component::{Action, Component, movement, step};
use crate::input::{Offer, complete_path, expand_home, split_words};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use std::collections::HashMap;
use std::path::PathBuf;
use wasmeter_core::analysis::{MIN_INVOCATIONS, MIN_VALUES};
use wasmeter_core::http_suites::HttpSettings;
use wasmeter_core::model::limits::{self, Limit};
use wasmeter_core::runner::{
    DEFAULT_MEMORY_CAP_MIB, DEFAULT_SAMPLE_INTERVAL_MS, Repetition, RunChoices, RunDefaults,
    RunOrder, TimeoutSource,
};
use wasmeter_core::store::{PairMode, Precision};
use wasmeter_core::suite::{ModuleRun, Preopen, Size, Suite, SuiteKind, env_var};

/// The settings, in display order (connections to latency for HTTP suites only, arguments
/// to native for modules added by path only).
pub const FIELDS: [&str; 23] = [
    "size",
    "warm-up",
    "runs",
    "invocations",
    "order",
    "timeout (s)",
    "baseline",
    "label",
    "pair",
    "pair mode",
    "precision %",
    "budget",
    "sweep",
    "connections",
    "s per level",
    "latency (s)",
    "arguments",
    "env",
    "stdin",
    "expect",
    "dir",
    "invoke",
    "native",
];

/// Index of the warm-up iterations in [`FIELDS`].
const WARMUP: usize = 1;
/// Index of the measured iterations.
const RUNS: usize = 2;
/// Index of the invocations.
const INVOCATIONS: usize = 3;
/// Index of the order.
const ORDER: usize = 4;
/// Index of the timeout.
const TIMEOUT: usize = 5;
/// Index of the baseline.
const BASELINE: usize = 6;
/// Index of the label.
const LABEL: usize = 7;
/// Index of the pair's two arms.
const PAIR: usize = 8;
/// Index of how the pair's arms run.
const PAIR_MODE: usize = 9;
/// Index of the precision aimed at.
const PRECISION: usize = 10;
/// Index of the precision's budget.
const BUDGET: usize = 11;
/// Index of the engine settings swept (`--set`).
const SWEEP: usize = 12;
/// Index of the connection levels.
const LEVELS: usize = 13;
/// Index of the seconds per level.
const DURATION: usize = 14;
/// Index of the seconds of latency measurement.
const LATENCY: usize = 15;
/// Index of the modules' arguments.
const ARGS: usize = 16;
/// Index of the modules' environment variables.
const ENV: usize = 17;
/// Index of the file the modules read as stdin.
const STDIN: usize = 18;
/// Index of the file of the output the modules must print.
const EXPECT: usize = 19;
/// Index of the host folders the modules see.
const DIRS: usize = 20;
/// Index of the exported function called instead of `_start`.
const INVOKE: usize = 21;
/// Index of the native builds of the modules.
const NATIVE: usize = 22;

/// State of the settings pane.
#[derive(Debug)]
pub struct SettingsPane {
    /// Problem size.
    pub size: Size,
    /// Kind of the ticked suite: whose warm-up, runs and invocations are shown and used.
    pub kind: SuiteKind,
    /// Core's defaults for the ticked suite: what a setting left alone shows and a run
    /// takes (the suite's own timeout among them).
    pub defaults: RunDefaults,
    /// Warm-up, runs and invocations changed by the user, per kind of suite; a kind not
    /// here uses core's defaults.
    pub repetition: HashMap<SuiteKind, Repetition>,
    /// Order of the cells' invocations.
    pub order: RunOrder,
    /// Per-iteration timeout the user set, seconds; `None`: the suite's own, else core's
    /// default.
    pub timeout: Option<u64>,
    /// Baseline runtime id.
    pub baseline: String,
    /// Label stored with the run.
    pub label: String,
    /// Two or more runtimes, or tests, run side by side in every round (`--pair`); `None`:
    /// no pair.
    pub pair: Option<Vec<String>>,
    /// How the pair's arms run (`--pair-mode`); `None`: core decides.
    pub pair_mode: Option<PairMode>,
    /// Rounds added until every cell's interval is this narrow, within the budget; `None`:
    /// core's default where the rounds are left to it.
    pub precision: Option<Precision>,
    /// No precision at all, not even core's default (typed `off`).
    pub precision_off: bool,
    /// Engine settings swept, `ENGINE.NAME=V1,V2` each (`--set`): every combination runs
    /// as a runtime of its own in place of its engine.
    pub sweep: Vec<String>,
    /// Selected field.
    pub cursor: usize,
    /// Text being typed into the selected field.
    pub editing: Option<String>,
    /// Why the last edit was refused.
    pub error: Option<String>,
    /// Runtime ids to cycle the baseline through.
    pub runtime_ids: Vec<String>,
    /// Load of an HTTP suite (levels, seconds per level, latency).
    pub http: HttpSettings,
    /// True when the ticked suite is the modules added by path (their fields show).
    pub modules: bool,
    /// How modules added by path run, as typed (checked when set and again when a run
    /// starts, so a bad value shows and blocks the run).
    pub module: ModuleFields,
}

/// How modules added by path run, each field as typed: the `wasmeter run` options of the
/// same names. Kept as text so that a value refused stays on screen to be fixed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleFields {
    /// Arguments after the program name, words as a shell splits them.
    pub args: String,
    /// `KEY=VALUE` words (`--env`).
    pub env: String,
    /// A file the guest reads as stdin (`--stdin`).
    pub stdin: String,
    /// A file holding the output every runtime must print (`--expect`).
    pub expect: String,
    /// `HOST[::GUEST]` words (`--dir`).
    pub dirs: String,
    /// An exported function called instead of `_start` (`--invoke`).
    pub invoke: String,
    /// `PROGRAM` or `TEST=PROGRAM` words: native builds run as the baseline (`--native`).
    pub native: String,
}

impl ModuleFields {
    /// The run these fields describe, as `wasmeter run` checks its flags; the error is one
    /// line naming the field. Native builds are checked against the modules when a run
    /// starts ([`ModuleFields::natives`]).
    pub fn run(&self) -> Result<ModuleRun, String> {
        let words =
            |field: &str, text: &str| split_words(text).map_err(|e| format!("{field}: {e}"));
        let file = |field: &str, text: &str| -> Result<Option<PathBuf>, String> {
            let t = text.trim();
            if t.is_empty() {
                return Ok(None);
            }
            let p = expand_home(t);
            match std::fs::metadata(&p) {
                Ok(m) if m.is_file() => Ok(Some(p)),
                Ok(_) => Err(format!("{field}: {t}: not a file")),
                Err(e) => Err(format!("{field}: {t}: {e}")),
            }
        };
        Ok(ModuleRun {
            args: words("arguments", &self.args)?,
            env: words("env", &self.env)?
                .iter()
                .map(|kv| env_var(kv).ok_or_else(|| format!("env takes KEY=VALUE, not '{kv}'")))
                .collect::<Result<_, _>>()?,
            stdin: file("stdin", &self.stdin)?,
            expect: file("expect", &self.expect)?,
            dirs: words("dir", &self.dirs)?
                .iter()
                .map(|d| Preopen::parse(&expand_home(d).to_string_lossy()))
                .collect::<Result<_, _>>()?,
            invoke: Some(self.invoke.trim())
                .filter(|f| !f.is_empty())
                .map(str::to_string),
            native: None,
        })
    }

    /// The `--native` specs typed (`PROGRAM` or `TEST=PROGRAM`), for
    /// [`wasmeter_core::suite::with_natives`].
    pub fn natives(&self) -> Result<Vec<String>, String> {
        split_words(&self.native).map_err(|e| format!("native: {e}"))
    }

    /// The text of field `i` of [`FIELDS`] (one from arguments to native).
    fn text(&self, i: usize) -> &str {
        match i {
            ARGS => &self.args,
            ENV => &self.env,
            STDIN => &self.stdin,
            EXPECT => &self.expect,
            DIRS => &self.dirs,
            INVOKE => &self.invoke,
            _ => &self.native,
        }
    }

    fn text_mut(&mut self, i: usize) -> &mut String {
        match i {
            ARGS => &mut self.args,
            ENV => &mut self.env,
            STDIN => &mut self.stdin,
            EXPECT => &mut self.expect,
            DIRS => &mut self.dirs,
            INVOKE => &mut self.invoke,
            _ => &mut self.native,
        }
    }
}

impl Default for SettingsPane {
    fn default() -> Self {
        // Core's defaults for what a run request leaves unset.
        let defaults = RunDefaults::for_suite(&Suite::default());
        SettingsPane {
            size: defaults.size,
            kind: SuiteKind::default(),
            repetition: HashMap::new(),
            order: defaults.order,
            timeout: None,
            baseline: defaults.baseline.clone(),
            defaults,
            label: String::new(),
            pair: None,
            pair_mode: None,
            precision: None,
            precision_off: false,
            sweep: Vec::new(),
            cursor: 0,
            editing: None,
            error: None,
            runtime_ids: Vec::new(),
            http: HttpSettings::for_size(wasmeter_core::suite::Size::Quick),
            modules: false,
            module: ModuleFields::default(),
        }
    }
}

/// Completes the last word of `text` (after its last blank) as a path, the rest kept.
fn complete_last_word(text: &mut String, offer: Offer) {
    let start = text.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let done = complete_path(&text[start..], offer).text;
    text.replace_range(start.., &done);
}

/// Milliseconds as seconds, without trailing zeros (`2`, `0.5`).
fn secs(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

impl SettingsPane {
    /// The precision a run of these settings aims at, as core decides it (core's default
    /// where the rounds are left to it).
    pub fn effective_precision(&self) -> Option<Precision> {
        self.choices(self.kind, Vec::new(), Vec::new())
            .precision_in(&self.defaults)
    }

    /// Warm-up, runs and invocations for the ticked suite's kind: as changed, else core's
    /// defaults for it.
    pub fn repetition(&self) -> Repetition {
        self.repetition_for(self.kind)
    }

    /// Warm-up, runs and invocations for a kind of suite.
    pub fn repetition_for(&self, kind: SuiteKind) -> Repetition {
        self.repetition
            .get(&kind)
            .copied()
            .unwrap_or_else(|| Repetition::default_for(kind))
    }

    /// What the pane shows for the ticked suite: [`Self::repetition`], but with arms to pair
    /// and invocations left alone, the paired rounds core will make (20 for command suites).
    fn shown_repetition(&self) -> Repetition {
        let mut r = self.repetition();
        if self.pair.is_some() && !self.repetition.contains_key(&self.kind) {
            r.invocations = self.defaults.pair_invocations;
        }
        r
    }

    fn change(&mut self, f: impl FnOnce(&mut Repetition)) {
        let mut r = self.shown_repetition();
        f(&mut r);
        self.repetition.insert(self.kind, r);
    }

    /// True when the ticked suite is an HTTP suite (the load fields show).
    pub fn http_suite(&self) -> bool {
        self.kind.is_http()
    }

    /// Fields shown (indices in [`FIELDS`]): the load ones only for an HTTP suite, how
    /// modules run only for modules added by path.
    pub fn shown(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..LEVELS).collect();
        if self.http_suite() {
            v.extend(LEVELS..=LATENCY);
        }
        if self.modules {
            v.extend(ARGS..=NATIVE);
        }
        v
    }

    /// How many fields show.
    pub fn field_count(&self) -> usize {
        self.shown().len()
    }

    /// The selected field (index in [`FIELDS`]).
    pub fn field(&self) -> usize {
        self.shown().get(self.cursor).copied().unwrap_or(0)
    }

    /// Says which suite is ticked, if one is (fields shown and values used: its kind's
    /// repetition, its own timeout).
    pub fn set_suite(&mut self, suite: Option<&Suite>) {
        let default = Suite::default();
        let suite = suite.unwrap_or(&default);
        self.kind = suite.kind;
        self.defaults = RunDefaults::for_suite(suite);
        if self.cursor >= self.field_count() {
            self.cursor = self.field_count() - 1;
            self.editing = None;
        }
    }

    /// The timeout a run would take, seconds: the one set, else the suite's own or core's.
    pub fn timeout_secs(&self) -> u64 {
        self.timeout.unwrap_or(self.defaults.timeout_secs)
    }

    /// What the user chose for a run of a `kind` suite: the settings changed, and for those
    /// shown but left alone (warm-up, runs, invocations, timeout) `None`, for core to
    /// decide. The memory cap and sampling interval are core's: this pane has no field for
    /// them.
    pub fn choices(
        &self,
        kind: SuiteKind,
        tests: Vec<String>,
        runtimes: Vec<String>,
    ) -> RunChoices {
        let rep = self.repetition.get(&kind);
        RunChoices {
            tests,
            runtimes,
            warmup: rep.map(|r| r.warmup),
            runs: rep.map(|r| r.runs),
            invocations: rep.map(|r| r.invocations),
            order: Some(self.order),
            timeout_secs: self.timeout,
            size: Some(self.size),
            label: Some(self.label.clone()),
            baseline: Some(self.baseline.clone()),
            http: kind.is_http().then(|| self.http.clone()),
            pair: self.pair.clone(),
            pair_mode: self.pair.as_ref().and(self.pair_mode),
            precision: self.precision,
            precision_off: self.precision_off,
            settings: self.sweep.clone(),
            ..RunChoices::default()
        }
    }

    /// The text an edit of field `i` starts from: its value, but nothing for a timeout not
    /// set (Enter on it leaves it to the suite).
    fn edit_text(&self, i: usize) -> String {
        match (i, self.timeout) {
            (TIMEOUT, None) => String::new(),
            _ => self.value(i),
        }
    }

    fn value(&self, i: usize) -> String {
        let rep = self.shown_repetition();
        match i {
            0 => self.size.to_string(),
            WARMUP => rep.warmup.to_string(),
            RUNS => rep.runs.to_string(),
            INVOCATIONS => rep.invocations.to_string(),
            ORDER => self.order.to_string(),
            TIMEOUT => match (self.timeout, self.defaults.timeout_source) {
                (Some(t), _) => t.to_string(),
                (None, TimeoutSource::Suite) => format!("{} (suite's)", self.defaults.timeout_secs),
                (None, _) => format!("{} (default)", self.defaults.timeout_secs),
            },
            BASELINE => self.baseline.clone(),
            LABEL => self.label.clone(),
            PAIR => self.pair.as_ref().map(|p| p.join(",")).unwrap_or_default(),
            PAIR_MODE => match (&self.pair, self.pair_mode) {
                (None, _) => String::new(),
                (Some(_), None) => "default".into(),
                (Some(_), Some(m)) => m.to_string(),
            },
            PRECISION if self.precision_off => "off".into(),
            PRECISION => match (self.precision, self.effective_precision()) {
                (Some(p), _) => p.pct.to_string(),
                (None, Some(d)) => format!("{} (default)", d.pct),
                (None, None) => String::new(),
            },
            BUDGET => match (self.precision, self.effective_precision()) {
                (Some(p), _) => p.budget_secs.map(|s| format!("{s}s")).unwrap_or_default(),
                (None, Some(d)) => d
                    .budget_secs
                    .map(|s| format!("{s}s (default)"))
                    .unwrap_or_default(),
                (None, None) => String::new(),
            },
            SWEEP => self.sweep.join("; "),
            LEVELS => self
                .http
                .levels
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(","),
            DURATION => secs(self.http.duration_ms),
            LATENCY => secs(self.http.latency_ms),
            _ => self.module.text(i).to_string(),
        }
    }

    fn set(&mut self, i: usize, text: &str) -> Result<(), String> {
        let t = text.trim();
        match i {
            0 => self.size = t.parse()?,
            // Core's ranges, and its words: the CLI and the desktop say the same line.
            WARMUP => {
                let v = limits::WARMUP.parse(t)? as u32;
                self.change(|r| r.warmup = v);
            }
            RUNS => {
                let v = limits::RUNS.parse(t)? as u32;
                self.change(|r| r.runs = v);
            }
            INVOCATIONS => {
                let v = limits::INVOCATIONS.parse(t)? as u32;
                self.change(|r| r.invocations = v);
            }
            ORDER => self.order = t.parse().map_err(|e: String| format!("order: {e}"))?,
            // Empty: back to the suite's own timeout, or core's default.
            TIMEOUT if t.is_empty() => self.timeout = None,
            TIMEOUT => self.timeout = Some(limits::TIMEOUT_SECS.parse(t)?),
            BASELINE if t.is_empty() => return Err("baseline: name a runtime".into()),
            BASELINE => self.baseline = t.to_string(),
            LABEL => self.label = t.to_string(),
            // Core's rule, and its words: the CLI and the desktop say the same line.
            PAIR => self.pair = wasmeter_core::runner::parse_pair(t)?,
            PAIR_MODE if t.is_empty() || t == "default" => self.pair_mode = None,
            PAIR_MODE => {
                self.pair_mode = Some(t.parse().map_err(|e: String| format!("pair mode: {e}"))?);
            }
            PRECISION if t.is_empty() || t.ends_with("(default)") => {
                self.precision = None;
                self.precision_off = false;
            }
            PRECISION if t == "off" => {
                self.precision = None;
                self.precision_off = true;
            }
            PRECISION => {
                // The budget set before stays.
                let p = Precision {
                    pct: t.parse::<f64>().unwrap_or(f64::NAN),
                    budget_secs: self.precision.and_then(|p| p.budget_secs),
                };
                p.check()?;
                self.precision_off = false;
                self.precision = Some(p);
            }
            BUDGET => {
                let Some(p) = self.precision.or(self.effective_precision()) else {
                    return Err("budget: set a precision first".into());
                };
                let budget = (!t.is_empty()).then_some(t);
                self.precision = Some(Precision::parse(p.pct, budget)?);
            }
            // `;` between settings: their values are comma-separated. Checked against the
            // engines' declarations now; whether the engine is in the run, when it starts.
            SWEEP => {
                let sets: Vec<String> = t
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                wasmeter_core::runtime::expand_settings(&[], &sets, true)?;
                self.sweep = sets;
            }
            LEVELS => {
                let mut levels = t
                    .split([',', ' '])
                    .filter(|p| !p.is_empty())
                    .map(|p| {
                        p.parse::<u32>()
                            .map_err(|_| format!("--concurrency takes whole numbers, not '{p}'"))
                    })
                    .collect::<Result<Vec<u32>, String>>()?;
                limits::CONCURRENCY.check_all(&levels, true)?;
                levels.sort_unstable();
                levels.dedup();
                self.http.levels = levels;
            }
            DURATION => self.http.duration_ms = limits::DURATION.parse(t)?,
            LATENCY => self.http.latency_ms = limits::LATENCY.parse(t)?,
            // Kept as typed, even when refused: the error shows until it is fixed, and a
            // run does not start before.
            _ => {
                *self.module.text_mut(i) = t.to_string();
                self.module.run()?;
                if i == NATIVE {
                    self.module.natives()?;
                }
            }
        }
        Ok(())
    }

    fn nudge(&mut self, up: bool) {
        // One step within core's range.
        let d = |v: u32, l: Limit| l.step(u64::from(v), up) as u32;
        match self.field() {
            0 => {
                self.size = if self.size == Size::Quick {
                    Size::Full
                } else {
                    Size::Quick
                }
            }
            WARMUP => self.change(|r| r.warmup = d(r.warmup, limits::WARMUP)),
            RUNS => self.change(|r| r.runs = d(r.runs, limits::RUNS)),
            INVOCATIONS => self.change(|r| r.invocations = d(r.invocations, limits::INVOCATIONS)),
            ORDER => {
                self.order = match self.order {
                    RunOrder::Interleaved => RunOrder::Sequential,
                    RunOrder::Sequential => RunOrder::Interleaved,
                }
            }
            // Core's choice, alternate, processes.
            PAIR_MODE if self.pair.is_some() => {
                let modes = [None, Some(PairMode::Alternate), Some(PairMode::Processes)];
                let i = modes.iter().position(|m| *m == self.pair_mode).unwrap_or(0);
                self.pair_mode = modes[if up { (i + 1) % 3 } else { (i + 2) % 3 }];
            }
            TIMEOUT => {
                self.timeout = Some(limits::TIMEOUT_SECS.step(self.timeout_secs(), up));
            }
            BASELINE if !self.runtime_ids.is_empty() => {
                let n = self.runtime_ids.len();
                let i = self.runtime_ids.iter().position(|r| *r == self.baseline);
                let next = match (i, up) {
                    (None, _) => 0,
                    (Some(i), true) => (i + 1) % n,
                    (Some(i), false) => (i + n - 1) % n,
                };
                self.baseline = self.runtime_ids[next].clone();
            }
            // Half a second at a time, at least half a second.
            DURATION | LATENCY => {
                let ms = if self.field() == DURATION {
                    &mut self.http.duration_ms
                } else {
                    &mut self.http.latency_ms
                };
                *ms = if up {
                    (*ms / 500 + 1) * 500
                } else {
                    (ms.div_ceil(500).saturating_sub(1) * 500).max(500)
                }
                .min(3_600_000);
            }
            _ => {}
        }
    }

    /// True for fields ←/→ change.
    fn steps(i: usize) -> bool {
        !matches!(i, LABEL | PAIR | PRECISION | BUDGET | SWEEP | LEVELS) && i < ARGS
    }

    /// What Tab completes in field `i`: the last word of the text, as a path of the kind
    /// the field takes; `None` for fields that take no path.
    fn offer(i: usize) -> Option<Offer> {
        match i {
            STDIN | EXPECT | NATIVE => Some(Offer::Files),
            DIRS => Some(Offer::Folders),
            _ => None,
        }
    }
}

impl Component for SettingsPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Run settings", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let shown = self.shown();
        let [fields, note] =
            Layout::vertical([Constraint::Length(shown.len() as u16), Constraint::Min(1)])
                .areas(inner);
        let lines: Vec<Line> = shown
            .iter()
            .enumerate()
            .map(|(row, &i)| {
                let name = FIELDS[i];
                let value = match (&self.editing, row == self.cursor) {
                    (Some(t), true) => format!("{t}▏"),
                    _ => {
                        let v = self.value(i);
                        if v.is_empty() { "(none)".into() } else { v }
                    }
                };
                let arrows =
                    if focused && Self::steps(i) && row == self.cursor && self.editing.is_none() {
                        format!("◂ {value} ▸")
                    } else {
                        format!("  {value}")
                    };
                let line = Line::from(vec![Span::raw(format!("{name:<12}")), Span::raw(arrows)]);
                if row == self.cursor && focused {
                    line.style(selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(fields, buf);
        let rep = self.shown_repetition();
        let dim = Style::default().fg(Color::DarkGray);
        let mut msg: Vec<Line> = self
            .error
            .iter()
            .map(|e| Line::styled(e.clone(), Style::default().fg(Color::Red)))
            .collect();
        msg.push(Line::styled(
            format!(
                "each cell: {} fresh worker process{} × ({} warm-up + {} runs) = {} values, {}",
                rep.invocations,
                if rep.invocations == 1 { "" } else { "es" },
                rep.warmup,
                rep.runs,
                rep.invocations * rep.runs,
                match self.order {
                    RunOrder::Interleaved => "cells interleaved in a shuffled order",
                    RunOrder::Sequential => "each cell's processes back to back",
                }
            ),
            dim,
        ));
        if (rep.invocations as usize) < MIN_INVOCATIONS
            || ((rep.invocations * rep.runs) as usize) < MIN_VALUES
        {
            msg.push(Line::styled(
                format!(
                    "a diff needs {MIN_INVOCATIONS} invocations and {MIN_VALUES} values a cell for a verdict"
                ),
                Style::default().fg(Color::Yellow),
            ));
        }
        if let Some(arms) = &self.pair {
            let arms = arms.join(",");
            msg.push(Line::styled(
                format!(
                    "pair: {arms} run side by side in every round ({}); diff the run with \
                     --runtimes or --tests and two of them for a paired verdict",
                    match self.pair_mode {
                        Some(PairMode::Alternate) => "in one worker, iteration by iteration",
                        Some(PairMode::Processes) => "each in its own worker",
                        None => "for command suites in one worker, else each in its own",
                    }
                ),
                dim,
            ));
        }
        if let Some(p) = self.effective_precision() {
            msg.push(Line::styled(
                format!(
                    "precision: rounds are added until every cell is within ±{} %{}",
                    p.pct,
                    p.budget_secs
                        .map(|b| format!(" or {b} s have passed"))
                        .unwrap_or_else(|| format!(
                            ", at most {} invocations",
                            Precision::MAX_INVOCATIONS
                        ))
                ),
                dim,
            ));
        }
        if self.modules {
            msg.push(Line::styled(
                "modules: arguments, env, stdin, expect, dir, invoke and native apply to each \
                 ticked module, as `wasmeter run FILE.wasm` takes them",
                dim,
            ));
        }
        msg.push(if self.http_suite() {
            Line::styled(
                format!(
                    "HTTP suite: each iteration starts a fresh server, times its cold start, \
                     {} s of latency over one connection, then {} s at each of {} levels",
                    secs(self.http.latency_ms),
                    secs(self.http.duration_ms),
                    self.http.levels.len()
                ),
                dim,
            )
        } else {
            Line::styled(
                format!(
                    "memory cap {DEFAULT_MEMORY_CAP_MIB} MiB, samples every {DEFAULT_SAMPLE_INTERVAL_MS} ms"
                ),
                dim,
            )
        });
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(note, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        let field = self.field();
        if let Some(text) = &mut self.editing {
            match key.code {
                KeyCode::Esc => self.editing = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) => text.push(c),
                KeyCode::Tab => {
                    if let Some(offer) = Self::offer(field) {
                        complete_last_word(text, offer);
                    }
                }
                KeyCode::Enter => {
                    let t = text.clone();
                    self.editing = None;
                    self.error = self.set(field, &t).err();
                    // A module's option names files and folders: its error goes on the
                    // status line too, in full.
                    if let Some(e) = &self.error
                        && field >= ARGS
                    {
                        return Action::Message(e.clone());
                    }
                }
                _ => {}
            }
            return Action::None;
        }
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.field_count(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('-') => self.nudge(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('+') | KeyCode::Char(' ') => {
                self.nudge(true)
            }
            KeyCode::Enter => {
                self.error = None;
                self.editing = Some(self.edit_text(field));
            }
            _ => return Action::Ignored,
        }
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.editing.is_some() {
            vec![("type", "value"), ("enter", "set"), ("esc", "cancel")]
        } else {
            vec![("←/→", "change"), ("enter", "type"), ("r", "run")]
        }
    }

    fn captures_input(&self) -> bool {
        self.editing.is_some()
    }
}
