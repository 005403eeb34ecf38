/**
 * Big tables drawn only where they are seen. A run of 10,000 cells is a matrix of 100 × 100
 * and a cell list of 10,000 rows: drawing all of it on every update makes each frame cost
 * hundreds of milliseconds. Past a size, a table gets fixed row heights and column widths
 * inside its own scroll box, and only the rows and columns in view (plus a few either side)
 * are rendered, with spacers standing in for the rest. Small tables are drawn whole, as
 * before, so their layout stays natural.
 */
import type { ComponentChildren, JSX, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** A slice `[first, end)` of equal items, and the pixels before and after it. */
export interface Span {
  first: number;
  end: number;
  before: number;
  after: number;
}

/** Every item: a table drawn whole. */
export function whole(count: number): Span {
  return { first: 0, end: Math.max(0, count), before: 0, after: 0 };
}

/**
 * The items of `size` px seen through a `viewport` px window scrolled to `offset`, with
 * `overscan` more on each side so a fast scroll does not show blanks before the next frame.
 */
export function span(count: number, size: number, offset: number, viewport: number, overscan = 4): Span {
  if (count <= 0 || size <= 0) return whole(0);
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const first = clamp(Math.floor(offset / size) - overscan, 0, count);
  const end = clamp(Math.ceil((offset + Math.max(0, viewport)) / size) + overscan, first, count);
  return { first, end, before: first * size, after: (count - end) * size };
}

/** Where a scroll box is scrolled to and how big it is. */
export interface ScrollBox {
  top: number;
  left: number;
  height: number;
  width: number;
}

/** The box's extent when it has no layout yet (first render; jsdom in tests). */
const FALLBACK = { height: 900, width: 1400 };

/**
 * The scroll position and size of `ref`'s element, read at most once per animation frame
 * while it scrolls or resizes. The position is rounded down to steps of `stepY` × `stepX`
 * px, so a scroll re-renders the table only when it crossed a step, not on every frame.
 */
function useScrollBox(ref: RefObject<HTMLElement>, active: boolean, stepY = 1, stepX = 1): ScrollBox {
  const [box, setBox] = useState<ScrollBox>({ top: 0, left: 0, ...FALLBACK });
  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    let queued = 0;
    const read = () => {
      queued = 0;
      const next = {
        top: Math.floor(el.scrollTop / stepY) * stepY,
        left: Math.floor(el.scrollLeft / stepX) * stepX,
        height: el.clientHeight || FALLBACK.height,
        width: el.clientWidth || FALLBACK.width,
      };
      setBox((b) => (b.top === next.top && b.left === next.left && b.height === next.height && b.width === next.width ? b : next));
    };
    // The frame functions are looked up when called: a test environment may be torn down
    // (and they gone) before an unmounted table's last scroll or clean-up.
    const onScroll = () => {
      if (!queued && typeof requestAnimationFrame === 'function') queued = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(onScroll) : null;
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      if (queued && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(queued);
    };
  }, [ref, active, stepY, stepX]);
  return box;
}

/** Sizes of a windowed table, px. `cols` 0 means columns are never windowed. */
export interface Grid {
  rows: number;
  rowHeight: number;
  cols: number;
  colWidth: number;
  /** Width of the leading header column (test names), which stays in view. */
  headWidth: number;
  /** Tables at most this many rows and columns are drawn whole. */
  maxRows: number;
  maxCols: number;
}

/** A long list-like table (rows only): drawn whole up to 200 rows, in a window of 30 px rows past that. */
export const LIST_GRID: Omit<Grid, 'rows'> = { rowHeight: 30, colWidth: 0, headWidth: 0, cols: 0, maxRows: 200, maxCols: 0 };

/** What a windowed table renders: the row and column slices, or everything. */
export interface Windowed {
  windowed: boolean;
  rows: Span;
  cols: Span;
  /** Scroll box to put the table in. */
  ref: RefObject<HTMLDivElement>;
}

/** Rows and columns a scroll must cross before the table is drawn again. */
const STEP_ROWS = 6;
const STEP_COLS = 3;

/** The slices of `grid` in view, re-computed as its scroll box moves. */
export function useWindowed(grid: Grid): Windowed {
  const ref = useRef<HTMLDivElement>(null);
  const windowed = grid.rows > grid.maxRows || grid.cols > grid.maxCols;
  const stepY = STEP_ROWS * grid.rowHeight;
  const stepX = STEP_COLS * Math.max(1, grid.colWidth);
  const box = useScrollBox(ref, windowed, stepY, stepX);
  if (!windowed) return { windowed, rows: whole(grid.rows), cols: whole(grid.cols), ref };
  // The box's position lags the real one by up to a step: the window reaches a step further.
  return {
    windowed,
    rows: span(grid.rows, grid.rowHeight, box.top, box.height + stepY),
    cols: span(grid.cols, grid.colWidth, box.left - grid.headWidth, box.width + stepX, 2),
    ref,
  };
}

/** A row standing in for `height` px of rows not drawn. */
export function SpacerRow({ height, colSpan }: { height: number; colSpan: number }) {
  if (height <= 0) return null;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds nothing and takes no focus.
    <tr class="spacer" aria-hidden="true" style={{ height: `${height}px` }}>
      <td colSpan={colSpan} />
    </tr>
  );
}

/** A cell standing in for `width` px of columns not drawn. */
export function SpacerCell({ width, head = false }: { width: number; head?: boolean }) {
  if (width <= 0) return null;
  return head ? (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer cell holds nothing and takes no focus.
    <th class="spacer" aria-hidden="true" style={{ width: `${width}px` }} />
  ) : (
    <td class="spacer" aria-hidden="true" style={{ width: `${width}px` }} />
  );
}

/**
 * The scroll box of a table: plain when drawn whole; when windowed, a bounded box with the
 * table's full width and fixed sizes (`--row-h`, `--col-w`, `--head-w`) so the spacers line up.
 */
export function WindowBox({ w, grid, children, label }: { w: Windowed; grid: Grid; children: ComponentChildren; label?: string }) {
  if (!w.windowed) return <div class="table-scroll">{children}</div>;
  const style = {
    '--row-h': `${grid.rowHeight}px`,
    '--col-w': `${grid.colWidth}px`,
    '--head-w': `${grid.headWidth}px`,
    '--table-w': grid.cols > 0 ? `${grid.headWidth + grid.cols * grid.colWidth}px` : '100%',
  };
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so the keyboard can scroll it.
    // biome-ignore lint/a11y/useSemanticElements: the box is the table's scroll container, not a section of the page.
    <div class="table-scroll windowed" ref={w.ref} style={style} role="region" tabIndex={0} aria-label={label} data-windowed="true">
      {children}
    </div>
  );
}

/**
 * A list-like table (one item per row) drawn whole up to 200 rows and in a window past that:
 * `row` renders item `i` (its index in `items`), `head` the header cells, `foot` (when
 * given) rows that always show after them, such as totals.
 */
export function ListTable<T>({
  items,
  head,
  row,
  columns,
  label,
  attrs,
  empty,
  foot,
}: {
  items: readonly T[];
  head: ComponentChildren;
  row: (item: T, i: number) => JSX.Element;
  /** Columns, for the spacers' span. */
  columns: number;
  label: string;
  /** The table's attributes (class, data-testid). */
  attrs?: Record<string, string | undefined>;
  /** A row shown when there are no items. */
  empty?: ComponentChildren;
  /** Footer rows (`<tr>`s), never windowed. */
  foot?: ComponentChildren;
}) {
  const grid = { ...LIST_GRID, rows: items.length };
  const w = useWindowed(grid);
  return (
    <WindowBox w={w} grid={grid} label={label}>
      <table {...attrs}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>
          <SpacerRow height={w.rows.before} colSpan={columns} />
          {items.slice(w.rows.first, w.rows.end).map((item, k) => row(item, w.rows.first + k))}
          <SpacerRow height={w.rows.after} colSpan={columns} />
          {items.length === 0 && empty}
        </tbody>
        {foot && <tfoot>{foot}</tfoot>}
      </table>
    </WindowBox>
  );
}
