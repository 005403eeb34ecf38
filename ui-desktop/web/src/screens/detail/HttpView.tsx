/**
 * HTTP runs (gateway, servers): per request, a table of every server variant (cold
 * start, latency p50/p90/p99 over one connection, best requests/s and at how many
 * connections, that against the baseline, peak RSS, CPU per 1,000 requests at the best
 * level, failed requests), requests/s against connections (uPlot, log x) and the latency
 * percentiles side by side (SVG bars, log y). Failed cells say why. A saturated level (no
 * request completed within the duration) shows its bound, `saturated (< 0.50 req/s)`,
 * under the table and is never drawn as a point. Runs with offered rates (open model) add
 * corrected p99 against offered rate (uPlot, log–log, each knee a point of its own) and a
 * table of every rate with the uncorrected figures and the SLO's verdict.
 */
import { useMemo, useState } from 'preact/hooks';
import type { HttpCell, HttpSaturatedLevel } from '../../api';
import { Chart } from '../../charts/Chart';
import { type ChartData, type ChartSpec, paletteColor } from '../../charts/uplot';
import { formatBytes, formatNs, formatRatio, MISSING, ratioStyle } from '../../format';
import {
  bestLevel,
  formatRps,
  formatRpsTick,
  httpRequests,
  kneeLabel,
  measuredLevels,
  offeredRates,
  rateChartData,
  rpsChartData,
} from '../../http';

interface HttpViewProps {
  runId: string;
  cells: HttpCell[];
  /** Runtimes in run order (colours). */
  runtimes: string[];
  baseline: string;
}

export function HttpView({ runId, cells, runtimes, baseline }: HttpViewProps) {
  const requests = useMemo(() => httpRequests(cells), [cells]);
  if (requests.length === 0) return <p class="muted">No HTTP results in this run.</p>;
  return (
    <>
      {requests.map((r) => (
        <div class="panel http-request" key={r.test} data-testid="http-request" data-test={r.test}>
          <h2>
            Request <code>{r.test}</code>
          </h2>
          <HttpTable cells={r.cells} baseline={baseline} />
          <div class="http-charts">
            <RpsChart runId={runId} test={r.test} cells={r.cells} runtimes={runtimes} />
            <LatencyBars test={r.test} cells={r.cells} runtimes={runtimes} />
          </div>
          <Rates runId={runId} test={r.test} cells={r.cells} runtimes={runtimes} />
        </div>
      ))}
    </>
  );
}

type SortKey = 'variant' | 'cold' | 'p50' | 'p90' | 'p99' | 'best' | 'rel' | 'rss' | 'cpu' | 'errors';

const COLUMNS: { key: SortKey; label: string; title?: string }[] = [
  { key: 'variant', label: 'variant' },
  { key: 'cold', label: 'cold start', title: 'Spawn to the first 200 OK (median)' },
  { key: 'p50', label: 'latency p50', title: 'Latency over one keep-alive connection' },
  { key: 'p90', label: 'p90' },
  { key: 'p99', label: 'p99' },
  { key: 'best', label: 'best req/s (conn.)', title: 'Most requests per second over the levels, at that many connections' },
  { key: 'rel', label: '× baseline', title: 'Best requests/s over the baseline’s best; higher is better' },
  { key: 'rss', label: 'peak RSS', title: 'Peak resident memory of the server over an iteration' },
  { key: 'cpu', label: 'CPU / 1k req', title: 'Server CPU time per 1,000 requests at the best level' },
  { key: 'errors', label: 'errors', title: 'Failed requests, summed over levels and iterations' },
];

/** A cell's saturated levels, by ascending connections. */
export function saturatedLevels(c: HttpCell): HttpSaturatedLevel[] {
  return (c.saturated ?? [])
    .filter((l) => l.connections > 0 && Number.isFinite(l.below_rps))
    .slice()
    .sort((a, b) => a.connections - b.connections);
}

/** How a saturated level reads, as in the CLI and the exports: `saturated (< 0.50 req/s)`. */
export function saturatedLabel(l: HttpSaturatedLevel): string {
  const bound = l.below_rps < 10 ? l.below_rps.toFixed(2) : formatRps(l.below_rps);
  const of = l.iterations < l.of ? `, ${l.iterations} of ${l.of} runs` : '';
  return `saturated (< ${bound} req/s${of})`;
}

function errorsOf(c: HttpCell): number | null {
  const ls = [...measuredLevels(c), ...saturatedLevels(c)];
  return ls.length ? ls.reduce((n, l) => n + (l.errors || 0), 0) : null;
}

function sortValue(c: HttpCell, k: SortKey): number | string | null {
  switch (k) {
    case 'variant':
      return c.runtime;
    case 'cold':
      return c.cold_start?.median ?? null;
    case 'p50':
      return c.p50_ns;
    case 'p90':
      return c.p90_ns;
    case 'p99':
      return c.p99_ns;
    case 'best':
      return c.best?.[1] ?? null;
    case 'rel':
      return c.best_vs_baseline;
    case 'rss':
      return c.peak_rss_kib;
    case 'cpu':
      return bestLevel(c)?.cpu_ns_per_1k ?? null;
    case 'errors':
      return errorsOf(c);
  }
}

function HttpTable({ cells, baseline }: { cells: HttpCell[]; baseline: string }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 } | null>(null);
  const rows = useMemo(() => {
    if (!sort) return cells;
    return cells
      .map((c, i) => ({ c, i, v: sortValue(c, sort.key) }))
      .sort((a, b) => {
        if (a.v === null && b.v === null) return a.i - b.i;
        if (a.v === null) return 1;
        if (b.v === null) return -1;
        const d = typeof a.v === 'string' ? a.v.localeCompare(String(b.v)) : a.v - (b.v as number);
        return d * sort.dir || a.i - b.i;
      })
      .map((x) => x.c);
  }, [cells, sort]);
  const by = (key: SortKey) => setSort((s) => ({ key, dir: s?.key === key && s.dir === 1 ? -1 : 1 }));
  return (
    <div class="table-scroll">
      <table class="http-table" data-testid="http-table">
        <thead>
          <tr>
            {COLUMNS.map((col) => (
              <th
                key={col.key}
                class={col.key === 'variant' ? 'sortable' : 'num sortable'}
                title={col.title}
                aria-sort={sort?.key === col.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
                onClick={() => by(col.key)}
                data-testid={`http-sort-${col.key}`}
              >
                {col.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const levels = measuredLevels(c);
            const sats = saturatedLevels(c);
            const hasData = levels.length > 0 || sats.length > 0 || c.p50_ns !== null || c.cold_start !== null;
            const name = (
              <th scope="row">
                {c.runtime}
                {c.runtime === baseline && <span class="tag">baseline</span>}
              </th>
            );
            if (c.failure && !hasData) {
              return (
                <tr key={c.runtime} class="failed-row" data-testid="http-row" data-runtime={c.runtime} data-failed="">
                  {name}
                  <td colSpan={COLUMNS.length - 1} class="failure" data-testid="http-failure">
                    failed: {c.failure}
                  </td>
                </tr>
              );
            }
            const at = bestLevel(c);
            const errors = errorsOf(c);
            const rel = c.best_vs_baseline;
            return (
              <tr key={c.runtime} data-testid="http-row" data-runtime={c.runtime}>
                {name}
                <td
                  class="num"
                  data-col="cold"
                  title={
                    c.cold_start ? `n=${c.cold_start.n}, min ${formatNs(c.cold_start.min)}, max ${formatNs(c.cold_start.max)}` : undefined
                  }
                >
                  {formatNs(c.cold_start?.median)}
                </td>
                <td class="num" data-col="p50">
                  {formatNs(c.p50_ns)}
                </td>
                <td class="num" data-col="p90">
                  {formatNs(c.p90_ns)}
                </td>
                <td class="num" data-col="p99">
                  {formatNs(c.p99_ns)}
                </td>
                <td class="num" data-col="best">
                  {c.best
                    ? `${formatRps(c.best[1])} (${c.best[0]})`
                    : sats[0]
                      ? `${saturatedLabel(sats[0])} (${sats[0].connections})`
                      : MISSING}
                </td>
                <td class="num" data-col="rel" style={rel !== null && rel > 0 ? ratioStyle(1 / rel) : undefined}>
                  {formatRatio(rel)}
                </td>
                <td class="num" data-col="rss">
                  {c.peak_rss_kib !== null ? formatBytes(c.peak_rss_kib * 1024) : MISSING}
                </td>
                <td class="num" data-col="cpu">
                  {formatNs(at?.cpu_ns_per_1k)}
                </td>
                <td class={errors ? 'num bad' : 'num'} data-col="errors">
                  {errors === null ? MISSING : String(errors)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {cells.some((c) => c.failure && (measuredLevels(c).length > 0 || c.p50_ns !== null)) && (
        <p class="bad small">
          {cells
            .filter((c) => c.failure && (measuredLevels(c).length > 0 || c.p50_ns !== null))
            .map((c) => `${c.runtime} failed: ${c.failure}`)
            .join(' · ')}
        </p>
      )}
      {cells.some((c) => saturatedLevels(c).length > 0) && (
        <p class="muted small" data-testid="http-saturated">
          Saturated (no request completed within the duration, so the rate was below the bound; not drawn as a point):{' '}
          {cells
            .filter((c) => saturatedLevels(c).length > 0)
            .map(
              (c) =>
                `${c.runtime} at ${saturatedLevels(c)
                  .map((l) => `${l.connections} connections ${saturatedLabel(l)}`)
                  .join(', ')}`,
            )
            .join(' · ')}
        </p>
      )}
    </div>
  );
}

function RpsChart({ runId, test, cells, runtimes }: { runId: string; test: string; cells: HttpCell[]; runtimes: string[] }) {
  const chart = useMemo(() => rpsChartData(cells, runtimes), [cells, runtimes]);
  const spec = useMemo(
    (): ChartSpec => ({
      height: 300,
      legend: true,
      series: chart.lines.map((l) => ({ label: l.runtime, color: paletteColor(l.colorIndex), points: true, width: 2 })),
      xLog: 10,
      xSplits: chart.x,
      xLabel: 'connections',
      xFormat: (v) => String(v),
      y: { label: 'requests/s', format: (v) => formatRpsTick(v), log: 10 },
    }),
    [chart],
  );
  const data = useMemo((): ChartData => [chart.x, ...chart.lines.map((l) => l.rps)], [chart]);
  if (chart.lines.length === 0) {
    return (
      <figure class="http-figure">
        <figcaption>Requests/s vs connections</figcaption>
        <p class="muted">
          No throughput was measured for this request
          {cells.some((c) => saturatedLevels(c).length > 0) ? ': every level saturated (see under the table).' : '.'}
        </p>
      </figure>
    );
  }
  const labels = chart.lines.map((l) => l.runtime).join('|');
  return (
    <figure class="http-figure">
      <figcaption>Requests/s vs connections (log–log)</figcaption>
      <Chart
        spec={spec}
        specKey={`http-rps:${runId}:${test}:${labels}:${chart.x.join(',')}`}
        data={data}
        label={`Requests per second against connections for ${test}: ${chart.lines
          .map((l) => `${l.runtime} ${l.rps.map((v) => formatRps(v)).join('/')}`)
          .join('; ')} at ${chart.x.join(', ')} connections`}
        testid="http-rps-chart"
      />
    </figure>
  );
}

const PCTS = [
  { key: 'p50_ns', label: 'p50', opacity: 0.45 },
  { key: 'p90_ns', label: 'p90', opacity: 0.7 },
  { key: 'p99_ns', label: 'p99', opacity: 1 },
] as const;

/** p50, p90 and p99 of the latency over one connection, side by side per variant, log y. */
export function LatencyBars({ test, cells, runtimes }: { test: string; cells: HttpCell[]; runtimes: string[] }) {
  const rows = cells.filter((c) => PCTS.some((p) => (c[p.key] ?? 0) > 0));
  if (rows.length === 0) {
    return (
      <figure class="http-figure">
        <figcaption>Latency percentiles</figcaption>
        <p class="muted">No latency was measured for this request.</p>
      </figure>
    );
  }
  const vals = rows.flatMap((c) => PCTS.map((p) => c[p.key]).filter((v): v is number => v !== null && v > 0));
  const lo = Math.log10(Math.min(...vals) / 1.8);
  const hi = Math.log10(Math.max(...vals) * 1.8);
  const W = 520;
  const H = 260;
  const L = 64;
  const R = 8;
  const T = 8;
  const B = 34;
  const y = (v: number) => H - B - ((Math.log10(v) - lo) / (hi - lo)) * (H - B - T);
  const ticks: number[] = [];
  for (let e = Math.floor(lo); e <= Math.ceil(hi); e++) {
    for (const m of hi - lo <= 3 ? [1, 3] : [1]) {
      const v = m * 10 ** e;
      if (v > 0 && Math.log10(v) >= lo && Math.log10(v) <= hi) ticks.push(v);
    }
  }
  const gw = (W - L - R) / rows.length;
  const bw = Math.min(26, (gw - 10) / 3);
  return (
    <figure class="http-figure">
      <figcaption>Latency percentiles, one connection (log scale)</figcaption>
      <svg
        class="http-bars"
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={`Latency p50, p90 and p99 of ${test} per variant`}
        data-testid="http-latency-chart"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line class="grid" x1={L} x2={W - R} y1={y(t)} y2={y(t)} />
            <text class="tick" x={L - 4} y={y(t) + 3} text-anchor="end">
              {formatNs(t)}
            </text>
          </g>
        ))}
        <line class="axis" x1={L} x2={W - R} y1={H - B} y2={H - B} />
        {rows.map((c, i) => {
          const ci = runtimes.indexOf(c.runtime);
          const color = paletteColor(ci < 0 ? runtimes.length + i : ci);
          const x0 = L + i * gw + (gw - 3 * bw) / 2;
          return (
            <g key={c.runtime} data-testid="http-latency-group" data-runtime={c.runtime}>
              {PCTS.map((p, j) => {
                const v = c[p.key];
                if (v === null || !(v > 0)) return null;
                return (
                  <rect
                    key={p.key}
                    x={x0 + j * bw}
                    y={y(v)}
                    width={Math.max(1, bw - 2)}
                    height={Math.max(1, H - B - y(v))}
                    fill={color}
                    fill-opacity={p.opacity}
                    data-pct={p.label}
                  >
                    <title>{`${c.runtime} · ${p.label}: ${formatNs(v)}`}</title>
                  </rect>
                );
              })}
              <text class="label" x={L + i * gw + gw / 2} y={H - B + 13} text-anchor="middle">
                <title>{c.runtime}</title>
                {c.runtime.length > Math.floor(gw / 7.5) ? `${c.runtime.slice(0, Math.max(4, Math.floor(gw / 7.5) - 1))}…` : c.runtime}
              </text>
              <text class="tick" x={L + i * gw + gw / 2} y={H - B + 26} text-anchor="middle">
                {formatNs(c.p50_ns)}
              </text>
            </g>
          );
        })}
      </svg>
      <div class="http-legend small muted">
        {PCTS.map((p) => (
          <span key={p.key} class={`pct pct-${p.label}`}>
            {p.label}
          </span>
        ))}{' '}
        (lighter to darker; hover a bar for its value)
      </div>
    </figure>
  );
}

/** Latency against offered rate and each rate's figures; nothing for a run without rates. */
function Rates({ runId, test, cells, runtimes }: { runId: string; test: string; cells: HttpCell[]; runtimes: string[] }) {
  const chart = useMemo(() => rateChartData(cells, runtimes), [cells, runtimes]);
  const slo = cells.find((c) => c.knee)?.knee?.slo_p99_ms ?? null;
  const spec = useMemo(
    (): ChartSpec => ({
      height: 300,
      legend: true,
      series: chart.lines.flatMap((l) => [
        { label: `${l.runtime} p99`, color: paletteColor(l.colorIndex), points: true, width: 2 },
        { label: `${l.runtime} knee`, color: paletteColor(l.colorIndex), points: true, width: 0 },
      ]),
      xLog: 10,
      xSplits: chart.x,
      xLabel: 'offered req/s',
      xFormat: (v) => formatRpsTick(v),
      y: { label: 'p99, corrected', format: (v) => formatNs(v), log: 10 },
    }),
    [chart],
  );
  const data = useMemo((): ChartData => [chart.x, ...chart.lines.flatMap((l) => [l.p99, l.knee])], [chart]);
  const served = cells.filter((c) => offeredRates(c).length > 0);
  if (served.length === 0) return null;
  const labels = chart.lines.map((l) => l.runtime).join('|');
  return (
    <div class="http-rates" data-testid="http-rates">
      <h3>Latency vs offered rate (open model){slo !== null && `, SLO p99 ≤ ${formatNs(slo * 1e6)}`}</h3>
      <p class="muted small">
        Each variant loaded at fixed arrival rates; latency timed from when each request was due (coordinated omission corrected), the
        uncorrected figures beside. Knee: the highest offered rate whose p99 stayed within the SLO.
      </p>
      {chart.lines.length > 0 && (
        <Chart
          spec={spec}
          specKey={`http-rates:${runId}:${test}:${labels}:${chart.x.join(',')}`}
          data={data}
          label={`Corrected p99 against offered rate for ${test}: ${chart.lines
            .map((l) => `${l.runtime} ${l.p99.map((v) => formatNs(v)).join('/')}`)
            .join('; ')} at ${chart.x.join(', ')} req/s`}
          testid="http-rate-chart"
        />
      )}
      <div class="table-scroll">
        <table class="http-table" data-testid="http-rate-table">
          <thead>
            <tr>
              <th>variant</th>
              <th>knee</th>
              <th class="num">offered req/s</th>
              <th class="num">achieved</th>
              <th class="num">p50</th>
              <th class="num">p99</th>
              <th class="num">p99.9</th>
              <th class="num" title="Timed from the actual write, as a closed-loop tool would">
                uncorrected p99
              </th>
              <th class="num">errors</th>
              <th>SLO</th>
            </tr>
          </thead>
          <tbody>
            {served.flatMap((c) =>
              offeredRates(c).map((r, i) => (
                <tr key={`${c.runtime}/${r.offered}`} data-testid="http-rate-row" data-runtime={c.runtime} data-rate={r.offered}>
                  <th scope="row">{i === 0 ? c.runtime : ''}</th>
                  <td data-col="knee">{i === 0 ? kneeLabel(c.knee) : ''}</td>
                  <td class="num">{formatRps(r.offered)}</td>
                  <td class="num">{formatRps(r.achieved)}</td>
                  <td class="num">{formatNs(r.corrected_ns[0])}</td>
                  <td class="num" data-col="p99">
                    {formatNs(r.corrected_ns[2])}
                  </td>
                  <td class="num">{formatNs(r.corrected_ns[3])}</td>
                  <td class="num" data-col="uncorrected-p99">
                    {formatNs(r.uncorrected_ns[2])}
                  </td>
                  <td class={r.errors > 0 ? 'num bad' : 'num'}>
                    {r.errors}
                    {r.timeouts > 0 && ` (${r.timeouts} timeouts)`}
                  </td>
                  <td data-col="verdict" class={r.met_slo ? 'good' : 'bad'}>
                    {r.generator_bound_rps !== null
                      ? `beyond the load generator (sent ${formatRps(r.generator_bound_rps)} req/s)`
                      : r.met_slo
                        ? 'met'
                        : r.unsent
                          ? `broke (${Math.round(r.unsent)} due, never sent)`
                          : 'broke'}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
