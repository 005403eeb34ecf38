/**
 * Median of each phase per cell. Native and CLI runtimes time only the whole process
 * ("total"); embedded engines time every phase.
 */
import { type CellSummary, PHASES } from '../../api';
import { LIST_GRID, SpacerRow, WindowBox, useWindowed } from '../../components/Windowed';
import { formatNs } from '../../format';

export function Phases({ cells }: { cells: readonly CellSummary[] }) {
  const grid = { ...LIST_GRID, rows: cells.length };
  const w = useWindowed(grid);
  return (
    <WindowBox w={w} grid={grid} label="Phases">
      <table class="phases" data-testid="phases-table">
        <thead>
          <tr>
            <th>runtime</th>
            <th>test</th>
            {PHASES.map((p) => (
              <th key={p} class="num">
                {p}
              </th>
            ))}
            <th class="num">start-up</th>
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={w.rows.before} colSpan={PHASES.length + 3} />
          {cells.slice(w.rows.first, w.rows.end).map((c) => (
            <tr key={`${c.runtime}/${c.test}`} class={c.failure ? 'failed-row' : undefined}>
              <td>{c.runtime}</td>
              <td>{c.test}</td>
              {c.failure ? (
                <td colSpan={PHASES.length + 1} class="failure">
                  failed: {c.failure}
                </td>
              ) : (
                <>
                  {PHASES.map((p) => (
                    <td key={p} class="num">
                      {formatNs(c.phases[p])}
                    </td>
                  ))}
                  <td class="num">{formatNs(c.startup_ns)}</td>
                </>
              )}
            </tr>
          ))}
          <SpacerRow height={w.rows.after} colSpan={PHASES.length + 3} />
        </tbody>
      </table>
    </WindowBox>
  );
}
