//! `wasmeter run`: plan, run with a progress display, save, then print the summary.

use super::Ctx;
use crate::InputError;
use crate::cli::RunArgs;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wasmeter_core::analysis::summarize;
use wasmeter_core::runner::{Event, Plan, RunRequest, WorkerCommand, execute};
use wasmeter_core::store::{check_writable, load_run};

pub fn main(ctx: &Ctx, args: RunArgs) -> Result<ExitCode> {
    let cat = ctx.catalog()?;
    let suite = cat
        .get(&args.suite)
        .map_err(|e| InputError(e.to_string()))?
        .clone();
    let size = args.size.parse().map_err(InputError)?;
    let mut req = RunRequest::new(suite);
    req.tests = args.tests;
    req.runtimes = args.runtimes;
    req.warmup = args.warmup;
    req.runs = args.runs;
    req.timeout = Duration::from_secs(args.timeout);
    req.size = size;
    req.label = args.name;
    req.baseline = args.baseline;
    req.memory_cap = args.memory_mib << 20;
    req.sample_interval = Duration::from_millis(args.sample_ms.max(10));
    req.config = ctx.config()?;
    req.skip_missing = args.skip_missing;
    let plan = Plan::new(req).map_err(|e| InputError(e.to_string()))?;
    for (id, why) in &plan.skipped {
        eprintln!("wasmeter: warning: skipping runtime '{id}': {why}");
    }
    check_writable(&ctx.results)
        .map_err(|e| InputError(format!("results directory not writable: {e}")))?;
    let worker = WorkerCommand::current_exe().context("cannot find the wasmeter executable")?;

    let (tx, rx) = crossbeam_channel::unbounded();
    let cancel = AtomicBool::new(false);
    let outcome = std::thread::scope(|s| {
        let runner = s.spawn(|| {
            let r = execute(&plan, &ctx.results, &worker, &tx, &cancel);
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
        print!("{}", super::show::render_summary(&summary));
    }
    Ok(if outcome.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
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
                        "run {run_id}: {} cells × {iterations_per_cell} iterations",
                        c.len()
                    );
                }
                cells = c;
            }
            Event::CellStarted { index } => {
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
