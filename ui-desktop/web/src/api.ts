/**
 * The only module that talks to the Rust side. Every command the desktop shell exposes
 * is wrapped here with its argument keys spelled once, and typed after what the backend
 * serialises. The run's types (what `start_run` takes and streams) are generated from the
 * Rust types into `bindings/` (`cargo test` fails when they drift); the rest are kept
 * here and checked against the commands' real output by the desktop's Rust tests.
 */
import { Channel, invoke } from '@tauri-apps/api/core';
import type { Event } from './bindings/Event';
import type { Metric } from './bindings/Metric';
import type { Phase } from './bindings/Phase';
import type { RunChoices } from './bindings/RunChoices';
import type { RunDefaults } from './bindings/RunDefaults';
import type { RunOrder } from './bindings/RunOrder';
import type { RunStatus } from './bindings/RunStatus';
import type { SampleRow } from './bindings/SampleRow';
import type { Size } from './bindings/Size';
import type { SuiteKind } from './bindings/SuiteKind';

export type { HttpSettings } from './bindings/HttpSettings';
export type { Measure } from './bindings/Measure';
export type { MeasurementRow } from './bindings/MeasurementRow';
export type { Metric } from './bindings/Metric';
export type { PairMode } from './bindings/PairMode';
export type { Phase } from './bindings/Phase';
export type { Precision } from './bindings/Precision';
export type { Repetition } from './bindings/Repetition';
export type { RunChoices } from './bindings/RunChoices';
export type { RunDefaults } from './bindings/RunDefaults';
export type { RunOrder } from './bindings/RunOrder';
export type { RunStatus } from './bindings/RunStatus';
export type { SampleRow } from './bindings/SampleRow';
export type { Size } from './bindings/Size';
export type { SuiteKind } from './bindings/SuiteKind';
/** What the runner streams while a run is in flight (core's `Event`); arrives in batches. */
export type RunEvent = Event;

// ---------------------------------------------------------------- catalog

/** How a runtime runs a guest. Custom runtimes may bring other kinds later. */
export type RuntimeKind = 'native' | 'embedded' | 'cli' | (string & {});

/** The command line of an external (CLI) runtime. */
export interface RuntimeCommand {
  run: string[];
  precompile: string[] | null;
}

/** A runtime wasmeter knows, available or not. */
export interface RuntimeInfo {
  id: string;
  kind: RuntimeKind;
  version: string;
  config: string;
  /** Why it cannot run here; null when available. */
  unavailable: string | null;
  /** How to install it. */
  hint?: string | null;
  command?: RuntimeCommand | null;
}

/**
 * A runtime as `list_runtimes` lists it: what core knows of it, and the suites (by name)
 * it does not apply to with why (core's `applicability`), which the setup shows disabled.
 */
export interface RuntimeView extends RuntimeInfo {
  not_applicable: Record<string, string>;
}

export interface TestInfo {
  name: string;
  description: string;
  tags: string[];
}

export interface SuiteInfo {
  name: string;
  description: string;
  /** From the manifest. */
  kind: SuiteKind;
  /** What a run of it does where the user changes nothing (core's `RunDefaults`). */
  defaults: RunDefaults;
  tests: TestInfo[];
  /**
   * Set for a suite whose manifest does not load: why, naming the file and line. It has
   * no tests and cannot run; the other suites list and run.
   */
  error?: string;
}

/** Constants of core's policy (`run_policy`). */
export interface RunPolicy {
  /** The diff's noise threshold when the user sets none, percent. */
  threshold_pct: number;
  /** Fewest invocations and values a side a diff needs for a verdict. */
  min_invocations: number;
  min_values: number;
}

// ---------------------------------------------------------------- runs

/**
 * Modules given by path and how they run, as `wasmeter run FILE.wasm|DIR…` takes them
 * (`check_modules`, `start_modules_run`; a run of them sends `suite: 'modules'`).
 */
export interface ModulesRequest {
  /** `.wasm` files and folders of them. */
  paths: string[];
  /** Arguments after the program name. */
  args: string[];
  /** KEY=VALUE. */
  env: string[];
  /** A file every module reads as its stdin. */
  stdin?: string;
  /** The output every runtime must print. */
  expect?: string;
  /** Host folders the guests see, HOST[::GUEST]. */
  dirs: string[];
  /** An exported function called instead of `_start`. */
  invoke?: string;
  /** Native builds: PROGRAM, or TEST=PROGRAM. */
  native: string[];
}

/** The suite modules given by path make: its tests and defaults, and who cannot run it. */
export interface ModulesSuite extends Omit<SuiteInfo, 'error'> {
  /** Runtime id → why it cannot run these modules with these options. */
  not_applicable: Record<string, string>;
}

/** What the open-file dialog picks: `.wasm` modules, a folder, or one file. */
export type PickKind = 'modules' | 'folder' | 'file';

/** The phases of running a WASI command (command suites such as compute). */
export const PHASES: readonly Phase[] = ['compile', 'instantiate', 'execute', 'teardown', 'total'];
/** The phases of an instance's life (the lifecycle suite), in the order they happen. */
export const LIFECYCLE_PHASES: readonly Phase[] = ['compile', 'load', 'instantiate', 'first_instantiate', 'call', 'first_call', 'teardown'];
/** Every phase, in the backend's order (`Phase::ALL`). */
export const ALL_PHASES: readonly Phase[] = [
  'compile',
  'load',
  'instantiate',
  'first_instantiate',
  'execute',
  'call',
  'first_call',
  'teardown',
  'total',
];

export interface TestRecord {
  name: string;
  source_hash: string;
  /** Bytes of the module, for modules given by path and prebuilt programs. */
  module_bytes?: number;
  /** Bytes of the native build beside the module. */
  native_bytes?: number;
  /** Whether the module ran as given, with no size argument. */
  as_given?: boolean;
}

/** One cell's peak resident memory and its engine's compiled artifact. */
export interface CellSizes {
  runtime: string;
  test: string;
  peak_rss_bytes: number | null;
  artifact_bytes: number | null;
}

/** Settings as saved with a run. */
export interface SavedSettings {
  /** Per invocation. */
  warmup: number;
  /** Per invocation. */
  runs: number;
  /** Worker processes per cell (runs from before: absent, one). */
  invocations?: number;
  order?: RunOrder;
  /** Seed of the interleaved order. */
  seed?: number;
  timeout_secs: number;
  memory_cap_bytes: number;
  sample_interval_ms: number;
  size: Size;
  baseline: string;
  /** HTTP runs: how each server was loaded. */
  http?: SavedHttpSettings;
}

/** HTTP runs: the load settings saved with the run. */
export interface SavedHttpSettings {
  levels: number[];
  duration_ms: number;
  latency_ms: number;
  server_threads: number;
  client_threads: number;
  cli_inflight: number;
  ready_timeout_ms: number;
  /** Offered rates (open model), requests/s; absent when none. */
  rates?: number[];
  /** The knee's SLO: p99 in ms (absent in runs from before rates). */
  slo_p99_ms?: number;
  /** Connections carrying the open-model load. */
  rate_connections?: number;
  /** Time per iteration for stepping the rate up, ms. */
  knee_budget_ms?: number;
}

export interface Machine {
  cpu_model: string;
  cores: number;
  os: string;
  kernel: string;
  governor: string | null;
  memory_bytes: number;
  arch: string;
  fingerprint: string;
}

/** A runtime a run left out because its suite does not apply to it. */
export interface NotApplicable {
  runtime: string;
  why: string;
}

/** A saved run's metadata (meta.json). */
export interface RunMeta {
  schema_version?: number;
  id: string;
  label: string | null;
  suite: string;
  /** Absent for command suites. */
  suite_kind?: SuiteKind;
  tests: TestRecord[];
  runtimes: RuntimeInfo[];
  not_applicable?: NotApplicable[];
  settings: SavedSettings;
  machine: Machine;
  wasmeter_version: string;
  started_unix: number;
  finished_unix: number | null;
  status: RunStatus;
  pid: number;
}

/** A run directory as listed: metadata, or why it could not be read. */
export interface RunListItem {
  id: string;
  meta: RunMeta | null;
  error: string | null;
}

// ---------------------------------------------------------------- reports

export interface Stats {
  n: number;
  min: number;
  max: number;
  median: number;
  mean: number;
  stddev: number;
  mad: number;
  p90: number;
  p99: number;
  ci_low: number | null;
  ci_high: number | null;
}

/** One runtime × test cell of a run, summarised against the baseline. */
export interface CellSummary {
  runtime: string;
  test: string;
  /** Which value is primary: "self" (guest-timed), "wall" (execute phase), "process" (whole process or iteration) or "instructions". */
  source: string;
  /** The phase the primary time is of; absent means "execute" (lifecycle: "instantiate"). */
  primary_phase?: string;
  stats: Stats | null;
  /** The figure shown: what the 95 % interval is of (geometric mean over invocations); absent in runs saved before it. */
  typical?: number | null;
  relative: number | null;
  relative_low: number | null;
  relative_high: number | null;
  startup_ns: number | null;
  /** Median per phase, ns. */
  phases: Partial<Record<Phase, number>>;
  phase_stats: Partial<Record<Phase, Stats>>;
  /** Lifecycle suite: measurements that are not times, by metric (absent when none). */
  metrics?: Partial<Record<Metric, Stats>>;
  failure: string | null;
  /** Invocations (worker processes) the primary values came from. */
  invocations?: number;
  /**
   * An interrupted or cancelled run's cell that ended fewer invocations than planned: its
   * values are shown, but it has no relative value and is out of the geomean.
   */
  partial?: boolean;
  /**
   * Half the width of the median's 95 % interval, percent of the median: the smallest
   * change this run could detect.
   */
  halfwidth_pct?: number | null;
  /** Why `relative` is missing ("baseline native failed", "not comparable: …", "partial: …"). */
  note?: string;
}

export interface RuntimeSummary {
  runtime: string;
  geomean_relative: number | null;
  /** Tests in the geomean. */
  tests_compared: number;
  /** Tests in the run: a geomean over fewer says so. */
  tests_total?: number;
  failed: number;
}

export interface RunSummary {
  run_id: string;
  baseline: string;
  tests: string[];
  runtimes: string[];
  cells: CellSummary[];
  per_runtime: RuntimeSummary[];
  /** Cores other processes took during the run; absent for runs saved before it was recorded. */
  load?: RunLoad | null;
}

/** How busy the machine was with other processes; core decides `busy` (a diff with the run gives no verdicts). */
export interface RunLoad {
  other_cores: number;
  cores: number;
  busy: boolean;
}

/** One key for a runtime × test cell, for maps over the cells of a run. */
export const cellKey = (runtime: string, test: string): string => `${runtime}\u0000${test}`;

export interface Distribution {
  runtime: string;
  test: string;
  values: number[];
}

/** One point of a heap series. */
export interface HeapPoint {
  test: string;
  heap_bytes: number;
  median: number;
  p99: number;
}

/** Lifecycle suite: one runtime's measurement against initial heap size, for one fill. */
export interface HeapSeries {
  runtime: string;
  /** A phase (times) or metric name. */
  measure: string;
  unit: 'ns' | 'bytes' | 'per_sec';
  fill: 'dense' | 'sparse';
  /** By growing heap size. */
  points: HeapPoint[];
}

/** HTTP runs: one concurrency level of one cell (medians over the iterations). */
export interface HttpLevel {
  connections: number;
  /** Requests per second. */
  rps: Stats;
  p50_ns: number | null;
  p99_ns: number | null;
  /** Server CPU time per 1,000 requests, ns. */
  cpu_ns_per_1k: number | null;
  /** Peak resident memory of the server under this load. */
  rss_bytes: number | null;
  /** Failed requests, summed over iterations. */
  errors: number;
  /** Iterations at which this level saturated (fewer than half; rps is over the others). */
  saturated_iterations?: number;
}

/**
 * HTTP runs: a level at which no request completed within the load's duration (in at
 * least half of the iterations): the server cannot keep up. A bound, never a rate: not in
 * `levels`, not drawn as a point.
 */
export interface HttpSaturatedLevel {
  connections: number;
  /** Throughput was below this many requests per second (1 / duration). */
  below_rps: number;
  /** Iterations at which it saturated, of `of`. */
  iterations: number;
  of: number;
  /** Failed requests (timeouts), summed over iterations. */
  errors: number;
}

/** HTTP runs: one server variant (runtime) × request (test). */
export interface HttpCell {
  runtime: string;
  test: string;
  /** Spawn to first 200 OK, ns. */
  cold_start: Stats | null;
  /** Latency over one keep-alive connection, ns. */
  p50_ns: number | null;
  p90_ns: number | null;
  p99_ns: number | null;
  /** Levels that served requests, by ascending connections. */
  levels: HttpLevel[];
  /** Levels that saturated, by ascending connections (absent in reports from before). */
  saturated?: HttpSaturatedLevel[];
  /** [connections, requests/s] of the best level. */
  best: [number, number] | null;
  /** Best requests/s over the baseline's best (higher is better). */
  best_vs_baseline: number | null;
  peak_rss_kib: number | null;
  /** Open-model levels by ascending offered rate (absent without rates). */
  rates?: HttpRatePoint[];
  /** The knee of the rates (absent without rates). */
  knee?: HttpKnee;
  failure: string | null;
}

/** One offered rate of a cell; medians over iterations. */
export interface HttpRatePoint {
  offered: number;
  achieved: number | null;
  /** p50, p90, p99, p99.9 corrected for coordinated omission, ns. */
  corrected_ns: [number | null, number | null, number | null, number | null];
  /** The same timed from the actual write, ns. */
  uncorrected_ns: [number | null, number | null, number | null, number | null];
  errors: number;
  timeouts: number;
  cpu_ns_per_1k: number | null;
  rss_bytes: number | null;
  /** The load generator could start only this many requests/s: the rate is beyond it. */
  generator_bound_rps: number | null;
  /** Requests due in the measured phase but never started, per iteration; absent when all were. */
  unsent?: number | null;
  met_slo: boolean;
}

/** The highest offered rate whose p99 met the SLO. */
export interface HttpKnee {
  rps: number | null;
  /** Even the lowest rate broke the SLO: the knee is below this. */
  below_rps: number | null;
  /** No rate broke the SLO: the knee is at least `rps`. */
  unbroken: boolean;
  slo_p99_ms: number;
}

/** A run as a report carries it: metadata, summary, iteration values, samples. */
export interface RunData extends RunMeta {
  summary: RunSummary;
  distributions: Distribution[];
  samples: SampleRow[];
  /** Lifecycle runs only (left out when empty). */
  heap_series?: HeapSeries[];
  /** HTTP runs only (left out when empty). */
  http?: HttpCell[];
  /** Each cell's peak memory and compiled artifact (absent in reports before it). */
  cell_sizes?: CellSizes[];
}

/**
 * A row's conclusion: `insufficient data` (too few values or invocations a side, or a
 * partial cell) and `not comparable` (timing sources differ) are never a change.
 */
export type Verdict = 'faster' | 'slower' | 'no change' | 'insufficient data' | 'not comparable';

export interface DiffRow {
  runtime: string;
  test: string;
  phase: string;
  a_median: number;
  b_median: number;
  /** A's and B's typical values (geometric means over invocations): what the ratio is of and
   * what the table shows; absent in diffs saved before they were recorded. */
  a_typical?: number | null;
  b_typical?: number | null;
  /** Rounds paired (a comparison inside one run). */
  pairs?: number | null;
  /** B over A (each relative to its run's reference when normalised); null when not comparable. */
  ratio: number | null;
  /** The ratio's 95 % interval; null without enough data. */
  ci_low: number | null;
  ci_high: number | null;
  /** Half the interval's width, percent of the ratio: the smallest change the row could detect. */
  halfwidth_pct: number | null;
  /** p-value of "no change beyond the threshold", adjusted over the diff's rows (Benjamini–Hochberg). */
  p_adjusted: number | null;
  verdict: Verdict;
  /** Why there is no verdict, or how the row was compared when it differs from the rest. */
  note?: string;
  /** Measured values in A and B. */
  n: [number, number];
  /** Invocations in A and B. */
  invocations: [number, number];
}

export interface DiffKey {
  runtime: string;
  test: string;
  phase: string;
}

/** Run B against run A. */
export interface Diff {
  a: string;
  b: string;
  threshold_pct: number;
  /** The runtime each side was taken relative to before comparing; null when not normalised. */
  normalize: string | null;
  /** False discovery rate of the verdicts (Benjamini–Hochberg over the rows). */
  alpha: number;
  /** Why the comparison may mislead (machines, versions, sources differ). */
  warnings: string[];
  rows: DiffRow[];
  only_a: DiffKey[];
  only_b: DiffKey[];
  /** How the rows were compared, in core's words (`Diff::method`). */
  method: string;
}

/** One run as a column of a comparison. */
export interface CompareColumn {
  /** The run id, or the machine (CPU, architecture, OS; the run id added when two share one). */
  title: string;
  run: string;
  /** Machine fingerprint. */
  machine: string;
  /** The plan the run came from, if any. */
  plan_hash: string | null;
}

/** One runtime × test × run figure of a comparison. */
export interface CompareCell {
  runtime: string;
  test: string;
  /** Index into `Comparison.columns`. */
  column: number;
  /** Relative to the column's reference runtime; not normalised: the typical time, ns. */
  value: number | null;
  /** Its 95 % interval. */
  low: number | null;
  high: number | null;
  /** Why there is no value (failed, not in this run, no reference in this run). */
  note: string | null;
}

/** Many runs side by side (core's `Comparison`, what `wasmeter compare --format json` prints). */
export interface Comparison {
  suite: string;
  /** What the values are, in core's words ("relative to native of the same run", "typical time …"). */
  unit: string;
  /** One per run, in the order asked. */
  columns: CompareColumn[];
  /** Runtimes and tests in first-seen order. */
  runtimes: string[];
  tests: string[];
  /** Test-major, then runtime, then column. */
  cells: CompareCell[];
  /** Per runtime, each column's geometric mean of its relative figures; empty when not normalised. */
  geomeans: [runtime: string, perColumn: (number | null)[]][];
  /** What differs between the runs: plans, machines, runtime versions. */
  warnings: string[];
}

/** One run's figure for a cell (core's `history::Point`). */
export interface HistoryPoint {
  run: string;
  /** When the run started, Unix seconds. */
  started_unix: number;
  /** The typical time, ns: the geometric mean over invocations (the median when there is one). */
  value: number;
  /** Its 95 % interval, ns; null without one. */
  low: number | null;
  high: number | null;
  median: number;
  invocations: number;
  /** The runtime's version in that run. */
  version: string | null;
  /** Fewer invocations gave values than planned (a cancelled run): left out of change points. */
  partial: boolean;
  /** Other processes took more than a quarter of the machine during the run: left out of change points. */
  busy: boolean;
}

/** Where a series changed level (core's `ChangePoint`): the new level starts at point `index`. */
export interface ChangePoint {
  index: number;
  /** Medians of the segments before and from it, ns. */
  before: number;
  after: number;
  /** after / before − 1, percent. */
  change_pct: number;
  p_value: number;
}

/** One cell on one machine, measured one way, over time (core's `history::Series`). */
export interface HistorySeries {
  suite: string;
  test: string;
  runtime: string;
  /** Machine fingerprint. */
  machine: string;
  /** CPU, architecture and OS, for people. */
  machine_label: string;
  phase: string;
  source: string;
  /** The runs' problem size (quick, full). */
  size: string;
  /** The plan file the runs came from; null: runs made without one. */
  plan_hash: string | null;
  /** Oldest first. */
  points: HistoryPoint[];
  /** Earliest first. */
  changes: ChangePoint[];
}

/** How change points were searched for (core's `ChangeOptions`). */
export interface ChangeOptions {
  min_segment: number;
  permutations: number;
  alpha: number;
  threshold_pct: number;
  seed: number;
}

/** A cell's history over every saved run (core's `History`, what `wasmeter history --format json` prints). */
export interface History {
  results: string;
  runs_read: number;
  /** Runs left out, with why (unfinished, damaged). */
  skipped: string[];
  /** How the history was read, when worth saying (an index made afresh). */
  notes: string[];
  changes: ChangeOptions;
  /** One per suite × test × runtime × machine × timing source × size × plan. */
  series: HistorySeries[];
}

/** Which cells' history; an absent or blank filter means any. */
export interface HistoryQuery {
  suite?: string;
  test?: string;
  runtime?: string;
  /** A fingerprint prefix, or words of the machine's CPU, architecture or OS. */
  machine?: string;
}

/** What load_run and diff_runs return: the same document the exporters write. */
export interface Report {
  title: string;
  generated_by: string;
  runs: RunData[];
  diff: Diff | null;
}

export type ExportFormat = 'csv' | 'json' | 'md' | 'html';

// ---------------------------------------------------------------- errors

export type ErrorCode = 'invalid_input' | 'not_found' | 'corrupt' | 'busy' | 'io' | (string & {});

/** How every failed command rejects. */
export interface CommandError {
  code: ErrorCode;
  message: string;
}

export function isCommandError(e: unknown): e is CommandError {
  return (
    typeof e === 'object' && e !== null && typeof (e as CommandError).code === 'string' && typeof (e as CommandError).message === 'string'
  );
}

/** One line for any rejection: a command error, an Error, a string, anything. */
export function errorMessage(e: unknown): string {
  if (isCommandError(e)) return e.message;
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}

/** True inside the Tauri webview; false when the page was opened in a plain browser. */
export function hasBackend(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

// ---------------------------------------------------------------- commands

export function listRuntimes(): Promise<RuntimeView[]> {
  return invoke<RuntimeView[]>('list_runtimes');
}

export function listSuites(): Promise<SuiteInfo[]> {
  return invoke<SuiteInfo[]>('list_suites');
}

/** Core's policy constants: the diff's default threshold, what a verdict needs. */
export function runPolicy(): Promise<RunPolicy> {
  return invoke<RunPolicy>('run_policy');
}

/**
 * Starts a run of `suite` with `choices` (core's `RunChoices`: what is left out, core
 * decides), or of the modules given by path when `modules` is given. Resolves once it
 * started; its events then arrive on `onEvents` in batches (one IPC message per burst).
 * Returns the channel so a caller can keep it alive.
 */
export async function startRun(
  suite: string,
  choices: RunChoices,
  onEvents: (batch: RunEvent[]) => void,
  modules?: ModulesRequest,
): Promise<Channel<RunEvent[]>> {
  const on_event = new Channel<RunEvent[]>();
  on_event.onmessage = onEvents;
  if (modules) await invoke<null>('start_modules_run', { modules, choices, on_event });
  else await invoke<null>('start_run', { suite, choices, on_event });
  return on_event;
}

/**
 * What modules given by path become with these options (their tests, and the runtimes
 * that cannot run them, with why); rejects with one line naming the path or value at fault.
 */
export function checkModules(modules: ModulesRequest): Promise<ModulesSuite> {
  return invoke<ModulesSuite>('check_modules', { modules });
}

/** Opens the open-file dialog; resolves to the paths picked, none when cancelled. */
export function pickPaths(what: PickKind): Promise<string[]> {
  return invoke<string[]>('pick_paths', { what });
}

/** Cancels the run in flight; false when nothing was running. */
export function cancelRun(): Promise<boolean> {
  return invoke<boolean>('cancel_run');
}

/** Saved runs, newest first, broken ones included with their error. */
export function listRuns(): Promise<RunListItem[]> {
  return invoke<RunListItem[]>('list_runs');
}

export function loadRun(id: string, baseline?: string): Promise<Report> {
  return invoke<Report>('load_run', baseline ? { id, baseline } : { id });
}

/**
 * Run `b` against run `a`. `normalize`: `none`, or a runtime each side is taken relative
 * to (cancels a machine uniformly faster or slower during one run); the backend's default
 * when absent.
 */
export function diffRuns(a: string, b: string, thresholdPct?: number, normalize?: string, allowBusy?: boolean): Promise<Report> {
  const args: Record<string, unknown> = { a, b };
  if (thresholdPct !== undefined) args.thresholdPct = thresholdPct;
  if (normalize !== undefined) args.normalize = normalize;
  if (allowBusy !== undefined) args.allowBusy = allowBusy;
  return invoke<Report>('diff_runs', args);
}

/**
 * Runs side by side, in the order given (core's `compare_runs`): each relative to its own
 * run's `normalize` runtime (`none`: times as measured; the backend's default, native,
 * when absent), columns titled by run or by machine. Runs of different suites reject.
 */
export function compareRuns(runs: string[], normalize?: string, byMachine?: boolean): Promise<Comparison> {
  const args: Record<string, unknown> = { runs };
  if (normalize !== undefined) args.normalize = normalize;
  if (byMachine !== undefined) args.byMachine = byMachine;
  return invoke<Comparison>('compare_runs', args);
}

/**
 * Every series of the cells asked for, points oldest first, with core's change points
 * (core's `history` over the results directory). Blank filters are left out.
 */
export function history(q: HistoryQuery): Promise<History> {
  const args: Record<string, unknown> = {};
  for (const k of ['suite', 'test', 'runtime', 'machine'] as const) {
    const v = q[k]?.trim();
    if (v) args[k] = v;
  }
  return invoke<History>('history', args);
}

export function deleteRun(id: string): Promise<null> {
  return invoke<null>('delete_run', { id });
}

export interface ExportRequest {
  /** One run, or two (A, B) to export with their diff, or two or more to compare. */
  runs: string[];
  format: ExportFormat;
  baseline?: string;
  thresholdPct?: number;
  /** Export the runs compared (as `compareRuns` takes them) instead of a run or a diff. */
  compare?: { normalize: string; byMachine: boolean };
}

/** The backend asks where to save; resolves to the path written, or null if cancelled. */
export function exportReport(req: ExportRequest): Promise<string | null> {
  const args: Record<string, unknown> = { runs: req.runs, format: req.format };
  if (req.baseline) args.baseline = req.baseline;
  if (req.thresholdPct !== undefined) args.thresholdPct = req.thresholdPct;
  if (req.compare) args.compare = req.compare;
  return invoke<string | null>('export_report', args);
}
