/**
 * A run with a sweep (`run --set`): per test, the figure against the first swept setting,
 * one line per combination of the others, each with its 95 % interval drawn as a dashed
 * line of the same colour below and above; then the best combination and what each
 * setting did (core's `Sweep`, sent in `Report.sweep`).
 */
import { useMemo, useState } from 'preact/hooks';
import type { Sweep } from '../../api';
import { Chart } from '../../charts/Chart';
import { type ChartData, type ChartSpec, paletteColor } from '../../charts/uplot';
import { formatNs } from '../../format';

/** One line of a test's scan: its typical values and interval ends at each x value. */
export interface ScanLine {
  label: string;
  typical: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
}

/** The scan of `test`: a line per combination of the settings after the first. */
export function scanLines(sweep: Sweep, test: string): ScanLine[] {
  const t = sweep.tests.find((x) => x.test === test);
  return sweep.lines.map((line) => {
    const at = (x: string) => t?.points.find((p) => p.x === x && p.line === line);
    return {
      label: line || 'all',
      typical: sweep.x_values.map((x) => at(x)?.typical ?? null),
      low: sweep.x_values.map((x) => at(x)?.low ?? null),
      high: sweep.x_values.map((x) => at(x)?.high ?? null),
    };
  });
}

export function SweepChart({ runId, sweep }: { runId: string; sweep: Sweep }) {
  const [picked, setPicked] = useState(sweep.tests[0]?.test ?? '');
  const test = sweep.tests.find((t) => t.test === picked) ?? sweep.tests[0];
  const lines = useMemo(() => (test ? scanLines(sweep, test.test) : []), [sweep, test]);
  const xName = sweep.settings[0] ?? '';
  const spec = useMemo(
    (): ChartSpec => ({
      height: 300,
      legend: true,
      series: lines.flatMap((l, i) => [
        { label: l.label, color: paletteColor(i), points: true },
        { label: `${l.label} 95 % low`, color: paletteColor(i), dash: [3, 3], width: 1 },
        { label: `${l.label} 95 % high`, color: paletteColor(i), dash: [3, 3], width: 1 },
      ]),
      xSplits: sweep.x_values.map((_, i) => i),
      xFormat: (v) => sweep.x_values[Math.round(v)] ?? '',
      xLabel: xName,
      y: { label: `typical ${test?.phase ?? ''} time`, format: (v) => formatNs(v) },
    }),
    [lines, sweep, xName, test],
  );
  const data = useMemo(
    (): ChartData => [sweep.x_values.map((_, i) => i), ...lines.flatMap((l) => [l.typical, l.low, l.high])],
    [lines, sweep],
  );
  if (!test) return null;
  return (
    <div class="panel" data-testid="sweep-panel">
      <div class="panel-head">
        <h2>
          Sweep of {sweep.engine}: {sweep.settings.join(' × ')}
        </h2>
        <div class="spacer" />
        <label class="inline-field">
          <span>Test</span>
          <select value={test.test} onChange={(e) => setPicked(e.currentTarget.value)} data-testid="sweep-test">
            {sweep.tests.map((t) => (
              <option key={t.test} value={t.test}>
                {t.test}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Chart
        spec={spec}
        specKey={`sweep:${runId}:${test.test}:${lines.map((l) => l.label).join('|')}`}
        data={data}
        label={`${test.test}: typical ${test.phase} time against ${xName}, one line per ${sweep.settings.slice(1).join(', ') || 'run'}`}
        testid="sweep-chart"
      />
      <ul data-testid="sweep-notes">
        {test.best && <li>best: {test.best}</li>}
        {sweep.effects.map((e) => {
          const moved = e.changed.includes(test.test);
          const what = moved
            ? 'moved the figure beyond noise'
            : e.undecided.includes(test.test)
              ? 'could not tell (busy or too few invocations)'
              : 'within noise';
          return (
            <li key={e.setting} class={moved ? undefined : 'muted'}>
              {e.setting}: {what}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
