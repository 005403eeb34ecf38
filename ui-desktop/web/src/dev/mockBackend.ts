/**
 * Development only: a stand-in backend built from the test fixtures, so the page can be
 * looked at in a plain browser (`npm run dev`, open /?mock). A run is a replay of core's
 * views of one, with timers. Never part of the production bundle (main.tsx imports it under DEV only).
 */
import type { Channel } from '@tauri-apps/api/core';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { LiveBatch, RunEvent, RunListItem, RunMeta, SuiteInfo } from '../api';
import compare from '../test/fixtures/compare.json';
import diff from '../test/fixtures/diff.json';
import historyFixture from '../test/fixtures/history.json';
import http from '../test/fixtures/http.json';
import lifecycle from '../test/fixtures/lifecycle.json';
import policy from '../test/fixtures/policy.json';
import run from '../test/fixtures/run.json';
import runs from '../test/fixtures/runs.json';
import runtimes from '../test/fixtures/runtimes.json';
import suites from '../test/fixtures/suites.json';
import interleaved from '../test/live/interleaved.json';

/**
 * A run as core reduces one (the page tests' replay, written by
 * ui-desktop/tests/all/live_batches.rs), played back batch by batch with resource samples
 * between them: whatever was chosen, the page shows core's views of that run.
 */
function simulate(ch: Channel<LiveBatch>): void {
  const batches = interleaved as LiveBatch[];
  let t = 0;
  let step = 0;
  const tick = () => {
    const b = batches[Math.floor(step / 10)]!;
    t += 100;
    const sample: RunEvent = {
      type: 'sample',
      sample: { t_ms: t, runtime: 'native', test: 'sha256', cpu_pct: 60 + Math.random() * 40, rss_bytes: 2e7 + Math.random() * 5e6 },
    };
    // Each batch once, then samples under its view.
    ch.onmessage(step % 10 === 0 ? b : { events: [sample], view: { ...b.view, cells: [] } });
    step++;
    if (step < batches.length * 10 - 9) setTimeout(tick, 100);
  };
  setTimeout(tick, 100);
}

/** The catalog's suites. */
function allSuites(): SuiteInfo[] {
  return suites as SuiteInfo[];
}

/** The saved runs, with the lifecycle and HTTP runs of their fixtures listed last. */
function savedRuns(): RunListItem[] {
  const { summary: _s, distributions: _d, samples: _x, heap_series: _h, ...meta } = lifecycle.runs[0]!;
  const { summary: _hs, distributions: _hd, samples: _hx, http: _hh, ...httpMeta } = http.runs[0]!;
  return [
    ...(runs as RunListItem[]),
    { id: meta.id, meta: meta as unknown as RunMeta, error: null },
    { id: httpMeta.id, meta: httpMeta as unknown as RunMeta, error: null },
  ];
}

export function installMockBackend(): void {
  mockIPC((cmd, payload) => {
    const p = (payload ?? {}) as Record<string, unknown>;
    switch (cmd) {
      case 'list_runtimes':
        return runtimes;
      case 'list_suites':
        return allSuites();
      case 'run_policy':
        return policy;
      case 'list_runs':
        return savedRuns();
      case 'load_run':
        return p.id === lifecycle.runs[0]!.id ? lifecycle : p.id === http.runs[0]!.id ? http : run;
      case 'plan_scope':
        return {
          text: 'no earlier run of this suite on this machine to estimate its time (the page runs without the app)',
          confirm: false,
        };
      case 'diff_runs':
        return diff;
      case 'diff_runtimes':
        // The fixture's diff under the two runtimes asked for.
        return { diff: { ...diff.diff!, a: `${p.id}:${p.a}`, b: `${p.id}:${p.b}`, paired: true }, diff_headline: diff.diff_headline ?? '' };
      case 'compare_runs': {
        // The fixture's figures under the runs asked for (its third run is not in the list).
        const ids = p.runs as string[];
        if (ids.length < 2) throw { code: 'invalid_input', message: `compare takes at least two runs, ${ids.length} given` };
        const columns = ids.map((id, i) => ({ ...compare.columns[i % compare.columns.length]!, title: id, run: id }));
        const cells = compare.tests.flatMap((test) =>
          compare.runtimes.flatMap((runtime) =>
            ids.map((_, column) => ({
              ...compare.cells.find((c) => c.test === test && c.runtime === runtime && c.column === column % compare.columns.length)!,
              column,
            })),
          ),
        );
        const geomeans = compare.geomeans.map(([rt, per]) => [rt, ids.map((_, i) => per[i % per.length])]);
        return { ...compare, columns, cells, geomeans };
      }
      case 'history': {
        // The fixture's two machines as the cell asked for (its own is scale · t001 · rt001).
        const m = p.machine as string | undefined;
        const series = historyFixture.series
          .filter((s) => !m || s.machine.startsWith(m))
          .map((s) => ({
            ...s,
            suite: (p.suite as string) ?? s.suite,
            test: (p.test as string) ?? s.test,
            runtime: (p.runtime as string) ?? s.runtime,
          }));
        return { ...historyFixture, series };
      }
      case 'start_run':
        simulate(p.on_event as Channel<LiveBatch>);
        return null;
      case 'pick_paths':
        return p.what === 'modules'
          ? ['/home/me/wasm/crc32.wasm', '/home/me/wasm/fib.wasm']
          : p.what === 'folder'
            ? ['/home/me/data']
            : ['/home/me/in.txt'];
      case 'check_modules': {
        const m = p.modules as { paths: string[] };
        return {
          name: 'modules',
          description: 'modules given to wasmeter run',
          kind: 'command',
          defaults: allSuites()[0]!.defaults,
          tests: m.paths.map((path) => ({
            name: path
              .split('/')
              .pop()!
              .replace(/\.wasm$/, ''),
            description: path,
            tags: [],
          })),
          not_applicable: { native: 'no native build of these modules (give one with --native)' },
        };
      }
      case 'start_modules_run':
        simulate(p.on_event as Channel<LiveBatch>);
        return null;
      case 'cancel_run':
        return true;
      case 'delete_run':
        throw { code: 'busy', message: 'the mock backend does not delete runs' };
      case 'export_report':
        return `/tmp/${(p.runs as string[]).join('-vs-')}.${String(p.format)}`;
      default:
        throw { code: 'invalid_input', message: `unknown command ${cmd}` };
    }
  });
}

/**
 * `?mock&demo=live|runs|detail|lifecycle|http|diff|compare|export|modules|history`: drives the page to a screen by clicking what a
 * person would, for screenshots of each screen in a headless browser.
 */
export function runDemo(demo: string): void {
  const click = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.click();
  const later = (ms: number, fn: () => void) => setTimeout(fn, ms);
  later(300, () => {
    if (demo === 'modules') return click('add-modules');
    if (demo === 'live') click('start-run');
    if (demo !== 'live') click('nav-runs');
    later(300, () => {
      const rows = document.querySelectorAll<HTMLElement>('[data-testid="run-row"]');
      if (demo === 'history') {
        rows[1]?.click();
        later(100, () => click('runs-open'));
        later(400, () => {
          document.querySelector<HTMLElement>('[data-testid="matrix-cell"][data-runtime="wasmtime"]')?.click();
          later(100, () => click('detail-history'));
        });
      }
      // The saved run each of these demos opens: a command run, the lifecycle run, the HTTP run.
      const opens: Record<string, number> = { detail: 1, lifecycle: rows.length - 2, http: rows.length - 1 };
      const row = opens[demo];
      if (row !== undefined) {
        rows[row]?.click();
        later(100, () => click('runs-open'));
      }
      if (demo === 'export') {
        rows[1]?.click();
        later(100, () => click('runs-export'));
        later(200, () => click('export-save'));
      }
      if (demo === 'diff') {
        rows[1]?.click();
        later(100, () => rows[2]?.click());
        later(200, () => click('runs-diff'));
      }
      if (demo === 'compare') {
        rows[1]?.click();
        later(100, () => rows[2]?.click());
        later(200, () => click('runs-compare'));
      }
    });
  });
}
