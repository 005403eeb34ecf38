/**
 * One cell's history on one machine: x the run's start, y its typical time, the 95 %
 * interval as a band behind the line, each level between change points as a dashed rule
 * and each change point as a vertical marker labelled with its change. Plain SVG, like the
 * strip plot, but sized for long histories: the line and the band are one path each
 * whatever the number of runs, dots (with their tooltips) are drawn only for short series,
 * and the run under the pointer (or picked with the arrow keys) is found by bisection and
 * read out under the chart. Everything drawn is core's (`history`): no statistics here.
 */
import { useMemo, useState } from 'preact/hooks';
import type { HistoryPoint, HistorySeries } from '../api';
import { formatChangePct, formatNs, formatTime, MISSING, timeTickLabels } from '../format';

const W = 760;
const H = 240;
const PAD = { left: 64, right: 16, top: 22, bottom: 24 };
/** Series up to this many runs get a dot (and a tooltip) per run. */
export const MAX_DOTS = 200;

/** A run's figure in words: run, date, typical time and interval, runtime version. */
export function pointTitle(p: HistoryPoint, runtime: string): string {
  const interval = p.low !== null && p.high !== null ? ` (95 % ${formatNs(p.low)}–${formatNs(p.high)})` : ' (no interval)';
  return `${p.run}\n${formatTime(p.started_unix)}\n${formatNs(p.value)}${interval}\n${runtime} ${p.version ?? MISSING}`;
}

/** A change point in words, as core's history table notes it. */
export function changeTitle(s: HistorySeries, c: HistorySeries['changes'][number]): string {
  const p = s.points[c.index];
  const from = p ? `${p.run} (${formatTime(p.started_unix)})` : `point ${c.index}`;
  return `change from ${from}: ${formatNs(c.before)} → ${formatNs(c.after)} (${formatChangePct(c.change_pct)}, p = ${c.p_value.toFixed(3)})`;
}

/** The scales of a series: x over the runs' starts, y over every value and interval end. */
function scales(points: readonly HistoryPoint[]) {
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    x0 = Math.min(x0, p.started_unix);
    x1 = Math.max(x1, p.started_unix);
    y0 = Math.min(y0, p.low ?? p.value, p.value);
    y1 = Math.max(y1, p.high ?? p.value, p.value);
  }
  if (x1 <= x0) {
    x0 -= 43_200;
    x1 += 43_200;
  }
  const span = y1 - y0 || Math.abs(y1) * 0.1 || 1;
  y0 -= span * 0.08;
  y1 += span * 0.08;
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  return {
    x: (t: number) => PAD.left + ((t - x0) / (x1 - x0)) * iw,
    y: (v: number) => PAD.top + (1 - (v - y0) / (y1 - y0)) * ih,
    yTicks: [0, 1 / 3, 2 / 3, 1].map((f) => y0 + span * 0.08 + f * span),
    xTicks: [x0, (x0 + x1) / 2, x1],
    yRange: [y0, y1] as const,
  };
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** The line through every run's value: one path, "M" then one "L" per further run. */
export function linePath(points: readonly HistoryPoint[], x: (t: number) => number, y: (v: number) => number): string {
  const parts = new Array<string>(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    parts[i] = `${i === 0 ? 'M' : 'L'}${r1(x(p.started_unix))} ${r1(y(p.value))}`;
  }
  return parts.join('');
}

/** The band of the intervals: along the high ends, back along the low ends (the value where a run has none). */
function bandPath(points: readonly HistoryPoint[], x: (t: number) => number, y: (v: number) => number): string {
  if (!points.some((p) => p.low !== null && p.high !== null)) return '';
  const top = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r1(x(p.started_unix))} ${r1(y(p.high ?? p.value))}`);
  const bottom: string[] = [];
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    bottom.push(`L${r1(x(p.started_unix))} ${r1(y(p.low ?? p.value))}`);
  }
  return `${top.join('')}${bottom.join('')}Z`;
}

/** The run whose start is nearest `t` (points are oldest first). */
export function nearest(points: readonly HistoryPoint[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.started_unix < t) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(points[lo - 1]!.started_unix - t) <= Math.abs(points[lo]!.started_unix - t)) return lo - 1;
  return lo;
}

export function HistoryChart({ series: s }: { series: HistorySeries }) {
  const [hover, setHover] = useState<number | null>(null);
  const drawn = useMemo(() => {
    const sc = scales(s.points);
    // Each level between change points, from core's medians either side of them.
    const bounds = [0, ...s.changes.map((c) => c.index), s.points.length];
    const levels = bounds.slice(0, -1).map((from, k) => {
      const to = bounds[k + 1]!;
      const level = k < s.changes.length ? s.changes[k]!.before : s.changes[k - 1]?.after;
      return { from, to, level };
    });
    return { sc, line: linePath(s.points, sc.x, sc.y), band: bandPath(s.points, sc.x, sc.y), levels };
  }, [s]);
  const { sc, line, band, levels } = drawn;
  const n = s.points.length;
  const at = hover !== null && hover < n ? hover : null;
  const hovered = at !== null ? s.points[at]! : null;
  const change = at !== null ? s.changes.find((c) => c.index === at) : undefined;

  const onMove = (e: MouseEvent) => {
    const svg = e.currentTarget as SVGSVGElement;
    const rect = svg.getBoundingClientRect();
    const vx = rect.width > 0 ? ((e.clientX - rect.left) * W) / rect.width : e.clientX;
    const [t0, t1] = [s.points[0]!.started_unix, s.points[n - 1]!.started_unix];
    // Back from the view box to time; a single run is always it.
    const t = n > 1 ? t0 + ((vx - sc.x(t0)) / (sc.x(t1) - sc.x(t0))) * (t1 - t0) : t0;
    setHover(nearest(s.points, t));
  };
  const onKey = (e: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n };
    const d = step[e.key];
    if (d === undefined) return;
    e.preventDefault();
    setHover((h) => Math.max(0, Math.min(n - 1, (h ?? (d < 0 ? n : -1)) + d)));
  };

  if (n === 0) return null;
  const bottom = H - PAD.bottom;
  return (
    <figure class="history-figure">
      <svg
        class="history-chart"
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart takes focus so the arrow keys can read its runs one by one.
        tabIndex={0}
        aria-label={`${s.test} on ${s.runtime}, ${s.machine_label}: typical time of ${n} runs with its 95 % interval, ${s.changes.length} change points`}
        data-testid="history-chart"
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
        onKeyDown={onKey}
        onBlur={() => setHover(null)}
      >
        {sc.yTicks.map((v, i) => (
          <g key={`y${i}`} class="history-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={sc.y(v)} y2={sc.y(v)} />
            <text x={PAD.left - 6} y={sc.y(v) + 4} text-anchor="end" class="history-tick" data-testid="history-ytick">
              {formatNs(v)}
            </text>
          </g>
        ))}
        {timeTickLabels(sc.xTicks).map((label, i) => (
          <text
            key={`x${i}`}
            x={sc.x(sc.xTicks[i]!)}
            y={H - 6}
            text-anchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'}
            class="history-tick"
            data-testid="history-xtick"
          >
            {label}
          </text>
        ))}
        {band && <path class="history-band" d={band} data-testid="history-band" />}
        {levels.map(
          (l) =>
            l.level !== undefined && (
              <line
                key={`l${l.from}`}
                class="history-level"
                x1={sc.x(s.points[l.from]!.started_unix)}
                x2={sc.x(s.points[l.to - 1]!.started_unix)}
                y1={sc.y(l.level)}
                y2={sc.y(l.level)}
                data-testid="history-level"
              />
            ),
        )}
        <path class="history-line" d={line} data-testid="history-line" data-points={n} />
        {n <= MAX_DOTS &&
          s.points.map((p, i) => (
            <circle
              key={p.run}
              class="history-dot"
              cx={sc.x(p.started_unix)}
              cy={sc.y(p.value)}
              r={2.5}
              data-testid="history-dot"
              data-index={i}
            >
              <title>{pointTitle(p, s.runtime)}</title>
            </circle>
          ))}
        {s.changes.map((c) => {
          const p = s.points[c.index];
          if (!p) return null;
          const x = sc.x(p.started_unix);
          return (
            <g
              key={`c${c.index}`}
              class={`history-change ${c.change_pct > 0 ? 'slower' : 'faster'}`}
              data-testid="history-change"
              data-index={c.index}
            >
              <title>{changeTitle(s, c)}</title>
              <line x1={x} x2={x} y1={PAD.top} y2={bottom} />
              <text x={x + 4} y={PAD.top - 6} text-anchor={x > W - 80 ? 'end' : 'start'} data-testid="history-change-label">
                {formatChangePct(c.change_pct)}
              </text>
            </g>
          );
        })}
        {hovered && (
          <g class="history-hover" data-testid="history-hover" data-index={at ?? undefined}>
            <line x1={sc.x(hovered.started_unix)} x2={sc.x(hovered.started_unix)} y1={PAD.top} y2={bottom} />
            <circle cx={sc.x(hovered.started_unix)} cy={sc.y(hovered.value)} r={4} />
          </g>
        )}
      </svg>
      <figcaption class="history-readout muted small" data-testid="history-readout" aria-live="polite">
        {hovered ? (
          <>
            <code>{hovered.run}</code> · {formatTime(hovered.started_unix)} · <strong>{formatNs(hovered.value)}</strong>
            {hovered.low !== null && hovered.high !== null
              ? ` (95 % ${formatNs(hovered.low)}–${formatNs(hovered.high)})`
              : ' (no interval)'}{' '}
            · {s.runtime} {hovered.version ?? MISSING}
            {change && <span class="note"> · change {formatChangePct(change.change_pct)}</span>}
          </>
        ) : (
          'Point at the chart (or focus it and use ← →) to read a run.'
        )}
      </figcaption>
    </figure>
  );
}
