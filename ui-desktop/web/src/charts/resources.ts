/**
 * A saved run's CPU/RSS samples as chart data for one test: one series per runtime, each
 * on the time of its own cell (its invocations one after another), so runtimes that ran
 * minutes apart are drawn side by side. A run of 171 cells on one timeline was a flat line
 * under a 171-entry legend; this is the selected test's runtimes, in the run's colours.
 */
import type { SampleRow } from '../api';
import type { ChartData } from './uplot';

export interface ResourceSeries {
  /** The runtimes drawn, in the order given. */
  runtimes: string[];
  /** Colour index of each runtime drawn: its place in the run's runtimes. */
  colors: number[];
  /** Per runtime drawn: a stretch of it has under [`MIN_LINE`] samples, so it is drawn as marks. */
  sparse: boolean[];
  cpu: ChartData;
  rss: ChartData;
}

/** Fewest samples of a stretch (one invocation) a line shows: shorter ones are drawn as marks. */
export const MIN_LINE = 3;

/** A gap between two samples of one cell longer than this many sample intervals starts a new stretch (another invocation). */
const GAP_INTERVALS = 4;

function medianStep(ts: readonly number[]): number {
  const steps = ts
    .slice(1)
    .map((t, i) => t - ts[i]!)
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  return steps.length ? steps[Math.floor(steps.length / 2)]! : 0;
}

/**
 * The samples of `test` per runtime (in `runtimes` order, those with samples), on the
 * cell's own clock in seconds: each stretch of samples (one invocation) follows the one
 * before it, with a break in the line between them. A resident size of 0 is no process
 * (between workers), not a process of no memory: it is left out, never drawn as 0.
 * `intervalMs` is the run's sampling interval: a longer gap is another invocation (without
 * it, the samples' own median step, which a cell of one sample per invocation cannot give:
 * its invocations, minutes apart, were joined into one flat line). `only`: that runtime's
 * series alone (in its colour of the run) when it has samples of the test.
 */
export function resourceSeries(
  samples: readonly SampleRow[],
  test: string,
  runtimes: readonly string[],
  intervalMs?: number,
  only?: string,
): ResourceSeries {
  const per = new Map<string, SampleRow[]>();
  for (const s of samples) {
    if (s.test !== test) continue;
    const list = per.get(s.runtime) ?? [];
    list.push(s);
    per.set(s.runtime, list);
  }
  const drawn = only && per.has(only) ? [only] : runtimes.filter((r) => per.has(r));
  // Each runtime's points: x on its cell's clock, null x breaks the line.
  const points = drawn.map((r) => {
    const list = per.get(r)!.sort((a, b) => a.t_ms - b.t_ms);
    const step = intervalMs && intervalMs > 0 ? intervalMs : medianStep(list.map((s) => s.t_ms));
    const gap = step * GAP_INTERVALS;
    const out: { x: number; cpu: number | null; rss: number | null }[] = [];
    let clock = 0;
    let start = list[0]?.t_ms ?? 0;
    let stretch = 0;
    let shortest = Number.POSITIVE_INFINITY;
    list.forEach((s, i) => {
      if (i > 0 && gap > 0 && s.t_ms - list[i - 1]!.t_ms > gap) {
        shortest = Math.min(shortest, stretch);
        stretch = 0;
        // A new invocation: the clock goes on one sample interval after the last one
        // ended, and a null half way breaks the line between them.
        const end = clock + (list[i - 1]!.t_ms - start) / 1000;
        out.push({ x: end + step / 2000, cpu: null, rss: null });
        clock = end + step / 1000;
        start = s.t_ms;
      }
      out.push({ x: clock + (s.t_ms - start) / 1000, cpu: s.cpu_pct, rss: s.rss_bytes > 0 ? s.rss_bytes : null });
      stretch += 1;
    });
    return { out, sparse: Math.min(shortest, stretch) < MIN_LINE };
  });
  // One shared x (uPlot's aligned data): every runtime's x, each series null where it has none.
  const xs = [...new Set(points.flatMap((p) => p.out.map((q) => q.x)))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const cpu = points.map(() => new Array<number | null>(xs.length).fill(null));
  const rss = points.map(() => new Array<number | null>(xs.length).fill(null));
  points.forEach((p, j) => {
    for (const q of p.out) {
      const i = at.get(q.x)!;
      cpu[j]![i] = q.cpu;
      rss[j]![i] = q.rss;
    }
  });
  const x = Float64Array.from(xs);
  return {
    runtimes: drawn,
    colors: drawn.map((r) => runtimes.indexOf(r)),
    sparse: points.map((p) => p.sparse),
    cpu: [x, ...cpu],
    rss: [x, ...rss],
  };
}
