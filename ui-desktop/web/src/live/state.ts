/**
 * The live run as a pure reducer: every runner event (and the page's own start / cancel
 * actions) folds into a new state, with the clock passed in, so the progress, ETA, cell
 * statuses and live values can be tested from a scripted event sequence. A cell runs in
 * several worker processes (invocations); with the interleaved order other cells run in
 * between, so a cell is `queued` between its invocations (with how many ended) and only
 * `done` after its last one.
 */
import { cellKey, type MeasurementRow, type RunEvent, type RunStatus, type SampleRow, type SuiteKind } from '../api';
import { PRIMARY_SOURCES } from '../bindings/primarySources';
import { median } from '../format';
import { shapeOf } from '../shape';

export type RunState = 'idle' | 'running' | 'complete' | 'cancelled' | 'interrupted' | 'error';
/**
 * `queued`: between invocations, some ended; `partial`: the run ended between them (its
 * values are kept, but it is left out of relative figures, as the saved summary does).
 */
export type CellStatus = 'pending' | 'running' | 'queued' | 'done' | 'failed' | 'partial';

/**
 * Where the primary value of a cell came from, best first: core's `PRIMARY_SOURCES`
 * (generated), the summary's rule — instructions, guest self-time, wall execute, wall
 * total, else (lifecycle suite) wall instantiate, else (HTTP suites) the request latency
 * over one connection — each with the statistic the saved run shows for it.
 */
export type PrimarySource = (typeof PRIMARY_SOURCES)[number]['key'];

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
  /** Measured (non-warm-up) values, ns: self-timed execute, wall execute, wall total, wall instantiate. */
  self: number[];
  wall: number[];
  total: number[];
  instantiate: number[];
  /** HTTP cells: median latency over one connection of each iteration. */
  latency?: number[];
  /** Instructions counted (`--measure instructions`). */
  instructions?: number[];
  /** The invocation (from 0) of each value above, per slot, in the same order. */
  at?: Partial<Record<PrimarySource, number[]>>;
  /**
   * The primary value once the cell finished successfully: the saved summary's own
   * statistic for it (see [`primary`]), so the live table and the run detail agree.
   */
  value: number | null;
  source: PrimarySource | null;
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
  /** Clock (ms) when the plan arrived, when the last cell finished, and of the last progress. */
  startedAt: number | null;
  lastFinishedAt: number | null;
  lastProgressAt: number | null;
  finishedCells: number;
  failedCells: number;
  /** The cell running now. */
  current: number | null;
  /** The other arm of an alternating pair, running in the same worker as `current`. */
  alongside: number | null;
  lastSample: SampleRow | null;
  samples: number;
  /** Failed cells as the runner counted them at the end. */
  failedReported: number | null;
  error: string | null;
  cancelling: boolean;
}

/** The page's own actions next to the runner's events. */
export type LiveAction =
  | RunEvent
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
    startedAt: null,
    lastFinishedAt: null,
    lastProgressAt: null,
    finishedCells: 0,
    failedCells: 0,
    current: null,
    alongside: null,
    lastSample: null,
    samples: 0,
    failedReported: null,
    error: null,
    cancelling: false,
  };
}

function finalState(status: RunStatus): RunState {
  // "running" cannot end a run; if it ever did, the run did not finish normally.
  return status === 'running' ? 'interrupted' : status;
}

/** Which statistic a primary value is: what the saved run shows for that source. */
export type Statistic = 'typical' | 'median';

/**
 * Core's typical value (`Stats::typical`): the geometric mean over invocations, each
 * invocation the geometric mean of its values, so every invocation weighs the same; the
 * median where a value is not positive (no geometric mean exists).
 */
export function typical(values: readonly number[], invocations?: readonly number[]): number | null {
  if (values.length === 0) return null;
  if (values.some((v) => !(v > 0) || !Number.isFinite(v))) return median(values);
  const groups = new Map<number, { sum: number; n: number }>();
  values.forEach((v, i) => {
    const k = invocations && invocations.length === values.length ? invocations[i]! : 0;
    const g = groups.get(k) ?? { sum: 0, n: 0 };
    g.sum += Math.log(v);
    g.n += 1;
    groups.set(k, g);
  });
  let sum = 0;
  for (const g of groups.values()) sum += g.sum / g.n;
  return Math.exp(sum / groups.size);
}

/**
 * The primary value: guest self-time if any, else wall execute, else wall total (each
 * the typical value, as the run detail's matrix shows it), else the median wall
 * instantiate (lifecycle cells) or the median latency over one connection (HTTP cells),
 * as their own views show them.
 */
export function primary(
  cell: Pick<LiveCell, 'self' | 'wall' | 'total'> & Partial<Pick<LiveCell, 'instantiate' | 'latency' | 'instructions' | 'at'>>,
): { value: number; source: PrimarySource; statistic: Statistic } | null {
  for (const { key: source, statistic } of PRIMARY_SOURCES) {
    const values = cell[source] ?? [];
    const m = statistic === 'median' ? median(values) : typical(values, cell.at?.[source]);
    if (m !== null) return { value: m, source, statistic };
  }
  return null;
}

function slotOf(row: MeasurementRow): PrimarySource | null {
  return PRIMARY_SOURCES.find((s) => s.phase === row.phase && s.metric === row.metric)?.key ?? null;
}

function updateCell(s: LiveState, i: number, f: (c: LiveCell) => LiveCell): LiveCell[] {
  const c = s.cells[i];
  if (!c) return s.cells;
  const cells = s.cells.slice();
  cells[i] = f(c);
  return cells;
}

/** Folds one action into the state. `now` is a clock in ms (Date.now() by default). */
export function reduce(s: LiveState, a: LiveAction, now: number = Date.now()): LiveState {
  switch (a.type) {
    case 'begin':
      return { ...initialState(a.suite ?? null), state: 'running', startedAt: now };
    case 'startFailed':
      return { ...s, state: 'error', error: a.message, current: null, alongside: null, cancelling: false };
    case 'cancelRequested':
      return s.state === 'running' ? { ...s, cancelling: true } : s;
    case 'planned': {
      const cells = a.cells.map(
        ([runtime, test]): LiveCell => ({
          runtime,
          test,
          status: 'pending',
          done: 0,
          invocation: 0,
          invocationsEnded: 0,
          failure: null,
          wallMs: null,
          self: [],
          wall: [],
          total: [],
          instantiate: [],
          latency: [],
          at: {},
          value: null,
          source: null,
        }),
      );
      const index: Record<string, number> = {};
      cells.forEach((c, i) => {
        index[cellKey(c.runtime, c.test)] = i;
      });
      return {
        ...s,
        state: 'running',
        runId: a.run_id,
        suite: a.suite,
        suiteKind: a.suite_kind,
        baseline: a.baseline,
        cells,
        index,
        iterationsPerCell: a.iterations_per_cell,
        invocations: Math.max(1, a.invocations),
        startedAt: now,
        lastFinishedAt: null,
        lastProgressAt: null,
        finishedCells: 0,
        failedCells: 0,
        current: null,
        alongside: null,
      };
    }
    case 'cell_started': {
      if (!s.cells[a.index]) return s;
      const invocation = a.invocation;
      const perInvocation = s.iterationsPerCell / s.invocations;
      let cells = s.cells;
      // Beside: the same worker runs the cell started just before too. Otherwise the
      // worker before this one ended its invocation (both arms of a pair): unless their
      // cells finished, they wait for their next invocation.
      if (!a.beside) {
        for (const prev of [s.current, s.alongside]) {
          if (prev !== null && prev !== a.index && cells[prev]?.status === 'running') {
            cells = updateCell({ ...s, cells }, prev, (c) => ({ ...c, status: 'queued', invocationsEnded: c.invocation + 1 }));
          }
        }
      }
      return {
        ...s,
        current: a.index,
        alongside: a.beside ? s.current : null,
        cells: updateCell({ ...s, cells }, a.index, (c) => ({
          ...c,
          status: 'running',
          invocation,
          invocationsEnded: Math.max(c.invocationsEnded, invocation),
          // Progress counts over the invocations; a resumed cell starts past its earlier ones.
          done: Math.max(c.done, Math.round(invocation * perInvocation)),
        })),
      };
    }
    case 'progress':
      if (!s.cells[a.index]) return s;
      return {
        ...s,
        lastProgressAt: now,
        cells: updateCell(s, a.index, (c) => ({
          ...c,
          status: c.status === 'pending' ? 'running' : c.status,
          done: Math.max(c.done, a.done),
        })),
      };
    case 'measurement': {
      let cells = s.cells;
      let copied = false;
      for (const row of a.rows) {
        if (row.warmup) continue;
        const slot = slotOf(row);
        const i = s.index[cellKey(row.runtime, row.test)];
        if (slot === null || i === undefined) continue;
        if (!copied) {
          cells = cells.slice();
          copied = true;
        }
        const c = cells[i]!;
        cells[i] = { ...c, [slot]: [...(c[slot] ?? []), row.value], at: { ...c.at, [slot]: [...(c.at?.[slot] ?? []), row.invocation] } };
      }
      return copied ? { ...s, cells } : s;
    }
    case 'sample':
      return { ...s, lastSample: a.sample, samples: s.samples + 1 };
    case 'cell_finished': {
      const c = s.cells[a.index];
      const failed = a.failure !== null;
      if (!c || c.status === 'failed') return s;
      if (c.status === 'done') {
        // Failed after the fact: the runtimes' answers are cross-checked when a run of
        // modules without a known answer ends.
        if (!failed) return s;
        return {
          ...s,
          failedCells: s.failedCells + 1,
          cells: updateCell(s, a.index, (c) => ({ ...c, status: 'failed', failure: a.failure, value: null, source: null })),
        };
      }
      const p = failed ? null : primary(c);
      return {
        ...s,
        current: s.current === a.index ? null : s.current,
        alongside: s.alongside === a.index ? null : s.alongside,
        finishedCells: s.finishedCells + 1,
        failedCells: s.failedCells + (failed ? 1 : 0),
        lastFinishedAt: now,
        cells: updateCell(s, a.index, (c) => ({
          ...c,
          status: failed ? 'failed' : 'done',
          // A failed cell keeps the iterations it ran: progress after a cancel counts them.
          done: failed ? c.done : s.iterationsPerCell,
          invocationsEnded: failed ? c.invocationsEnded : s.invocations,
          failure: failed ? a.failure : null,
          wallMs: a.wall_ms,
          value: p?.value ?? null,
          source: p?.source ?? null,
        })),
      };
    }
    case 'run_finished':
      return {
        ...s,
        state: s.state === 'error' ? 'error' : finalState(a.status),
        failedReported: a.failed,
        current: null,
        alongside: null,
        cancelling: false,
        // A cell still running when the run ended was cut short; one between its
        // invocations keeps what it measured, as a partial cell.
        cells: s.cells.some((c) => c.status === 'running' || c.status === 'queued')
          ? s.cells.map((c): LiveCell => {
              if (c.status === 'running') {
                return { ...c, status: 'failed', failure: c.failure ?? 'the run ended before this cell finished' };
              }
              if (c.status === 'queued') {
                const p = primary(c);
                return { ...c, status: 'partial', value: p?.value ?? null, source: p?.source ?? null };
              }
              return c;
            })
          : s.cells,
      };
    case 'stopped':
      return { ...s, state: 'error', error: a.message, current: null, alongside: null, cancelling: false };
    default:
      return s;
  }
}

/** Folds a batch in order. */
export function reduceAll(s: LiveState, actions: readonly LiveAction[], now: number = Date.now()): LiveState {
  return actions.reduce((acc, a) => reduce(acc, a, now), s);
}

// ---------------------------------------------------------------- derived views

export function inFlight(s: LiveState): boolean {
  return s.state === 'running';
}

/**
 * Iterations done over the whole run. While it runs, a finished or failed cell counts in
 * full: no more of its work is left. A run cut short (cancelled, interrupted, or being
 * cancelled) counts only the iterations that ran, so a cancel shows how far it got
 * rather than jumping ahead by every cell it cut off.
 */
export function progress(s: LiveState): { done: number; total: number; fraction: number } {
  const per = s.iterationsPerCell;
  const total = s.cells.length * per;
  const cutShort = s.cancelling || s.state === 'cancelled' || s.state === 'interrupted' || s.state === 'error';
  let done = 0;
  for (const c of s.cells) {
    const finished = c.status === 'done' || c.status === 'failed' || c.status === 'partial';
    done += finished && !cutShort ? per : Math.min(c.done, per);
  }
  const fraction = total > 0 ? done / total : s.state === 'complete' ? 1 : 0;
  return { done, total, fraction };
}

/**
 * 1-based position of the cell running now (or of the last one finished), and which of
 * its invocations runs (1-based; 0 when none runs). In an interleaved run (another cell
 * waits between its invocations while this one runs) every cell runs once per round, in
 * an order shuffled each round: the plan position says nothing, so `round` says which
 * round runs and `inRound` how many cells have started it.
 */
export function cellPosition(s: LiveState): {
  at: number;
  of: number;
  invocation: number;
  invocations: number;
  round: number | null;
  inRound: number;
} {
  const of = s.cells.length;
  const at = s.current !== null ? s.current + 1 : Math.min(s.finishedCells, of);
  const running = s.current !== null ? s.cells[s.current] : undefined;
  const interleaved = s.invocations > 1 && running !== undefined && s.cells.some((c, i) => i !== s.current && c.status === 'queued');
  const k = running?.invocation ?? 0;
  const inRound = interleaved ? s.cells.filter((c) => c.status !== 'pending' && c.invocation >= k).length : 0;
  return { at, of, invocation: running ? k + 1 : 0, invocations: s.invocations, round: interleaved ? k + 1 : null, inRound };
}

/**
 * Time left, ms. One invocation per cell: the run's elapsed time per finished cell times
 * the cells left (the running one counted by its iterations done), null until a cell
 * finished. Several (cells interleaved, finishing only in the last round): the elapsed
 * time per iteration done times the iterations left, null until one was done.
 */
export function eta(s: LiveState): number | null {
  if (s.state !== 'running' || s.startedAt === null) return null;
  if (s.invocations > 1) {
    const p = progress(s);
    if (p.done === 0 || s.lastProgressAt === null) return null;
    return ((s.lastProgressAt - s.startedAt) / p.done) * Math.max(0, p.total - p.done);
  }
  if (s.finishedCells === 0 || s.lastFinishedAt === null) {
    return null;
  }
  const perCell = (s.lastFinishedAt - s.startedAt) / s.finishedCells;
  const running = s.current !== null ? s.cells[s.current] : undefined;
  const partial = running && s.iterationsPerCell > 0 ? Math.min(1, running.done / s.iterationsPerCell) : 0;
  const left = Math.max(0, s.cells.length - s.finishedCells - partial);
  return perCell * left;
}

export interface LiveMatrixCell {
  status: CellStatus;
  /** Invocations that ended, of the run's invocations per cell. */
  invocationsEnded: number;
  /** The primary value ([`primary`]); while the cell runs, from the values so far. */
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

/** A cell's value as the matrix shows it: final once it finished, interim before. */
function shown(c: LiveCell): { value: number | null; interim: boolean } {
  if (c.status === 'done' || c.status === 'partial') return { value: c.value, interim: false };
  if (c.status === 'failed') return { value: null, interim: false };
  const p = primary(c);
  return { value: p?.value ?? null, interim: p !== null };
}

/**
 * Tests × runtimes in plan order, with each cell's value (interim while it runs) and its
 * ratio to the baseline (command suites only).
 */
export function liveMatrix(s: LiveState): LiveMatrix {
  const lifecycle = shapeOf(s.suiteKind).lifecycle;
  const tests = new Set<string>();
  const runtimes = new Set<string>();
  for (const c of s.cells) {
    tests.add(c.test);
    runtimes.add(c.runtime);
  }
  return {
    tests: [...tests],
    runtimes: [...runtimes],
    lifecycle,
    cell(runtime, test) {
      const i = s.index[cellKey(runtime, test)];
      const c = i === undefined ? undefined : s.cells[i];
      if (!c) return null;
      const ended = c.invocationsEnded;
      const own = shown(c);
      if (lifecycle) return { status: c.status, invocationsEnded: ended, ...own, ratio: null, failure: c.failure };
      const bi = s.index[cellKey(s.baseline, test)];
      const b = bi === undefined ? undefined : s.cells[bi];
      const base = b ? shown(b) : null;
      // A partial cell (or baseline) has no ratio, as in the saved summary.
      const ratio =
        c.status !== 'partial' && b?.status !== 'partial' && own.value !== null && base?.value != null && base.value > 0
          ? own.value / base.value
          : null;
      return {
        status: c.status,
        invocationsEnded: ended,
        ...own,
        ratio,
        interim: own.interim || (ratio !== null && base!.interim),
        failure: c.failure,
      };
    },
  };
}
