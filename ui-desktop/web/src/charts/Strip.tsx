/**
 * A small strip plot of one test's iteration times: one lane per runtime, a dot per
 * iteration and a tick at the median, on a log axis shared by the lanes so runtimes
 * an order of magnitude apart still fit. Plain SVG: a few dozen nodes, no canvas.
 */
import { formatNs, median } from '../format';

export interface StripLane {
  runtime: string;
  values: readonly number[];
  color: string;
}

const W = 520;
const LABEL_W = 140;
/** Height of one runtime's lane, px. */
export const LANE_H = 16;
const PAD_R = 12;
/** Height of the axis under the lanes, px. */
export const AXIS_H = 16;

export function StripPlot({ test, lanes }: { test: string; lanes: readonly StripLane[] }) {
  const all = lanes.flatMap((l) => l.values.filter((v) => v > 0 && Number.isFinite(v)));
  if (all.length === 0) return null;
  let lo = Math.log10(Math.min(...all));
  let hi = Math.log10(Math.max(...all));
  const pad = Math.max(0.02, (hi - lo) * 0.05);
  lo -= pad;
  hi += pad;
  const x = (v: number) => LABEL_W + ((Math.log10(v) - lo) / (hi - lo)) * (W - LABEL_W - PAD_R);
  const h = lanes.length * LANE_H + AXIS_H;
  const ticks = [Math.min(...all), Math.max(...all)];
  return (
    <svg
      class="strip"
      viewBox={`0 0 ${W} ${h}`}
      width={W}
      height={h}
      role="img"
      aria-label={`Iteration times of ${test}, per runtime`}
      data-testid="strip-plot"
    >
      {lanes.map((l, i) => {
        const y = i * LANE_H + LANE_H / 2;
        const m = median(l.values);
        const vals = l.values.filter((v) => v > 0 && Number.isFinite(v));
        return (
          <g key={l.runtime}>
            <title>{`${l.runtime}: ${vals.length} iterations, median ${formatNs(m)}`}</title>
            <text x={0} y={y + 4} class="strip-label">
              {l.runtime}
            </text>
            <line x1={LABEL_W} x2={W - PAD_R} y1={y} y2={y} class="strip-lane" />
            {vals.map((v, j) => (
              <circle key={j} cx={x(v)} cy={y} r={2.6} fill={l.color} fill-opacity={0.75} />
            ))}
            {m !== null && m > 0 && <line x1={x(m)} x2={x(m)} y1={y - 6} y2={y + 6} stroke={l.color} stroke-width={2} />}
          </g>
        );
      })}
      {ticks.map((t, i) => (
        <text key={i} x={x(t)} y={h - 3} class="strip-tick" text-anchor={i === 0 ? 'start' : 'end'}>
          {formatNs(t)}
        </text>
      ))}
    </svg>
  );
}
