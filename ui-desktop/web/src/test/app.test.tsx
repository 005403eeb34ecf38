import type { Channel } from '@tauri-apps/api/core';
import { mockIPC } from '@tauri-apps/api/mocks';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { LiveBatch, RunChoices, RuntimeView, SuiteInfo } from '../api';
import { App } from '../app';
import { ErrorBanner } from '../components/ErrorBanner';
import { currentErrors, dismissErrors, installGlobalHandlers } from '../errors';
import policyFixture from './fixtures/policy.json';
import runFixture from './fixtures/run.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';
import cancelled from './live/cancelled.json';
import interleaved from './live/interleaved.json';

type Handler = (payload: Record<string, unknown>) => unknown;

/** A backend from the fixtures; `over` replaces commands. Returns the calls made. */
function backend(over: Record<string, Handler> = {}) {
  const calls: { cmd: string; payload: Record<string, unknown> }[] = [];
  const base: Record<string, Handler> = {
    list_runtimes: () => runtimesFixture,
    list_suites: () => suitesFixture,
    run_policy: () => policyFixture,
    list_runs: () => runsFixture,
    load_run: () => runFixture,
    start_run: () => null,
    cancel_run: () => true,
    plan_scope: () => ({ text: 'scope', confirm: false }),
  };
  mockIPC((cmd, payload) => {
    const p = (payload ?? {}) as Record<string, unknown>;
    calls.push({ cmd, payload: p });
    const h = over[cmd] ?? base[cmd];
    if (!h) throw { code: 'invalid_input', message: `unexpected command ${cmd}` };
    return h(p);
  });
  return calls;
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

async function renderReady() {
  render(<App />);
  await waitFor(() => expect(input('runtime-wasmtime').checked).toBe(true));
  await waitFor(() => expect(input('test-sha256').checked).toBe(true));
}

describe('App', () => {
  it('shows a failing command in the error banner, dismissibly', async () => {
    backend({
      list_runs: () => {
        throw { code: 'corrupt', message: 'results/index.json: unexpected end of file' };
      },
    });
    render(<App />);
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('results/index.json: unexpected end of file');
    // The rest of the page still works: the setup is there.
    expect(screen.getByTestId('start-run')).toBeTruthy();
    fireEvent.click(screen.getByTestId('dismiss-error'));
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('renders the setup before the catalog arrives', () => {
    mockIPC(() => new Promise(() => {}));
    render(<App />);
    const start = screen.getByTestId('start-run') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe('Loading suites…');
  });

  it('disables unavailable runtimes with their reason, and selects native + embedded by default', async () => {
    backend();
    await renderReady();
    const cli = input('runtime-wasmer-cli');
    expect(cli.disabled).toBe(true);
    expect(cli.checked).toBe(false);
    const why = screen.getByTestId('unavailable-wasmer-cli').textContent!;
    expect(why).toContain("'wasmer' not found on PATH");
    expect(why).toContain('cargo install wasmer-cli');
    expect(input('runtime-native').checked).toBe(true);
    expect(input('runtime-wasmer-singlepass').checked).toBe(true);
    expect(input('runtime-wasmtime-cli').checked).toBe(false);
    expect(input('runtime-wasmtime-cli').disabled).toBe(false);
    expect((screen.getByTestId('suite-select') as HTMLSelectElement).value).toBe('compute');
    // Core's defaults for a command suite (list_suites): 6 fresh processes × (0 warm-up + 1 run), interleaved.
    expect(input('setting-runs').value).toBe('1');
    expect(input('setting-warmup').value).toBe('0');
    expect(input('setting-invocations').value).toBe('6');
    expect((screen.getByTestId('setting-order') as HTMLSelectElement).value).toBe('interleaved');
    expect(screen.getByTestId('repetition-note').textContent).toBe(
      'Each cell: 6 fresh worker processes × (0 warm-up + 1 runs) = 6 values.',
    );
    // With arms to pair, core's paired rounds (20 for a command suite) are what it will make.
    fireEvent.input(input('setting-pair'), { target: { value: 'native, wasmer-singlepass' } });
    expect(input('setting-invocations').value).toBe('20');
    fireEvent.input(input('setting-pair'), { target: { value: '' } });
    expect(input('setting-invocations').value).toBe('6');
    expect((screen.getByTestId('setting-size') as HTMLSelectElement).value).toBe('quick');
    expect((screen.getByTestId('setting-baseline') as HTMLSelectElement).value).toBe('native');
    // The CLI group keeps the baseline and drops the embedded engines.
    fireEvent.click(screen.getByTestId('group-cli'));
    expect(input('runtime-wasmtime').checked).toBe(false);
    expect(input('runtime-wasmtime-cli').checked).toBe(true);
    expect(input('runtime-native').checked).toBe(true);
    expect(input('runtime-wasmer-cli').checked).toBe(false);
  });

  it('shows and sends what the commands say, not a copy of its own: defaults, applicability, threshold', async () => {
    // Values unlike core's real ones, so a copy in the page could not pass.
    const compute = (suitesFixture as SuiteInfo[]).find((x) => x.name === 'compute')!;
    const odd: SuiteInfo = {
      ...compute,
      defaults: {
        ...compute.defaults,
        repetition: { invocations: 5, warmup: 1, runs: 4 },
        order: 'sequential',
        timeout_secs: 77,
        timeout_source: 'suite',
        size: 'full',
        memory_cap_mib: 123,
        sample_interval_ms: 55,
      },
    };
    const runtimes = (runtimesFixture as unknown as RuntimeView[]).map((r) =>
      r.id === 'wasmer-singlepass' ? { ...r, not_applicable: { ...r.not_applicable, compute: 'core says no' } } : r,
    );
    const calls = backend({
      list_suites: () => [odd, ...(suitesFixture as SuiteInfo[]).filter((x) => x.name !== 'compute')],
      list_runtimes: () => runtimes,
      run_policy: () => ({ threshold_pct: 3.5, min_invocations: 7, min_values: 9 }),
    });
    await renderReady();
    expect(input('setting-runs').value).toBe('4');
    expect(input('setting-warmup').value).toBe('1');
    expect(input('setting-invocations').value).toBe('5');
    expect((screen.getByTestId('setting-order') as HTMLSelectElement).value).toBe('sequential');
    expect((screen.getByTestId('setting-size') as HTMLSelectElement).value).toBe('full');
    expect(input('setting-memory').value).toBe('123');
    expect(input('setting-sample').value).toBe('55');
    // The timeout is the suite's own until typed: shown, not filled in.
    expect(input('setting-timeout').value).toBe('');
    expect(input('setting-timeout').placeholder).toBe('77');
    expect(screen.getByTestId('timeout-note').textContent).toBe("Timeout: the suite's own, 77 s, unless set.");
    // 5 invocations are fewer than the 7 this policy asks for a verdict.
    await waitFor(() =>
      expect(screen.getByTestId('repetition-note').textContent).toContain('A diff needs 7 invocations and 9 values a cell for a verdict.'),
    );
    // Applicability is the command's: a runtime it rules out is disabled with its reason.
    expect(input('runtime-wasmer-singlepass').disabled).toBe(true);
    expect(screen.getByTestId('na-wasmer-singlepass').textContent).toBe('core says no');
    expect(input('runtime-wasmer-cranelift').disabled).toBe(false);

    // Nothing touched: only the selection is sent, core decides the rest.
    fireEvent.click(screen.getByTestId('start-run'));
    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_run')).toBe(true));
    const first = calls.find((c) => c.cmd === 'start_run')!.payload.choices as RunChoices;
    expect(Object.keys(first).sort()).toEqual(['baseline', 'precision_off', 'runtimes', 'settings', 'skip_missing', 'tests', 'yes']);

    // The diff screen's threshold is the policy's until typed.
    fireEvent.click(screen.getByTestId('nav-diff'));
    expect(input('diff-threshold').value).toBe('3.5');
  });

  it("shows a suite's own timeout and sends a typed one, which then holds for every suite", async () => {
    const calls = backend();
    await renderReady();
    expect(input('setting-timeout').placeholder).toBe('60');
    expect(screen.getByTestId('timeout-note').textContent).toBe('Timeout: the default, 60 s, unless set.');
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'faults' } });
    await waitFor(() => expect(input('setting-timeout').placeholder).toBe('10'));
    expect(screen.getByTestId('timeout-note').textContent).toBe("Timeout: the suite's own, 10 s, unless set.");
    fireEvent.input(input('setting-timeout'), { target: { value: '30' } });
    expect(screen.queryByTestId('timeout-note')).toBeNull();
    fireEvent.change(screen.getByTestId('suite-select'), { target: { value: 'compute' } });
    expect(input('setting-timeout').value).toBe('30');
    fireEvent.click(screen.getByTestId('start-run'));
    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_run')).toBe(true));
    const sent = calls.find((c) => c.cmd === 'start_run')!.payload.choices as RunChoices;
    expect(sent.timeout_secs).toBe(30);
    expect(calls.find((c) => c.cmd === 'start_run')!.payload.suite).toBe('compute');
  });

  it('says why start is disabled', async () => {
    // Core's refusal of a number out of its range, as plan_scope gives it
    // (ui-desktop/tests/all/commands.rs holds the real command to this line).
    backend({
      plan_scope: (p) => {
        const k = (p.choices as RunChoices).invocations;
        if (k !== undefined && !(k >= 1 && k <= 10000))
          throw { code: 'invalid_input', message: `--invocations must be from 1 to 10000, got ${k}` };
        return { text: 'scope', confirm: false };
      },
    });
    await renderReady();
    const start = screen.getByTestId('start-run') as HTMLButtonElement;
    expect(start.disabled).toBe(false);
    fireEvent.click(screen.getByTestId('tests-none'));
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe('Select at least one test.');
    fireEvent.click(screen.getByTestId('tests-all'));
    // Text that is no whole number is the page's to say; a number out of range, core's.
    fireEvent.input(input('setting-runs'), { target: { value: '1.5' } });
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe('Runs must be a whole number.');
    fireEvent.input(input('setting-runs'), { target: { value: '3' } });
    fireEvent.input(input('setting-invocations'), { target: { value: '0' } });
    await waitFor(() => expect(screen.getByTestId('start-reason').textContent).toBe('--invocations must be from 1 to 10000, got 0'));
    expect(start.disabled).toBe(true);
    expect(input('setting-invocations').getAttribute('aria-invalid')).toBe('true');
    // One invocation can run, but no diff of it can tell a change: the page says so.
    fireEvent.input(input('setting-invocations'), { target: { value: '1' } });
    expect(start.disabled).toBe(false);
    expect(screen.getByTestId('repetition-note').textContent).toContain('A diff needs 2 invocations and 3 values a cell for a verdict.');
    fireEvent.click(screen.getByTestId('group-none'));
    expect(screen.getByTestId('start-reason').textContent).toBe('Select at least one available runtime.');
  });

  it('says what a run will do and how long it takes before it starts, and asks before a long one', async () => {
    /** plan_scope answering core's line for a run of `cells` cells taking `about`. */
    const scoped = (cells: number, about: string, confirm: boolean) =>
      backend({
        plan_scope: () => ({
          text: `${cells} cells × 3 invocations × 6 iterations, about ${about} (from earlier runs of ${cells} of them on this machine)`,
          confirm,
        }),
      });
    const calls = scoped(8, '45 s', false);
    await renderReady();
    await waitFor(() => expect(screen.getByTestId('run-scope').textContent).toContain('about 45 s'));
    const asked = calls.filter((c) => c.cmd === 'plan_scope').at(-1)!;
    expect(asked.payload.suite).toBe('compute');
    expect((asked.payload.choices as { runtimes: string[] }).runtimes).toContain('wasmtime');
    // Short: starts at once.
    fireEvent.click(screen.getByTestId('start-run'));
    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_run')).toBe(true));
    cleanup();
    // Long: asks first; "Not now" starts nothing.
    const again = scoped(171, '40 min', true);
    await renderReady();
    await waitFor(() => expect(screen.getByTestId('run-scope').textContent).toContain('about 40 min'));
    fireEvent.click(screen.getByTestId('start-run'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('about 40 min');
    fireEvent.click(within(dialog).getByTestId('confirm-no'));
    expect(again.some((c) => c.cmd === 'start_run')).toBe(false);
    fireEvent.click(screen.getByTestId('start-run'));
    fireEvent.click(within(screen.getByTestId('confirm-dialog')).getByTestId('confirm-yes'));
    await waitFor(() => expect(again.some((c) => c.cmd === 'start_run')).toBe(true));
  });

  it('sends the chosen settings to start_run, then shows the run live to the end', async () => {
    let channel: Channel<LiveBatch> | null = null;
    const calls = backend({
      start_run: (p) => {
        channel = p.on_event as Channel<LiveBatch>;
        return null;
      },
      // Core's refusals of a pair and of a precision, as plan_scope gives them
      // (ui-desktop/tests/all/commands.rs holds the real command to these lines).
      plan_scope: (p) => {
        const arms = (p.choices as RunChoices).pair ?? [];
        if (arms.length === 1) throw { code: 'invalid_input', message: `--pair needs two or more arms, got '${arms[0]}'` };
        const twice = arms.find((a, i) => arms.indexOf(a) !== i);
        if (twice) throw { code: 'invalid_input', message: `--pair needs different arms, got '${twice}' twice` };
        const pct = (p.choices as RunChoices).precision?.pct;
        if (pct !== undefined && !(pct > 0 && pct <= 100))
          throw { code: 'invalid_input', message: `--precision must be a percentage over 0 and at most 100, got ${pct}` };
        const budget = (p.choices as RunChoices).precision?.budget_secs;
        if (budget != null && !(budget >= 1 && budget <= 604800))
          throw { code: 'invalid_input', message: `--budget must be from 1 to 604800 s, got ${budget}` };
        return { text: 'scope', confirm: false };
      },
    });
    await renderReady();
    // The filter narrows the list; All/None act on what is visible.
    fireEvent.input(screen.getByTestId('test-filter'), { target: { value: 'bignum' } });
    expect(screen.queryByTestId('test-sha256')).toBeNull();
    expect(input('test-x25519')).toBeTruthy();
    fireEvent.input(screen.getByTestId('test-filter'), { target: { value: '' } });
    // Two tests, two runtimes, custom settings.
    fireEvent.click(screen.getByTestId('tests-none'));
    fireEvent.click(input('test-crc32'));
    fireEvent.click(input('test-sha256'));
    fireEvent.click(screen.getByTestId('group-none'));
    fireEvent.click(input('runtime-native'));
    fireEvent.click(input('runtime-wasmtime'));
    fireEvent.input(input('setting-runs'), { target: { value: '3' } });
    fireEvent.input(input('setting-warmup'), { target: { value: '2' } });
    fireEvent.input(input('setting-invocations'), { target: { value: '2' } });
    // Chosen explicitly (so sent): a pair needs the interleaved order, as core says.
    fireEvent.change(screen.getByTestId('setting-order'), { target: { value: 'interleaved' } });
    fireEvent.change(screen.getByTestId('setting-size'), { target: { value: 'full' } });
    fireEvent.input(input('setting-label'), { target: { value: '  my label ' } });
    fireEvent.input(input('setting-seed'), { target: { value: '7' } });
    fireEvent.change(screen.getByTestId('setting-measure'), { target: { value: 'instructions' } });
    // A pair is checked by core when the choices rest: its refusal is the start reason and
    // blocks the start, in core's words (the CLI's and the TUI's line).
    fireEvent.input(input('setting-pair'), { target: { value: 'wasmtime, wasmtime' } });
    await waitFor(() => expect(screen.getByTestId('start-reason').textContent).toBe("--pair needs different arms, got 'wasmtime' twice"));
    expect(input('setting-pair').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.input(input('setting-pair'), { target: { value: 'wasmtime' } });
    await waitFor(() => expect(screen.getByTestId('start-reason').textContent).toBe("--pair needs two or more arms, got 'wasmtime'"));
    fireEvent.input(input('setting-pair'), { target: { value: 'native,wasmtime' } });
    await waitFor(() => expect(screen.queryByTestId('start-reason')).toBeNull());
    // Counting instructions, the arms run in processes of their own (core refuses alternate).
    fireEvent.change(screen.getByTestId('setting-pair-mode'), { target: { value: 'processes' } });
    // A precision no run can aim at: core's line, the CLI's and the TUI's; text that is no
    // number is the page's to say.
    fireEvent.input(input('setting-precision'), { target: { value: '101' } });
    await waitFor(() =>
      expect(screen.getByTestId('start-reason').textContent).toBe('--precision must be a percentage over 0 and at most 100, got 101'),
    );
    fireEvent.input(input('setting-precision'), { target: { value: 'ten' } });
    expect(screen.getByTestId('start-reason').textContent).toBe('Precision must be a number (a percentage), or off.');
    fireEvent.input(input('setting-precision'), { target: { value: '5' } });
    fireEvent.input(input('setting-budget'), { target: { value: '0' } });
    await waitFor(() => expect(screen.getByTestId('start-reason').textContent).toBe('--budget must be from 1 to 604800 s, got 0'));
    fireEvent.input(input('setting-budget'), { target: { value: '2.5' } });
    expect(screen.getByTestId('start-reason').textContent).toBe('The budget must be a whole number of seconds.');
    fireEvent.input(input('setting-budget'), { target: { value: '480' } });
    // A sweep, one setting a line; core expands and checks it when the run is planned.
    fireEvent.input(screen.getByTestId('setting-sweep'), { target: { value: 'wasmtime.cow=on,off\n\n wasmtime.opt-level=none ' } });
    expect(screen.queryByTestId('start-reason')).toBeNull();
    fireEvent.click(screen.getByTestId('start-run'));

    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_run')).toBe(true));
    const sent = calls.find((c) => c.cmd === 'start_run')!.payload;
    expect(sent.suite).toBe('compute');
    expect(Object.keys(sent).sort()).toEqual(['choices', 'on_event', 'suite']);
    const settings = sent.choices as RunChoices;
    expect(settings).toEqual({
      // In suite order, whatever the order of the clicks.
      tests: ['sha256', 'crc32'],
      runtimes: ['native', 'wasmtime'],
      warmup: 2,
      runs: 3,
      invocations: 2,
      order: 'interleaved',
      // Not touched, so not sent: the timeout, memory cap and sampling are core's.
      size: 'full',
      baseline: 'native',
      skip_missing: false,
      settings: ['wasmtime.cow=on,off', 'wasmtime.opt-level=none'],
      yes: false,
      precision_off: false,
      label: 'my label',
      seed: 7,
      measure: 'instructions',
      pair: ['native', 'wasmtime'],
      pair_mode: 'processes',
      precision: { pct: 5, budget_secs: 480 },
    });

    // Now on the live screen.
    const state = screen.getByTestId('run-state');
    expect(state.closest('[hidden]')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('run-state').dataset.state).toBe('running'));
    expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(true);

    // Core's reduction of a run's events (ui-desktop/tests/all/live_batches.rs): two
    // invocations a cell, interleaved: native's first, wasmtime's first, then the second of
    // each; a cell is done only after its last.
    const [first, second, third, last] = interleaved as LiveBatch[];
    const send = (batch: LiveBatch) => act(() => channel!.onmessage(batch));
    await send(first!);
    await waitFor(() => expect(screen.getByTestId('cell-position').textContent).toBe('cell 1 of 2 · invocation 1 of 2'));
    const rows = () => screen.getAllByTestId('cell-row');
    const statuses = () => screen.getAllByTestId('cell-status').map((s) => s.textContent);
    expect(rows().map((r) => r.dataset.status)).toEqual(['running', 'pending']);
    expect(statuses()).toEqual(['running 1/2', 'pending']);
    expect(screen.getByTestId('live-cpu')).toBeTruthy();
    expect(screen.getByTestId('live-rss')).toBeTruthy();

    await send(second!);
    await waitFor(() => expect(statuses()).toEqual(['queued 1/2', 'running 1/2']));
    expect(rows().map((r) => r.dataset.status)).toEqual(['queued', 'running']);
    // Between its invocations a cell shows its figure so far, marked interim.
    const interim = screen.getAllByTestId('live-cell').find((c) => c.dataset.runtime === 'native')!;
    expect(interim.dataset.interim).toBe('true');
    expect(interim.querySelector('.value')!.textContent).toBe('≈100.00 ms');
    expect(interim.title).toBe('interim: from 1 of 2 invocations so far');
    expect(screen.getByTestId('live-caption').textContent).toContain('geometric mean over invocations');

    await send(third!);
    await waitFor(() => expect(rows().map((r) => r.dataset.status)).toEqual(['done', 'done']));
    const liveCell = screen.getAllByTestId('live-cell').find((c) => c.dataset.runtime === 'wasmtime' && c.dataset.test === 'sha256')!;
    expect(liveCell.querySelector('.ratio')!.textContent).toBe('1.15×');
    expect(liveCell.querySelector('.value')!.textContent).toBe('116.00 ms');
    expect(liveCell.dataset.interim).toBeUndefined();

    const listsBefore = calls.filter((c) => c.cmd === 'list_runs').length;
    await send(last!);
    await waitFor(() => expect(screen.getByTestId('run-state').dataset.state).toBe('complete'));
    expect(screen.getByTestId('run-state').textContent).toBe('complete');
    expect(screen.queryByTestId('cancel-run')).toBeNull();
    // The saved runs are refreshed, and the new run can be opened.
    expect(calls.filter((c) => c.cmd === 'list_runs').length).toBe(listsBefore + 1);
    fireEvent.click(screen.getByTestId('open-detail'));
    await waitFor(() => expect(calls.some((c) => c.cmd === 'load_run' && c.payload.id === 'run-42')).toBe(true));
  });

  it('shows a failed cell and a refused start', async () => {
    backend({
      start_run: () => {
        throw { code: 'invalid_input', message: "runtime 'wasmtime-cli' is unavailable" };
      },
    });
    await renderReady();
    fireEvent.click(screen.getByTestId('start-run'));
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain("runtime 'wasmtime-cli' is unavailable");
    await waitFor(() => expect(screen.getByTestId('run-state').dataset.state).toBe('error'));
    // A refused start does not lock the setup.
    expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(false);
  });

  it('cancels only after confirmation', async () => {
    let channel: Channel<LiveBatch> | null = null;
    const calls = backend({
      start_run: (p) => {
        channel = p.on_event as Channel<LiveBatch>;
        return null;
      },
    });
    await renderReady();
    fireEvent.click(screen.getByTestId('start-run'));
    await waitFor(() => expect(channel).not.toBeNull());
    // Core's reduction of a run cancelled in its first cell (tests/all/live_batches.rs).
    await act(() => channel!.onmessage(cancelled[0] as LiveBatch));
    fireEvent.click(await screen.findByTestId('cancel-run'));
    fireEvent.click(screen.getByTestId('confirm-no'));
    expect(calls.some((c) => c.cmd === 'cancel_run')).toBe(false);
    fireEvent.click(screen.getByTestId('cancel-run'));
    fireEvent.click(screen.getByTestId('confirm-yes'));
    await waitFor(() => expect(calls.some((c) => c.cmd === 'cancel_run')).toBe(true));
    await act(() => channel!.onmessage(cancelled[1] as LiveBatch));
    await waitFor(() => expect(screen.getByTestId('run-state').dataset.state).toBe('cancelled'));
    expect(screen.getAllByTestId('cell-row')[0]!.dataset.status).toBe('failed');
    expect(screen.getByTestId('cell-failure').textContent).toBe('cancelled');
  });

  it('exports through the dialog and says where the file went', async () => {
    let answer: string | null = '/home/me/run.csv';
    const calls = backend({ export_report: () => answer });
    await renderReady();
    fireEvent.click(screen.getByTestId('nav-runs'));
    await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId('run-row')[1]!);
    fireEvent.click(screen.getByTestId('runs-export'));
    const dialog = screen.getByTestId('export-dialog');
    fireEvent.click(within(dialog).getByTestId('format-csv'));
    fireEvent.click(within(dialog).getByTestId('export-save'));
    await waitFor(() => expect(screen.getByTestId('export-result').textContent).toBe('Saved to /home/me/run.csv'));
    expect(calls.find((c) => c.cmd === 'export_report')!.payload).toEqual({
      runs: ['20261122-035234-compute-4bb8'],
      format: 'csv',
    });
    answer = null;
    fireEvent.click(within(dialog).getByTestId('format-md'));
    fireEvent.click(within(dialog).getByTestId('export-save'));
    await waitFor(() => expect(screen.getByTestId('export-result').textContent).toBe('Export cancelled'));
    expect(calls.filter((c) => c.cmd === 'export_report')[1]!.payload.format).toBe('md');
  });

  it('closes the export dialog on Escape after a save, when the focus came back to the page', async () => {
    backend({ export_report: () => '/home/me/run.html' });
    await renderReady();
    fireEvent.click(screen.getByTestId('nav-runs'));
    await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(3));
    fireEvent.click(screen.getAllByTestId('run-row')[1]!);
    fireEvent.click(screen.getByTestId('runs-export'));
    fireEvent.click(within(screen.getByTestId('export-dialog')).getByTestId('export-save'));
    await waitFor(() => expect(screen.getByTestId('export-result').textContent).toBe('Saved to /home/me/run.html'));
    // The native save dialog took the focus; back in the page it is on the body.
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('export-dialog')).toBeNull();
  });

  it('nav buttons switch screens', async () => {
    backend();
    await renderReady();
    const visible = (id: string) => screen.getByTestId(id).closest('[hidden]') === null;
    expect(visible('start-run')).toBe(true);
    fireEvent.click(screen.getByTestId('nav-runs'));
    expect(visible('runs-list')).toBe(true);
    expect(visible('start-run')).toBe(false);
    fireEvent.click(screen.getByTestId('nav-diff'));
    expect(visible('diff-a')).toBe(true);
    fireEvent.click(screen.getByTestId('nav-live'));
    expect(screen.getByTestId('run-state').dataset.state).toBe('idle');
    fireEvent.click(screen.getByTestId('nav-detail'));
    expect(screen.getByTestId('nav-detail').getAttribute('aria-current')).toBe('page');
  });
});

describe('Saved runs', () => {
  it('reads the list again when it is shown, so a run saved after the last read appears', async () => {
    // The first read has no runs; then the CLI saves some in the same folder.
    let reads = 0;
    backend({ list_runs: () => (reads++ === 0 ? [] : runsFixture) });
    await renderReady();
    await waitFor(() => expect(reads).toBe(1));
    fireEvent.click(screen.getByTestId('nav-runs'));
    await waitFor(() => expect(screen.getAllByTestId('run-row').length).toBe(runsFixture.length));
  });
});

describe('Broken suites', () => {
  it('lists a suite whose manifest does not load as broken, with its error, and picks another', async () => {
    const error = "/s/evil/suite.toml:6: 'source' path '../../etc/passwd' leaves the suite folder";
    const broken = { ...(suitesFixture as SuiteInfo[])[0]!, name: 'evil', description: '', tests: [], error };
    backend({ list_suites: () => [broken, ...(suitesFixture as SuiteInfo[])] });
    await renderReady();
    const select = screen.getByTestId('suite-select') as HTMLSelectElement;
    expect(select.value).toBe('compute');
    const option = Array.from(select.options).find((o) => o.value === 'evil')!;
    expect(option.disabled).toBe(true);
    expect(option.textContent).toBe('evil (broken)');
    expect(option.title).toBe(error);
    expect(screen.getByTestId('broken-suite-evil').textContent).toBe(`Suite evil does not load: ${error}`);
  });
});

describe('global error handlers', () => {
  it('show uncaught errors and unhandled rejections in the banner', async () => {
    const uninstall = installGlobalHandlers(window);
    render(<ErrorBanner />);
    const rejection = Object.assign(new Event('unhandledrejection'), {
      reason: { code: 'io', message: 'results: permission denied' },
    });
    act(() => {
      window.dispatchEvent(rejection);
    });
    expect(screen.getByTestId('error-banner').textContent).toContain('results: permission denied');
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { message: 'x is not a function', error: new TypeError('x is not a function') }));
    });
    expect(screen.getByTestId('error-banner').textContent).toContain('x is not a function');
    uninstall();
  });

  it("leave out the browser's ResizeObserver notice, which resizing a chart raises", () => {
    dismissErrors();
    const uninstall = installGlobalHandlers(window);
    render(<ErrorBanner />);
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }));
      window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop limit exceeded' }));
    });
    expect(currentErrors()).toEqual([]);
    expect(screen.queryByTestId('error-banner')).toBeNull();
    // A real error that happens to mention ResizeObserver is still shown.
    act(() => {
      window.dispatchEvent(
        new ErrorEvent('error', { message: 'ResizeObserver is not defined', error: new ReferenceError('ResizeObserver is not defined') }),
      );
    });
    expect(currentErrors()).toEqual(['ResizeObserver is not defined']);
    uninstall();
    dismissErrors();
  });
});

describe('without the Tauri backend', () => {
  it('explains instead of crashing', async () => {
    vi.resetModules();
    delete (window as unknown as Record<string, unknown>).__TAURI_INTERNALS__;
    document.body.innerHTML = '<div id="app"></div>';
    await import('../main');
    expect(document.querySelector('[data-testid="no-backend"]')!.textContent).toContain('wasmeter desktop');
  });
});
