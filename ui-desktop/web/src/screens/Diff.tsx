/**
 * Run B against run A, row by row: ratio of typical values B/A with its 95 % interval, the
 * interval's half-width (how far the true ratio may lie from it) and a verdict; rows
 * without one say why (insufficient data, not comparable). Comparability warnings (other
 * machine, versions, sources) come first, since they can make every verdict below
 * meaningless; then how the rows were compared (threshold, false discovery rate,
 * normalisation, which can be switched: none, or each side relative to its own run's
 * native or another runtime). The phase filter offers the phases of
 * the runs' kind of suite (lifecycle runs: compile … teardown, instantiate + call shown
 * by default).
 */
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { ALL_PHASES, type Diff, diffRuns, type Phase, type RunListItem, type SuiteKind } from '../api';
import { FindField } from '../components/FindField';
import { SortTh } from '../components/SortTh';
import { ListTable } from '../components/Windowed';
import { parseNumberField } from '../fields';
import { formatHalfwidth, formatNs, formatRatio, formatRatioCi, formatRatioText, formatTime, levelPct, MISSING } from '../format';
import { formatRps, throughputConnections } from '../http';
import { useLoad } from '../load';
import { shapeOf } from '../shape';
import { matchesQuery, nextSort, type SortState, type SortValue, sortRows } from '../sort';

interface DiffProps {
  runs: RunListItem[] | null;
  a: string | null;
  b: string | null;
  /** Core's noise threshold, percent (`run_policy`): shown until another is typed; null while loading. */
  defaultThresholdPct: number | null;
  onPick: (a: string | null, b: string | null) => void;
  /** `thresholdPct` undefined: the backend's (core's) default. */
  onExport: (a: string, b: string, thresholdPct: number | undefined) => void;
}

/** What a table row says: the backend's verdicts plus the rows only one side has. */
export type RowVerdict = Diff['rows'][number]['verdict'] | 'only A' | 'only B';

export interface ViewRow {
  runtime: string;
  test: string;
  phase: string;
  /** A's typical value (geometric mean over invocations, what the ratio is of); its median
   * for a diff saved without one. */
  a_value: number | null;
  b_value: number | null;
  ratio: number | null;
  ci_low: number | null;
  ci_high: number | null;
  halfwidth_pct: number | null;
  /** The confidence the interval achieves (a signed-rank one's exact level). */
  level?: number | null;
  verdict: RowVerdict;
  note?: string | null;
  /** Values and invocations in A and B (matched rows). */
  n?: [number, number];
  invocations?: [number, number];
  p_adjusted?: number | null;
}

const ONLY = { a_value: null, b_value: null, ratio: null, ci_low: null, ci_high: null, halfwidth_pct: null };

/** Matched rows and only-A / only-B keys as one list, filtered by phase. */
export function diffRows(d: Diff, phases: ReadonlySet<string>): ViewRow[] {
  const rows: ViewRow[] = d.rows.map((r) => ({
    ...r,
    a_value: r.a_typical ?? r.a_median,
    b_value: r.b_typical ?? r.b_median,
    halfwidth_pct: r.halfwidth_pct ?? null,
  }));
  for (const k of d.only_a) rows.push({ ...k, ...ONLY, verdict: 'only A' });
  for (const k of d.only_b) rows.push({ ...k, ...ONLY, verdict: 'only B' });
  return rows.filter((r) => phases.has(r.phase));
}

/** How the rows were compared: core's own sentence (`Diff::method`), which every output of a diff carries. */
export function diffMethod(d: Diff): string {
  return d.method;
}

/** What a row's values rest on, for its tooltip. */
function rowTitle(r: ViewRow): string | undefined {
  if (!r.n || !r.invocations) return undefined;
  const lines = [
    `B/A ${formatRatioText(r)}`,
    `values: ${r.n[0]} in A, ${r.n[1]} in B; invocations: ${r.invocations[0]} in A, ${r.invocations[1]} in B`,
  ];
  if (typeof r.p_adjusted === 'number') lines.push(`adjusted p ${r.p_adjusted.toPrecision(3)}`);
  if (r.note) lines.push(r.note);
  return lines.join('\n');
}

/** The throughput phases a diff has, by ascending connections. */
function throughputPhases(d: Diff | null): Phase[] {
  const present = new Set<string>(d ? [...d.rows, ...d.only_a, ...d.only_b].map((r) => r.phase) : []);
  const levels = [...present]
    .map(throughputConnections)
    .filter((n): n is number => n !== null)
    .sort((a, b) => a - b);
  return levels.map((n): Phase => `throughput_c${n}`);
}

/** The phases the filter offers: those of the kind of suite, then any other the diff has. */
export function phaseOptions(d: Diff | null, kind: SuiteKind): Phase[] {
  const shape = shapeOf(kind);
  if (shape.http) return [...shape.phases, ...throughputPhases(d)];
  const own = shape.phases;
  const present = new Set<string>(d ? [...d.rows, ...d.only_a, ...d.only_b].map((r) => r.phase) : []);
  return [...ALL_PHASES.filter((p) => own.includes(p) || present.has(p)), ...throughputPhases(d)];
}

/**
 * Phases shown until some are picked: the primary time and the one most compared (HTTP
 * runs: latency and every throughput level).
 */
export function defaultPhases(kind: SuiteKind, d: Diff | null = null): Set<Phase> {
  const shape = shapeOf(kind);
  const levels = shape.http ? throughputPhases(d) : [];
  return new Set<Phase>([...shape.default_phases, ...levels]);
}

/** A diff median: throughput rows hold ns per request, shown with the rate they stand for. */
export function formatDiffMedian(phase: string, ns: number | null): string {
  if (throughputConnections(phase) === null || ns === null || !(ns > 0)) return formatNs(ns);
  return `${formatNs(ns)}/req (${formatRps(1e9 / ns)}/s)`;
}

export function verdictCounts(rows: readonly ViewRow[]): Record<RowVerdict, number> {
  const c: Record<RowVerdict, number> = {
    faster: 0,
    slower: 0,
    'faster, not held': 0,
    'slower, not held': 0,
    'no change': 0,
    undecided: 0,
    'insufficient data': 0,
    'not comparable': 0,
    'only A': 0,
    'only B': 0,
  };
  for (const r of rows) c[r.verdict]++;
  return c;
}

/** Which rows the table shows: a diff of two runs opens on the changed rows. */
export type RowFilter = 'changes' | 'all' | 'undecided' | 'no change';

export const ROW_FILTERS: readonly { id: RowFilter; label: string }[] = [
  { id: 'changes', label: 'changes only' },
  { id: 'all', label: 'all rows' },
  { id: 'no change', label: 'no change' },
  { id: 'undecided', label: 'undecided' },
];

function keepRow(r: ViewRow, f: RowFilter): boolean {
  switch (f) {
    case 'changes':
      // Held over the family or beyond the threshold on its own: what a reader looks at first.
      return r.verdict === 'faster' || r.verdict === 'slower' || r.verdict === 'faster, not held' || r.verdict === 'slower, not held';
    case 'no change':
      return r.verdict === 'no change';
    case 'undecided':
      return r.verdict === 'undecided' || r.verdict === 'insufficient data' || r.verdict === 'not comparable';
    default:
      return true;
  }
}

export type DiffSortKey = 'runtime' | 'test' | 'phase' | 'a' | 'b' | 'ratio' | 'ci' | 'noise' | 'verdict';

/** Verdicts in the order a reader wants them first: what changed, then what could not be told. */
const VERDICT_ORDER: Record<RowVerdict, number> = {
  slower: 0,
  faster: 1,
  'slower, not held': 2,
  'faster, not held': 3,
  'no change': 4,
  undecided: 5,
  'insufficient data': 6,
  'not comparable': 7,
  'only A': 8,
  'only B': 9,
};

const SORT_VALUE: Record<DiffSortKey, (r: ViewRow) => SortValue> = {
  runtime: (r) => r.runtime,
  test: (r) => r.test,
  phase: (r) => r.phase,
  a: (r) => r.a_value,
  b: (r) => r.b_value,
  ratio: (r) => r.ratio,
  ci: (r) => r.ci_low,
  noise: (r) => r.halfwidth_pct,
  verdict: (r) => VERDICT_ORDER[r.verdict],
};

/** The matched rows a table shows: those the filter keeps and the query names, sorted. */
export function shownRows(rows: readonly ViewRow[], filter: RowFilter, query: string, sort: SortState<DiffSortKey> | null): ViewRow[] {
  const kept = rows.filter(
    (r) => r.verdict !== 'only A' && r.verdict !== 'only B' && keepRow(r, filter) && matchesQuery(query, r.runtime, r.test, r.phase),
  );
  return sort ? sortRows(kept, SORT_VALUE[sort.key], sort.dir) : kept;
}

/**
 * Why a row has its verdict, in words: its interval against the threshold, and the
 * correction over the diff's rows (Benjamini–Hochberg at the diff's false discovery rate).
 */
export function verdictWhy(r: ViewRow, d: Pick<Diff, 'threshold_pct' | 'alpha' | 'rows'>): string {
  const t = d.threshold_pct;
  const family = d.rows.filter((x) => typeof x.p_adjusted === 'number').length;
  const fdr = `a false discovery rate of ${Number((d.alpha * 100).toFixed(4))} % over the ${family} rows with an estimate`;
  const ci = r.ci_low !== null && r.ci_high !== null ? `[${r.ci_low.toFixed(3)}, ${r.ci_high.toFixed(3)}]` : null;
  const p = typeof r.p_adjusted === 'number' ? `adjusted p ${r.p_adjusted.toPrecision(2)}` : null;
  // The level the interval achieves (a signed-rank one's exact level, 96.9 % over 6 rounds).
  const level = `${levelPct(typeof r.level === 'number' ? r.level : 0.95)} interval`;
  switch (r.verdict) {
    case 'faster':
      return `faster: the whole ${level} ${ci} lies below ${(1 - t / 100).toFixed(3)} (−${t} %) and holds at ${fdr} (${p})`;
    case 'slower':
      return `slower: the whole ${level} ${ci} lies above ${(1 + t / 100).toFixed(3)} (+${t} %) and holds at ${fdr} (${p})`;
    case 'no change':
      return `no change: the ${level} ${ci} reaches within ±${t} % of 1`;
    case 'only A':
      return 'only in A: B has no such row, or its cell failed';
    case 'only B':
      return 'only in B: A has no such row';
    default:
      return `${r.verdict}: ${r.note ?? 'too few values or invocations for an interval'}`;
  }
}

const verdictClass = (v: RowVerdict) => `verdict verdict-${v.replace(/[^a-z]+/gi, '-').toLowerCase()}`;

export function DiffScreen({ runs, a, b, defaultThresholdPct, onPick, onExport }: DiffProps) {
  /** As typed; null until then: core's default, which the backend applies when none is sent. */
  const [threshold, setThreshold] = useState<string | null>(null);
  /** `none` or a runtime; null until picked (the backend's default). */
  const [normalize, setNormalize] = useState<string | null>(null);
  const [runtimes, setRuntimes] = useState<string[]>([]);
  /** Keep invocations measured on a busy machine in the verdicts (`--allow-busy`). */
  const [allowBusy, setAllowBusy] = useState(false);
  const [diff, setDiff] = useState<Diff | null>(null);
  /** Core's sentence for the whole diff (every phase), as the CLI prints it first. */
  const [headline, setHeadline] = useState<string | null>(null);
  const [kind, setKind] = useState<SuiteKind>('command');
  // Phases picked for a kind of suite; a diff of another kind starts from its defaults.
  const [picked, setPicked] = useState<{ kind: SuiteKind; phases: Set<Phase> } | null>(null);
  const [rowFilter, setRowFilter] = useState<RowFilter>('changes');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState<DiffSortKey> | null>(null);
  const defaults = useMemo(() => defaultPhases(kind, diff), [kind, diff]);
  const phases = picked?.kind === kind ? picked.phases : defaults;

  /** undefined: not typed (core's default); null: typed but not a number in range. */
  const thresholdPct = threshold === null ? undefined : parseNumberField(threshold, 0, 1000);
  const usable = (runs ?? []).filter((r) => r.meta);

  const { loading, error } = useLoad(
    !a || !b || a === b || thresholdPct === null
      ? null
      : () => diffRuns(a, b, thresholdPct, normalize ?? undefined, allowBusy || undefined),
    [a, b, thresholdPct, normalize, allowBusy],
    {
      start: () => {
        setDiff(null);
        setHeadline(null);
      },
      loaded: (r) => {
        setKind(shapeOf(r.runs[0]?.suite_kind).kind);
        // Runtimes both runs have: what each side can be taken relative to.
        const [ra, rb] = r.runs;
        const inB = new Set((rb?.runtimes ?? []).map((x) => x.id));
        setRuntimes((ra?.runtimes ?? []).map((x) => x.id).filter((id) => inB.has(id)));
        setDiff(r.diff);
        setHeadline(r.diff_headline ?? null);
      },
    },
  );
  const normalizeValue = normalize ?? diff?.normalize ?? 'none';
  const thresholdText = threshold ?? String(defaultThresholdPct ?? diff?.threshold_pct ?? '');
  const normalizeOptions = [...new Set(['none', 'native', ...runtimes, normalizeValue])];

  const rows = useMemo(() => (diff ? diffRows(diff, phases) : []), [diff, phases]);
  const counts = verdictCounts(rows);
  const undecided = rows.filter((r) => keepRow(r, 'undecided')).length;
  const shown = useMemo(() => shownRows(rows, rowFilter, query, sort), [rows, rowFilter, query, sort]);
  const only = useMemo(() => rows.filter((r) => r.verdict === 'only A' || r.verdict === 'only B'), [rows]);

  const runOption = (r: RunListItem) => (
    <option key={r.id} value={r.id}>
      {r.id}
      {r.meta?.label ? ` — ${r.meta.label}` : ''} ({formatTime(r.meta?.started_unix)})
    </option>
  );

  return (
    <section class="screen diff" aria-labelledby="diff-title">
      <header class="screen-head">
        <h1 id="diff-title">Diff</h1>
        <div class="spacer" />
        <button
          type="button"
          disabled={!a || !b || a === b || thresholdPct === null}
          onClick={() => a && b && thresholdPct !== null && onExport(a, b, thresholdPct)}
          data-testid="diff-export"
        >
          Export…
        </button>
      </header>

      <div class="panel row wrap diff-pick">
        <label class="inline-field">
          <span>A (before)</span>
          <select value={a ?? ''} onChange={(e) => onPick(e.currentTarget.value || null, b)} data-testid="diff-a">
            <option value="">choose a run</option>
            {usable.map(runOption)}
          </select>
        </label>
        <button type="button" onClick={() => onPick(b, a)} title="Swap A and B" aria-label="Swap A and B" data-testid="diff-swap">
          ⇄
        </button>
        <label class="inline-field">
          <span>B (after)</span>
          <select value={b ?? ''} onChange={(e) => onPick(a, e.currentTarget.value || null)} data-testid="diff-b">
            <option value="">choose a run</option>
            {usable.map(runOption)}
          </select>
        </label>
        <label class="inline-field">
          <span>Threshold (%)</span>
          <input
            type="number"
            min={0}
            max={1000}
            step={0.5}
            value={thresholdText}
            onChange={(e) => setThreshold(e.currentTarget.value)}
            aria-invalid={thresholdPct === null}
            data-testid="diff-threshold"
          />
        </label>
        <label class="inline-field">
          <span>Normalise</span>
          <select
            value={normalizeValue}
            onChange={(e) => setNormalize(e.currentTarget.value)}
            title="Compare each runtime relative to a runtime of its own run (cancels a machine that was uniformly faster or slower during one run), or the times as measured"
            data-testid="diff-normalize"
          >
            {normalizeOptions.map((n) => (
              <option key={n} value={n}>
                {n === 'none' ? 'none (times as measured)' : `relative to ${n}`}
              </option>
            ))}
          </select>
        </label>
        <label
          class="check"
          title="Verdicts leave out invocations measured while other processes took more than a quarter of the CPUs; keep them anyway (the warnings say so)"
        >
          <input
            type="checkbox"
            checked={allowBusy}
            onChange={(e) => setAllowBusy(e.currentTarget.checked)}
            data-testid="diff-allow-busy"
          />
          allow busy
        </label>
        <fieldset class="phase-filter">
          <legend>Phases</legend>
          {phaseOptions(diff, kind).map((p) => (
            <label key={p} class="check">
              <input
                type="checkbox"
                checked={phases.has(p)}
                onChange={(e) => {
                  const n = new Set(phases);
                  if (e.currentTarget.checked) n.add(p);
                  else n.delete(p);
                  setPicked({ kind, phases: n });
                }}
                data-testid={`phase-${p}`}
              />
              {p.replace('_', ' ')}
            </label>
          ))}
        </fieldset>
      </div>

      {(!a || !b) && <p class="empty">Choose two runs to compare (or select two in Saved runs).</p>}
      {a && b && a === b && <p class="bad">A and B are the same run.</p>}
      {loading && <p class="muted">Comparing…</p>}
      {error && (
        <p class="bad" data-testid="diff-error">
          {error}
        </p>
      )}

      {diff && (
        <>
          {headline && (
            <p class="headline" data-testid="diff-headline">
              {headline}
            </p>
          )}
          {diff.warnings.length > 0 ? (
            <div class="warnings" role="alert" data-testid="diff-warnings" data-count={diff.warnings.length}>
              <strong>These runs may not be comparable:</strong>
              <ul>
                {diff.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p class="muted small" data-testid="diff-warnings" data-count={0}>
              No comparability warnings: same machine, runtime versions, test sources and sizes.
            </p>
          )}

          <div class="counts" data-testid="diff-counts">
            <span class="verdict verdict-faster" data-testid="count-faster">
              {counts.faster} faster
            </span>
            <span class="verdict verdict-slower" data-testid="count-slower">
              {counts.slower} slower
            </span>
            {counts['slower, not held'] + counts['faster, not held'] > 0 && (
              <span
                class="verdict verdict-slower-not-held"
                data-testid="count-not-held"
                title={`Beyond ±${diff.threshold_pct} % on their own, but not held at the false discovery rate over the diff's rows`}
              >
                {counts['slower, not held'] + counts['faster, not held']} beyond alone, not held
              </span>
            )}
            <span class="verdict verdict-no-change" data-testid="count-unchanged">
              {counts['no change']} unchanged
            </span>
            {counts.undecided > 0 && (
              <span
                class="verdict verdict-undecided"
                data-testid="count-undecided"
                title="Too few rounds for the level the correction over the diff's rows needs"
              >
                {counts.undecided} undecided
              </span>
            )}
            {counts['insufficient data'] > 0 && (
              <span class="verdict verdict-insufficient-data" data-testid="count-insufficient">
                {counts['insufficient data']} insufficient data
              </span>
            )}
            {counts['not comparable'] > 0 && (
              <span class="verdict verdict-not-comparable" data-testid="count-not-comparable">
                {counts['not comparable']} not comparable
              </span>
            )}
            {counts['only A'] + counts['only B'] > 0 && (
              <span class="verdict verdict-only">
                {counts['only A']} only in A, {counts['only B']} only in B
              </span>
            )}
            <span class="muted small">
              B/A, threshold {diff.threshold_pct} %,{' '}
              <strong data-testid="diff-normalized">
                {diff.normalize ? `each side relative to its own run's ${diff.normalize}` : 'not normalised'}
              </strong>
              ; {shown.length} of {rows.length - only.length} rows shown
            </span>
          </div>
          <p class="muted small" data-testid="diff-method">
            {diffMethod(diff)}
          </p>

          <div class="panel">
            <div class="table-filters">
              <label class="inline-field">
                <span>Show</span>
                <select value={rowFilter} onChange={(e) => setRowFilter(e.currentTarget.value as RowFilter)} data-testid="diff-filter">
                  {ROW_FILTERS.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.label}
                    </option>
                  ))}
                </select>
              </label>
              <FindField value={query} onInput={setQuery} placeholder="runtime, test or phase" testid="diff-query" />
            </div>
            <DiffTable
              rows={shown}
              diff={diff}
              sort={sort}
              onSort={(k) => setSort((cur) => nextSort(cur, k))}
              empty={
                rowFilter === 'changes' && counts.faster + counts.slower === 0 ? (
                  <>
                    {undecided === 0
                      ? `No row changed beyond ±${diff.threshold_pct} %.`
                      : `No row shows a change beyond ±${diff.threshold_pct} %: ${undecided} could not be decided.`}{' '}
                    <button type="button" class="link" onClick={() => setRowFilter('all')} data-testid="diff-show-all">
                      Show all {rows.length - only.length} rows
                    </button>
                  </>
                ) : (
                  'No rows match.'
                )
              }
            />
            {only.length > 0 && (
              <details class="diff-only" data-testid="diff-only">
                <summary>
                  {counts['only A']} row{counts['only A'] === 1 ? '' : 's'} only in A, {counts['only B']} only in B
                  {diff && counts['only A'] + counts['only B'] !== diff.only_a.length + diff.only_b.length
                    ? ` in the phases shown (${diff.only_a.length} and ${diff.only_b.length} over every phase)`
                    : ''}
                </summary>
                <ul class="small">
                  {only.map((r) => (
                    <li key={`${r.verdict}/${r.runtime}/${r.test}/${r.phase}`} data-testid="diff-only-row">
                      {r.verdict}: {r.runtime} × {r.test} ({r.phase})
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** The diff rows, drawn in a window once there are many (two runs of 10,000 cells). */
export function DiffTable({
  rows,
  diff,
  sort,
  onSort,
  empty,
}: {
  rows: readonly ViewRow[];
  diff: Diff;
  sort: SortState<DiffSortKey> | null;
  onSort: (k: DiffSortKey) => void;
  empty: ComponentChildren;
}) {
  const th = (k: DiffSortKey, label: string, num = false, title?: string) => (
    <SortTh k={k} label={label} sort={sort} onSort={onSort} num={num} title={title} />
  );
  return (
    <ListTable
      items={rows}
      columns={9}
      label="Diff rows"
      attrs={{ class: 'diff-table', 'data-testid': 'diff-table' }}
      head={
        <>
          {th('runtime', 'runtime')}
          {th('test', 'test')}
          {th('phase', 'phase')}
          {th('a', 'A', true)}
          {th('b', 'B', true)}
          {th('ratio', 'B/A', true)}
          {th('ci', '95 % CI', true)}
          {th(
            'noise',
            '± noise',
            true,
            "Half the interval's width: how far the true ratio may lie from this one; a verdict needs the whole interval past the threshold",
          )}
          {th('verdict', 'verdict')}
        </>
      }
      row={(r) => (
        <tr
          key={`${r.runtime}/${r.test}/${r.phase}/${r.verdict}`}
          data-testid="diff-row"
          data-verdict={r.verdict}
          data-runtime={r.runtime}
          data-test={r.test}
          data-phase={r.phase}
          title={rowTitle(r)}
        >
          <td>{r.runtime}</td>
          <td>{r.test}</td>
          <td>{r.phase}</td>
          <td class="num">{formatDiffMedian(r.phase, r.a_value)}</td>
          <td class="num">{formatDiffMedian(r.phase, r.b_value)}</td>
          <td class="num" data-testid="diff-ratio">
            {formatRatio(r.ratio, 3)}
          </td>
          <td class="num" data-testid="diff-ci">
            {formatRatioCi(r.ci_low, r.ci_high, 3)}
          </td>
          <td class="num" data-testid="diff-noise">
            {r.halfwidth_pct !== null ? formatHalfwidth(r.halfwidth_pct) : MISSING}
          </td>
          <td class="nowrap">
            <span class={verdictClass(r.verdict)} title={verdictWhy(r, diff)} data-testid="diff-verdict">
              {r.verdict}
            </span>
            {r.note && (
              <span class="row-note small" data-testid="diff-note">
                {r.note}
              </span>
            )}
          </td>
        </tr>
      )}
      empty={
        <tr>
          <td colSpan={9} class="empty" data-testid="diff-empty">
            {empty}
          </td>
        </tr>
      }
    />
  );
}
