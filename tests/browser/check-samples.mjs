// Renders the report template with each committed sample (assets/report/sample*.json) the
// way core/report/src/export/html.rs does, then runs check-report.mjs on the page: a check of the
// template that needs no Rust build (app/tests/all/report.rs checks real exports).
//
//   node check-samples.mjs [<out dir>]      (default: a temporary directory)
//
// Exit 0 and `ok <sample>: <n checks>` per sample, else the failing checks on stderr.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const assets = resolve(here, '../../assets/report');
const MARKER = '<script type="application/json" id="wasmeter-data">{}</script>';

/** JSON that cannot end its script element (as `script_safe_json`). */
export function scriptSafeJson(value) {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The page the HTML exporter writes for `data`. */
export function renderReport(template, data) {
  const at = template.indexOf(MARKER);
  if (at < 0) throw new Error('the report template has no data marker');
  return `${template.slice(0, at)}<script type="application/json" id="wasmeter-data">${scriptSafeJson(data)}</script>${template.slice(at + MARKER.length)}`;
}

const out = process.argv[2] ? resolve(process.argv[2]) : mkdtempSync(join(tmpdir(), 'wasmeter-report-'));
mkdirSync(out, { recursive: true });
const template = readFileSync(join(assets, 'report.html'), 'utf8');
const samples = readdirSync(assets).filter((f) => /^sample.*\.json$/.test(f)).sort();
let failed = false;
for (const f of samples) {
  const name = f.replace(/\.json$/, '');
  const page = join(out, `${name}.html`);
  writeFileSync(page, renderReport(template, JSON.parse(readFileSync(join(assets, f), 'utf8'))));
  try {
    const ok = execFileSync(process.execPath, [join(here, 'check-report.mjs'), page, join(out, `${name}.png`)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(`${ok.trim()} ${f}\n`);
  } catch (e) {
    failed = true;
    process.stderr.write(`${f}:\n${e.stdout || ''}${e.stderr || e.message}\n`);
  }
}
if (!samples.length) {
  process.stderr.write(`no sample*.json in ${assets}\n`);
  failed = true;
}
process.stdout.write(`pages and screenshots in ${out}\n`);
process.exit(failed ? 1 : 0);
