/** A header cell that sorts its table: a button (reachable by keyboard) with the direction shown. */
import type { ComponentChildren } from 'preact';
import { ariaSort, type SortState } from '../sort';

export function SortTh<K extends string>({
  label,
  k,
  sort,
  onSort,
  num,
  title,
}: {
  label: ComponentChildren;
  k: K;
  sort: SortState<K> | null;
  onSort: (k: K) => void;
  num?: boolean;
  title?: string;
}) {
  const dir = ariaSort(sort, k);
  return (
    <th class={num ? 'num' : undefined} aria-sort={dir} title={title}>
      <button type="button" class="sort" onClick={() => onSort(k)} data-testid={`sort-${k}`}>
        {label}
        <span class="sort-mark" aria-hidden="true">
          {dir === 'ascending' ? ' ▲' : dir === 'descending' ? ' ▼' : ''}
        </span>
      </button>
    </th>
  );
}
