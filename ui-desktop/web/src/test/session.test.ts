import { describe, expect, it, vi } from 'vitest';
import type { LiveBatch, RunChoices, RunEvent } from '../api';
import { LiveSession, S_CPU, S_RSS, S_T } from '../live/session';
import { batch, planned, view } from './events';

const settings: RunChoices = {
  tests: [],
  runtimes: ['native'],
  baseline: 'native',
  skip_missing: false,
  settings: [],
  yes: false,
  precision_off: false,
};

function session(over: Partial<ConstructorParameters<typeof LiveSession>[0]> = {}) {
  const frames: (() => void)[] = [];
  let deliver: ((b: LiveBatch) => void) | null = null;
  const onEnded = vi.fn();
  const onError = vi.fn();
  const s = new LiveSession({
    startRun: async (_suite, _choices, on) => {
      deliver = on;
      return null as never;
    },
    cancelRun: async () => true,
    onEnded,
    onError,
    schedule: (fn) => frames.push(fn),
    ...over,
  });
  const flush = () => {
    for (const f of frames.splice(0)) f();
  };
  return { s, frames, flush, onEnded, onError, send: (events: RunEvent[], v = view()) => deliver!(batch(events, v)) };
}

describe('LiveSession', () => {
  it('notifies once per frame however many events arrive, and keeps samples in the ring', async () => {
    const { s, frames, flush, send } = session();
    const listener = vi.fn();
    s.subscribe(listener);
    await s.start('compute', settings);
    flush();
    expect(listener).toHaveBeenCalledTimes(1);
    const samples: RunEvent[] = Array.from({ length: 30 }, (_, i) => ({
      type: 'sample',
      sample: { t_ms: (i + 1) * 100, runtime: 'native', test: 'sha256', cpu_pct: i, rss_bytes: 1000 + i },
    }));
    send([planned({ iterations_per_cell: 2 }), ...samples.slice(0, 10)]);
    send(samples.slice(10));
    expect(frames).toHaveLength(1);
    flush();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(s.state.samples).toBe(30);
    expect(s.samples.length).toBe(30);
    expect(s.samples.view(S_T)[29]).toBeCloseTo(3);
    expect(s.samples.view(S_CPU)[0]).toBe(0);
    // A moment between workers (no process, resident size 0) is not drawn as 0 memory.
    send([{ type: 'sample', sample: { t_ms: 3100, runtime: 'native', test: 'sha256', cpu_pct: 0, rss_bytes: 0 } }]);
    flush();
    expect(s.state.samples).toBe(31);
    expect(s.samples.length).toBe(30);
    expect(Math.min(...s.samples.view(S_RSS))).toBeGreaterThan(0);
    expect(s.samples.view(S_RSS)[29]).toBe(1029);
    expect(s.sampleVersion).toBeGreaterThan(30);
  });

  it('reports the end of a run once, and errors to the banner', async () => {
    const { s, send, onEnded, onError } = session();
    await s.start('compute', settings);
    send([planned()]);
    send(
      [{ type: 'stopped', message: 'cannot save the run: disk full' }],
      view({ state: 'error', error: 'cannot save the run: disk full' }),
    );
    expect(onEnded).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith('cannot save the run: disk full');
    expect(s.state.state).toBe('error');
    // A second start is allowed after the end.
    expect(await s.start('compute', settings)).toBe(true);
  });

  it('refuses a second start while one is in flight, and turns a rejection into an error state', async () => {
    const { s } = session();
    expect(await s.start('compute', settings)).toBe(true);
    expect(await s.start('compute', settings)).toBe(false);
    const failing = session({
      startRun: async () => {
        throw { code: 'busy', message: 'a run is already in progress; cancel it or wait' };
      },
    });
    expect(await failing.s.start('compute', settings)).toBe(false);
    expect(failing.s.state.state).toBe('error');
    expect(failing.onError).toHaveBeenCalledWith('a run is already in progress; cancel it or wait');
  });
});
