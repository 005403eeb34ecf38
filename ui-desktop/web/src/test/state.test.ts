import { describe, expect, it } from 'vitest';
import type { LiveBatch } from '../api';
import { inFlight, initialState, liveMatrix, reduce } from '../live/state';
import { batch, cellView, planned, view } from './events';
import cancelled from './live/cancelled.json';
import interleaved from './live/interleaved.json';

/** The reduction itself is core's (core/src/live, tested there); the page merges its views. */
describe('live state', () => {
  it('starts idle, runs after begin, and takes the plan, progress and position from core', () => {
    expect(initialState().state).toBe('idle');
    let s = reduce(initialState(), { type: 'begin', suite: 'compute' });
    expect(inFlight(s)).toBe(true);
    s = reduce(s, { type: 'batch', batch: interleaved[0] as LiveBatch });
    expect(s.runId).toBe('run-42');
    expect(s.cells.map((c) => [c.runtime, c.status])).toEqual([
      ['native', 'running'],
      ['wasmtime', 'pending'],
    ]);
    expect(s.position).toMatchObject({ at: 1, of: 2, invocation: 1, invocations: 2 });
    expect(s.progress).toEqual({ done: 1, total: 8, fraction: 0.125 });
    expect(s.lastSample?.cpu_pct).toBe(97);
    expect(s.samples).toBe(1);
  });

  it('replaces only the cells a view carries, and keeps the rest as they were', () => {
    let s = reduce(initialState(), { type: 'begin' });
    for (const b of interleaved.slice(0, 2)) s = reduce(s, { type: 'batch', batch: b as LiveBatch });
    const wasmtime = s.cells[1];
    // Core's view of the next batch carries both cells; one with nothing new keeps its object.
    const next = reduce(s, { type: 'batch', batch: batch([], view({ ...(interleaved[1] as LiveBatch).view, cells: [] })) });
    expect(next.cells[1]).toBe(wasmtime);
    expect(next.cells).toBe(s.cells);
    const m = liveMatrix(s);
    expect(m.tests).toEqual(['sha256']);
    expect(m.runtimes).toEqual(['native', 'wasmtime']);
    // Between its invocations, native's figure so far is interim, and so is wasmtime's ratio to it.
    expect(m.cell('native', 'sha256')).toMatchObject({ status: 'queued', invocationsEnded: 1, value: 100e6, interim: true });
    expect(m.cell('wasmtime', 'sha256')).toMatchObject({ status: 'running', interim: true });
    expect(m.cell('wasmtime', 'sha256')!.ratio).toBeCloseTo(1.15, 12);
  });

  it('ends as core says, and a new plan replaces every cell', () => {
    let s = reduce(initialState(), { type: 'begin' });
    for (const b of interleaved) s = reduce(s, { type: 'batch', batch: b as LiveBatch });
    expect(s.state).toBe('complete');
    expect(inFlight(s)).toBe(false);
    expect(liveMatrix(s).cell('wasmtime', 'sha256')).toMatchObject({ status: 'done', interim: false });
    s = reduce(reduce(s, { type: 'begin' }), {
      type: 'batch',
      batch: batch([planned()], view({ run_id: 'next', cell_count: 1, cells: [cellView(0, 'native', 'sha256')] })),
    });
    expect(s.cells.map((c) => c.status)).toEqual(['pending']);
  });

  it('keeps a cancel asked for until core says the run ended', () => {
    let s = reduce(initialState(), { type: 'begin' });
    s = reduce(s, { type: 'batch', batch: cancelled[0] as LiveBatch });
    s = reduce(s, { type: 'cancelRequested' });
    expect(s.cancelling).toBe(true);
    s = reduce(s, { type: 'batch', batch: cancelled[1] as LiveBatch });
    expect(s.state).toBe('cancelled');
    expect(s.cancelling).toBe(false);
    expect(s.cells[0]).toMatchObject({ status: 'failed', failure: 'cancelled' });
    expect(reduce(s, { type: 'cancelRequested' })).toBe(s);
  });

  it('goes to error on a refused start or core saying the run stopped', () => {
    const t = reduce(reduce(initialState(), { type: 'begin' }), { type: 'startFailed', message: "unknown runtime 'nope'" });
    expect(t).toMatchObject({ state: 'error', error: "unknown runtime 'nope'" });
    const stopped = view({ state: 'error', error: 'cannot save run: disk full' });
    const s = reduce(reduce(initialState(), { type: 'begin' }), { type: 'batch', batch: batch([], stopped) });
    expect(s).toMatchObject({ state: 'error', error: 'cannot save run: disk full' });
  });
});
