//! Command-line interface. These names are a contract scripts rely on.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Benchmark WebAssembly runtimes against each other and against native code.
#[derive(Debug, Parser)]
#[command(name = "wasmeter", version, about)]
pub struct Cli {
    /// Results directory (default: env WASMETER_RESULTS, else ./results).
    #[arg(long, global = true, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Suites directory (default: env WASMETER_SUITES, else ./suites).
    #[arg(long, global = true, value_name = "DIR", hide = true)]
    pub suites_dir: Option<PathBuf>,
    /// What to do; none opens the terminal UI when stdout is a terminal.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the terminal UI: pick runtimes and tests, run and watch, browse, diff, export.
    Tui,
    /// Open the desktop app (the `wasmeter-desktop` binary beside this one; build it with
    /// scripts/desktop).
    Desktop,
    /// List every known runtime with kind, version and availability.
    Runtimes {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// List each embedded engine's settings instead (what `run --set` sweeps).
        #[arg(long)]
        settings: bool,
    },
    /// List suites, or one suite's tests.
    Suites {
        /// Suite to show.
        name: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Build a suite from its script (`suites/NAME/build.sh`): libsodium's test suite is
    /// compiled this way, outside the repository, and registered once built.
    Suite {
        /// What to do.
        #[command(subcommand)]
        action: SuiteAction,
    },
    /// Run a suite on runtimes and save the run. Exits 0 when every cell finished, 1 when a
    /// cell failed or the run did not complete (it is saved either way), 2 on bad input.
    Run(Box<RunArgs>),
    /// Which runtime supports which WebAssembly proposal and WASI call: runs the `features`
    /// suite's probes (one module each) on every available runtime and prints the matrix;
    /// or shows (`--run`) or compares (`--diff A B`) saved ones.
    Features(Box<FeaturesArgs>),
    /// Write a plan file: the suite, tests, runtimes and settings a run takes (the flags of
    /// `run`), to run the same plan on every machine with `wasmeter run --plan FILE`.
    Plan(Box<PlanArgs>),
    /// List saved runs.
    Runs {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Where each runtime spends a profiled run's time (`run --profile`): per test, the
    /// functions by name across runtimes, each with its share of the samples, its time per
    /// iteration and its ratio to the baseline, and the time outside them.
    Explain {
        /// Run id, unique prefix, `latest`, or path.
        run: String,
        /// Tests to explain (comma-separated; default every profiled one).
        #[arg(long, value_delimiter = ',')]
        tests: Vec<String>,
        /// Runtimes to show (comma-separated; default every profiled one).
        #[arg(long, value_delimiter = ',')]
        runtimes: Vec<String>,
        /// The runtime ratios are against (default: the run's baseline).
        #[arg(long, conflicts_with = "hot")]
        baseline: Option<String>,
        /// How many functions per test, the rest summed in one row (0: all).
        #[arg(long, default_value_t = 15)]
        top: usize,
        /// Hot code instead: each wasmtime cell's hottest function, its wasm beside the
        /// machine code wasmtime made of it, with the samples on each instruction.
        #[arg(long)]
        hot: bool,
        /// With --hot: this function instead of each cell's hottest.
        #[arg(long, requires = "hot")]
        function: Option<String>,
        /// text (default) or json.
        #[arg(long, default_value = "text")]
        format: String,
    },
    /// Show one saved run's summary.
    Show {
        /// Run id, unique prefix, `latest`, or path.
        run: String,
        /// Baseline runtime (default: the run's).
        #[arg(long)]
        baseline: Option<String>,
        /// Also print the median of every phase per runtime and test (lifecycle runs: every
        /// measurement against heap size).
        #[arg(long)]
        phases: bool,
        /// Where the noise lies instead: per cell, the spread within a worker process,
        /// between processes, and of the first iteration; with `run --pair`, what the
        /// pairing cancelled.
        #[arg(long, conflicts_with = "phases")]
        noise: bool,
        /// The run's sweep instead (`run --set`): per test the figure against the first
        /// swept setting, one column per combination of the others, the best combination,
        /// and which settings moved a figure beyond noise.
        #[arg(long, conflicts_with_all = ["phases", "noise"])]
        sweep: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Compare two runs test by test (ratio of typical values, 95 % interval, verdict), or
    /// two runtimes (`--runtimes A,B`) or two tests (`--tests A,B`) inside one run, paired
    /// round by round.
    Diff {
        /// Run A (id, unique prefix, `latest`, or path).
        a: String,
        /// Run B; omit to compare two runtimes or two tests of run A.
        b: Option<String>,
        /// With one run: the two runtimes to compare, `A,B`.
        #[arg(long)]
        runtimes: Vec<String>,
        /// With one run: the two tests to compare on each runtime, `A,B` (two builds of a
        /// module, say).
        #[arg(long, value_delimiter = ',')]
        tests: Vec<String>,
        /// Exit 3 when any verdict is slower (`slower`) or any change (`change`), and 4 when
        /// any row could not be decided; without it the exit code does not depend on the
        /// verdicts.
        #[arg(long, value_name = "slower|change")]
        fail_on: Option<String>,
        /// With `--fail-on`: the largest change, percent, the gate passes: a row passes only
        /// when its 95 % interval shows the change is within it, else the gate is undecided
        /// (exit 4). [default: the threshold]
        #[arg(long, value_name = "PCT", requires = "fail_on")]
        max_regression: Option<f64>,
        /// Only these phases' rows, in the output and the gate (`execute,total`): judge what
        /// a change is about, not microsecond phases whose noise under load can outrun the
        /// threshold.
        #[arg(long, value_delimiter = ',')]
        phases: Vec<String>,
        /// Give verdicts on invocations measured while other processes took more than a
        /// quarter of the CPUs too (left out by default), with a warning in every output.
        #[arg(long)]
        allow_busy: bool,
        /// text, md (a pull-request comment: headline, changed rows, the rest folded) or
        /// json.
        #[arg(long, default_value = "text")]
        format: String,
        /// Noise threshold in percent (0–100): smaller changes are "no change".
        #[arg(long, default_value_t = wasmeter_core::analysis::DEFAULT_THRESHOLD_PCT, allow_negative_numbers = true)]
        threshold: f64,
        /// Compare each runtime relative to this runtime of its own run (`native`), which
        /// cancels a machine that was uniformly faster or slower during one run; `none`
        /// compares times as measured. Run diffs only. [default: see `DEFAULT_NORMALIZE`
        /// in docs/statistics.md]
        #[arg(long, value_name = "RUNTIME|none")]
        normalize: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Put many runs side by side (a CI matrix, runs over time): runtime × test × run, each
    /// relative to its own run's native with its 95 % interval. Runs of different suites
    /// are refused; different plans, machines or runtime versions are said.
    Compare {
        /// Two or more runs (id, unique prefix, `latest`, or path).
        #[arg(required = true, num_args = 2..)]
        runs: Vec<String>,
        /// Name the columns by run or by machine.
        #[arg(long, default_value = "run", value_name = "run|machine")]
        by: String,
        /// Each run relative to this runtime of its own run (default: native), or `none`
        /// for times as measured (one machine only).
        #[arg(long, value_name = "RUNTIME|none")]
        normalize: Option<String>,
        /// text, md, html or json.
        #[arg(long, default_value = "text")]
        format: String,
        /// Write to this file instead of stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Diff every other run against this one (with `--fail-on`: the gate of them all).
        #[arg(long, value_name = "RUN")]
        baseline: Option<String>,
        /// With `--baseline`: exit 3 when any run is slower (`slower`) or changed
        /// (`change`) against it, 4 when a row could not be decided.
        #[arg(long, value_name = "slower|change", requires = "baseline")]
        fail_on: Option<String>,
        /// With `--fail-on`: the largest change, percent, the gate passes (see `diff`).
        #[arg(long, value_name = "PCT", requires = "fail_on")]
        max_regression: Option<f64>,
        /// With `--baseline`: the diffs' noise threshold in percent (0–100).
        #[arg(long, default_value_t = wasmeter_core::analysis::DEFAULT_THRESHOLD_PCT, allow_negative_numbers = true)]
        threshold: f64,
        /// With `--baseline`: keep invocations measured on a busy machine (see `diff`).
        #[arg(long)]
        allow_busy: bool,
    },
    /// Export a run, the diff of two, or many runs compared (three or more, or two with
    /// `--compare`) as CSV, JSON, Markdown or HTML; or one run's open-model latency
    /// histograms as `.hgrm` files (`--format hgrm -o DIR`).
    Export {
        /// Runs (id, unique prefix, `latest`, or path): one, two (their diff), or more
        /// (compared side by side, as `wasmeter compare`).
        #[arg(required = true, num_args = 1..)]
        runs: Vec<String>,
        /// csv, json, md, html, or hgrm (one run's histograms, one file per variant,
        /// request, rate and correction, into the directory given by -o).
        #[arg(long)]
        format: String,
        /// Output file (`-` for stdout; a directory for hgrm).
        #[arg(short = 'o', long = "output")]
        output: String,
        /// Baseline runtime (default: the run's).
        #[arg(long)]
        baseline: Option<String>,
        /// Noise threshold of the diff, percent (0–100).
        #[arg(long, default_value_t = wasmeter_core::analysis::DEFAULT_THRESHOLD_PCT, allow_negative_numbers = true)]
        threshold: f64,
        /// Normalise by this runtime of each run, or `none` (a diff: none by default, see
        /// `diff`; a comparison: native by default, see `compare`).
        #[arg(long, value_name = "RUNTIME|none")]
        normalize: Option<String>,
        /// Two runs compared as `wasmeter compare` does instead of diffed.
        #[arg(long)]
        compare: bool,
        /// A comparison's columns: by run or by machine.
        #[arg(long, default_value = "run")]
        by: String,
    },
    /// One cell's figure run after run over every saved run (`--results` may be an
    /// s3://bucket/prefix URL), with the points where it changed level (E-Divisive means).
    History(HistoryArgs),
    /// Load an HTTP server on loopback (keep-alive connections, latency percentiles,
    /// requests per second), like wrk.
    Load(LoadArgs),
}

/// Arguments of `wasmeter history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only runs of this suite.
    #[arg(long)]
    pub suite: Option<String>,
    /// Only this test.
    #[arg(long)]
    pub test: Option<String>,
    /// Only this runtime.
    #[arg(long)]
    pub runtime: Option<String>,
    /// Only this machine: a fingerprint prefix, or words of its CPU, architecture or OS.
    #[arg(long)]
    pub machine: Option<String>,
    /// Rows of each series shown as text: the last N runs (0: every run).
    #[arg(long, default_value_t = 20)]
    pub last: usize,
    /// text, csv (one row per run and cell) or json.
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

/// Subcommands of `wasmeter suite`.
#[derive(Debug, Subcommand)]
pub enum SuiteAction {
    /// Run a suite's build script, report how long it took and what it registered.
    Build {
        /// Suite to build (a directory of the suites root with a `build.sh`).
        name: String,
        /// Rebuild even when the build is up to date.
        #[arg(long)]
        force: bool,
    },
}

/// Arguments of `wasmeter plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Where to write the plan.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// What the plan runs: the flags of `wasmeter run`.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `wasmeter run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Your own modules (`.wasm` files, or folders of them), each a test named after its
    /// file, instead of a suite; copied into the run, so it shows, diffs and resumes like
    /// any other. Native runs only a build given with --native; without one, relative
    /// figures are against the first runtime unless --baseline names another.
    #[arg(value_name = "MODULE", conflicts_with_all = ["suite", "resume", "tests", "size"])]
    pub modules: Vec<std::path::PathBuf>,
    /// Arguments every module is run with (after `--`).
    #[arg(last = true, value_name = "ARGS", requires = "modules")]
    pub module_args: Vec<String>,
    /// The output every module must print (stdout without `wasmeter:` lines); without it,
    /// a runtime whose output differs from a majority's fails its cell.
    #[arg(long, value_name = "FILE", requires = "modules")]
    pub expect: Option<std::path::PathBuf>,
    /// An environment variable every module gets (repeat for more); a CLI runtime with no
    /// way to pass one is left out as not applicable.
    #[arg(long = "env", value_name = "KEY=VALUE", requires = "modules")]
    pub module_env: Vec<String>,
    /// A file every module reads as its stdin (copied into the run).
    #[arg(long, value_name = "FILE", requires = "modules")]
    pub stdin: Option<std::path::PathBuf>,
    /// A host folder every module sees, as GUEST (default: as HOST is written); repeat for
    /// more. A runtime that cannot preopen folders is left out as not applicable.
    #[arg(long = "dir", value_name = "HOST[::GUEST]", requires = "modules")]
    pub dirs: Vec<String>,
    /// Call this exported function instead of `_start`, with the arguments after `--` as
    /// its parameters; its results are printed one a line (and cross-checked).
    #[arg(long, value_name = "NAME", requires = "modules")]
    pub invoke: Option<String>,
    /// A native build of the same program as the baseline, run with the same arguments,
    /// environment and stdin (copied into the run): PROGRAM beside one module,
    /// TEST=PROGRAM for one of several; repeat for more.
    #[arg(long, value_name = "[TEST=]PROGRAM", requires = "modules")]
    pub native: Vec<String>,
    /// Suite to run.
    #[arg(long, required_unless_present_any = ["resume", "modules", "plan"])]
    pub suite: Option<String>,
    /// Run a plan file (`wasmeter plan … -o FILE`) as it is: its suite, tests, runtimes and
    /// settings; runtimes this machine lacks are listed as not run here. Its hash is saved
    /// with the run.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "suite", "resume", "modules", "tests", "runtimes", "warmup", "runs", "invocations",
        "order", "seed", "pair", "pair_mode", "precision", "budget", "measure", "timeout", "size", "baseline",
        "memory_mib", "sample_ms",
        "concurrency", "duration", "latency", "ready_timeout", "threads", "cli_inflight",
    ])]
    pub plan: Option<PathBuf>,
    /// Finish an interrupted or cancelled run (id, prefix, `latest` or path): runs only its
    /// missing cells, with the run's own settings.
    #[arg(long, conflicts_with = "suite", value_name = "RUN")]
    pub resume: Option<String>,
    /// Tests to run (comma-separated; default all).
    #[arg(long, value_delimiter = ',')]
    pub tests: Vec<String>,
    /// Runtimes to run on, comma-separated; the groups `embedded`, `cli` and `all` name every
    /// available runtime of that kind (default: all).
    #[arg(long)]
    pub runtimes: Vec<String>,
    /// Warm-up iterations per invocation (default: the suite kind's, shown by `wasmeter
    /// suites SUITE`).
    #[arg(long)]
    pub warmup: Option<u32>,
    /// Measured iterations per invocation (default: the suite kind's, shown by `wasmeter
    /// suites SUITE`).
    #[arg(long)]
    pub runs: Option<u32>,
    /// Fresh worker processes per cell, each doing the warm-ups and runs (default: the
    /// suite kind's, shown by `wasmeter suites SUITE`; intervals count processes, so more
    /// invocations narrow them most). A verdict needs at least 2 and 3 values a side.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub invocations: Option<u32>,
    /// interleaved (default: rounds of every cell's next invocation, shuffled by the seed,
    /// so a slow phase of the machine spreads over all cells) or sequential.
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,
    /// Seed of the interleaved order (default: drawn; saved with the run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Two or more runtimes, or tests, of the run, `A,B[,C…]`, whose invocations run side by
    /// side in every round (in an order drawn each round), so `diff RUN --runtimes A,B` (or
    /// `--tests A,B`) pairs any two of them on the same rounds; `embedded`, `cli` and `all`
    /// name the run's runtimes of that kind.
    #[arg(long, value_name = "A,B[,C…]")]
    pub pair: Vec<String>,
    /// How the --pair arms run: alternate (default for command suites: all in one worker
    /// process, iteration by iteration in a drawn order, so what differs between processes
    /// cancels in their differences) or processes (each arm its own worker, side by side; HTTP and lifecycle
    /// suites and --measure instructions always run so).
    #[arg(long, value_name = "MODE", requires = "pair")]
    pub pair_mode: Option<String>,
    /// Add rounds to the cells whose 95 % interval is wider than ±PCT percent (with
    /// `--pair`: the arms' paired interval) until all meet it, the budget is spent or a cell
    /// has 50 invocations; the run then says which did not and why. A command suite's run
    /// whose rounds are left to wasmeter aims at ±3 % within 10 minutes by default; `off`
    /// runs the planned rounds and no more.
    #[arg(long, value_name = "PCT|off", allow_negative_numbers = true)]
    pub precision: Option<String>,
    /// How long the run may take while it adds rounds for its precision, e.g. 90s, 10m,
    /// 1h30m (the planned rounds always run; none is added once it is spent).
    #[arg(long, value_name = "DURATION")]
    pub budget: Option<String>,
    /// Sweep an engine setting, `ENGINE.NAME=V1,V2` (repeatable): every combination runs as
    /// a runtime of its own, `wasmtime[allocator=pooling,cow=off]`, in place of the engine
    /// (`wasmeter runtimes --settings` lists them).
    #[arg(long = "set", value_name = "ENGINE.NAME=VALUES")]
    pub settings: Vec<String>,
    /// Run a sweep of more than 64 combinations.
    #[arg(long)]
    pub yes: bool,
    /// Sample where each cell's execute phase spends its time, function by function
    /// (command suites; `wasmeter explain RUN` shows it): the kernel's CPU clock HZ times a
    /// second of the guest's CPU time (default 1000; each sample costs a VM about 20 µs),
    /// named by each engine's perf map or the native build's symbols.
    #[arg(long, value_name = "HZ", num_args = 0..=1, default_missing_value = "1000")]
    pub profile: Option<u32>,
    /// time (default), or instructions: also count the instructions of each embedded
    /// runtime's execute phase under Valgrind's callgrind (command suites; tens of times
    /// slower; CLI runtimes and native keep their times). Instruction counts are what such
    /// a run summarises and diffs; noise barely moves them.
    #[arg(long, value_name = "time|instructions")]
    pub measure: Option<String>,
    /// Seconds an iteration may take before its cell is killed (default: the suite's own,
    /// faults' 10 or libsodium's 600, else 60).
    #[arg(long)]
    pub timeout: Option<u64>,
    /// Problem size: quick (default) or full.
    #[arg(long)]
    pub size: Option<String>,
    /// Label stored with the run.
    #[arg(long = "name")]
    pub name: Option<String>,
    /// Baseline runtime for relative figures (default: native; for modules given by path,
    /// which have no native build, the first runtime).
    #[arg(long)]
    pub baseline: Option<String>,
    /// Memory cap per cell in MiB; unset, the run policy's (core's default).
    #[arg(long, help = format!(
        "Memory cap per cell in MiB [default: {}, the run policy's]",
        wasmeter_core::runner::DEFAULT_MEMORY_CAP_MIB
    ))]
    pub memory_mib: Option<u64>,
    /// Live sampling interval in ms (at least 10); unset, the run policy's.
    #[arg(long, help = format!(
        "Live sampling interval in ms, at least 10 [default: {}, the run policy's]",
        wasmeter_core::runner::DEFAULT_SAMPLE_INTERVAL_MS
    ))]
    pub sample_ms: Option<u64>,
    /// Leave out named runtimes that are unavailable (with a warning) instead of failing.
    #[arg(long)]
    pub skip_missing: bool,
    /// HTTP suites: concurrency levels, comma-separated (default 1,10,50,100,200,400).
    #[arg(long, value_delimiter = ',', value_name = "N,N")]
    pub concurrency: Vec<u32>,
    /// HTTP suites: offered rates (open model), requests/s, comma-separated, e.g.
    /// 1000,5000,20000: each loaded for --duration after the concurrency levels, with
    /// latency corrected for coordinated omission, and the knee found (replaces the tests'
    /// own `rates`).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "R,R",
        allow_hyphen_values = true
    )]
    pub rates: Vec<String>,
    /// HTTP suites: the knee's latency objective, the p99 at each rate: 250, 250ms, 0.5s
    /// (default 100 ms).
    #[arg(long = "slo-p99", value_name = "MS", allow_hyphen_values = true)]
    pub slo_p99: Option<String>,
    /// HTTP suites: seconds per iteration for doubling the rate past the highest listed one
    /// while the SLO holds (default 20; 0 measures the listed rates only).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true)]
    pub knee_budget: Option<f64>,
    /// HTTP suites: connections that carry the open-model load (default 64).
    #[arg(long, value_name = "N")]
    pub rate_connections: Option<u32>,
    /// HTTP suites: seconds of load per concurrency level (default 2).
    #[arg(long, value_name = "SECS")]
    pub duration: Option<f64>,
    /// HTTP suites: seconds of one-connection latency measurement (default 1).
    #[arg(long, value_name = "SECS")]
    pub latency: Option<f64>,
    /// HTTP suites: seconds a server may take to answer its first 200 OK (default 20).
    #[arg(long, value_name = "SECS")]
    pub ready_timeout: Option<f64>,
    /// HTTP suites: threads of the gateway server and of the load generator (default 2 each).
    #[arg(long, value_name = "SERVER,CLIENT", value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// HTTP suites: most guest processes a CLI gateway runs at once (default 8).
    #[arg(long, value_name = "N")]
    pub cli_inflight: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `wasmeter load`.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// URL on a loopback address, e.g. http://127.0.0.1:8080/hello.
    pub url: String,
    /// Concurrent connections.
    #[arg(short = 'c', long, default_value_t = 50)]
    pub connections: usize,
    /// Seconds of measured load (ignored with --requests).
    #[arg(short = 'd', long, default_value_t = 10.0)]
    pub duration: f64,
    /// Send exactly this many requests instead of loading for a duration.
    #[arg(short = 'n', long)]
    pub requests: Option<u64>,
    /// Seconds of warm-up before measuring.
    #[arg(long, default_value_t = 0.0)]
    pub warmup: f64,
    /// Constant rate, requests per second in total, with coordinated-omission correction.
    #[arg(short = 'R', long)]
    pub rate: Option<f64>,
    /// Load generator threads.
    #[arg(short = 't', long, default_value_t = 2)]
    pub threads: usize,
    /// Request method.
    #[arg(short = 'X', long, default_value = "GET")]
    pub method: String,
    /// Request body.
    #[arg(long, default_value = "")]
    pub body: String,
    /// Seconds before one request counts as a timeout.
    #[arg(long, default_value_t = 5.0)]
    pub timeout: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `wasmeter features`.
#[derive(Debug, Args)]
pub struct FeaturesArgs {
    /// Runtimes to probe, comma-separated; the groups `embedded`, `cli` and `all` as in
    /// `run` (default: every available runtime).
    #[arg(long)]
    pub runtimes: Vec<String>,
    /// Show a saved matrix instead of probing: run id, prefix, `latest` or path.
    #[arg(long, conflicts_with_all = ["runtimes", "diff"])]
    pub run: Option<String>,
    /// Compare two saved matrices: each runtime × feature whose support changed.
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "runtimes")]
    pub diff: Vec<String>,
    /// text, md, csv, html or json.
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Print JSON (as --format json).
    #[arg(long)]
    pub json: bool,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}
