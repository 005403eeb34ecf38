import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDuration,
  formatGeomean,
  formatHalfwidth,
  formatNs,
  formatRatio,
  formatRatioCi,
  formatRatioText,
  formatTime,
  median,
  ratioBin,
  ratioColor,
  ratioTone,
  timeTickLabels,
} from '../format';

describe('formatNs and formatBytes', () => {
  // The rules are core's, checked on core's own table of cases (format-cases.test.ts).
  it('pick the unit as core does', () => {
    expect(formatNs(0)).toBe('0 ns');
    expect(formatNs(1234)).toBe('1.2 µs');
    expect(formatNs(97845501)).toBe('97.85 ms');
    expect(formatNs(999.7)).toBe('1000 ns');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(4294967296)).toBe('4.00 GiB');
  });
  it('show a dash for missing values', () => {
    expect(formatNs(null)).toBe('-');
    expect(formatNs(undefined)).toBe('-');
    expect(formatNs(NaN)).toBe('-');
    expect(formatBytes(null)).toBe('-');
  });
});

describe('formatRatio', () => {
  it('formats like 1.15×', () => {
    expect(formatRatio(1.151179664570941)).toBe('1.15×');
    expect(formatRatio(1)).toBe('1.00×');
    expect(formatRatio(6.731118895992655)).toBe('6.73×');
    expect(formatRatio(12.34)).toBe('12.3×');
    expect(formatRatio(250.4)).toBe('250×');
    expect(formatRatio(0.0123)).toBe('0.012×');
    expect(formatRatio(null)).toBe('-');
    expect(formatRatioCi(1.1331189066185128, 1.1654786303994704)).toBe('1.13–1.17×');
    expect(formatRatio(0.9962670753263783, 3)).toBe('0.996×');
    expect(formatRatioCi(0.9623226938150088, 1.0025694811538037, 3)).toBe('0.962–1.003×');
  });
});

describe('other helpers', () => {
  it('formats durations', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(7_380_000)).toBe('2 h 03 min');
    expect(formatDuration(null)).toBe('-');
  });
  it('formats unix seconds as local time in a fixed shape', () => {
    const t = new Date(2026, 10, 22, 3, 52, 29).getTime() / 1000;
    expect(formatTime(t)).toBe('2026-11-22 03:52:29');
  });
  it('takes medians', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
  });
  it("colours ratios on core's diverging log scale: blue below 1, red above, further away darker", () => {
    expect(ratioTone(0.5)).toBe('faster');
    expect(ratioTone(1.001)).toBe('same');
    expect(ratioTone(1.15)).toBe('slower');
    expect(ratioColor(1)).toBe('#f7f7f7');
    expect(ratioColor(0)).toBe('transparent');
    // Log scale: 2× slower and 2× faster are the same number of bins from 1×.
    expect(ratioBin(2)! - 12).toBe(12 - ratioBin(0.5)!);
    // 1.1× and 1.8× look different (the old reds made them alike).
    expect(ratioColor(1.1)).not.toBe(ratioColor(1.8));
    expect(ratioColor(100)).toBe(ratioColor(8));
  });
  it('writes noise, diff ratios and geomeans as core does', () => {
    expect(formatHalfwidth(1.44)).toBe('±1.4 %');
    expect(formatHalfwidth(null)).toBe('-');
    // core's export::format_ratio: "1.034 [1.012, 1.057] ±2.2 %".
    expect(formatRatioText({ ratio: 1.0342, ci_low: 1.0121, ci_high: 1.0573, halfwidth_pct: 2.19 })).toBe('1.034 [1.012, 1.057] ±2.2 %');
    expect(formatRatioText({ ratio: 0.98, ci_low: null, ci_high: null, halfwidth_pct: null })).toBe('0.980 (no interval)');
    expect(formatRatioText({ ratio: null, ci_low: null, ci_high: null, halfwidth_pct: null })).toBe('-');
    // core's export::format_geomean: the tests covered, when not all.
    expect(formatGeomean({ geomean_relative: 1.234, tests_compared: 12, tests_total: 15 })).toBe('1.23× (12 of 15 tests)');
    expect(formatGeomean({ geomean_relative: 1.234, tests_compared: 15, tests_total: 15 })).toBe('1.23×');
    expect(formatGeomean({ geomean_relative: 1.234, tests_compared: 3 })).toBe('1.23×');
    expect(formatGeomean({ geomean_relative: null, tests_compared: 0, tests_total: 4 })).toBe('-');
  });
});

describe('timeTickLabels', () => {
  it('names each date once', () => {
    const day = (d: number, h: number) => new Date(2026, 10, d, h, 30).getTime() / 1000;
    // Three ticks on one day: the date on the first only (it was "2026-11-28" three times).
    expect(timeTickLabels([day(28, 9), day(28, 12), day(28, 15)])).toEqual(['2026-11-28 09:30', '12:30', '15:30']);
    // Across midnight: the date again where it changes.
    expect(timeTickLabels([day(27, 20), day(28, 2), day(28, 8)])).toEqual(['2026-11-27 20:30', '2026-11-28 02:30', '08:30']);
    // Over days: dates, a repeated one blank.
    expect(timeTickLabels([day(1, 0), day(1, 12), day(20, 0)])).toEqual(['2026-11-01', '', '2026-11-20']);
    expect(timeTickLabels([])).toEqual([]);
  });
});
