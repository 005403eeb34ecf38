import { describe, expect, it } from 'vitest';
import type { MeasurementRow, RunEvent } from '../api';
import { cellPosition, eta, inFlight, initialState, liveMatrix, progress, reduce, reduceAll } from '../live/state';

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
    expect(s.cells[1]!.median).toBeNull();
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

  it('takes the median of measured self-times, ignoring warm-ups, and computes ETA per finished cell', () => {
    let s = runCell(planned(), 0, [100, 300, 200], 1000);
    expect(s.cells[0]!.status).toBe('done');
    expect(s.cells[0]!.median).toBe(200);
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

  it('fills the live matrix with medians and ratios against the baseline', () => {
    let s = runCell(planned(), 0, [100, 300, 200], 1000);
    s = runCell(s, 1, [230, 250, 240], 2000);
    const m = liveMatrix(s);
    expect(m.tests).toEqual(['sha256', 'crc32']);
    expect(m.runtimes).toEqual(['native', 'wasmtime']);
    expect(m.cell('native', 'sha256')).toMatchObject({ status: 'done', median: 200, ratio: 1 });
    expect(m.cell('wasmtime', 'sha256')).toMatchObject({ status: 'done', median: 240, ratio: 1.2 });
    expect(m.cell('wasmtime', 'crc32')).toMatchObject({ status: 'pending', median: null, ratio: null });
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
    expect(s.cells[1]).toMatchObject({ median: 500, source: 'wall' });
    expect(s.cells[3]).toMatchObject({ median: 700, source: 'total' });
  });

  it('marks failed cells with their reason and counts them', () => {
    const s = runCell(planned(), 2, [1, 2, 3], 500, 'trap: unreachable');
    expect(s.cells[2]).toMatchObject({ status: 'failed', failure: 'trap: unreachable', median: null });
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
    expect(cellPosition(s)).toEqual({ at: 2, of: 2, invocation: 1, invocations: 2 });
    s = reduceAll(s, invocation(0, 0, [200, 210]), 2000);
    expect(s.cells[1]).toMatchObject({ status: 'queued', invocationsEnded: 1, done: 3, median: null });
    expect(s.cells[0]).toMatchObject({ status: 'running', invocation: 0, done: 3 });
    expect(liveMatrix(s).cell('wasmtime', 'sha256')).toMatchObject({ status: 'queued', invocationsEnded: 1, ratio: null });
    expect(progress(s)).toEqual({ done: 6, total: 12, fraction: 0.5 });
    // No cell finished yet, but the ETA comes from the iterations: 2 s for 6, 6 left.
    expect(s.finishedCells).toBe(0);
    expect(eta(s)).toBe(2000);
    // Round 1: native's second invocation; it ends the cell.
    s = reduceAll(s, invocation(0, 1, [220, 190]), 3000);
    expect(s.cells[0]).toMatchObject({ status: 'running', invocation: 1, done: 6 });
    expect(s.cells[1]!.status).toBe('queued');
    s = reduce(s, { type: 'cell_finished', index: 0, failure: null, wall_ms: 80 }, 3000);
    expect(s.cells[0]).toMatchObject({ status: 'done', invocationsEnded: 2, median: 205 });
    s = reduceAll(s, invocation(1, 1, [250, 230]), 4000);
    expect(s.cells[1]).toMatchObject({ status: 'running', invocation: 1, done: 6, invocationsEnded: 1 });
    s = reduce(s, { type: 'cell_finished', index: 1, failure: null, wall_ms: 90 }, 4000);
    expect(s.cells[1]).toMatchObject({ status: 'done', invocationsEnded: 2, median: 245 });
    expect(liveMatrix(s).cell('wasmtime', 'sha256')!.ratio).toBeCloseTo(245 / 205);
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
    expect(s.cells[0]).toMatchObject({ status: 'partial', invocationsEnded: 1, median: 110, failure: null });
    expect(s.cells[1]).toMatchObject({ status: 'failed', failure: 'the run ended before this cell finished' });
    expect(liveMatrix(s).cell('native', 'sha256')).toMatchObject({ status: 'partial', median: 110, ratio: null });
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
