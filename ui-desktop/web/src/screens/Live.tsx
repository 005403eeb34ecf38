/**
 * The run in flight: progress with ETA, the cells, live CPU/RSS of the worker and the
 * results matrix filling in as cells finish. Everything here is derived from the
 * session's reduced state; the graphs read the session's sample ring directly.
 */
import { useEffect, useState } from 'preact/hooks';
import { useChart } from '../charts/Chart';
import type { ChartSpec } from '../charts/uplot';
import { ConfirmDialog } from '../components/Modal';
import { ListTable } from '../components/Windowed';
import { formatBytes, formatDuration, formatNs, formatPct, formatRatio, formatSeconds, MISSING, ratioStyle, ratioTone } from '../format';
import { type LiveSession, S_CPU, S_RSS, S_T } from '../live/session';
import { inFlight, type LiveState, liveMatrix } from '../live/state';
import { useLive } from '../live/useLive';
import { shapeOf } from '../shape';
import { MatrixTable } from './detail/Matrix';

interface LiveProps {
  session: LiveSession;
  onOpenDetail: (runId: string) => void;
  onNewRun: () => void;
}

const STATUS_TEXT: Record<LiveState['state'], string> = {
  idle: 'idle',
  running: 'running',
  complete: 'complete',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
  error: 'error',
};

export function Live({ session, onOpenDetail, onNewRun }: LiveProps) {
  const state = useLive(session);
  const [confirming, setConfirming] = useState(false);
  const p = state.progress;
  const pos = state.position;
  const left = state.eta;
  const running = inFlight(state);
  const ended = !running && state.state !== 'idle';
  const shape = shapeOf(state.suiteKind);
  const { lifecycle, http } = shape;

  return (
    <section class="screen live" aria-labelledby="live-title">
      <header class="screen-head">
        <h1 id="live-title">Live run</h1>
        <span class={`badge state-${state.state}`} data-testid="run-state" data-state={state.state}>
          {STATUS_TEXT[state.state]}
          {state.cancelling ? ' (cancelling…)' : ''}
        </span>
        {state.runId && <code class="muted">{state.runId}</code>}
        <div class="spacer" />
        {running && (
          <button type="button" class="danger" disabled={state.cancelling} onClick={() => setConfirming(true)} data-testid="cancel-run">
            {state.cancelling ? 'Cancelling…' : 'Cancel run'}
          </button>
        )}
      </header>

      {state.state === 'idle' && (
        <p class="empty">
          No run yet.{' '}
          <button type="button" class="link" onClick={onNewRun}>
            Set one up
          </button>
          .
        </p>
      )}

      {state.state !== 'idle' && (
        <div class="panel progress-panel">
          <div
            class="progress"
            role="progressbar"
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(p.fraction * 100)}
            data-testid="run-progress"
          >
            <div class="progress-fill" style={{ width: `${(p.fraction * 100).toFixed(1)}%` }} />
          </div>
          <div class="progress-text">
            <span data-testid="cell-position">
              {pos.round !== null ? (
                <>
                  round {pos.round} of {pos.invocations} · {pos.in_round} of {pos.of} cells
                </>
              ) : (
                <>
                  cell {pos.at} of {pos.of}
                </>
              )}
              {pos.round === null && pos.invocations > 1 && pos.invocation > 0 && (
                <span data-testid="cell-invocation">
                  {' '}
                  · invocation {pos.invocation} of {pos.invocations}
                </span>
              )}
            </span>
            <span>
              {p.done} / {p.total} iterations ({Math.floor(p.fraction * 100)} %)
            </span>
            <span data-testid="eta">ETA {running && left !== null ? formatDuration(left) : MISSING}</span>
            {state.failedCells > 0 && <span class="bad">{state.failedCells} failed</span>}
          </div>
        </div>
      )}

      {ended && (
        <div class={`panel outcome outcome-${state.state}`} data-testid="run-outcome">
          {state.state === 'error' ? (
            <p>
              The run stopped on an error: <strong>{state.error}</strong>. Finished cells are saved.
            </p>
          ) : (
            <p>
              Run {state.state}: {state.finishedCells} of {state.cells.length} cells finished
              {state.failedCells > 0 ? `, ${state.failedCells} failed` : ''}.
            </p>
          )}
          <div class="row">
            {state.runId && state.state !== 'error' && (
              <button type="button" class="primary" onClick={() => onOpenDetail(state.runId!)} data-testid="open-detail">
                Open run detail
              </button>
            )}
            {state.runId && state.state === 'error' && (
              <button type="button" onClick={() => onOpenDetail(state.runId!)} data-testid="open-detail">
                Open what was saved
              </button>
            )}
            <button type="button" onClick={onNewRun}>
              New run
            </button>
          </div>
        </div>
      )}

      {state.state !== 'idle' && (
        <div class="live-grid">
          <div class="panel">
            <h2>
              Worker
              {state.lastSample && (
                <span class="muted small">
                  {' '}
                  {state.lastSample.runtime} / {state.lastSample.test}: {formatPct(state.lastSample.cpu_pct)} CPU,{' '}
                  {formatBytes(state.lastSample.rss_bytes)}
                </span>
              )}
            </h2>
            <LiveCharts session={session} />
          </div>
          <div class="panel">
            <h2>
              Results so far
              {lifecycle && <span class="muted small"> (median instantiate time per operation)</span>}
              {!lifecycle && !http && (
                <span class="muted small" data-testid="live-caption">
                  {' '}
                  (typical time per iteration: the geometric mean over invocations, as the run detail shows it; ≈ interim while a cell runs)
                </span>
              )}
              {http && (
                <span class="muted small" data-testid="live-http-note">
                  {' '}
                  (median request latency over one connection; throughput per level in the run detail)
                </span>
              )}
            </h2>
            <LiveMatrixView state={state} />
          </div>
        </div>
      )}

      {state.cells.length > 0 && (
        <div class="panel">
          <h2>Cells</h2>
          <CellsTable state={state} />
        </div>
      )}

      {confirming && (
        <ConfirmDialog
          title="Cancel the run?"
          message="The cell running now is stopped; finished cells stay saved and the run is marked cancelled."
          confirmLabel="Cancel run"
          cancelLabel="Keep running"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void session.cancel();
          }}
        />
      )}
    </section>
  );
}

const CPU_SPEC: ChartSpec = {
  height: 150,
  series: [{ label: 'CPU', color: '#3b82f6' }],
  y: { format: (v) => `${v.toFixed(0)} %`, minMax: 100 },
  xFormat: formatSeconds,
};

const RSS_SPEC: ChartSpec = {
  height: 150,
  series: [{ label: 'RSS', color: '#10b981' }],
  y: { format: (v) => formatBytes(v) },
  xFormat: formatSeconds,
};

/**
 * CPU and RSS of the worker. Subscribed to the session itself (not through props) and
 * updated only when the sample ring changed: at most one setData per frame per chart.
 */
function LiveCharts({ session }: { session: LiveSession }) {
  const [cpuEl, cpu] = useChart(CPU_SPEC, 'live-cpu');
  const [rssEl, rss] = useChart(RSS_SPEC, 'live-rss');
  useEffect(() => {
    let drawn = -1;
    const update = () => {
      if (session.sampleVersion === drawn) return;
      drawn = session.sampleVersion;
      const r = session.samples;
      cpu.current?.setData([r.view(S_T), r.view(S_CPU)]);
      rss.current?.setData([r.view(S_T), r.view(S_RSS)]);
    };
    update();
    return session.subscribe(update);
  }, [session]);
  return (
    <div class="live-charts">
      <div class="chart-box">
        <h3>CPU (% of one core)</h3>
        <div class="chart" ref={cpuEl} role="img" aria-label="Live CPU of the worker" data-testid="live-cpu" />
      </div>
      <div class="chart-box">
        <h3>Resident memory</h3>
        <div class="chart" ref={rssEl} role="img" aria-label="Live resident memory of the worker" data-testid="live-rss" />
      </div>
    </div>
  );
}

/**
 * Tests × runtimes: each cell's typical primary time (the saved run's own figure; interim,
 * marked ≈, while the cell runs) and its ratio to the baseline; lifecycle runs show the
 * median instantiate time alone (no native to be relative to).
 */
function LiveMatrixView({ state }: { state: LiveState }) {
  const m = liveMatrix(state);
  if (m.tests.length === 0) return <p class="muted">Waiting for the plan…</p>;
  return (
    <MatrixTable
      tests={m.tests}
      runtimes={m.runtimes}
      baseline={m.lifecycle ? null : state.baseline}
      testid="live-matrix"
      label="Results so far"
      attrs={{ 'data-lifecycle': m.lifecycle ? 'true' : undefined }}
      cell={(r, t) => {
        const c = m.cell(r, t);
        if (!c)
          return (
            <td key={r} class="na">
              –
            </td>
          );
        if (c.status === 'failed') {
          return (
            <td key={r} class="failed" title={c.failure ?? ''} data-testid="live-cell" data-runtime={r} data-test={t}>
              failed
            </td>
          );
        }
        if (c.value === null) {
          return (
            <td key={r} class="pending" data-testid="live-cell" data-runtime={r} data-test={t} data-status={c.status}>
              {c.status === 'running' ? '…' : c.status === 'queued' ? `${c.invocationsEnded}/${state.invocations}` : ''}
            </td>
          );
        }
        return (
          <td
            key={r}
            class={c.interim ? 'interim' : undefined}
            style={c.ratio !== null && !c.interim ? ratioStyle(c.ratio) : undefined}
            data-tone={c.ratio !== null && !c.interim ? ratioTone(c.ratio) : undefined}
            data-testid="live-cell"
            data-runtime={r}
            data-test={t}
            data-interim={c.interim ? 'true' : undefined}
            title={c.interim ? `interim: from ${c.invocationsEnded} of ${state.invocations} invocations so far` : undefined}
          >
            <div class="ratio">{c.ratio !== null ? `${c.interim ? '≈' : ''}${formatRatio(c.ratio)}` : ''}</div>
            <div class="value">
              {c.interim ? '≈' : ''}
              {formatNs(c.value)}
            </div>
          </td>
        );
      }}
    />
  );
}

/**
 * A cell's status in words: with several invocations, which one runs and how many of a
 * cell between them ended ("queued 1/3").
 */
export function statusText(c: LiveState['cells'][number], state: Pick<LiveState, 'invocations'>): string {
  const k = state.invocations;
  if (k <= 1) return c.status;
  switch (c.status) {
    case 'running':
      return `running ${c.invocation + 1}/${k}`;
    case 'queued':
    case 'partial':
      return `${c.status} ${c.invocationsEnded}/${k}`;
    default:
      return c.status;
  }
}

/** Every cell of the plan in order: status, iterations, value, wall time; failures say why. */
function CellsTable({ state }: { state: LiveState }) {
  return (
    <ListTable
      items={state.cells}
      columns={7}
      label="Cells"
      attrs={{ class: 'cells' }}
      head={
        <>
          <th>#</th>
          <th>runtime</th>
          <th>test</th>
          <th>status</th>
          <th class="num">iterations</th>
          <th class="num">{shapeOf(state.suiteKind).live_value}</th>
          <th class="num">wall</th>
        </>
      }
      row={(c, i) => (
        <tr key={i} data-testid="cell-row" data-status={c.status} class={`cell-${c.status}`}>
          <td class="num">{i + 1}</td>
          <td>{c.runtime}</td>
          <td>{c.test}</td>
          <td title={c.failure ?? undefined} data-testid="cell-status">
            {statusText(c, state)}
            {c.failure && (
              <div class="failure" data-testid="cell-failure">
                {c.failure}
              </div>
            )}
          </td>
          <td class="num">
            {c.done} / {state.iterationsPerCell}
          </td>
          <td class="num">{formatNs(c.interim ? null : c.value)}</td>
          <td class="num">{c.wallMs !== null ? formatNs(c.wallMs * 1e6) : MISSING}</td>
        </tr>
      )}
    />
  );
}
