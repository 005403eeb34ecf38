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
const TEMPLATE_SCRIPT_IDS = ['wasmeter-data', 'wasmeter-app'];

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
// Lifecycle runs: the heap chart must draw one line per runtime and fill of a measurement.
const heapSeries = run0 && Array.isArray(run0.heap_series) ? run0.heap_series : [];
const lifecycle = Boolean(run0 && (run0.suite_kind === 'lifecycle' || heapSeries.length));
const seriesOf = (measure) => heapSeries.filter((x) => x.measure === measure).length;
// Hostile-looking strings that the report must show as text (labels and test names).
const mustShowAsText = [];
for (const r of data.runs || []) if (typeof r.label === 'string' && r.label.includes('<')) mustShowAsText.push(r.label);
for (const t of (run0 && run0.summary && run0.summary.tests) || []) if (typeof t === 'string' && /[<&"']/.test(t)) mustShowAsText.push(t);

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
      lifecycleVisible: Boolean(q('#lifecycle-section') && !q('#lifecycle-section').hidden),
      heapLines: document.querySelectorAll('#heap-chart svg [data-series]').length,
      heapDashed: document.querySelectorAll('#heap-chart svg polyline.heap-line.sparse').length,
      lifecycleRows: q('table#lifecycle-table') ? q('table#lifecycle-table').tBodies[0].rows.length : -1,
      scriptCount: scripts.length,
      scriptIds: scripts.map((s) => s.id),
      onAttrs: onAttrs.slice(0, 5),
      pwned: typeof window.__pwned !== 'undefined',
      diffExists: Boolean(diff),
      diffVisible,
      diffTables: diff ? diff.querySelectorAll('table').length : 0,
      diffWarnings: diff ? diff.querySelectorAll('.warn li').length : 0,
      renderErrors: document.documentElement.getAttribute('data-render-errors'),
      missingTexts: texts.filter((t) => !text.includes(t) && !hostTitle.includes(t)),
    };
  }, { ids: TEMPLATE_SCRIPT_IDS, texts: mustShowAsText });

  check(dom.matrixIsTable, '#matrix is missing or not a table');
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
  if (hasDists || !run0) check(dom.distSvg > 0, 'no svg in #distributions');
  else check(dom.distSvg > 0 || dom.distMsg > 0, 'no svg and no "no data" message in #distributions');
  if (hasSamples || !run0) check(dom.resSvg > 0, 'no svg in #resources');
  else check(dom.resMsg > 0, 'no samples in the data but no "no data" message in #resources');
  check(dom.statsRows > 0, `#stats table missing or empty (${dom.statsRows} rows)`);
  check(dom.scriptCount === ownScripts && dom.scriptIds.every((id) => TEMPLATE_SCRIPT_IDS.includes(id)),
    `unexpected script elements in the DOM: ${dom.scriptCount} (${dom.scriptIds.join(', ') || 'no ids'}), template has ${ownScripts}`);
  check(dom.onAttrs.length === 0, `elements with event-handler attributes in the DOM: ${dom.onAttrs.join(', ')}`);
  check(!dom.pwned, 'window.__pwned is set: data was executed as code');
  check(dom.missingTexts.length === 0, `strings from the data not shown as text: ${dom.missingTexts.map((t) => JSON.stringify(t)).join(', ')}`);
  check(!dom.renderErrors, 'a section failed to render (data-render-errors on <html>)');
  if (hasDiff) {
    check(dom.diffExists && dom.diffVisible, 'the data has a diff but #diff is missing or hidden');
    check(dom.diffTables > 0, 'the data has a diff but #diff has no table');
    const nWarn = Array.isArray(data.diff.warnings) ? data.diff.warnings.length : 0;
    check(dom.diffWarnings === nWarn, `#diff shows ${dom.diffWarnings} warnings, the data has ${nWarn}`);
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
