//! `wasmeter run`: plan, run with a progress display, save, then print the summary.

use super::Ctx;
use crate::InputError;
use crate::args::{PlanArgs, RunArgs};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;
use wasmeter_core::analysis::summarize;
use wasmeter_core::http_suites::HttpSettings;
use wasmeter_core::model::limits;
use wasmeter_core::runner::{
    Event, Plan, PlanFile, RunChoices, RunOutcome, RunRequest, SUITE_COPY, WorkerCommand, execute,
    resume,
};
use wasmeter_core::store::{Precision, RunStatus, SavedRun, check_writable, load_run, resolve_run};
use wasmeter_core::suite::{
    ModuleRun, ModuleStaging, Preopen, Suite, SuiteCatalog, env_var, find_modules, with_natives,
};

pub fn main(ctx: &Ctx, args: RunArgs) -> Result<ExitCode> {
    let cat = ctx.catalog()?;
    let resuming = match &args.resume {
        Some(spec) => Some(resolve_run(&ctx.results, spec).map_err(|e| InputError(e.to_string()))?),
        None => None,
    };
    // Modules given by path become a suite in a staging folder of the results directory,
    // which the run copies into its own directory; the staging folder goes with this
    // process.
    let mut staging = None;
    let req = match &resuming {
        Some(dir) => request_from_run(ctx, &cat, dir)?,
        None if !args.modules.is_empty() => {
            let modules = find_modules(&args.modules).map_err(InputError)?;
            let run = module_run(&args)?;
            let each = with_natives(&modules, &run, &args.native).map_err(InputError)?;
            let (stage, suite) = ModuleStaging::stage(&ctx.results, &each).map_err(InputError)?;
            staging = Some(stage);
            let mut choices = choices_from_args(&suite, &args)?;
            // A native build given is there to be compared with: its runtime runs whatever
            // --runtimes named, and says so.
            if !args.native.is_empty()
                && !choices.runtimes.is_empty()
                && !choices.runtimes.iter().any(|r| r == "native" || r == "all")
            {
                eprintln!("wasmeter: note: --native adds the native runtime to --runtimes");
                choices.runtimes.insert(0, "native".into());
            }
            RunRequest::from_choices(suite.clone(), choices, ctx.config()?)
        }
        None if args.plan.is_some() => request_from_plan(ctx, &cat, &args)?,
        None => request_from_args(ctx, &cat, &args)?,
    };
    let plan = Plan::new(req).map_err(|e| InputError(e.to_string()))?;
    if staging.is_some()
        && args
            .baseline
            .as_ref()
            .is_some_and(|b| *b != plan.settings.baseline)
    {
        eprintln!(
            "wasmeter: note: relative figures are against {}",
            plan.settings.baseline
        );
    }
    for (id, why) in &plan.skipped {
        eprintln!("wasmeter: warning: skipping runtime '{id}': {why}");
    }
    for line in super::show::render_not_applicable(&plan.not_applicable).lines() {
        eprintln!("wasmeter: note: {line}");
    }
    if resuming.is_none() {
        // What the run will do and how long it should take, before it starts.
        let fingerprint = wasmeter_core::machine::Machine::detect().fingerprint;
        let scope = wasmeter_core::runner::scope(&plan, &ctx.results, &fingerprint);
        // A budget given that the planned rounds alone outlast adds nothing: said before
        // anything runs (the default budget just adds no round then, and says so after).
        let given = args.budget.as_ref().and(plan.settings.precision);
        if let (Some(est), Some(b)) = (scope.estimate_secs, given.and_then(|p| p.budget_secs))
            && est > b as f64
        {
            return Err(InputError(format!(
                "--budget {}: the planned rounds alone take about {} s (from earlier runs on this machine), so no round could be added; give a longer budget or fewer --invocations",
                args.budget.as_deref().unwrap_or_default(),
                est.round()
            ))
            .into());
        }
        eprintln!("wasmeter: {}", scope.describe());
    }
    let (outcome, run) = execute_plan(ctx, &plan, resuming.as_deref())?;
    let summary = summarize(&run, None);
    if args.json {
        super::print_json(&summary)?;
    } else {
        println!(
            "run {} ({}) saved in {}",
            outcome.run_id,
            outcome.status,
            outcome.dir.display()
        );
        print!(
            "{}",
            super::show::render_run(&run, &summary, wasmeter_core::model::Depth::Brief)
        );
        if let Some(s) = wasmeter_core::analysis::sweep(&run, &summary) {
            print!("{}", super::show::sweep_text(&s));
        }
    }
    if let Some(p) = run.meta.settings.precision {
        let short = wasmeter_core::runner::shortfalls(&run);
        if short.is_empty() {
            eprintln!("wasmeter: every cell reached ±{} %", p.pct);
        } else {
            eprintln!(
                "wasmeter: {} cell(s) did not reach ±{} %:",
                short.len(),
                p.pct
            );
            for (rt, test, why) in &short {
                eprintln!("wasmeter:   {rt} × {test}: {why}");
            }
            eprintln!(
                "wasmeter: where their noise lies, and what the host adds: wasmeter show {} --noise",
                run.meta.id
            );
        }
    }
    Ok(
        if outcome.failed > 0 || outcome.status != RunStatus::Complete {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// `wasmeter plan`: the choices the flags make, written as a plan file.
pub fn write_plan(ctx: &Ctx, args: PlanArgs) -> Result<ExitCode> {
    let run = &args.run;
    if !run.modules.is_empty() || run.resume.is_some() || run.plan.is_some() {
        return Err(InputError(
            "a plan names a suite (--suite); modules by path, --resume and --plan are not plans"
                .into(),
        )
        .into());
    }
    let cat = ctx.catalog()?;
    let name = run.suite.as_deref().unwrap_or_default();
    let suite = cat.get(name).map_err(|e| InputError(e.to_string()))?;
    // What the flags leave unset stays out of the file: the machine's policy decides.
    let choices = choices_from_args(suite, run)?;
    // Checked as a run would be here, so a plan with a typo is not sent to a fleet.
    let mut check = choices.clone();
    check.skip_missing = true;
    Plan::new(RunRequest::from_choices(
        suite.clone(),
        check,
        ctx.config()?,
    ))
    .map_err(|e| InputError(e.to_string()))?;
    let plan = PlanFile::new(&suite.name, choices);
    plan.write(&args.output)
        .map_err(|e| InputError(e.to_string()))?;
    println!(
        "plan {} written to {}: run it with `wasmeter run --plan {}`",
        plan.hash(),
        args.output.display(),
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The request a plan file describes, with its hash; runtimes this machine lacks are left
/// out and listed as not run here.
/// Runs a plan (or resumes the run in `resuming`) with the progress display, and loads
/// the saved run.
pub fn execute_plan(
    ctx: &Ctx,
    plan: &Plan,
    resuming: Option<&std::path::Path>,
) -> Result<(RunOutcome, SavedRun)> {
    check_writable(&ctx.results)
        .map_err(|e| InputError(format!("results directory not writable: {e}")))?;
    let worker = WorkerCommand::current_exe().context("cannot find the wasmeter executable")?;

    // Every child of this process is the runner's: it can adopt their orphans, so that
    // a killed CLI's grandchildren count as this run's CPU, not other load.
    wasmeter_core::sample::adopt_orphans();
    let (tx, rx) = crossbeam_channel::unbounded();
    let cancel = interrupt::install();
    let outcome = std::thread::scope(|s| {
        let runner = s.spawn(|| {
            let r = match resuming {
                Some(dir) => resume(plan, dir, &worker, &tx, cancel),
                None => execute(plan, &ctx.results, &worker, &tx, cancel),
            };
            drop(tx);
            r
        });
        show_progress(&rx);
        runner.join().expect("runner thread")
    })?;
    let run = load_run(&outcome.dir)?;
    Ok((outcome, run))
}

fn request_from_plan(ctx: &Ctx, cat: &SuiteCatalog, args: &RunArgs) -> Result<RunRequest> {
    let path = args.plan.as_deref().unwrap_or(std::path::Path::new(""));
    let plan = PlanFile::read(path).map_err(|e| InputError(e.to_string()))?;
    let suite = cat
        .get(&plan.plan.suite)
        .map_err(|e| InputError(format!("{}: {e}", path.display())))?;
    let mut choices = plan.run.clone();
    choices.skip_missing = true;
    if args.name.is_some() {
        choices.label = args.name.clone();
    }
    let mut req = RunRequest::from_choices(suite.clone(), choices, ctx.config()?);
    req.plan_hash = Some(plan.hash());
    Ok(req)
}

/// The request the command line describes: the flags given, the rest left to core's
/// policy ([`RunRequest::from_choices`]).
fn request_from_args(ctx: &Ctx, cat: &SuiteCatalog, args: &RunArgs) -> Result<RunRequest> {
    let name = args.suite.as_deref().unwrap_or_default();
    let suite = cat
        .get(name)
        .map_err(|e| InputError(e.to_string()))?
        .clone();
    Ok(RunRequest::from_choices(
        suite.clone(),
        choices_from_args(&suite, args)?,
        ctx.config()?,
    ))
}

/// What the user chose on the command line; a flag not given is `None` (core decides).
/// `--precision PCT [--budget DURATION]`, checked: a percentage over 0 and at most 100, a
/// duration such as 90s, 10m or 1h30m (a bare number is seconds).
/// `--precision PCT|off` and `--budget`: the precision asked for (`None`: core's default),
/// and whether none is wanted at all. A budget alone applies to the default precision.
fn precision(args: &RunArgs) -> Result<(Option<Precision>, bool)> {
    let budget = args.budget.as_deref();
    match args.precision.as_deref().map(str::trim) {
        Some("off") if budget.is_some() => Err(InputError(
            "--budget bounds the rounds a precision adds; --precision off adds none".into(),
        )
        .into()),
        Some("off") => Ok((None, true)),
        Some(text) => {
            let pct: f64 = text.parse().map_err(|_| {
                InputError(format!(
                    "--precision takes a percentage or off, not '{text}'"
                ))
            })?;
            Ok((
                Some(Precision::parse(pct, budget).map_err(InputError)?),
                false,
            ))
        }
        None => Ok((
            budget
                .map(|_| {
                    Precision::parse(wasmeter_core::runner::DEFAULT_PRECISION.pct, budget)
                        .map_err(InputError)
                })
                .transpose()?,
            false,
        )),
    }
}

fn choices_from_args(suite: &Suite, args: &RunArgs) -> Result<RunChoices> {
    let http = if suite.kind.is_http() {
        Some(http_settings(args)?)
    } else if !args.concurrency.is_empty()
        || args.duration.is_some()
        || args.latency.is_some()
        || args.ready_timeout.is_some()
        || args.cli_inflight.is_some()
        || !args.threads.is_empty()
        || !args.rates.is_empty()
        || args.slo_p99.is_some()
        || args.knee_budget.is_some()
        || args.rate_connections.is_some()
    {
        return Err(InputError(format!(
            "--concurrency, --duration, --latency and --rates apply to HTTP suites; '{}' is a {} suite",
            suite.name, suite.kind
        ))
        .into());
    } else {
        None
    };
    Ok(RunChoices {
        tests: args.tests.clone(),
        runtimes: super::ids(&args.runtimes),
        warmup: args.warmup,
        runs: args.runs,
        invocations: args.invocations,
        order: args
            .order
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e: String| InputError(format!("--order: {e}")))?,
        seed: args.seed,
        measure: args
            .measure
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e: String| InputError(format!("--measure: {e}")))?,
        timeout_secs: args.timeout,
        size: args
            .size
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(InputError)?,
        label: args.name.clone(),
        memory_cap_mib: args.memory_mib,
        sample_interval_ms: args.sample_ms,
        baseline: args.baseline.clone(),
        skip_missing: args.skip_missing,
        http,
        precision: precision(args)?.0,
        precision_off: precision(args)?.1,
        settings: args.settings.clone(),
        yes: args.yes,
        profile: args.profile,
        pair_mode: args
            .pair_mode
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|e: String| InputError(format!("--pair-mode: {e}")))?,
        // Checked by the plan, once groups such as `embedded` are expanded.
        pair: Some(super::ids(&args.pair)).filter(|arms| !arms.is_empty()),
    })
}

/// The HTTP load settings the command line asks for.
fn http_settings(args: &RunArgs) -> Result<HttpSettings> {
    // The load of the run's size (quick: 1, 10 and 100 connections; full: the study's).
    let size = args
        .size
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(InputError)?
        .unwrap_or(wasmeter_core::suite::Size::Quick);
    let mut h = HttpSettings::for_size(size);
    if !args.concurrency.is_empty() {
        h.levels = args.concurrency.clone();
    }
    // Text to numbers only: their ranges are core's ([`limits`]), which the plan checks
    // in the words the TUI and the desktop say too. Seconds are core's to turn into ms.
    let secs = |limit: &limits::Limit, v: f64| limit.check_seconds(v).map_err(InputError);
    if let Some(d) = args.duration {
        h.duration_ms = secs(&limits::DURATION, d)?;
    }
    if let Some(d) = args.latency {
        h.latency_ms = secs(&limits::LATENCY, d)?;
    }
    if let Some(d) = args.ready_timeout {
        h.ready_timeout_ms = secs(&limits::READY_TIMEOUT, d)?;
    }
    if let Some(b) = args.knee_budget {
        h.knee_budget_ms = secs(&limits::KNEE_BUDGET, b)?;
    }
    match args.threads.as_slice() {
        [] => {}
        [s, c] => (h.server_threads, h.client_threads) = (*s, *c),
        _ => return Err(InputError("--threads takes SERVER,CLIENT".into()).into()),
    }
    if let Some(n) = args.cli_inflight {
        h.cli_inflight = n;
    }
    h.rates = args
        .rates
        .iter()
        .map(|r| {
            r.trim().parse::<u32>().map_err(|_| {
                InputError(format!(
                    "--rates: '{r}' is not a rate; give whole requests per second, e.g. --rates 1000,5000"
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if let Some(slo) = &args.slo_p99 {
        h.slo_p99_ms = slo_ms(slo).ok_or_else(|| {
            InputError(format!(
                "--slo-p99: '{slo}' is not a duration (e.g. 100, 100ms, 0.5s, 800us)"
            ))
        })?;
    }
    if let Some(n) = args.rate_connections {
        h.rate_connections = n;
    }
    Ok(h)
}

/// A latency objective in ms: a bare number is ms; `us`, `ms` and `s` are units (its range
/// is core's).
fn slo_ms(s: &str) -> Option<f64> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("us") {
        (n, 1e-3)
    } else if let Some(n) = s.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1e3)
    } else {
        (s, 1.0)
    };
    Some(num.trim().parse::<f64>().ok()? * scale)
}

/// The request a saved run was made with, to finish it.
fn request_from_run(ctx: &Ctx, cat: &SuiteCatalog, dir: &std::path::Path) -> Result<RunRequest> {
    let run = load_run(dir).map_err(|e| InputError(e.to_string()))?;
    let m = run.meta;
    if !matches!(m.status, RunStatus::Interrupted | RunStatus::Cancelled) {
        return Err(InputError(format!(
            "run {} is {}; only interrupted or cancelled runs can be resumed",
            m.id, m.status
        ))
        .into());
    }
    // A suite made from modules was kept with the run; any other comes from the suites.
    let kept = dir.join(SUITE_COPY);
    let suite = if kept.join("suite.toml").is_file() {
        Suite::load(&kept).map_err(|e| InputError(e.to_string()))?
    } else {
        cat.get(&m.suite)
            .map_err(|e| InputError(e.to_string()))?
            .clone()
    };
    let mut req = RunRequest::new(suite);
    req.tests = m.tests.iter().map(|t| t.name.clone()).collect();
    req.runtimes = m.runtimes.iter().map(|r| r.id.clone()).collect();
    req.warmup = m.settings.warmup;
    req.runs = m.settings.runs;
    req.invocations = m.settings.invocations;
    req.order = m.settings.order;
    req.seed = Some(m.settings.seed);
    req.pair = m.settings.pair.clone();
    // A run saved before there was a choice ran its pair in processes.
    req.pair_mode = m
        .settings
        .pair
        .as_ref()
        .map(|_| m.settings.pair_mode.unwrap_or_default());
    req.precision = m.settings.precision;
    req.measure = m.settings.measure;
    // The recorded timeout includes an HTTP iteration's budget, which planning adds again.
    let own = wasmeter_core::http_suites::most_own_rates(&req.suite.tests);
    let budget = m.settings.http.as_ref().map(|h| h.iteration_budget(own));
    req.timeout = Duration::from_secs(m.settings.timeout_secs)
        .saturating_sub(budget.unwrap_or_default())
        .max(Duration::from_secs(1));
    req.http = m.settings.http.clone();
    req.size = m.settings.size;
    req.label = m.label;
    req.baseline = m.settings.baseline;
    req.memory_cap = m.settings.memory_cap_bytes;
    req.sample_interval = Duration::from_millis(m.settings.sample_interval_ms);
    req.config = ctx.config()?;
    req.plan_hash = m.settings.plan_hash;
    Ok(req)
}

/// How every module given by path runs, as the flags say; bad values are input errors.
fn module_run(args: &RunArgs) -> Result<ModuleRun> {
    Ok(ModuleRun {
        args: args.module_args.clone(),
        env: args
            .module_env
            .iter()
            .map(|kv| {
                env_var(kv).ok_or_else(|| InputError(format!("--env takes KEY=VALUE, not '{kv}'")))
            })
            .collect::<Result<_, _>>()?,
        stdin: args.stdin.clone(),
        expect: args.expect.clone(),
        dirs: args
            .dirs
            .iter()
            .map(|d| Preopen::parse(d).map_err(InputError))
            .collect::<Result<_, _>>()?,
        invoke: match args.invoke.as_deref() {
            Some("") => return Err(InputError("--invoke names an exported function".into()).into()),
            f => f.map(str::to_string),
        },
        native: None,
    })
}

/// Draws a progress bar on a terminal, plain lines otherwise; returns when the run ends.
fn show_progress(rx: &crossbeam_channel::Receiver<Event>) {
    let tty = std::io::stderr().is_terminal();
    let mut cells: Vec<(String, String)> = Vec::new();
    let bar = ProgressBar::hidden();
    for ev in rx.iter() {
        match ev {
            Event::Planned {
                run_id,
                cells: c,
                iterations_per_cell,
                invocations,
                ..
            } => {
                if tty {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    bar.set_length((c.len() as u32 * iterations_per_cell) as u64);
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} iterations (eta {eta}) {msg}",
                        )
                        .expect("valid template"),
                    );
                } else {
                    eprintln!(
                        "run {run_id}: {} cells × {iterations_per_cell} iterations ({invocations} invocations each)",
                        c.len()
                    );
                }
                cells = c;
            }
            Event::CellStarted { index, .. } => {
                if let Some((rt, t)) = cells.get(index) {
                    bar.set_message(format!("{rt} × {t}"));
                }
            }
            Event::Progress { .. } => bar.inc(1),
            Event::CellFinished {
                index,
                failure,
                wall_ms,
            } => {
                let (rt, t) = cells.get(index).cloned().unwrap_or_default();
                let line = match failure {
                    None => format!(
                        "[{}/{}] {rt} × {t}: ok ({wall_ms:.0} ms)",
                        index + 1,
                        cells.len()
                    ),
                    Some(f) => format!("[{}/{}] {rt} × {t}: FAILED: {f}", index + 1, cells.len()),
                };
                if tty {
                    bar.println(line);
                } else {
                    eprintln!("{line}");
                }
            }
            Event::RunFinished { .. } => bar.finish_and_clear(),
            // The error itself is returned by the runner and printed by the caller.
            Event::Measurement { .. } | Event::Sample { .. } | Event::Stopped { .. } => {}
        }
    }
}

/// Ctrl-C during a run: the first stops it cleanly (the cell in flight is ended, everything
/// finished is compacted and saved, the run is marked cancelled); a second quits at once.
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    static CANCEL: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_sigint(_: libc::c_int) {
        if CANCEL.swap(true, Ordering::SeqCst) {
            // Only async-signal-safe calls here.
            #[allow(unsafe_code)]
            // SAFETY: _exit is async-signal-safe and ends the process without unwinding.
            unsafe {
                libc::_exit(130)
            };
        }
    }

    /// Installs the handler; returns the flag the runner watches.
    #[allow(unsafe_code)]
    pub fn install() -> &'static AtomicBool {
        let handler = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only touches an atomic and calls _exit.
        unsafe {
            libc::signal(libc::SIGINT, handler);
        }
        &CANCEL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;
    use wasmeter_core::config::Config;
    use wasmeter_core::runner::{planned, timeout_cases};

    fn catalog() -> SuiteCatalog {
        SuiteCatalog::discover(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites"))
            .unwrap()
    }

    /// The plan `wasmeter run --suite S ARGS` makes is core's plan for the same choices:
    /// faults keeps its 10 s, libsodium its 600 s, compute gets 60 s, `--timeout` wins.
    #[test]
    fn the_command_line_plans_as_core_does() {
        for case in timeout_cases(&catalog()) {
            let (suite, timeout, want) = (&case.suite, case.timeout, case.want);
            let mut argv = vec!["wasmeter", "run", "--suite", suite.name.as_str()];
            argv.extend(["--runtimes", "wasmtime"]);
            let t = timeout.map(|t: u64| t.to_string());
            if let Some(t) = &t {
                argv.extend(["--timeout", t.as_str()]);
            }
            let Some(Command::Run(args)) = Cli::try_parse_from(&argv).unwrap().command else {
                panic!("not a run: {argv:?}");
            };
            let cli = planned(RunRequest::from_choices(
                suite.clone(),
                choices_from_args(suite, &args).unwrap(),
                Config::default(),
            ));
            let core = case.core_settings();
            assert_eq!(cli.timeout_secs, want, "{argv:?}");
            assert_eq!(cli, core, "{argv:?}");
        }
    }
}
