/**
 * The live run as the page holds it: core's view of the run (`LiveView`, folded from the
 * runner's events by core's `LiveRun` in the backend, the reducer the TUI uses too), merged
 * batch by batch, next to what only the page knows (its start, a refused start, a cancel
 * asked for, the last resource sample). Progress, ETA, cell statuses, figures and ratios
 * are core's: nothing here computes them.
 */
import { cellKey, type LiveBatch, type SampleRow, type SuiteKind } from '../api';
import type { CellStatus as CoreCellStatus } from '../bindings/CellStatus';
import type { CellView } from '../bindings/CellView';
import type { Position } from '../bindings/Position';
import type { Progress } from '../bindings/Progress';
import type { RunState as CoreRunState } from '../bindings/RunState';
import { shapeOf } from '../shape';

/** Core's run states, and `idle` before a run. */
export type RunState = 'idle' | CoreRunState;
/** Core's: `queued` between invocations, `partial` when the run ended between them. */
export type CellStatus = CoreCellStatus;

/** One cell as core shows it (its `CellView`), in the page's names. */
export interface LiveCell {
  runtime: string;
  test: string;
  status: CellStatus;
  /** Iterations done over its invocations, warm-ups included. */
  done: number;
  /** The invocation running now, or last started (from 0). */
  invocation: number;
  /** Invocations that ended. */
  invocationsEnded: number;
  failure: string | null;
  wallMs: number | null;
  /** Its figure: final once it ended, from the values so far (interim) while it runs. */
  value: number | null;
  /** Over the baseline's figure for the same test (suites with a baseline). */
  ratio: number | null;
  /** The figure (or the baseline's) is from a cell not finished yet: it will move. */
  interim: boolean;
  /** Where the figure comes from (core's primary source key). */
  source: string | null;
}

export interface LiveState {
  state: RunState;
  runId: string | null;
  /** The runtime ratios are taken against, as the plan says. */
  baseline: string;
  /** The suite being run, when the page started the run. */
  suite: string | null;
  /** Its kind, as the plan says (null until it arrives). */
  suiteKind: SuiteKind | null;
  cells: LiveCell[];
  /** Cell index by `cellKey(runtime, test)`. */
  index: Record<string, number>;
  /** Over all a cell's invocations. */
  iterationsPerCell: number;
  /** Worker processes per cell. */
  invocations: number;
  finishedCells: number;
  failedCells: number;
  /** The cell running now. */
  current: number | null;
  /** The other arm of an alternating pair, running in the same worker as `current`. */
  alongside: number | null;
  /** Core's progress, time left (ms) and position of the run. */
  progress: Progress;
  eta: number | null;
  position: Position;
  lastSample: SampleRow | null;
  samples: number;
  /** Failed cells as the runner counted them at the end. */
  failedReported: number | null;
  error: string | null;
  cancelling: boolean;
}

/** The page's own actions, and the backend's batches. */
export type LiveAction =
  | { type: 'batch'; batch: LiveBatch }
  | { type: 'begin'; suite?: string }
  | { type: 'startFailed'; message: string }
  | { type: 'cancelRequested' };

export function initialState(suite: string | null = null): LiveState {
  return {
    state: 'idle',
    runId: null,
    baseline: '',
    suite,
    suiteKind: null,
    cells: [],
    index: {},
    iterationsPerCell: 0,
    invocations: 1,
    finishedCells: 0,
    failedCells: 0,
    current: null,
    alongside: null,
    progress: { done: 0, total: 0, fraction: 0 },
    eta: null,
    position: { at: 0, of: 0, invocation: 0, invocations: 1, round: null, in_round: 0 },
    lastSample: null,
    samples: 0,
    failedReported: null,
    error: null,
    cancelling: false,
  };
}

function cellOf(v: CellView): LiveCell {
  return {
    runtime: v.runtime,
    test: v.test,
    status: v.status,
    done: v.done,
    invocation: v.invocation,
    invocationsEnded: v.invocations_ended,
    failure: v.failure,
    wallMs: v.wall_ms,
    value: v.value,
    ratio: v.ratio,
    interim: v.interim,
    source: v.source,
  };
}

/** Merges one batch: core's view replaces the run's state, its cells those of the same index. */
function merge(s: LiveState, { events, view }: LiveBatch): LiveState {
  let { cells, index } = s;
  // A new plan (or the first view of it) carries every cell.
  if (view.run_id !== s.runId || cells.length !== view.cell_count) {
    cells = new Array<LiveCell>(view.cell_count);
    index = {};
  } else if (view.cells.length > 0) {
    cells = cells.slice();
  }
  for (const v of view.cells) {
    cells[v.index] = cellOf(v);
    index[cellKey(v.runtime, v.test)] = v.index;
  }
  let { lastSample, samples } = s;
  for (const e of events) {
    if (e.type === 'sample') {
      lastSample = e.sample;
      samples++;
    }
  }
  return {
    ...s,
    state: view.state,
    runId: view.run_id,
    suite: view.suite,
    suiteKind: view.suite_kind,
    baseline: view.baseline,
    cells,
    index,
    iterationsPerCell: view.iterations_per_cell,
    invocations: view.invocations,
    finishedCells: view.finished_cells,
    failedCells: view.failed_cells,
    current: view.current,
    alongside: view.alongside,
    progress: view.progress,
    eta: view.eta_ms,
    position: view.position,
    lastSample,
    samples,
    failedReported: view.failed_reported,
    error: view.error,
    cancelling: s.cancelling && view.state === 'running',
  };
}

/** Folds one action into the state. */
export function reduce(s: LiveState, a: LiveAction): LiveState {
  switch (a.type) {
    case 'begin':
      return { ...initialState(a.suite ?? null), state: 'running' };
    case 'startFailed':
      return { ...s, state: 'error', error: a.message, current: null, alongside: null, cancelling: false };
    case 'cancelRequested':
      return s.state === 'running' ? { ...s, cancelling: true } : s;
    case 'batch':
      return merge(s, a.batch);
    default:
      return s;
  }
}

// ---------------------------------------------------------------- derived views

export function inFlight(s: LiveState): boolean {
  return s.state === 'running';
}

export interface LiveMatrixCell {
  status: CellStatus;
  /** Invocations that ended, of the run's invocations per cell. */
  invocationsEnded: number;
  /** Core's figure; while the cell runs, from the values so far. */
  value: number | null;
  /** Over the baseline's value for the same test (never for lifecycle runs). */
  ratio: number | null;
  /** The value (or the baseline's) is from a cell not finished yet: it will move. */
  interim: boolean;
  failure: string | null;
}

export interface LiveMatrix {
  tests: string[];
  runtimes: string[];
  /**
   * A lifecycle run: medians are instantiate times per operation, shown as they are
   * (the suite has no native baseline to be relative to).
   */
  lifecycle: boolean;
  cell(runtime: string, test: string): LiveMatrixCell | null;
}

/** Tests × runtimes in plan order, each cell as core shows it. */
export function liveMatrix(s: LiveState): LiveMatrix {
  const tests = new Set<string>();
  const runtimes = new Set<string>();
  for (const c of s.cells) {
    tests.add(c.test);
    runtimes.add(c.runtime);
  }
  return {
    tests: [...tests],
    runtimes: [...runtimes],
    lifecycle: shapeOf(s.suiteKind).lifecycle,
    cell(runtime, test) {
      const i = s.index[cellKey(runtime, test)];
      const c = i === undefined ? undefined : s.cells[i];
      if (!c) return null;
      const { status, invocationsEnded, value, ratio, interim, failure } = c;
      return { status, invocationsEnded, value, ratio, interim, failure };
    },
  };
}
