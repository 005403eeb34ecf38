/**
 * The lifecycle suite on the page: data shaping (lifecycle.ts), the run detail of a real
 * lifecycle run (fixtures/lifecycle.json: run 20261122-044254-lifecycle-b4e0 exported as
 * JSON, cut to three runtimes), the setup, the diff's phase filter and the live matrix.
 */
import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Diff, Report, RunChoices, RunPolicy, RuntimeView, SuiteInfo } from '../api';
import { formatRate, formatSize } from '../format';
import { formatAxis, heapChartData, heapSeries, lifecycleTable, parseModule } from '../lifecycle';
import { Detail } from '../screens/Detail';
import { DiffScreen, defaultPhases, phaseOptions } from '../screens/Diff';
import { notApplicable, Setup } from '../screens/Setup';
import { shapeOf } from '../shape';
import lifecycleFixture from './fixtures/lifecycle.json';
import policyFixture from './fixtures/policy.json';
import runFixture from './fixtures/run.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';

const report = lifecycleFixture as unknown as Report;
const run = report.runs[0]!;
const summary = run.summary;
const computeRun = (runFixture as unknown as Report).runs[0]!;
const runtimes = runtimesFixture as unknown as RuntimeView[];
const policy = policyFixture as RunPolicy;
/** Core's reason (`applies_to`), as list_runtimes carries it. */
const NOT_LIFECYCLE = 'the lifecycle suite drives an engine in-process; native and CLI runtimes have none';
const suites = suitesFixture as SuiteInfo[];
const noop = () => {};

const KiB = 1024;
const MiB = 1024 * 1024;
const SIZES = [64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB];

describe('lifecycle data', () => {
  it('parses module names as the backend does', () => {
    expect(parseModule('hello')).toEqual({ kind: 'hello' });
    expect(parseModule('heap-64k-dense')).toEqual({ kind: 'heap', bytes: 65536, fill: 'dense' });
    expect(parseModule('heap-16m-sparse')).toEqual({ kind: 'heap', bytes: 16777216, fill: 'sparse' });
    expect(parseModule('heap-064k-dense')).toBeNull();
    expect(parseModule('heap-64g-dense')).toBeNull();
    expect(parseModule('heap-64k-full')).toBeNull();
    expect(parseModule('sha256')).toBeNull();
  });

  it('tells lifecycle runs from command runs by their kind, as core shapes it', () => {
    expect(shapeOf(run.suite_kind).lifecycle).toBe(true);
    expect(shapeOf(run.suite_kind).baseline).toBe(false);
    expect(shapeOf(computeRun.suite_kind).lifecycle).toBe(false);
    expect(shapeOf(computeRun.suite_kind).profiles).toBe(true);
  });

  it('derives from the summary exactly the heap series the backend exported', () => {
    const mine = heapSeries(summary);
    expect(mine).toEqual(run.heap_series);
    // 3 runtimes × 9 measurements × 2 fills, hello in none of them.
    expect(mine).toHaveLength(54);
    expect(mine.flatMap((s) => s.points.map((p) => p.test))).not.toContain('hello');
  });

  it('builds the heap chart: heap sizes in bytes ascending, a dense and a sparse line per runtime', () => {
    const chart = heapChartData(heapSeries(summary), summary.runtimes, 'instantiate');
    expect(chart.measure.key).toBe('instantiate');
    expect(chart.x).toEqual(SIZES);
    expect(chart.lines.map((l) => `${l.runtime}/${l.fill}`)).toEqual([
      'wasmtime-pooling/dense',
      'wasmtime-pooling/sparse',
      'wasmtime-pooling-nocow/dense',
      'wasmtime-pooling-nocow/sparse',
      'wasmer-cranelift/dense',
      'wasmer-cranelift/sparse',
    ]);
    // The same colour for both fills of a runtime, its index in the run.
    expect(chart.lines.map((l) => l.colorIndex)).toEqual([0, 0, 1, 1, 2, 2]);
    const nocowDense = chart.lines[2]!;
    expect(nocowDense.median[0]).toBe(31769.798507462685);
    expect(nocowDense.median[4]).toBe(6193502.5);
    // Data copied at instantiation: grows with the heap; copy-on-write pooling stays flat.
    const m = nocowDense.median as number[];
    expect(m.every((v, i) => i === 0 || v > m[i - 1]!)).toBe(true);
    const cow = chart.lines[0]!.median as number[];
    expect(Math.max(...cow) / Math.min(...cow)).toBeLessThan(3);
    expect(m[4]! / m[0]!).toBeGreaterThan(100);
    // p99 along with the median.
    expect(nocowDense.p99.every((p, i) => p !== null && p >= m[i]!)).toBe(true);

    const mem = heapChartData(heapSeries(summary), summary.runtimes, 'rss_per_instance_bytes');
    expect(mem.measure.unit).toBe('bytes');
    expect(mem.lines[3]!.median[4]).toBe(2106112);
  });

  it('aligns lines on every heap size, with gaps where a line has no point', () => {
    const chart = heapChartData(
      [
        {
          runtime: 'b',
          measure: 'teardown',
          unit: 'ns',
          fill: 'sparse',
          points: [{ test: 'heap-1m-sparse', heap_bytes: MiB, median: 5, p99: 6 }],
        },
        {
          runtime: 'a',
          measure: 'teardown',
          unit: 'ns',
          fill: 'dense',
          points: [
            { test: 'heap-64k-dense', heap_bytes: 64 * KiB, median: 1, p99: 2 },
            { test: 'heap-4m-dense', heap_bytes: 4 * MiB, median: 3, p99: 4 },
          ],
        },
        {
          runtime: 'a',
          measure: 'instantiate',
          unit: 'ns',
          fill: 'dense',
          points: [{ test: 'heap-16m-dense', heap_bytes: 16 * MiB, median: 9, p99: 9 }],
        },
      ],
      ['a', 'b'],
      'teardown',
    );
    expect(chart.x).toEqual([64 * KiB, MiB, 4 * MiB]);
    expect(chart.lines.map((l) => [l.runtime, l.fill, l.colorIndex, l.median])).toEqual([
      ['a', 'dense', 0, [1, null, 3]],
      ['b', 'sparse', 1, [null, 5, null]],
    ]);
  });

  it('tables every measurement per module × runtime, hello first', () => {
    const t = lifecycleTable(summary);
    expect(t.measures.map((m) => m.key)).toEqual([
      'compile',
      'load',
      'instantiate',
      'first_instantiate',
      'call',
      'first_call',
      'teardown',
      'rss_per_instance_bytes',
      'instances_per_sec',
    ]);
    expect(t.rows).toHaveLength(33);
    expect(t.rows[0]).toMatchObject({ test: 'hello', runtime: 'wasmtime-pooling', failure: null });
    expect(t.rows[0]!.values[2]).toEqual({ median: 1192.2545, p99: 1517.8958499999997, n: 20 });
  });

  it('formats heap sizes, axis values and rates', () => {
    expect(SIZES.map(formatSize)).toEqual(['64 KiB', '256 KiB', '1 MiB', '4 MiB', '16 MiB']);
    expect(formatAxis('ns', 1000)).toBe('1 µs');
    expect(formatAxis('ns', 2500)).toBe('2.5 µs');
    expect(formatAxis('ns', 1050)).toBe('1.1 µs');
    expect(formatAxis('bytes', 65536)).toBe('64 KiB');
    expect(formatAxis('per_sec', 2e6)).toBe('2M/s');
    expect(formatRate(1606289.25)).toBe('1.61M/s');
    expect(formatRate(512)).toBe('512/s');
    expect(formatRate(null)).toBe('-');
  });

  it("says which runtimes a suite applies to, as list_runtimes carries core's answer", () => {
    const byId = (id: string) => runtimes.find((r) => r.id === id)!;
    expect(notApplicable(byId('native'), 'lifecycle')).toBe(NOT_LIFECYCLE);
    expect(notApplicable(byId('wasmtime-cli'), 'lifecycle')).toBe(NOT_LIFECYCLE);
    expect(notApplicable(byId('container'), 'lifecycle')).toBe(NOT_LIFECYCLE);
    expect(notApplicable(byId('wasmtime-pooling-nocow'), 'lifecycle')).toBeNull();
    expect(notApplicable(byId('native'), 'compute')).toBeNull();
    expect(notApplicable(byId('wasmtime-pooling-nocow'), 'compute')).toContain('lifecycle suite only');
  });
});

describe('Detail of a lifecycle run', () => {
  it('shows median (p99) per operation per module × runtime and the heap chart, not the native matrix', async () => {
    mockIPC(() => report);
    render(<Detail runId="20261122-044254-lifecycle-b4e0" onExport={noop} onPickRun={noop} />);
    const table = await screen.findByTestId('lifecycle-table');
    const row = (test: string, rt: string) =>
      within(table)
        .getAllByTestId('lifecycle-row')
        .find((r) => r.dataset.test === test && r.dataset.runtime === rt)!;
    const value = (test: string, rt: string, measure: string) => row(test, rt).querySelector<HTMLElement>(`[data-measure="${measure}"]`)!;

    const hello = row('hello', 'wasmtime-pooling');
    expect(value('hello', 'wasmtime-pooling', 'instantiate').textContent).toBe('1.2 µs (1.5 µs)');
    expect(value('hello', 'wasmtime-pooling', 'call').textContent).toBe('12.0 ns (12.8 ns)');
    expect(value('hello', 'wasmtime-pooling', 'compile').textContent).toBe('319.5 µs (387.6 µs)');
    expect(value('hello', 'wasmtime-pooling', 'rss_per_instance_bytes').textContent).toBe('4.0 KiB (4.0 KiB)');
    expect(value('hello', 'wasmtime-pooling', 'instances_per_sec').textContent).toBe('1.61M/s (1.69M/s)');
    expect(value('hello', 'wasmtime-pooling', 'instantiate').title).toContain('n=20');
    // The module heads its group of runtimes.
    expect(hello.querySelector('th')!.textContent).toBe('hello');
    expect(hello.querySelector('th')!.getAttribute('rowspan')).toBe('3');
    expect(value('heap-16m-dense', 'wasmtime-pooling-nocow', 'instantiate').textContent).toBe('6.19 ms (6.96 ms)');
    expect(value('heap-16m-sparse', 'wasmer-cranelift', 'rss_per_instance_bytes').textContent).toBe('2.0 MiB (2.0 MiB)');
    expect(within(table).getAllByTestId('lifecycle-row')).toHaveLength(33);
    expect(table.querySelector('thead')!.textContent).toContain('first instantiate');

    // No "relative to native": no matrix, no baseline picker, no command phases table.
    expect(screen.queryByTestId('detail-matrix')).toBeNull();
    expect(screen.queryByTestId('detail-baseline')).toBeNull();
    expect(screen.queryByTestId('phases-table')).toBeNull();
    expect(screen.getByTestId('lifecycle-note').textContent).toContain('no native baseline');

    // The heap chart, instantiate first; the select switches the measurement.
    const chart = screen.getByTestId('heap-chart');
    expect(chart.getAttribute('aria-label')).toBe('instantiate against initial heap size, 64 KiB, 256 KiB, 1 MiB, 4 MiB, 16 MiB');
    const select = screen.getByTestId('heap-measure') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual([
      'instantiate',
      'teardown',
      'first_instantiate',
      'rss_per_instance_bytes',
      'compile',
    ]);
    fireEvent.change(select, { target: { value: 'teardown' } });
    await waitFor(() => expect(screen.getByTestId('heap-chart').getAttribute('aria-label')).toMatch(/^teardown against/));
  });

  it('keeps the matrix for command runs', async () => {
    mockIPC(() => runFixture);
    render(<Detail runId="20261122-035229-compute-a3d7" onExport={noop} onPickRun={noop} />);
    await screen.findByTestId('detail-matrix');
    expect(screen.queryByTestId('lifecycle-table')).toBeNull();
    expect(screen.queryByTestId('heap-chart')).toBeNull();
    expect(screen.getByTestId('detail-baseline')).toBeTruthy();
  });
});

describe('Setup and the lifecycle suite', () => {
  const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;
  const embedded = runtimes.filter((r) => r.kind === 'embedded' && !r.unavailable).map((r) => r.id);

  it('disables native and CLIs for lifecycle, selects the embedded engines and the first as baseline', async () => {
    const onStart = vi.fn<(suite: string, c: RunChoices) => void>();
    render(<Setup runtimes={runtimes} suites={suites} policy={policy} busy={false} onStart={onStart} />);
    await waitFor(() => expect(input('runtime-native').checked).toBe(true));
    // Compute as before: native enabled and selected, baseline native; the lifecycle-only
    // configuration is not offered.
    expect(input('runtime-native').disabled).toBe(false);
    expect((screen.getByTestId('setting-baseline') as HTMLSelectElement).value).toBe('native');
    expect(input('runtime-wasmtime-pooling-nocow').disabled).toBe(true);
    expect(screen.queryByTestId('na-native')).toBeNull();

    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'lifecycle' } });
    await waitFor(() => expect(input('runtime-native').disabled).toBe(true));
    expect(input('runtime-native').checked).toBe(false);
    expect(screen.getByTestId('na-native').textContent).toBe(NOT_LIFECYCLE);
    expect(input('runtime-wasmtime-cli').disabled).toBe(true);
    expect(screen.getByTestId('na-wasmtime-cli').textContent).toBe(NOT_LIFECYCLE);
    // A missing CLI says it does not apply rather than how to install it.
    expect(screen.queryByTestId('unavailable-wasmer-cli')).toBeNull();
    for (const id of embedded) expect(input(`runtime-${id}`).checked).toBe(true);
    expect(input('runtime-wasmtime-pooling-nocow').disabled).toBe(false);
    const baseline = screen.getByTestId('setting-baseline') as HTMLSelectElement;
    expect(baseline.value).toBe('wasmtime');
    expect([...baseline.options].map((o) => o.value)).toEqual(embedded);
    expect((screen.getByTestId('group-cli') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('start-run'));
    expect(onStart).toHaveBeenCalledTimes(1);
    expect(onStart.mock.calls[0]![0]).toBe('lifecycle');
    expect(onStart.mock.calls[0]![1]).toMatchObject({ tests: [], runtimes: embedded, baseline: 'wasmtime' });

    // Back to compute: its defaults again.
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'compute' } });
    await waitFor(() => expect(input('runtime-native').disabled).toBe(false));
    expect(input('runtime-native').checked).toBe(true);
    expect(input('runtime-wasmtime-cli').disabled).toBe(false);
    expect((screen.getByTestId('setting-baseline') as HTMLSelectElement).value).toBe('native');
  });
});

/** A diff of the lifecycle run with itself, as diff_runs shapes it (every ratio 1). */
function selfDiff(): Diff {
  const rows = summary.cells.flatMap((c) =>
    Object.entries(c.phases).map(([phase, m]) => ({
      runtime: c.runtime,
      test: c.test,
      phase,
      a_median: m!,
      b_median: m!,
      ratio: 1,
      ci_low: 0.99,
      ci_high: 1.01,
      halfwidth_pct: 1,
      p_adjusted: 1,
      verdict: 'no change' as const,
      n: [6, 6] as [number, number],
      invocations: [2, 2] as [number, number],
    })),
  );
  return {
    a: run.id,
    b: run.id,
    threshold_pct: 2,
    normalize: null,
    alpha: 0.05,
    paired: false,
    busy_left_out: 0,
    warnings: [],
    rows,
    only_a: [],
    only_b: [],
    method: 'B/A, test double',
  };
}

describe('Diff of lifecycle runs', () => {
  const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

  it('offers the lifecycle phases, instantiate + call by default', async () => {
    const diff = selfDiff();
    expect(phaseOptions(diff, 'lifecycle')).toEqual([
      'compile',
      'load',
      'instantiate',
      'first_instantiate',
      'call',
      'first_call',
      'teardown',
    ]);
    expect(phaseOptions(null, 'command')).toEqual(['compile', 'instantiate', 'execute', 'teardown', 'total']);
    expect([...defaultPhases('lifecycle')]).toEqual(['instantiate', 'call']);

    mockIPC(() => ({ ...report, runs: [run, run], diff }));
    render(<DiffScreen runs={[]} a="x" b="y" defaultThresholdPct={policy.threshold_pct} onPick={noop} onExport={noop} />);
    const table = await screen.findByTestId('diff-table');
    fireEvent.change(screen.getByTestId('diff-filter'), { target: { value: 'all' } });
    await waitFor(() => expect(input('phase-call').checked).toBe(true));
    expect(input('phase-instantiate').checked).toBe(true);
    expect(input('phase-first_call').checked).toBe(false);
    expect(screen.queryByTestId('phase-execute')).toBeNull();
    // 33 cells, instantiate and call each.
    expect(within(table).getAllByTestId('diff-row')).toHaveLength(66);
    fireEvent.click(input('phase-first_instantiate'));
    await waitFor(() => expect(within(table).getAllByTestId('diff-row')).toHaveLength(99));
  });
});
