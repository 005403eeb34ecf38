/**
 * The page formats numbers by core's rules: each case of the table core's own functions
 * wrote (`ui-desktop/tests/all/format.rs`) comes out the same here.
 */
import { describe, expect, it } from 'vitest';
import type { FeatureSupport } from '../api';
import {
  fixed,
  formatBytes,
  formatGeomean,
  formatNs,
  formatNsWithin,
  formatRate,
  formatRatioText,
  formatSize,
  formatValue,
  ratioColor,
  ratioTextColor,
} from '../format';
import { detail, mark } from '../screens/detail/FeatureGrid';
import table from './fixtures/format-cases.json';
import { itFormatsAsCore } from './formatCases';

describe("core's formatting rules", () => {
  itFormatsAsCore({
    ns: formatNs,
    nsWithin: formatNsWithin,
    bytes: formatBytes,
    rate: formatRate,
    size: formatSize,
    value: formatValue,
    ratioText: formatRatioText,
    geomean: formatGeomean,
  });

  it("a ratio's cell colours on core's shared scale (background, text)", () => {
    const cases = table.ratio_colour as [number, string | null, string | null][];
    expect(cases.length).toBeGreaterThan(15);
    for (const [r, bg, text] of cases) {
      expect([r, bg === null ? 'transparent' : bg, text ?? undefined]).toEqual([r, ratioColor(r), ratioTextColor(r)]);
    }
  });

  it("a features cell's mark and message, as core's Support::mark and detail", () => {
    const cases = table.feature_support as [FeatureSupport, string, string][];
    expect(cases.length).toBe(5);
    for (const [s, m, d] of cases) expect([s.support, mark(s), detail(s)]).toEqual([s.support, m, d]);
  });

  it('rounds an exact tie to the even digit, as Rust does', () => {
    expect([fixed(0.5, 0), fixed(1.5, 0), fixed(2.5, 0), fixed(250.5, 0), fixed(0.125, 2), fixed(0.375, 2)]).toEqual([
      '0',
      '2',
      '2',
      '250',
      '0.12',
      '0.38',
    ]);
    expect([fixed(1.05, 1), fixed(2.675, 2), fixed(-2.5, 0)]).toEqual(['1.1', '2.67', '-2']);
  });
});
