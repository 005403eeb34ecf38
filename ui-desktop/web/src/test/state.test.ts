import { describe, expect, it } from 'vitest';
import type { MeasurementRow, RunEvent } from '../api';
import { cellPosition, eta, inFlight, initialState, liveMatrix, primary, progress, reduce, reduceAll, typical } from '../live/state';

const row = (runtime: string, test: string, over: Partial<MeasurementRow>): MeasurementRow => ({
  runtime,
  test,
  phase: 'execute',
  invocation: 0,
  iteration: 0,
  warmup: false,
  metric: 'self_ns',
  value: 0,
  ...over,
});

/** 2 runtimes × 2 tests, 1 warm-up + 3 runs per cell, planned at t = 0. */
function planned() {
  const s = reduce(initialState(), { type: 'begin' }, 0);
  return reduce(
    s,
    {
      type: 'planned',
      suite: 'compute',
      suite_kind: 'command',
      baseline: 'native',
      run_id: 'r1',
      cells: [
        ['native', 'sha256'],
        ['wasmtime', 'sha256'],
        ['native', 'crc32'],
        ['wasmtime', 'crc32'],
      ],
      iterations_per_cell: 4,
      invocations: 1,
    },
    0,
  );
}

/** Runs cell `index` to the end with the given measured self-times (plus a warm-up outlier). */
function runCell(s: ReturnType<typeof planned>, index: number, values: number[], at: number, failure: string | null = null) {
  const c = s.cells[index]!;
  const events: RunEvent[] = [
    { type: 'cell_started', index, invocation: 0, beside: false },
    { type: 'progress', index, done: 1 },
    { type: 'measurement', rows: [row(c.runtime, c.test, { warmup: true, value: 1e12 })] },
    ...values.flatMap((v, i): RunEvent[] => [
      { type: 'progress', index, done: i + 2 },
      { type: 'measurement', rows: [row(c.runtime, c.test, { iteration: i + 1, value: v })] },
    ]),
  ];
  s = reduceAll(s, events, at - 1);
  return reduce(s, { type: 'cell_finished', index, failure, wall_ms: 123 }, at);
}

describe('live state reducer', () => {
  it('fails a finished cell again only to fail it (the cross-check of answers at the end)', () => {
    let s = runCell(planned(), 1, [10, 11, 12], 1000);
    expect(s.cells[1]!.status).toBe('done');
    const again = reduce(s, { type: 'cell_finished', index: 1, failure: null, wall_ms: 5 }, 1100);
    expect(again).toBe(s);
    s = reduce(s, { type: 'cell_finished', index: 1, failure: 'wrong output: not the answer of the majority', wall_ms: 5 }, 1200);
    expect(s.cells[1]!.status).toBe('failed');
    expect(s.cells[1]!.failure).toBe('wrong output: not the answer of the majority');
    expect(s.cells[1]!.value).toBeNull();
    expect(s.failedCells).toBe(1);
    expect(s.finishedCells).toBe(1);
    expect(progress(s).done).toBe(4);
  });

  it('starts idle and is running after begin and planned', () => {
    expect(initialState().state).toBe('idle');
    const s = planned();
    expect(s.state).toBe('running');
    expect(inFlight(s)).toBe(true);
    expect(s.runId).toBe('r1');
    expect(s.cells.map((c) => c.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(progress(s)).toEqual({ done: 0, total: 16, fraction: 0 });
    expect(eta(s)).toBeNull();
  });

  it('tracks cell status and iteration progress', () => {
    let s = planned();
    s = reduce(s, { type: 'cell_started', index: 0, invocation: 0, beside: false }, 10);
    s = reduce(s, { type: 'progress', index: 0, done: 2 }, 20);
    expect(s.cells[0]!.status).toBe('running');
    expect(s.cells[0]!.done).toBe(2);
    expect(cellPosition(s)).toMatchObject({ at: 1, of: 4 });
    expect(progress(s).done).toBe(2);
    expect(progress(s).fraction).toBeCloseTo(2 / 16);
  });

  it('takes the typical (geometric mean) of measured self-times, ignoring warm-ups, and computes ETA per finished cell', () => {
    let s = runCell(planned(), 0, [100, 300, 200], 1000);
    expect(s.cells[0]!.status).toBe('done');
    expect(s.cells[0]!.value).toBeCloseTo(Math.cbrt(100 * 300 * 200), 9);
    expect(s.cells[0]!.source).toBe('self');
    expect(s.finishedCells).toBe(1);
    expect(progress(s)).toEqual({ done: 4, total: 16, fraction: 0.25 });
    // 1000 ms for one cell, 3 left.
    expect(eta(s)).toBe(3000);
    // The next cell half way (2 of 4 iterations): 2.5 cells left.
    s = reduce(s, { type: 'cell_started', index: 1, invocation: 0, beside: false }, 1100);
    s = reduce(s, { type: 'progress', index: 1, done: 2 }, 1200);
    expect(eta(s)).toBe(2500);
    expect(cellPosition(s)).toMatchObject({ at: 2, of: 4 });
  });

  it('fills the live matrix with typical values and ratios against the baseline', () => {
    let s = runCell(planned(), 0, [100, 400, 250], 1000);
    s = runCell(s, 1, [200, 200, 250], 2000);
    const m = liveMatrix(s);
    expect(m.tests).toEqual(['sha256', 'crc32']);
    expect(m.runtimes).toEqual(['native', 'wasmtime']);
    expect(m.cell('native', 'sha256')).toMatchObject({ status: 'done', value: expect.closeTo(215.443, 3), ratio: 1, interim: false });
    expect(m.cell('wasmtime', 'sha256')).toMatchObject({ status: 'done', value: expect.closeTo(215.443, 3), interim: false });
    expect(m.cell('wasmtime', 'sha256')!.ratio).toBeCloseTo(1, 12);
    expect(m.cell('wasmtime', 'crc32')).toMatchObject({ status: 'pending', value: null, ratio: null, interim: false });
    expect(eta(s)).toBe(2000);
  });

  it('falls back to wall execute, then wall total, when the guest does not time itself', () => {
    let s = planned();
    s = reduceAll(s, [
      { type: 'cell_started', index: 1, invocation: 0, beside: false },
      {
        type: 'measurement',
        rows: [
          row('wasmtime', 'sha256', { metric: 'wall_ns', phase: 'total', value: 900 }),
          row('wasmtime', 'sha256', { metric: 'wall_ns', phase: 'execute', value: 500 }),
          row('wasmtime', 'sha256', { metric: 'max_rss_kib', phase: 'total', value: 1e6 }),
        ],
      },
      { type: 'cell_finished', index: 1, failure: null, wall_ms: 5 },
      { type: 'cell_started', index: 3, invocation: 0, beside: false },
      { type: 'measurement', rows: [row('wasmtime', 'crc32', { metric: 'wall_ns', phase: 'total', value: 700 })] },
      { type: 'cell_finished', index: 3, failure: null, wall_ms: 5 },
    ]);
    expect(s.cells[1]).toMatchObject({ value: expect.closeTo(500, 9), source: 'wall' });
    expect(s.cells[3]).toMatchObject({ value: expect.closeTo(700, 9), source: 'total' });
  });

  it('marks failed cells with their reason and counts them', () => {
    const s = runCell(planned(), 2, [1, 2, 3], 500, 'trap: unreachable');
    expect(s.cells[2]).toMatchObject({ status: 'failed', failure: 'trap: unreachable', value: null });
    expect(s.failedCells).toBe(1);
    expect(liveMatrix(s).cell('native', 'crc32')!.status).toBe('failed');
    // A failed cell counts as finished for progress.
    expect(progress(s).done).toBe(4);
  });

  it('keeps the last sample without touching cells', () => {
    let s = planned();
    const sample = { t_ms: 100, runtime: 'native', test: 'sha256', cpu_pct: 99.5, rss_bytes: 1 << 20 };
    const cells = s.cells;
    s = reduce(s, { type: 'sample', sample });
    s = reduce(s, { type: 'sample', sample: { ...sample, t_ms: 200 } });
    expect(s.samples).toBe(2);
    expect(s.lastSample!.t_ms).toBe(200);
    expect(s.cells).toBe(cells);
  });

  it('ends with the runner status; a cell cut short becomes failed', () => {
    let s = planned();
    s = reduce(s, { type: 'cell_started', index: 0, invocation: 0, beside: false });
    s = reduce(s, { type: 'cancelRequested' });
    expect(s.cancelling).toBe(true);
    s = reduce(s, { type: 'run_finished', status: 'cancelled', failed: 0 });
    expect(s.state).toBe('cancelled');
    expect(s.cancelling).toBe(false);
    expect(inFlight(s)).toBe(false);
    expect(s.cells[0]!.status).toBe('failed');
    expect(eta(s)).toBeNull();
    expect(reduce(planned(), { type: 'run_finished', status: 'complete', failed: 2 }).state).toBe('complete');
    expect(reduce(planned(), { type: 'run_finished', status: 'interrupted', failed: 0 }).state).toBe('interrupted');
  });

  it('goes to error on an error event or a refused start', () => {
    const s = reduce(planned(), { type: 'stopped', message: 'cannot save run: disk full' });
    expect(s.state).toBe('error');
    expect(s.error).toBe('cannot save run: disk full');
    const t = reduce(reduce(initialState(), { type: 'begin' }), {
      type: 'startFailed',
      message: "unknown runtime 'nope'",
    });
    expect(t.state).toBe('error');
    expect(t.error).toBe("unknown runtime 'nope'");
  });

  it('ignores events for cells it does not know', () => {
    const s = planned();
    expect(reduce(s, { type: 'cell_started', index: 99, invocation: 0, beside: false })).toBe(s);
    expect(reduce(s, { type: 'measurement', rows: [row('x', 'y', { value: 1 })] })).toBe(s);
  });

  it('follows interleaved invocations: a cell between its invocations is queued, done only after its last', () => {
    // 2 cells × 2 invocations of (1 warm-up + 2 runs): 6 iterations a cell, 12 in all.
    let s = reduce(initialState(), { type: 'begin' }, 0);
    s = reduce(
      s,
      {
        type: 'planned',
        suite: 'compute',
        suite_kind: 'command',
        baseline: 'native',
        run_id: 'r2',
        cells: [
          ['native', 'sha256'],
          ['wasmtime', 'sha256'],
        ],
        iterations_per_cell: 6,
        invocations: 2,
      },
      0,
    );
    /** One invocation of a cell: its worker starts, warms up once and runs twice. */
    const invocation = (index: number, k: number, values: [number, number]): RunEvent[] => {
      const c = s.cells[index]!;
      const from = k * 3;
      return [
        { type: 'cell_started', index, invocation: k, beside: false },
        { type: 'progress', index, done: from + 1 },
        ...values.flatMap((v, i): RunEvent[] => [
          { type: 'progress', index, done: from + i + 2 },
          { type: 'measurement', rows: [row(c.runtime, c.test, { iteration: i + 1, invocation: k, value: v })] },
        ]),
      ];
    };
    // Round 0: wasmtime first, then native.
    s = reduceAll(s, invocation(1, 0, [240, 260]), 1000);
    expect(s.cells[1]).toMatchObject({ status: 'running', invocation: 0, done: 3 });
    expect(cellPosition(s)).toEqual({ at: 2, of: 2, invocation: 1, invocations: 2, round: null, inRound: 0 });
    s = reduceAll(s, invocation(0, 0, [200, 210]), 2000);
    // Interleaved: a round of every cell, its order shuffled, so the round says where it is.
    expect(cellPosition(s)).toMatchObject({ round: 1, inRound: 2, invocations: 2 });
    expect(s.cells[1]).toMatchObject({ status: 'queued', invocationsEnded: 1, done: 3, value: null });
    expect(s.cells[0]).toMatchObject({ status: 'running', invocation: 0, done: 3 });
    // Interim figures from the invocations so far, marked as such.
    const interim = liveMatrix(s).cell('wasmtime', 'sha256')!;
    expect(interim).toMatchObject({ status: 'queued', invocationsEnded: 1, interim: true });
    expect(interim.value).toBeCloseTo(Math.sqrt(240 * 260), 9);
    expect(interim.ratio).toBeCloseTo(Math.sqrt(240 * 260) / Math.sqrt(200 * 210), 9);
    expect(progress(s)).toEqual({ done: 6, total: 12, fraction: 0.5 });
    // No cell finished yet, but the ETA comes from the iterations: 2 s for 6, 6 left.
    expect(s.finishedCells).toBe(0);
    expect(eta(s)).toBe(2000);
    // Round 1: native's second invocation; it ends the cell.
    s = reduceAll(s, invocation(0, 1, [220, 190]), 3000);
    expect(s.cells[0]).toMatchObject({ status: 'running', invocation: 1, done: 6 });
    expect(cellPosition(s)).toMatchObject({ round: 2, inRound: 1 });
    expect(s.cells[1]!.status).toBe('queued');
    s = reduce(s, { type: 'cell_finished', index: 0, failure: null, wall_ms: 80 }, 3000);
    // Each invocation weighs the same: the geometric mean of their geometric means.
    const native = (200 * 210 * 220 * 190) ** 0.25;
    expect(s.cells[0]).toMatchObject({ status: 'done', invocationsEnded: 2, value: expect.closeTo(native, 9) });
    s = reduceAll(s, invocation(1, 1, [250, 230]), 4000);
    expect(s.cells[1]).toMatchObject({ status: 'running', invocation: 1, done: 6, invocationsEnded: 1 });
    s = reduce(s, { type: 'cell_finished', index: 1, failure: null, wall_ms: 90 }, 4000);
    const wasmtime = (240 * 260 * 250 * 230) ** 0.25;
    expect(s.cells[1]).toMatchObject({ status: 'done', invocationsEnded: 2, value: expect.closeTo(wasmtime, 9) });
    expect(liveMatrix(s).cell('wasmtime', 'sha256')).toMatchObject({ ratio: expect.closeTo(wasmtime / native, 12), interim: false });
    expect(progress(s)).toEqual({ done: 12, total: 12, fraction: 1 });
  });

  it('keeps a cell cancelled between its invocations as partial, without a ratio', () => {
    let s = reduce(initialState(), { type: 'begin' }, 0);
    s = reduceAll(s, [
      {
        type: 'planned',
        suite: 'compute',
        suite_kind: 'command',
        baseline: 'native',
        run_id: 'r3',
        cells: [
          ['native', 'sha256'],
          ['wasmtime', 'sha256'],
        ],
        iterations_per_cell: 4,
        invocations: 2,
      },
      { type: 'cell_started', index: 0, invocation: 0, beside: false },
      { type: 'measurement', rows: [row('native', 'sha256', { value: 100 }), row('native', 'sha256', { iteration: 1, value: 120 })] },
      { type: 'progress', index: 0, done: 2 },
      { type: 'cell_started', index: 1, invocation: 0, beside: false },
      { type: 'measurement', rows: [row('wasmtime', 'sha256', { value: 300 })] },
      { type: 'run_finished', status: 'cancelled', failed: 0 },
    ]);
    expect(s.cells[0]).toMatchObject({
      status: 'partial',
      invocationsEnded: 1,
      value: expect.closeTo(Math.sqrt(100 * 120), 9),
      failure: null,
    });
    expect(s.cells[1]).toMatchObject({ status: 'failed', failure: 'the run ended before this cell finished' });
    expect(liveMatrix(s).cell('native', 'sha256')).toMatchObject({ status: 'partial', ratio: null, interim: false });
    // How far it got: 2 of 8 iterations, not the cells it cut off counted as done.
    expect(progress(s)).toEqual({ done: 2, total: 8, fraction: 0.25 });
  });

  it('does not jump ahead when a cancel fails the cells it cut off', () => {
    let s = planned();
    s = reduceAll(s, [
      { type: 'cell_started', index: 0, invocation: 0, beside: false },
      { type: 'progress', index: 0, done: 4 },
      { type: 'cell_finished', index: 0, failure: null, wall_ms: 10 },
      { type: 'cell_started', index: 1, invocation: 0, beside: false },
      { type: 'progress', index: 1, done: 1 },
    ]);
    expect(progress(s).done).toBe(5);
    s = reduce(s, { type: 'cancelRequested' });
    s = reduceAll(s, [
      { type: 'cell_finished', index: 1, failure: 'cancelled', wall_ms: 5 },
      { type: 'cell_finished', index: 2, failure: 'cancelled', wall_ms: 0 },
      { type: 'cell_finished', index: 3, failure: 'cancelled', wall_ms: 0 },
    ]);
    expect(progress(s)).toEqual({ done: 5, total: 16, fraction: 5 / 16 });
    s = reduce(s, { type: 'run_finished', status: 'cancelled', failed: 3 });
    expect(progress(s)).toEqual({ done: 5, total: 16, fraction: 5 / 16 });
    // A cell that failed by itself in a run that went on still counts as no work left.
    let t = planned();
    t = reduceAll(t, [
      { type: 'cell_started', index: 0, invocation: 0, beside: false },
      { type: 'cell_finished', index: 0, failure: 'trap: unreachable', wall_ms: 1 },
    ]);
    expect(progress(t).done).toBe(4);
  });
  it('an alternating pair keeps both arms running until the next worker starts', () => {
    let s = reduce(
      initialState(),
      {
        type: 'planned',
        suite: 'compute',
        suite_kind: 'command',
        baseline: 'native',
        run_id: 'r4',
        cells: [
          ['wasmtime', 'sha256'],
          ['wasmer-cranelift', 'sha256'],
          ['native', 'sha256'],
        ],
        iterations_per_cell: 4,
        invocations: 2,
      },
      0,
    );
    s = reduceAll(s, [
      { type: 'cell_started', index: 1, invocation: 0, beside: false },
      { type: 'cell_started', index: 0, invocation: 0, beside: true },
      { type: 'progress', index: 0, done: 1 },
      { type: 'progress', index: 1, done: 1 },
    ]);
    expect(s.cells[0]).toMatchObject({ status: 'running', invocation: 0 });
    expect(s.cells[1]).toMatchObject({ status: 'running', invocation: 0 });
    expect([s.current, s.alongside]).toEqual([0, 1]);
    // The next worker: both arms ended their invocation and wait for the next.
    s = reduce(s, { type: 'cell_started', index: 2, invocation: 0, beside: false });
    expect(s.cells[0]).toMatchObject({ status: 'queued', invocationsEnded: 1 });
    expect(s.cells[1]).toMatchObject({ status: 'queued', invocationsEnded: 1 });
    expect([s.current, s.alongside]).toEqual([2, null]);
  });
});

describe("the live value is the run detail's typical value", () => {
  it('weighs every invocation the same, not every iteration (the median would say 100)', () => {
    // Invocation 0 ran three iterations at 100, invocation 1 one at 400.
    const cell = { self: [100, 100, 100, 400], wall: [], total: [], at: { self: [0, 0, 0, 1] } };
    expect(primary(cell)).toEqual({ value: expect.closeTo(200, 9), source: 'self', statistic: 'typical' });
    expect(typical([100, 100, 100, 400], [0, 0, 0, 1])).toBeCloseTo(200, 9);
    // One invocation: the geometric mean of its values.
    expect(typical([100, 100, 100, 400])).toBeCloseTo(Math.sqrt(Math.sqrt(400e6)), 9);
    // No geometric mean of a value that is not positive: the median, as core falls back.
    expect(typical([0, 5, 9])).toBe(5);
    expect(typical([])).toBeNull();
    // Lifecycle and HTTP values are medians, as their own views show them.
    expect(primary({ self: [], wall: [], total: [], latency: [40, 44, 90] })).toEqual({
      value: 44,
      source: 'latency',
      statistic: 'median',
    });
  });
});
