/**
 * What each program costs besides time: its module beside its native build and each
 * engine's compiled artifact, then each cell's peak resident memory. Runs of prebuilt or
 * given programs only (the apps suite, modules by path); core records the figures.
 */
import type { CellSizes, TestRecord } from '../../api';
import { formatBytes, MISSING } from '../../format';

interface Props {
  tests: readonly TestRecord[];
  runtimes: readonly string[];
  cells: readonly CellSizes[];
}

/** Whether a run has sizes to show. */
export function hasSizes(tests: readonly TestRecord[]): boolean {
  return tests.some((t) => t.module_bytes != null);
}

export function Sizes({ tests: all, runtimes, cells }: Props) {
  // The start-up probe beside modules as given is the harness's, not a program.
  const tests = all.filter((t) => t.name !== '_startup');
  const cell = (rt: string, test: string) => cells.find((c) => c.runtime === rt && c.test === test);
  const compiled = runtimes.filter((rt) => cells.some((c) => c.runtime === rt && c.artifact_bytes != null));
  const withMemory = cells.some((c) => c.peak_rss_bytes != null);
  const sized = tests.filter((t) => t.module_bytes != null);
  return (
    <>
      <table class="sizes" data-testid="sizes-table">
        <thead>
          <tr>
            <th>test</th>
            <th class="num">wasm</th>
            <th class="num">native</th>
            <th class="num">wasm ÷ native</th>
            {compiled.map((rt) => (
              <th key={rt} class="num">
                {rt} compiled
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sized.map((t) => (
            <tr key={t.name}>
              <td>{t.name}</td>
              <td class="num">{formatBytes(t.module_bytes)}</td>
              <td class="num">{formatBytes(t.native_bytes)}</td>
              <td class="num">{t.module_bytes != null && t.native_bytes ? (t.module_bytes / t.native_bytes).toFixed(2) : MISSING}</td>
              {compiled.map((rt) => (
                <td key={rt} class="num">
                  {formatBytes(cell(rt, t.name)?.artifact_bytes)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {withMemory && (
        <>
          <h3>Peak resident memory</h3>
          <p class="muted small">
            Native and runtime CLIs: the kernel's maximum of the program's own process (at least the size of wasmeter's worker that started
            it). Embedded engines: the largest live sample of the worker running them.
          </p>
          <table class="sizes" data-testid="memory-table">
            <thead>
              <tr>
                <th>test</th>
                {runtimes.map((rt) => (
                  <th key={rt} class="num">
                    {rt}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tests.map((t) => (
                <tr key={t.name}>
                  <td>{t.name}</td>
                  {runtimes.map((rt) => (
                    <td key={rt} class="num">
                      {formatBytes(cell(rt, t.name)?.peak_rss_bytes)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
