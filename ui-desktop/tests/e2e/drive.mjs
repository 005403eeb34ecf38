// Drives the real desktop app through tauri-driver (WebDriver over loopback) with nothing
// but fetch: launch, pick a quick real run, watch it finish, find it saved, open its
// detail and the diff screen, then (MODE=test) a short gateway run, whose cells the app's
// own binary serves; take screenshots. Prints one JSON line of measurements.
//
// env: DRIVER (http://127.0.0.1:PORT), APP (binary), SCREENS (dir), MODE (test|bench|scale|live-scale|screens)
// MODE=scale opens the first saved run instead (scripts/bench-desktop gives it a run of
// 10,000 cells): time until its matrix is drawn, frame intervals while it scrolls, time to
// go back to the list.
// MODE=live-scale starts a run in the app built from examples/scale_live.rs (a stand-in plan
// of 10,000 cells whatever the page picks) and, while it runs, scrolls the page every frame,
// records frame intervals and how long a WebDriver script takes to get the page's answer
// (its main thread's responsiveness), then opens the finished run; SCROLL=0 leaves the
// page still.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const DRIVER = process.env.DRIVER;
const APP = process.env.APP;
const SCREENS = process.env.SCREENS;
const MODE = process.env.MODE ?? "test";
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf"; // W3C WebDriver element key

async function wd(method, path, body, timeoutMs = 60000) {
  const res = await fetch(DRIVER + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((e) => {
    throw new Error(`${method} ${path}: ${e.message}`);
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const v = json.value ?? {};
    throw new Error(`${method} ${path}: ${res.status} ${v.error ?? ""} ${v.message ?? ""}`);
  }
  return json.value;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeoutMs) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ""}`);
}

let sid;
const step = (what) => console.error(`e2e: ${what}`);
const js = (script, ...args) => wd("POST", `/session/${sid}/execute/sync`, { script, args });
async function find(css) {
  const v = await wd("POST", `/session/${sid}/element`, { using: "css selector", value: css });
  const id = v?.[ELEMENT];
  if (!id) throw new Error(`no element for ${css}: ${JSON.stringify(v)}`);
  return id;
}
// WebKit's driver scrolls the page, not a nested scroll box (the runtime lists), to an
// element: bring it into view first.
const click = async (css) => {
  await js("document.querySelector(arguments[0]).scrollIntoView({ block: 'center' })", css);
  return wd("POST", `/session/${sid}/element/${await find(css)}/click`, {});
};
const count = (css) => js("return document.querySelectorAll(arguments[0]).length", css);
const banner = () => js("const b = document.querySelector('[data-testid=error-banner]'); return b ? b.textContent : null");

// Snapshots can stall in WebKitGTK under Xvfb (always with WEBKIT_DISABLE_COMPOSITING_MODE,
// which the test therefore does not set); a short timeout and a retry after a forced
// repaint gets past the occasional stall.
async function shot(name) {
  if (!SCREENS) return;
  mkdirSync(SCREENS, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    try {
      const png = await wd("GET", `/session/${sid}/screenshot`, undefined, 15000);
      writeFileSync(join(SCREENS, `${name}.png`), Buffer.from(png, "base64"));
      return;
    } catch (e) {
      step(`screenshot ${name} attempt ${attempt}: ${e.message}`);
      if (attempt === 3) throw e;
      await js("document.body.style.opacity = '0.999'; requestAnimationFrame(() => document.body.style.opacity = '')").catch(() => {});
      await sleep(500);
    }
  }
}

async function setInput(css, value) {
  await js(
    `const el = document.querySelector(arguments[0]);
     const proto = el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
     Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, arguments[1]);
     el.dispatchEvent(new Event('input', { bubbles: true }));
     el.dispatchEvent(new Event('change', { bubbles: true }));`,
    css,
    String(value),
  );
}

async function setChecked(css, on) {
  const checked = await js("return document.querySelector(arguments[0]).checked", css);
  if (checked !== on) await click(css);
}

/** Frame intervals (or any timings, ms) as count, percentiles and maximum, to 0.1 ms. */
const stats = (f) => {
  f = [...f].sort((a, b) => a - b);
  const at = (q) => Math.round(f[Math.min(f.length - 1, Math.floor(f.length * q))] * 10) / 10;
  return { n: f.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
};

/** A big saved run: open it, scroll its matrix, go back to the list. */
async function scale() {
  await click("[data-testid=nav-runs]");
  const runId = await until("a saved run in the list", () => js("const r = document.querySelector('[data-testid=run-row]:not([data-broken=true])'); return r ? r.dataset.runId : null"), 20000);
  out.run_id = runId;
  await click(`[data-testid=run-row][data-run-id="${runId}"] input[type=checkbox]`);
  let t = performance.now();
  await click("[data-testid=runs-open]");
  // The matrix is windowed: the cells drawn are those in view, not all 10,000.
  out.cells_drawn = await until("the detail matrix", async () => {
    const n = await count("[data-testid=detail-matrix] [data-testid=matrix-cell]");
    return n >= 100 ? n : null;
  }, 120000);
  out.open_ms = Math.round(performance.now() - t);
  await shot("scale-detail");
  // Scroll the page's scrolling element over 3 s while counting animation frames.
  const scrolled = await wd("POST", `/session/${sid}/execute/async`, {
    script: `const done = arguments[arguments.length - 1];
      const el = [...document.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 100 && getComputedStyle(e).overflowY !== 'visible') || document.scrollingElement;
      const f = []; let last = performance.now(); const end = last + 3000;
      const tick = (now) => { f.push(now - last); last = now; el.scrollTop += 40;
        if (now < end) requestAnimationFrame(tick);
        else done({ frames: f, scrolled: el.scrollTop }); };
      requestAnimationFrame(tick);`,
    args: [],
  }, 30000);
  out.scroll_frames = { ...stats(scrolled.frames), scrolled: scrolled.scrolled };
  t = performance.now();
  await click("[data-testid=nav-runs]");
  await until("the run list", () => js("return document.querySelectorAll('[data-testid=run-row]').length > 0"), 20000);
  out.back_to_list_ms = Math.round(performance.now() - t);
  const err = await banner();
  if (err) throw new Error(`error banner shown: ${err}`);
}

/** A run of 10,000 stand-in cells watched live: frames, responsiveness, then its detail. */
async function liveScale() {
  const t0 = performance.now();
  await click("[data-testid=start-run]");
  await until("the plan of 10,000 cells", () => js("const p = document.querySelector('[data-testid=cell-position]'); return p && p.textContent.includes('of 10000')"), 30000);
  out.plan_shown_ms = Math.round(performance.now() - t0);
  // Every frame: scroll the page and each windowed table by 40 px (back to the top at the end).
  await js(`window.__frames = []; let last = performance.now();
    const tick = (t) => { window.__frames.push(t - last); last = t;
      if (arguments[0]) for (const el of [document.scrollingElement, ...document.querySelectorAll('[data-windowed]')]) {
        el.scrollTop = el.scrollTop + 40 >= el.scrollHeight - el.clientHeight ? 0 : el.scrollTop + 40;
      }
      if (!window.__stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);`, process.env.SCROLL !== "0");
  const rtt = [];
  let state = null;
  const end = Date.now() + 20 * 60000;
  while (Date.now() < end) {
    const t = performance.now();
    state = await js("const s = document.querySelector('[data-testid=run-state]'); return s ? s.dataset.state : null");
    rtt.push(performance.now() - t);
    if (["complete", "cancelled", "interrupted", "error"].includes(state)) break;
    await sleep(250);
  }
  out.run_ms = Math.round(performance.now() - t0);
  out.state = state;
  out.outcome = await js("const o = document.querySelector('[data-testid=run-outcome]'); return o ? o.innerText.split('\\n')[0] : null");
  out.frames = stats(await js("window.__stop = true; return window.__frames.slice(5)"));
  out.script_rtt = stats(rtt);
  await shot("live-scale");
  if (state !== "complete" || !/10000 of 10000 cells finished/.test(out.outcome ?? "")) throw new Error(`run ended '${state}': ${out.outcome} ${await banner()}`);
  await js("document.scrollingElement.scrollTop = 0");
  const t = performance.now();
  await click("[data-testid=open-detail]");
  await until("the detail matrix", () => js("return document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]').length > 0"), 120000);
  out.open_detail_ms = Math.round(performance.now() - t);
  const err = await banner();
  if (err) throw new Error(`error banner shown: ${err}`);
}

/** A quick real run (crc32 on native and wasmtime), watched live, then saved, opened, diffed. */
async function quickRun() {
  // A quick real run: crc32 on native and wasmtime.
  const runtimeIds = await js("return [...document.querySelectorAll('input[data-testid^=runtime-]')].map(e => e.dataset.testid.slice(8))");
  for (const id of runtimeIds) {
    const enabled = await js("return !document.querySelector(arguments[0]).disabled", `[data-testid="runtime-${id}"]`);
    if (enabled) await setChecked(`[data-testid="runtime-${id}"]`, id === "native" || id === "wasmtime");
    step(`runtime ${id} set`);
  }
  const testNames = await js("return [...document.querySelectorAll('input[data-testid^=test-]')].map(e => e.dataset.testid.slice(5))");
  if (!testNames.includes("crc32")) throw new Error(`no crc32 test listed: ${testNames}`);
  for (const t of testNames) await setChecked(`[data-testid="test-${t}"]`, t === "crc32");
  await setInput("[data-testid=setting-runs]", MODE === "bench" ? 20 : 3);
  await setInput("[data-testid=setting-warmup]", 0);
  await setInput("[data-testid=setting-label]", "e2e");
  if (MODE === "bench") {
    // Watch frame pacing while samples stream in every 100 ms.
    await js(`window.__frames = []; let last = performance.now();
      const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__frames.length < 100000) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);`);
  }
  await click("[data-testid=start-run]");
  step("start clicked");
  await until("the live screen", () => js("const s = document.querySelector('[data-testid=run-state]'); return s && s.dataset.state !== 'idle'"), 10000);
  await until("live samples on the graph", () => js("return document.querySelector('[data-testid=live-cpu] canvas') !== null"), 30000).catch(() => {});
  await shot("live");
  step("live");
  const state = await until(
    "the run to end",
    () => js("const s = document.querySelector('[data-testid=run-state]'); return s && ['complete','cancelled','interrupted','error'].includes(s.dataset.state) ? s.dataset.state : null"),
    240000,
  );
  if (state !== "complete") throw new Error(`run ended '${state}': ${await banner()}`);
  out.cells_done = await count("[data-testid=cell-row][data-status=done]");
  if (out.cells_done !== 2) throw new Error(`expected 2 finished cells, saw ${out.cells_done}`);
  if (MODE === "bench") {
    out.frames = stats(await js("return window.__frames.slice(5)"));
  }
  const chartProblem = () => js("return document.body.innerText.includes('chart unavailable') ? document.body.innerText.match(/chart unavailable[^\\n]*/)[0] : null");
  if (!(await js("return document.querySelector('[data-testid=live-cpu] canvas') !== null"))) throw new Error(`no live CPU chart: ${await chartProblem()}`);
  if (await chartProblem()) throw new Error(await chartProblem());
  await shot("live-finished");

  await click("[data-testid=nav-runs]");
  step("to runs");
  const runId = await until("the saved run in the list", () => js("const r = document.querySelector('[data-testid=run-row]:not([data-broken=true])'); return r ? r.dataset.runId : null"), 10000);
  out.run_id = runId;
  await shot("runs");
  await click(`[data-testid=run-row][data-run-id="${runId}"] input[type=checkbox]`);
  await click("[data-testid=runs-open]");
  await until("the detail matrix", () => js("return document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]').length >= 2"), 20000);
  out.matrix_cells = await count("[data-testid=detail-matrix] [data-testid=matrix-cell]");
  out.detail_charts = await count("canvas");
  if (await chartProblem()) throw new Error(await chartProblem());
  await shot("detail");
  await click("[data-testid=nav-diff]");
  await sleep(300);
  await shot("diff");
  const err = await banner();
  if (err) throw new Error(`error banner shown: ${err}`);
  if (MODE === "test") {
    await glanceRun();
    await gatewayRun();
  }
}

/**
 * A short gateway run (hello, native and the pooling wasmtime, two load levels): its cells
 * start `wasmeter-desktop serve-gateway`, which must serve rather than open a window.
 */
async function gatewayRun() {
  await click("[data-testid=nav-setup]");
  await setInput("[data-testid=suite-select]", "gateway");
  await until("the load settings", () => js("return document.querySelector('[data-testid=http-settings]') !== null"), 10000);
  // The gateway's defaults (core's: 1 run) replace what was typed for the compute run.
  await until("the gateway's defaults", () => js("return document.querySelector('[data-testid=setting-runs]').value === '1'"), 10000);
  const testNames = await js("return [...document.querySelectorAll('input[data-testid^=test-]')].map(e => e.dataset.testid.slice(5))");
  if (!testNames.includes("hello")) throw new Error(`no hello test listed: ${testNames}`);
  for (const t of testNames) await setChecked(`[data-testid="test-${t}"]`, t === "hello");
  const runtimeIds = await js("return [...document.querySelectorAll('input[data-testid^=runtime-]')].map(e => e.dataset.testid.slice(8))");
  for (const id of runtimeIds) {
    const enabled = await js("return !document.querySelector(arguments[0]).disabled", `[data-testid="runtime-${id}"]`);
    if (enabled) await setChecked(`[data-testid="runtime-${id}"]`, id === "native" || id === "wasmtime-pooling");
  }
  await setInput("[data-testid=setting-runs]", 1);
  await setInput("[data-testid=setting-invocations]", 1);
  await setInput("[data-testid=setting-http-levels]", "1, 4");
  await setInput("[data-testid=setting-http-duration]", 0.3);
  await setInput("[data-testid=setting-http-latency]", 0.2);
  await setInput("[data-testid=setting-label]", "e2e gateway");
  const reason = await js("const r = document.querySelector('[data-testid=start-reason]'); return r ? r.textContent : null");
  if (reason) throw new Error(`gateway run cannot start: ${reason}`);
  await click("[data-testid=start-run]");
  step("gateway run started");
  await until("the gateway run to start", () => js("const s = document.querySelector('[data-testid=run-state]'); return s && s.dataset.state === 'running'"), 20000);
  const state = await until(
    "the gateway run to end",
    () => js("const s = document.querySelector('[data-testid=run-state]'); return s && ['complete','cancelled','interrupted','error'].includes(s.dataset.state) ? s.dataset.state : null"),
    240000,
  );
  await shot("gateway-live");
  out.gateway_state = state;
  out.gateway_cells_done = await count("[data-testid=cell-row][data-status=done]");
  out.gateway_failures = await js("return [...document.querySelectorAll('[data-testid=cell-failure]')].map(e => e.textContent)");
  if (state !== "complete" || out.gateway_cells_done !== 2) {
    throw new Error(`gateway run ended '${state}' with ${out.gateway_cells_done} cells done: ${JSON.stringify(out.gateway_failures)} ${await banner()}`);
  }
}

/**
 * The rules a person reads a run by (issue 48), checked on the real page at 1280 px: a
 * real run of every embedded engine and the baseline on two tests, then its matrix (no
 * wrapping, WCAG AA contrast on every tinted cell, all runtimes drawn or the test column
 * pinned, the headline first), the resource graph of the selected cell (its runtimes, not
 * every cell), and the diff against the quick run (changed rows only, the rest folded).
 * Measurements go to out.glance; the Rust test judges them.
 */
async function glanceRun() {
  const g = {};
  out.glance = g;
  await click("[data-testid=nav-setup]");
  await until("the setup screen", () => js("return document.querySelector('[data-testid=group-embedded]') !== null"), 10000);
  await click("[data-testid=group-embedded]");
  const testNames = await js("return [...document.querySelectorAll('input[data-testid^=test-]')].map(e => e.dataset.testid.slice(5))");
  for (const t of testNames) await setChecked(`[data-testid="test-${t}"]`, t === "crc32" || t === "sha256");
  await setInput("[data-testid=setting-runs]", 1);
  await setInput("[data-testid=setting-invocations]", 2);
  await setInput("[data-testid=setting-warmup]", 0);
  await setInput("[data-testid=setting-label]", "e2e glance");
  g.runtimes = await js("return [...document.querySelectorAll('input[data-testid^=runtime-]')].filter(e => e.checked).map(e => e.dataset.testid.slice(8))");
  // Planning detects the chosen runtimes first (each CLI's --version), so give it time.
  g.scope = await until("the run's scope", () => js("const s = document.querySelector('[data-testid=run-scope]'); return s && s.textContent.trim() ? s.textContent.trim() : null"), 60000).catch(async (e) => {
    const asked = await wd("POST", `/session/${sid}/execute/async`, {
      script: `const done = arguments[arguments.length - 1];
        window.__TAURI_INTERNALS__.invoke('plan_scope', { suite: 'compute', choices: { runtimes: arguments[0], tests: ['crc32', 'sha256'] } })
          .then((r) => done({ answer: r }), (e) => done({ error: typeof e === 'string' ? e : JSON.stringify(e) }));`,
      args: [g.runtimes],
    }, 120000).catch((x) => ({ driver: x.message }));
    throw new Error(`${e.message}; start reason: ${await js("const r = document.querySelector('[data-testid=start-reason]'); return r ? r.textContent : null")}; plan_scope asked directly: ${JSON.stringify(asked)}; start: ${await js("return document.querySelector('.start').outerHTML")}`);
  });
  const reason = await js("const r = document.querySelector('[data-testid=start-reason]'); return r ? r.textContent : null");
  if (reason) throw new Error(`glance run cannot start: ${reason}`);
  await click("[data-testid=start-run]");
  step(`glance run started: ${g.runtimes.join(",")}; ${g.scope}`);
  // The state still says how the quick run ended until this one's first event.
  await until("the glance run to start", () => js("const s = document.querySelector('[data-testid=run-state]'); return s && s.dataset.state === 'running'"), 30000);
  const state = await until(
    "the glance run to end",
    () => js("const s = document.querySelector('[data-testid=run-state]'); return s && ['complete','cancelled','interrupted','error'].includes(s.dataset.state) ? s.dataset.state : null"),
    600000,
  );
  if (state !== "complete") throw new Error(`glance run ended '${state}': ${await banner()}`);
  await wd("POST", `/session/${sid}/window/rect`, { width: 1280, height: 860 }).catch((e) => step(`window size: ${e.message}`));
  await sleep(300);
  g.inner_width = await js("return window.innerWidth");

  await click("[data-testid=nav-runs]");
  const runId = await until("the glance run in the list", () => js("const r = [...document.querySelectorAll('[data-testid=run-row]')].find(r => r.textContent.includes('e2e glance')); return r ? r.dataset.runId : null"), 10000);
  g.run_id = runId;
  await js("document.querySelectorAll('[data-testid=run-row] input[type=checkbox]:checked').forEach(c => c.click())");
  await click(`[data-testid=run-row][data-run-id="${runId}"] input[type=checkbox]`);
  await click("[data-testid=runs-open]");
  await until("the glance matrix", () => js("return document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]').length >= 2"), 20000);
  await sleep(300);
  Object.assign(g, await js(`
    const parse = (c) => { const m = /rgba?\\(([^)]*)\\)/.exec(c); if (!m) return null; const v = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 }; };
    const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
    const bgOf = (el) => { const layers = []; for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } } let c = { r: 255, g: 255, b: 255, a: 1 }; for (const l of layers.reverse()) c = over(l, c); return c; };
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
    const contrast = (fg, bg) => { const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x); return (a + 0.05) / (b + 0.05); };
    // Lines of text in an element: its text's boxes, one line more for each that starts
    // below the bottom of another (an icon or a bolder word beside the text is no new line).
    const lines = (el) => {
      const boxes = [];
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim()) continue;
        const r = document.createRange(); r.selectNodeContents(n);
        boxes.push(...[...r.getClientRects()].filter((x) => x.width > 0 && x.height > 0));
      }
      boxes.sort((a, b) => a.top - b.top);
      let count = boxes.length ? 1 : 0;
      for (let i = 1; i < boxes.length; i++) if (boxes[i].top >= boxes[i - 1].bottom - 1) count++;
      return count;
    };
    const matrix = document.querySelector('[data-testid=detail-matrix]');
    const cells = [...matrix.querySelectorAll('[data-testid=matrix-cell]')];
    const heads = [...matrix.querySelectorAll('thead th')].filter(th => th.textContent.trim());
    const wrapped = [];
    for (const el of [...heads, ...matrix.querySelectorAll('tbody th'), ...cells.flatMap(c => [...c.querySelectorAll('.ratio, .median')])]) if (lines(el) > 1) wrapped.push(el.textContent.trim());
    let worst = null;
    const low = [];
    for (const c of cells) {
      if (!c.dataset.tone || c.dataset.tone === 'none') continue;
      const bg = bgOf(c);
      for (const t of c.querySelectorAll('.ratio, .median, .noise, .cell-note')) {
        const fg = parse(getComputedStyle(t).color);
        if (!fg) continue;
        const k = contrast(over(fg, bg), bg);
        if (worst === null || k < worst) worst = k;
        if (k < 4.5) low.push(c.dataset.runtime + '/' + c.dataset.test + ' ' + t.className + ' ' + k.toFixed(2));
      }
    }
    let box = matrix.parentElement; while (box && box !== document.body && box.scrollWidth <= box.clientWidth && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    const scrolls = !!box && box.scrollWidth > box.clientWidth + 1;
    const first = matrix.querySelector('tbody tr > th:first-child');
    const medians = cells.map(c => { const m = c.querySelector('.median'); const n = c.querySelector('.noise'); return m ? { text: m.firstChild ? m.firstChild.textContent.trim() : '', noise: n ? n.textContent.trim() : '' } : null; }).filter(Boolean);
    return {
      headline: (document.querySelector('[data-testid=run-headline]') || {}).textContent || null,
      headline_first: (() => { const h = document.querySelector('[data-testid=run-headline]'); const m = matrix; return !!h && !!(h.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING); })(),
      caption: (document.querySelector('[data-testid=matrix-caption]') || {}).textContent || null,
      columns: heads.length - 1,
      drawn_runtimes: [...new Set(cells.map(c => c.dataset.runtime))].length,
      tinted: cells.filter(c => c.dataset.tone && c.dataset.tone !== 'none').length,
      wrapped, low_contrast: low, worst_contrast: worst,
      scrolls, pinned: first ? getComputedStyle(first).position : null,
      medians,
    };`));
  // Room to spare at 1280 px: the matrix at its natural width, every figure at its widest,
  // against its box (issue 61: nine runtimes' "110 ms ±43.8 %" lines cut wasm3's column by
  // 79 px); and the pinned test
  // column, with the box narrowed and scrolled: it covers what scrolls under it, with an edge.
  Object.assign(g, await js(`
    const matrix = document.querySelector('[data-testid=detail-matrix]');
    const box = matrix.closest('.table-scroll');
    // At its widest figures: every cell's time and noise as long as they are written.
    const texts = [...matrix.querySelectorAll('[data-testid=matrix-cell]')].flatMap((c) => {
      const m = c.querySelector('.median');
      const n = c.querySelector('.noise');
      return [[m && m.firstChild, '999.9 ms'], [n, '±99.9 %']].filter(([el]) => el).map(([el, wide]) => [el, el.textContent, wide]);
    });
    for (const [el, , wide] of texts) el.textContent = wide;
    const width = matrix.style.width;
    matrix.style.width = 'max-content';
    const spare = box.clientWidth - matrix.getBoundingClientRect().width;
    matrix.style.width = width;
    for (const [el, was] of texts) el.textContent = was;
    const maxWidth = box.style.maxWidth;
    box.style.maxWidth = '480px';
    box.scrollLeft = 240;
    const th = matrix.querySelector('tbody tr > th:first-child');
    const r = th.getBoundingClientRect();
    const hit = document.elementFromPoint(r.right - 3, r.top + r.height / 2);
    const cs = getComputedStyle(th);
    const pinned_check = { scrolled: box.scrollLeft, covers: !!hit && th.contains(hit), background: cs.backgroundColor, edge: cs.boxShadow };
    box.scrollLeft = 0;
    box.style.maxWidth = maxWidth;
    return { spare_px: Math.round(spare), pinned_check };`));
  await shot("glance-matrix");
  // The resource graph: pick a cell of the second test, and the graph follows it.
  const pick = await js("const c = [...document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]')].find(c => c.dataset.test === 'sha256'); if (!c) return null; c.scrollIntoView({ block: 'center' }); c.click(); return c.dataset.runtime");
  g.picked = pick;
  g.resources = await until("the resource graph of the picked cell", () => js("const r = document.querySelector('[data-testid=resources]'); return r && r.dataset.test === 'sha256' ? { test: r.dataset.test, runtimes: r.dataset.runtimes.split(','), canvases: r.querySelectorAll('canvas').length } : null"), 20000);
  await js("document.querySelector('[data-testid=resources]').scrollIntoView({ block: 'center' })");
  await sleep(300);
  await shot("glance-resources");
  // Every runtime's cell of sha256 (about 0.2 s, sampled every 100 ms: one or two samples
  // an invocation) draws something in its own colour on the CPU chart: pixels of the
  // series' colour read back from the canvas (issue 61: short cells were invisible dots).
  g.resource_pixels = {};
  for (const rt of g.runtimes) {
    const name = JSON.stringify(rt);
    await js(`const c = [...document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]')].find(c => c.dataset.test === 'sha256' && c.dataset.runtime === ${name}); if (c) { c.scrollIntoView({ block: 'center' }); c.click(); }`);
    g.resource_pixels[rt] = await until(`the CPU chart of ${rt} × sha256`, () => js(`
      const r = document.querySelector('[data-testid=resources]');
      if (!r || r.dataset.runtimes !== ${name}) return null;
      const canvas = r.querySelector('[data-testid=detail-cpu] canvas');
      if (!canvas || !canvas.width) return null;
      const hex = r.dataset.colors.split(',')[0];
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 128 && Math.abs(d[i] - want[0]) + Math.abs(d[i + 1] - want[1]) + Math.abs(d[i + 2] - want[2]) < 60) n++;
      return n > 0 ? n : null;`), 10000).catch(() => 0);
  }

  // The diff of the quick run against this one: changed rows only, the rest folded.
  await click("[data-testid=nav-runs]");
  await until("two runs in the list", () => js("return document.querySelectorAll('[data-testid=run-row]').length >= 2"), 10000);
  await js("document.querySelectorAll('[data-testid=run-row] input[type=checkbox]:checked').forEach(c => c.click())");
  const quickId = out.run_id;
  await click(`[data-testid=run-row][data-run-id="${quickId}"] input[type=checkbox]`);
  await click(`[data-testid=run-row][data-run-id="${runId}"] input[type=checkbox]`);
  await click("[data-testid=runs-diff]");
  await until("the diff", () => js("return document.querySelector('[data-testid=diff-headline]') !== null"), 30000);
  await sleep(300);
  Object.assign(g, await js(`
    const rows = [...document.querySelectorAll('[data-testid=diff-row]')];
    const only = document.querySelector('[data-testid=diff-only]');
    return {
      diff_a: document.querySelector('[data-testid=diff-a]').value,
      diff_b: document.querySelector('[data-testid=diff-b]').value,
      diff_headline: document.querySelector('[data-testid=diff-headline]').textContent,
      diff_filter: (document.querySelector('[data-testid=diff-filter]') || {}).value || null,
      diff_rows_shown: rows.length,
      diff_verdicts_shown: rows.map(r => (r.querySelector('[data-testid=diff-verdict]') || {}).textContent || ''),
      diff_only_open: only ? only.open : null,
      diff_only_rows: document.querySelectorAll('[data-testid=diff-only-row]').length,
      diff_only_summary: only ? (only.querySelector('summary') || {}).textContent || null : null,
      diff_verdict_titles: rows.slice(0, 3).map(r => (r.querySelector('[data-testid=diff-verdict]') || {}).title || ''),
    };`));
  await shot("glance-diff");
}

/**
 * MODE=screens (scripts/desktop-screens): no run, only pictures of saved ones, with selectors
 * the app has had since before issue 48 so that an older build can be shown the same runs:
 * the run labelled LABEL (default "e2e glance") at 1280 px, its resource graph after a click
 * on its first cell of TEST (default sha256), and its diff against the run labelled A_LABEL
 * (default "e2e").
 */
async function screensOnly() {
  const label = process.env.LABEL ?? "e2e glance";
  const aLabel = process.env.A_LABEL ?? "e2e";
  const test = process.env.TEST ?? "sha256";
  await wd("POST", `/session/${sid}/window/rect`, { width: 1280, height: 860 }).catch((e) => step(`window size: ${e.message}`));
  const idOf = (l) => until(`the run labelled ${l}`, () => js("const r = [...document.querySelectorAll('[data-testid=run-row]')].find(r => [...r.querySelectorAll('td')].some(td => td.textContent.trim() === arguments[0])); return r ? r.dataset.runId : null", l), 20000);
  await click("[data-testid=nav-runs]");
  const b = await idOf(label);
  const a = await idOf(aLabel);
  await click(`[data-testid=run-row][data-run-id="${b}"] input[type=checkbox]`);
  await click("[data-testid=runs-open]");
  await until("the matrix", () => js("return document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]').length >= 2"), 30000);
  await sleep(500);
  await shot("matrix");
  await js("const c = [...document.querySelectorAll('[data-testid=detail-matrix] [data-testid=matrix-cell]')].find(c => c.dataset.test === arguments[0]) || document.querySelector('[data-testid=detail-matrix] [data-testid=matrix-cell]'); c.scrollIntoView({ block: 'center' }); c.click();", test);
  await sleep(500);
  // The graph's panel just under the app's bar (which stays on top); before issue 48 the
  // graph had no test id, only its class.
  await js("const r = document.querySelector('[data-testid=resources]') || document.querySelector('.resource-charts'); if (r) { const panel = r.closest('.panel') || r; panel.scrollIntoView({ block: 'start' }); document.scrollingElement.scrollTop -= 60; }");
  await sleep(500);
  await shot("resources");
  await click("[data-testid=nav-runs]");
  await until("the run list", () => js("return document.querySelectorAll('[data-testid=run-row]').length >= 2"), 20000);
  await js("document.querySelectorAll('[data-testid=run-row] input[type=checkbox]:checked').forEach(c => c.click())");
  await click(`[data-testid=run-row][data-run-id="${a}"] input[type=checkbox]`);
  await click(`[data-testid=run-row][data-run-id="${b}"] input[type=checkbox]`);
  await click("[data-testid=runs-diff]");
  await until("the diff", () => js("return document.querySelectorAll('[data-testid=diff-row], [data-testid=diff-empty], [data-testid=diff-counts]').length > 0"), 30000);
  await sleep(500);
  await shot("diff");
}

const out = {};
try {
  const t0 = performance.now();
  sid = (
    await wd("POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application: APP } } },
    })
  ).sessionId;
  out.session_ms = Math.round(performance.now() - t0);
  // Interactive: the start button is there, enabled, with runtimes and suites loaded.
  await until(
    "an enabled start button",
    () => js("const b = document.querySelector('[data-testid=start-run]'); return !!b && !b.disabled && document.querySelectorAll('input[data-testid^=runtime-]').length > 0"),
    20000,
  );
  out.interactive_ms = Math.round(performance.now() - t0);
  if (MODE !== "screens") await shot("setup");
  step("setup shown");
  if (MODE === "screens") await screensOnly();
  else if (MODE === "scale") await scale();
  else if (MODE === "live-scale") await liveScale();
  else await quickRun();
  out.ok = true;
} catch (e) {
  out.ok = false;
  out.error = String(e.message ?? e);
  try {
    await shot("failure");
  } catch {}
} finally {
  if (sid) await wd("DELETE", `/session/${sid}`).catch(() => {});
}
console.log(JSON.stringify(out));
process.exit(out.ok ? 0 : 1);
