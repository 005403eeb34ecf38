import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Report, RunListItem } from '../api';
import { Detail } from '../screens/Detail';
import { DiffScreen, diffRows, verdictCounts } from '../screens/Diff';
import { Runs, olderFirst } from '../screens/Runs';
import diffFixture from './fixtures/diff.json';
import runFixture from './fixtures/run.json';
import runsFixture from './fixtures/runs.json';

const runs = runsFixture as RunListItem[];
const report = runFixture as unknown as Report;
const diffReport = diffFixture as unknown as Report;

const noop = () => {};

describe('Runs screen', () => {
  it('lists a broken run with its error, visibly', () => {
    render(<Runs runs={runs} onRefresh={noop} onOpen={noop} onDiff={noop} onDelete={async () => {}} onExport={noop} />);
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
    render(<Runs runs={runs} onRefresh={noop} onOpen={onOpen} onDiff={onDiff} onDelete={async () => {}} onExport={noop} />);
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

  it('deletes only after confirmation', async () => {
    const onDelete = vi.fn(async () => {});
    render(<Runs runs={runs} onRefresh={noop} onOpen={noop} onDiff={noop} onDelete={onDelete} onExport={noop} />);
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

describe('Detail screen', () => {
  it('renders the matrix from run.json with ratios, colours and failures', async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, p) => {
      calls.push([cmd, p]);
      return report;
    });
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    const matrix = await screen.findByTestId('detail-matrix');
    expect(calls).toEqual([['load_run', { id: '20261122-035229-compute-a3d7' }]]);
    const cell = (rt: string, t: string) =>
      within(matrix)
        .getAllByTestId('matrix-cell')
        .find((c) => c.dataset.runtime === rt && c.dataset.test === t)!;

    const ws = cell('wasmtime', 'sha256');
    expect(ws.querySelector('.ratio')!.textContent).toBe('1.15×');
    expect(ws.querySelector('.median')!.textContent).toBe('97.8 ms');
    expect(ws.dataset.tone).toBe('slower');
    expect(ws.title).toContain('median 97.8 ms (n=3, self time)');
    expect(ws.title).toContain('1.15× native (95 % CI 1.13–1.17×)');

    const nb = cell('wasmer-singlepass', 'nbody');
    expect(nb.querySelector('.ratio')!.textContent).toBe('6.73×');
    // Log-scale colour: 6.73× is a stronger red than 1.15×.
    const alpha = (el: HTMLElement) => Number(el.style.background.match(/([\d.]+)\)$/)![1]);
    expect(alpha(nb)).toBeGreaterThan(alpha(ws));

    const base = cell('native', 'sha256');
    expect(base.querySelector('.ratio')!.textContent).toBe('1.00×');
    expect(base.dataset.tone).toBe('same');

    const failed = cell('wasmer-singlepass', 'matmul-simd');
    expect(failed.dataset.tone).toBe('failed');
    expect(failed.textContent).toContain('Compilation error: not yet implemented');

    const geo = screen.getAllByTestId('geomean-cell').find((c) => c.dataset.runtime === 'wasmer-singlepass')!;
    expect(geo.textContent).toContain('2.37×');
    expect(geo.textContent).toContain('1 failed');

    expect(screen.getByTestId('detail-header').textContent).toContain('AMD EPYC, 2 cores');
    expect(screen.getAllByTestId('strip-plot')).toHaveLength(4);
    expect(screen.getByTestId('phases-table').textContent).toContain('14.5 ms');
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
        onPick={noop}
        onExport={noop}
      />,
    );
    const table = await screen.findByTestId('diff-table');
    expect(calls).toEqual([
      ['diff_runs', { a: '20261122-035229-compute-a3d7', b: '20261122-035234-compute-4bb8', thresholdPct: 2 }],
    ]);
    const rows = within(table).getAllByTestId('diff-row');
    // 11 execute + 11 total rows in the fixture.
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
    const slower = rows.filter((r) => r.dataset.verdict === 'slower');
    expect(slower).toHaveLength(2);
    expect(slower[0]!.querySelector('.verdict')!.className).toContain('verdict-slower');
    expect(screen.getByTestId('diff-warnings').dataset.count).toBe('0');

    // Add the compile phase: 2 slower compile rows appear.
    fireEvent.click(screen.getByTestId('phase-compile'));
    await waitFor(() => expect(within(table).getAllByTestId('diff-row')).toHaveLength(29));
    expect(screen.getByTestId('count-slower').textContent).toBe('4 slower');
    fireEvent.click(screen.getByTestId('phase-instantiate'));
    await waitFor(() => expect(screen.getByTestId('count-faster').textContent).toBe('2 faster'));
  });

  it('puts comparability warnings above the table, and lists rows only one side has', async () => {
    const withWarnings = structuredClone(diffReport);
    withWarnings.diff!.warnings = ['machines differ: 5cfc1b07a2abd8e5 vs 0123456789abcdef', 'wasmtime version differs: 48.0.0 vs 49.0.0'];
    withWarnings.diff!.only_a = [{ runtime: 'wasmer-singlepass', test: 'matmul-simd', phase: 'execute' }];
    mockIPC(() => withWarnings);
    render(<DiffScreen runs={runs} a="x" b="y" onPick={noop} onExport={noop} />);
    const warn = await screen.findByTestId('diff-warnings');
    expect(warn.dataset.count).toBe('2');
    expect(warn.getAttribute('role')).toBe('alert');
    expect(warn.textContent).toContain('machines differ');
    expect(warn.textContent).toContain('wasmtime version differs: 48.0.0 vs 49.0.0');
    // Warnings come before the table in the document.
    const table = screen.getByTestId('diff-table');
    expect(warn.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const only = within(table)
      .getAllByTestId('diff-row')
      .filter((r) => r.dataset.verdict === 'only A');
    expect(only).toHaveLength(1);
    expect(only[0]!.textContent).toContain('matmul-simd');
  });

  it('diffRows and verdictCounts', () => {
    const d = diffReport.diff!;
    const all = diffRows(d, new Set(['compile', 'instantiate', 'execute', 'teardown', 'total']));
    expect(all).toHaveLength(43);
    expect(verdictCounts(all)).toEqual({ faster: 3, slower: 4, 'no change': 36, 'only A': 0, 'only B': 0 });
  });
});
