/**
 * Many runs side by side, as `wasmeter compare RUN…` puts them: one row per test and
 * runtime, one column per run (or machine), each figure relative to its own run's native
 * (or another runtime of the run, or the times as measured) with its 95 % interval, and
 * each run's geometric mean as the footer. Core computes every figure, interval, geomean
 * and warning (`compare_runs`); this screen only formats them, with the same helpers as
 * the rest of the page. What differs between the runs (plans, machines, versions) comes
 * first, since it says how far the columns can be read against each other.
 */
import { useMemo, useState } from 'preact/hooks';
import { type CompareCell, type CompareRequest, type Comparison, compareRuns, type RunListItem } from '../api';
import { ListTable } from '../components/Windowed';
import { formatNs, formatRatio, formatRatioCi, formatTime, MISSING, ratioStyle, relativeTint } from '../format';
import { useLoad } from '../load';

/** What a comparison is asked for: the reference runtime (or `none`) and how columns are named. */
/** What the user picked; a normalisation left out is core's default (`run_policy`). */
export type CompareChoice = CompareRequest;

interface CompareProps {
  runs: RunListItem[] | null;
  /** The runs compared, in column order. */
  ids: string[];
  /** Back to the runs list to pick others. */
  onPickRuns: () => void;
  /** Export the comparison as shown; absent: no export offered. */
  onExport?: (ids: string[], choice: CompareChoice) => void;
  /** Core's reference runtime until the user picks one (`run_policy`); null while loading. */
  defaultNormalize: string | null;
}

/** One row of the table: a test on a runtime, and its cell in each column (null: none). */
export interface CompareRow {
  test: string;
  runtime: string;
  cells: (CompareCell | null)[];
}

/**
 * The rows of a comparison in core's order (tests, then runtimes). Core lays its cells out
 * test-major, then runtime, then column: each is taken by position and checked, as core's
 * own table does.
 */
export function compareRows(c: Comparison): CompareRow[] {
  const rows: CompareRow[] = [];
  let k = 0;
  for (const test of c.tests) {
    for (const runtime of c.runtimes) {
      const cells = c.columns.map((_, column) => {
        const x = c.cells[k++];
        return x && x.column === column && x.runtime === runtime && x.test === test ? x : null;
      });
      rows.push({ test, runtime, cells });
    }
  }
  return rows;
}

/** True when the figures are relative to a runtime (core gives geomeans only then). */
export function isRelative(c: Comparison): boolean {
  return c.geomeans.length > 0;
}

/** A figure: a ratio ("1.15×") when relative, else a time ("1.52 ms"). */
export function formatCompareValue(v: number | null, relative: boolean): string {
  return relative ? formatRatio(v) : formatNs(v);
}

/** Its 95 % interval ("1.13–1.17×", "1.49 ms–1.55 ms"); a dash without one. */
export function formatCompareInterval(cell: CompareCell, relative: boolean): string {
  if (relative) return formatRatioCi(cell.low, cell.high);
  if (cell.low === null || cell.high === null) return MISSING;
  return `${formatNs(cell.low)}–${formatNs(cell.high)}`;
}

/**
 * The reference runtimes offered: core's default, every runtime the runs have, and none;
 * the current one always.
 */
export function normalizeOptions(runs: readonly RunListItem[], ids: readonly string[], current: string, reference: string): string[] {
  const present = ids.flatMap((id) => runs.find((r) => r.id === id)?.meta?.runtimes.map((x) => x.id) ?? []);
  return [...new Set([reference, ...present, current, 'none'].filter((x) => x !== ''))];
}

export function CompareScreen({ runs, ids, onPickRuns, onExport, defaultNormalize }: CompareProps) {
  const [choice, setChoice] = useState<CompareChoice>({});
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const key = ids.join('\u0000');
  const { loading, error } = useLoad(
    ids.length < 2 ? null : () => compareRuns(ids, choice.normalize, choice.by_machine),
    [key, choice.normalize, choice.by_machine],
    { start: () => setComparison(null), loaded: setComparison },
  );

  const rows = useMemo(() => (comparison ? compareRows(comparison) : []), [comparison]);
  const normalize = choice.normalize ?? defaultNormalize ?? '';
  const options = normalizeOptions(runs ?? [], ids, normalize, defaultNormalize ?? '');

  return (
    <section class="screen compare" aria-labelledby="compare-title">
      <header class="screen-head">
        <h1 id="compare-title">Compare</h1>
        <span class="muted">{ids.length >= 2 ? `${ids.length} runs` : ''}</span>
        <div class="spacer" />
        <button type="button" onClick={onPickRuns} data-testid="compare-pick">
          Pick runs…
        </button>
        {onExport && (
          <button type="button" disabled={!comparison} onClick={() => onExport(ids, { ...choice, normalize })} data-testid="compare-export">
            Export…
          </button>
        )}
      </header>

      <div class="panel row wrap diff-pick">
        <label class="inline-field">
          <span>Columns</span>
          <select
            value={choice.by_machine ? 'machine' : 'run'}
            onChange={(e) => setChoice({ ...choice, by_machine: e.currentTarget.value === 'machine' })}
            title="Name each column by its run, or by the machine it ran on (CPU, architecture, OS)"
            data-testid="compare-by"
          >
            <option value="run">by run</option>
            <option value="machine">by machine</option>
          </select>
        </label>
        <label class="inline-field">
          <span>Normalise</span>
          <select
            value={normalize}
            onChange={(e) => setChoice({ ...choice, normalize: e.currentTarget.value })}
            title="Each run relative to a runtime of its own run (runs from different machines compare by how each runtime does against the same baseline there), or the times as measured (one machine only)"
            data-testid="compare-normalize"
          >
            {options.map((n) => (
              <option key={n} value={n}>
                {n === 'none' ? 'none (times as measured)' : `relative to ${n}`}
              </option>
            ))}
          </select>
        </label>
      </div>

      {ids.length < 2 && <p class="empty">Select two or more runs in Saved runs to compare them.</p>}
      {loading && <p class="muted">Comparing…</p>}
      {error && (
        <p class="bad" data-testid="compare-error">
          {error}
        </p>
      )}

      {comparison && (
        <>
          {comparison.warnings.length > 0 && (
            <div class="warnings" role="alert" data-testid="compare-warnings" data-count={comparison.warnings.length}>
              <strong>These runs differ:</strong>
              <ul>
                {comparison.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </div>
          )}
          <p class="muted small" data-testid="compare-unit">
            Suite {comparison.suite}: {comparison.unit}, each with its 95 % interval.
          </p>
          <div class="panel">
            <CompareTable comparison={comparison} rows={rows} runs={runs ?? []} />
          </div>
        </>
      )}
    </section>
  );
}

/** A column's tooltip: the run, its label and start, its machine and plan. */
function columnTitle(c: Comparison['columns'][number], runs: readonly RunListItem[]): string {
  const meta = runs.find((r) => r.id === c.run)?.meta;
  const lines = [`run ${c.run}${meta?.label ? ` — ${meta.label}` : ''}`];
  if (meta) lines.push(`started ${formatTime(meta.started_unix)}`);
  if (meta) lines.push(`${meta.machine.cpu_model} ${meta.machine.arch} (${meta.machine.os})`);
  lines.push(`machine ${c.machine}`);
  if (c.plan_hash) lines.push(`plan ${c.plan_hash}`);
  return lines.join('\n');
}

function CompareTable({
  comparison: c,
  rows,
  runs,
}: {
  comparison: Comparison;
  rows: readonly CompareRow[];
  runs: readonly RunListItem[];
}) {
  const relative = isRelative(c);
  const columns = 2 + c.columns.length;
  return (
    <ListTable
      items={rows}
      columns={columns}
      label="Comparison"
      attrs={{ class: 'matrix compare-table', 'data-testid': 'compare-table' }}
      head={
        <>
          <th>test</th>
          <th>runtime</th>
          {c.columns.map((col) => {
            const meta = runs.find((r) => r.id === col.run)?.meta;
            return (
              <th key={col.run} class="num" title={columnTitle(col, runs)} data-run={col.run}>
                <div data-testid="compare-column">{col.title}</div>
                {meta && (
                  <div class="muted small" data-testid="compare-column-about">
                    {meta.label ? `${meta.label} · ` : ''}
                    {formatTime(meta.started_unix)} · {meta.machine.cpu_model}, {meta.machine.cores} cores
                  </div>
                )}
              </th>
            );
          })}
        </>
      }
      row={(r) => (
        <tr key={`${r.test}/${r.runtime}`} data-testid="compare-row" data-test={r.test} data-runtime={r.runtime}>
          <th scope="row">{r.test}</th>
          <th scope="row">{r.runtime}</th>
          {r.cells.map((x, i) => (
            <CompareValue key={c.columns[i]!.run} cell={x} relative={relative} run={c.columns[i]!.run} />
          ))}
        </tr>
      )}
      empty={
        <tr>
          <td colSpan={columns} class="empty">
            No tests in these runs.
          </td>
        </tr>
      }
      foot={c.geomeans.map(([runtime, per]) => (
        <tr key={runtime} data-testid="compare-geomean" data-runtime={runtime}>
          <th scope="row">geomean</th>
          <th scope="row">{runtime}</th>
          {per.map((g, i) => (
            <td
              key={c.columns[i]!.run}
              data-testid="compare-geomean-cell"
              data-run={c.columns[i]!.run}
              style={g !== null ? ratioStyle(g) : undefined}
            >
              <div class="ratio">{formatRatio(g)}</div>
            </td>
          ))}
        </tr>
      ))}
    />
  );
}

/** One figure with its interval, coloured by which way it points when relative; a missing one says why. */
function CompareValue({ cell, relative, run }: { cell: CompareCell | null; relative: boolean; run: string }) {
  if (!cell || cell.value === null) {
    const note = cell?.note ?? undefined;
    return (
      <td class="na" title={note} data-testid="compare-cell" data-run={run}>
        –{note && <div class="cell-note">{note}</div>}
      </td>
    );
  }
  const v = cell.value;
  const tint = relative ? relativeTint(v, cell.low, cell.high) : undefined;
  return (
    <td data-testid="compare-cell" data-run={run} data-value={v} data-tone={tint?.tone} style={tint?.style}>
      <div class="ratio" data-testid="compare-value">
        {formatCompareValue(v, relative)}
      </div>
      <div class="median" data-testid="compare-ci">
        {formatCompareInterval(cell, relative)}
      </div>
    </td>
  );
}
