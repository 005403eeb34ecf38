//! One file per subcommand; each returns the process exit code.

mod compare;
mod desktop;
mod diff;
mod explain;
mod export;
mod features;
mod history;
mod load;
mod run;
mod runs;
mod runtimes;
mod show;
mod suite_build;
mod suites;

use crate::InputError;
use crate::args::{Cli, Command, SuiteAction};
use anyhow::{Context, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use wasmeter_core::config::Config;
use wasmeter_core::store::{Launched, SavedRun, default_results_dir, load_run, resolve_run};
use wasmeter_core::suite::{SuiteCatalog, default_suites_dir};

/// Runs the chosen subcommand.
pub fn dispatch(cli: Cli, started: std::time::Instant) -> Result<ExitCode> {
    let ctx = Ctx {
        results: cli
            .results
            .unwrap_or_else(|| default_results_dir(Launched::FromTerminal)),
        suites: cli.suites_dir.unwrap_or_else(default_suites_dir),
    };
    let command = match cli.command {
        Some(c) => c,
        None if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() => Command::Tui,
        None => {
            use clap::CommandFactory;
            let mut help = Cli::command();
            eprintln!("{}", help.render_help());
            return Ok(ExitCode::from(2));
        }
    };
    match command {
        Command::Tui => {
            wasmeter_tui::run(wasmeter_tui::TuiOptions {
                results: ctx.results.clone(),
                suites: ctx.suites.clone(),
                started,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Desktop => desktop::main(&ctx),
        Command::Runtimes { json, settings } => runtimes::main(&ctx, json, settings),
        Command::Suites { name, json } => suites::main(&ctx, name.as_deref(), json),
        Command::Suite {
            action: SuiteAction::Build { name, force },
        } => suite_build::main(&ctx, &name, force),
        Command::Run(args) => run::main(&ctx, *args),
        Command::Plan(args) => run::write_plan(&ctx, *args),
        Command::Features(args) => features::main(&ctx, *args),
        Command::Runs { json } => runs::main(&ctx, json),
        Command::Explain {
            run,
            tests,
            runtimes,
            baseline,
            top,
            hot: false,
            format,
            ..
        } => explain::main(&ctx, &run, tests, runtimes, baseline, top, &format),
        Command::Explain {
            run,
            tests,
            runtimes,
            function,
            format,
            ..
        } => explain::hot(&ctx, &run, tests, runtimes, function, &format),
        Command::Show {
            run,
            noise: true,
            json,
            ..
        } => show::noise(&ctx, &run, json),
        Command::Show {
            run,
            sweep: true,
            json,
            ..
        } => show::sweep(&ctx, &run, json),
        Command::Show {
            run,
            baseline,
            phases,
            json,
            ..
        } => show::main(&ctx, &run, baseline.as_deref(), phases, json),
        Command::Diff {
            a,
            b,
            runtimes,
            tests,
            fail_on,
            max_regression,
            phases,
            allow_busy,
            format,
            threshold,
            normalize,
            json,
        } => diff::main(
            &ctx,
            diff::Args {
                a: &a,
                b: b.as_deref(),
                runtimes: &ids(&runtimes),
                tests: &tests,
                phases: &phases,
                threshold,
                normalize: normalize.as_deref(),
                fail_on: fail_on.as_deref(),
                max_regression,
                allow_busy,
                format: if json { "json" } else { &format },
            },
        ),
        Command::Export {
            runs,
            format,
            output,
            baseline,
            threshold,
            normalize,
            compare,
            by,
        } => export::main(
            &ctx,
            &runs,
            &format,
            &output,
            baseline.as_deref(),
            export::Options {
                threshold,
                normalize: normalize.as_deref(),
                compare,
                by: &by,
            },
        ),
        Command::Load(args) => load::main(&args),
        Command::Compare {
            runs,
            by,
            normalize,
            format,
            output,
            baseline,
            fail_on,
            max_regression,
            threshold,
            allow_busy,
        } => compare::main(
            &ctx,
            &runs,
            compare::Args {
                by: &by,
                normalize: normalize.as_deref(),
                format: &format,
                output: output.as_deref(),
                baseline: baseline.as_deref(),
                fail_on: fail_on.as_deref(),
                max_regression,
                threshold,
                allow_busy,
            },
        ),
        Command::History(args) => history::main(&ctx, &args),
    }
}

/// Where things are, resolved once from flags and environment.
pub struct Ctx {
    /// Results directory.
    pub results: PathBuf,
    /// Suites root.
    pub suites: PathBuf,
}

impl Ctx {
    /// The config file in force; its errors are input errors naming file and line.
    pub fn config(&self) -> Result<Config> {
        wasmeter_core::runtime::load_config().map_err(|e| InputError(e.to_string()).into())
    }

    /// The suites, or an input error naming the manifest at fault.
    pub fn catalog(&self) -> Result<SuiteCatalog> {
        SuiteCatalog::discover(&self.suites).map_err(|e| InputError(e.to_string()).into())
    }
}

/// Loads a saved run by id, prefix, `latest` or path. Every problem (no such run, a
/// corrupt file) is an input error naming the run or the file.
pub fn load(ctx: &Ctx, spec: &str) -> Result<SavedRun> {
    let dir = resolve_run(&ctx.results, spec).map_err(|e| InputError(e.to_string()))?;
    load_run(&dir).map_err(|e| InputError(e.to_string()).into())
}

/// Runtime ids as given (`--runtimes a,b --runtimes c`): split at commas, except those
/// inside a settings id's brackets (`wasmtime[allocator=pooling,cow=off]`).
pub fn ids(raw: &[String]) -> Vec<String> {
    raw.iter()
        .flat_map(|r| wasmeter_core::runtime::settings::split_ids(r))
        .collect()
}

/// Writes a command's output to `--output`/`-o` when given, else to stdout.
pub fn write_output(output: Option<&Path>, text: &str) -> Result<()> {
    match output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(v: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}
