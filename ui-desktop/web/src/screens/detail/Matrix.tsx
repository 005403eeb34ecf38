/**
 * Tests × runtimes of a saved run, each cell coloured by its median relative to the
 * baseline on a log scale (green faster, red slower), with median, ratio and its 95 %
 * interval in the tooltip; failed cells show why. The last row is each runtime's geomean.
 */
import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { type CellSummary, type RunSummary, cellKey } from '../../api';
import { SpacerCell, SpacerRow, WindowBox, useWindowed } from '../../components/Windowed';
import { formatNs, formatRatio, formatRatioCi, ratioColor, ratioTone } from '../../format';

/** The tooltip of one cell, in words. */
export function cellTitle(c: CellSummary, baseline: string): string {
  const head = `${c.runtime} · ${c.test}`;
  if (c.failure) return `${head}\nfailed: ${c.failure}`;
  const lines = [head];
  if (c.stats) {
    lines.push(`median ${formatNs(c.stats.median)} (n=${c.stats.n}, ${c.source} time)`);
    lines.push(`min ${formatNs(c.stats.min)} · max ${formatNs(c.stats.max)} · MAD ${formatNs(c.stats.mad)}`);
  }
  if (c.relative !== null) {
    lines.push(`${formatRatio(c.relative)} ${baseline} (95 % CI ${formatRatioCi(c.relative_low, c.relative_high)})`);
  }
  if (c.startup_ns !== null) lines.push(`start-up ${formatNs(c.startup_ns)}`);
  return lines.join('\n');
}

/** Fixed sizes of the matrix once it is too big to draw whole (see components/Windowed). */
export const MATRIX_GRID = { rowHeight: 46, colWidth: 112, headWidth: 180, maxRows: 60, maxCols: 30 };

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
}

/** Tests down, runtimes across, drawn where it is seen once it is big. */
export function MatrixTable({ tests, runtimes: all, baseline, cell, foot, testid, label, attrs }: MatrixProps) {
  const grid = { ...MATRIX_GRID, rows: tests.length, cols: all.length };
  const w = useWindowed(grid);
  const runtimes = all.slice(w.cols.first, w.cols.end);
  return (
    <WindowBox w={w} grid={grid} label={label}>
      <table class="matrix" data-testid={testid} {...attrs}>
        <thead>
          <tr>
            <th>test</th>
            <SpacerCell width={w.cols.before} head />
            {runtimes.map((r) => (
              <th key={r} class={r === baseline ? 'baseline' : undefined} title={r === baseline ? `${r} (baseline)` : r}>
                {r}
              </th>
            ))}
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

export function DetailMatrix({ summary }: { summary: RunSummary }) {
  const byKey = useMemo(() => new Map(summary.cells.map((c) => [cellKey(c.runtime, c.test), c])), [summary]);
  const geomeans = useMemo(() => new Map(summary.per_runtime.map((g) => [g.runtime, g])), [summary]);
  return (
    <MatrixTable
      tests={summary.tests}
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
        const common = {
          title,
          'aria-label': title,
          tabIndex: 0,
          'data-testid': 'matrix-cell',
          'data-runtime': r,
          'data-test': t,
        };
        if (c.failure) {
          return (
            <td key={r} {...common} class="failed" data-tone="failed">
              <div class="ratio">failed</div>
              <div class="failure-text">{c.failure}</div>
            </td>
          );
        }
        const rel = c.relative;
        return (
          <td
            key={r}
            {...common}
            style={rel !== null ? { background: ratioColor(rel) } : undefined}
            data-tone={rel !== null ? ratioTone(rel) : 'none'}
            data-ratio={rel ?? undefined}
          >
            <div class="ratio">{rel !== null ? formatRatio(rel) : ''}</div>
            <div class="median">{formatNs(c.stats?.median)}</div>
          </td>
        );
      }}
      foot={{
        label: 'geomean',
        cell: (r) => {
          const g = geomeans.get(r);
          const v = g?.geomean_relative ?? null;
          return (
            <td
              key={r}
              data-testid="geomean-cell"
              data-runtime={r}
              style={v !== null ? { background: ratioColor(v) } : undefined}
              title={g ? `${g.tests_compared} tests compared${g.failed ? `, ${g.failed} failed` : ''}` : undefined}
            >
              <div class="ratio">{formatRatio(v)}</div>
              {g && g.failed > 0 && <div class="bad small">{g.failed} failed</div>}
            </td>
          );
        },
      }}
    />
  );
}
