/**
 * A profiled run (`run --profile`): per test, where each runtime spends its time, function
 * by function, beside the baseline — core's explanation (shares, times and ratios are
 * core's; the page only writes them) — and the selected runtime's flame graph, coloured
 * against the baseline's shares. By default the table compares the selected runtime with
 * the baseline; "All runtimes" shows every column.
 */
import { useState } from 'preact/hooks';
import type { FunctionCell } from '../../bindings/FunctionCell';
import type { FunctionRow } from '../../bindings/FunctionRow';
import type { ProfileReport } from '../../bindings/ProfileReport';
import { MISSING as DASH, formatNs, formatRatio } from '../../format';

const TOP = 15;

function share(c: FunctionCell | null): string {
  return c ? `${(100 * c.share).toFixed(1)} %` : DASH;
}

export function Profile({ profile }: { profile: ProfileReport }) {
  const e = profile.explanation;
  const [test, setTest] = useState(0);
  const [runtime, setRuntime] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  if (profile.error || !e) {
    return (
      <p class="bad" data-testid="profile-error">
        {profile.error ?? 'No profiles.'}
      </p>
    );
  }
  const t = e.tests[Math.min(test, e.tests.length - 1)];
  if (!t) return <p class="muted">No profiled cells in this run.</p>;
  const names = t.runtimes.map((r) => r.runtime);
  const chosen = runtime && names.includes(runtime) ? runtime : (names.find((n) => n !== e.baseline) ?? names[0]);
  const shown = names.map((n, k) => ({ n, k })).filter(({ n }) => all || n === e.baseline || n === chosen);
  const rows = (list: readonly FunctionRow[]) =>
    list.map((r) => (
      <tr key={r.name} class={r.name.startsWith('[') ? 'muted' : undefined}>
        <td title={r.note ?? undefined}>
          {r.name}
          {r.library ? <span class="muted small"> ({r.library})</span> : null}
          {r.note ? <span class="note small"> *</span> : null}
        </td>
        {shown.map(({ n, k }) => {
          const c = r.cells[k] ?? null;
          return [
            <td key={`${n}s`} class="num">
              {share(c)}
            </td>,
            <td key={`${n}t`} class="num">
              {c ? formatNs(c.ns) : DASH}
            </td>,
            n === e.baseline ? null : (
              <td key={`${n}r`} class="num">
                {c ? formatRatio(c.ratio) : DASH}
              </td>
            ),
          ];
        })}
      </tr>
    ));
  const flame = profile.flames.find((f) => f.test === t.test && f.runtime === chosen);
  // What the chosen runtime's hottest functions did, counted: core's words.
  const column = names.indexOf(chosen);
  const causes = t.functions
    .slice(0, TOP)
    .flatMap((r) => {
      const c = r.causes[column];
      return c?.said ? [{ name: r.name, said: c.said }] : [];
    })
    .slice(0, 5);
  const notes = [...t.functions.slice(0, TOP).flatMap((r) => (r.note ? [`${r.name}: ${r.note}`] : [])), ...t.notes];
  return (
    <div data-testid="profile">
      <div class="controls">
        <label class="inline-field">
          <span>Test</span>
          <select value={String(test)} onChange={(ev) => setTest(Number(ev.currentTarget.value))} data-testid="profile-test">
            {e.tests.map((x, i) => (
              <option key={x.test} value={String(i)}>
                {x.test}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <span>Runtime</span>
          <select value={chosen} onChange={(ev) => setRuntime(ev.currentTarget.value)} data-testid="profile-runtime">
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <input type="checkbox" checked={all} onChange={(ev) => setAll(ev.currentTarget.checked)} data-testid="profile-all" />
          <span>All runtimes</span>
        </label>
      </div>
      <p class="muted small">
        Samples: {t.runtimes.map((r) => `${r.runtime} ${r.samples}`).join(', ')} · share of each runtime’s samples, time as that share of
        the cell’s typical time, × {e.baseline} for the same function.
      </p>
      <table class="profile" data-testid="profile-table">
        <thead>
          <tr>
            <th>function</th>
            {shown.map(({ n }) => [
              <th key={`${n}s`} class="num">
                {n} share
              </th>,
              <th key={`${n}t`} class="num">
                time
              </th>,
              n === e.baseline ? null : (
                <th key={`${n}r`} class="num">
                  ×{e.baseline}
                </th>
              ),
            ])}
          </tr>
        </thead>
        <tbody>
          {rows(t.functions.slice(0, TOP))}
          {rows(t.outside)}
        </tbody>
        <tfoot>{rows([t.total])}</tfoot>
      </table>
      {causes.length > 0 && (
        <div data-testid="profile-causes">
          <p class="muted small">What {chosen}’s hottest functions did per iteration, counted in a run of the module:</p>
          <ul class="small">
            {causes.map((c) => (
              <li key={c.name}>
                <strong>{c.name}</strong>: {c.said}
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <ul class="muted small" data-testid="profile-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {flame ? (
        // The SVG is core's: names escaped, no script; its frames' titles are tooltips.
        <div class="flame" data-testid="profile-flame" dangerouslySetInnerHTML={{ __html: flame.svg }} />
      ) : (
        <p class="muted" data-testid="profile-no-flame">
          No flame graph for {chosen}: {t.runtimes.find((r) => r.runtime === chosen)?.unattributed ?? 'no samples'}
        </p>
      )}
    </div>
  );
}
