/**
 * Median of each phase per cell. Native and CLI runtimes time only the whole process
 * ("total"); embedded engines time every phase.
 */
import { type CellSummary, PHASES } from '../../api';
import { ListTable } from '../../components/Windowed';
import { formatNs } from '../../format';

export function Phases({ cells }: { cells: readonly CellSummary[] }) {
  return (
    <ListTable
      items={cells}
      columns={PHASES.length + 3}
      label="Phases"
      attrs={{ class: 'phases', 'data-testid': 'phases-table' }}
      head={
        <>
          <th>runtime</th>
          <th>test</th>
          {PHASES.map((p) => (
            <th key={p} class="num">
              {p}
            </th>
          ))}
          <th class="num">start-up</th>
        </>
      }
      row={(c) => (
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
      )}
    />
  );
}
