/**
 * A saturated HTTP level (no request completed within the load's duration) is a
 * measurement with a bound: the desktop keeps the cell, shows the served levels as before
 * and the saturated one as `saturated (< 0.50 req/s)`, and never draws it as a point.
 */
import { render, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { HttpCell } from '../api';
import { rpsChartData } from '../http';
import { HttpView, saturatedLabel, saturatedLevels } from '../screens/detail/HttpView';
import { stats } from './stats';

const level = (connections: number, rps: number) => ({
  connections,
  rps: stats(rps),
  p50_ns: 1e6,
  p99_ns: 2e6,
  cpu_ns_per_1k: 5e8,
  rss_bytes: 2e7,
  errors: 0,
  saturated_iterations: 0,
});

const cells: HttpCell[] = [
  {
    runtime: 'native',
    test: 'slow',
    cold_start: stats(3e6),
    p50_ns: 2e5,
    p90_ns: 3e5,
    p99_ns: 4e5,
    levels: [level(1, 4000), level(8, 9000)],
    saturated: [],
    best: [8, 9000],
    best_vs_baseline: 1,
    peak_rss_kib: 20000,
    failure: null,
  },
  {
    runtime: 'wasmtime-cli',
    test: 'slow',
    cold_start: stats(3e7),
    p50_ns: 2e7,
    p90_ns: 3e7,
    p99_ns: 4e7,
    levels: [level(1, 40)],
    saturated: [{ connections: 8, below_rps: 0.5, iterations: 2, of: 2, errors: 0 }],
    best: [1, 40],
    best_vs_baseline: 40 / 9000,
    peak_rss_kib: 90000,
    failure: null,
  },
  {
    runtime: 'node',
    test: 'slow',
    cold_start: stats(9e7),
    p50_ns: 9e7,
    p90_ns: 9e7,
    p99_ns: 9e7,
    levels: [],
    saturated: [
      { connections: 8, below_rps: 0.5, iterations: 2, of: 3, errors: 4 },
      { connections: 1, below_rps: 0.5, iterations: 3, of: 3, errors: 0 },
    ],
    best: null,
    best_vs_baseline: null,
    peak_rss_kib: 90000,
    failure: null,
  },
];

describe('a saturated HTTP level', () => {
  it('reads as its bound', () => {
    expect(saturatedLabel({ connections: 8, below_rps: 0.5, iterations: 2, of: 2, errors: 0 })).toBe('saturated (< 0.50 req/s)');
    expect(saturatedLabel({ connections: 8, below_rps: 0.5, iterations: 2, of: 3, errors: 0 })).toBe(
      'saturated (< 0.50 req/s, 2 of 3 runs)',
    );
    expect(saturatedLevels(cells[2]!).map((l) => l.connections)).toEqual([1, 8]);
    expect(saturatedLevels({ ...cells[0]!, saturated: [] })).toEqual([]);
  });

  it('keeps the cell, shows the bound, and is not a point of the chart', () => {
    render(<HttpView runId="r" cells={cells} runtimes={['native', 'wasmtime-cli', 'node']} baseline="native" />);
    const rows = screen.getAllByTestId('http-row');
    expect(rows.map((r) => r.dataset.runtime)).toEqual(['native', 'wasmtime-cli', 'node']);
    // Not failed rows.
    expect(rows.every((r) => r.dataset.failed === undefined)).toBe(true);
    const cell = (runtime: string, col: string) =>
      rows.find((r) => r.dataset.runtime === runtime)!.querySelector<HTMLElement>(`[data-col="${col}"]`)!.textContent;
    expect(cell('wasmtime-cli', 'best')).toBe('40.0 (1)');
    expect(cell('node', 'best')).toBe('saturated (< 0.50 req/s) (1)');
    expect(cell('node', 'errors')).toBe('4');
    const note = screen.getByTestId('http-saturated').textContent!;
    expect(note).toContain('wasmtime-cli at 8 connections saturated (< 0.50 req/s)');
    expect(note).toContain('node at 1 connections saturated (< 0.50 req/s), 8 connections saturated (< 0.50 req/s, 2 of 3 runs)');
    expect(within(rows[0]!).queryByText(/saturated/)).toBeNull();

    const chart = rpsChartData(cells, ['native', 'wasmtime-cli', 'node']);
    expect(chart.lines.map((l) => l.runtime)).toEqual(['native', 'wasmtime-cli']);
    // wasmtime-cli has no value at 8 connections: a gap, not the bound.
    expect(chart.lines[1]!.rps).toEqual([40, null]);
  });
});
