/**
 * Lifecycle runs: one measurement against initial heap size, log-log, a line per runtime
 * for dense modules (solid) and one of the same colour for sparse ones (dashed). A select
 * switches the measurement (instantiate first).
 */
import { useMemo, useState } from 'preact/hooks';
import type { RunSummary } from '../../api';
import { Chart } from '../../charts/Chart';
import { type ChartData, type ChartSpec, paletteColor } from '../../charts/uplot';
import { formatSize } from '../../format';
import { formatAxis, HEAP_CHART_MEASURES, heapChartData, heapSeries, measureByKey } from '../../lifecycle';

const Y_LABEL = { ns: 'median per operation', bytes: 'median per live instance', per_sec: 'median' } as const;

export function HeapChart({ runId, summary }: { runId: string; summary: RunSummary }) {
  const series = useMemo(() => heapSeries(summary), [summary]);
  const offered = HEAP_CHART_MEASURES.filter((k) => series.some((s) => s.measure === k));
  const [picked, setPicked] = useState(HEAP_CHART_MEASURES[0]!);
  const key = offered.includes(picked) ? picked : offered[0];

  const chart = useMemo(() => (key ? heapChartData(series, summary.runtimes, key) : null), [series, summary.runtimes, key]);
  const spec = useMemo((): ChartSpec | null => {
    if (!chart) return null;
    const unit = chart.measure.unit;
    return {
      height: 320,
      legend: true,
      series: chart.lines.map((l) => ({
        label: `${l.runtime} ${l.fill}`,
        color: paletteColor(l.colorIndex),
        dash: l.fill === 'sparse' ? [6, 4] : undefined,
        points: true,
      })),
      xLog: 2,
      xLabel: 'heap',
      xFormat: formatSize,
      y: { label: Y_LABEL[unit], format: (v) => formatAxis(unit, v), log: unit === 'bytes' ? 2 : 10 },
    };
  }, [chart]);
  const data = useMemo((): ChartData => (chart ? [chart.x, ...chart.lines.map((l) => l.median)] : []), [chart]);

  if (!chart || !spec || !key) {
    return (
      <>
        <h2>Against initial heap size</h2>
        <p class="muted">No heap module was measured in this run.</p>
      </>
    );
  }
  const labels = spec.series.map((s) => s.label).join('|');
  return (
    <>
      <div class="panel-head">
        <h2>{chart.measure.label} vs initial heap size</h2>
        <div class="spacer" />
        <label class="inline-field">
          <span>Measurement</span>
          <select value={key} onChange={(e) => setPicked(e.currentTarget.value)} data-testid="heap-measure">
            {offered.map((k) => (
              <option key={k} value={k}>
                {measureByKey(k)?.label ?? k}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p class="muted small">
        Median of each heap module, log–log: solid lines dense (every 4 KiB page holds data), dashed sparse (one page in eight).{' '}
        <code>hello</code> has no heap: see the table above.
      </p>
      <Chart
        spec={spec}
        specKey={`heap:${runId}:${key}:${labels}`}
        data={data}
        label={`${chart.measure.label} against initial heap size, ${chart.x.map(formatSize).join(', ')}`}
        testid="heap-chart"
      />
    </>
  );
}
