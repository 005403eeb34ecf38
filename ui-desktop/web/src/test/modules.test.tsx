import { mockIPC } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { ModulesRequest, ModulesSuite, RunChoices } from '../api';
import { App } from '../app';
import { addPaths, baseName, modulesRequest, NO_OPTIONS, splitArgs } from '../modules';
import policyFixture from './fixtures/policy.json';
import runsFixture from './fixtures/runs.json';
import runtimesFixture from './fixtures/runtimes.json';
import suitesFixture from './fixtures/suites.json';

describe('splitArgs', () => {
  it('splits as a shell does, quotes and escapes kept together', () => {
    expect(splitArgs('quick  -n 3')).toEqual(['quick', '-n', '3']);
    expect(splitArgs(`say "hi there" 'a "b"' c\\ d "x\\"y" ''`)).toEqual(['say', 'hi there', 'a "b"', 'c d', 'x"y', '']);
    expect(splitArgs('   ')).toEqual([]);
  });

  it('says which quote is open, and refuses a lone backslash', () => {
    expect(splitArgs('say "hi')).toEqual({ error: 'Arguments: a double quote is not closed.' });
    expect(splitArgs("say 'hi")).toEqual({ error: 'Arguments: a single quote is not closed.' });
    expect(splitArgs('end\\')).toEqual({ error: 'Arguments end with a lone backslash.' });
  });
});

describe('modulesRequest', () => {
  const paths = ['/m/crc32.wasm', '/m/more'];

  it('sends every option as the backend takes it, blank ones left out', () => {
    expect(modulesRequest(paths, NO_OPTIONS)).toEqual({ request: { paths, args: [], env: [], dirs: [], native: [] } });
    const o = {
      args: 'quick "a b"',
      env: 'A=1\n\n  B=x=y  \n',
      stdin: ' /data/in.txt ',
      expect: '/data/out.txt',
      dirs: '/data\n/tmp/work::work',
      invoke: ' run ',
      native: 'crc32=/bin/crc32\nmore=./more',
    };
    expect(modulesRequest(paths, o)).toEqual({
      request: {
        paths,
        args: ['quick', 'a b'],
        env: ['A=1', 'B=x=y'],
        stdin: '/data/in.txt',
        expect: '/data/out.txt',
        dirs: ['/data', '/tmp/work::work'],
        invoke: 'run',
        native: ['crc32=/bin/crc32', 'more=./more'],
      },
    });
    // One native build beside one module needs no test name.
    expect(modulesRequest(['/m/crc32.wasm'], { ...NO_OPTIONS, native: 'crc32-native' })).toEqual({
      request: { paths: ['/m/crc32.wasm'], args: [], env: [], dirs: [], native: ['crc32-native'] },
    });
  });

  it('says in one line what is wrong', () => {
    const bad = (o: Partial<typeof NO_OPTIONS>) => modulesRequest(paths, { ...NO_OPTIONS, ...o });
    expect(modulesRequest([], NO_OPTIONS)).toEqual({ error: 'Add a .wasm module or a folder of them.' });
    expect(bad({ args: '"open' })).toEqual({ error: 'Arguments: a double quote is not closed.' });
    expect(bad({ env: 'A=1\nGREETING' })).toEqual({ error: "Environment: 'GREETING' is not KEY=VALUE." });
    expect(bad({ env: '=x' })).toEqual({ error: "Environment: '=x' is not KEY=VALUE." });
    expect(bad({ dirs: 'data' })).toEqual({ error: "Folders: 'data' is not HOST[::GUEST] with an absolute HOST." });
    expect(bad({ dirs: '/data::' })).toEqual({ error: "Folders: '/data::' is not HOST[::GUEST] with an absolute HOST." });
    expect(bad({ stdin: 'in.txt' })).toEqual({ error: "Stdin: 'in.txt' is not an absolute path." });
    expect(bad({ expect: 'out.txt' })).toEqual({ error: "Expected output: 'out.txt' is not an absolute path." });
    expect(bad({ invoke: 'run twice' })).toEqual({ error: "Invoke: 'run twice' is not a function name (no spaces)." });
    expect(bad({ native: '/bin/a\n/bin/b' })).toEqual({ error: 'Native: several builds are TEST=PROGRAM, one a line.' });
  });

  it('adds each path once and names it by its last part', () => {
    expect(addPaths(['/a.wasm'], ['/b.wasm', '/a.wasm', '/c'])).toEqual(['/a.wasm', '/b.wasm', '/c']);
    expect(baseName('/m/more/')).toBe('more');
    expect(baseName('/m/crc32.wasm')).toBe('crc32.wasm');
  });
});

/** What core answers for one module: crc32, which native cannot run without a native build. */
const checked: ModulesSuite = {
  name: 'modules',
  description: 'modules given to wasmeter run',
  kind: 'command',
  defaults: suitesFixture[0]!.defaults as ModulesSuite['defaults'],
  tests: [{ name: 'crc32', description: '/m/crc32.wasm (23456 bytes)', tags: [] }],
  not_applicable: { native: 'no native build of these modules (give one with --native)', 'wasmtime-pooling-nocow': 'lifecycle only' },
};

type Handler = (payload: Record<string, unknown>) => unknown;

function backend(over: Record<string, Handler> = {}) {
  const calls: { cmd: string; payload: Record<string, unknown> }[] = [];
  const base: Record<string, Handler> = {
    list_runtimes: () => runtimesFixture,
    list_suites: () => suitesFixture,
    run_policy: () => policyFixture,
    list_runs: () => runsFixture,
    pick_paths: () => ['/m/crc32.wasm'],
    check_modules: () => checked,
    start_modules_run: () => null,
    cancel_run: () => true,
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
const start = () => screen.getByTestId('start-run') as HTMLButtonElement;

async function withModule() {
  render(<App />);
  await waitFor(() => expect(input('runtime-wasmtime').checked).toBe(true));
  fireEvent.click(screen.getByTestId('add-modules'));
  // The modules' tests replace the compute suite's (which has a crc32 too).
  await waitFor(() => expect(screen.queryByTestId('test-sha256')).toBeNull());
  await waitFor(() => expect(input('test-crc32').checked).toBe(true));
  await waitFor(() => expect(start().disabled).toBe(false));
}

describe('Modules in the setup', () => {
  it('adds modules with the open-file dialog and lists them as the suite modules, with core’s runtimes', async () => {
    const calls = backend();
    await withModule();
    expect(calls.find((c) => c.cmd === 'pick_paths')!.payload).toEqual({ what: 'modules' });
    expect(screen.getByTestId('module-list').textContent).toContain('crc32.wasm');
    expect((screen.getByTestId('suite-select') as HTMLSelectElement).value).toBe('modules');
    expect(calls.find((c) => c.cmd === 'check_modules')!.payload).toEqual({
      modules: { paths: ['/m/crc32.wasm'], args: [], env: [], dirs: [], native: [] },
    });
    // Native cannot run modules without a native build: disabled with core's reason.
    expect(input('runtime-native').disabled).toBe(true);
    expect(screen.getByTestId('na-native').textContent).toBe('no native build of these modules (give one with --native)');
    expect((screen.getByTestId('setting-baseline') as HTMLSelectElement).value).toBe('wasmtime');
  });

  it('blocks starting on a bad option with one line, then sends the modules and their options', async () => {
    const calls = backend();
    await withModule();
    fireEvent.input(screen.getByTestId('module-env'), { target: { value: 'GREETING' } });
    await waitFor(() => expect(screen.getByTestId('modules-error').textContent).toBe("Environment: 'GREETING' is not KEY=VALUE."));
    expect(start().disabled).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe("Environment: 'GREETING' is not KEY=VALUE.");

    fireEvent.input(screen.getByTestId('module-env'), { target: { value: 'GREETING=hi there' } });
    fireEvent.input(screen.getByTestId('module-args'), { target: { value: 'quick' } });
    fireEvent.input(screen.getByTestId('module-invoke'), { target: { value: 'main' } });
    await waitFor(() => expect(start().disabled).toBe(false));
    expect(screen.queryByTestId('modules-error')).toBeNull();
    fireEvent.click(start());
    await waitFor(() => expect(calls.some((c) => c.cmd === 'start_modules_run')).toBe(true));
    const sent = calls.find((c) => c.cmd === 'start_modules_run')!.payload;
    expect(sent.modules as ModulesRequest).toEqual({
      paths: ['/m/crc32.wasm'],
      args: ['quick'],
      env: ['GREETING=hi there'],
      dirs: [],
      invoke: 'main',
      native: [],
    });
    const settings = sent.choices as RunChoices;
    expect(settings.tests).toEqual([]);
    expect(settings.runtimes).toEqual([
      'wasmtime',
      'wasmtime-pooling',
      'wasmtime-winch',
      'wasmtime-o0',
      'wasmer-cranelift',
      'wasmer-singlepass',
    ]);
    expect(settings.baseline).toBe('wasmtime');
    expect(calls.some((c) => c.cmd === 'start_run')).toBe(false);
  });

  it('shows the backend’s one-line error for a path or value only the machine can check, and blocks starting', async () => {
    backend({
      check_modules: (p) => {
        const m = p.modules as ModulesRequest;
        if (m.dirs.length > 0) throw { code: 'invalid_input', message: '/nodir: No such file or directory (os error 2)' };
        return checked;
      },
    });
    await withModule();
    fireEvent.input(screen.getByTestId('module-dirs'), { target: { value: '/nodir' } });
    await waitFor(() => expect(screen.getByTestId('modules-error').textContent).toBe('/nodir: No such file or directory (os error 2)'));
    expect(start().disabled).toBe(true);
    fireEvent.input(screen.getByTestId('module-dirs'), { target: { value: '' } });
    await waitFor(() => expect(start().disabled).toBe(false));
  });

  it('removes a module; without modules the setup goes back to the suites', async () => {
    backend();
    await withModule();
    fireEvent.click(screen.getByTestId('remove-module-crc32.wasm'));
    expect(screen.queryByTestId('module-list')).toBeNull();
    expect(screen.queryByTestId('module-options')).toBeNull();
    expect((screen.getByTestId('suite-select') as HTMLSelectElement).value).toBe('compute');
    await waitFor(() => expect(input('test-sha256').checked).toBe(true));
    expect(input('runtime-native').disabled).toBe(false);
  });

  it('adds a folder and picks option files with the dialog', async () => {
    const calls = backend({
      pick_paths: (p) => (p.what === 'folder' ? ['/m/more'] : p.what === 'file' ? ['/data/in.txt'] : ['/m/crc32.wasm']),
    });
    await withModule();
    fireEvent.click(screen.getByTestId('add-module-folder'));
    await waitFor(() => expect(screen.getByTestId('module-list').textContent).toContain('more'));
    fireEvent.click(screen.getByTestId('browse-stdin'));
    await waitFor(() => expect(input('module-stdin').value).toBe('/data/in.txt'));
    await waitFor(() =>
      expect(calls.filter((c) => c.cmd === 'check_modules').at(-1)!.payload.modules).toEqual({
        paths: ['/m/crc32.wasm', '/m/more'],
        args: [],
        env: [],
        stdin: '/data/in.txt',
        dirs: [],
        native: [],
      }),
    );
  });
});
