import { Channel } from '@tauri-apps/api/core';
import { mockIPC } from '@tauri-apps/api/mocks';
import { describe, expect, it } from 'vitest';
import * as api from '../api';
import { batch } from './events';
import policy from './fixtures/policy.json';
import runs from './fixtures/runs.json';
import runtimes from './fixtures/runtimes.json';

type Call = { cmd: string; payload: Record<string, unknown> | undefined };

/** Records every IPC call and answers with `reply(cmd)`. */
function record(reply: (cmd: string, payload?: Record<string, unknown>) => unknown = () => null): Call[] {
  const calls: Call[] = [];
  mockIPC((cmd, payload) => {
    calls.push({ cmd, payload: payload as Record<string, unknown> | undefined });
    return reply(cmd, payload as Record<string, unknown>);
  });
  return calls;
}

const keys = (c: Call) => Object.keys(c.payload ?? {}).sort();

describe('api', () => {
  it('list_runtimes, list_suites and run_policy take no arguments and return the data', async () => {
    const calls = record((cmd) => (cmd === 'list_runtimes' ? runtimes : cmd === 'run_policy' ? policy : []));
    const rts = await api.listRuntimes();
    await api.listSuites();
    const p = await api.runPolicy();
    expect(calls.map((c) => c.cmd)).toEqual(['list_runtimes', 'list_suites', 'run_policy']);
    expect(calls.map(keys)).toEqual([[], [], []]);
    expect(rts.find((r) => r.id === 'wasmer-cli')?.unavailable).toMatch(/not found on PATH/);
    expect(rts.find((r) => r.id === 'native')?.not_applicable).toEqual({
      lifecycle: 'the lifecycle suite drives an engine in-process; native and CLI runtimes have none',
    });
    expect(p).toMatchObject({ threshold_pct: 2, min_invocations: 2, min_values: 3, compare_normalize: 'native' });
    expect(p.formats.map((f) => f.id)).toEqual(['csv', 'html', 'md', 'json', 'folded']);
  });

  it('start_run sends settings and a Channel under onEvent, and delivers batches', async () => {
    let channel: Channel<api.LiveBatch> | null = null;
    const calls = record((cmd, p) => {
      if (cmd === 'start_run') channel = p!.on_event as Channel<api.LiveBatch>;
      return null;
    });
    const batches: api.LiveBatch[] = [];
    const choices: api.RunChoices = {
      tests: ['sha256'],
      runtimes: ['native'],
      runs: 3,
      timeout_secs: 9,
      skip_missing: false,
      settings: [],
      yes: false,
      precision_off: false,
    };
    await api.startRun('compute', choices, (b) => batches.push(b));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.cmd).toBe('start_run');
    // Argument keys as the Rust parameters spell them (the commands take snake_case).
    expect(keys(calls[0]!)).toEqual(['choices', 'on_event', 'suite']);
    expect(calls[0]!.payload!.suite).toBe('compute');
    expect(calls[0]!.payload!.choices).toEqual(choices);
    expect(channel).toBeInstanceOf(Channel);
    const sent = batch([{ type: 'cell_started', index: 0, invocation: 0, beside: false }]);
    channel!.onmessage(sent);
    expect(batches).toEqual([sent]);
  });

  it('start_run rejects with the command error', async () => {
    record(() => {
      throw { code: 'busy', message: 'a run is already in progress; cancel it or wait' };
    });
    await expect(
      api.startRun('compute', { tests: [], runtimes: [], skip_missing: false, settings: [], yes: false, precision_off: false }, () => {}),
    ).rejects.toEqual({
      code: 'busy',
      message: 'a run is already in progress; cancel it or wait',
    });
  });

  it('cancel_run, list_runs, delete_run', async () => {
    const calls = record((cmd) => (cmd === 'cancel_run' ? true : cmd === 'list_runs' ? runs : null));
    expect(await api.cancelRun()).toBe(true);
    const list = await api.listRuns();
    expect(list[0]!.meta).toBeNull();
    await api.deleteRun('20261122-040000-compute-dead');
    expect(calls.map((c) => c.cmd)).toEqual(['cancel_run', 'list_runs', 'delete_run']);
    expect(calls[2]!.payload).toEqual({ id: '20261122-040000-compute-dead' });
  });

  it('load_run sends id, and baseline only when given', async () => {
    const calls = record();
    await api.loadRun('r1');
    await api.loadRun('r1', 'wasmtime');
    expect(calls.map((c) => c.cmd)).toEqual(['load_run', 'load_run']);
    expect(calls[0]!.payload).toEqual({ id: 'r1' });
    expect(calls[1]!.payload).toEqual({ id: 'r1', baseline: 'wasmtime' });
  });

  it('diff_runs sends a, b, threshold_pct and normalize (as the Rust parameters spell them)', async () => {
    const calls = record();
    await api.diffRuns('a1', 'b1', 5);
    await api.diffRuns('a1', 'b1');
    await api.diffRuns('a1', 'b1', undefined, 'native');
    expect(calls[0]).toEqual({ cmd: 'diff_runs', payload: { a: 'a1', b: 'b1', threshold_pct: 5 } });
    expect(calls[1]!.payload).toEqual({ a: 'a1', b: 'b1' });
    expect(calls[2]!.payload).toEqual({ a: 'a1', b: 'b1', normalize: 'native' });
  });

  it('export_report sends runs, format, baseline and threshold_pct; null means cancelled', async () => {
    const calls = record((_cmd, p) => ((p!.format as string) === 'csv' ? null : '/home/me/r.html'));
    expect(await api.exportReport({ runs: ['a', 'b'], format: 'html', threshold_pct: 3 })).toBe('/home/me/r.html');
    expect(await api.exportReport({ runs: ['a'], format: 'csv', baseline: 'native' })).toBeNull();
    expect(calls[0]).toEqual({ cmd: 'export_report', payload: { runs: ['a', 'b'], format: 'html', threshold_pct: 3 } });
    expect(calls[1]).toEqual({ cmd: 'export_report', payload: { runs: ['a'], format: 'csv', baseline: 'native' } });
  });

  it('errorMessage reads command errors, Errors and strings', () => {
    expect(api.errorMessage({ code: 'not_found', message: "no saved run 'x'" })).toBe("no saved run 'x'");
    expect(api.errorMessage(new Error('boom'))).toBe('boom');
    expect(api.errorMessage('plain')).toBe('plain');
    expect(api.isCommandError({ code: 'io' })).toBe(false);
  });
});
