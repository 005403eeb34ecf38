/**
 * Saved runs, newest first. Broken run directories are listed with their error (never
 * hidden: the user should see the file at fault and be able to delete it). One selected
 * run opens or exports; two go to the diff, older as A; two or more to the comparison,
 * oldest first.
 */
import { useMemo, useState } from 'preact/hooks';
import type { RunListItem } from '../api';
import { FindField } from '../components/FindField';
import { ConfirmDialog } from '../components/Modal';
import { SortTh } from '../components/SortTh';
import { formatTime } from '../format';
import { matchesQuery, nextSort, type SortState, type SortValue, sortRows } from '../sort';

export type RunSortKey = 'id' | 'label' | 'started' | 'suite' | 'status' | 'tests' | 'runtimes';

const RUN_SORT: Record<RunSortKey, (r: RunListItem) => SortValue> = {
  id: (r) => r.id,
  label: (r) => r.meta?.label ?? null,
  started: (r) => r.meta?.started_unix ?? null,
  suite: (r) => r.meta?.suite ?? null,
  status: (r) => r.meta?.status ?? null,
  tests: (r) => r.meta?.tests.length ?? null,
  runtimes: (r) => r.meta?.runtimes.length ?? null,
};

/** The runs a query names (id, label, suite, status or a runtime), in the order picked. */
export function shownRuns(runs: readonly RunListItem[], query: string, sort: SortState<RunSortKey> | null): RunListItem[] {
  const kept = runs.filter((r) =>
    matchesQuery(query, r.id, r.meta?.label ?? '', r.meta?.suite ?? '', r.meta?.status ?? '', ...(r.meta?.runtimes.map((x) => x.id) ?? [])),
  );
  return sort ? sortRows(kept, RUN_SORT[sort.key], sort.dir) : kept;
}

interface RunsProps {
  runs: RunListItem[] | null;
  onRefresh: () => void;
  onOpen: (id: string) => void;
  onDiff: (a: string, b: string) => void;
  /** Runs to put side by side, oldest first. */
  onCompare: (ids: string[]) => void;
  onDelete: (ids: string[]) => Promise<void>;
  onExport: (ids: string[]) => void;
}

/** Orders two runs as (older, newer) by start time; unknown times keep the given order. */
export function olderFirst(runs: readonly RunListItem[], x: string, y: string): [string, string] {
  const t = (id: string) => runs.find((r) => r.id === id)?.meta?.started_unix;
  const tx = t(x);
  const ty = t(y);
  if (tx !== undefined && ty !== undefined && tx > ty) return [y, x];
  return [x, y];
}

/** Orders runs by start time, oldest first (equal times in the given order); runs of unknown time follow in the given order. */
export function oldestFirst(runs: readonly RunListItem[], ids: readonly string[]): string[] {
  const t = (id: string) => runs.find((r) => r.id === id)?.meta?.started_unix;
  const known = ids.filter((id) => t(id) !== undefined).sort((x, y) => t(x)! - t(y)!);
  return [...known, ...ids.filter((id) => t(id) === undefined)];
}

export function Runs({ runs, onRefresh, onOpen, onDiff, onCompare, onDelete, onExport }: RunsProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState<RunSortKey> | null>(null);
  const shown = useMemo(() => shownRuns(runs ?? [], query, sort), [runs, query, sort]);
  const th = (k: RunSortKey, label: string, num = false) => (
    <SortTh k={k} label={label} sort={sort} onSort={(key) => setSort((cur) => nextSort(cur, key))} num={num} />
  );

  // Forget selections of runs that are gone (deleted elsewhere, refreshed).
  const present = selected.filter((id) => runs?.some((r) => r.id === id));
  const healthy = present.filter((id) => runs?.find((r) => r.id === id)?.meta);
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s.filter((x) => present.includes(x)), id]));

  const one = present.length === 1 && healthy.length === 1 ? healthy[0]! : null;
  const two = present.length === 2 && healthy.length === 2 ? olderFirst(runs ?? [], healthy[0]!, healthy[1]!) : null;
  const many = present.length >= 2 && healthy.length === present.length ? oldestFirst(runs ?? [], healthy) : null;

  return (
    <section class="screen runs" aria-labelledby="runs-title">
      <header class="screen-head">
        <h1 id="runs-title">Saved runs</h1>
        <span class="muted">{runs ? `${runs.length} runs` : 'Loading…'}</span>
        <div class="spacer" />
        <button type="button" onClick={onRefresh} data-testid="runs-refresh">
          Refresh
        </button>
        <button type="button" class="primary" disabled={!one} onClick={() => one && onOpen(one)} data-testid="runs-open">
          Open detail
        </button>
        <button
          type="button"
          disabled={!two}
          title={two ? `Diff ${two[1]} against ${two[0]}` : 'Select two runs'}
          onClick={() => two && onDiff(two[0], two[1])}
          data-testid="runs-diff"
        >
          Diff
        </button>
        <button
          type="button"
          disabled={!many}
          title={many ? `Put ${many.length} runs side by side, each relative to its own native` : 'Select two or more runs'}
          onClick={() => many && onCompare(many)}
          data-testid="runs-compare"
        >
          Compare{present.length >= 2 ? ` (${present.length})` : ''}
        </button>
        <button type="button" disabled={!one && !two} onClick={() => onExport(two ? [...two] : one ? [one] : [])} data-testid="runs-export">
          Export…
        </button>
        <button
          type="button"
          class="danger"
          disabled={present.length === 0}
          onClick={() => setConfirmDelete(true)}
          data-testid="runs-delete"
        >
          Delete
        </button>
      </header>
      <p class="muted small">
        Select one run to open or export it, two to diff them (the older one is A), two or more to compare them side by side. Double-click
        opens a run.
      </p>

      <div class="panel table-scroll">
        <div class="table-filters">
          <FindField value={query} onInput={setQuery} placeholder="id, label, suite, status or runtime" testid="runs-query" />
          {query && runs && (
            <span class="muted small">
              {shown.length} of {runs.length} runs
            </span>
          )}
        </div>
        <table class="runs-table" data-testid="runs-list">
          <thead>
            <tr>
              <th>
                <span class="sr-only">selected</span>
              </th>
              {th('id', 'id')}
              {th('label', 'label')}
              {th('started', 'started')}
              {th('suite', 'suite')}
              {th('status', 'status')}
              {th('tests', 'tests', true)}
              {th('runtimes', 'runtimes')}
            </tr>
          </thead>
          <tbody>
            {runs?.length === 0 && (
              <tr>
                <td colSpan={8} class="empty">
                  No saved runs yet.
                </td>
              </tr>
            )}
            {runs && runs.length > 0 && shown.length === 0 && (
              <tr>
                <td colSpan={8} class="empty">
                  No run matches “{query}”.
                </td>
              </tr>
            )}
            {shown.map((r) => {
              const sel = present.includes(r.id);
              const m = r.meta;
              return (
                <tr
                  key={r.id}
                  class={`${sel ? 'selected' : ''} ${m ? '' : 'broken'}`}
                  data-testid="run-row"
                  data-run-id={r.id}
                  data-broken={m ? undefined : 'true'}
                  aria-selected={sel}
                  onClick={(e) => {
                    if ((e.target as HTMLElement).closest('input')) return;
                    toggle(r.id);
                  }}
                  onDblClick={() => m && onOpen(r.id)}
                >
                  <td>
                    <input type="checkbox" checked={sel} onChange={() => toggle(r.id)} aria-label={`Select run ${r.id}`} />
                  </td>
                  <td>
                    <code>{r.id}</code>
                  </td>
                  {m ? (
                    <>
                      <td>{m.label ?? ''}</td>
                      <td>{formatTime(m.started_unix)}</td>
                      <td>{m.suite}</td>
                      <td>
                        <span class={`badge state-${m.status}`}>{m.status}</span>
                      </td>
                      <td class="num">{m.tests.length}</td>
                      <td class="runtimes-cell" title={m.runtimes.map((x) => x.id).join(', ')}>
                        {m.runtimes.map((x) => x.id).join(', ')}
                      </td>
                    </>
                  ) : (
                    <td colSpan={6} class="broken-error" data-testid="run-error">
                      Cannot read this run: {r.error ?? 'unknown error'}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {confirmDelete && (
        <ConfirmDialog
          title={present.length === 1 ? 'Delete this run?' : `Delete ${present.length} runs?`}
          message={
            <>
              <p>This removes the run directory and every measurement in it:</p>
              <ul>
                {present.map((id) => (
                  <li key={id}>
                    <code>{id}</code>
                  </li>
                ))}
              </ul>
            </>
          }
          confirmLabel="Delete"
          danger
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            const ids = present;
            setSelected([]);
            void onDelete(ids);
          }}
        />
      )}
    </section>
  );
}
