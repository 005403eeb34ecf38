/**
 * Core's table of formatting cases (`ui-desktop/tests/all/format.rs` writes it), run on a
 * set of formatters: the page's (`format-cases.test.ts`) and the HTML report's
 * (`report-format.test.ts`) must both write what core writes.
 */
import { expect, it } from 'vitest';
import table from './fixtures/format-cases.json';

/** The formatters a view writes numbers with, as core's cases call them. */
export interface Formatters {
  ns(v: number | null): string;
  nsWithin(v: number, halfwidthPct: number | null): string;
  bytes(v: number): string;
  rate(v: number): string;
  size(v: number): string;
  value(unit: 'ns' | 'bytes' | 'per_sec', v: number): string;
  ratioText(r: never): string;
  geomean(g: never): string;
}

type Case = [number, string];

/** One test per kind of case, each on every case of core's table. */
export function itFormatsAsCore(f: Formatters): void {
  it.each([
    ['ns', f.ns],
    ['bytes', f.bytes],
    ['rate', f.rate],
    ['size', f.size],
    ['value_ns', (v: number) => f.value('ns', v)],
    ['value_bytes', (v: number) => f.value('bytes', v)],
    ['value_per_sec', (v: number) => f.value('per_sec', v)],
  ] as const)('%s', (key, format) => {
    const cases = table[key] as Case[];
    expect(cases.length).toBeGreaterThan(5);
    for (const [v, want] of cases) expect([v, format(v)]).toEqual([v, want]);
  });

  it('a time to the digits its interval supports', () => {
    const cases = table.ns_within as [number, number | null, string][];
    expect(cases.length).toBeGreaterThan(100);
    for (const [v, h, want] of cases) expect([v, h, f.nsWithin(v, h)]).toEqual([v, h, want]);
  });

  it('diff ratios, geometric means and the missing mark', () => {
    for (const [row, want] of table.ratio_text as [never, string][]) expect(f.ratioText(row)).toBe(want);
    for (const [g, want] of table.geomean as [never, string][]) expect(f.geomean(g)).toBe(want);
    expect(f.ns(null)).toBe(table.missing);
  });
}
