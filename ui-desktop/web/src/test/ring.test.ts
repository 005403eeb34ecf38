import { describe, expect, it } from 'vitest';
import type { SampleRow } from '../api';
import { resourceSeries } from '../charts/resources';
import { Ring } from '../charts/ring';
import run from './fixtures/run.json';

describe('Ring', () => {
  it('returns the last values in order, without copying', () => {
    const r = new Ring(3, 2);
    r.push(1, 10);
    r.push(2, 20);
    expect([...r.view(0)]).toEqual([1, 2]);
    r.push(3, 30);
    r.push(4, 40);
    r.push(5, 50);
    expect(r.length).toBe(3);
    expect([...r.view(0)]).toEqual([3, 4, 5]);
    expect([...r.view(1)]).toEqual([30, 40, 50]);
    expect(r.views()).toHaveLength(2);
    r.clear();
    expect(r.view(0).length).toBe(0);
  });
});

describe('resourceSeries', () => {
  it('draws the chosen test, one series per runtime on its own cell clock', () => {
    const samples = run.runs[0]!.samples as SampleRow[];
    const runtimes = run.runs[0]!.summary.runtimes;
    const d = resourceSeries(samples, 'sha256', runtimes);
    // Only the runtimes that ran sha256, in the run's order and colours.
    const ran = runtimes.filter((r) => samples.some((s) => s.test === 'sha256' && s.runtime === r));
    expect(d.runtimes).toEqual(ran);
    expect(d.colors).toEqual(ran.map((r) => runtimes.indexOf(r)));
    expect(d.cpu.length).toBe(1 + ran.length);
    // Every runtime starts at 0 on its own clock, not minutes into the run.
    for (let j = 0; j < ran.length; j++) {
      const first = Array.from(d.cpu[1 + j]!).findIndex((v) => v !== null);
      expect(d.cpu[0]![first]).toBe(0);
    }
    // Every sample of the test is drawn, none of another test.
    const drawn = d.cpu.slice(1).reduce((n, s) => n + Array.from(s).filter((v) => v !== null).length, 0);
    expect(drawn).toBe(samples.filter((s) => s.test === 'sha256' && ran.includes(s.runtime)).length);
  });

  it('breaks the line between invocations and never draws memory as 0', () => {
    const at = (t_ms: number, rss: number): SampleRow => ({ t_ms, runtime: 'wasmtime', test: 't', cpu_pct: 50, rss_bytes: rss });
    // Two invocations 10 s apart, 100 ms samples; a sample between workers reads 0 bytes.
    const d = resourceSeries([at(0, 5e6), at(100, 6e6), at(200, 0), at(10_000, 5e6), at(10_100, 7e6)], 't', ['native', 'wasmtime']);
    expect(d.runtimes).toEqual(['wasmtime']);
    expect(d.colors).toEqual([1]);
    const x = Array.from(d.rss[0]!) as number[];
    const rss = d.rss[1]!;
    // 0, 0.1, 0.2 | break at 0.25 | 0.3, 0.4: the second invocation follows the first.
    expect(x.map((v) => Number(v.toFixed(3)))).toEqual([0, 0.1, 0.2, 0.25, 0.3, 0.4]);
    expect(Array.from(rss)).toEqual([5e6, 6e6, null, null, 5e6, 7e6]);
    expect(d.cpu[1]![3]).toBeNull();
  });

  it("keeps invocations of one sample apart and marks them, given the run's sampling interval", () => {
    // native: one sample per invocation, invocations 80 s apart (issue 61: joined into a flat
    // line over the whole run); wasmtime: a stretch of five 100 ms samples.
    const s = (runtime: string, t_ms: number, cpu: number): SampleRow => ({ t_ms, runtime, test: 't', cpu_pct: cpu, rss_bytes: 4e6 });
    const samples = [
      s('native', 0, 100),
      s('native', 80_000, 90),
      s('native', 160_000, 100),
      ...[0, 100, 200, 300, 400].map((t) => s('wasmtime', 200_000 + t, 50)),
    ];
    const d = resourceSeries(samples, 't', ['native', 'wasmtime'], 100);
    expect(d.sparse).toEqual([true, false]);
    const x = (Array.from(d.cpu[0]!) as number[]).map((v) => Number(v.toFixed(3)));
    const native = Array.from(d.cpu[1]!);
    // Three single samples on native's own clock, a break between each: 0, 0.1, 0.2 s, not 0–160 s.
    const drawn = x.filter((_, i) => native[i] !== null);
    expect(drawn).toEqual([0, 0.1, 0.2]);
    expect(Math.max(...x)).toBeLessThan(1);
    expect(native.filter((v) => v === null).length).toBeGreaterThanOrEqual(2);
    // Without the interval the median step is 80 s: the three are one line of 160 s.
    const joined = resourceSeries(samples, 't', ['native', 'wasmtime']);
    expect(joined.sparse[0]).toBe(false);
    expect(Math.max(...(Array.from(joined.cpu[0]!) as number[]))).toBeGreaterThan(100);
  });
});
