/**
 * The lifecycle suite as the page shows it, as pure data shaping: which runs are
 * lifecycle ones, its measurements per cell (median and p99) and "measurement against
 * initial heap size" lines, as the backend shapes them (core/report/src/analysis/heap.rs) so the
 * desktop shows what the terminal UI and the exports show. Which runtimes the suite
 * applies to is core's answer, from `list_runtimes`.
 */
import type { CellSummary, HeapSeries, Metric, Phase, RunSummary, Stats } from './api';
import { formatValue } from './format';

export type Unit = HeapSeries['unit'];
export type Fill = HeapSeries['fill'];
export const FILLS: readonly Fill[] = ['dense', 'sparse'];

/** One lifecycle measurement: a phase's wall time per operation, or another metric. */
export interface Measure {
  /** Phase name (times) or metric name (others), as stored. */
  key: string;
  label: string;
  unit: Unit;
  /** What it is, in words (column tooltips). */
  title: string;
}

/** The lifecycle measurements in the order of an instance's life (as `MEASURES` in heap.rs). */
export const MEASURES: readonly Measure[] = [
  { key: 'compile', label: 'compile', unit: 'ns', title: 'compiling the module from its bytes' },
  { key: 'load', label: 'load', unit: 'ns', title: 'loading the module precompiled to a file' },
  { key: 'instantiate', label: 'instantiate', unit: 'ns', title: 'a fresh store and instance' },
  { key: 'first_instantiate', label: 'first instantiate', unit: 'ns', title: 'the first instantiation in a fresh process' },
  { key: 'call', label: 'call', unit: 'ns', title: 'a call host → wasm → host on a live instance' },
  { key: 'first_call', label: 'first call', unit: 'ns', title: 'the first call in a fresh process' },
  { key: 'teardown', label: 'teardown', unit: 'ns', title: 'dropping an instance and its store' },
  {
    key: 'rss_per_instance_bytes',
    label: 'memory / instance',
    unit: 'bytes',
    title: 'growth of resident memory per live instance',
  },
  {
    key: 'instances_per_sec',
    label: 'instantiations/s',
    unit: 'per_sec',
    title: 'instantiate + drop per second, one instance at a time on one thread',
  },
];

export function measureByKey(key: string): Measure | undefined {
  return MEASURES.find((m) => m.key === key);
}

/** What the heap chart offers, first the default: the measurements that grow with the heap. */
export const HEAP_CHART_MEASURES: readonly string[] = ['instantiate', 'teardown', 'first_instantiate', 'rss_per_instance_bytes', 'compile'];

// ---------------------------------------------------------------- suites and runtimes

// ---------------------------------------------------------------- modules

/** A lifecycle test is the module it generates: `hello` or `heap-<size>-<dense|sparse>`. */
export type Module = { kind: 'hello' } | { kind: 'heap'; bytes: number; fill: Fill };

/** Parses a test name as `ModuleSpec::parse` does; null for anything else. */
export function parseModule(name: string): Module | null {
  if (name === 'hello') return { kind: 'hello' };
  const m = /^heap-([1-9]\d*)([km])-(dense|sparse)$/.exec(name);
  if (!m) return null;
  const bytes = Number(m[1]) * (m[2] === 'k' ? 1024 : 1024 * 1024);
  return { kind: 'heap', bytes, fill: m[3] as Fill };
}

// ---------------------------------------------------------------- values

/** A measurement's statistics in a cell, if the cell has it. */
export function measureStats(cell: CellSummary, m: Measure): Stats | null {
  const s = m.unit === 'ns' ? cell.phase_stats[m.key as Phase] : cell.metrics?.[m.key as Metric];
  return s ?? null;
}

/** An axis label: the same without trailing zeros ("1 µs", "2.5 ms", "64 KiB"). */
export function formatAxis(unit: Unit, v: number): string {
  return formatValue(unit, v).replace(/\.(\d*?)0+(?=\D)/, (_m, d: string) => (d ? `.${d}` : ''));
}

export interface MedianP99 {
  median: number;
  p99: number;
  n: number;
}

/** One module × runtime row of the lifecycle table. */
export interface LifecycleRow {
  test: string;
  runtime: string;
  failure: string | null;
  /** One per measure of `measures`, null where the cell has none. */
  values: (MedianP99 | null)[];
}

export interface LifecycleTable {
  /** Measurements at least one cell has, in `MEASURES` order. */
  measures: Measure[];
  /** Module-major (tests in run order), runtimes in run order. */
  rows: LifecycleRow[];
}

/** Median (p99) per operation of every measurement, per module × runtime. */
export function lifecycleTable(summary: RunSummary): LifecycleTable {
  const cells = summary.cells.filter((c) => !c.failure);
  const measures = MEASURES.filter((m) => cells.some((c) => measureStats(c, m) !== null));
  const rows: LifecycleRow[] = [];
  for (const test of summary.tests) {
    for (const runtime of summary.runtimes) {
      const c = summary.cells.find((x) => x.runtime === runtime && x.test === test);
      if (!c) continue;
      rows.push({
        test,
        runtime,
        failure: c.failure,
        values: measures.map((m) => {
          const s = c.failure ? null : measureStats(c, m);
          return s ? { median: s.median, p99: s.p99, n: s.n } : null;
        }),
      });
    }
  }
  return { measures, rows };
}

// ---------------------------------------------------------------- against heap size

/**
 * Every measurement against heap size, per runtime and fill, from a summary: runtimes in
 * run order, measurements in `MEASURES` order, dense before sparse, points by growing
 * heap; failed cells and series without a point left out (as `heap_series` in heap.rs,
 * which reports carry as `heap_series`).
 */
export function heapSeries(summary: RunSummary): HeapSeries[] {
  const modules = summary.tests
    .map((t) => ({ test: t, module: parseModule(t) }))
    .filter((x): x is { test: string; module: Extract<Module, { kind: 'heap' }> } => x.module?.kind === 'heap');
  const out: HeapSeries[] = [];
  for (const runtime of summary.runtimes) {
    for (const m of MEASURES) {
      for (const fill of FILLS) {
        const points = modules
          .filter((x) => x.module.fill === fill)
          .flatMap(({ test, module }) => {
            const c = summary.cells.find((x) => x.runtime === runtime && x.test === test);
            const s = c && !c.failure ? measureStats(c, m) : null;
            return s ? [{ test, heap_bytes: module.bytes, median: s.median, p99: s.p99 }] : [];
          })
          .sort((a, b) => a.heap_bytes - b.heap_bytes);
        if (points.length > 0) out.push({ runtime, measure: m.key, unit: m.unit, fill, points });
      }
    }
  }
  return out;
}

/** One line of the heap chart. */
export interface HeapLine {
  runtime: string;
  fill: Fill;
  /** The runtime's index in the run (its colour, the same as in the other charts). */
  colorIndex: number;
  /** Median per x (null: no point at that size). */
  median: (number | null)[];
  p99: (number | null)[];
}

export interface HeapChartData {
  measure: Measure;
  /** Heap sizes in bytes, ascending, without repeats. */
  x: number[];
  /** Per runtime (run order), dense then sparse. */
  lines: HeapLine[];
}

/** The lines of one measurement against heap size, aligned on the heap sizes any has. */
export function heapChartData(series: readonly HeapSeries[], runtimes: readonly string[], measureKey: string): HeapChartData {
  const measure = measureByKey(measureKey) ?? MEASURES[2]!;
  const mine = series.filter((s) => s.measure === measure.key);
  const x = [...new Set(mine.flatMap((s) => s.points.map((p) => p.heap_bytes)))].sort((a, b) => a - b);
  const order = (rt: string) => {
    const i = runtimes.indexOf(rt);
    return i < 0 ? runtimes.length : i;
  };
  const lines = [...mine]
    .sort((a, b) => order(a.runtime) - order(b.runtime) || FILLS.indexOf(a.fill) - FILLS.indexOf(b.fill))
    .map((s): HeapLine => {
      const at = (b: number) => s.points.find((p) => p.heap_bytes === b) ?? null;
      return {
        runtime: s.runtime,
        fill: s.fill,
        colorIndex: order(s.runtime),
        median: x.map((b) => at(b)?.median ?? null),
        p99: x.map((b) => at(b)?.p99 ?? null),
      };
    });
  return { measure, x, lines };
}
