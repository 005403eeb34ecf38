/**
 * Lifecycle runs: per module × runtime, the median (p99) per operation of every phase,
 * the memory per live instance and the instantiations per second. `hello` (no heap) is
 * only here; the heap modules are also drawn against heap size (HeapChart).
 */
import { useMemo } from 'preact/hooks';
import type { RunSummary } from '../../api';
import { formatValue } from '../../format';
import { lifecycleTable } from '../../lifecycle';

export function LifecycleTable({ summary }: { summary: RunSummary }) {
  const table = useMemo(() => lifecycleTable(summary), [summary]);
  const { measures, rows } = table;
  if (rows.length === 0) return <p class="muted">No cells in this run.</p>;
  const span = new Map<string, number>();
  for (const r of rows) span.set(r.test, (span.get(r.test) ?? 0) + 1);
  return (
    <div class="table-scroll">
      <table class="lifecycle" data-testid="lifecycle-table">
        <thead>
          <tr>
            <th>module</th>
            <th>runtime</th>
            {measures.map((m) => (
              <th key={m.key} class="num" title={m.title}>
                {m.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const first = i === 0 || rows[i - 1]!.test !== r.test;
            return (
              <tr
                key={`${r.test}/${r.runtime}`}
                class={first ? 'group-start' : undefined}
                data-testid="lifecycle-row"
                data-test={r.test}
                data-runtime={r.runtime}
              >
                {first && (
                  <th scope="rowgroup" rowSpan={span.get(r.test)}>
                    {r.test}
                  </th>
                )}
                <td>{r.runtime}</td>
                {r.failure ? (
                  <td colSpan={measures.length} class="failure">
                    failed: {r.failure}
                  </td>
                ) : (
                  measures.map((m, j) => {
                    const v = r.values[j];
                    if (!v) {
                      return (
                        <td key={m.key} class="num na" data-measure={m.key}>
                          –
                        </td>
                      );
                    }
                    const med = formatValue(m.unit, v.median);
                    const p99 = formatValue(m.unit, v.p99);
                    return (
                      <td
                        key={m.key}
                        class="num"
                        data-measure={m.key}
                        title={`${r.runtime} · ${r.test} · ${m.label}: median ${med}, p99 ${p99} (n=${v.n})`}
                      >
                        {med} <span class="p99">({p99})</span>
                      </td>
                    );
                  })
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
