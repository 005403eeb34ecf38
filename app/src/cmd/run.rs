//! `wasmeter run`: plan, run with a progress display, save, then print the summary.

use super::Ctx;
use crate::InputError;
use crate::cli::RunArgs;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;
use wasmeter_core::analysis::summarize;
use wasmeter_core::http::HttpSettings;
use wasmeter_core::runner::{Event, Plan, RunRequest, WorkerCommand, execute, resume};
use wasmeter_core::store::{NotApplicable, RunStatus, check_writable, load_run, resolve_run};
use wasmeter_core::suite::{SuiteCatalog, SuiteKind};

pub fn main(ctx: &Ctx, args: RunArgs) -> Result<ExitCode> {
    let cat = ctx.catalog()?;
    let resuming = match &args.resume {
        Some(spec) => Some(resolve_run(&ctx.results, spec).map_err(|e| InputError(e.to_string()))?),
        None => None,
    };
    let req = match &resuming {
        Some(dir) => request_from_run(ctx, &cat, dir)?,
        None => request_from_args(ctx, &cat, &args)?,
    };
    let plan = Plan::new(req).map_err(|e| InputError(e.to_string()))?;
    for (id, why) in &plan.skipped {
        eprintln!("wasmeter: warning: skipping runtime '{id}': {why}");
    }
    let na: Vec<NotApplicable> = plan
        .not_applicable
        .iter()
        .map(|(runtime, why)| NotApplicable {
            runtime: runtime.clone(),
            why: why.clone(),
        })
        .collect();
    for line in super::show::render_not_applicable(&na).lines() {
        eprintln!("wasmeter: note: {line}");
    }
    check_writable(&ctx.results)
        .map_err(|e| InputError(format!("results directory not writable: {e}")))?;
    let worker = WorkerCommand::current_exe().context("cannot find the wasmeter executable")?;

    let (tx, rx) = crossbeam_channel::unbounded();
    let cancel = interrupt::install();
    let outcome = std::thread::scope(|s| {
        let runner = s.spawn(|| {
            let r = match &resuming {
                Some(dir) => resume(&plan, dir, &worker, &tx, cancel),
                None => execute(&plan, &ctx.results, &worker, &tx, cancel),
            };
            drop(tx);
            r
        });
        show_progress(&rx);
        runner.join().expect("runner thread")
    })?;

    let run = load_run(&outcome.dir)?;
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
        if run.meta.suite_kind == SuiteKind::Lifecycle {
            print!(
                "{}",
                super::show::render_lifecycle(&summary, &run.meta.not_applicable, false)
            );
        } else if run.meta.suite_kind.is_http() {
            print!("{}", super::show::render_http(&run, &summary));
        } else {
            print!("{}", super::show::render_summary(&summary));
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

/// The request the command line describes.
fn request_from_args(ctx: &Ctx, cat: &SuiteCatalog, args: &RunArgs) -> Result<RunRequest> {
    let name = args.suite.as_deref().unwrap_or_default();
    let suite = cat
        .get(name)
        .map_err(|e| InputError(e.to_string()))?
        .clone();
    let http = suite.kind.is_http();
    let mut req = RunRequest::new(suite);
    req.tests = args.tests.clone();
    req.runtimes = args.runtimes.clone();
    req.warmup = args.warmup.unwrap_or(req.warmup);
    req.runs = args.runs.unwrap_or(req.runs);
    req.invocations = args.invocations.unwrap_or(req.invocations);
    if let Some(o) = &args.order {
        req.order = o
            .parse()
            .map_err(|e: String| InputError(format!("--order: {e}")))?;
    }
    req.seed = args.seed;
    if let Some(m) = &args.measure {
        req.measure = m
            .parse()
            .map_err(|e: String| InputError(format!("--measure: {e}")))?;
    }
    if http {
        req.http = Some(http_settings(args)?);
    } else if !args.concurrency.is_empty()
        || args.duration.is_some()
        || args.latency.is_some()
        || args.ready_timeout.is_some()
        || args.cli_inflight.is_some()
        || !args.threads.is_empty()
    {
        return Err(InputError(format!(
            "--concurrency, --duration and --latency apply to HTTP suites; '{name}' is a {} suite",
            req.suite.kind
        ))
        .into());
    }
    if let Some(t) = args.timeout {
        req.timeout = Duration::from_secs(t);
    }
    req.size = args.size.parse().map_err(InputError)?;
    req.label = args.name.clone();
    req.baseline = args.baseline.clone();
    req.memory_cap = args.memory_mib << 20;
    req.sample_interval = Duration::from_millis(args.sample_ms.max(10));
    req.config = ctx.config()?;
    req.skip_missing = args.skip_missing;
    Ok(req)
}

/// The HTTP load settings the command line asks for.
fn http_settings(args: &RunArgs) -> Result<HttpSettings> {
    let mut h = HttpSettings::default();
    if !args.concurrency.is_empty() {
        h.levels = args.concurrency.clone();
    }
    let secs = |flag: &str, v: f64| -> Result<u64> {
        if v.is_finite() && v > 0.0 && v <= 3600.0 {
            Ok((v * 1000.0).round().max(1.0) as u64)
        } else {
            Err(InputError(format!("--{flag} must be over 0 and at most 3600 seconds")).into())
        }
    };
    if let Some(d) = args.duration {
        h.duration_ms = secs("duration", d)?;
    }
    if let Some(d) = args.latency {
        h.latency_ms = secs("latency", d)?;
    }
    if let Some(d) = args.ready_timeout {
        h.ready_timeout_ms = secs("ready-timeout", d)?;
    }
    match args.threads.as_slice() {
        [] => {}
        [s, c] if *s > 0 && *c > 0 => (h.server_threads, h.client_threads) = (*s, *c),
        _ => {
            return Err(InputError("--threads takes SERVER,CLIENT, both at least 1".into()).into());
        }
    }
    if let Some(n) = args.cli_inflight {
        h.cli_inflight = n.max(1);
    }
    Ok(h)
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
    let suite = cat
        .get(&m.suite)
        .map_err(|e| InputError(e.to_string()))?
        .clone();
    let mut req = RunRequest::new(suite);
    req.tests = m.tests.iter().map(|t| t.name.clone()).collect();
    req.runtimes = m.runtimes.iter().map(|r| r.id.clone()).collect();
    req.warmup = m.settings.warmup;
    req.runs = m.settings.runs;
    req.invocations = m.settings.invocations;
    req.order = m.settings.order;
    req.seed = Some(m.settings.seed);
    req.measure = m.settings.measure;
    // The recorded timeout includes an HTTP iteration's budget, which planning adds again.
    let budget = m.settings.http.as_ref().map(|h| h.iteration_budget());
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
    Ok(req)
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
            Event::Measurement(_) | Event::Sample(_) => {}
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
