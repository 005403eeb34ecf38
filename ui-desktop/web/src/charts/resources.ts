/**
 * A saved run's CPU/RSS samples as chart data: one series per cell, so each cell's
 * stretch of the timeline gets its own colour and legend entry (null elsewhere).
 */
import type { SampleRow } from '../api';
import type { ChartData } from './uplot';

export interface ResourceSeries {
  /** "runtime / test" per series, in order of first appearance. */
  labels: string[];
  cpu: ChartData;
  rss: ChartData;
}

export function resourceSeries(samples: readonly SampleRow[]): ResourceSeries {
  const sorted = [...samples].sort((a, b) => a.t_ms - b.t_ms);
  const labels: string[] = [];
  const seriesOf = new Map<string, number>();
  for (const s of sorted) {
    const k = `${s.runtime} / ${s.test}`;
    if (!seriesOf.has(k)) {
      seriesOf.set(k, labels.length);
      labels.push(k);
    }
  }
  const n = sorted.length;
  const x = new Float64Array(n);
  const cpu = labels.map(() => new Array<number | null>(n).fill(null));
  const rss = labels.map(() => new Array<number | null>(n).fill(null));
  sorted.forEach((s, i) => {
    const j = seriesOf.get(`${s.runtime} / ${s.test}`)!;
    x[i] = s.t_ms / 1000;
    cpu[j]![i] = s.cpu_pct;
    rss[j]![i] = s.rss_bytes;
  });
  return { labels, cpu: [x, ...cpu], rss: [x, ...rss] };
}
