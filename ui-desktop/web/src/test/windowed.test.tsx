import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { CellSummary, LiveBatch, Report, RunListItem, RunSummary } from '../api';
import { span, whole } from '../components/Windowed';
import { LiveSession } from '../live/session';
import { DiffScreen } from '../screens/Diff';
import { DetailMatrix, MATRIX_GRID } from '../screens/detail/Matrix';
import { Phases } from '../screens/detail/Phases';
import { Live } from '../screens/Live';
import { batch, cellView, view } from './events';
import diffFixture from './fixtures/diff.json';
import runsFixture from './fixtures/runs.json';

describe('span', () => {
  it('takes the items in view plus the overscan, with the pixels around them', () => {
    // 1000 rows of 30 px, scrolled to 3000 px, 600 px tall: rows 100..120 are in view.
    expect(span(1000, 30, 3000, 600, 4)).toEqual({ first: 96, end: 124, before: 96 * 30, after: (1000 - 124) * 30 });
  });

  it('clamps at both ends and never covers fewer than nothing', () => {
    expect(span(1000, 30, 0, 600, 4)).toEqual({ first: 0, end: 24, before: 0, after: 976 * 30 });
    expect(span(1000, 30, 29_400, 600, 4)).toEqual({ first: 976, end: 1000, before: 976 * 30, after: 0 });
    // Scrolled past the end (the list shrank): an empty slice at the end, not negative sizes.
    expect(span(10, 30, 10_000, 600, 4)).toEqual({ first: 10, end: 10, before: 300, after: 0 });
    // A negative offset (columns left of the sticky test column).
    // 1220 px of columns in view: 11 columns, and 2 more.
    expect(span(100, 112, -180, 1400, 2)).toEqual({ first: 0, end: 13, before: 0, after: 87 * 112 });
    expect(span(0, 30, 0, 600)).toEqual(whole(0));
  });
});

function cell(runtime: string, test: string, median: number): CellSummary {
  return {
    runtime,
    test,
    source: 'self',
    stats: {
      n: 1,
      median,
      mean: median,
      min: median,
      max: median,
      mad: 0,
      stddev: 0,
      p90: median,
      p99: median,
      ci_low: null,
      ci_high: null,
    },
    typical: median,
    invocations: 1,
    partial: false,
    halfwidth_pct: null,
    relative: runtime === 'native' ? 1 : 2,
    relative_low: null,
    relative_high: null,
    startup_ns: null,
    phases: { execute: median },
    phase_stats: {},
    failure: null,
  };
}

/** A run of `r` runtimes × `t` tests; cell (i, j) has median 1000·i + j ns. */
function bigRun(r: number, t: number): RunSummary {
  const runtimes = Array.from({ length: r }, (_, i) => (i === 0 ? 'native' : `rt${String(i).padStart(3, '0')}`));
  const tests = Array.from({ length: t }, (_, j) => `t${String(j).padStart(3, '0')}`);
  return {
    run_id: 'big',
    baseline: 'native',
    runtimes,
    tests,
    cells: runtimes.flatMap((rt, i) => tests.map((te, j) => cell(rt, te, 1000 * i + j + 1))),
    per_runtime: runtimes.map((runtime) => ({ runtime, geomean_relative: 1, tests_compared: t, tests_total: t, failed: 0 })),
    load: null,
  };
}

describe('big tables', () => {
  it('draw a 100 × 100 matrix only where it is seen, and move the window on scroll', async () => {
    const s = bigRun(100, 100);
    render(<DetailMatrix summary={s} />);
    const drawn = () => screen.getAllByTestId('matrix-cell');
    const box = screen.getByTestId('detail-matrix').parentElement!;
    expect(box.dataset.windowed).toBe('true');
    // jsdom has no layout: the box counts as 900 × 1400 px. Drawn: the rows in 900 px and a
    // step of 6 rows (58 px each: ratio, time and noise on three lines), 4 more; the columns in 1400 - 180 px and a step of 3 (112
    // px each), 2 more.
    const rows = Math.ceil((900 + 6 * 58) / 58) + 4;
    const cols = Math.ceil((1400 + 3 * 112 - 180) / 112) + 2;
    expect([rows, cols, MATRIX_GRID.rowHeight, MATRIX_GRID.colWidth, MATRIX_GRID.headWidth]).toEqual([26, 16, 58, 112, 180]);
    expect(drawn()).toHaveLength(rows * cols);
    expect(drawn()[0]!.dataset).toMatchObject({ runtime: 'native', test: 't000' });
    // Spacers keep the full size: rows after the window stand for the rest of the 100.
    const spacer = box.querySelector('tbody tr.spacer:last-child') as HTMLElement;
    expect(spacer.style.height).toBe(`${(100 - rows) * MATRIX_GRID.rowHeight}px`);

    // Scroll down 50 rows and right 40 columns: the window follows, with the right values
    // (from the step the scroll is in: 8 steps of 6 rows less 4, 13 steps of 3 columns less
    // the test column and 2).
    Object.assign(box, { scrollTop: 50 * MATRIX_GRID.rowHeight, scrollLeft: MATRIX_GRID.headWidth + 40 * MATRIX_GRID.colWidth });
    fireEvent.scroll(box);
    await waitFor(() => expect(drawn()[0]!.dataset).toMatchObject({ runtime: 'rt035', test: 't044' }));
    const c = drawn().find((e) => e.dataset.runtime === 'rt045' && e.dataset.test === 't055')!;
    expect(c.querySelector('.median')!.textContent).toBe('45.1 µs');
    expect(screen.queryAllByTestId('matrix-cell').some((e) => e.dataset.test === 't000')).toBe(false);
  });

  it('draws a small matrix whole, as it always did', () => {
    render(<DetailMatrix summary={bigRun(5, 12)} />);
    expect(screen.getAllByTestId('matrix-cell')).toHaveLength(60);
    expect(screen.getByTestId('detail-matrix').parentElement!.dataset.windowed).toBeUndefined();
  });

  it('draws a long phases table in a window', () => {
    const s = bigRun(10, 100);
    render(<Phases cells={s.cells} />);
    const rows = screen.getByTestId('phases-table').querySelectorAll('tbody tr:not(.spacer)');
    // 900 px and a step of 6 rows of 30 px, 4 more.
    expect(rows.length).toBe(40);
    expect(rows[0]!.textContent).toContain('native');
  });
});

describe('the live screen at 10,000 cells', () => {
  it('lists and tabulates a window of the cells, with the finished ones right', async () => {
    let deliver: ((b: LiveBatch) => void) | null = null;
    const session = new LiveSession({
      startRun: async (_suite, _choices, on) => {
        deliver = on;
        return null as never;
      },
      cancelRun: async () => true,
      schedule: (fn) => setTimeout(fn, 0),
    });
    const big = bigRun(100, 100);
    const cells = big.runtimes.flatMap((r) => big.tests.map((t): [string, string] => [r, t]));
    await session.start('compute', {
      tests: [],
      runtimes: [],
      baseline: 'native',
      skip_missing: false,
      settings: [],
      yes: false,
      precision_off: false,
    });
    render(<Live session={session} onOpenDetail={() => {}} onNewRun={() => {}} />);
    // Core's view after the first 150 cells (native on every test, rt001 on half) finished:
    // native took 1 µs, rt001 2 µs; rt002 has not started.
    const views = cells.map(([runtime, test], index) =>
      index < 150
        ? cellView(index, runtime, test, {
            status: 'done',
            done: 1,
            invocations_ended: 1,
            wall_ms: 3,
            value: runtime === 'native' ? 1000 : 2000,
            ratio: runtime === 'native' ? 1 : 2,
            source: 'self',
          })
        : cellView(index, runtime, test),
    );
    deliver!(
      batch(
        [],
        view({
          run_id: 'big',
          cell_count: cells.length,
          finished_cells: 150,
          progress: { done: 150, total: 10000, fraction: 0.015 },
          position: { at: 150, of: 10000, invocation: 0, invocations: 1, round: null, in_round: 0 },
          cells: views,
        }),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('cell-position').textContent).toBe('cell 150 of 10000'));
    const rows = screen.getAllByTestId('cell-row');
    expect(rows.length).toBe(40);
    expect(rows.every((r) => r.dataset.status === 'done')).toBe(true);
    const live = screen.getAllByTestId('live-cell');
    const at = (r: string, t: string) => live.find((e) => e.dataset.runtime === r && e.dataset.test === t);
    expect(at('rt001', 't010')!.querySelector('.ratio')!.textContent).toBe('2.00×');
    expect(at('rt002', 't005')!.dataset.testid).toBe('live-cell');
    expect(at('rt002', 't005')!.textContent).toBe('');
    // Only the window of the 100 × 100 matrix is drawn.
    expect(live.length).toBeLessThan(1000);
    expect(screen.getByTestId('live-matrix').parentElement!.dataset.windowed).toBe('true');
  });
});

describe('the diff of two 10,000-cell runs', () => {
  it('draws a window of its 20,000 rows, with the right values, and all of them counted', async () => {
    const fixture = diffFixture as unknown as Report;
    const base = fixture.diff!.rows[0]!;
    // Row k: runtime rt(k / 100), test t(k % 100), execute and total; every 7th one slower.
    const rows = Array.from({ length: 10_000 }, (_, k) =>
      (['execute', 'total'] as const).map((phase) => ({
        ...base,
        runtime: `rt${String(Math.floor(k / 100)).padStart(3, '0')}`,
        test: `t${String(k % 100).padStart(3, '0')}`,
        phase,
        a_median: 1000,
        b_median: k % 7 === 0 ? 1500 : 1000,
        ratio: k % 7 === 0 ? 1.5 : 1,
        ci_low: k % 7 === 0 ? 1.4 : 0.99,
        ci_high: k % 7 === 0 ? 1.6 : 1.01,
        verdict: (k % 7 === 0 ? 'slower' : 'no change') as 'slower' | 'no change',
      })),
    ).flat();
    mockIPC(() => ({ ...fixture, diff: { ...fixture.diff!, rows, only_a: [], only_b: [], warnings: [] } }));
    render(
      <DiffScreen
        runs={runsFixture as RunListItem[]}
        a="20261122-035229-compute-a3d7"
        b="20261122-035234-compute-4bb8"
        defaultThresholdPct={2}
        onPick={() => {}}
        onExport={() => {}}
      />,
    );
    const table = await screen.findByTestId('diff-table');
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'all' } });
    expect(table.parentElement!.dataset.windowed).toBe('true');
    const drawn = within(table).getAllByTestId('diff-row');
    expect(drawn).toHaveLength(40);
    expect(drawn[0]!.textContent).toContain('rt000');
    expect(drawn[0]!.dataset.verdict).toBe('slower');
    expect(drawn[0]!.textContent).toContain('1.500×');
    expect(drawn[2]!.dataset.verdict).toBe('no change');
    // The counts are over every row, not the window: 1,429 of 10,000 cells slower, twice.
    expect(screen.getByTestId('count-slower').textContent).toBe('2858 slower');
    expect(screen.getByTestId('count-unchanged').textContent).toBe('17142 unchanged');
  });
});
