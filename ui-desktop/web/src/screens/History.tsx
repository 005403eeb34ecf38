/**
 * A cell's history, as `wasmeter history` gives it: pick a suite, a test and a runtime (or
 * any), optionally a machine, and every saved run of that cell is one point of a chart per
 * machine and timing source, with core's change points marked, and a table of the runs
 * under it. Core reads the runs, makes each run's figure (the geometric mean over
 * invocations with its 95 % interval) and finds the change points (`history`); this
 * screen only draws them. The choices come from what the runs list knows.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type History, type HistoryQuery, type HistorySeries, history, type RunListItem, type RunMeta } from '../api';
import { changeTitle, HistoryChart } from '../charts/History';
import { ListTable } from '../components/Windowed';
import { formatChangePct, formatNs, formatTime, MISSING } from '../format';
import { useLoad } from '../load';

/** A cell asked for from elsewhere (the run detail); `nonce` makes the same cell asked twice apply twice. */
export interface HistoryRequest {
  suite: string;
  test: string;
  runtime: string;
  nonce: number;
}

/** The machine of a run as core labels it: CPU, architecture and OS. */
export function machineLabel(m: RunMeta['machine']): string {
  return `${m.cpu_model} ${m.arch} (${m.os})`;
}

/** What can be picked, from the listed runs: suites, and the tests, runtimes and machines of `suite`'s runs. */
export function historyChoices(runs: readonly RunListItem[], suite: string) {
  const metas = runs.flatMap((r) => (r.meta ? [r.meta] : []));
  const suites = [...new Set(metas.map((m) => m.suite))].sort();
  const of = metas.filter((m) => m.suite === suite);
  const tests = [...new Set(of.flatMap((m) => m.tests.map((t) => t.name)))];
  const runtimes = [...new Set(of.flatMap((m) => m.runtimes.map((r) => r.id)))];
  const machines = new Map<string, string>();
  for (const m of of) if (!machines.has(m.machine.fingerprint)) machines.set(m.machine.fingerprint, machineLabel(m.machine));
  return { suites, tests, runtimes, machines: [...machines].map(([fingerprint, label]) => ({ fingerprint, label })) };
}

/** `v`, plus `current` when it is not among them (a cell asked for that the list does not know yet). */
function withCurrent(v: readonly string[], current: string): string[] {
  return current && !v.includes(current) ? [current, ...v] : [...v];
}

const EMPTY: Required<HistoryQuery> = { suite: '', test: '', runtime: '', machine: '' };

interface HistoryProps {
  runs: RunListItem[] | null;
  request: HistoryRequest | null;
}

export function HistoryScreen({ runs, request }: HistoryProps) {
  const [q, setQ] = useState<Required<HistoryQuery>>(EMPTY);
  const [result, setResult] = useState<{ key: string; history: History } | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    if (request) setQ({ suite: request.suite, test: request.test, runtime: request.runtime, machine: '' });
  }, [request?.nonce]);

  const choices = useMemo(() => historyChoices(runs ?? [], q.suite), [runs, q.suite]);
  // Until a suite is picked, the first one the runs know.
  useEffect(() => {
    if (!q.suite && choices.suites.length > 0) setQ((x) => (x.suite ? x : { ...x, suite: choices.suites[0]! }));
  }, [choices.suites.join('\u0000')]);

  const ready = q.suite !== '' && q.test !== '';
  const key = JSON.stringify(q);
  const { loading, error } = useLoad(ready ? () => history(q) : null, [key, reload], {
    loaded: (h) => setResult({ key, history: h }),
    failed: () => setResult(null),
  });

  const h = result?.key === key ? result.history : null;
  const set = (k: keyof HistoryQuery, v: string) =>
    setQ((x) => (k === 'suite' ? { suite: v, test: '', runtime: '', machine: '' } : { ...x, [k]: v }));
  const cell = `${q.suite} · ${q.test || 'no test'} · ${q.runtime || 'any runtime'}`;

  return (
    <section class="screen history" aria-labelledby="history-title" aria-busy={loading}>
      <header class="screen-head">
        <h1 id="history-title">History</h1>
        <span class="muted">{h ? `${h.runs_read} runs read, ${h.series.length} series` : ''}</span>
        <div class="spacer" />
        <button type="button" disabled={!ready || loading} onClick={() => setReload((r) => r + 1)} data-testid="history-refresh">
          Refresh
        </button>
      </header>

      <div class="panel row wrap diff-pick">
        <Pick
          label="Suite"
          value={q.suite}
          options={withCurrent(choices.suites, q.suite)}
          onPick={(v) => set('suite', v)}
          testid="history-suite"
        />
        <Pick
          label="Test"
          value={q.test}
          options={withCurrent(choices.tests, q.test)}
          onPick={(v) => set('test', v)}
          none="pick a test"
          testid="history-test"
        />
        <Pick
          label="Runtime"
          value={q.runtime}
          options={withCurrent(choices.runtimes, q.runtime)}
          onPick={(v) => set('runtime', v)}
          none="any"
          testid="history-runtime"
        />
        <label class="inline-field">
          <span>Machine</span>
          <select value={q.machine} onChange={(e) => set('machine', e.currentTarget.value)} data-testid="history-machine">
            <option value="">any (a chart each)</option>
            {choices.machines.map((m) => (
              <option key={m.fingerprint} value={m.fingerprint} title={m.fingerprint}>
                {m.label} · {m.fingerprint.slice(0, 8)}
              </option>
            ))}
            {q.machine && !choices.machines.some((m) => m.fingerprint === q.machine) && <option value={q.machine}>{q.machine}</option>}
          </select>
        </label>
      </div>

      {!ready && <p class="empty">{runs && runs.length === 0 ? 'No saved runs yet.' : 'Pick a suite and a test to see its history.'}</p>}
      {ready && loading && !h && <p class="muted">Reading every saved run of {cell}…</p>}
      {error && (
        <p class="bad" data-testid="history-error">
          {error}
        </p>
      )}

      {ready && h && (
        <>
          {h.skipped.length > 0 && (
            <details class="muted small" data-testid="history-skipped">
              <summary>
                {h.skipped.length} run{h.skipped.length === 1 ? '' : 's'} left out
              </summary>
              <ul>
                {h.skipped.map((why, i) => (
                  <li key={i}>{why}</li>
                ))}
              </ul>
            </details>
          )}
          {h.series.length === 0 ? (
            <p class="empty" data-testid="history-empty">
              No finished runs of this cell ({cell}
              {q.machine ? ` on machine ${q.machine}` : ''}).
            </p>
          ) : (
            h.series.map((s) => (
              <SeriesPanel key={`${s.runtime}/${s.machine}/${s.phase}/${s.source}`} series={s} minSegment={h.changes.min_segment} />
            ))
          )}
        </>
      )}
    </section>
  );
}

function Pick({
  label,
  value,
  options,
  onPick,
  none,
  testid,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onPick: (v: string) => void;
  none?: string;
  testid: string;
}) {
  return (
    <label class="inline-field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onPick(e.currentTarget.value)} data-testid={testid}>
        {none !== undefined && <option value="">{none}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Core's notes under a series: its change points in words, or why there are none. */
export function seriesNotes(s: HistorySeries, minSegment: number): string[] {
  if (s.changes.length > 0) return s.changes.map((c) => changeTitle(s, c));
  return [
    s.points.length < 2 * minSegment
      ? `no change points: too few runs to tell (at least ${2 * minSegment} are needed)`
      : 'no change points',
  ];
}

/** Runs listed under a chart until all are asked for. */
export const LAST_RUNS = 20;

/** One series: its chart, its change points in words and its last runs (or all), newest first. */
function SeriesPanel({ series: s, minSegment }: { series: HistorySeries; minSegment: number }) {
  const [all, setAll] = useState(false);
  const n = s.points.length;
  const shown = all ? n : Math.min(n, LAST_RUNS);
  const rows = useMemo(() => Array.from({ length: shown }, (_, k) => n - 1 - k), [n, shown]);
  const changeAt = useMemo(() => new Map(s.changes.map((c) => [c.index, c])), [s]);
  return (
    <div class="panel history-series" data-testid="history-series" data-machine={s.machine} data-runtime={s.runtime}>
      <div class="panel-head">
        <h2 data-testid="history-series-title">{s.machine_label}</h2>
        <span class="muted small">
          {s.suite} · {s.test} · {s.runtime}: {s.phase} ({s.source} time), {s.points.length} run{s.points.length === 1 ? '' : 's'} · machine{' '}
          <code>{s.machine.slice(0, 12)}</code>
        </span>
      </div>
      <HistoryChart series={s} />
      <ul class="history-notes small" data-testid="history-notes">
        {seriesNotes(s, minSegment).map((n, i) => (
          <li key={i} class={s.changes.length > 0 ? 'note' : 'muted'}>
            {n}
          </li>
        ))}
      </ul>
      <ListTable
        items={rows}
        columns={5}
        label={`Runs of ${s.test} on ${s.runtime}, ${s.machine_label}`}
        attrs={{ class: 'history-table', 'data-testid': 'history-table' }}
        head={
          <>
            <th>run ({shown < n ? `the last ${shown} of ${n}` : 'newest first'})</th>
            <th>started</th>
            <th class="num">typical (95 % interval)</th>
            <th>version</th>
            <th class="num">change</th>
          </>
        }
        row={(i) => {
          const p = s.points[i]!;
          const c = changeAt.get(i);
          return (
            <tr
              key={p.run}
              class={c ? 'history-changed' : undefined}
              data-testid="history-row"
              data-index={i}
              data-change={c ? 'true' : undefined}
            >
              <td>
                <code>{p.run}</code>
              </td>
              <td>{formatTime(p.started_unix)}</td>
              <td class="num">
                {formatNs(p.value)}
                {p.low !== null && p.high !== null && (
                  <span class="muted">
                    {' '}
                    ({formatNs(p.low)}–{formatNs(p.high)})
                  </span>
                )}
              </td>
              <td>{p.version ?? MISSING}</td>
              <td class="num" data-testid="history-row-change" title={c ? changeTitle(s, c) : undefined}>
                {c ? formatChangePct(c.change_pct) : ''}
              </td>
            </tr>
          );
        }}
      />
      {n > LAST_RUNS && (
        <button type="button" class="link" onClick={() => setAll((a) => !a)} data-testid="history-all">
          {all ? `Show the last ${LAST_RUNS} runs` : `Show all ${n} runs`}
        </button>
      )}
    </div>
  );
}
