/**
 * A run of the features suite, as what it answers: features (rows) by runtimes (columns),
 * ✓ ✗ flag n/a, and the picked cell's message below (core's matrix, the grid `wasmeter
 * features` prints). Runtimes the suite does not apply to are said once, not drawn as
 * columns of n/a.
 */
import { useState } from 'preact/hooks';
import type { FeatureMatrix, FeatureSupport } from '../../api';

/** The grid's mark, as core writes it. */
export function mark(s: FeatureSupport): string {
  switch (s.support) {
    case 'yes':
      return '✓';
    case 'no':
      return '✗';
    case 'needs_flag':
      return 'flag';
    case 'not_applicable':
      return 'n/a';
    default:
      return '-';
  }
}

/** What a reader needs beside the mark, as core's `Support::detail`. */
export function detail(s: FeatureSupport): string {
  switch (s.support) {
    case 'no':
      return s.message;
    case 'needs_flag':
      return `needs ${s.flag} (without: ${s.message})`;
    case 'not_applicable':
      return s.reason;
    default:
      return '';
  }
}

export function FeatureGrid({ matrix }: { matrix: FeatureMatrix }) {
  const [picked, setPicked] = useState<{ row: number; col: number } | null>(null);
  const shown = matrix.columns
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => !matrix.rows.every((r) => r.cells[i]?.support === 'not_applicable'));
  const absent = matrix.columns.map((c, i) => ({ c, i })).filter(({ i }) => !shown.some((s) => s.i === i));
  const cell = picked ? matrix.rows[picked.row]?.cells[picked.col] : undefined;
  const rt = picked ? matrix.columns[picked.col] : undefined;
  return (
    <div class="panel" data-testid="feature-grid">
      <h2>
        Features <span class="muted small">(✓ supported · ✗ not · flag: only with a flag · click a cell for its message)</span>
      </h2>
      <table class="features">
        <thead>
          <tr>
            <th>feature</th>
            {shown.map(({ c }) => (
              <th key={c.runtime} title={c.version}>
                {c.runtime}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.rows.map((r, ri) => (
            <tr key={r.feature}>
              <th>{r.feature}</th>
              {shown.map(({ c, i }) => {
                const s = r.cells[i];
                if (!s) return <td key={c.runtime} />;
                const on = picked?.row === ri && picked.col === i;
                return (
                  <td key={c.runtime} class={`support-${s.support}${on ? ' picked' : ''}`} title={detail(s)}>
                    <button
                      type="button"
                      class="link"
                      onClick={() => setPicked({ row: ri, col: i })}
                      data-testid={`feature-${c.runtime}-${r.feature}`}
                    >
                      {mark(s)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {cell && rt && picked && (
        <p data-testid="feature-picked">
          <strong>
            {rt.runtime} {rt.version} × {matrix.rows[picked.row]?.feature}
          </strong>
          : {cell.support === 'yes' ? 'supported: the probe printed its known answer' : `${mark(cell)} ${detail(cell)}`}
        </p>
      )}
      {absent.length > 0 && (
        <p class="muted small" data-testid="feature-absent">
          Not applicable:{' '}
          {absent.map(({ c, i }) => `${c.runtime} (${detail(matrix.rows[0]?.cells[i] ?? { support: 'not_run' })})`).join(' · ')}
        </p>
      )}
    </div>
  );
}
