import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Report, RunListItem, RuntimeView, SampleRow } from '../api';
import { Detail } from '../screens/Detail';
import { DiffScreen, diffRows, verdictCounts } from '../screens/Diff';
import { Resources } from '../screens/detail/Resources';
import { olderFirst, Runs } from '../screens/Runs';
import { defaultRuntimes } from '../screens/Setup';
import diffFixture from './fixtures/diff.json';
import runFixture from './fixtures/run.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';

const runs = runsFixture as RunListItem[];
const report = runFixture as unknown as Report;
const diffReport = diffFixture as unknown as Report;

const noop = () => {};

describe('Runs screen', () => {
  it('lists a broken run with its error, visibly', () => {
    render(<Runs runs={runs} onRefresh={noop} onOpen={noop} onDiff={noop} onCompare={noop} onDelete={async () => {}} onExport={noop} />);
    const rows = screen.getAllByTestId('run-row');
    expect(rows).toHaveLength(3);
    const broken = rows.find((r) => r.dataset.runId === '20261122-040000-compute-dead')!;
    expect(broken.dataset.broken).toBe('true');
    expect(broken.className).toContain('broken');
    expect(within(broken).getByTestId('run-error').textContent).toContain('not valid run metadata: expected value at line 1 column 1');
    const ok = rows.find((r) => r.dataset.runId === '20261122-035229-compute-a3d7')!;
    expect(ok.dataset.broken).toBeUndefined();
    expect(ok.textContent).toContain('fixture1');
    expect(ok.textContent).toContain('native, wasmtime, wasmer-singlepass');
  });

  it('opens one run, diffs two with the older as A, and will not open a broken one', () => {
    const onOpen = vi.fn();
    const onDiff = vi.fn();
    render(
      <Runs runs={runs} onRefresh={noop} onOpen={onOpen} onDiff={onDiff} onCompare={noop} onDelete={async () => {}} onExport={noop} />,
    );
    const row = (id: string) => screen.getAllByTestId('run-row').find((r) => r.dataset.runId === id)!;
    fireEvent.click(row('20261122-040000-compute-dead'));
    expect((screen.getByTestId('runs-open') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(row('20261122-040000-compute-dead'));
    // Newer first in the list; selected newer then older.
    fireEvent.click(row('20261122-035234-compute-4bb8'));
    fireEvent.click(screen.getByTestId('runs-open'));
    expect(onOpen).toHaveBeenCalledWith('20261122-035234-compute-4bb8');
    fireEvent.click(row('20261122-035229-compute-a3d7'));
    fireEvent.click(screen.getByTestId('runs-diff'));
    expect(onDiff).toHaveBeenCalledWith('20261122-035229-compute-a3d7', '20261122-035234-compute-4bb8');
    expect(olderFirst(runs, '20261122-035234-compute-4bb8', '20261122-035229-compute-a3d7')).toEqual([
      '20261122-035229-compute-a3d7',
      '20261122-035234-compute-4bb8',
    ]);
  });

  it('sorts by any column and finds runs by id, label, suite or runtime', () => {
    render(<Runs runs={runs} onRefresh={noop} onOpen={noop} onDiff={noop} onCompare={noop} onDelete={async () => {}} onExport={noop} />);
    const ids = () => screen.getAllByTestId('run-row').map((r) => r.dataset.runId);
    const before = ids();
    fireEvent.click(screen.getByTestId('sort-started'));
    // Oldest first; the broken run (no start time) last.
    expect(ids()).toEqual(['20261122-035229-compute-a3d7', '20261122-035234-compute-4bb8', '20261122-040000-compute-dead']);
    fireEvent.click(screen.getByTestId('sort-started'));
    expect(ids()).toEqual(['20261122-035234-compute-4bb8', '20261122-035229-compute-a3d7', '20261122-040000-compute-dead']);
    for (const k of ['id', 'label', 'suite', 'status', 'tests', 'runtimes']) {
      fireEvent.click(screen.getByTestId(`sort-${k}`));
      expect(ids().sort()).toEqual([...before].sort());
    }
    fireEvent.input(screen.getByTestId('runs-query'), { target: { value: 'fixture1' } });
    expect(ids()).toEqual(['20261122-035229-compute-a3d7']);
    fireEvent.input(screen.getByTestId('runs-query'), { target: { value: 'no-such-thing' } });
    expect(screen.queryAllByTestId('run-row')).toHaveLength(0);
    expect(screen.getByTestId('runs-list').textContent).toContain('No run matches “no-such-thing”.');
  });

  it('deletes only after confirmation', async () => {
    const onDelete = vi.fn(async () => {});
    render(<Runs runs={runs} onRefresh={noop} onOpen={noop} onDiff={noop} onCompare={noop} onDelete={onDelete} onExport={noop} />);
    fireEvent.click(screen.getAllByTestId('run-row')[0]!);
    fireEvent.click(screen.getByTestId('runs-delete'));
    expect(screen.getByTestId('confirm-dialog').textContent).toContain('20261122-040000-compute-dead');
    fireEvent.click(screen.getByTestId('confirm-no'));
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('runs-delete'));
    fireEvent.click(screen.getByTestId('confirm-yes'));
    expect(onDelete).toHaveBeenCalledWith(['20261122-040000-compute-dead']);
  });
});

/** The matrix cell of runtime `rt` and test `t`. */
function matrixCell(matrix: HTMLElement, rt: string, t: string): HTMLElement {
  return within(matrix)
    .getAllByTestId('matrix-cell')
    .find((c) => c.dataset.runtime === rt && c.dataset.test === t)!;
}

describe('Detail screen', () => {
  it('tints a cell by its ratio only when its interval lies wholly on one side of 1.00', async () => {
    const report = structuredClone(runFixture) as unknown as Report;
    const cells = report.runs[0]!.summary!.cells;
    const ws = cells.find((c) => c.runtime === 'wasmtime' && c.test === 'sha256')!;
    // memhard's case from issue 61: far from 1.00 by its point, not by its interval.
    ws.relative = 0.79;
    ws.relative_low = 0.6;
    ws.relative_high = 1.03;
    mockIPC(() => report);
    render(<Detail runId={report.runs[0]!.id} onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    const cell = (rt: string, t: string) => matrixCell(matrix, rt, t);
    const held = cell('wasmtime', 'sha256');
    expect(held.querySelector('.ratio')!.textContent).toBe('0.79×');
    expect(held.dataset.tone).toBe('same');
    expect(held.style.background.replace(/\s/g, '')).toBe('rgb(247,247,247)');
    // Beyond 1.00 on its own: tinted as before.
    expect(cell('wasmer-singlepass', 'nbody').dataset.tone).toBe('slower');
  });

  it('renders the matrix from run.json with ratios, colours and failures', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      return report;
    });
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    expect(calls).toEqual([['load_run', { id: '20261122-035229-compute-a3d7' }]]);
    // Core's headline first, as `wasmeter show` prints it (ui-desktop/tests/all/headline.rs
    // holds the fixture's sentence to core's run_headline).
    expect(screen.getByTestId('run-headline').textContent).toBe(report.runs[0]!.headline);
    expect(report.runs[0]!.headline).toMatch(/native/);
    const cell = (rt: string, t: string) => matrixCell(matrix, rt, t);

    const ws = cell('wasmtime', 'sha256');
    expect(ws.querySelector('.ratio')!.textContent).toBe('1.15×');
    // The median to the digits its noise supports, and the noise: half its 95 % interval, percent.
    expect(ws.querySelector('.median')!.textContent).toBe('97.8 ms');
    expect(within(ws).getByTestId('cell-noise').textContent!.trim()).toBe('±0.6 %');
    expect(ws.dataset.tone).toBe('slower');
    expect(ws.title).toContain('typical 97.85 ms ±0.6 % (median 97.85 ms, n=3 from 3 invocations, self time)');
    expect(ws.title).toContain('1.15× native (95 % CI 1.13–1.17×)');

    const nb = cell('wasmer-singlepass', 'nbody');
    expect(nb.querySelector('.ratio')!.textContent).toBe('6.73×');
    // Core's shared scale: 6.73× and 1.15× in different bins, each with its text colour.
    const rgb = (c: string) => c.replace(/\s/g, '');
    expect(rgb(nb.style.background)).toBe('rgb(133,8,36)');
    expect(rgb(ws.style.background)).toBe('rgb(250,235,227)');
    expect(rgb(nb.style.color)).toBe('rgb(255,255,255)');
    expect(rgb(ws.style.color)).toBe('rgb(28,35,48)');

    const base = cell('native', 'sha256');
    expect(base.querySelector('.ratio')!.textContent).toBe('1.00×');
    expect(base.dataset.tone).toBe('same');
    expect(rgb(base.style.background)).toBe('rgb(247,247,247)');

    const failed = cell('wasmer-singlepass', 'matmul-simd');
    expect(failed.dataset.tone).toBe('failed');
    expect(failed.textContent).toContain('Compilation error: not yet implemented');

    const geo = screen.getAllByTestId('geomean-cell').find((c) => c.dataset.runtime === 'wasmer-singlepass')!;
    expect(geo.textContent).toContain('2.37×');
    expect(geo.textContent).toContain('1 failed');
    // Over 3 of the run's 4 tests (matmul-simd failed), and it says so; wasmtime's covers all.
    expect(within(geo).getByTestId('geomean-coverage').textContent).toBe('3 of 4 tests');
    expect(geo.title).toContain('2.37× (3 of 4 tests)');
    const wgeo = screen.getAllByTestId('geomean-cell').find((c) => c.dataset.runtime === 'wasmtime')!;
    expect(within(wgeo).queryByTestId('geomean-coverage')).toBeNull();
    expect(screen.getByTestId('detail-settings').textContent).toContain('3 invocations × (1 warm-up + 1 runs), interleaved');

    expect(screen.getByTestId('detail-header').textContent).toContain('AMD EPYC, 2 cores');
    // The load core measured, and core's word on whether it was too busy for verdicts.
    expect(screen.getByTestId('detail-other-load').textContent).toBe(
      '0.90 of 2 cores during the run — busy: a diff with this run gives no verdicts',
    );
    expect(screen.getAllByTestId('strip-plot')).toHaveLength(4);
    expect(screen.getByTestId('phases-table').textContent).toContain('14.48 ms');
  });

  it("sorts the tests by a runtime's column or by name, failed cells last", async () => {
    mockIPC(() => report);
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    const order = () =>
      within(matrix)
        .getAllByTestId('matrix-cell')
        .filter((c) => c.dataset.runtime === 'wasmtime')
        .map((c) => c.dataset.test!);
    const rel = (t: string) => report.runs[0]!.summary.cells.find((c) => c.runtime === 'wasmtime' && c.test === t)!;
    fireEvent.click(within(matrix).getByTestId('sort-wasmtime'));
    const up = order();
    const figures = up.map((t) => (rel(t).failure ? Number.POSITIVE_INFINITY : (rel(t).relative ?? rel(t).typical!)));
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    fireEvent.click(within(matrix).getByTestId('sort-wasmtime'));
    const down = order().filter((t) => !rel(t).failure);
    expect(down).toEqual(up.filter((t) => !rel(t).failure).reverse());
    fireEvent.click(within(matrix).getByTestId('sort-test'));
    expect(order()).toEqual([...report.runs[0]!.summary.tests].sort());
  });

  it("draws every runtime of the first test, then the picked cell's runtime alone", async () => {
    mockIPC(() => report);
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    const tests = report.runs[0]!.summary.tests;
    expect(screen.getByTestId('resources').dataset.test).toBe(tests[0]);
    const first = report.runs[0]!.summary.runtimes.filter((r) =>
      report.runs[0]!.samples.some((x) => x.test === tests[0] && x.runtime === r),
    );
    expect(screen.getByTestId('resources').dataset.runtimes).toBe(first.join(','));
    const other = tests[1]!;
    const cell = within(matrix)
      .getAllByTestId('matrix-cell')
      .find((c) => c.dataset.test === other && c.dataset.runtime === 'wasmtime')!;
    fireEvent.click(cell);
    const res = screen.getByTestId('resources');
    expect(res.dataset.test).toBe(other);
    // Issue 61: a clicked cell drew all nine runtimes, its own lost among them.
    expect(res.dataset.runtimes).toBe('wasmtime');
  });

  it('marks the points of a runtime sampled once or twice an invocation, so its cells are seen', () => {
    // Issue 61: a short cell's one or two samples an invocation were drawn as a line of
    // nothing. native: one sample per invocation; wasmtime: a stretch of four.
    const s = (runtime: string, t_ms: number): SampleRow => ({ t_ms, runtime, test: 't', cpu_pct: 90, rss_bytes: 4e6 });
    const samples = [s('native', 0), s('native', 80_000), ...[0, 100, 200, 300].map((t) => s('wasmtime', 200_000 + t))];
    render(<Resources runId="r" samples={samples} test="t" runtimes={['native', 'wasmtime']} intervalMs={100} />);
    const res = screen.getByTestId('resources');
    expect(res.dataset.runtimes).toBe('native,wasmtime');
    // The chart's own series spec: native's points drawn, wasmtime's line alone.
    expect(res.dataset.marked).toBe('native');
  });

  it('diffs two runtimes of the run, paired, as `diff RUN --runtimes A,B` does', async () => {
    const pair = {
      diff: { ...diffReport.diff!, a: 'run:native', b: 'run:wasmtime', paired: true },
      diff_headline: '4 slower, 3 faster, 36 no change, 0 undecided',
    };
    const calls: [string, unknown][] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      return cmd === 'diff_runtimes' ? pair : report;
    });
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const box = await screen.findByTestId('pair-diff');
    // The baseline and the next runtime by default.
    expect((within(box).getByTestId('pair-a') as HTMLSelectElement).value).toBe('native');
    expect((within(box).getByTestId('pair-b') as HTMLSelectElement).value).toBe('wasmtime');
    fireEvent.change(within(box).getByTestId('pair-b'), { target: { value: 'native' } });
    expect((within(box).getByTestId('pair-go') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(box).getByTestId('pair-b'), { target: { value: 'wasmer-singlepass' } });
    fireEvent.click(within(box).getByTestId('pair-go'));
    await waitFor(() =>
      expect(within(box).getByTestId('pair-headline').textContent).toBe(
        'run:wasmtime against run:native: 4 slower, 3 faster, 36 no change, 0 undecided',
      ),
    );
    expect(calls.at(-1)).toEqual(['diff_runtimes', { id: '20261122-035229-compute-a3d7', a: 'native', b: 'wasmer-singlepass' }]);
    expect(within(box).getAllByTestId('diff-row')).toHaveLength(pair.diff.rows.length);

    // Two tests instead (`diff RUN --tests A,B`): the lists become the run's tests, the
    // first two picked, the old result cleared.
    fireEvent.change(within(box).getByTestId('pair-of'), { target: { value: 'tests' } });
    expect(within(box).queryByTestId('pair-headline')).toBeNull();
    const a = within(box).getByTestId('pair-a') as HTMLSelectElement;
    const b = within(box).getByTestId('pair-b') as HTMLSelectElement;
    const tests = Array.from(a.options).map((o) => o.value);
    expect(tests).toEqual(report.runs[0]!.summary.tests);
    expect([a.value, b.value]).toEqual(tests.slice(0, 2));
    fireEvent.click(within(box).getByTestId('pair-go'));
    await waitFor(() => expect(calls.at(-1)?.[0]).toBe('diff_runtimes'));
    expect(calls.at(-1)).toEqual(['diff_runtimes', { id: '20261122-035229-compute-a3d7', a: tests[0], b: tests[1], of: 'tests' }]);
  });

  it('reloads with the baseline picked', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      return report;
    });
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const select = (await screen.findByTestId('detail-baseline')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'wasmtime' } });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual(['load_run', { id: '20261122-035229-compute-a3d7', baseline: 'wasmtime' }]);
  });

  it('marks a partial cell and says why a cell has no relative value', async () => {
    const r = structuredClone(report);
    const s = r.runs[0]!.summary;
    const find = (rt: string, t: string) => s.cells.find((c) => c.runtime === rt && c.test === t)!;
    // An interrupted run: wasmtime × crc32 ended 1 of its 3 invocations.
    Object.assign(find('wasmtime', 'crc32'), {
      partial: true,
      invocations: 1,
      relative: null,
      relative_low: null,
      relative_high: null,
      note: 'partial: 1 of 3 invocations',
    });
    // wasmer-singlepass × crc32 was timed by the harness only: not divided by native's self time.
    Object.assign(find('wasmer-singlepass', 'crc32'), {
      source: 'wall',
      relative: null,
      relative_low: null,
      relative_high: null,
      note: 'not comparable: timing sources differ (wall vs self)',
    });
    Object.assign(s.per_runtime.find((g) => g.runtime === 'wasmtime')!, { tests_compared: 3, geomean_relative: 1.1 });
    mockIPC(() => r);
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    const cell = (rt: string, t: string) => matrixCell(matrix, rt, t);
    const partial = cell('wasmtime', 'crc32');
    expect(partial.dataset.partial).toBe('true');
    expect(partial.className).toContain('partial');
    expect(partial.dataset.ratio).toBeUndefined();
    expect(partial.querySelector('.ratio')).toBeNull();
    expect(within(partial).getByTestId('cell-note').textContent).toBe('partial');
    expect(partial.title).toContain('partial: 1 of 3 invocations');
    expect(partial.title).toContain('n=3 from 1 invocation,');
    const nc = cell('wasmer-singlepass', 'crc32');
    expect(nc.dataset.tone).toBe('none');
    expect(within(nc).getByTestId('cell-note').textContent).toBe('not comparable');
    expect(nc.title).toContain('not comparable: timing sources differ (wall vs self)');
    const geo = screen.getAllByTestId('geomean-cell').find((c) => c.dataset.runtime === 'wasmtime')!;
    expect(within(geo).getByTestId('geomean-coverage').textContent).toBe('3 of 4 tests');
  });

  it('shows why a run cannot be loaded', async () => {
    mockIPC(() => {
      throw { code: 'corrupt', message: 'meta.json: not valid run metadata' };
    });
    render(<Detail runId="broken" onExport={noop} onPickRun={noop} />);
    expect((await screen.findByTestId('detail-error')).textContent).toContain('meta.json: not valid run metadata');
  });
});

describe('Diff screen', () => {
  it('shows verdicts, counts and filters by phase (execute + total by default)', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      return diffReport;
    });
    render(
      <DiffScreen
        runs={runs}
        a="20261122-035229-compute-a3d7"
        b="20261122-035234-compute-4bb8"
        defaultThresholdPct={2}
        onPick={noop}
        onExport={noop}
      />,
    );
    const table = await screen.findByTestId('diff-table');
    // Core's headline over every row, as `wasmeter diff` prints it.
    expect(screen.getByTestId('diff-headline').textContent).toBe(diffReport.diff_headline);
    // Over every phase (the table below shows execute + total until more are picked).
    expect(diffReport.diff_headline).toBe('4 slower, 3 faster, 36 no change, 0 undecided');
    // No threshold typed: none sent, the backend applies core's; the field shows it.
    expect(calls).toEqual([['diff_runs', { a: '20261122-035229-compute-a3d7', b: '20261122-035234-compute-4bb8' }]]);
    expect((screen.getByTestId('diff-threshold') as HTMLInputElement).value).toBe('2');
    // A diff of two runs opens on the changed rows: 2 of 11 execute + 11 total.
    expect(
      within(table)
        .getAllByTestId('diff-row')
        .map((r) => r.dataset.verdict),
    ).toEqual(['slower', 'slower']);
    expect((screen.getByTestId('diff-filter') as HTMLSelectElement).value).toBe('changes');
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'all' } });
    const rows = within(table).getAllByTestId('diff-row');
    expect(rows).toHaveLength(22);
    expect(screen.getByTestId('count-slower').textContent).toBe('2 slower');
    expect(screen.getByTestId('count-faster').textContent).toBe('0 faster');
    expect(screen.getByTestId('count-unchanged').textContent).toBe('20 unchanged');
    const first = rows[0]!;
    expect(first.textContent).toContain('native');
    expect(first.textContent).toContain('crc32');
    expect(first.textContent).toContain('0.996×');
    expect(first.textContent).toContain('0.962–1.003×');
    expect(first.dataset.verdict).toBe('no change');
    expect(first.querySelector('.verdict')!.className).toContain('verdict-no-change');
    // Why: the interval against the threshold, and the correction over the rows.
    expect(within(first).getByTestId('diff-verdict').title).toMatch(/^no change: /);
    expect(within(first).getByTestId('diff-verdict').title).toContain('[0.962, 1.003]');
    const slower = rows.filter((r) => r.dataset.verdict === 'slower');
    expect(slower).toHaveLength(2);
    expect(slower[0]!.querySelector('.verdict')!.className).toContain('verdict-slower');
    expect(within(slower[0]!).getByTestId('diff-verdict').title).toMatch(
      /^slower: the whole 95 % interval \[\d\.\d{3}, \d\.\d{3}\] lies above 1\.020 \(\+2 %\) and holds at a false discovery rate of 5 % over the \d+ rows with an estimate \(adjusted p /,
    );
    expect(screen.getByTestId('diff-warnings').dataset.count).toBe('0');

    // Add the compile phase: 2 slower compile rows appear.
    fireEvent.click(screen.getByTestId('phase-compile'));
    await waitFor(() => expect(within(table).getAllByTestId('diff-row')).toHaveLength(29));
    expect(screen.getByTestId('count-slower').textContent).toBe('4 slower');
    fireEvent.click(screen.getByTestId('phase-instantiate'));
    await waitFor(() => expect(screen.getByTestId('count-faster').textContent).toBe('2 faster'));

    // A threshold typed is sent.
    fireEvent.change(screen.getByTestId('diff-threshold'), { target: { value: '5' } });
    await waitFor(() =>
      expect(calls.at(-1)).toEqual([
        'diff_runs',
        { a: '20261122-035229-compute-a3d7', b: '20261122-035234-compute-4bb8', threshold_pct: 5 },
      ]),
    );
    // Allow busy is sent only when ticked.
    fireEvent.click(screen.getByTestId('diff-allow-busy'));
    await waitFor(() =>
      expect(calls.at(-1)).toEqual([
        'diff_runs',
        { a: '20261122-035229-compute-a3d7', b: '20261122-035234-compute-4bb8', threshold_pct: 5, allow_busy: true },
      ]),
    );
  });

  it('puts comparability warnings above the table, and lists rows only one side has', async () => {
    const withWarnings = structuredClone(diffReport);
    withWarnings.diff!.warnings = ['machines differ: 5cfc1b07a2abd8e5 vs 0123456789abcdef', 'wasmtime version differs: 48.0.0 vs 49.0.0'];
    withWarnings.diff!.only_a = [{ runtime: 'wasmer-singlepass', test: 'matmul-simd', phase: 'execute' }];
    mockIPC(() => withWarnings);
    render(<DiffScreen runs={runs} a="x" b="y" defaultThresholdPct={2} onPick={noop} onExport={noop} />);
    const warn = await screen.findByTestId('diff-warnings');
    expect(warn.dataset.count).toBe('2');
    expect(warn.getAttribute('role')).toBe('alert');
    expect(warn.textContent).toContain('machines differ');
    expect(warn.textContent).toContain('wasmtime version differs: 48.0.0 vs 49.0.0');
    // Warnings come before the table in the document.
    const table = screen.getByTestId('diff-table');
    expect(warn.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Rows only one side has are folded under one line, not mixed into the table.
    expect(
      within(table)
        .queryAllByTestId('diff-row')
        .filter((r) => r.dataset.verdict === 'only A'),
    ).toHaveLength(0);
    const folded = screen.getByTestId('diff-only');
    expect(folded.tagName).toBe('DETAILS');
    expect(folded.hasAttribute('open')).toBe(false);
    expect(folded.querySelector('summary')!.textContent).toBe('1 row only in A, 0 only in B');
    expect(
      within(folded)
        .getAllByTestId('diff-only-row')
        .map((r) => r.textContent),
    ).toEqual(['only A: wasmer-singlepass × matmul-simd (execute)']);
  });

  it('sorts by any column and finds rows by runtime, test or phase; undecided rows on their own', async () => {
    mockIPC(() => diffReport);
    render(<DiffScreen runs={runs} a="x" b="y" defaultThresholdPct={2} onPick={noop} onExport={noop} />);
    const table = await screen.findByTestId('diff-table');
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'all' } });
    const ratios = () =>
      within(table)
        .getAllByTestId('diff-row')
        .map((r) => Number.parseFloat(r.querySelector('[data-testid="diff-ratio"]')!.textContent!));
    const header = (k: string) => screen.getByTestId(`sort-${k}`).closest('th')!;
    expect(header('ratio').getAttribute('aria-sort')).toBe('none');
    fireEvent.click(screen.getByTestId('sort-ratio'));
    expect(header('ratio').getAttribute('aria-sort')).toBe('ascending');
    const up = ratios();
    expect(up).toHaveLength(22);
    expect(up).toEqual([...up].sort((x, y) => x - y));
    fireEvent.click(screen.getByTestId('sort-ratio'));
    expect(header('ratio').getAttribute('aria-sort')).toBe('descending');
    expect(ratios()).toEqual([...up].reverse());
    // Verdict order: slower first.
    fireEvent.click(screen.getByTestId('sort-verdict'));
    expect(within(table).getAllByTestId('diff-row')[0]!.dataset.verdict).toBe('slower');
    // Every column sorts.
    for (const k of ['runtime', 'test', 'phase', 'a', 'b', 'ci', 'noise']) {
      fireEvent.click(screen.getByTestId(`sort-${k}`));
      expect(header(k).getAttribute('aria-sort')).toBe('ascending');
      expect(within(table).getAllByTestId('diff-row')).toHaveLength(22);
    }
    fireEvent.input(screen.getByTestId('diff-query'), { target: { value: 'wasmtime crc' } });
    const found = within(table).getAllByTestId('diff-row');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => r.dataset.runtime === 'wasmtime' && r.dataset.test!.includes('crc'))).toBe(true);
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'undecided' } });
    expect(within(table).queryAllByTestId('diff-row')).toHaveLength(0);
    expect(screen.getByTestId('diff-empty').textContent).toBe('No rows match.');
  });

  it('offers every row when no row changed', async () => {
    const calm = structuredClone(diffReport);
    for (const r of calm.diff!.rows) if (r.verdict === 'faster' || r.verdict === 'slower') r.verdict = 'no change';
    mockIPC(() => calm);
    render(<DiffScreen runs={runs} a="x" b="y" defaultThresholdPct={2} onPick={noop} onExport={noop} />);
    const empty = await screen.findByTestId('diff-empty');
    expect(empty.textContent).toBe('No row changed beyond ±2 %. Show all 22 rows');
    fireEvent.click(screen.getByTestId('diff-show-all'));
    expect(within(screen.getByTestId('diff-table')).getAllByTestId('diff-row')).toHaveLength(22);
  });

  it('does not call undecided rows unchanged when none changed', async () => {
    const busy = structuredClone(diffReport);
    for (const r of busy.diff!.rows) if (r.verdict !== 'no change') r.verdict = 'insufficient data';
    mockIPC(() => busy);
    render(<DiffScreen runs={runs} a="x" b="y" defaultThresholdPct={2} onPick={noop} onExport={noop} />);
    const empty = await screen.findByTestId('diff-empty');
    expect(empty.textContent).toBe('No row shows a change beyond ±2 %: 2 could not be decided. Show all 22 rows');
  });

  it('diffRows and verdictCounts', () => {
    const d = diffReport.diff!;
    const all = diffRows(d, new Set(['compile', 'instantiate', 'execute', 'teardown', 'total']));
    expect(all).toHaveLength(43);
    expect(verdictCounts(all)).toEqual({
      faster: 3,
      slower: 4,
      'faster, not held': 0,
      'slower, not held': 0,
      'no change': 36,
      undecided: 0,
      'insufficient data': 0,
      'not comparable': 0,
      'only A': 0,
      'only B': 0,
    });
  });

  it('shows noise, notes and no ratio where a row has none; says how rows were compared', async () => {
    const r = structuredClone(diffReport);
    const d = r.diff!;
    const find = (rt: string, t: string, ph: string) => d.rows.find((x) => x.runtime === rt && x.test === t && x.phase === ph)!;
    // Timed by the guest in A, by the harness in B: no ratio at all.
    Object.assign(find('wasmtime', 'nbody', 'execute'), {
      ratio: null,
      ci_low: null,
      ci_high: null,
      halfwidth_pct: null,
      p_adjusted: null,
      verdict: 'not comparable',
      note: 'not comparable: timing sources differ (self vs wall)',
    });
    // One invocation in B: a ratio, but no interval and no verdict.
    Object.assign(find('wasmtime', 'sha256', 'execute'), {
      ci_low: null,
      ci_high: null,
      halfwidth_pct: null,
      p_adjusted: null,
      verdict: 'insufficient data',
      note: '1 invocation(s) in B, 2 needed (--invocations)',
      n: [3, 3],
      invocations: [3, 1],
    });
    const calls: unknown[] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      const out = structuredClone(r);
      if ((p as { normalize?: string }).normalize === 'native') {
        out.diff!.normalize = 'native';
        out.diff!.method = out.diff!.method.replace('not normalised', "each side relative to its own run's native");
      }
      return out;
    });
    render(
      <DiffScreen
        runs={runs}
        a="20261122-035229-compute-a3d7"
        b="20261122-035234-compute-4bb8"
        defaultThresholdPct={2}
        onPick={noop}
        onExport={noop}
      />,
    );
    const table = await screen.findByTestId('diff-table');
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'all' } });
    const row = (rt: string, t: string) =>
      within(table)
        .getAllByTestId('diff-row')
        .find((x) => x.dataset.runtime === rt && x.dataset.test === t && x.dataset.phase === 'execute')!;

    const nc = row('wasmtime', 'nbody');
    expect(nc.dataset.verdict).toBe('not comparable');
    expect(within(nc).getByTestId('diff-ratio').textContent).toBe('-');
    expect(within(nc).getByTestId('diff-ci').textContent).toBe('-');
    expect(within(nc).getByTestId('diff-noise').textContent).toBe('-');
    expect(within(nc).getByTestId('diff-note').textContent).toBe('not comparable: timing sources differ (self vs wall)');
    expect(nc.querySelector('.verdict')!.className).toContain('verdict-not-comparable');

    const few = row('wasmtime', 'sha256');
    expect(few.dataset.verdict).toBe('insufficient data');
    expect(within(few).getByTestId('diff-ratio').textContent).toBe('1.007×');
    expect(within(few).getByTestId('diff-ci').textContent).toBe('-');
    expect(within(few).getByTestId('diff-note').textContent).toBe('1 invocation(s) in B, 2 needed (--invocations)');
    expect(few.title).toContain('invocations: 3 in A, 1 in B');

    // A row with an interval shows its half-width: (1.003 − 0.962) / 2 of 0.996.
    const native = row('native', 'crc32');
    expect(within(native).getByTestId('diff-noise').textContent).toBe('±2.0 %');
    expect(within(native).queryByTestId('diff-note')).toBeNull();

    expect(screen.getByTestId('count-insufficient').textContent).toBe('1 insufficient data');
    expect(screen.getByTestId('count-not-comparable').textContent).toBe('1 not comparable');
    expect(screen.getByTestId('count-unchanged').textContent).toBe('18 unchanged');
    expect(screen.getByTestId('diff-normalized').textContent).toBe('not normalised');
    expect(screen.getByTestId('diff-method').textContent).toBe(
      'B/A of geometric means over invocations, 95 % Student-t interval over invocations (Welch); a change only when the whole interval lies beyond ±2 % and it holds at a false discovery rate of 5 % over the 43 rows (Benjamini–Hochberg); not normalised',
    );

    // Normalise to native: sent to diff_runs, and the page says which was used.
    const select = screen.getByTestId('diff-normalize') as HTMLSelectElement;
    expect(select.value).toBe('none');
    expect([...select.options].map((o) => o.value)).toEqual(['none', 'native', 'wasmtime', 'wasmer-singlepass']);
    fireEvent.change(select, { target: { value: 'native' } });
    await waitFor(() => expect(screen.getByTestId('diff-normalized').textContent).toBe("each side relative to its own run's native"));
    expect(calls.at(-1)).toEqual([
      'diff_runs',
      { a: '20261122-035229-compute-a3d7', b: '20261122-035234-compute-4bb8', normalize: 'native' },
    ]);
    expect(screen.getByTestId('diff-method').textContent).toContain("each side relative to its own run's native");
  });
});

describe('Setup defaults', () => {
  it('selects native and the embedded engines, not what core leaves out of defaults', () => {
    const all = runtimesFixture as unknown as RuntimeView[];
    const picked = defaultRuntimes(all, 'compute');
    expect(picked.has('native')).toBe(true);
    expect(picked.has('wasmtime')).toBe(true);
    expect(all.some((r) => r.id === 'native-dlopen' && r.unavailable === null)).toBe(true);
    expect(picked.has('native-dlopen')).toBe(false);
  });
});
