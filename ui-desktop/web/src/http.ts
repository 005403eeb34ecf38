/**
 * The HTTP suites (gateway, servers) as the page shows them, as pure data shaping: which
 * suites and runs are HTTP ones, a run's cells grouped by request, the requests/s against
 * connections lines, the concurrency levels typed in setup. The numbers are the backend's
 * (`http` of a run's report, core/report/src/analysis/http.rs), so the desktop shows what the
 * exports show.
 */
import type { HttpCell, HttpKnee, HttpLevel, HttpRatePoint } from './api';
import { parseIntField, U32_MAX } from './fields';
import { MISSING, sig3 } from './format';

/** `throughput_c50` → 50; null for any other phase. */
export function throughputConnections(phase: string): number | null {
  const m = /^throughput_c([1-9]\d*)$/.exec(phase);
  return m ? Number(m[1]) : null;
}

/** Levels with a usable rate, by ascending connections. */
export function measuredLevels(c: HttpCell): HttpLevel[] {
  return c.levels
    .filter((l) => l.connections > 0 && Number.isFinite(l.rps?.median) && l.rps.median > 0)
    .slice()
    .sort((a, b) => a.connections - b.connections);
}

/** The level a cell's best rate was at. */
export function bestLevel(c: HttpCell): HttpLevel | null {
  if (!c.best) return null;
  return c.levels.find((l) => l.connections === c.best![0]) ?? null;
}

/** A run's cells by request (test), in the order the backend lists them. */
export function httpRequests(cells: readonly HttpCell[]): { test: string; cells: HttpCell[] }[] {
  const out: { test: string; cells: HttpCell[] }[] = [];
  for (const c of cells) {
    let g = out.find((x) => x.test === c.test);
    if (!g) {
      g = { test: c.test, cells: [] };
      out.push(g);
    }
    g.cells.push(c);
  }
  return out;
}

export interface RpsLine {
  runtime: string;
  /** Colour: the runtime's position in the run. */
  colorIndex: number;
  /** Requests/s at each of the chart's connections (null where not measured). */
  rps: (number | null)[];
}

/** Requests/s against connections: every level any variant was loaded at, a line per variant that has one. */
export function rpsChartData(cells: readonly HttpCell[], runtimes: readonly string[]): { x: number[]; lines: RpsLine[] } {
  const x = [...new Set(cells.flatMap((c) => measuredLevels(c).map((l) => l.connections)))].sort((a, b) => a - b);
  const lines = cells
    .filter((c) => measuredLevels(c).length > 0)
    .map((c) => {
      const at = new Map(measuredLevels(c).map((l) => [l.connections, l.rps.median]));
      const i = runtimes.indexOf(c.runtime);
      return { runtime: c.runtime, colorIndex: i < 0 ? runtimes.length + cells.indexOf(c) : i, rps: x.map((n) => at.get(n) ?? null) };
    });
  return { x, lines };
}

/** Requests per second: "21.0k", "3.22k", "106", "59.2". */
export function formatRps(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return MISSING;
  const a = Math.abs(v);
  if (a >= 1e6) return `${sig3(v / 1e6)}M`;
  if (a >= 1e4) return `${(v / 1e3).toFixed(1)}k`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(2)}k`;
  return sig3(v);
}

/** An axis tick of requests/s: "100k", "20k", "500". */
export function formatRpsTick(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e3) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}

/**
 * Whole numbers (up to a u32's largest) separated by commas or spaces, ascending and
 * distinct, as concurrency levels and offered rates are typed (empty text is none); null
 * if not. Their range is core's, which refuses no levels too.
 */
export function parseCounts(text: string): number[] | null {
  const out: number[] = [];
  for (const p of text.split(/[\s,]+/).filter((p) => p !== '')) {
    const n = parseIntField(p, 0, U32_MAX);
    if (n === null) return null;
    if (!out.includes(n)) out.push(n);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Seconds as typed (decimals allowed) to whole milliseconds, null if no number: any time
 * over 0 is at least 1 ms, as core holds it (`Limit::check_seconds`), whose range it is.
 */
export function parseSecondsMs(text: string): number | null {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return null;
  const s = Number(t);
  const ms = s === 0 ? 0 : Math.max(1, Math.round(s * 1000));
  return Number.isSafeInteger(ms) ? ms : null;
}

/** A cell's offered rates, ascending (none in runs without rates). */
export function offeredRates(c: HttpCell): HttpRatePoint[] {
  return (c.rates ?? []).filter((r) => r.offered > 0).sort((a, b) => a.offered - b.offered);
}

/** How a knee reads, as in the CLI: "5.00k req/s", "≥ 20.0k req/s", "< 1.00k req/s". */
export function kneeLabel(k: HttpKnee | null | undefined): string {
  if (!k) return MISSING;
  if (k.rps !== null) return `${k.unbroken ? '≥ ' : ''}${formatRps(k.rps)} req/s`;
  if (k.below_rps !== null) return `< ${formatRps(k.below_rps)} req/s`;
  return MISSING;
}

export interface RateLine {
  runtime: string;
  colorIndex: number;
  /** Corrected p99 (ns) at each of the chart's rates (null where not measured). */
  p99: (number | null)[];
  /** The same series with only the knee's point. */
  knee: (number | null)[];
}

/** Corrected p99 against offered rate: every rate any variant was offered, a line per variant. */
export function rateChartData(cells: readonly HttpCell[], runtimes: readonly string[]): { x: number[]; lines: RateLine[] } {
  const x = [...new Set(cells.flatMap((c) => offeredRates(c).map((r) => r.offered)))].sort((a, b) => a - b);
  const lines = cells
    .filter((c) => offeredRates(c).some((r) => r.corrected_ns[2] !== null))
    .map((c) => {
      const at = new Map(offeredRates(c).map((r) => [r.offered, r.corrected_ns[2]]));
      const i = runtimes.indexOf(c.runtime);
      const kneeAt = c.knee?.rps ?? null;
      return {
        runtime: c.runtime,
        colorIndex: i < 0 ? runtimes.length + cells.indexOf(c) : i,
        p99: x.map((n) => at.get(n) ?? null),
        knee: x.map((n) => (n === kneeAt ? (at.get(n) ?? null) : null)),
      };
    });
  return { x, lines };
}
