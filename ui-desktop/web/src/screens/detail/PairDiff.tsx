/**
 * Two runtimes of one run against each other, paired by round: `wasmeter diff RUN
 * --runtimes A,B` inside the run's detail. Pick A and B (the baseline and the next by
 * default); the rows sort like the diff screen's, and the headline is core's.
 */
import { useMemo, useState } from 'preact/hooks';
import { type Diff, diffRuntimes, errorMessage } from '../../api';
import { nextSort, type SortState } from '../../sort';
import { type DiffSortKey, DiffTable, diffRows, shownRows } from '../Diff';

export function PairDiff({ runId, runtimes, baseline }: { runId: string; runtimes: readonly string[]; baseline: string }) {
  const first = runtimes.includes(baseline) ? baseline : (runtimes[0] ?? '');
  const [a, setA] = useState(first);
  const [b, setB] = useState(runtimes.find((r) => r !== first) ?? '');
  const [result, setResult] = useState<{ diff: Diff; diff_headline: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sort, setSort] = useState<SortState<DiffSortKey> | null>(null);
  const rows = useMemo(() => {
    if (!result) return [];
    const all = diffRows(result.diff, new Set(result.diff.rows.map((r) => r.phase)));
    return shownRows(all, 'all', '', sort);
  }, [result, sort]);
  const go = () => {
    setBusy(true);
    setError(null);
    diffRuntimes(runId, a, b)
      .then(setResult)
      .catch((e) => {
        setResult(null);
        setError(errorMessage(e));
      })
      .finally(() => setBusy(false));
  };
  const pick = (value: string, set: (v: string) => void, testid: string, label: string) => (
    <label class="inline-field">
      <span>{label}</span>
      <select value={value} onChange={(e) => set(e.currentTarget.value)} data-testid={testid}>
        {runtimes.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div class="pair-diff" data-testid="pair-diff">
      <div class="table-filters">
        {pick(a, setA, 'pair-a', 'A')}
        {pick(b, setB, 'pair-b', 'B')}
        <button type="button" disabled={busy || !a || !b || a === b} onClick={go} data-testid="pair-go">
          Paired diff
        </button>
        {a === b && <span class="muted small">Pick two different runtimes.</span>}
      </div>
      {error && (
        <p class="bad" data-testid="pair-error">
          {error}
        </p>
      )}
      {result && (
        <>
          <p class="headline" data-testid="pair-headline">
            {result.diff.b} against {result.diff.a}: {result.diff_headline}
          </p>
          <p class="muted small">{result.diff.method}</p>
          <DiffTable
            rows={rows}
            diff={result.diff}
            sort={sort}
            onSort={(k) => setSort((cur) => nextSort(cur, k))}
            empty="No rows: the two runtimes ran no test in common."
          />
        </>
      )}
    </div>
  );
}
