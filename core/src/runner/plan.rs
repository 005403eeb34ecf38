//! What a run will do, checked before anything runs.

use super::policy::{DEFAULT_BASELINE, applicability, cell_applicability};
use super::request::RunRequest;
use crate::http_suites::HttpSettings;
use crate::runtime::{RuntimeInfo, RuntimeKind, known_runtimes};
use crate::store::{Measure, NotApplicable, Pair, PairMode, PairOf, RunOrder, RunSettings};
use crate::suite::{STARTUP_TEST, Suite, SuiteError, SuiteKind, TestCase};

/// Input errors: the user named something that does not exist.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Unknown runtime id.
    #[error("unknown runtime '{id}' (known: {known})")]
    UnknownRuntime {
        /// Requested id.
        id: String,
        /// Comma-separated known ids.
        known: String,
    },
    /// A runtime that exists but cannot run here.
    #[error("runtime '{id}' is unavailable: {why}{}", hint.as_ref().map(|h| format!(" (install: {h})")).unwrap_or_default())]
    Unavailable {
        /// Runtime id.
        id: String,
        /// Why.
        why: String,
        /// How to get it.
        hint: Option<String>,
    },
    /// Unknown test.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// Nonsensical settings.
    #[error("{0}")]
    Invalid(String),
}

/// A checked run plan.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The suite.
    pub suite: Suite,
    /// Tests to run, in order.
    pub tests: Vec<TestCase>,
    /// Runtimes to run them on, in order.
    pub runtimes: Vec<RuntimeInfo>,
    /// Settings recorded with the run.
    pub settings: RunSettings,
    /// User label.
    pub label: Option<String>,
    /// Runtimes asked for but left out by `skip_missing`, with why.
    pub skipped: Vec<(String, String)>,
    /// Runtimes selected but left out because the suite does not apply to them (native and
    /// CLIs for the lifecycle suite), and single cells a runtime has no way to run, with why.
    /// Never run, never failures.
    pub not_applicable: Vec<NotApplicable>,
}

impl Plan {
    /// Checks a request against the suite and the known runtimes.
    pub fn new(req: RunRequest) -> Result<Plan, PlanError> {
        check_request(&req)?;
        let all = known_runtimes(&req.config);
        let kind = req.suite.kind;
        let (runtimes, mut skipped, mut not_applicable) = choose_runtimes(&req, &all)?;
        // Modules given as they are have no native build: relative figures are then
        // against the first runtime unless the user named another one that runs.
        let baseline = if req.baseline == DEFAULT_BASELINE
            && !runtimes.iter().any(|r| r.id == DEFAULT_BASELINE)
            && req.suite.modules_only()
        {
            runtimes[0].id.clone()
        } else {
            req.baseline.clone()
        };
        if !all.iter().any(|r| r.id == req.baseline) {
            return Err(PlanError::UnknownRuntime {
                id: req.baseline.clone(),
                known: all
                    .iter()
                    .map(|r| r.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let tests = choose_tests(&req, &runtimes)?;
        // A plan run on a machine that lacks a runtime: its cells are listed as not run
        // here, with why, and the run goes on.
        if req.plan_hash.is_some() {
            not_applicable.extend(skipped.drain(..).map(|(runtime, why)| NotApplicable {
                runtime,
                test: None,
                why: format!("not available on this machine: {why}"),
            }));
        }
        // A runtime that serves the suite may still have no way to run one of its tests.
        for t in &tests {
            for r in &runtimes {
                if let Err(why) = cell_applicability(r, t) {
                    not_applicable.push(NotApplicable {
                        runtime: r.id.clone(),
                        test: Some(t.name.clone()),
                        why,
                    });
                }
            }
        }
        if tests.iter().all(|t| {
            runtimes
                .iter()
                .all(|r| not_applicable.iter().any(|n| n.covers(&r.id, &t.name)))
        }) {
            return Err(PlanError::Invalid(format!(
                "no selected runtime can run the chosen tests of '{}': {}",
                req.suite.name,
                not_applicable
                    .iter()
                    .map(|n| format!("{}: {}", n.what(), n.why))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        let pair = req
            .pair
            .as_deref()
            .map(|arms| super::pair::expand(arms, &runtimes));
        let pair_of = match &pair {
            Some(arms) => Some(check_pair(arms, &tests, &runtimes, req.order)?),
            None => None,
        };
        let pair_mode = pair_mode(&req, kind)?;
        if req.profile.is_some() && pair_mode == Some(PairMode::Alternate) {
            return Err(PlanError::Invalid(
                "--profile samples one runtime per worker; an alternating pair runs its arms in one: add --pair-mode processes".into(),
            ));
        }
        let http = kind.is_http().then(|| {
            req.http
                .clone()
                .unwrap_or_else(|| HttpSettings::for_size(req.size))
        });
        // An HTTP iteration loads the server at every level: the timeout is on top of that.
        let timeout = req.timeout
            + http
                .as_ref()
                .map(|h| h.iteration_budget(crate::http_suites::most_own_rates(&tests)))
                .unwrap_or_default();
        Ok(Plan {
            settings: crate::store::RunSettings {
                warmup: req.warmup,
                runs: req.runs,
                invocations: req.invocations,
                order: req.order,
                seed: req.seed.unwrap_or_else(fresh_seed),
                measure: req.measure,
                timeout_secs: timeout.as_secs().max(1),
                memory_cap_bytes: req.memory_cap,
                sample_interval_ms: req.sample_interval.as_millis().max(1) as u64,
                size: req.size,
                baseline,
                http,
                plan_hash: req.plan_hash,
                pair,
                pair_of,
                pair_mode,
                precision: req.precision,
                profile: req.profile,
            },
            suite: req.suite,
            tests,
            runtimes,
            label: req.label,
            skipped,
            not_applicable,
        })
    }

    /// Cells in plan order: for each test, every runtime that can run it.
    pub fn cells(&self) -> Vec<(&RuntimeInfo, &TestCase)> {
        self.tests
            .iter()
            .flat_map(|t| self.runtimes.iter().map(move |r| (r, t)))
            .filter(|(r, t)| {
                !self
                    .not_applicable
                    .iter()
                    .any(|n| n.test.is_some() && n.covers(&r.id, &t.name))
            })
            .collect()
    }

    /// The order the run goes in, as (cell index, invocation). Sequential: each cell's
    /// invocations back to back. Interleaved: round k runs every cell's k-th invocation in
    /// an order shuffled by the seed and k, so drift of the machine spreads over all cells.
    pub fn schedule(&self) -> Vec<(usize, u32)> {
        let n = self.cells().len();
        let k = self.settings.invocations;
        match self.settings.order {
            RunOrder::Sequential => (0..n).flat_map(|c| (0..k).map(move |i| (c, i))).collect(),
            RunOrder::Interleaved => (0..k)
                .flat_map(|round| self.round_order(round, None))
                .collect(),
        }
    }

    /// One round of an interleaved run (of `only` these cells, else all): the cells in an
    /// order shuffled by the seed and the round; with `--pair`, each group of arms side by
    /// side as one unit, in an order drawn by the same seed (so no arm always runs on a
    /// machine another has just warmed).
    pub fn round_order(&self, round: u32, only: Option<&[usize]>) -> Vec<(usize, u32)> {
        let n = self.cells().len();
        let groups = self.pair_groups().unwrap_or_else(|| vec![Vec::new(); n]);
        let wanted = |c: usize| only.is_none_or(|o| o.contains(&c));
        let mut rng =
            crate::analysis::Rng::new(self.settings.seed ^ u64::from(round).rotate_left(32));
        let mut units: Vec<Vec<usize>> = (0..n)
            .filter_map(|c| match groups[c].as_slice() {
                [] => wanted(c).then(|| vec![c]),
                // A group is one unit, listed at its first cell; wanted if any arm is.
                g if g[0] == c && g.iter().any(|&x| wanted(x)) => Some(g.to_vec()),
                _ => None,
            })
            .collect();
        rng.shuffle(&mut units);
        units
            .into_iter()
            .flat_map(|mut u| {
                if u.len() > 1 {
                    rng.shuffle(&mut u);
                }
                u.into_iter().map(move |c| (c, round))
            })
            .collect()
    }

    /// With `--pair A,B[,C…]`: for each cell, the cells of its group in ascending order (the
    /// arms' cells that share its test, for runtime arms, or its runtime, for test arms;
    /// itself included), empty for a cell that is no arm. An arm with no cell for a test
    /// runs beside the others that have one; a group of one cell is no group.
    pub fn pair_groups(&self) -> Option<Vec<Vec<usize>>> {
        let pair = Pair {
            of: self.settings.pair_of?,
            arms: self.settings.pair.as_deref()?,
            mode: self.settings.pair_mode,
        };
        let cells = self.cells();
        // The arms' cells by what they share.
        let mut by_shared: std::collections::HashMap<&str, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, (r, t)) in cells.iter().enumerate() {
            let (arm, shared) = pair.arm_of(&r.id, &t.name);
            if pair.has(arm) {
                by_shared.entry(shared).or_default().push(i);
            }
        }
        let mut groups = vec![Vec::new(); cells.len()];
        for g in by_shared.into_values().filter(|g| g.len() > 1) {
            for &i in &g {
                groups[i] = g.clone();
            }
        }
        Some(groups)
    }
}

/// The request's own numbers and what they ask of the suite (measure, profile, precision),
/// checked before any runtime is looked at.
fn check_request(req: &RunRequest) -> Result<(), PlanError> {
    let kind = req.suite.kind;
    check_numbers(req).map_err(PlanError::Invalid)?;
    // The load a front end set (a suite's own defaults are in range).
    if let Some(h) = req.http.as_ref().filter(|_| kind.is_http()) {
        h.check().map_err(PlanError::Invalid)?;
    }
    if req.measure == Measure::Instructions {
        if !kind.shape().profiles {
            return Err(PlanError::Invalid(format!(
                "--measure instructions counts a command's execute phase; '{}' is a {kind} suite",
                req.suite.name
            )));
        }
        super::instructions::valgrind().map_err(PlanError::Invalid)?;
    }
    if let Some(hz) = req.profile {
        if !(crate::profile::MIN_HZ..=crate::profile::MAX_HZ).contains(&hz) {
            return Err(PlanError::Invalid(format!(
                "--profile samples {}–{} times a second; {hz} is out of range",
                crate::profile::MIN_HZ,
                crate::profile::MAX_HZ
            )));
        }
        if req.measure == Measure::Instructions {
            return Err(PlanError::Invalid(
                "--profile samples the execute phase's time; --measure instructions counts it under callgrind, which the samples would measure: choose one".into(),
            ));
        }
        if !kind.shape().profiles {
            return Err(PlanError::Invalid(format!(
                "--profile samples a command's execute phase; '{}' is a {kind} suite",
                req.suite.name
            )));
        }
    }
    if let Some(p) = req.precision {
        p.check().map_err(PlanError::Invalid)?;
        if req.order == RunOrder::Sequential {
            return Err(PlanError::Invalid(
                "--precision adds rounds; it cannot go with --order sequential".into(),
            ));
        }
        if req.invocations < 2 {
            return Err(PlanError::Invalid(format!(
                "--precision decides how many rounds to add from the planned ones' spread, which takes --invocations 2 or more (3 or more keeps it from asking for the cap), not {}",
                req.invocations
            )));
        }
    }
    Ok(())
}

/// The runtimes a request selects that can run its suite, in its order: those left out as
/// unavailable (`--skip-missing`) and those that do not apply, with why.
#[allow(clippy::type_complexity)]
fn choose_runtimes(
    req: &RunRequest,
    all: &[RuntimeInfo],
) -> Result<(Vec<RuntimeInfo>, Vec<(String, String)>, Vec<NotApplicable>), PlanError> {
    let kind = req.suite.kind;
    let mut skipped = Vec::new();
    let mut not_applicable: Vec<NotApplicable> = Vec::new();
    // Each selected id, and whether the user named it (rather than a group or default).
    // Sweeps (`--set`) put every combination of settings in place of their engine.
    let asked = crate::runtime::expand_settings(&req.runtimes, &req.settings, req.yes)
        .map_err(PlanError::Invalid)?;
    let selected: Vec<(String, bool)> = if asked.is_empty() {
        all.iter()
            .filter(|r| r.available() && super::policy::in_default_run(&r.id, kind))
            .map(|r| (r.id.clone(), false))
            .collect()
    } else {
        expand_groups(&asked, all)
    };
    let quiet_left_out = kind.shape().quiet_left_out;
    let mut runtimes: Vec<RuntimeInfo> = Vec::new();
    for (id, named) in &selected {
        let swept;
        let info = match all.iter().find(|r| &r.id == id) {
            Some(info) => info,
            None => match crate::runtime::derived_info(id, all) {
                Some(made) => {
                    swept = made.map_err(PlanError::Invalid)?;
                    &swept
                }
                None => {
                    return Err(PlanError::UnknownRuntime {
                        id: id.clone(),
                        known: all
                            .iter()
                            .map(|r| r.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    });
                }
            },
        };
        let applies = applicability(info, &req.suite);
        if let Err(why) = applies {
            // A servers suite leaves out the runtimes it has no server for, and
            // lifecycle-only configurations picked up by a group are simply not offered
            // to command suites, unless named; everything else left out is said.
            let said = *named || !quiet_left_out;
            if said && !not_applicable.iter().any(|n| &n.runtime == id) {
                not_applicable.push(NotApplicable {
                    runtime: id.clone(),
                    test: None,
                    why,
                });
            }
            continue;
        }
        if let Some(why) = &info.unavailable {
            if !req.skip_missing {
                return Err(PlanError::Unavailable {
                    id: id.clone(),
                    why: why.clone(),
                    hint: info.hint.clone(),
                });
            }
            skipped.push((id.clone(), why.clone()));
            continue;
        }
        if !runtimes.iter().any(|r| r.id == info.id) {
            runtimes.push(info.clone());
        }
    }
    // The features suite probes each CLI runtime that declares feature flags a second
    // time with them on (`ID+flags`), so its matrix can tell "needs a flag" from ✗,
    // whichever front end started it.
    if req.suite.name == crate::features::SUITE {
        let flagged: Vec<RuntimeInfo> = runtimes
            .iter()
            .filter_map(crate::runtime::flagged_variant)
            .filter(|v| !runtimes.iter().any(|r| r.id == v.id))
            .collect();
        runtimes.extend(flagged);
    }
    if runtimes.is_empty() {
        if !not_applicable.is_empty() {
            return Err(PlanError::Invalid(format!(
                "no selected runtime can run the {kind} suite '{}': {} (try --runtimes embedded)",
                req.suite.name,
                not_applicable
                    .iter()
                    .map(|n| format!("{}: {}", n.runtime, n.why))
                    .collect::<Vec<_>>()
                    .join("; ")
            )));
        }
        return Err(PlanError::Invalid("no available runtime to run on".into()));
    }
    Ok((runtimes, skipped, not_applicable))
}

/// The tests of a request; a run of modules runs its start-up test where a runtime needs it
/// and leaves it out elsewhere.
fn choose_tests(req: &RunRequest, runtimes: &[RuntimeInfo]) -> Result<Vec<TestCase>, PlanError> {
    // The empty module of a run of modules is there for start-up: CLI runtimes' whole
    // processes less it, and a native build's process less its empty program when an
    // embedded engine's execute phase (timed alone) is to be relative to it. With such
    // a runtime it is run whichever tests were chosen, without one it is left out.
    let startup = (req.suite.modules_only())
        .then(|| req.suite.tests.iter().find(|t| t.name == STARTUP_TEST))
        .flatten();
    let native_startup = startup.is_some_and(|s| {
        matches!(s.guest().map(|g| &g.build), Some(crate::suite::Build::Module(run)) if run.native.is_some())
    }) && runtimes.iter().any(|r| r.kind == RuntimeKind::Native)
        && runtimes.iter().any(|r| r.kind == RuntimeKind::Embedded);
    let cli = runtimes.iter().any(|r| r.kind == RuntimeKind::Cli) || native_startup;
    let mut tests = if req.tests.is_empty() {
        req.suite.tests.clone()
    } else {
        req.tests
            .iter()
            .map(|t| req.suite.test(t).cloned())
            .collect::<Result<Vec<_>, _>>()?
    };
    if let Some(s) = startup {
        tests.retain(|t| t.name != STARTUP_TEST);
        if cli {
            tests.push(s.clone());
        }
    }
    Ok(tests)
}

/// The request's numbers in core's ranges ([`crate::model::limits`]), which every front end
/// says in the same words. The timeout and the sampling interval are held as durations
/// (a test may ask for less than a whole unit); the memory cap in bytes.
fn check_numbers(req: &RunRequest) -> Result<(), String> {
    use crate::model::limits::{INVOCATIONS, MEMORY_MIB, RUNS, SAMPLE_MS, TIMEOUT_SECS, WARMUP};
    WARMUP.check(u64::from(req.warmup))?;
    RUNS.check(u64::from(req.runs))?;
    INVOCATIONS.check(u64::from(req.invocations))?;
    // Whole units up, so that any time over 0 is at least the least.
    let up = |d: std::time::Duration, unit: u128| {
        d.as_nanos().div_ceil(unit).min(u64::MAX.into()) as u64
    };
    TIMEOUT_SECS.check(up(req.timeout, 1_000_000_000))?;
    SAMPLE_MS.check(up(req.sample_interval, 1_000_000))?;
    MEMORY_MIB.check(req.memory_cap.div_ceil(1 << 20))?;
    Ok(())
}

/// Checks `--pair A,B[,C…]`: two or more different runtimes, or tests, of the plan, in
/// rounds; and decides which they are, once, for the saved run.
fn check_pair(
    arms: &[String],
    tests: &[TestCase],
    runtimes: &[RuntimeInfo],
    order: RunOrder,
) -> Result<PairOf, PlanError> {
    super::check_pair_arms(arms).map_err(PlanError::Invalid)?;
    if order == RunOrder::Sequential {
        return Err(PlanError::Invalid(
            "--pair runs its arms side by side in every round; it cannot go with --order sequential"
                .into(),
        ));
    }
    let rt = |x: &String| runtimes.iter().any(|r| &r.id == x);
    let test = |x: &String| tests.iter().any(|t| &t.name == x);
    if arms.iter().all(rt) {
        return Ok(PairOf::Runtimes);
    }
    if arms.iter().all(test) {
        return Ok(PairOf::Tests);
    }
    let list = |v: Vec<&str>| v.join(", ");
    Err(PlanError::Invalid(format!(
        "--pair takes runtimes or tests of the run, all of one kind, not '{}' (runtimes: {}; tests: {})",
        arms.join(","),
        list(runtimes.iter().map(|r| r.id.as_str()).collect()),
        list(tests.iter().map(|t| t.name.as_str()).collect())
    )))
}

/// How `--pair` arms run: alternating in one worker where the cell is a command measured by
/// time (an HTTP or lifecycle cell drives servers and engines of its own, and callgrind
/// counts a whole worker), else side by side in processes of their own.
fn pair_mode(req: &RunRequest, kind: SuiteKind) -> Result<Option<PairMode>, PlanError> {
    let can_alternate = kind.execution().runs_commands() && req.measure.is_time();
    match (&req.pair, req.pair_mode) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(PlanError::Invalid(
            "--pair-mode says how the arms of --pair run; give --pair A,B too".into(),
        )),
        (Some(_), Some(PairMode::Alternate)) if !can_alternate => Err(PlanError::Invalid(format!(
            "--pair-mode alternate runs the arms in one worker, which only command suites measured by time can (this is a {kind} suite{})",
            if req.measure.is_time() {
                ""
            } else {
                " counting instructions"
            }
        ))),
        (Some(_), Some(mode)) => Ok(Some(mode)),
        (Some(_), None) if can_alternate => Ok(Some(PairMode::Alternate)),
        (Some(_), None) => Ok(Some(PairMode::Processes)),
    }
}

/// A seed for a run that was not given one: the clock's nanoseconds and the process id.
fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    crate::analysis::seed_for(&[&t.as_nanos().to_string(), &std::process::id().to_string()])
}

/// Expands the group names `all`, `embedded` and `cli` (available runtimes of that kind)
/// in a runtime list; other names pass through, marked as named by the user.
fn expand_groups(names: &[String], all: &[RuntimeInfo]) -> Vec<(String, bool)> {
    let kind = |k: RuntimeKind| {
        all.iter()
            .filter(move |r| r.kind == k && r.available())
            .map(|r| (r.id.clone(), false))
    };
    let mut out = Vec::new();
    for n in names {
        match n.as_str() {
            "all" => out.extend(
                all.iter()
                    .filter(|r| r.available())
                    .map(|r| (r.id.clone(), false)),
            ),
            "embedded" => out.extend(kind(RuntimeKind::Embedded)),
            "cli" => out.extend(kind(RuntimeKind::Cli)),
            _ => out.push((n.clone(), true)),
        }
    }
    out
}
