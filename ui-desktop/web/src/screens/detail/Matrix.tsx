/**
 * Tests × runtimes of a saved run, each cell coloured by its typical time (the geometric
 * mean over invocations) relative to the baseline on a log scale (green faster, red
 * slower), with that time and its noise (± the half-width of its 95 % interval: how far
 * the true value may lie from it); median, ratio, interval and invocations in the
 * tooltip. Failed cells show why, partial
 * cells (an interrupted run) are marked, and a cell without a relative value says why
 * (not comparable, baseline failed). The last row is each runtime's geomean, naming the
 * tests it covers when not all.
 */
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { type CellSummary, cellKey, type RunSummary } from '../../api';
import { SortTh } from '../../components/SortTh';
import { SpacerCell, SpacerRow, useWindowed, WindowBox } from '../../components/Windowed';
import {
  formatGeomean,
  formatHalfwidth,
  formatNs,
  formatNsWithin,
  formatRatio,
  formatRatioCi,
  ratioStyle,
  relativeTint,
} from '../../format';
import { nextSort, type SortState, sortRows } from '../../sort';

/** The tooltip of one cell, in words. */
export function cellTitle(c: CellSummary, baseline: string): string {
  const head = `${c.runtime} · ${c.test}`;
  if (c.failure) return `${head}\nfailed: ${c.failure}`;
  const lines = [head];
  if (c.stats) {
    const inv = c.invocations ?? 1;
    lines.push(
      `typical ${formatNs(c.typical ?? c.stats.median)} ${formatHalfwidth(c.halfwidth_pct)} (median ${formatNs(c.stats.median)}, n=${c.stats.n} from ${inv} invocation${inv === 1 ? '' : 's'}, ${c.source} time)`,
    );
    lines.push(`min ${formatNs(c.stats.min)} · max ${formatNs(c.stats.max)} · MAD ${formatNs(c.stats.mad)}`);
  }
  if (c.relative !== null) {
    lines.push(`${formatRatio(c.relative)} ${baseline} (95 % CI ${formatRatioCi(c.relative_low, c.relative_high)})`);
  }
  if (c.partial) lines.push('partial: the run ended before all its invocations (kept out of relative figures and the geomean)');
  if (c.note) lines.push(c.note);
  if (c.startup_ns !== null) lines.push(`start-up ${formatNs(c.startup_ns)}`);
  return lines.join('\n');
}

/** What stands in the ratio's place when a cell has none: partial, or why not compared. */
export function missingRelative(c: CellSummary): string {
  if (c.partial) return 'partial';
  if (!c.note) return '';
  // "not comparable: timing sources differ (self vs wall)" → "not comparable".
  return c.note.split(':')[0]!;
}

/** Fixed sizes of the matrix once it is too big to draw whole (see components/Windowed). */
export const MATRIX_GRID = { rowHeight: 58, colWidth: 112, headWidth: 180, maxRows: 60, maxCols: 30 };

/** What a tests × runtimes table shows; the frame around it is the same live and saved. */
export interface MatrixProps {
  tests: readonly string[];
  runtimes: readonly string[];
  /** Underlined in the header. */
  baseline: string | null;
  /** The cell of one runtime × test, keyed by runtime. */
  cell: (runtime: string, test: string) => JSX.Element;
  /** A last row under the tests (geomeans), cell by runtime, keyed by runtime. */
  foot?: { label: string; cell: (runtime: string) => JSX.Element };
  testid: string;
  label: string;
  attrs?: Record<string, string | undefined>;
  /** Headers that sort the tests: by name (`test`), or by a runtime's column. */
  sort?: { state: SortState | null; onSort: (key: string) => void };
}

/** Tests down, runtimes across, drawn where it is seen once it is big. */
export function MatrixTable({ tests, runtimes: all, baseline, cell, foot, testid, label, attrs, sort }: MatrixProps) {
  const grid = { ...MATRIX_GRID, rows: tests.length, cols: all.length };
  const w = useWindowed(grid);
  const runtimes = all.slice(w.cols.first, w.cols.end);
  return (
    <WindowBox w={w} grid={grid} label={label}>
      <table class="matrix" data-testid={testid} {...attrs}>
        <thead>
          <tr>
            {sort ? <SortTh k="test" label="test" sort={sort.state} onSort={sort.onSort} /> : <th>test</th>}
            <SpacerCell width={w.cols.before} head />
            {runtimes.map((r) =>
              sort ? (
                <SortTh
                  key={r}
                  k={r}
                  label={<span class={r === baseline ? 'baseline' : undefined}>{r}</span>}
                  sort={sort.state}
                  onSort={sort.onSort}
                  title={r === baseline ? `${r} (baseline)` : `Sort the tests by ${r}`}
                />
              ) : (
                <th key={r} class={r === baseline ? 'baseline' : undefined} title={r === baseline ? `${r} (baseline)` : r}>
                  {r}
                </th>
              ),
            )}
            <SpacerCell width={w.cols.after} head />
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={w.rows.before} colSpan={runtimes.length + 3} />
          {tests.slice(w.rows.first, w.rows.end).map((t) => (
            <tr key={t}>
              <th title={t}>{t}</th>
              <SpacerCell width={w.cols.before} />
              {runtimes.map((r) => cell(r, t))}
              <SpacerCell width={w.cols.after} />
            </tr>
          ))}
          <SpacerRow height={w.rows.after} colSpan={runtimes.length + 3} />
        </tbody>
        {foot && (
          <tfoot>
            <tr>
              <th>{foot.label}</th>
              <SpacerCell width={w.cols.before} />
              {runtimes.map((r) => foot.cell(r))}
              <SpacerCell width={w.cols.after} />
            </tr>
          </tfoot>
        )}
      </table>
    </WindowBox>
  );
}

/**
 * The tests in the order picked: by name (`test`), or by a runtime's figure (its time
 * relative to the baseline, else its typical time); failed and missing cells last.
 */
export function sortedTests(summary: RunSummary, byKey: ReadonlyMap<string, CellSummary>, sort: SortState | null): string[] {
  if (!sort) return summary.tests;
  if (sort.key === 'test') return sortRows(summary.tests, (t) => t, sort.dir);
  return sortRows(
    summary.tests,
    (t) => {
      const c = byKey.get(cellKey(sort.key, t));
      if (!c || c.failure) return null;
      return c.relative ?? c.typical ?? c.stats?.median ?? null;
    },
    sort.dir,
  );
}

/** A runtime × test cell of the matrix. */
export interface CellRef {
  runtime: string;
  test: string;
}

export function DetailMatrix({
  summary,
  selected = null,
  onSelect,
}: {
  summary: RunSummary;
  /** The cell picked (click, Enter or Space), outlined. */
  selected?: CellRef | null;
  onSelect?: (cell: CellRef) => void;
}) {
  const byKey = useMemo(() => new Map(summary.cells.map((c) => [cellKey(c.runtime, c.test), c])), [summary]);
  const geomeans = useMemo(() => new Map(summary.per_runtime.map((g) => [g.runtime, g])), [summary]);
  const [sort, setSort] = useState<SortState | null>(null);
  const tests = useMemo(() => sortedTests(summary, byKey, sort), [summary, byKey, sort]);
  return (
    <MatrixTable
      tests={tests}
      sort={{ state: sort, onSort: (k) => setSort((cur) => nextSort(cur, k)) }}
      runtimes={summary.runtimes}
      baseline={summary.baseline}
      testid="detail-matrix"
      label="Results matrix"
      cell={(r, t) => {
        const c = byKey.get(cellKey(r, t));
        if (!c) {
          return (
            <td key={r} class="na">
              –
            </td>
          );
        }
        const title = cellTitle(c, summary.baseline);
        const isSelected = selected?.runtime === r && selected.test === t;
        const pick = () => onSelect?.({ runtime: r, test: t });
        const common = {
          title,
          'aria-label': title,
          tabIndex: 0,
          'data-testid': 'matrix-cell',
          'data-runtime': r,
          'data-test': t,
          'data-selected': isSelected ? 'true' : undefined,
          onClick: pick,
          onKeyDown: (e: KeyboardEvent) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              pick();
            }
          },
        };
        const sel = isSelected ? ' selected' : '';
        if (c.failure) {
          return (
            <td key={r} {...common} class={`failed${sel}`} data-tone="failed">
              <div class="ratio">failed</div>
              <div class="failure-text">{c.failure}</div>
            </td>
          );
        }
        const rel = c.relative;
        const tint = rel !== null ? relativeTint(rel, c.relative_low, c.relative_high) : null;
        const h = c.halfwidth_pct ?? null;
        return (
          <td
            key={r}
            {...common}
            class={[c.partial && 'partial', isSelected && 'selected'].filter(Boolean).join(' ') || undefined}
            style={tint?.style}
            data-tone={tint?.tone ?? 'none'}
            data-ratio={rel ?? undefined}
            data-partial={c.partial ? 'true' : undefined}
          >
            {rel !== null ? (
              <div class="ratio">{formatRatio(rel)}</div>
            ) : (
              <div class={c.partial ? 'partial-tag' : 'cell-note'} data-testid="cell-note">
                {missingRelative(c)}
              </div>
            )}
            <div class="median">{formatNsWithin(c.typical ?? c.stats?.median, h)}</div>
            {/* Its own line: beside the time it made every column as wide as "110 ms ±43.8 %",
                and nine runtimes no longer fitted 1280 px (issue 61). */}
            {h !== null && (
              <div class="noise" data-testid="cell-noise">
                {formatHalfwidth(h)}
              </div>
            )}
          </td>
        );
      }}
      foot={{
        label: 'geomean',
        cell: (r) => {
          const g = geomeans.get(r);
          const v = g?.geomean_relative ?? null;
          const total = g?.tests_total ?? 0;
          const fewer = g !== undefined && v !== null && total > 0 && g.tests_compared < total;
          return (
            <td
              key={r}
              data-testid="geomean-cell"
              data-runtime={r}
              style={v !== null ? ratioStyle(v) : undefined}
              title={g ? `${formatGeomean(g)}: ${g.tests_compared} tests compared${g.failed ? `, ${g.failed} failed` : ''}` : undefined}
            >
              <div class="ratio">{formatRatio(v)}</div>
              {fewer && (
                <div class="small muted" data-testid="geomean-coverage">
                  {g.tests_compared} of {total} tests
                </div>
              )}
              {g && g.failed > 0 && <div class="bad small">{g.failed} failed</div>}
            </td>
          );
        },
      }}
    />
  );
}
