/**
 * Number formatting shared by every screen, by core's rules (`core/model/src/format`): a time
 * reads the same in the live view, the detail matrix, the diff, the CLI and the exports.
 * `format.test.ts` checks these functions against core's on a table of cases core writes
 * (`test/fixtures/format-cases.json`).
 */

/** What a cell says when it has no value (core's `MISSING`). */
export const MISSING = '-';
const DASH = MISSING;

function finite(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * `v` with `digits` decimals as Rust's `{:.N}` writes it: like `toFixed`, but an exact tie
 * rounds to the even digit (`2.5` → `2`), where `toFixed` rounds it up.
 */
export function fixed(v: number, digits: number): string {
  const exact = v.toFixed(100);
  const dot = exact.indexOf('.');
  if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
    const kept = exact.slice(0, digits > 0 ? dot + 1 + digits : dot);
    if (Number(kept[kept.length - 1]) % 2 === 0) return kept;
  }
  return v.toFixed(digits);
}

/** `v` with 3 significant digits, never in exponent notation (axis ticks). */
export function sig3(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (a === 0) return '0';
  return v.toPrecision(3);
}

/** Nanoseconds as ns / µs / ms / s (core's `format_ns`: "999 ns", "1.0 µs", "1.23 ms"). */
export function formatNs(ns: number | null | undefined): string {
  if (!finite(ns)) return DASH;
  const [scale, unit, decimals] = timeUnit(ns);
  return `${fixed(ns / scale, decimals)} ${unit}`;
}

/** The unit a duration in ns is written in: its size in ns, its name, `formatNs`'s decimals. */
function timeUnit(ns: number): [number, string, number] {
  return ns >= 1e9 ? [1e9, 's', 2] : ns >= 1e6 ? [1e6, 'ms', 2] : ns >= 1e3 ? [1e3, 'µs', 1] : [1, 'ns', 0];
}

/**
 * A duration to the digits its interval supports (core's `format_ns_within`): down to the
 * place of the half-width's first digit, at least two significant digits, at most what
 * `formatNs` gives ("980 ms" at ±4 %, "984.8 ms" at ±0.1 %).
 */
export function formatNsWithin(ns: number | null | undefined, halfwidthPct: number | null | undefined): string {
  if (!finite(ns) || !finite(halfwidthPct) || halfwidthPct <= 0 || ns <= 0) return formatNs(ns);
  // The half-width as shown (`formatHalfwidth`, one decimal): 0.96 % reads ±1.0 %.
  const shown = Number(halfwidthPct.toFixed(1));
  const h = shown > 0 ? shown : halfwidthPct;
  const [scale, unit, most] = timeUnit(ns);
  const v = ns / scale;
  const lead = Math.floor(Math.log10(v));
  const place = Math.min(Math.floor(Math.log10((v * h) / 100)), lead - 1);
  if (place > 0) {
    const step = 10 ** place;
    return `${fixed(Math.round(v / step) * step, 0)} ${unit}`;
  }
  return `${fixed(v, Math.min(Math.max(-place, 0), most))} ${unit}`;
}

/** Bytes as B / KiB / MiB / GiB (core's `format_bytes`: "-300 B", "1.5 KiB", "3.00 GiB"). */
export function formatBytes(bytes: number | null | undefined): string {
  if (!finite(bytes)) return DASH;
  const a = Math.abs(bytes);
  if (a >= 2 ** 30) return `${fixed(bytes / 2 ** 30, 2)} GiB`;
  if (a >= 2 ** 20) return `${fixed(bytes / 2 ** 20, 1)} MiB`;
  if (a >= 1024) return `${fixed(bytes / 1024, 1)} KiB`;
  return `${fixed(bytes, 0)} B`;
}

/** Operations per second (core's `format_rate`: "0.50/s", "250/s", "12.3k/s", "1.63M/s"). */
export function formatRate(perSec: number | null | undefined): string {
  if (!finite(perSec)) return DASH;
  if (perSec >= 1e6) return `${fixed(perSec / 1e6, 2)}M/s`;
  if (perSec >= 1e3) return `${fixed(perSec / 1e3, 1)}k/s`;
  if (perSec >= 10) return `${fixed(perSec, 0)}/s`;
  return `${fixed(perSec, 2)}/s`;
}

/** A memory size that is a whole number of KiB or MiB, as such (core's `format_size`: "64 KiB"). */
export function formatSize(bytes: number): string {
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return formatBytes(bytes);
}

/** A value in its unit (core's `format_value`): times under 100 ns keep a decimal. */
export function formatValue(unit: 'ns' | 'bytes' | 'per_sec', v: number | null | undefined): string {
  if (unit === 'bytes') return formatBytes(v);
  if (unit === 'per_sec') return formatRate(v);
  if (finite(v) && Math.abs(v) < 100) return `${fixed(v, 1)} ns`;
  return formatNs(v);
}

/**
 * A ratio like "1.15×": `decimals` below 10× (two by default; the diff uses three, where
 * a 0.4 % change matters), fewer above.
 */
export function formatRatio(r: number | null | undefined, decimals = 2): string {
  if (!finite(r)) return DASH;
  const a = Math.abs(r);
  const s = a >= 100 ? r.toFixed(0) : a >= 10 ? r.toFixed(1) : a >= 0.1 || a === 0 ? r.toFixed(decimals) : r.toPrecision(decimals);
  return `${s}×`;
}

/** An interval of ratios: "1.13–1.17×". */
export function formatRatioCi(lo: number | null | undefined, hi: number | null | undefined, decimals = 2): string {
  if (!finite(lo) || !finite(hi)) return DASH;
  return `${formatRatio(lo, decimals).slice(0, -1)}–${formatRatio(hi, decimals)}`;
}

/** Seconds on a time axis: "0.5 s", "12 s" (one decimal at most, no trailing zero). */
export function formatSeconds(s: number): string {
  return `${Number(s.toFixed(1))} s`;
}

/** A change in percent with its sign, as core's history table writes it: "+19.8 %", "-4.0 %". */
export function formatChangePct(p: number | null | undefined): string {
  if (!finite(p)) return DASH;
  return `${p >= 0 ? '+' : ''}${p.toFixed(1)} %`;
}

export function formatPct(p: number | null | undefined, digits = 0): string {
  if (!finite(p)) return DASH;
  return `${p.toFixed(digits)} %`;
}

/** A duration for people: "45 s", "3 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (!finite(ms) || ms < 0) return DASH;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Unix seconds as local "YYYY-MM-DD HH:MM:SS" (fixed shape, whatever the locale). */
export function formatTime(unix: number | null | undefined): string {
  if (!finite(unix)) return DASH;
  const d = new Date(unix * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ` + `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * Labels of time-axis ticks (unix seconds, ascending) that name each date once: over
 * three days or more the dates, a repeated one left blank; within less, the time of day,
 * with the date where it changes (always on the first tick).
 */
export function timeTickLabels(ticks: readonly number[]): string[] {
  if (ticks.length === 0) return [];
  const span = ticks[ticks.length - 1]! - ticks[0]!;
  let last = '';
  return ticks.map((t) => {
    const [date, time] = formatTime(t).split(' ') as [string, string];
    const newDate = date !== last;
    last = date;
    if (span >= 3 * 86_400) return newDate ? date : '';
    return newDate ? `${date} ${time.slice(0, 5)}` : time.slice(0, 5);
  });
}

/** A median across a copy of `values` (the caller's array is not reordered). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

/** Which way a ratio points, for colouring: below 1 is faster than the reference. */
export type Tone = 'faster' | 'slower' | 'same';

export function ratioTone(r: number, tolerance = 0.005): Tone {
  if (r < 1 - tolerance) return 'faster';
  if (r > 1 + tolerance) return 'slower';
  return 'same';
}

/**
 * Core's shared colour scale of a ratio (`core/model/src/format/colour.rs`, the TUI's and the
 * HTML report's too): 25 bins of a quarter doubling, blue faster, red slower, interpolated
 * in CIELAB, each with the text colour that meets WCAG AA on it. The shared cases
 * (`ratio_colour` in the format fixture) hold these tables to core's.
 */
export const RATIO_PALETTE: readonly string[] = [
  '#053061',
  '#11467f',
  '#1c5d9f',
  '#2b71b2',
  '#2b7ab0',
  '#4b97c5',
  '#6eacd1',
  '#8cc1dc',
  '#a8d0e4',
  '#c2ddec',
  '#d7e8f1',
  '#e7eff4',
  '#f7f7f7',
  '#faebe3',
  '#fce0cf',
  '#fccdb5',
  '#f8b799',
  '#f29f7d',
  '#e68367',
  '#dc6954',
  '#c94a40',
  '#bb2f33',
  '#a51429',
  '#850824',
  '#67001f',
];
const DARK_TEXT = '#1c2330';
const LIGHT_TEXT = '#ffffff';
export const RATIO_TEXT: readonly string[] = RATIO_PALETTE.map((_, k) => (k < 5 || k >= 20 ? LIGHT_TEXT : DARK_TEXT));

/** The bin of a ratio on the shared scale, as core's `ratio_bin` (null: not a positive number). */
export function ratioBin(r: number | null | undefined): number | null {
  if (!finite(r) || r <= 0) return null;
  const k = Math.floor(Math.log2(r) / 0.25 + 0.5);
  return Math.min(12, Math.max(-12, k)) + 12;
}

/** Background colour of a ratio's cell on the shared scale. */
export function ratioColor(r: number): string {
  const b = ratioBin(r);
  return b === null ? 'transparent' : RATIO_PALETTE[b]!;
}

/** A ratio's cell colours: the scale's background and the text that reads on it. */
export function ratioStyle(r: number): { background: string; color?: string } {
  return { background: ratioColor(r), color: ratioTextColor(r) };
}

/**
 * How a relative figure is tinted: by its ratio when its interval lies wholly on one side of
 * 1, else untinted and 'same' (an interval that holds 1.00 has not shown a change, however
 * far its point lies: memhard 0.79× [0.60, 1.03] is not "faster"), drawn in the scale's
 * neutral middle. A figure without an interval is tinted by its ratio.
 */
export function relativeTint(
  r: number,
  low: number | null | undefined,
  high: number | null | undefined,
): { tone: Tone; style?: { background: string; color?: string } } {
  if (finite(low) && finite(high) && low <= 1 && 1 <= high) return { tone: 'same', style: ratioStyle(1) };
  return { tone: ratioTone(r), style: ratioStyle(r) };
}

/** The text colour on [`ratioColor`]'s background (WCAG AA). */
export function ratioTextColor(r: number): string | undefined {
  const b = ratioBin(r);
  return b === null ? undefined : RATIO_TEXT[b];
}

/**
 * The noise of a figure: half the width of its 95 % interval, percent ("±1.4 %"): how far
 * the true value may lie from the figure (telling a change takes more).
 */
export function formatHalfwidth(pct: number | null | undefined): string {
  if (!finite(pct)) return DASH;
  return `±${pct.toFixed(1)} %`;
}

/**
 * A diff row's ratio with its interval and noise, as every front end writes it
 * (`1.034 [1.012, 1.057] ±2.2 %`, like core's `export::format_ratio`), with the
 * interval's level when it is not 95 % (`… at 96.9 %`); "(no interval)" without enough
 * data; a dash when the row is not comparable.
 */
export function formatRatioText(r: {
  ratio: number | null;
  ci_low: number | null;
  ci_high: number | null;
  halfwidth_pct: number | null;
  level?: number | null;
}): string {
  const { ratio, ci_low: lo, ci_high: hi, halfwidth_pct: h } = r;
  if (!finite(ratio)) return DASH;
  if (finite(lo) && finite(hi) && finite(h)) {
    const l = r.level;
    const level = finite(l) && Math.abs(l - 0.95) >= 0.0005 ? ` at ${levelPct(l)}` : '';
    return `${fixed(ratio, 3)} [${fixed(lo, 3)}, ${fixed(hi, 3)}] ±${fixed(h, 1)} %${level}`;
  }
  return `${fixed(ratio, 3)} (no interval)`;
}

/** A confidence level as core prints it (`95 %`, `96.9 %`). */
export function levelPct(level: number): string {
  const pct = level * 100;
  return Math.abs(pct - Math.round(pct)) < 0.05 ? `${fixed(pct, 0)} %` : `${fixed(pct, 1)} %`;
}

/**
 * A runtime's geometric mean, naming how many tests it covers when that is not all of
 * them (`1.23×`, `1.23× (12 of 15 tests)`, like core's `export::format_geomean`).
 */
export function formatGeomean(g: { geomean_relative: number | null; tests_compared: number; tests_total?: number }): string {
  const v = g.geomean_relative;
  if (!finite(v)) return DASH;
  const total = g.tests_total ?? 0;
  const mean = `${fixed(v, 2)}×`;
  return total > 0 && g.tests_compared < total ? `${mean} (${g.tests_compared} of ${total} tests)` : mean;
}
