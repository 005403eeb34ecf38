/**
 * Sorting and filtering of table rows, one rule for every table of the page: a click on a
 * header sorts by that column, a second click reverses it; missing values sort last
 * either way; equal keys keep their order (the backend's, which is the plan's).
 */

export type SortDir = 'asc' | 'desc';

export interface SortState<K extends string = string> {
  key: K;
  dir: SortDir;
}

/** A column's sort key: a number, a string, or null (missing: always last). */
export type SortValue = number | string | null | undefined;

/** `items` sorted by `value` in `dir`, stably, with missing values last. */
export function sortRows<T>(items: readonly T[], value: (t: T) => SortValue, dir: SortDir): T[] {
  const keyed = items.map((item, i) => ({ item, i, v: value(item) }));
  const sign = dir === 'asc' ? 1 : -1;
  keyed.sort((x, y) => {
    const mx = x.v === null || x.v === undefined || (typeof x.v === 'number' && Number.isNaN(x.v));
    const my = y.v === null || y.v === undefined || (typeof y.v === 'number' && Number.isNaN(y.v));
    if (mx || my) return mx && my ? x.i - y.i : mx ? 1 : -1;
    const c =
      typeof x.v === 'number' && typeof y.v === 'number' ? x.v - y.v : String(x.v).localeCompare(String(y.v), undefined, { numeric: true });
    return c !== 0 ? sign * c : x.i - y.i;
  });
  return keyed.map((k) => k.item);
}

/** The state after a click on `key`: ascending first, then the other way. */
export function nextSort<K extends string>(current: SortState<K> | null, key: K): SortState<K> {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

/** `aria-sort` of a header. */
export function ariaSort(current: SortState | null, key: string): 'ascending' | 'descending' | 'none' {
  if (current?.key !== key) return 'none';
  return current.dir === 'asc' ? 'ascending' : 'descending';
}

/** Whether `text` holds every word of `query` (case-insensitive): "wasmtime sha" finds wasmtime × sha256. */
export function matchesQuery(query: string, ...texts: string[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = texts.join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}
