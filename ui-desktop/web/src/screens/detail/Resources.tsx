/** CPU and RSS of the run's workers over time, one coloured series per cell. */
import { useMemo } from 'preact/hooks';
import type { SampleRow } from '../../api';
import { Chart } from '../../charts/Chart';
import { resourceSeries } from '../../charts/resources';
import { type ChartSpec, paletteColor } from '../../charts/uplot';
import { formatBytes, formatSeconds } from '../../format';

export function Resources({ runId, samples }: { runId: string; samples: readonly SampleRow[] }) {
  const data = useMemo(() => resourceSeries(samples), [samples]);
  const specs = useMemo(() => {
    const series = data.labels.map((label, i) => ({ label, color: paletteColor(i) }));
    const cpu: ChartSpec = {
      height: 180,
      series,
      legend: true,
      y: { format: (v) => `${v.toFixed(0)} %`, minMax: 100 },
      xFormat: formatSeconds,
    };
    const rss: ChartSpec = { ...cpu, y: { format: (v) => formatBytes(v) } };
    return { cpu, rss };
  }, [data]);
  if (samples.length === 0) return <p class="muted">No samples were recorded for this run.</p>;
  const key = `${runId}:${data.labels.join('|')}`;
  return (
    <div class="resource-charts">
      <h3>CPU (% of one core)</h3>
      <Chart spec={specs.cpu} specKey={`cpu:${key}`} data={data.cpu} label="CPU over the run" testid="detail-cpu" />
      <h3>Resident memory</h3>
      <Chart spec={specs.rss} specKey={`rss:${key}`} data={data.rss} label="Resident memory over the run" testid="detail-rss" />
    </div>
  );
}
