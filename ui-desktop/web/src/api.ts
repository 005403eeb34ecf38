/**
 * The only module that talks to the Rust side. Every command the desktop shell exposes
 * is wrapped here with its argument keys spelled once, and typed after what the backend
 * serialises. The run's types (what `start_run` takes and streams) are generated from the
 * Rust types into `bindings/` (`cargo test` fails when they drift); the rest are kept
 * here and checked against the commands' real output by the desktop's Rust tests.
 */
import { Channel, invoke } from '@tauri-apps/api/core';
import type { CellSizes } from './bindings/CellSizes';
import type { CellSummary } from './bindings/CellSummary';
import type { ChangeOptions } from './bindings/ChangeOptions';
import type { ChangePoint } from './bindings/ChangePoint';
import type { CliCommand } from './bindings/CliCommand';
import type { CompareCell } from './bindings/CompareCell';
import type { CompareColumn } from './bindings/CompareColumn';
import type { CompareRequest } from './bindings/CompareRequest';
import type { Comparison } from './bindings/Comparison';
import type { Corrected } from './bindings/Corrected';
import type { Diff } from './bindings/Diff';
import type { DiffKey } from './bindings/DiffKey';
import type { DiffRow } from './bindings/DiffRow';
import type { Distribution } from './bindings/Distribution';
import type { Event } from './bindings/Event';
import type { FeatureMatrix } from './bindings/FeatureMatrix';
import type { FeatureSupport } from './bindings/FeatureSupport';
import type { FileDigest } from './bindings/FileDigest';
import type { FormatInfo } from './bindings/FormatInfo';
import type { HeapPoint } from './bindings/HeapPoint';
import type { HeapSeries } from './bindings/HeapSeries';
import type { History } from './bindings/History';
import type { HttpCell } from './bindings/HttpCell';
import type { HttpSettings } from './bindings/HttpSettings';
import type { KneePoint } from './bindings/KneePoint';
import type { LevelPoint } from './bindings/LevelPoint';
import type { LiveBatch } from './bindings/LiveBatch';
import type { Machine } from './bindings/Machine';
import type { Measure } from './bindings/Measure';
import type { MeasurementRow } from './bindings/MeasurementRow';
import type { Metric } from './bindings/Metric';
import type { ModulesSuiteView } from './bindings/ModulesSuiteView';
import type { ModulesView } from './bindings/ModulesView';
import type { NotApplicable } from './bindings/NotApplicable';
import type { PairMode } from './bindings/PairMode';
import type { Phase } from './bindings/Phase';
import type { PickKind } from './bindings/PickKind';
import type { Point } from './bindings/Point';
import type { PolicyView } from './bindings/PolicyView';
import type { Precision } from './bindings/Precision';
import type { RatePoint } from './bindings/RatePoint';
import type { Repetition } from './bindings/Repetition';
import type { Report } from './bindings/Report';
import type { RunChoices } from './bindings/RunChoices';
import type { RunData } from './bindings/RunData';
import type { RunDefaults } from './bindings/RunDefaults';
import type { RunListItem } from './bindings/RunListItem';
import type { RunLoad } from './bindings/RunLoad';
import type { RunMeta } from './bindings/RunMeta';
import type { RunOrder } from './bindings/RunOrder';
import type { RunSettings } from './bindings/RunSettings';
import type { RunStatus } from './bindings/RunStatus';
import type { RunSummary } from './bindings/RunSummary';
import type { RuntimeInfo } from './bindings/RuntimeInfo';
import type { RuntimeKind } from './bindings/RuntimeKind';
import type { RuntimeSummary } from './bindings/RuntimeSummary';
import type { RuntimeView } from './bindings/RuntimeView';
import type { SampleRow } from './bindings/SampleRow';
import type { SaturatedLevel } from './bindings/SaturatedLevel';
import type { Series } from './bindings/Series';
import type { Size } from './bindings/Size';
import type { Stats } from './bindings/Stats';
import type { SuiteKind } from './bindings/SuiteKind';
import type { SuiteShape } from './bindings/SuiteShape';
import type { SuiteView } from './bindings/SuiteView';
import type { Sweep } from './bindings/Sweep';
import { SUITE_SHAPES } from './bindings/suiteShapes';
import type { TestRecord } from './bindings/TestRecord';
import type { TestView } from './bindings/TestView';
import type { TimeoutSource } from './bindings/TimeoutSource';
import type { Unit } from './bindings/Unit';
import type { Verdict } from './bindings/Verdict';
import type { View } from './bindings/View';

// Core's and the commands' types, generated from the Rust ones (`cargo test` fails when
// they drift): the page keeps none of its own.
export type {
  CellSizes,
  CellSummary,
  ChangeOptions,
  ChangePoint,
  CliCommand,
  CompareCell,
  CompareColumn,
  CompareRequest,
  Comparison,
  Corrected,
  Diff,
  DiffKey,
  DiffRow,
  Distribution,
  FeatureMatrix,
  FeatureSupport,
  FileDigest,
  FormatInfo,
  HeapPoint,
  HeapSeries,
  History,
  HttpCell,
  HttpSettings,
  LiveBatch,
  Machine,
  Measure,
  MeasurementRow,
  Metric,
  NotApplicable,
  PairMode,
  Phase,
  PickKind,
  Precision,
  Repetition,
  Report,
  RunChoices,
  RunData,
  RunDefaults,
  RunListItem,
  RunLoad,
  RunMeta,
  RunOrder,
  RunStatus,
  RunSummary,
  RuntimeInfo,
  RuntimeKind,
  RuntimeSummary,
  RuntimeView,
  SampleRow,
  Size,
  Stats,
  SuiteKind,
  SuiteShape,
  Sweep,
  TestRecord,
  TimeoutSource,
  Verdict,
  View,
};
/** The page's names for generated types. */
export type HeapUnit = Unit;
export type HistoryPoint = Point;
export type HistorySeries = Series;
export type HttpKnee = KneePoint;
export type HttpLevel = LevelPoint;
export type HttpRatePoint = RatePoint;
export type HttpSaturatedLevel = SaturatedLevel;
export type ModulesRequest = ModulesView;
export type ModulesSuite = ModulesSuiteView;
export type RunEvent = Event;
export type RunPolicy = PolicyView;
export type RuntimeCommand = CliCommand;
export type SavedHttpSettings = HttpSettings;
export type SavedSettings = RunSettings;
export type SuiteInfo = SuiteView;
export type TestInfo = TestView;

/** The phases of running a WASI command (command suites such as compute): core's. */
export const PHASES: readonly Phase[] = SUITE_SHAPES.command.phases;
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

/** One key for a runtime × test cell, for maps over the cells of a run. */
export const cellKey = (runtime: string, test: string): string => `${runtime}\u0000${test}`;

/** Which cells' history; an absent or blank filter means any. */
export interface HistoryQuery {
  suite?: string;
  test?: string;
  runtime?: string;
  /** A fingerprint prefix, or words of the machine's CPU, architecture or OS. */
  machine?: string;
}

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
 * started; its events then arrive on `onEvents` in batches (one IPC message per burst),
 * each with core's view of the run after it.
 * Returns the channel so a caller can keep it alive.
 */
export async function startRun(
  suite: string,
  choices: RunChoices,
  onEvents: (batch: LiveBatch) => void,
  modules?: ModulesRequest,
): Promise<Channel<LiveBatch>> {
  const on_event = new Channel<LiveBatch>();
  on_event.onmessage = onEvents;
  if (modules) await invoke<null>('start_modules_run', { modules, choices, on_event });
  else await invoke<null>('start_run', { suite, choices, on_event });
  return on_event;
}

/** What a run would do and how long it should take, in core's words; `confirm`: ask before starting it. */
export interface PlanScope {
  text: string;
  confirm: boolean;
}

/** The scope of a run of `suite` with `choices` (core's `runner::scope`, from earlier runs on this machine). */
export function planScope(suite: string, choices: RunChoices): Promise<PlanScope> {
  return invoke<PlanScope>('plan_scope', { suite, choices });
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
  if (thresholdPct !== undefined) args.threshold_pct = thresholdPct;
  if (normalize !== undefined) args.normalize = normalize;
  if (allowBusy !== undefined) args.allow_busy = allowBusy;
  return invoke<Report>('diff_runs', args);
}

/** Runtime `b` against runtime `a` inside run `id`, paired by round (`wasmeter diff RUN --runtimes A,B`). */
export function diffRuntimes(
  id: string,
  a: string,
  b: string,
  thresholdPct?: number,
  of: 'runtimes' | 'tests' = 'runtimes',
): Promise<{ diff: Diff; diff_headline: string }> {
  const args: Record<string, unknown> = { id, a, b };
  if (of === 'tests') args.of = 'tests';
  if (thresholdPct !== undefined) args.threshold_pct = thresholdPct;
  return invoke<{ diff: Diff; diff_headline: string }>('diff_runtimes', args);
}

/**
 * Runs side by side, in the order given (core's `compare_runs`): each relative to its own
 * run's `normalize` runtime (`none`: times as measured; the backend's default, native,
 * when absent), columns titled by run or by machine. Runs of different suites reject.
 */
export function compareRuns(runs: string[], normalize?: string, byMachine?: boolean): Promise<Comparison> {
  const args: Record<string, unknown> = { runs };
  if (normalize !== undefined) args.normalize = normalize;
  if (byMachine !== undefined) args.by_machine = byMachine;
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
  /** A format's id, from `run_policy`'s formats (core's list). */
  format: string;
  baseline?: string;
  threshold_pct?: number;
  /** Export the runs compared (as `compareRuns` takes them) instead of a run or a diff. */
  compare?: CompareRequest;
}

/** The backend asks where to save; resolves to the path written, or null if cancelled. */
export function exportReport(req: ExportRequest): Promise<string | null> {
  const args: Record<string, unknown> = { runs: req.runs, format: req.format };
  if (req.baseline) args.baseline = req.baseline;
  if (req.threshold_pct !== undefined) args.threshold_pct = req.threshold_pct;
  if (req.compare) args.compare = req.compare;
  return invoke<string | null>('export_report', args);
}
