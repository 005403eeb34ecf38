/**
 * A cell's history: the history screen drawing core's answer (fixtures/history.json, written
 * by ui-desktop/tests/all/history.rs from 30 synthetic runs on each of two machines, t001 on
 * rt001 stepping +20 % from run 15 on machine A only), its choices and empty answer, a
 * 10,000-run history drawn as one path, and the way there from a run's matrix.
 */
import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { History, HistorySeries, Report, RunListItem } from '../api';
import { App } from '../app';
import { HistoryChart, MAX_DOTS, nearest } from '../charts/History';
import { Detail } from '../screens/Detail';
import { HistoryScreen, historyChoices } from '../screens/History';
import historyFixture from './fixtures/history.json';
import policyFixture from './fixtures/policy.json';
import runFixture from './fixtures/run.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';

const fixture = historyFixture as History;
const runs = runsFixture as RunListItem[];
const A = 'fp-a0123';
const B = 'fp-b4567';
const CELL = { suite: 'scale', test: 't001', runtime: 'rt001' };

type Call = { cmd: string; payload: Record<string, unknown> };

/** `history` answered by `answer` (default: the fixture, its series on the machine asked for). */
function backend(answer?: (p: Record<string, unknown>) => unknown): Call[] {
  const calls: Call[] = [];
  mockIPC((cmd, payload) => {
    const p = (payload ?? {}) as Record<string, unknown>;
    calls.push({ cmd, payload: p });
    if (cmd !== 'history') throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
    if (answer) return answer(p);
    const m = p.machine as string | undefined;
    return { ...fixture, series: fixture.series.filter((s) => !m || s.machine.startsWith(m)) };
  });
  return calls;
}

const panel = (machine: string) => screen.getAllByTestId('history-series').find((p) => p.dataset.machine === machine)!;
/** The number of points a path's `d` draws: its M and L commands. */
const pathPoints = (d: string | null) => (d ?? '').match(/[ML]/g)?.length ?? 0;

describe('History screen', () => {
  it('draws a chart per machine with the change at run 15 marked, and a table of the runs', async () => {
    const calls = backend();
    render(<HistoryScreen runs={runs} request={{ ...CELL, nonce: 1 }} />);
    await screen.findAllByTestId('history-series');
    expect(calls).toEqual([{ cmd: 'history', payload: CELL }]);
    // One chart each, titled by machine.
    expect(screen.getAllByTestId('history-series-title').map((t) => t.textContent)).toEqual([
      'CPU A x86_64 (Debian GNU/Linux 13)',
      'Imaginary ARM Neoverse aarch64 (Debian GNU/Linux 13)',
    ]);
    const a = panel(A);
    // The line: one path through the 30 runs, dots with their tooltips (a short series).
    const line = within(a).getByTestId('history-line');
    expect(line.dataset.points).toBe('30');
    expect(pathPoints(line.getAttribute('d'))).toBe(30);
    expect(pathPoints(within(a).getByTestId('history-band').getAttribute('d'))).toBe(60);
    const dots = within(a).getAllByTestId('history-dot');
    expect(dots).toHaveLength(30);
    const p15 = fixture.series[0]!.points[15]!;
    expect(dots[15]!.textContent).toContain(p15.run);
    expect(dots[15]!.textContent).toContain('4.81 ms (95 % 4.66 ms–4.97 ms)');
    expect(dots[15]!.textContent).toContain('rt001 1.0');
    // The change: a marker at run 15 labelled with core's change, its levels either side.
    const changes = within(a).getAllByTestId('history-change');
    expect(changes).toHaveLength(1);
    expect(changes[0]!.dataset.index).toBe('15');
    expect(within(changes[0]!).getByTestId('history-change-label').textContent).toBe('+19.8 %');
    const title = changes[0]!.querySelector('title')!.textContent!;
    expect(title).toContain(`change from ${p15.run} (`);
    expect(title).toContain('): 4.00 ms → 4.79 ms (+19.8 %, p = 0.005)');
    expect(within(a).getAllByTestId('history-level')).toHaveLength(2);
    expect(within(a).getByTestId('history-notes').textContent).toContain('4.00 ms → 4.79 ms (+19.8 %, p = 0.005)');
    // The table: the last 20 runs, newest first, then all of them; run 15 marked.
    expect(within(a).getAllByTestId('history-row')).toHaveLength(20);
    fireEvent.click(within(a).getByTestId('history-all'));
    const rows = within(a).getAllByTestId('history-row');
    expect(rows).toHaveLength(30);
    expect(rows[0]!.dataset.index).toBe('29');
    const marked = rows.filter((r) => r.dataset.change === 'true');
    expect(marked.map((r) => r.dataset.index)).toEqual(['15']);
    expect(within(marked[0]!).getByTestId('history-row-change').textContent).toBe('+19.8 %');
    expect(marked[0]!.textContent).toContain(p15.run);
    // Machine B: flat, no marker, and says so.
    const b = panel(B);
    expect(within(b).queryAllByTestId('history-change')).toHaveLength(0);
    expect(within(b).queryAllByTestId('history-level')).toHaveLength(0);
    expect(within(b).getByTestId('history-notes').textContent).toBe('no change points');
    expect(
      within(b)
        .getAllByTestId('history-row')
        .filter((r) => r.dataset.change),
    ).toHaveLength(0);
  });

  it('reads out the run under the pointer and under the arrow keys', async () => {
    backend();
    render(<HistoryScreen runs={runs} request={{ ...CELL, nonce: 1 }} />);
    await screen.findAllByTestId('history-series');
    const a = panel(A);
    const chart = within(a).getByTestId('history-chart');
    const readout = within(a).getByTestId('history-readout');
    const pts = fixture.series[0]!.points;
    // jsdom lays nothing out: client x is the view box's x (64 the first run, 744 the last).
    fireEvent.mouseMove(chart, { clientX: 744, clientY: 100 });
    expect(within(a).getByTestId('history-hover').dataset.index).toBe('29');
    expect(readout.textContent).toContain(pts[29]!.run);
    expect(readout.textContent).toContain('4.80 ms (95 % 4.68 ms–4.93 ms) · rt001 1.0');
    fireEvent.mouseMove(chart, { clientX: 64 + (680 * 15) / 29 - 3, clientY: 100 });
    expect(within(a).getByTestId('history-hover').dataset.index).toBe('15');
    expect(readout.textContent).toContain('change +19.8 %');
    fireEvent.mouseLeave(chart);
    expect(within(a).queryByTestId('history-hover')).toBeNull();
    fireEvent.keyDown(chart, { key: 'ArrowRight' });
    expect(within(a).getByTestId('history-hover').dataset.index).toBe('0');
    fireEvent.keyDown(chart, { key: 'End' });
    expect(within(a).getByTestId('history-hover').dataset.index).toBe('29');
    fireEvent.keyDown(chart, { key: 'ArrowLeft' });
    expect(readout.textContent).toContain(pts[28]!.run);
  });

  it('offers the runs list’s suites, tests, runtimes and machines and asks again on a change', async () => {
    const calls = backend();
    const meta = runs.find((r) => r.meta)!.meta!;
    const choices = historyChoices(runs, meta.suite);
    expect(choices.suites).toContain('compute');
    expect(choices.tests).toEqual(expect.arrayContaining(['sha256', 'crc32']));
    expect(choices.runtimes).toEqual(expect.arrayContaining(['native', 'wasmtime']));
    expect(choices.machines[0]!.fingerprint).toBe(meta.machine.fingerprint);

    render(<HistoryScreen runs={runs} request={null} />);
    const suite = screen.getByTestId('history-suite') as HTMLSelectElement;
    await waitFor(() => expect(suite.value).toBe(choices.suites[0]));
    // Nothing is read before a test is picked.
    expect(screen.getByText('Pick a suite and a test to see its history.')).toBeTruthy();
    expect(calls).toEqual([]);
    fireEvent.change(suite, { target: { value: 'compute' } });
    fireEvent.change(screen.getByTestId('history-test'), { target: { value: 'crc32' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.payload).toEqual({ suite: 'compute', test: 'crc32' });
    const runtime = screen.getByTestId('history-runtime') as HTMLSelectElement;
    expect([...runtime.options].map((o) => o.value)).toEqual(['', ...choices.runtimes]);
    fireEvent.change(runtime, { target: { value: 'wasmtime' } });
    fireEvent.change(screen.getByTestId('history-machine'), { target: { value: meta.machine.fingerprint } });
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]!.payload).toEqual({ suite: 'compute', test: 'crc32', runtime: 'wasmtime', machine: meta.machine.fingerprint });
  });

  it('keeps machines apart: one machine asked for, one chart', async () => {
    const calls = backend();
    // Runs of the fixture's suite on its two machines, as the runs list would know them.
    const base = runs.find((r) => r.meta)!.meta!;
    const known: RunListItem[] = fixture.series.map((s, i) => ({
      id: s.points[0]!.run,
      error: null,
      meta: {
        ...base,
        id: s.points[0]!.run,
        suite: 'scale',
        tests: [{ ...base.tests[0]!, name: 't001' }],
        runtimes: [{ ...base.runtimes[0]!, id: 'rt001' }],
        machine: {
          ...base.machine,
          fingerprint: s.machine,
          cpu_model: i === 0 ? 'CPU A' : 'Imaginary ARM Neoverse',
          arch: i === 0 ? 'x86_64' : 'aarch64',
          os: 'Debian GNU/Linux 13',
        },
      },
    }));
    render(<HistoryScreen runs={known} request={{ ...CELL, nonce: 1 }} />);
    await screen.findAllByTestId('history-series');
    expect(screen.getAllByTestId('history-series')).toHaveLength(2);
    const machine = screen.getByTestId('history-machine') as HTMLSelectElement;
    expect([...machine.options].map((o) => o.textContent)).toEqual([
      'any (a chart each)',
      'CPU A x86_64 (Debian GNU/Linux 13) · fp-a0123',
      'Imaginary ARM Neoverse aarch64 (Debian GNU/Linux 13) · fp-b4567',
    ]);
    fireEvent.change(machine, { target: { value: B } });
    await waitFor(() => expect(screen.getAllByTestId('history-series')).toHaveLength(1));
    expect(calls[1]!.payload).toEqual({ ...CELL, machine: B });
    expect(screen.getByTestId('history-series-title').textContent).toBe('Imaginary ARM Neoverse aarch64 (Debian GNU/Linux 13)');
    expect(screen.queryAllByTestId('history-change')).toHaveLength(0);
  });

  it('says so when no run has the cell, and shows core’s error in one line', async () => {
    backend(() => ({ ...fixture, runs_read: 0, series: [], skipped: ['r9: unfinished (no compacted measurements)'] }));
    const { unmount } = render(<HistoryScreen runs={runs} request={{ ...CELL, nonce: 1 }} />);
    const empty = await screen.findByTestId('history-empty');
    expect(empty.textContent).toBe('No finished runs of this cell (scale · t001 · rt001).');
    expect(screen.queryByTestId('history-chart')).toBeNull();
    expect(screen.getByTestId('history-skipped').textContent).toContain('1 run left out');
    expect(screen.getByTestId('history-skipped').textContent).toContain('r9: unfinished');
    unmount();

    backend(() => {
      throw { code: 'io', message: 'results: Permission denied (os error 13)' };
    });
    render(<HistoryScreen runs={runs} request={{ ...CELL, nonce: 1 }} />);
    expect((await screen.findByTestId('history-error')).textContent).toBe('results: Permission denied (os error 13)');
  });
});

/** A history of `n` runs a day apart, stepping +10 % at n/2. */
function long(n: number): HistorySeries {
  const s = fixture.series[0]!;
  const points = Array.from({ length: n }, (_, i) => {
    const v = (i < n / 2 ? 1e6 : 1.1e6) * (1 + 0.01 * Math.sin(i));
    return { ...s.points[0]!, run: `run-${i}`, started_unix: 1.7e9 + i * 86_400, value: v, low: v * 0.98, high: v * 1.02, median: v };
  });
  return { ...s, points, changes: [{ index: n / 2, before: 1e6, after: 1.1e6, change_pct: 10, p_value: 0.005 }] };
}

describe('A long history', () => {
  it('draws 10,000 runs as one path, marks only the change and windows the table', async () => {
    const s = long(10_000);
    const t0 = performance.now();
    const { container } = render(<HistoryChart series={s} />);
    const line = screen.getByTestId('history-line');
    expect(pathPoints(line.getAttribute('d'))).toBe(10_000);
    expect(screen.queryAllByTestId('history-dot')).toHaveLength(0);
    expect(screen.getAllByTestId('history-change')).toHaveLength(1);
    expect(screen.getByTestId('history-change-label').textContent).toBe('+10.0 %');
    // A handful of elements whatever the length.
    expect(container.querySelectorAll('*').length).toBeLessThan(40);
    expect(performance.now() - t0).toBeLessThan(2000);
    // The pointer still finds a run among 10,000.
    expect(nearest(s.points, s.points[1234]!.started_unix + 1000)).toBe(1234);
    fireEvent.mouseMove(screen.getByTestId('history-chart'), { clientX: 744, clientY: 100 });
    expect(screen.getByTestId('history-readout').textContent).toContain('run-9999');

    backend(() => ({ ...fixture, series: [s] }));
    render(<HistoryScreen runs={runs} request={{ ...CELL, nonce: 1 }} />);
    await screen.findByTestId('history-table');
    expect(screen.getAllByTestId('history-row')).toHaveLength(20);
    expect(screen.getByTestId('history-all').textContent).toBe('Show all 10000 runs');
    fireEvent.click(screen.getByTestId('history-all'));
    // All of them: windowed, a screenful drawn.
    const rows = screen.getAllByTestId('history-row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(100);
    expect(rows[0]!.dataset.index).toBe('9999');
  });

  it('gives short series a dot per run, up to the limit', () => {
    render(<HistoryChart series={long(MAX_DOTS)} />);
    expect(screen.getAllByTestId('history-dot')).toHaveLength(MAX_DOTS);
  });
});

describe('The way to a history', () => {
  it('opens from the selected cell of a run’s matrix with its suite, test and runtime', async () => {
    mockIPC((cmd) => {
      if (cmd === 'load_run') return runFixture as unknown as Report;
      throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
    });
    const onHistory = vi.fn();
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={() => {}} onPickRun={() => {}} onHistory={onHistory} />);
    await screen.findByTestId('detail-matrix');
    const button = screen.getByTestId('detail-history') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const cell = screen.getAllByTestId('matrix-cell').find((c) => c.dataset.runtime === 'wasmtime' && c.dataset.test === 'crc32')!;
    fireEvent.click(cell);
    expect(cell.dataset.selected).toBe('true');
    expect(button.textContent).toBe('History of wasmtime · crc32');
    fireEvent.click(button);
    expect(onHistory).toHaveBeenCalledWith({ suite: 'compute', test: 'crc32', runtime: 'wasmtime' });
    // The keyboard picks too.
    const other = screen.getAllByTestId('matrix-cell').find((c) => c.dataset.runtime === 'native' && c.dataset.test === 'sha256')!;
    fireEvent.keyDown(other, { key: 'Enter' });
    expect(button.textContent).toBe('History of native · sha256');
    expect(cell.dataset.selected).toBeUndefined();
  });

  it('is a screen of the app, reached from the nav and from a run’s detail', async () => {
    const calls: Call[] = [];
    mockIPC((cmd, payload) => {
      calls.push({ cmd, payload: (payload ?? {}) as Record<string, unknown> });
      switch (cmd) {
        case 'list_runtimes':
          return runtimesFixture;
        case 'list_suites':
          return suitesFixture;
        case 'run_policy':
          return policyFixture;
        case 'list_runs':
          return runs;
        case 'load_run':
          return runFixture;
        case 'history':
          return fixture;
        default:
          throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
      }
    });
    render(<App />);
    fireEvent.click(screen.getByTestId('nav-history'));
    expect(screen.getByTestId('nav-history').getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('heading', { name: 'History' })).toBeTruthy();
    // From the detail: the run list's first run, its wasmtime × crc32 cell.
    fireEvent.click(screen.getByTestId('nav-runs'));
    const row = (await screen.findAllByTestId('run-row')).find((r) => r.dataset.runId === '20261122-035229-compute-a3d7')!;
    fireEvent.click(row);
    fireEvent.click(screen.getByTestId('runs-open'));
    const cell = (await screen.findAllByTestId('matrix-cell')).find((c) => c.dataset.runtime === 'wasmtime' && c.dataset.test === 'crc32')!;
    fireEvent.click(cell);
    fireEvent.click(screen.getByTestId('detail-history'));
    await waitFor(() => expect(calls.filter((c) => c.cmd === 'history')).toHaveLength(1));
    expect(calls.find((c) => c.cmd === 'history')!.payload).toEqual({ suite: 'compute', test: 'crc32', runtime: 'wasmtime' });
    expect(screen.getByTestId('nav-history').getAttribute('aria-current')).toBe('page');
    expect(await screen.findAllByTestId('history-chart')).toHaveLength(2);
  });
});
