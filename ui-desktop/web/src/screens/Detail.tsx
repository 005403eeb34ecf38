/**
 * One saved run: what ran where and how (header), the matrix against a chosen
 * baseline (re-summarised by the backend through load_run), distributions, resources and
 * phases. A lifecycle run has no baseline to be relative to (no native): it shows the
 * median (p99) of every measurement per module × runtime and a measurement against heap
 * size instead of the matrix and the command phases. An HTTP run (gateway, servers)
 * shows per request a table of its server variants, requests/s against connections and
 * the latency percentiles instead. Loads on demand: nothing is fetched until a run is
 * opened.
 */

import { useState } from 'preact/hooks';
import { loadRun, type Report, type View } from '../api';
import { formatBytes, formatTime } from '../format';
import { useLoad } from '../load';
import { hasView, shapeOf } from '../shape';
import { Distributions } from './detail/Distributions';
import { FeatureGrid } from './detail/FeatureGrid';
import { HeapChart } from './detail/HeapChart';
import { HttpView } from './detail/HttpView';
import { LifecycleTable } from './detail/LifecycleTable';
import { type CellRef, DetailMatrix } from './detail/Matrix';
import { PairDiff } from './detail/PairDiff';
import { Phases } from './detail/Phases';
import { Profile } from './detail/Profile';
import { Resources } from './detail/Resources';
import { hasSizes, Sizes } from './detail/Sizes';
import { SweepChart } from './detail/SweepChart';

interface DetailProps {
  runId: string | null;
  onExport: (runId: string, baseline: string) => void;
  onPickRun: () => void;
  /** The history of a cell of this run's suite over every saved run; absent: not offered. */
  onHistory?: (cell: { suite: string; test: string; runtime: string }) => void;
}

export function Detail({ runId, onExport, onPickRun, onHistory }: DetailProps) {
  // The matrix cell picked in a given run.
  const [picked, setPicked] = useState<{ id: string | null; cell: CellRef | null }>({ id: null, cell: null });
  // The baseline chosen for a given run; another run starts from its own default.
  const [choice, setChoice] = useState<{ id: string | null; baseline?: string }>({ id: null });
  const baseline = choice.id === runId ? choice.baseline : undefined;
  // The report with the id it was asked for (the backend also resolves prefixes).
  const [loaded, setLoaded] = useState<{ id: string; report: Report } | null>(null);
  const { loading, error } = useLoad(runId ? () => loadRun(runId, baseline) : null, [runId, baseline], {
    loaded: (r) => {
      if (runId) setLoaded({ id: runId, report: r });
    },
    failed: () => setLoaded(null),
  });

  if (!runId) {
    return (
      <section class="screen detail" aria-labelledby="detail-title">
        <header class="screen-head">
          <h1 id="detail-title">Run detail</h1>
        </header>
        <p class="empty">
          No run open.{' '}
          <button type="button" class="link" onClick={onPickRun}>
            Pick one from the saved runs
          </button>
          .
        </p>
      </section>
    );
  }

  const run = loaded?.id === runId ? (loaded.report.runs[0] ?? null) : null;
  const s = run?.summary;
  // Which panels this run has: its kind's views, core's one list (SuiteShape.views).
  const shape = run ? shapeOf(run.suite_kind) : null;
  const has = (v: View) => hasView(shape, v);
  const hs = run?.settings.http;
  const selected = picked.id === runId ? picked.cell : null;

  return (
    <section class="screen detail" aria-labelledby="detail-title" aria-busy={loading}>
      <header class="screen-head">
        <h1 id="detail-title">{run?.label ? run.label : 'Run detail'}</h1>
        <code class="muted">{runId}</code>
        {run && <span class={`badge state-${run.status}`}>{run.status}</span>}
        <div class="spacer" />
        {s && shape?.baseline && (
          <label class="inline-field">
            <span>Baseline</span>
            <select
              value={s.baseline}
              onChange={(e) => setChoice({ id: runId, baseline: e.currentTarget.value })}
              data-testid="detail-baseline"
            >
              {s.runtimes.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
              {!s.runtimes.includes(s.baseline) && <option value={s.baseline}>{s.baseline}</option>}
            </select>
          </label>
        )}
        <button type="button" disabled={!run} onClick={() => s && onExport(runId, s.baseline)} data-testid="detail-export">
          Export…
        </button>
      </header>

      {loading && !run && <p class="muted">Loading {runId}…</p>}
      {error && (
        <p class="bad" data-testid="detail-error">
          Cannot load {runId}: {error}
        </p>
      )}

      {run && s && (
        <>
          {run.headline && (
            <p class="headline" data-testid="run-headline">
              {run.headline}
            </p>
          )}
          <div class="panel facts" data-testid="detail-header">
            <dl>
              <dt>Suite</dt>
              <dd>
                {run.suite} ({run.tests.length} tests, size {run.settings.size})
              </dd>
              <dt>Started</dt>
              <dd>
                {formatTime(run.started_unix)}
                {run.finished_unix ? ` – ${formatTime(run.finished_unix)}` : ''}
              </dd>
              <dt>Machine</dt>
              <dd>
                {run.machine.cpu_model}, {run.machine.cores} cores, {formatBytes(run.machine.memory_bytes)} · {run.machine.os} ·{' '}
                {run.machine.kernel} · {run.machine.arch}
                {run.machine.governor ? ` · governor ${run.machine.governor}` : ''}
              </dd>
              {s.load && (
                <>
                  <dt>Other processes</dt>
                  <dd data-testid="detail-other-load" class={s.load.busy ? 'note' : undefined}>
                    {s.load.other_cores.toFixed(2)} of {s.load.cores} cores during the run
                    {s.load.busy ? ' — busy: a diff with this run gives no verdicts' : ''}
                  </dd>
                </>
              )}
              <dt>Settings</dt>
              <dd data-testid="detail-settings">
                {run.settings.invocations ?? 1} invocation{(run.settings.invocations ?? 1) === 1 ? '' : 's'} × ({run.settings.warmup}{' '}
                warm-up + {run.settings.runs} runs), {run.settings.order ?? 'sequential'}, timeout {run.settings.timeout_secs} s, memory cap{' '}
                {formatBytes(run.settings.memory_cap_bytes)}, samples every {run.settings.sample_interval_ms} ms
              </dd>
              {hs && (
                <>
                  <dt>Load</dt>
                  <dd data-testid="detail-http-settings">
                    {hs.levels.join(', ')} connections, {hs.duration_ms / 1000} s per level; latency over one connection for{' '}
                    {hs.latency_ms / 1000} s; {hs.server_threads} server and {hs.client_threads} client threads
                  </dd>
                </>
              )}
              <dt>Runtimes</dt>
              <dd>{run.runtimes.map((r) => `${r.id} ${r.version}`).join(' · ')}</dd>
              {run.not_applicable && run.not_applicable.length > 0 && (
                <>
                  <dt>Not applicable</dt>
                  <dd data-testid="detail-not-applicable">
                    {run.not_applicable.map((n) => `${n.test ? `${n.runtime} × ${n.test}` : n.runtime} (${n.why})`).join(' · ')}
                  </dd>
                </>
              )}
              <dt>wasmeter</dt>
              <dd>{run.wasmeter_version}</dd>
            </dl>
          </div>

          {loaded?.report.features ? (
            <FeatureGrid matrix={loaded.report.features} />
          ) : has('requests') ? (
            <>
              <p class="muted small" data-testid="http-note">
                Per request: cold start (spawn to the first 200 OK), latency over one keep-alive connection, and throughput at each
                concurrency level. × baseline is the best requests/s over {s.baseline}’s (higher is better).
              </p>
              <HttpView runId={run.id} cells={run.http ?? []} runtimes={s.runtimes} baseline={s.baseline} />
            </>
          ) : has('operations') ? (
            <>
              <div class="panel">
                <h2>
                  Instance life cycle <span class="muted small">(median (p99) per operation; hover a cell for details)</span>
                </h2>
                <p class="muted small" data-testid="lifecycle-note">
                  Absolute figures: the lifecycle suite runs embedded engines only, so there is no native baseline to be relative to.
                </p>
                <LifecycleTable summary={s} />
              </div>
              {has('heap') && (
                <div class="panel">
                  <HeapChart runId={run.id} summary={s} />
                </div>
              )}
            </>
          ) : has('matrix') ? (
            <div class="panel">
              <div class="panel-head">
                <h2>
                  Typical time relative to {s.baseline}{' '}
                  <span class="muted small" data-testid="matrix-caption">
                    (the geometric mean over invocations, ± half its 95 % interval; lower is faster; hover a cell for details)
                  </span>
                </h2>
                <div class="spacer" />
                {onHistory && (
                  <button
                    type="button"
                    disabled={!selected}
                    onClick={() => selected && onHistory({ suite: run.suite, ...selected })}
                    title="This cell in every saved run of the suite: its typical time run after run, and where it changed"
                    data-testid="detail-history"
                  >
                    {selected ? `History of ${selected.runtime} · ${selected.test}` : 'History (select a cell)'}
                  </button>
                )}
              </div>
              <DetailMatrix summary={s} selected={selected} onSelect={(cell) => setPicked({ id: runId, cell })} />
            </div>
          ) : null}

          {loaded?.report.sweep && <SweepChart runId={run.id} sweep={loaded.report.sweep} />}

          {run.profile && (
            <div class="panel">
              <h2>
                Profile{' '}
                <span class="muted small">
                  (where the time goes, function by function, against {run.profile.explanation?.baseline ?? s.baseline})
                </span>
              </h2>
              <Profile profile={run.profile} />
            </div>
          )}

          {has('paired') && (s.runtimes.length >= 2 || s.tests.length >= 2) && (
            <div class="panel">
              <h2>
                Two runtimes or two tests, paired <span class="muted small">(each round of one against the same round of the other)</span>
              </h2>
              <PairDiff key={run.id} runId={run.id} runtimes={s.runtimes} tests={s.tests} baseline={s.baseline} />
            </div>
          )}

          {has('distribution') && (
            <div class="panel">
              <h2>Distributions{shape && !has('matrix') && <span class="muted small"> ({shape.measure}, per iteration)</span>}</h2>
              <Distributions tests={s.tests} runtimes={s.runtimes} distributions={run.distributions} />
            </div>
          )}

          {has('resources') && (
            <div class="panel">
              <h2>Resources</h2>
              <Resources
                runId={run.id}
                samples={run.samples}
                test={selected?.test ?? s.tests[0] ?? ''}
                runtime={selected?.runtime}
                runtimes={s.runtimes}
                intervalMs={run.settings.sample_interval_ms}
              />
            </div>
          )}

          {has('phases') && (
            <div class="panel">
              <h2>Phases (medians)</h2>
              <Phases cells={s.cells} />
            </div>
          )}

          {has('sizes') && hasSizes(run.tests) && (
            <div class="panel">
              <h2>Sizes: module, native build, compiled artifact</h2>
              <Sizes tests={run.tests} runtimes={s.runtimes} cells={run.cell_sizes ?? []} />
            </div>
          )}
        </>
      )}
    </section>
  );
}
