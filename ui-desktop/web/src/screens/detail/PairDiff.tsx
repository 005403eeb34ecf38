/**
 * Two runtimes of one run against each other, paired by round: `wasmeter diff RUN
 * --runtimes A,B` inside the run's detail; or two tests (`--tests A,B`: two builds of a
 * module, say). Pick A and B (the baseline and the next by default); the rows sort like
 * the diff screen's, and the headline is core's.
 */
import { useMemo, useState } from 'preact/hooks';
import { type Diff, diffRuntimes, errorMessage } from '../../api';
import { nextSort, type SortState } from '../../sort';
import { type DiffSortKey, DiffTable, diffRows, shownRows } from '../Diff';

export function PairDiff({
  runId,
  runtimes,
  tests,
  baseline,
}: {
  runId: string;
  runtimes: readonly string[];
  tests: readonly string[];
  baseline: string;
}) {
  const initial: 'runtimes' | 'tests' = runtimes.length >= 2 ? 'runtimes' : 'tests';
  const [of, setOf] = useState<'runtimes' | 'tests'>(initial);
  const choices = of === 'runtimes' ? runtimes : tests;
  const firstOf = (list: readonly string[], prefer: string) => (list.includes(prefer) ? prefer : (list[0] ?? ''));
  const start = initial === 'runtimes' ? runtimes : tests;
  const first = firstOf(start, initial === 'runtimes' ? baseline : '');
  const [a, setA] = useState(first);
  const [b, setB] = useState(start.find((r) => r !== first) ?? '');
  const [result, setResult] = useState<{ diff: Diff; diff_headline: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sort, setSort] = useState<SortState<DiffSortKey> | null>(null);
  const switchTo = (next: 'runtimes' | 'tests') => {
    const list = next === 'runtimes' ? runtimes : tests;
    const head = firstOf(list, next === 'runtimes' ? baseline : '');
    setOf(next);
    setA(head);
    setB(list.find((x) => x !== head) ?? '');
    setResult(null);
    setError(null);
    setSort(null);
  };
  const rows = useMemo(() => {
    if (!result) return [];
    const all = diffRows(result.diff, new Set(result.diff.rows.map((r) => r.phase)));
    return shownRows(all, 'all', '', sort);
  }, [result, sort]);
  const go = () => {
    setBusy(true);
    setError(null);
    diffRuntimes(runId, a, b, undefined, of)
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
        {choices.map((r) => (
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
        <label class="inline-field">
          <span>Of</span>
          <select value={of} onChange={(e) => switchTo(e.currentTarget.value as 'runtimes' | 'tests')} data-testid="pair-of">
            <option value="runtimes" disabled={runtimes.length < 2}>
              two runtimes
            </option>
            <option value="tests" disabled={tests.length < 2}>
              two tests
            </option>
          </select>
        </label>
        {pick(a, setA, 'pair-a', 'A')}
        {pick(b, setB, 'pair-b', 'B')}
        <button type="button" disabled={busy || !a || !b || a === b} onClick={go} data-testid="pair-go">
          Paired diff
        </button>
        {a === b && <span class="muted small">Pick two different {of}.</span>}
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
            empty={of === 'runtimes' ? 'No rows: the two runtimes ran no test in common.' : 'No rows: no runtime ran both tests.'}
          />
        </>
      )}
    </div>
  );
}
