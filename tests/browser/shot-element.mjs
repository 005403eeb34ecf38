// Screenshots one element of a wasmeter HTML report in headless Chromium, for the docs'
// figures (docs/http.md's latency against offered rate).
//
//   node shot-element.mjs <report.html> <css selector> <out.png>
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [report, selector, out] = process.argv.slice(2);
if (!report || !selector || !out) {
  process.stderr.write('usage: node shot-element.mjs <report.html> <css selector> <out.png>\n');
  process.exit(1);
}
const browser = await chromium.launch({ executablePath: process.env.WASMETER_CHROMIUM || '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // Offline: the report needs nothing from the network.
  await page.route(/^(https?|wss?):/i, (r) => r.abort());
  await page.goto(pathToFileURL(resolve(report)).href);
  const el = await page.$(selector);
  if (!el) {
    process.stderr.write(`${report}: no element matches ${selector}\n`);
    process.exit(1);
  }
  await el.scrollIntoViewIfNeeded();
  await el.screenshot({ path: out });
} finally {
  await browser.close();
}
