/**
 * The HTTP suites (gateway, servers) on the page: data shaping (http.ts), the run detail
 * of an HTTP run (fixtures/http.json: a gateway run as the report carries it, from
 * assets/report/sample-http.json), the setup's load settings as start_run receives
 * them, the live matrix of latencies and the diff's throughput rows.
 */
import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Diff, Report, RunChoices, RunPolicy, RuntimeView, SuiteInfo } from '../api';
import { App } from '../app';
import { formatRps, httpRequests, parseCounts, parseSecondsMs, rpsChartData, throughputConnections } from '../http';
import { Detail } from '../screens/Detail';
import { defaultPhases, formatDiffMedian, phaseOptions } from '../screens/Diff';
import { notApplicable, Setup } from '../screens/Setup';
import { shapeOf } from '../shape';
import httpFixture from './fixtures/http.json';
import httpDiffFixture from './fixtures/http-diff.json';
import policyFixture from './fixtures/policy.json';
import runFixture from './fixtures/run.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';

const report = httpFixture as unknown as Report;
const run = report.runs[0]!;
const runtimes = runtimesFixture as unknown as RuntimeView[];
const suites = suitesFixture as SuiteInfo[];
const policy = policyFixture as RunPolicy;
const byId = (id: string) => runtimes.find((r) => r.id === id)!;
const noop = () => {};
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

describe('HTTP data', () => {
  it('tells HTTP suites and runs', () => {
    // By the run's kind, as core shapes it; a run saved without a kind is a command run.
    expect(shapeOf(run.suite_kind).http).toBe(true);
    expect(shapeOf((runFixture as unknown as Report).runs[0]!.suite_kind).http).toBe(false);
    expect(shapeOf(undefined).kind).toBe('command');
    // Which runtimes an HTTP suite applies to is what list_runtimes says (core's rule).
    expect(notApplicable(byId('wasmtime'), 'servers')).toMatch(/servers suite/);
    expect(notApplicable(byId('wasmtime'), 'gateway')).toBeNull();
    expect(notApplicable(byId('node'), 'servers')).toBeNull();
    expect(notApplicable(byId('container'), 'gateway')).toBeNull();
    expect(notApplicable(byId('container'), 'servers')).toBe("the container variants are the gateway suite's");
  });

  it('parses levels and seconds as typed', () => {
    expect(parseCounts('1, 10,50 100')).toEqual([1, 10, 50, 100]);
    expect(parseCounts('50, 1, 10, 10')).toEqual([1, 10, 50]);
    // Text to numbers only: no levels, or 0, is core's to refuse (model::limits).
    expect(parseCounts('')).toEqual([]);
    expect(parseCounts('1, 0')).toEqual([0, 1]);
    expect(parseCounts('4294967296')).toBeNull();
    expect(parseCounts('1, x')).toBeNull();
    expect(parseCounts('2.5')).toBeNull();
    expect(parseSecondsMs('1.5')).toBe(1500);
    expect(parseSecondsMs('2')).toBe(2000);
    // Any time over 0 is at least 1 ms, as core holds it; 0 stays 0 for core to refuse.
    expect(parseSecondsMs('0.0001')).toBe(1);
    expect(parseSecondsMs('0')).toBe(0);
    expect(parseSecondsMs('-1')).toBeNull();
    expect(parseSecondsMs('abc')).toBeNull();
    expect(throughputConnections('throughput_c50')).toBe(50);
    expect(throughputConnections('latency')).toBeNull();
    expect(formatRps(20956.5)).toBe('21.0k');
    expect(formatRps(3219)).toBe('3.22k');
    expect(formatRps(64.1)).toBe('64.1');
  });

  it('draws requests/s against every level, a line per variant with throughput', () => {
    const reqs = httpRequests(run.http!);
    expect(reqs.map((r) => r.test)).toEqual(['hello', 'compute', 'state']);
    const hello = rpsChartData(reqs[0]!.cells, run.summary.runtimes);
    expect(hello.x).toEqual([1, 10, 50, 100]);
    expect(hello.lines.map((l) => l.runtime)).toEqual(['native', 'wasmtime-pooling', 'wasmer-cranelift', 'wasmtime-cli', 'node']);
    expect(hello.lines.map((l) => l.colorIndex)).toEqual([0, 1, 2, 3, 4]);
    const native = run.http!.find((c) => c.runtime === 'native' && c.test === 'hello')!;
    expect(hello.lines[0]!.rps).toEqual(native.levels.map((l) => l.rps.median));
    // The failed cell (node × compute) has no line.
    const compute = rpsChartData(reqs[1]!.cells, run.summary.runtimes);
    expect(compute.lines.map((l) => l.runtime)).not.toContain('node');
    expect(compute.lines).toHaveLength(4);
  });
});

describe('Detail of an HTTP run', () => {
  it('names a runtime left out of one request by its cell, and one left out of the suite by itself', async () => {
    const leftOut = {
      ...report,
      runs: [
        {
          ...run,
          not_applicable: [
            { runtime: 'wasmtime-serve', test: 'state', why: 'no host keeps the counter' },
            { runtime: 'wasmi-lazy', why: 'lifecycle suite only' },
          ],
        },
      ],
    };
    mockIPC(() => leftOut);
    render(<Detail runId={run.id} onExport={noop} onPickRun={noop} />);
    expect((await screen.findByTestId('detail-not-applicable')).textContent).toBe(
      'wasmtime-serve × state (no host keeps the counter) · wasmi-lazy (lifecycle suite only)',
    );
  });

  it('shows per request the variants table, requests/s vs connections and latency percentiles', async () => {
    mockIPC(() => report);
    render(<Detail runId={run.id} onExport={noop} onPickRun={noop} />);
    const requests = await screen.findAllByTestId('http-request');
    expect(requests.map((r) => r.dataset.test)).toEqual(['hello', 'compute', 'state']);
    // Not the command suites' views.
    expect(screen.queryByTestId('detail-matrix')).toBeNull();
    expect(screen.queryByTestId('phases-table')).toBeNull();
    expect(screen.getByTestId('detail-http-settings').textContent).toContain('1, 10, 50, 100 connections, 2 s per level');

    const hello = requests[0]!;
    const rows = within(hello).getAllByTestId('http-row');
    expect(rows.map((r) => r.dataset.runtime)).toEqual(['native', 'wasmtime-pooling', 'wasmer-cranelift', 'wasmtime-cli', 'node']);
    const cell = (runtime: string, col: string) =>
      rows.find((r) => r.dataset.runtime === runtime)!.querySelector<HTMLElement>(`[data-col="${col}"]`)!.textContent;
    expect(cell('native', 'cold')).toBe('1.96 ms');
    expect(cell('native', 'p50')).toBe('42.5 µs');
    expect(cell('native', 'p90')).toBe('52.0 µs');
    expect(cell('native', 'p99')).toBe('90.0 µs');
    expect(cell('native', 'best')).toBe('21.0k (50)');
    expect(cell('native', 'rel')).toBe('1.00×');
    expect(cell('native', 'rss')).toBe('6.1 MiB');
    expect(cell('native', 'cpu')).toBe('95.24 ms');
    expect(cell('wasmtime-pooling', 'best')).toBe('11.8k (50)');
    expect(cell('wasmtime-pooling', 'rel')).toBe('0.56×');
    expect(cell('wasmer-cranelift', 'best')).toBe('3.22k (50)');
    expect(cell('wasmtime-cli', 'best')).toBe('106 (10)');
    expect(cell('wasmtime-cli', 'rel')).toBe('0.0050×');
    expect(cell('wasmtime-cli', 'cpu')).toBe('10.41 s');
    expect(cell('node', 'best')).toBe('64.1 (10)');
    expect(cell('node', 'errors')).toBe('12');
    expect(rows[0]!.textContent).toContain('baseline');

    // The failed cell says why, across the row.
    const compute = requests[1]!;
    const failed = within(compute)
      .getAllByTestId('http-row')
      .find((r) => r.dataset.runtime === 'node')!;
    expect(failed.dataset.failed).toBe('');
    expect(within(failed).getByTestId('http-failure').textContent).toBe(
      'failed: no request succeeded at 10 connections: the server answered 502 Bad Gateway (guest exited with status 134: RangeError: Maximum call stack size exceeded)',
    );

    // Requests/s vs connections, one series per variant, and the latency bars.
    const rps = within(hello).getByTestId('http-rps-chart');
    expect(rps.getAttribute('aria-label')).toContain('native 14.0k/19.8k/21.0k/20.4k; wasmtime-pooling 9.61k/11.1k/11.8k/11.2k');
    expect(rps.getAttribute('aria-label')).toContain('at 1, 10, 50, 100 connections');
    expect(within(compute).getByTestId('http-rps-chart').getAttribute('aria-label')).not.toContain('node');
    const groups = within(hello).getAllByTestId('http-latency-group');
    expect(groups.map((g) => g.dataset.runtime)).toEqual(['native', 'wasmtime-pooling', 'wasmer-cranelift', 'wasmtime-cli', 'node']);
    expect(groups[0]!.querySelectorAll('rect')).toHaveLength(3);
    expect([...groups[0]!.querySelectorAll('rect title')].map((t) => t.textContent)).toEqual([
      'native · p50: 42.5 µs',
      'native · p90: 52.0 µs',
      'native · p99: 90.0 µs',
    ]);
    expect(within(compute).getAllByTestId('http-latency-group')).toHaveLength(4);

    // Sorting by best requests/s, then the other way.
    fireEvent.click(within(hello).getByTestId('http-sort-best'));
    const order = () =>
      within(hello)
        .getAllByTestId('http-row')
        .map((r) => r.dataset.runtime);
    expect(order()).toEqual(['node', 'wasmtime-cli', 'wasmer-cranelift', 'wasmtime-pooling', 'native']);
    fireEvent.click(within(hello).getByTestId('http-sort-best'));
    expect(order()).toEqual(['native', 'wasmtime-pooling', 'wasmer-cranelift', 'wasmtime-cli', 'node']);
  });
});

describe('Setup of an HTTP suite', () => {
  it('shows the load settings, defaults to one run in each of 3 invocations and no warm-up, and sends them to start_run', async () => {
    const calls: { cmd: string; payload: Record<string, unknown> }[] = [];
    mockIPC((cmd, payload) => {
      calls.push({ cmd, payload: (payload ?? {}) as Record<string, unknown> });
      if (cmd === 'list_runtimes') return runtimes;
      if (cmd === 'list_suites') return suites;
      if (cmd === 'run_policy') return policy;
      if (cmd === 'list_runs') return runsFixture;
      if (cmd === 'start_run') return null;
      // Core's refusal of an objective out of its range, as plan_scope gives it
      // (ui-desktop/tests/all/commands.rs holds the real command to core's lines).
      if (cmd === 'plan_scope') {
        const slo = (payload as { choices: RunChoices }).choices.http?.slo_p99_ms;
        if (slo !== undefined && !(slo > 0))
          throw { code: 'invalid_input', message: `--slo-p99 must be over 0 and at most 3600000 ms, got ${slo} ms` };
        return { text: 'scope', confirm: false };
      }
      throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
    });
    render(<App />);
    await waitFor(() => expect(input('runtime-wasmtime').checked).toBe(true));
    expect(screen.queryByTestId('http-settings')).toBeNull();
    expect(input('setting-invocations').value).toBe('6');

    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'gateway' } });
    await waitFor(() => expect(screen.getByTestId('http-settings')).toBeTruthy());
    expect(input('setting-runs').value).toBe('1');
    expect(input('setting-warmup').value).toBe('0');
    expect(input('setting-invocations').value).toBe('3');
    expect(screen.getByTestId('repetition-note').textContent).toBe(
      'Each cell: 3 fresh worker processes × (0 warm-up + 1 runs) = 3 values.',
    );
    expect(input('setting-http-levels').value).toBe('1, 10, 100');
    expect(input('setting-http-duration').value).toBe('0.8');
    expect(input('setting-http-latency').value).toBe('0.4');

    // A bad list stops the start with why.
    fireEvent.input(input('setting-http-levels'), { target: { value: '1, ten' } });
    expect(screen.getByTestId('start-reason').textContent).toBe('Concurrency levels must be whole numbers, separated by commas.');
    fireEvent.input(input('setting-http-levels'), { target: { value: '50, 1, 10' } });
    fireEvent.input(input('setting-http-duration'), { target: { value: '1.5' } });
    fireEvent.input(input('setting-http-latency'), { target: { value: '0.5' } });
    // Open-model load: offered rates and the p99 objective of the knee.
    fireEvent.input(input('setting-http-rates'), { target: { value: 'fast' } });
    expect(screen.getByTestId('start-reason').textContent).toMatch(/^Offered rates must be whole numbers/);
    fireEvent.input(input('setting-http-rates'), { target: { value: '2000, 500' } });
    // A number out of range is core's to refuse, in the CLI's words.
    fireEvent.input(input('setting-http-slo'), { target: { value: '0' } });
    await waitFor(() =>
      expect(screen.getByTestId('start-reason').textContent).toBe('--slo-p99 must be over 0 and at most 3600000 ms, got 0 ms'),
    );
    expect(input('setting-http-slo').getAttribute('aria-invalid')).toBe('true');
    fireEvent.input(input('setting-http-slo'), { target: { value: '50' } });
    expect(screen.queryByTestId('start-reason')).toBeNull();
    fireEvent.click(screen.getByTestId('start-run'));

    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_run')).toBe(true));
    const settings = calls.find((c) => c.cmd === 'start_run')!.payload.choices as RunChoices;
    expect(calls.find((c) => c.cmd === 'start_run')!.payload.suite).toBe('gateway');
    expect(settings).toMatchObject({
      tests: [],
      baseline: 'native',
      // What the page has no field for keeps the suite's defaults (core's, from list_suites).
      http: { levels: [1, 10, 50], duration_ms: 1500, latency_ms: 500, rates: [500, 2000], slo_p99_ms: 50, server_threads: 2 },
    });
    // The repetition was left at the suite's defaults: core decides it.
    expect([settings.runs, settings.warmup, settings.invocations, settings.order]).toEqual([undefined, undefined, undefined, undefined]);
    expect(settings.runtimes).toContain('native');
    expect(settings.runtimes).toContain('wasmtime-pooling');
  });

  it('leaves the load out for other suites and restores their defaults', async () => {
    const onStart = vi.fn<(suite: string, c: RunChoices) => void>();
    render(<Setup runtimes={runtimes} suites={suites} policy={policy} busy={false} onStart={onStart} />);
    await waitFor(() => expect(input('runtime-native').checked).toBe(true));
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'gateway' } });
    await waitFor(() => expect(input('setting-invocations').value).toBe('3'));
    fireEvent.input(input('setting-runs'), { target: { value: '5' } });
    // Back to a command suite: its own defaults, not what was typed for the gateway.
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'compute' } });
    await waitFor(() => expect(input('setting-invocations').value).toBe('6'));
    expect(input('setting-runs').value).toBe('1');
    expect(input('setting-warmup').value).toBe('0');
    expect(screen.queryByTestId('http-settings')).toBeNull();
    fireEvent.click(screen.getByTestId('start-run'));
    expect(onStart.mock.calls[0]![1].http).toBeUndefined();
  });

  it('runs the servers suite on native and the CLIs, not on embedded engines', async () => {
    const onStart = vi.fn<(suite: string, c: RunChoices) => void>();
    render(<Setup runtimes={runtimes} suites={suites} policy={policy} busy={false} onStart={onStart} />);
    await waitFor(() => expect(input('runtime-native').checked).toBe(true));
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'servers' } });
    await waitFor(() => expect(input('runtime-wasmtime').disabled).toBe(true));
    expect(screen.getByTestId('na-wasmtime').textContent).toMatch(/servers suite/);
    expect(input('runtime-node').checked).toBe(true);
    expect(input('runtime-native').checked).toBe(true);
    fireEvent.click(screen.getByTestId('start-run'));
    const s = onStart.mock.calls[0]![1];
    expect(s.runtimes).toContain('node');
    expect(s.runtimes).not.toContain('wasmtime');
    // The load shown is the suite's default, left to core when not changed.
    expect(input('setting-http-levels').value).toBe('1, 10, 100');
    expect(s.http).toBeUndefined();
  });
});

describe('Diff of HTTP runs', () => {
  const diff = httpDiffFixture as unknown as Diff;
  it('offers latency and the throughput levels, and shows throughput as time and rate per request', () => {
    expect(phaseOptions(diff, 'gateway')).toEqual(['cold_start', 'latency', 'throughput_c50']);
    expect([...defaultPhases('gateway', diff)]).toEqual(['latency', 'throughput_c50']);
    // A command suite's diff still offers its own phases first.
    expect(phaseOptions(null, 'command')).toEqual(['compile', 'instantiate', 'execute', 'teardown', 'total']);
    expect(formatDiffMedian('throughput_c50', 1e9 / 20000)).toBe('50.0 µs/req (20.0k/s)');
    expect(formatDiffMedian('latency', 42e3)).toBe('42.0 µs');
  });
});
