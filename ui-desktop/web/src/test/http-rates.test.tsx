/**
 * Offered rates (open model) on the desktop: the chart's data (corrected p99 per variant,
 * each knee a point of its own), the table of every rate with the uncorrected p99 and the
 * SLO's verdict, the knee per variant — and nothing of it for a run without rates.
 */
import { render, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { HttpCell, HttpRatePoint } from '../api';
import { kneeLabel, rateChartData } from '../http';
import { HttpView } from '../screens/detail/HttpView';
import { stats } from './stats';

const rate = (offered: number, p99: number, met: boolean, bound: number | null = null): HttpRatePoint => ({
  offered,
  achieved: met ? offered : offered * 0.6,
  corrected_ns: [p99 / 4, p99 / 2, p99, p99 * 1.2],
  uncorrected_ns: [p99 / 8, p99 / 4, met ? p99 : 2e6, p99],
  errors: 0,
  timeouts: 0,
  cpu_ns_per_1k: null,
  rss_bytes: null,
  generator_bound_rps: bound,
  met_slo: met,
});

const cell = (runtime: string, rates: HttpRatePoint[] | undefined, knee: HttpCell['knee']): HttpCell => ({
  runtime,
  test: 'hello',
  cold_start: stats(3e6),
  p50_ns: 2e5,
  p90_ns: 3e5,
  p99_ns: 4e5,
  levels: [],
  saturated: [],
  best: null,
  best_vs_baseline: null,
  peak_rss_kib: 20000,
  rates,
  knee,
  failure: null,
});

const cells: HttpCell[] = [
  cell('native', [rate(1000, 3e5, true), rate(10000, 4e5, true), rate(100000, 5e5, false, 61000)], {
    rps: 10000,
    below_rps: null,
    unbroken: true,
    slo_p99_ms: 50,
  }),
  cell('wasmtime-http', [rate(1000, 6e5, true), { ...rate(10000, 4e8, false), unsent: 1234.4 }], {
    rps: 1000,
    below_rps: null,
    unbroken: false,
    slo_p99_ms: 50,
  }),
];

describe('offered rates', () => {
  it('draws corrected p99 per variant with each knee as a point of its own', () => {
    const chart = rateChartData(cells, ['native', 'wasmtime-http']);
    expect(chart.x).toEqual([1000, 10000, 100000]);
    expect(chart.lines.map((l) => l.runtime)).toEqual(['native', 'wasmtime-http']);
    expect(chart.lines[1].p99).toEqual([6e5, 4e8, null]);
    expect(chart.lines[0].knee).toEqual([null, 4e5, null]);
    expect(chart.lines[1].knee).toEqual([6e5, null, null]);
    expect(kneeLabel(cells[0].knee)).toBe('≥ 10.0k req/s');
    expect(kneeLabel(cells[1].knee)).toBe('1.00k req/s');
    expect(kneeLabel({ rps: null, below_rps: 500, unbroken: false, slo_p99_ms: 50 })).toBe('< 500 req/s');
  });

  it('lists every rate with its uncorrected p99, verdict and the knee', () => {
    render(<HttpView runId="r1" cells={cells} runtimes={['native', 'wasmtime-http']} baseline="native" />);
    const box = screen.getByTestId('http-rates');
    expect(box.textContent).toContain('SLO p99 ≤ 50.00 ms');
    const rows = within(box).getAllByTestId('http-rate-row');
    expect(rows.map((r) => `${r.dataset.runtime}@${r.dataset.rate}`)).toEqual([
      'native@1000',
      'native@10000',
      'native@100000',
      'wasmtime-http@1000',
      'wasmtime-http@10000',
    ]);
    const verdict = (r: HTMLElement) => r.querySelector('[data-col="verdict"]')!.textContent;
    expect(rows.map(verdict)).toEqual([
      'met',
      'met',
      'beyond the load generator (sent 61.0k req/s)',
      'met',
      'broke (1234 due, never sent)',
    ]);
    expect(rows[4].querySelector('[data-col="p99"]')!.textContent).toBe('400.00 ms');
    expect(rows[4].querySelector('[data-col="uncorrected-p99"]')!.textContent).toBe('2.00 ms');
    expect(rows[0].querySelector('[data-col="knee"]')!.textContent).toBe('≥ 10.0k req/s');
    expect(rows[3].querySelector('[data-col="knee"]')!.textContent).toBe('1.00k req/s');
  });

  it('shows nothing of it for a run without rates', () => {
    const plain = cells.map((c) => ({ ...c, rates: undefined, knee: undefined }));
    render(<HttpView runId="r2" cells={plain} runtimes={['native', 'wasmtime-http']} baseline="native" />);
    expect(screen.queryByTestId('http-rates')).toBeNull();
  });
});
