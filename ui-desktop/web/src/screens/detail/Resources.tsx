/**
 * CPU and RSS of one test's cells: the selected cell's (the first test's cells, every
 * runtime, until one is picked), one series per runtime in the run's colours, each on its
 * own cell's clock; a cell sampled only once or twice an invocation drawn as marks.
 */
import { useMemo } from 'preact/hooks';
import type { SampleRow } from '../../api';
import { Chart } from '../../charts/Chart';
import { resourceSeries } from '../../charts/resources';
import { type ChartSpec, paletteColor } from '../../charts/uplot';
import { formatBytes, formatSeconds } from '../../format';

/** The memory axis reaches at least this far, so an idle chart reads 0–1 MiB, not "1 B". */
const RSS_AXIS_MIN = 1024 * 1024;

export function Resources({
  runId,
  samples,
  test,
  runtime,
  runtimes,
  intervalMs,
}: {
  runId: string;
  samples: readonly SampleRow[];
  /** The test whose cells are drawn. */
  test: string;
  /** The picked cell's runtime: only it is drawn (else every runtime of the test). */
  runtime?: string;
  /** The run's runtimes: the order and colours of the series. */
  runtimes: readonly string[];
  /** The run's sampling interval, ms: a longer gap between samples is another invocation. */
  intervalMs?: number;
}) {
  const data = useMemo(() => resourceSeries(samples, test, runtimes, intervalMs, runtime), [samples, test, runtime, runtimes, intervalMs]);
  const specs = useMemo(() => {
    const series = data.runtimes.map((label, i) => ({ label, color: paletteColor(data.colors[i]!), points: data.sparse[i] }));
    const cpu: ChartSpec = {
      height: 180,
      series,
      legend: true,
      y: { format: (v) => `${v.toFixed(0)} %`, minMax: 100 },
      xFormat: formatSeconds,
    };
    // One legend (the CPU chart's) names the runtimes of both.
    const rss: ChartSpec = { ...cpu, legend: false, y: { format: (v) => formatBytes(v), minMax: RSS_AXIS_MIN } };
    return { cpu, rss };
  }, [data]);
  if (samples.length === 0) return <p class="muted">No samples were recorded for this run.</p>;
  if (data.runtimes.length === 0) return <p class="muted">No samples were recorded for {test}.</p>;
  const key = `${runId}:${test}:${data.runtimes.join('|')}`;
  return (
    <div
      class="resource-charts"
      data-testid="resources"
      data-test={test}
      data-runtimes={data.runtimes.join(',')}
      data-colors={specs.cpu.series.map((s) => s.color).join(',')}
      data-marked={specs.cpu.series
        .filter((s) => s.points)
        .map((s) => s.label)
        .join(',')}
    >
      <p class="muted small">
        {runtime && data.runtimes.length === 1 ? `${runtime} × ${test}` : test}: each runtime on its own cell’s clock (its invocations one
        after another, a break between them)
      </p>
      <h3>CPU (% of one core)</h3>
      <Chart spec={specs.cpu} specKey={`cpu:${key}`} data={data.cpu} label={`CPU of ${test}`} testid="detail-cpu" />
      <h3>Resident memory</h3>
      <Chart spec={specs.rss} specKey={`rss:${key}`} data={data.rss} label={`Resident memory of ${test}`} testid="detail-rss" />
    </div>
  );
}
