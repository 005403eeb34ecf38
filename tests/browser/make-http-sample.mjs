// Writes assets/report/sample-http.json: two made-up runs of the gateway suite (B, A) with
// realistic HTTP figures (one failed cell, a hostile test name and label) and their diff;
// each cell ran in RUNS fresh server processes (invocations) of one iteration each.
//   node tests/browser/make-http-sample.mjs assets/report/sample-http.json
import { writeFileSync } from 'node:fs';
let seed = 7;
const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 4294967296; };
const jit = (v, f) => v * (1 + (rnd() - 0.5) * 2 * f);
const round = (v) => Math.round(v);
function stats(vals) {
  const v = vals.slice().sort((a, b) => a - b), n = v.length;
  const q = (p) => { const i = (n - 1) * p, a = Math.floor(i), b = Math.ceil(i); return v[a] + (v[b] - v[a]) * (i - a); };
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const med = q(0.5);
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const mad = q.call(null, 0.5) && (() => { const d = v.map((x) => Math.abs(x - med)).sort((a, b) => a - b); return d[Math.floor((n - 1) / 2)]; })();
  const r = (x) => Math.round(x * 10) / 10;
  return { n, min: r(v[0]), max: r(v[n - 1]), median: r(med), mean: r(mean), stddev: r(sd), mad: r(mad), p90: r(q(0.9)), p99: r(q(0.99)), ci_low: r(v[0]), ci_high: r(v[n - 1]) };
}
const LEVELS = [1, 10, 50, 100];
// variant: cold ms, p50/p90/p99 µs, rps per level, rss MiB, cpu ms per 1k
const PROFILE = {
  native: { cold: 1.9, lat: [41, 52, 90], rps: [14500, 19800, 21000, 20400], rss: 5, cpu: 92 },
  'wasmtime-pooling': { cold: 14, lat: [72, 95, 160], rps: [9800, 11200, 11600, 11300], rss: 38, cpu: 168 },
  'wasmer-cranelift': { cold: 31, lat: [290, 350, 610], rps: [2900, 3100, 3150, 3050], rss: 62, cpu: 640 },
  'wasmtime-cli': { cold: 24, lat: [9600, 11800, 18000], rps: [98, 105, 104, 101], rss: 44, cpu: 10400 },
  node: { cold: 61, lat: [16200, 19100, 27400], rps: [58, 62, 61, 60], rss: 118, cpu: 31500 },
};
const TESTS = { hello: 1, compute: 0.28, 'state <i>&amp;</i>': 0.93 };
const RUNTIMES = [
  { id: 'native', kind: 'native', version: '19.1.7', config: "gateway host with the guest built natively by 'clang-19' -O2", unavailable: null, command: null },
  { id: 'wasmtime-pooling', kind: 'embedded', version: '39.0.1', config: 'wasmtime, pooling allocator, a fresh instance per request', unavailable: null, command: null },
  { id: 'wasmer-cranelift', kind: 'embedded', version: '6.1.0', config: 'wasmer, cranelift, a fresh instance per request', unavailable: null, command: null },
  { id: 'wasmtime-cli', kind: 'cli', version: '49.0.3', config: 'wasmtime run, spawned per request — <img src=x onerror="window.__pwned=1">', unavailable: null, command: { run: ['/opt/wasmtime/bin/wasmtime', 'run', '{wasm}'], precompile: null } },
  { id: 'node', kind: 'cli', version: '20.19.2', config: 'node wasi wrapper, spawned per request', unavailable: null, command: { run: ['node', 'assets/wasi-run.mjs', '{wasm}'], precompile: null } },
];
const FAILED = { runtime: 'node', test: 'compute', why: 'no request succeeded at 10 connections: the server answered 502 Bad Gateway (guest exited with status 134: RangeError: Maximum call stack size exceeded)' };
const RUNS = 3;

function makeRun(id, label, started, speed) {
  const http = [], cells = [], dists = [], samples = [];
  let t = 0;
  for (const [test, tf] of Object.entries(TESTS)) {
    let baseBest = null;
    const testCells = [];
    for (const rt of RUNTIMES) {
      const p = PROFILE[rt.id];
      const failed = FAILED.runtime === rt.id && FAILED.test === test;
      const cellStart = t;
      t += 9000 * RUNS;
      if (failed) {
        testCells.push({ runtime: rt.id, test, cold_start: null, p50_ns: null, p90_ns: null, p99_ns: null, levels: [], best: null, best_vs_baseline: null, peak_rss_kib: null, failure: FAILED.why });
        cells.push({ runtime: rt.id, test, source: 'wall', primary_phase: 'latency', stats: null, relative: null, relative_low: null, relative_high: null, startup_ns: null, phases: {}, phase_stats: {}, failure: FAILED.why, invocations: 0, partial: false, halfwidth_pct: null });
        dists.push({ runtime: rt.id, test, values: [] });
        continue;
      }
      const slow = (1 / tf) * speed;
      const cold = Array.from({ length: RUNS }, () => round(jit(p.cold * 1e6, 0.15)));
      const lat = p.lat.map((v) => round(v * 1000 * (rt.kind === 'cli' ? 1 + (slow - 1) * 0.1 : slow)));
      const p50s = Array.from({ length: RUNS }, () => round(jit(lat[0], 0.05)));
      const levels = LEVELS.map((c, i) => {
        const base = p.rps[i] / (rt.kind === 'cli' ? 1 + (slow - 1) * 0.1 : slow);
        const rps = stats(Array.from({ length: RUNS }, () => jit(base, 0.04)));
        const perReq = 1e9 / rps.median;
        return {
          connections: c, rps,
          p50_ns: round(Math.max(lat[0], perReq * c * 0.9)), p99_ns: round(Math.max(lat[2], perReq * c * 2.1)),
          cpu_ns_per_1k: round(jit(p.cpu * 1e6 * (rt.kind === 'cli' ? 1 : slow), 0.05)),
          rss_bytes: round(jit(p.rss * 1048576 * (1 + i * 0.08), 0.03)),
          errors: rt.id === 'node' && c === 100 ? 12 : 0,
        };
      });
      let best = null;
      for (const l of levels) if (!best || l.rps.median > best[1]) best = [l.connections, l.rps.median];
      if (rt.id === 'native') baseBest = best[1];
      const peak = Math.max(...levels.map((l) => l.rss_bytes)) / 1024;
      testCells.push({
        runtime: rt.id, test, cold_start: stats(cold), p50_ns: stats(p50s).median, p90_ns: lat[1], p99_ns: lat[2], levels, best,
        best_vs_baseline: null, peak_rss_kib: Math.round(peak), failure: null,
      });
      const phases = { cold_start: stats(cold).median, latency: stats(p50s).median };
      for (const l of levels) phases[`throughput_c${l.connections}`] = l.p50_ns;
      const st = stats(p50s);
      const halfwidth_pct = Math.round((50 * (st.ci_high - st.ci_low) / st.median) * 100) / 100;
      cells.push({ runtime: rt.id, test, source: 'wall', primary_phase: 'latency', stats: st, relative: null, relative_low: null, relative_high: null, startup_ns: null, phases, phase_stats: { cold_start: stats(cold), latency: stats(p50s) }, failure: null, invocations: RUNS, partial: false, halfwidth_pct });
      dists.push({ runtime: rt.id, test, values: p50s });
      for (let k = 0; k * 1000 < 9000 * RUNS; k += 3) {
        const ph = (k * 1000) % 9000;
        const busy = ph > 2000;
        samples.push({ t_ms: cellStart + k * 1000 + 100, runtime: rt.id, test, cpu_pct: Math.round(jit(busy ? 180 : 35, 0.1) * 10) / 10, rss_bytes: round(jit(p.rss * 1048576 * (busy ? 1.1 : 0.8), 0.04)) });
      }
    }
    for (const c of testCells) c.best_vs_baseline = c.best && baseBest ? Math.round((c.best[1] / baseBest) * 10000) / 10000 : null;
    http.push(...testCells);
  }
  // relative latency to native
  for (const c of cells) {
    const b = cells.find((x) => x.runtime === 'native' && x.test === c.test);
    if (c.stats && b && b.stats) {
      c.relative = Math.round((c.stats.median / b.stats.median) * 1000) / 1000;
      c.relative_low = Math.round((c.stats.ci_low / b.stats.ci_high) * 1000) / 1000;
      c.relative_high = Math.round((c.stats.ci_high / b.stats.ci_low) * 1000) / 1000;
    }
  }
  const per_runtime = RUNTIMES.map((rt) => {
    const rel = cells.filter((c) => c.runtime === rt.id && c.relative);
    const g = rel.length ? Math.exp(rel.reduce((a, c) => a + Math.log(c.relative), 0) / rel.length) : null;
    return { runtime: rt.id, geomean_relative: g && Math.round(g * 1000) / 1000, tests_compared: rel.length, tests_total: Object.keys(TESTS).length, failed: cells.filter((c) => c.runtime === rt.id && c.failure).length };
  });
  return {
    schema_version: 3, id, label, suite: 'gateway', suite_kind: 'gateway',
    tests: Object.keys(TESTS).map((name, i) => ({ name, source_hash: ['9f2c41d07a1e8b33', '9f2c41d07a1e8b33', '9f2c41d07a1e8b33'][i] })),
    runtimes: RUNTIMES, not_applicable: [],
    settings: { warmup: 0, runs: 1, invocations: RUNS, order: 'interleaved', seed: started, timeout_secs: 120, memory_cap_bytes: 4294967296, sample_interval_ms: 100, size: 'quick', baseline: 'native',
      http: { levels: LEVELS, duration_ms: 2000, latency_ms: 1000, server_threads: 2, client_threads: 2, cli_inflight: 8, ready_timeout_ms: 20000 } },
    machine: { cpu_model: 'AMD EPYC 7B13', cores: 2, os: 'Debian GNU/Linux 13 (trixie)', kernel: '6.18.0', governor: null, memory_bytes: 25276510208, arch: 'x86_64', fingerprint: '5cfc1b07a2abd8e5' },
    wasmeter_version: '0.1.0', started_unix: started, finished_unix: started + t / 1000, status: 'complete', pid: 41177,
    summary: { run_id: id, baseline: 'native', tests: Object.keys(TESTS), runtimes: RUNTIMES.map((r) => r.id), cells, per_runtime },
    distributions: dists, samples, http,
  };
}
const B = makeRun('20261201-093012-gateway-7c1e', '<script>alert(1)</script> gateway after', 1796117412, 1);
const A = makeRun('20261124-181544-gateway-20b9', 'gateway before', 1795500944, 1.12);
A.samples = [];
const rows = [];
for (const cb of B.http) {
  const ca = A.http.find((x) => x.runtime === cb.runtime && x.test === cb.test);
  if (!ca || cb.failure || ca.failure) continue;
  const add = (phase, a, b) => {
    const ratio = b / a, lo = ratio * 0.97, hi = ratio * 1.03;
    const verdict = hi < 0.98 ? 'faster' : lo > 1.02 ? 'slower' : 'no change';
    rows.push({ runtime: cb.runtime, test: cb.test, phase, a_median: Math.round(a), b_median: Math.round(b), ratio: Math.round(ratio * 1000) / 1000, ci_low: Math.round(lo * 1000) / 1000, ci_high: Math.round(hi * 1000) / 1000,
      halfwidth_pct: 3, p_adjusted: verdict === 'no change' ? 0.41 : 0.004, verdict, n: [RUNS, RUNS], invocations: [RUNS, RUNS] });
  };
  add('latency', ca.p50_ns, cb.p50_ns);
  const la = ca.levels.find((l) => l.connections === 50), lb = cb.levels.find((l) => l.connections === 50);
  add('throughput_c50', 1e9 / la.rps.median, 1e9 / lb.rps.median);
}
const report = {
  title: 'wasmeter report', generated_by: 'wasmeter 0.1.0', runs: [B, A],
  diff: { a: A.id, b: B.id, threshold_pct: 2, normalize: null, alpha: 0.05, warnings: [], rows, only_a: [], only_b: [{ runtime: 'node', test: 'compute', phase: 'latency' }] },
};
writeFileSync(process.argv[2], JSON.stringify(report, null, 1) + '\n');
