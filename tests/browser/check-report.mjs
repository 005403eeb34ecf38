// Checks a wasmeter HTML report in headless Chromium (Debian's /usr/bin/chromium).
//
//   node check-report.mjs <report.html> <screenshot.png>
//
// Exit 0 and `ok <n checks>` on stdout when the page renders offline, safely and fully;
// exit 1 with one line per problem on stderr otherwise.
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.WASMETER_CHROMIUM || '/usr/bin/chromium';
const TEMPLATE_SCRIPT_IDS = ['wasmeter-data', 'wasmeter-format', 'wasmeter-app'];

const [reportArg, shotArg] = process.argv.slice(2);
if (!reportArg || !shotArg) {
  process.stderr.write('usage: node check-report.mjs <report.html> <screenshot.png>\n');
  process.exit(1);
}
const reportPath = resolve(reportArg);
const shotPath = resolve(shotArg);
const problems = [];
let checks = 0;
function check(ok, problem) {
  checks++;
  if (!ok) problems.push(problem);
  return ok;
}
function finish() {
  if (problems.length) {
    for (const p of problems) process.stderr.write(`${p.replace(/\s+/g, ' ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`ok ${checks}\n`);
  process.exit(0);
}

if (!existsSync(reportPath)) {
  problems.push(`no such file: ${reportPath}`);
  finish();
}
if (!existsSync(CHROMIUM)) {
  problems.push(`no browser at ${CHROMIUM} (apt-get install -y chromium)`);
  finish();
}

// --- static checks on the file itself ---
const html = readFileSync(reportPath, 'utf8');
// The data is embedded with `<` escaped, so every `<script` in the file is the template's own.
const ownScripts = (html.match(/<script\b/gi) || []).length;
check(ownScripts === TEMPLATE_SCRIPT_IDS.length, `expected ${TEMPLATE_SCRIPT_IDS.length} <script> tags in the file, found ${ownScripts}`);
const dataMatch = html.match(/<script type="application\/json" id="wasmeter-data">([\s\S]*?)<\/script>/);
let data = {};
if (check(Boolean(dataMatch), 'no <script type="application/json" id="wasmeter-data"> element in the file')) {
  try {
    data = JSON.parse(dataMatch[1]);
    checks++;
  } catch (e) {
    problems.push(`embedded report data is not valid JSON: ${e.message}`);
  }
}
check(!/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html), 'the file references a network URL (src/href)');
const run0 = Array.isArray(data.runs) && data.runs.length ? data.runs[0] : null;
const hasSamples = Boolean(run0 && Array.isArray(run0.samples) && run0.samples.length);
const hasDists = Boolean(run0 && Array.isArray(run0.distributions) && run0.distributions.some((d) => d.values && d.values.length));
const hasDiff = data.diff !== null && data.diff !== undefined;
// Many runs compared: core's table, drawn cell for cell.
const cmpTable = data.comparison && data.comparison.table && typeof data.comparison.table === 'object' ? data.comparison.table : null;
// Lifecycle runs: the heap chart must draw one line per runtime and fill of a measurement.
const heapSeries = run0 && Array.isArray(run0.heap_series) ? run0.heap_series : [];
const lifecycle = Boolean(run0 && (run0.suite_kind === 'lifecycle' || heapSeries.length));
const seriesOf = (measure) => heapSeries.filter((x) => x.measure === measure).length;
// HTTP runs (gateway, servers): per request a table row per variant, a requests/s line per
// variant that has throughput levels, latency bars per variant that has percentiles.
const httpCells = run0 && Array.isArray(run0.http) ? run0.http.filter((c) => c && typeof c === 'object') : [];
const http = Boolean(run0 && (run0.suite_kind === 'gateway' || run0.suite_kind === 'servers' || httpCells.length));
const httpTests = [];
for (const c of httpCells) if (!httpTests.includes(String(c.test))) httpTests.push(String(c.test));
const hasLevels = (c) => Array.isArray(c.levels) && c.levels.some((l) => l && l.connections > 0 && l.rps && l.rps.median > 0);
const hasPcts = (c) => ['p50_ns', 'p90_ns', 'p99_ns'].some((k) => typeof c[k] === 'number' && c[k] > 0);
// Hostile-looking strings that the report must show as text (labels and test names).
const mustShowAsText = [];
for (const r of data.runs || []) if (typeof r.label === 'string' && r.label.includes('<')) mustShowAsText.push(r.label);
for (const t of (run0 && run0.summary && run0.summary.tests) || []) if (typeof t === 'string' && /[<&"']/.test(t)) mustShowAsText.push(t);
for (const c of httpCells) for (const v of [c.runtime, c.test, c.failure]) if (typeof v === 'string' && /[<&"']/.test(v) && !mustShowAsText.includes(v)) mustShowAsText.push(v);

// --- in the browser ---
const fileUrl = pathToFileURL(reportPath).href;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Nothing may leave the machine even if the page tries: abort any http(s)/ws request.
  await context.route(/^(https?|wss?):/i, (route) => route.abort());
  const page = await context.newPage();
  const seen = { console: [], pageErrors: [], requests: [], dialogs: [] };
  page.on('console', (m) => { if (m.type() === 'error') seen.console.push(m.text()); });
  page.on('pageerror', (e) => seen.pageErrors.push(e.message));
  page.on('dialog', (d) => { seen.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on('websocket', (ws) => seen.requests.push(ws.url()));
  page.on('request', (req) => {
    const u = req.url();
    if (u === fileUrl || u.split('#')[0] === fileUrl || /^(data|about|blob):/i.test(u)) return;
    seen.requests.push(u);
  });

  await page.goto(fileUrl, { waitUntil: 'load' });
  const rendered = await page
    .waitForFunction(() => document.documentElement.getAttribute('data-rendered') === 'yes', null, { timeout: 15000 })
    .then(() => true, () => false);
  check(rendered, 'the page did not finish rendering (no data-rendered="yes" on <html> within 15 s)');
  await page.waitForTimeout(300); // let late errors/requests surface

  const dom = await page.evaluate(({ ids, texts }) => {
    const q = (sel) => document.querySelector(sel);
    const matrix = q('#matrix');
    const diff = q('#diff');
    const diffVisible = Boolean(diff && !diff.hidden && diff.getClientRects().length);
    const scripts = Array.from(document.querySelectorAll('script'));
    const onAttrs = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.getAttributeNames()) if (/^on/i.test(a)) onAttrs.push(`${el.tagName.toLowerCase()}[${a}]`);
    }
    const text = document.body.textContent;
    const hostTitle = Array.from(document.querySelectorAll('[title]')).map((e) => e.getAttribute('title')).join('\n');
    return {
      matrixIsTable: Boolean(matrix && matrix.tagName === 'TABLE'),
      matrixRows: matrix && matrix.tBodies[0] ? matrix.tBodies[0].rows.length : 0,
      matrixHeaders: matrix && matrix.tHead ? matrix.tHead.rows[0].cells.length : 0,
      geomeanSvg: document.querySelectorAll('#geomean-chart svg').length + (q('svg#geomean-chart') ? 1 : 0),
      distSvg: document.querySelectorAll('#distributions svg').length,
      distMsg: document.querySelectorAll('#distributions .msg').length,
      resSvg: document.querySelectorAll('#resources svg').length,
      resMsg: document.querySelectorAll('#resources .msg').length,
      statsRows: q('table#stats') ? q('table#stats').tBodies[0].rows.length : -1,
      // Matrix cells coloured by their ratio: the bin, and the colours as the browser draws them.
      painted: Array.from(document.querySelectorAll('#matrix tbody td.painted')).map((td) => ({
        bin: Number(td.getAttribute('data-bin')),
        bg: getComputedStyle(td).backgroundColor,
        fg: getComputedStyle(td).color,
      })),
      lifecycleVisible: Boolean(q('#lifecycle-section') && !q('#lifecycle-section').hidden),
      heapLines: document.querySelectorAll('#heap-chart svg [data-series]').length,
      heapDashed: document.querySelectorAll('#heap-chart svg polyline.heap-line.sparse').length,
      lifecycleRows: q('table#lifecycle-table') ? q('table#lifecycle-table').tBodies[0].rows.length : -1,
      scriptCount: scripts.length,
      scriptIds: scripts.map((s) => s.id),
      onAttrs: onAttrs.slice(0, 5),
      // Elements the template never makes: any is markup from the data.
      foreign: Array.from(document.querySelectorAll('img, iframe, object, embed, form, i, b, u, marquee, image, foreignObject')).map((e) => e.tagName.toLowerCase()).slice(0, 5),
      pwned: typeof window.__pwned !== 'undefined',
      comparisonVisible: Boolean(q('#comparison') && !q('#comparison').hidden && q('#comparison').getClientRects().length),
      comparisonHead: Array.from(document.querySelectorAll('#comparison-table thead th')).map((th) => th.textContent),
      comparisonBody: Array.from(document.querySelectorAll('#comparison-table tbody tr')).map((tr) => Array.from(tr.cells).map((c) => c.textContent)),
      comparisonFoot: Array.from(document.querySelectorAll('#comparison-table tfoot tr')).map((tr) => Array.from(tr.cells).map((c) => c.textContent)),
      comparisonWarnings: document.querySelectorAll('#comparison-warnings li').length,
      diffExists: Boolean(diff),
      diffVisible,
      diffTables: diff ? diff.querySelectorAll('table').length : 0,
      diffWarnings: diff ? diff.querySelectorAll('.warn li').length : 0,
      // Each diff row as drawn: its first cells, texts, and its interval plot's geometry.
      diffRows: Array.from(document.querySelectorAll('#diff-table tbody tr')).map((tr) => {
        const svg = tr.querySelector('svg.ci-plot');
        const num = (el, a) => (el && el.hasAttribute(a) ? Number(el.getAttribute(a)) : null);
        const bar = svg && svg.querySelector('line.bar');
        const dot = svg && svg.querySelector('circle.dot');
        const band = svg && svg.querySelector('rect.band');
        return {
          key: Array.from(tr.cells).slice(0, 3).map((c) => c.textContent),
          text: tr.textContent,
          verdict: tr.getAttribute('data-verdict'),
          svg: svg ? { lo: num(svg, 'data-lo'), hi: num(svg, 'data-hi'), pad: num(svg, 'data-pad'), width: num(svg, 'width'), t: num(svg, 'data-threshold') } : null,
          bar: bar ? { x1: num(bar, 'x1'), x2: num(bar, 'x2') } : null,
          dot: dot ? { cx: num(dot, 'cx'), open: dot.classList.contains('open') } : null,
          band: band ? { x: num(band, 'x'), width: num(band, 'width') } : null,
        };
      }),
      headline: q('#headline') && !q('#headline').hidden ? q('#headline').textContent : '',
      diffCounts: q('#diff-counts') ? q('#diff-counts').textContent : '',
      diffMethod: q('#diff-method') ? q('#diff-method').textContent : '',
      diffNormalize: q('#diff-normalize') ? q('#diff-normalize').textContent : '',
      // Summary cells: noise, partial and notes as drawn.
      matrixCells: Array.from(document.querySelectorAll('#matrix tbody td.cell')).map((td) => ({
        halfwidth: td.getAttribute('data-halfwidth'),
        partial: td.getAttribute('data-partial') === 'true',
        text: td.textContent,
        title: td.getAttribute('title') || '',
      })),
      geomeanFoot: Array.from(document.querySelectorAll('#matrix tfoot td[data-runtime]')).map((td) => ({ runtime: td.getAttribute('data-runtime'), text: td.textContent })),
      renderErrors: document.documentElement.getAttribute('data-render-errors'),
      missingTexts: texts.filter((t) => !text.includes(t) && !hostTitle.includes(t)),
      sizesVisible: Boolean(q('#sizes-section') && !q('#sizes-section').hidden && q('#sizes-section').getClientRects().length),
      sweepVisible: Boolean(q('#sweep-section') && !q('#sweep-section').hidden && q('#sweep-section').getClientRects().length),
      sweepPoints: Array.from(document.querySelectorAll('#sweep-chart svg circle[data-runtime]')).map((c) => c.getAttribute('data-runtime')),
      sweepNotes: Array.from(document.querySelectorAll('#sweep-notes li')).map((li) => li.textContent),
      profileVisible: Boolean(q('#profile-section') && !q('#profile-section').hidden && q('#profile-section').getClientRects().length),
      profileFlames: Array.from(document.querySelectorAll('#profile-section div.flame')).map((d) => ({
        runtime: d.getAttribute('data-runtime'),
        rects: d.querySelectorAll('svg rect').length,
        titles: d.querySelectorAll('svg title').length,
        width: d.querySelector('svg') ? d.querySelector('svg').getBoundingClientRect().width : 0,
      })),
      profileRows: Array.from(document.querySelectorAll('#profile-section table.profile-table tbody tr')).map((tr) => Array.from(tr.cells).map((c) => c.textContent)),
      sizesRows: Array.from(document.querySelectorAll('#sizes-table tbody tr')).map((r) => Array.from(r.cells).map((c) => c.getAttribute('data-sort'))),
      sizesHead: Array.from(document.querySelectorAll('#sizes-table thead th')).map((th) => th.textContent),
      memoryRows: document.querySelectorAll('#memory-table tbody tr').length,
      notApplicable: Array.from(document.querySelectorAll('[id^="not-applicable-"]')).map((e) => ({ id: e.id, text: e.textContent })),
      httpVisible: Boolean(q('#http-section') && !q('#http-section').hidden && q('#http-section').getClientRects().length),
      httpTests: Array.from(document.querySelectorAll('#http-section .http-test')).map((d) => {
        const t = d.querySelector('table.http-table');
        const rows = t && t.tBodies[0] ? Array.from(t.tBodies[0].rows) : [];
        return {
          test: d.getAttribute('data-test'),
          rows: rows.map((r) => ({
            variant: r.getAttribute('data-variant'),
            cells: r.cells.length,
            failed: r.classList.contains('failed'),
            text: r.textContent,
            sorts: Array.from(r.cells).map((c) => c.getAttribute('data-sort')),
          })),
          headers: t && t.tHead ? t.tHead.rows[0].cells.length : 0,
          rpsSvg: d.querySelectorAll('.http-rps-chart svg').length,
          rpsLines: Array.from(d.querySelectorAll('.http-rps-chart svg [data-series]')).map((g) => g.getAttribute('data-series')),
          rpsPoints: d.querySelectorAll('.http-rps-chart svg [data-series] circle').length,
          rpsTitles: d.querySelectorAll('.http-rps-chart svg [data-series] circle > title').length,
          axisLabels: Array.from(d.querySelectorAll('.http-rps-chart svg > text')).map((e) => e.textContent).join(' | '),
          latGroups: Array.from(d.querySelectorAll('.http-lat-chart svg [data-series]')).map((g) => g.getAttribute('data-series')),
          latBars: d.querySelectorAll('.http-lat-chart svg rect.lat-bar').length,
          legend: Array.from(d.querySelectorAll('.legend')).map((l) => l.textContent).join(' | '),
          rateSvg: d.querySelectorAll('.http-rate-chart svg').length,
          rateLines: Array.from(d.querySelectorAll('.http-rate-chart svg [data-series]')).map((g) => g.getAttribute('data-series')),
          ratePoints: d.querySelectorAll('.http-rate-chart svg [data-series] circle:not(.rate-knee) > title').length,
          rateKnees: Array.from(d.querySelectorAll('.http-rate-chart svg circle.rate-knee')).map((c) => Number(c.getAttribute('data-knee'))),
          rateSlo: d.querySelectorAll('.http-rate-chart svg .rate-slo').length,
          rateRows: d.querySelectorAll('table.http-rate-table tbody tr').length,
        };
      }),
    };
  }, { ids: TEMPLATE_SCRIPT_IDS, texts: mustShowAsText });

  check(dom.matrixIsTable, '#matrix is missing or not a table');
  // What each run left out, a runtime or one of its cells, named with why.
  (data.runs || []).forEach((r, i) => {
    const na = Array.isArray(r.not_applicable) ? r.not_applicable : [];
    if (!na.length) return;
    const shown = dom.notApplicable.find((e) => e.id === `not-applicable-${i}`);
    for (const n of na) {
      const what = n.test ? `${n.runtime} × ${n.test}` : n.runtime;
      check(Boolean(shown) && shown.text.includes(`${what} — ${n.why}`), `run ${i}: "${what} — ${n.why}" is not shown as not applicable`);
    }
  });
  if (cmpTable) {
    const dash = (x) => (x === '' || x === null || x === undefined ? '—' : String(x));
    check(dom.comparisonVisible, 'a comparison in the data but #comparison is hidden');
    check(JSON.stringify(dom.comparisonHead) === JSON.stringify(cmpTable.columns.map((c) => c.title)),
      `#comparison-table headers ${JSON.stringify(dom.comparisonHead)} differ from the data's columns`);
    check(JSON.stringify(dom.comparisonBody) === JSON.stringify(cmpTable.rows.map((r) => r.map(dash))), '#comparison-table rows differ from the data');
    check(JSON.stringify(dom.comparisonFoot) === JSON.stringify(cmpTable.footer.map((r) => r.map(dash))), '#comparison-table footer (geomeans) differs from the data');
    const warnings = cmpTable.notes.filter((n) => n.startsWith('warning: ')).length;
    check(dom.comparisonWarnings === warnings, `#comparison shows ${dom.comparisonWarnings} warnings, the data has ${warnings}`);
  }
  // Summary cells: each with its noise, partial ones marked, notes shown; geomeans over
  // fewer tests than the run has say so.
  if (run0 && run0.summary && Array.isArray(run0.summary.cells) && !lifecycle) {
    const sum = run0.summary;
    const withStats = sum.cells.filter((c) => c && c.stats && !c.failure);
    for (const c of withStats) {
      const where = `matrix cell ${c.runtime} · ${c.test}`;
      const drawn = dom.matrixCells.filter((m) => m.title.includes(`n=${c.stats.n}`) && (typeof c.halfwidth_pct !== 'number' || m.halfwidth === String(c.halfwidth_pct)));
      if (typeof c.halfwidth_pct === 'number') {
        check(drawn.some((m) => m.text.includes(`±${c.halfwidth_pct.toFixed(1)} %`)), `${where}: its noise ±${c.halfwidth_pct.toFixed(1)} % is not shown`);
      }
      if (c.partial) check(dom.matrixCells.some((m) => m.partial && m.text.includes('partial') && m.title.includes(String(c.note || 'partial'))), `${where}: partial, but not marked`);
      if (c.note && !c.partial) check(dom.matrixCells.some((m) => m.text.includes(c.note)), `${where}: its note "${c.note}" is not shown`);
    }
    check(dom.matrixCells.filter((m) => m.partial).length === withStats.filter((c) => c.partial).length, 'partial cells marked in #matrix differ from the data');
    for (const p of Array.isArray(sum.per_runtime) ? sum.per_runtime : []) {
      const foot = dom.geomeanFoot.find((f) => f.runtime === String(p.runtime));
      if (!foot || typeof p.tests_total !== 'number' || typeof p.geomean_relative !== 'number') continue;
      const want = p.tests_compared < p.tests_total ? `${p.tests_compared} of ${p.tests_total} tests` : `${p.tests_compared} tests`;
      check(foot.text.includes(want), `geomean of ${p.runtime}: "${foot.text}" does not say "${want}"`);
    }
  }
  check(dom.matrixRows >= 2, `#matrix has ${dom.matrixRows} body rows, expected at least 2`);
  if (lifecycle) {
    const tests = (run0.summary && run0.summary.tests) || [];
    check(dom.lifecycleVisible, 'a lifecycle run but #lifecycle-section is hidden');
    check(dom.lifecycleRows === tests.length, `#lifecycle-table has ${dom.lifecycleRows} rows, the run has ${tests.length} modules`);
    check(dom.heapLines === seriesOf('instantiate'), `#heap-chart draws ${dom.heapLines} lines, the data has ${seriesOf('instantiate')} instantiate series`);
    check(dom.heapDashed === heapSeries.filter((x) => x.measure === 'instantiate' && x.fill === 'sparse' && x.points.length > 1).length,
      `#heap-chart draws ${dom.heapDashed} dashed (sparse) lines`);
  } else {
    check(dom.geomeanSvg > 0, 'no svg in #geomean-chart');
  }
  // A profiled run: the first test's table as core wrote it, and a flame graph per profiled
  // cell of that test, each drawn (frames with their tooltips) and wide enough to read.
  const profile = run0 && run0.profile && typeof run0.profile === 'object' ? run0.profile : null;
  if (profile && profile.explanation) {
    const first = profile.explanation.tests[0];
    const want = (profile.flames || []).filter((f) => f.test === first.test).map((f) => f.runtime);
    check(dom.profileVisible, 'a profiled run but #profile-section is hidden');
    check(JSON.stringify(dom.profileFlames.map((f) => f.runtime)) === JSON.stringify(want), `#profile-section draws flame graphs of ${dom.profileFlames.map((f) => f.runtime).join(', ')}; the data has ${want.join(', ')}`);
    for (const f of dom.profileFlames) {
      check(f.rects > 2 && f.titles === f.rects - 1, `the flame graph of ${f.runtime} has ${f.rects} frames and ${f.titles} tooltips`);
      check(f.width > 300, `the flame graph of ${f.runtime} is ${f.width} px wide`);
    }
    // The first test's tables, one after another: where the time goes, the differences
    // from the baseline, the causes counted.
    const group = (profile.tables || [])[0] || [];
    const rows = group.flatMap((t) => t.rows);
    check(group.length > 0 && JSON.stringify(dom.profileRows) === JSON.stringify(rows), `#profile-section's tables differ from core's: ${JSON.stringify(dom.profileRows).slice(0, 300)}`);
  } else {
    check(!dom.profileVisible, 'a profile section for a run without profiles');
  }
  // A run with a sweep: the first test's scan draws a point per combination with a figure,
  // and names the best one.
  const sweep = data && data.sweep && typeof data.sweep === 'object' ? data.sweep : null;
  if (sweep) {
    const first = sweep.tests[0];
    const want = first.points.filter((p) => typeof p.typical === 'number').map((p) => p.runtime).sort();
    check(dom.sweepVisible, 'a run with a sweep but #sweep-section is hidden');
    check(JSON.stringify(dom.sweepPoints.slice().sort()) === JSON.stringify(want), `#sweep-chart draws ${dom.sweepPoints.join(', ')}; the data has ${want.join(', ')}`);
    check(!first.best || dom.sweepNotes.includes(`best: ${first.best}`), `#sweep-notes: ${dom.sweepNotes.join(' | ')}`);
  } else {
    check(!dom.sweepVisible, 'a sweep section for a run without a sweep');
  }
  // Runs of programs: the size table holds every sized test's module and native bytes and
  // a column per engine that made a compiled artifact; the memory table a row per test.
  const programs = run0 && Array.isArray(run0.tests) ? run0.tests.filter((t) => t.name !== '_startup') : [];
  const sized = programs.filter((t) => typeof t.module_bytes === 'number');
  if (sized.length && !lifecycle && !http) {
    const cellSizes = Array.isArray(run0.cell_sizes) ? run0.cell_sizes : [];
    const withArtifacts = new Set(cellSizes.filter((c) => typeof c.artifact_bytes === 'number').map((c) => c.runtime));
    check(dom.sizesVisible, 'a run with module sizes but #sizes-section is hidden');
    check(dom.sizesRows.length === sized.length, `#sizes-table has ${dom.sizesRows.length} rows, the run has ${sized.length} sized tests`);
    check(dom.sizesHead.length === 4 + withArtifacts.size, `#sizes-table has columns ${dom.sizesHead.join(', ')}; ${withArtifacts.size} engines made artifacts`);
    sized.forEach((t, i) => {
      const row = dom.sizesRows[i] || [];
      check(row[1] === String(t.module_bytes), `#sizes-table row ${i}: module ${row[1]}, the data says ${t.module_bytes}`);
    });
    check(dom.memoryRows === programs.length, `#memory-table has ${dom.memoryRows} rows, the run has ${programs.length} tests`);
  } else {
    check(!dom.sizesVisible, 'a size section for a run without module sizes');
  }
  if (http) {
    check(dom.httpVisible, 'an HTTP run but #http-section is hidden');
    check(dom.httpTests.length === httpTests.length, `#http-section shows ${dom.httpTests.length} requests, the data has ${httpTests.length}`);
    for (const t of httpTests) {
      const shown = dom.httpTests.find((x) => x.test === t);
      if (!check(Boolean(shown), `request ${JSON.stringify(t)} has no section under #http-section`)) continue;
      const cells = httpCells.filter((c) => String(c.test) === t);
      const where = `request ${JSON.stringify(t)}`;
      check(shown.rows.length === cells.length, `${where}: the table has ${shown.rows.length} rows, the data has ${cells.length} variants`);
      check(shown.rpsSvg === 1 || !cells.some(hasLevels), `${where}: no requests/s chart`);
      const withLevels = cells.filter(hasLevels).map((c) => String(c.runtime));
      check(shown.rpsLines.length === withLevels.length && withLevels.every((v) => shown.rpsLines.includes(v)),
        `${where}: the requests/s chart draws ${shown.rpsLines.join(', ') || 'no lines'}; variants with throughput: ${withLevels.join(', ')}`);
      const nPoints = cells.reduce((n, c) => n + (Array.isArray(c.levels) ? c.levels.filter((l) => l && l.connections > 0 && l.rps && l.rps.median > 0).length : 0), 0);
      check(shown.rpsPoints === nPoints && shown.rpsTitles === nPoints, `${where}: ${shown.rpsPoints} points (${shown.rpsTitles} with a tooltip), the data has ${nPoints} levels`);
      check(/connections/.test(shown.axisLabels) && /requests per second/.test(shown.axisLabels), `${where}: requests/s chart axis labels missing (${shown.axisLabels})`);
      const withPcts = cells.filter(hasPcts);
      check(shown.latGroups.length === withPcts.length, `${where}: the latency chart has ${shown.latGroups.length} groups, ${withPcts.length} variants have latency`);
      const nBars = withPcts.reduce((n, c) => n + ['p50_ns', 'p90_ns', 'p99_ns'].filter((k) => typeof c[k] === 'number' && c[k] > 0).length, 0);
      check(shown.latBars === nBars, `${where}: the latency chart has ${shown.latBars} bars, expected ${nBars}`);
      // Open-model levels: a latency-vs-rate chart with a line per variant that has rates,
      // a point per rate with a p99, the SLO line, each knee ringed, and a table row per rate.
      const withRates = cells.filter((c) => Array.isArray(c.rates) && c.rates.length);
      if (withRates.length) {
        const nRates = withRates.reduce((n, c) => n + c.rates.length, 0);
        const nP99 = withRates.reduce((n, c) => n + c.rates.filter((r) => Array.isArray(r.corrected_ns) && r.corrected_ns[2] > 0).length, 0);
        const knees = withRates.filter((c) => c.knee && typeof c.knee.rps === 'number').map((c) => c.knee.rps).sort((a, b) => a - b);
        check(shown.rateSvg === 1, `${where}: rates in the data but no latency-vs-rate chart`);
        check(shown.rateLines.length === withRates.length, `${where}: the rate chart draws ${shown.rateLines.join(', ') || 'no lines'}; ${withRates.length} variants have rates`);
        check(shown.ratePoints === nP99, `${where}: the rate chart has ${shown.ratePoints} points with a tooltip, the data has ${nP99} rates with a p99`);
        check(JSON.stringify(shown.rateKnees.slice().sort((a, b) => a - b)) === JSON.stringify(knees), `${where}: knees drawn at ${shown.rateKnees}, the data has ${knees}`);
        check(shown.rateSlo === 1, `${where}: the rate chart has no SLO line`);
        check(shown.rateRows === nRates, `${where}: the rate table has ${shown.rateRows} rows, the data has ${nRates} rates`);
      } else {
        check(shown.rateSvg === 0, `${where}: a rate chart without rates in the data`);
      }
      for (const c of cells) {
        const row = shown.rows.find((r) => r.variant === String(c.runtime));
        if (!check(Boolean(row), `${where}: no table row for ${c.runtime}`)) continue;
        check(shown.legend.includes(String(c.runtime)), `${where}: ${c.runtime} missing from the legend`);
        if (c.failure && !hasLevels(c) && !hasPcts(c)) {
          check(row.failed && row.text.includes('failed') && row.text.includes(String(c.failure)), `${where}: ${c.runtime} failed but its row does not say so`);
          continue;
        }
        check(row.cells === shown.headers, `${where}: ${c.runtime}'s row has ${row.cells} cells for ${shown.headers} columns`);
        const num = (i) => (row.sorts[i] === null || row.sorts[i] === '' ? null : Number(row.sorts[i]));
        const near = (a, b) => (a === null || b === null || b === undefined ? a === (b ?? null) : Math.abs(a - b) <= Math.abs(b) * 1e-9);
        check(near(num(2), typeof c.p50_ns === 'number' ? c.p50_ns : null), `${where}: ${c.runtime} latency p50 is ${num(2)}, the data says ${c.p50_ns}`);
        check(near(num(4), typeof c.p99_ns === 'number' ? c.p99_ns : null), `${where}: ${c.runtime} latency p99 is ${num(4)}, the data says ${c.p99_ns}`);
        const best = Array.isArray(c.best) ? c.best : null;
        check(near(num(5), best ? best[1] : null) && (!best || row.text.includes(`(${best[0]})`)),
          `${where}: ${c.runtime} best is ${num(5)} in "${row.text}", the data says ${JSON.stringify(c.best)}`);
        check(near(num(6), typeof c.best_vs_baseline === 'number' ? c.best_vs_baseline : null), `${where}: ${c.runtime} × baseline is ${num(6)}, the data says ${c.best_vs_baseline}`);
      }
    }
  } else {
    check(!dom.httpVisible, 'not an HTTP run but #http-section is visible');
  }
  if (hasDists || !run0) check(dom.distSvg > 0, 'no svg in #distributions');
  else check(dom.distSvg > 0 || dom.distMsg > 0, 'no svg and no "no data" message in #distributions');
  if (hasSamples || !run0) check(dom.resSvg > 0, 'no svg in #resources');
  else check(dom.resMsg > 0, 'no samples in the data but no "no data" message in #resources');
  check(dom.statsRows > 0, `#stats table missing or empty (${dom.statsRows} rows)`);
  check(dom.scriptCount === ownScripts && dom.scriptIds.every((id) => TEMPLATE_SCRIPT_IDS.includes(id)),
    `unexpected script elements in the DOM: ${dom.scriptCount} (${dom.scriptIds.join(', ') || 'no ids'}), template has ${ownScripts}`);
  check(dom.onAttrs.length === 0, `elements with event-handler attributes in the DOM: ${dom.onAttrs.join(', ')}`);
  check(dom.foreign.length === 0, `elements from the data parsed as markup: ${dom.foreign.join(', ')}`);
  check(!dom.pwned, 'window.__pwned is set: data was executed as code');
  check(dom.missingTexts.length === 0, `strings from the data not shown as text: ${dom.missingTexts.map((t) => JSON.stringify(t)).join(', ')}`);
  check(!dom.renderErrors, 'a section failed to render (data-render-errors on <html>)');
  // Matrix colours: core's scale, one painted cell per cell with a ratio, each in its bin's
  // colours, and every one readable (WCAG AA, contrast at least 4.5).
  const pal = data.palette;
  if (check(pal && Array.isArray(pal.bins) && pal.bins.length === 25, 'the page data has no palette of 25 bins')) {
    const cells0 = Array.isArray(data.runs?.[0]?.summary?.cells) ? data.runs[0].summary.cells : [];
    const withRatio = cells0.filter((c) => typeof c.relative === 'number' && c.relative > 0).length;
    check(dom.painted.length === withRatio, `#matrix paints ${dom.painted.length} cells, ${withRatio} have a ratio`);
    const rgbOf = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    const lum = (css) => {
      const [r, g, b] = css.match(/\d+/g).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const p of dom.painted) {
      check(p.bg === rgbOf(pal.bins[p.bin]) && p.fg === rgbOf(pal.text[p.bin]), `a matrix cell of bin ${p.bin} is drawn ${p.fg} on ${p.bg}`);
      const [hi, lo] = [lum(p.bg), lum(p.fg)].sort((a, b) => b - a);
      const contrast = (hi + 0.05) / (lo + 0.05);
      check(contrast >= 4.5, `a matrix cell's text has contrast ${contrast.toFixed(2)} (${p.fg} on ${p.bg}), under WCAG AA's 4.5`);
    }
  }
  // The headline at the top is core's sentence as it is: the diff's, else the one run's.
  const runsData = Array.isArray(data.runs) ? data.runs : [];
  const wantHeadline = hasDiff ? data.diff_headline : runsData.length === 1 ? runsData[0].headline : undefined;
  if (typeof wantHeadline === 'string') {
    check(dom.headline === wantHeadline, `#headline reads "${dom.headline}", core's headline is "${wantHeadline}"`);
  }
  if (hasDiff) {
    check(dom.diffExists && dom.diffVisible, 'the data has a diff but #diff is missing or hidden');
    check(dom.diffTables > 0, 'the data has a diff but #diff has no table');
    const nWarn = Array.isArray(data.diff.warnings) ? data.diff.warnings.length : 0;
    check(dom.diffWarnings === nWarn, `#diff shows ${dom.diffWarnings} warnings, the data has ${nWarn}`);
    // Every row: its verdict and note as text, its noise, and its interval drawn on the
    // one log scale of the column: the band ±threshold around 1, the bar from the
    // interval's low to high end, the dot at the ratio (open without an interval, none
    // without a ratio).
    const rows = (Array.isArray(data.diff.rows) ? data.diff.rows : []).filter((r) => r && typeof r === 'object');
    const t = (typeof data.diff.threshold_pct === 'number' ? data.diff.threshold_pct : 0) / 100;
    const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
    check(dom.diffRows.length === rows.length, `#diff-table has ${dom.diffRows.length} rows, the data has ${rows.length}`);
    const normalizeText = data.diff.normalize ? `each side relative to its own run's ${data.diff.normalize}` : 'not normalised';
    check(dom.diffNormalize === normalizeText && dom.diffMethod.includes(normalizeText) && dom.diffMethod.includes('Benjamini–Hochberg'),
      `#diff does not say how rows were compared: "${dom.diffNormalize}" / "${dom.diffMethod}"`);
    if (typeof data.diff.method === 'string') check(dom.diffMethod.includes(data.diff.method), `#diff-method does not show the data's method: ${dom.diffMethod}`);
    for (const [v, label] of [['insufficient data', 'insufficient data'], ['not comparable', 'not comparable']]) {
      const n = rows.filter((r) => r.verdict === v).length;
      check(n === 0 || dom.diffCounts.includes(`${n} ${label}`), `#diff-counts does not count ${n} ${label}: ${dom.diffCounts}`);
    }
    let plotted = 0;
    rows.forEach((r, i) => {
      const d = dom.diffRows[i];
      const where = `diff row ${i + 1} (${r.runtime} · ${r.test} · ${r.phase})`;
      if (!d) return;
      check(d.key.join('|') === [r.runtime, r.test, r.phase].map(String).join('|'), `${where}: the table row is ${d.key.join(' · ')}`);
      check(d.verdict === r.verdict && d.text.includes(r.verdict), `${where}: verdict ${d.verdict}, the data says ${r.verdict}`);
      if (r.note) check(d.text.includes(r.note), `${where}: the note "${r.note}" is not shown`);
      if (isNum(r.halfwidth_pct)) check(d.text.includes(`±${r.halfwidth_pct.toFixed(1)} %`), `${where}: the noise ±${r.halfwidth_pct.toFixed(1)} % is not shown`);
      if (!isNum(r.ratio)) check(!d.text.includes('NaN') && !d.text.includes('null'), `${where}: a row without a ratio shows ${d.text}`);
      if (!check(Boolean(d.svg), `${where}: no interval plot (svg.ci-plot)`)) return;
      const { lo, hi, pad, width } = d.svg;
      const x = (v) => pad + ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * (width - 2 * pad);
      const near = (a, b) => a !== null && Math.abs(a - b) <= 0.02;
      for (const v of [r.ratio, r.ci_low, r.ci_high, 1 - t, 1 + t]) {
        if (isNum(v) && v > 0) check(lo <= v && v <= hi, `${where}: ${v} is outside the plot's scale [${lo}, ${hi}]`);
      }
      check(Boolean(d.band) && near(d.band.x, x(1 - t)) && near(d.band.x + d.band.width, x(1 + t)),
        `${where}: the threshold band is at ${JSON.stringify(d.band)}, expected ${x(1 - t).toFixed(2)}–${x(1 + t).toFixed(2)}`);
      const hasCi = isNum(r.ci_low) && isNum(r.ci_high);
      if (hasCi) {
        plotted++;
        check(Boolean(d.bar) && near(d.bar.x1, x(r.ci_low)) && near(d.bar.x2, x(r.ci_high)),
          `${where}: the interval bar is at ${JSON.stringify(d.bar)}, expected ${x(r.ci_low).toFixed(2)}–${x(r.ci_high).toFixed(2)}`);
        // A change is claimed only when the whole bar lies outside the band.
        if (r.verdict === 'faster') check(d.bar.x2 < d.band.x, `${where}: faster, but its bar reaches into the band`);
        if (r.verdict === 'slower') check(d.bar.x1 > d.band.x + d.band.width, `${where}: slower, but its bar reaches into the band`);
      } else {
        check(!d.bar, `${where}: a row without an interval draws a bar`);
      }
      if (isNum(r.ratio)) {
        check(Boolean(d.dot) && near(d.dot.cx, x(r.ratio)) && d.dot.open === !hasCi,
          `${where}: the ratio dot is ${JSON.stringify(d.dot)}, expected at ${x(r.ratio).toFixed(2)}${hasCi ? '' : ' (open)'}`);
      } else {
        check(!d.dot, `${where}: a row without a ratio draws a dot`);
      }
    });
    check(plotted === rows.filter((r) => isNum(r.ci_low) && isNum(r.ci_high)).length, `${plotted} intervals drawn`);
  } else {
    check(!dom.diffExists || !dom.diffVisible, 'the data has no diff but #diff is visible');
  }

  // Sorting: click one header (the first runtime column when there is one) and check that
  // the rows are now sorted by that column, in either direction.
  if (dom.matrixIsTable && dom.matrixRows >= 2 && dom.matrixHeaders > 0) {
    const col = dom.matrixHeaders > 1 ? 1 : 0;
    const keysOf = () => page.evaluate((c) => Array.from(document.querySelector('#matrix').tBodies[0].rows).map((r) => {
      const td = r.cells[c];
      return td ? (td.hasAttribute('data-sort') ? td.getAttribute('data-sort') : td.textContent.trim()) : '';
    }), col);
    const rowIds = () => page.evaluate(() => Array.from(document.querySelector('#matrix').tBodies[0].rows).map((r) => r.cells[0].textContent));
    const before = await rowIds();
    await page.click(`#matrix thead th:nth-child(${col + 1})`);
    const after = await rowIds();
    const keys = (await keysOf()).filter((k) => k !== '');
    const numeric = keys.every((k) => Number.isFinite(Number(k)));
    const cmp = (a, b) => (numeric ? Number(a) - Number(b) : a.localeCompare(b, undefined, { numeric: true }));
    const asc = keys.every((k, i) => i === 0 || cmp(keys[i - 1], k) <= 0);
    const desc = keys.every((k, i) => i === 0 || cmp(keys[i - 1], k) >= 0);
    check(asc || desc, `clicking matrix header ${col + 1} did not sort the rows (before: ${before.join(' | ')}; after: ${after.join(' | ')})`);
    check(after.length === before.length && after.slice().sort().join('\n') === before.slice().sort().join('\n'),
      'sorting the matrix lost or duplicated rows');
  }

  // Sorting an HTTP table by best requests/s orders the variants by it.
  if (http && dom.httpTests.length && dom.httpTests[0].rows.length >= 2) {
    const sel = '#http-section .http-test table.http-table';
    await page.click(`${sel} thead th:nth-child(6)`);
    const keys = await page.evaluate((s) => Array.from(document.querySelector(s).tBodies[0].rows)
      .map((r) => (r.cells[5] ? r.cells[5].getAttribute('data-sort') : '')).filter((k) => k !== '' && k !== null).map(Number), sel);
    const asc = keys.every((k, i) => i === 0 || keys[i - 1] <= k);
    const desc = keys.every((k, i) => i === 0 || keys[i - 1] >= k);
    check(asc || desc, `clicking "best req/s" did not sort the first HTTP table (${keys.join(', ')})`);
  }

  // Switching the lifecycle measurement redraws the chart with that measurement's lines.
  if (lifecycle && seriesOf('teardown') > 0) {
    await page.selectOption('#heap-measure', 'teardown');
    const n = await page.evaluate(() => document.querySelectorAll('#heap-chart svg [data-series]').length);
    check(n === seriesOf('teardown'), `after choosing teardown #heap-chart draws ${n} lines, the data has ${seriesOf('teardown')}`);
    await page.selectOption('#heap-measure', 'instantiate');
  }

  await page.screenshot({ path: shotPath, fullPage: true });
  checks++;
  await page.waitForTimeout(100);

  for (const m of seen.console) problems.push(`console error: ${m}`);
  for (const m of seen.pageErrors) problems.push(`page error: ${m}`);
  for (const u of seen.requests) problems.push(`network request: ${u}`);
  for (const d of seen.dialogs) problems.push(`dialog opened (script ran?): ${d}`);
  checks += 4;
} catch (e) {
  problems.push(`check crashed: ${e && e.message ? e.message.split('\n')[0] : e}`);
} finally {
  await browser.close().catch(() => {});
}
finish();
