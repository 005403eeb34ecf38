/**
 * The one place that touches uPlot. It is imported lazily (its own chunk, so the first
 * screen renders before it loads) and only where a canvas can work: under jsdom, which
 * lacks matchMedia and canvas, `createChart` returns an inert handle that just remembers
 * the data, so components stay testable without mocking canvas.
 *
 * A chart is created once and then fed with `setData`; it redraws only when data or
 * size changes (ResizeObserver, no timers).
 */
import type uPlot from 'uplot';
import { MISSING } from '../format';

export interface SeriesSpec {
  label: string;
  color: string;
  /** Scale id: 'y' (left axis, default) or 'y2' (right axis). */
  scale?: 'y' | 'y2';
  width?: number;
  /** Dash pattern in px (e.g. [6, 4]); solid when absent. */
  dash?: number[];
  /** Marks every data point (for series of a few points). */
  points?: boolean;
}

export interface AxisSpec {
  label?: string;
  format: (v: number) => string;
  /** Lower bound is 0; upper at least this much. */
  minMax?: number;
  /** Logarithmic scale of this base instead (range fitted to the data; values must be > 0). */
  log?: 2 | 10;
}

export interface ChartSpec {
  height: number;
  series: SeriesSpec[];
  y: AxisSpec;
  y2?: AxisSpec;
  xFormat?: (v: number) => string;
  /** Logarithmic x scale of this base (values must be > 0). */
  xLog?: 2 | 10;
  /** Ticks of the x axis at exactly these values (e.g. the connections measured). */
  xSplits?: number[];
  /** What x is (the legend's first entry); "time" by default. */
  xLabel?: string;
  legend?: boolean;
}

/** x values, then one array per series (null = gap). */
export type ChartData = ArrayLike<number | null>[];

export interface ChartHandle {
  setData(data: ChartData): void;
  destroy(): void;
  /** True when a real chart is drawn (false under jsdom). */
  readonly live: boolean;
  /** The last data set (kept by the inert handle too; used by tests). */
  readonly lastData: ChartData | null;
}

/** Canvas charts need matchMedia (uPlot reads the pixel ratio through it). */
export function chartsSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function';
}

let loader: Promise<typeof uPlot> | null = null;

/**
 * uPlot builds `Intl` formatters from `navigator.language` when it loads. Under LANG=C
 * WebKitGTK reports the language "C", which Intl rejects ("invalid language tag"), and the
 * import throws; fall back to en-US so the charts still work in such sessions.
 */
export function ensureValidLanguage(nav: Navigator = navigator): void {
  try {
    new Intl.NumberFormat(nav.language);
  } catch {
    Object.defineProperty(nav, 'language', { value: 'en-US', configurable: true });
  }
}

function loadUPlot(): Promise<typeof uPlot> {
  loader ??= Promise.resolve()
    .then(() => ensureValidLanguage())
    .then(() => import('uplot'))
    .then((m) => m.default);
  return loader;
}

/** Axis and grid colours, read from the CSS custom properties of the current theme. */
function themeColors(el: Element): { axis: string; grid: string } {
  const cs = getComputedStyle(el);
  return {
    axis: cs.getPropertyValue('--chart-axis').trim() || '#888',
    grid: cs.getPropertyValue('--chart-grid').trim() || 'rgba(128,128,128,0.2)',
  };
}

function inertHandle(): ChartHandle {
  let last: ChartData | null = null;
  return {
    live: false,
    get lastData() {
      return last;
    },
    setData(d) {
      last = d;
    },
    destroy() {
      last = null;
    },
  };
}

export function createChart(el: HTMLElement, spec: ChartSpec): ChartHandle {
  if (!chartsSupported()) return inertHandle();

  let u: uPlot | null = null;
  let data: ChartData = [[], ...spec.series.map(() => [])];
  let destroyed = false;
  const theme = themeColors(el);
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const onScheme = () => {
    Object.assign(theme, themeColors(el));
    u?.redraw(false);
  };
  dark.addEventListener('change', onScheme);

  const width = () => Math.max(200, Math.floor(el.clientWidth || 600));
  const ro =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver(() => {
          if (u && el.clientWidth > 0 && Math.floor(el.clientWidth) !== u.width) {
            u.setSize({ width: width(), height: spec.height });
          }
        })
      : null;

  const axis = (a: AxisSpec, side?: number, scale?: string): uPlot.Axis => ({
    scale,
    side,
    label: a.label,
    stroke: () => theme.axis,
    grid: { stroke: () => theme.grid, width: 1 },
    ticks: { stroke: () => theme.grid, width: 1 },
    values: (_u, splits) => splits.map((v) => (v === null ? '' : a.format(v))),
    size: 80,
  });
  const range =
    (a: AxisSpec): uPlot.Range.Function =>
    (_u, _min, max) => [0, Math.max(a.minMax ?? 0, Number.isFinite(max) ? max * 1.08 : 1) || 1];
  // A log scale keeps uPlot's own range (whole powers of the base around the data).
  const scale = (a: AxisSpec): uPlot.Scale => (a.log ? { distr: 3, log: a.log } : { range: range(a) });

  loadUPlot()
    .then((UPlot) => {
      if (destroyed) return;
      const opts: uPlot.Options = {
        width: width(),
        height: spec.height,
        // A static legend (labels only): hover values would re-render the legend on every move.
        legend: { show: spec.legend ?? false, live: false },
        cursor: { drag: { x: true, y: false } },
        scales: {
          x: spec.xLog ? { time: false, distr: 3, log: spec.xLog } : { time: false },
          y: scale(spec.y),
          ...(spec.y2 ? { y2: scale(spec.y2) } : {}),
        },
        axes: [
          {
            stroke: () => theme.axis,
            grid: { stroke: () => theme.grid, width: 1 },
            ticks: { stroke: () => theme.grid, width: 1 },
            values: (_u, splits) => splits.map((v) => (v === null ? '' : spec.xFormat ? spec.xFormat(v) : String(v))),
            // Given ticks are all labelled (a log axis would otherwise label powers of the base only).
            ...(spec.xSplits ? { splits: () => spec.xSplits!, filter: (_u: uPlot, splits: number[]) => splits } : {}),
          },
          axis(spec.y, 3, 'y'),
          ...(spec.y2 ? [axis(spec.y2, 1, 'y2')] : []),
        ],
        series: [
          { label: spec.xLabel ?? 'time' },
          ...spec.series.map(
            (s): uPlot.Series => ({
              label: s.label,
              stroke: s.color,
              width: s.width ?? 1.5,
              scale: s.scale ?? 'y',
              ...(s.dash ? { dash: s.dash } : {}),
              points: s.points ? { show: true, size: 6, width: 1.5 } : { show: false },
              spanGaps: false,
              value: (_u, v) => (v === null ? MISSING : (s.scale === 'y2' && spec.y2 ? spec.y2 : spec.y).format(v)),
            }),
          ),
        ],
      };
      u = new UPlot(opts, data as uPlot.AlignedData, el);
      ro?.observe(el);
    })
    .catch((e) => {
      // A chart that cannot load is not worth a broken page; say so where it would be.
      el.textContent = `chart unavailable: ${e instanceof Error ? e.message : String(e)}`;
    });

  return {
    live: true,
    get lastData() {
      return data;
    },
    setData(d) {
      data = d;
      u?.setData(d as uPlot.AlignedData);
    },
    destroy() {
      destroyed = true;
      ro?.disconnect();
      dark.removeEventListener('change', onScheme);
      u?.destroy();
      u = null;
    },
  };
}

/** Distinct series colours that read on light and dark backgrounds. */
export const PALETTE = [
  '#3b82f6',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#8b5cf6',
  '#06b6d4',
  '#ec4899',
  '#84cc16',
  '#f97316',
  '#6366f1',
  '#14b8a6',
  '#a855f7',
];

export function paletteColor(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}
