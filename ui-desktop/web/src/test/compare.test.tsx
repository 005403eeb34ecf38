/**
 * Many runs side by side: picking them in the runs list, and the compare screen drawing
 * core's comparison (fixtures/compare.json: three compute runs, the third on another
 * machine without wasmer-singlepass, matmul-simd failing on singlepass).
 */
import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Comparison, RunListItem, RunMeta } from '../api';
import { App } from '../app';
import { ErrorBanner } from '../components/ErrorBanner';
import { CompareScreen, compareRows, formatCompareInterval, formatCompareValue, normalizeOptions } from '../screens/Compare';
import { oldestFirst, Runs } from '../screens/Runs';
import compareFixture from './fixtures/compare.json';
import policyFixture from './fixtures/policy.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';

const comparison = compareFixture as Comparison;
const A = '20261122-035229-compute-a3d7';
const B = '20261122-035234-compute-4bb8';
const C = '20261123-091500-compute-7c1e';
const DEAD = '20261122-040000-compute-dead';

/** The fixture's runs plus a newer one on an arm64 machine without wasmer-singlepass. */
function allRuns(): RunListItem[] {
  const base = runsFixture as RunListItem[];
  const meta = base.find((r) => r.id === A)!.meta!;
  const third: RunMeta = {
    ...meta,
    id: C,
    label: 'arm',
    started_unix: meta.started_unix + 86_400,
    runtimes: meta.runtimes.filter((r) => r.id !== 'wasmer-singlepass'),
    machine: { ...meta.machine, cpu_model: 'Neoverse-N1', arch: 'aarch64', fingerprint: 'a81f03c2d94e7b60' },
  };
  return [{ id: C, meta: third, error: null }, ...base];
}

const noop = () => {};
const row = (id: string) => screen.getAllByTestId('run-row').find((r) => r.dataset.runId === id)!;
const compareButton = () => screen.getByTestId('runs-compare') as HTMLButtonElement;

describe('Runs screen: picking runs to compare', () => {
  it('enables Compare at two or more healthy runs and sends them oldest first', () => {
    const onCompare = vi.fn();
    const onDiff = vi.fn();
    render(
      <Runs
        runs={allRuns()}
        onRefresh={noop}
        onOpen={noop}
        onDiff={onDiff}
        onCompare={onCompare}
        onDelete={async () => {}}
        onExport={noop}
      />,
    );
    expect(compareButton().disabled).toBe(true);
    expect(compareButton().textContent).toBe('Compare');
    fireEvent.click(row(C));
    expect(compareButton().disabled).toBe(true);
    fireEvent.click(row(A));
    expect(compareButton().disabled).toBe(false);
    expect(compareButton().textContent).toBe('Compare (2)');
    // Two runs still diff, as before.
    expect((screen.getByTestId('runs-diff') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(row(B));
    expect(compareButton().textContent).toBe('Compare (3)');
    expect((screen.getByTestId('runs-diff') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(compareButton());
    expect(onCompare).toHaveBeenCalledWith([A, B, C]);
    expect(onDiff).not.toHaveBeenCalled();
    // A broken run among them: nothing to compare it by.
    fireEvent.click(row(DEAD));
    expect(compareButton().textContent).toBe('Compare (4)');
    expect(compareButton().disabled).toBe(true);
    // Checkboxes select as the rows do.
    fireEvent.click(within(row(DEAD)).getByRole('checkbox'));
    expect(compareButton().disabled).toBe(false);
  });

  it('orders by start time, unknown times last in the order given', () => {
    const runs = allRuns();
    expect(oldestFirst(runs, [C, B, A])).toEqual([A, B, C]);
    expect(oldestFirst(runs, [DEAD, C, A])).toEqual([A, C, DEAD]);
  });
});

type Call = { cmd: string; payload: Record<string, unknown> };

/** compare_runs answered by `answer`; the calls made. */
function backend(answer: (p: Record<string, unknown>) => unknown = () => comparison): Call[] {
  const calls: Call[] = [];
  mockIPC((cmd, payload) => {
    const p = (payload ?? {}) as Record<string, unknown>;
    calls.push({ cmd, payload: p });
    if (cmd !== 'compare_runs') throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
    return answer(p);
  });
  return calls;
}

const cell = (rt: string, test: string, run: string) => {
  const r = screen.getAllByTestId('compare-row').find((x) => x.dataset.runtime === rt && x.dataset.test === test)!;
  return within(r)
    .getAllByTestId('compare-cell')
    .find((c) => c.dataset.run === run)!;
};

describe('Compare screen', () => {
  it('draws core’s comparison: a column per run, each figure with its interval, geomeans and warnings', async () => {
    const calls = backend();
    render(<CompareScreen runs={allRuns()} ids={[A, B, C]} onPickRuns={noop} defaultNormalize={policyFixture.compare_normalize} />);
    const table = await screen.findByTestId('compare-table');
    // Nothing picked yet: core decides the reference and the columns.
    expect(calls).toEqual([{ cmd: 'compare_runs', payload: { runs: [A, B, C] } }]);
    expect(screen.getAllByTestId('compare-column').map((c) => c.textContent)).toEqual([A, B, C]);
    // Headers say each run's label, date and machine; tooltips say more.
    const about = screen.getAllByTestId('compare-column-about').map((c) => c.textContent);
    expect(about).toHaveLength(3);
    expect(about[2]).toMatch(/^(.+ · )?\d{4}-\d{2}-\d{2} \d{2}:\d{2}.* · .*Neoverse-N1, \d+ cores$/);
    expect(screen.getAllByTestId('compare-column')[2]!.closest('th')!.title).toContain('Neoverse-N1 aarch64');
    // Test-major rows, runtimes within.
    expect(screen.getAllByTestId('compare-row').map((r) => `${r.dataset.test}/${r.dataset.runtime}`)).toEqual([
      'sha256/native',
      'sha256/wasmtime',
      'sha256/wasmer-singlepass',
      'crc32/native',
      'crc32/wasmtime',
      'crc32/wasmer-singlepass',
      'matmul-simd/native',
      'matmul-simd/wasmtime',
      'matmul-simd/wasmer-singlepass',
    ]);
    const text = (c: HTMLElement, id: string) => within(c).getByTestId(id).textContent;
    expect(text(cell('wasmtime', 'sha256', A), 'compare-value')).toBe('1.15×');
    expect(text(cell('wasmtime', 'sha256', A), 'compare-ci')).toBe('1.13–1.17×');
    expect(text(cell('wasmtime', 'sha256', C), 'compare-value')).toBe('1.29×');
    expect(text(cell('wasmtime', 'crc32', C), 'compare-value')).toBe('0.96×');
    expect(cell('wasmtime', 'crc32', C).dataset.tone).toBe('faster');
    expect(cell('wasmtime', 'sha256', C).dataset.tone).toBe('slower');
    expect(text(cell('native', 'crc32', B), 'compare-value')).toBe('1.00×');
    // Missing figures say why.
    const failed = cell('wasmer-singlepass', 'matmul-simd', A);
    expect(failed.textContent).toContain('Compilation error');
    expect(failed.title).toContain('not yet implemented: V128Const');
    expect(cell('wasmer-singlepass', 'sha256', C).textContent).toBe('–not in this run');
    // The footer: each run's geomean per runtime.
    const geo = (rt: string) =>
      within(screen.getAllByTestId('compare-geomean').find((r) => r.dataset.runtime === rt)!)
        .getAllByTestId('compare-geomean-cell')
        .map((c) => c.textContent);
    expect(geo('native')).toEqual(['1.00×', '1.00×', '1.00×']);
    expect(geo('wasmtime')).toEqual(['1.10×', '1.10×', '1.21×']);
    expect(geo('wasmer-singlepass')).toEqual(['1.41×', '1.41×', '-']);
    // Core's warnings come before the table.
    const warnings = screen.getByTestId('compare-warnings');
    expect(
      within(warnings)
        .getAllByRole('listitem')
        .map((l) => l.textContent),
    ).toEqual(comparison.warnings);
    expect(warnings.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('compare-unit').textContent).toBe(
      'Suite compute: relative to native of the same run, each with its 95 % interval.',
    );
  });

  it('asks again by machine and with another reference, offering the runs’ runtimes', async () => {
    const calls = backend((p) =>
      p.by_machine
        ? {
            ...comparison,
            columns: comparison.columns.map((c, i) => ({
              ...c,
              title:
                i < 2
                  ? `AMD EPYC x86_64 (Debian GNU/Linux 12 (bookworm)) ${c.run}`
                  : 'Neoverse-N1 aarch64 (Debian GNU/Linux 12 (bookworm))',
            })),
          }
        : comparison,
    );
    render(<CompareScreen runs={allRuns()} ids={[A, B, C]} onPickRuns={noop} defaultNormalize={policyFixture.compare_normalize} />);
    await screen.findByTestId('compare-table');
    const normalize = screen.getByTestId('compare-normalize') as HTMLSelectElement;
    expect([...normalize.options].map((o) => o.value)).toEqual(['native', 'wasmtime', 'wasmer-singlepass', 'none']);
    expect([...normalize.options].map((o) => o.textContent)).toContain('none (times as measured)');
    fireEvent.change(screen.getByTestId('compare-by'), { target: { value: 'machine' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('compare-column')[2]!.textContent).toBe('Neoverse-N1 aarch64 (Debian GNU/Linux 12 (bookworm))'),
    );
    expect(screen.getAllByTestId('compare-column')[0]!.textContent).toBe(`AMD EPYC x86_64 (Debian GNU/Linux 12 (bookworm)) ${A}`);
    fireEvent.change(normalize, { target: { value: 'wasmtime' } });
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((c) => c.payload)).toEqual([
      { runs: [A, B, C] },
      { runs: [A, B, C], by_machine: true },
      { runs: [A, B, C], normalize: 'wasmtime', by_machine: true },
    ]);
  });

  it('shows times as measured without geomeans when not normalised', async () => {
    const times: Comparison = {
      ...comparison,
      unit: 'typical time (geometric mean over invocations; the median where there is one invocation)',
      geomeans: [],
      cells: comparison.cells.map((c) =>
        c.value === null ? c : { ...c, value: c.value * 1.5e6, low: c.low! * 1.5e6, high: c.high! * 1.5e6 },
      ),
    };
    backend(() => times);
    render(<CompareScreen runs={allRuns()} ids={[A, B, C]} onPickRuns={noop} defaultNormalize={policyFixture.compare_normalize} />);
    await screen.findByTestId('compare-table');
    const c = cell('native', 'sha256', A);
    expect(within(c).getByTestId('compare-value').textContent).toBe('1.50 ms');
    expect(within(c).getByTestId('compare-ci').textContent).toBe('1.50 ms–1.50 ms');
    expect(c.dataset.tone).toBeUndefined();
    expect(screen.queryAllByTestId('compare-geomean')).toHaveLength(0);
  });

  it('shows core’s one line when runs of different suites are picked', async () => {
    const message = `runs of different suites cannot be compared: ${A} is 'compute', 20261122-044254-lifecycle-b4e0 is 'lifecycle'`;
    backend(() => {
      throw { code: 'invalid_input', message };
    });
    render(
      <>
        <ErrorBanner />
        <CompareScreen
          runs={allRuns()}
          ids={[A, '20261122-044254-lifecycle-b4e0']}
          onPickRuns={noop}
          defaultNormalize={policyFixture.compare_normalize}
        />
      </>,
    );
    expect((await screen.findByTestId('compare-error')).textContent).toBe(message);
    expect((await screen.findByTestId('error-banner')).textContent).toContain(message);
    expect(screen.queryByTestId('compare-table')).toBeNull();
  });

  it('asks for runs when fewer than two are given, without calling the backend', () => {
    const calls = backend();
    render(<CompareScreen runs={allRuns()} ids={[A]} onPickRuns={noop} defaultNormalize={policyFixture.compare_normalize} />);
    expect(screen.getByText('Select two or more runs in Saved runs to compare them.')).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('Compare helpers', () => {
  it('formats figures with the page’s helpers: ratios relative, times otherwise', () => {
    const c = comparison.cells.find((x) => x.runtime === 'wasmtime' && x.test === 'crc32' && x.column === 0)!;
    expect(formatCompareValue(c.value, true)).toBe('1.06×');
    expect(formatCompareInterval(c, true)).toBe('1.03–1.08×');
    expect(formatCompareValue(2_500_000, false)).toBe('2.50 ms');
    expect(formatCompareInterval({ ...c, low: 2.4e6, high: 2.6e6 }, false)).toBe('2.40 ms–2.60 ms');
    expect(formatCompareInterval({ ...c, low: null, high: null }, false)).toBe('-');
  });

  it('takes cells by position and leaves a misplaced one out', () => {
    const rows = compareRows(comparison);
    expect(rows).toHaveLength(9);
    expect(rows[4]!.cells.map((x) => x?.value)).toEqual([1.064013655632146, 1.0702, 0.9634]);
    const shifted = { ...comparison, cells: comparison.cells.slice(1) };
    expect(compareRows(shifted)[0]!.cells).toEqual([null, null, null]);
  });

  it('offers native, the runs’ runtimes and none, and keeps the one chosen', () => {
    expect(normalizeOptions(allRuns(), [C, A], 'native', 'native')).toEqual(['native', 'wasmtime', 'wasmer-singlepass', 'none']);
    expect(normalizeOptions(allRuns(), [C], 'wasm3', 'native')).toEqual(['native', 'wasmtime', 'wasm3', 'none']);
  });
});

describe('App: runs list to comparison', () => {
  it('opens the compare screen with the runs selected, and exports the comparison', async () => {
    const runs = allRuns();
    const calls: Call[] = [];
    mockIPC((cmd, payload) => {
      calls.push({ cmd, payload: (payload ?? {}) as Record<string, unknown> });
      const answers: Record<string, unknown> = {
        list_runtimes: runtimesFixture,
        list_suites: suitesFixture,
        run_policy: policyFixture,
        list_runs: runs,
        compare_runs: comparison,
        export_report: '/tmp/compute-3-runs-compared.md',
      };
      if (!(cmd in answers)) throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
      return answers[cmd];
    });
    render(<App />);
    fireEvent.click(screen.getByTestId('nav-runs'));
    await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(4));
    for (const id of [B, C, A]) fireEvent.click(row(id));
    fireEvent.click(compareButton());
    await screen.findByTestId('compare-table');
    expect(screen.getByTestId('nav-compare').getAttribute('aria-current')).toBe('page');
    expect(calls.filter((c) => c.cmd === 'compare_runs').map((c) => c.payload)).toEqual([{ runs: [A, B, C] }]);
    // Export what the screen shows.
    fireEvent.change(screen.getByTestId('compare-by'), { target: { value: 'machine' } });
    await waitFor(() => expect(calls.filter((c) => c.cmd === 'compare_runs')).toHaveLength(2));
    await screen.findByTestId('compare-table');
    fireEvent.click(screen.getByTestId('compare-export'));
    const dialog = screen.getByTestId('export-dialog');
    expect(dialog.textContent).toContain('Export the comparison of 3 runs');
    expect(within(dialog).getByTestId('export-compare').textContent).toContain("each relative to its own run's native, columns by machine");
    fireEvent.click(screen.getByTestId('format-md'));
    fireEvent.click(screen.getByTestId('export-save'));
    await waitFor(() => expect(screen.getByTestId('export-result').textContent).toBe('Saved to /tmp/compute-3-runs-compared.md'));
    expect(calls.find((c) => c.cmd === 'export_report')!.payload).toEqual({
      runs: [A, B, C],
      format: 'md',
      compare: { normalize: 'native', by_machine: true },
    });
  });
});
