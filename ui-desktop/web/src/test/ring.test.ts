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
  it('gives each cell its own series over a shared time axis', () => {
    const samples = run.runs[0]!.samples as SampleRow[];
    const d = resourceSeries(samples);
    expect(d.labels[0]).toBe('native / sha256');
    expect(d.labels.length).toBeGreaterThan(1);
    expect(d.cpu[0]!.length).toBe(samples.length);
    expect(d.cpu[0]![0]).toBeCloseTo(0.1559245);
    expect(d.cpu[1]![0]).toBeCloseTo(9.958255);
    expect(d.rss[1]![0]).toBe(13688832);
    // Where another cell ran, this series has a gap.
    const other = samples.findIndex((s) => s.runtime !== 'native' || s.test !== 'sha256');
    expect(d.cpu[1]![other]).toBeNull();
  });
});
