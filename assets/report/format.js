// How the HTML report writes numbers: core's rules (core/model/src/format), as the desktop
// page's format.ts writes them, in the plain script the report is. core/report's HTML
// exporter puts this file into the page; the desktop page's tests run it on core's own table
// of cases (ui-desktop/web/src/test/report-format.test.ts, fixtures/format-cases.json), so
// the report, the page, the TUI and the CLI write a number the same way.
var WASMETER_FORMAT = (function () {
  'use strict';
  // What a cell says when it has no value (core's MISSING).
  var MISSING = '-';
  function finite(v) { return typeof v === 'number' && isFinite(v); }
  // `v` with `digits` decimals as Rust's {:.N} writes it: an exact tie rounds to the even digit.
  function fixed(v, digits) {
    var exact = v.toFixed(100);
    var dot = exact.indexOf('.');
    if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
      var kept = exact.slice(0, digits > 0 ? dot + 1 + digits : dot);
      if (Number(kept[kept.length - 1]) % 2 === 0) return kept;
    }
    return v.toFixed(digits);
  }
  // The unit a duration in ns is written in: its size in ns, its name, formatNs's decimals.
  function timeUnit(ns) {
    return ns >= 1e9 ? [1e9, 's', 2] : ns >= 1e6 ? [1e6, 'ms', 2] : ns >= 1e3 ? [1e3, 'µs', 1] : [1, 'ns', 0];
  }
  // Nanoseconds as ns / µs / ms / s ("999 ns", "1.0 µs", "1.23 ms").
  function formatNs(ns) {
    if (!finite(ns)) return MISSING;
    var u = timeUnit(ns);
    return fixed(ns / u[0], u[2]) + ' ' + u[1];
  }
  // A duration to the digits its interval supports ("980 ms" at ±4 %, "984.8 ms" at ±0.1 %).
  function formatNsWithin(ns, halfwidthPct) {
    if (!finite(ns) || !finite(halfwidthPct) || halfwidthPct <= 0 || ns <= 0) return formatNs(ns);
    // The half-width as shown (formatHalfwidth, one decimal): 0.96 % reads ±1.0 %.
    var shown = Number(halfwidthPct.toFixed(1));
    var h = shown > 0 ? shown : halfwidthPct;
    var u = timeUnit(ns);
    var v = ns / u[0];
    var lead = Math.floor(Math.log10(v));
    var place = Math.min(Math.floor(Math.log10((v * h) / 100)), lead - 1);
    if (place > 0) {
      var step = Math.pow(10, place);
      return fixed(Math.round(v / step) * step, 0) + ' ' + u[1];
    }
    return fixed(v, Math.min(Math.max(-place, 0), u[2])) + ' ' + u[1];
  }
  // Bytes as B / KiB / MiB / GiB ("-300 B", "1.5 KiB", "3.00 GiB").
  function formatBytes(b) {
    if (!finite(b)) return MISSING;
    var a = Math.abs(b);
    if (a >= 1073741824) return fixed(b / 1073741824, 2) + ' GiB';
    if (a >= 1048576) return fixed(b / 1048576, 1) + ' MiB';
    if (a >= 1024) return fixed(b / 1024, 1) + ' KiB';
    return fixed(b, 0) + ' B';
  }
  // Operations per second ("0.50/s", "250/s", "12.3k/s", "1.63M/s").
  function formatRate(v) {
    if (!finite(v)) return MISSING;
    if (v >= 1e6) return fixed(v / 1e6, 2) + 'M/s';
    if (v >= 1e3) return fixed(v / 1e3, 1) + 'k/s';
    if (v >= 10) return fixed(v, 0) + '/s';
    return fixed(v, 2) + '/s';
  }
  // A memory size that is a whole number of KiB or MiB, as such ("64 KiB").
  function formatSize(b) {
    if (b >= 1048576 && b % 1048576 === 0) return b / 1048576 + ' MiB';
    if (b >= 1024 && b % 1024 === 0) return b / 1024 + ' KiB';
    return formatBytes(b);
  }
  // A value in its unit ('ns', 'bytes', 'per_sec'): times under 100 ns keep a decimal.
  function formatValue(unit, v) {
    if (unit === 'bytes') return formatBytes(v);
    if (unit === 'per_sec') return formatRate(v);
    if (finite(v) && Math.abs(v) < 100) return fixed(v, 1) + ' ns';
    return formatNs(v);
  }
  // A ratio like "1.15×": two decimals below 10×, fewer above, two digits far below 1.
  function formatRatio(r) {
    if (!finite(r)) return MISSING;
    var a = Math.abs(r);
    return (a >= 100 ? r.toFixed(0) : a >= 10 ? r.toFixed(1) : a >= 0.1 || a === 0 ? r.toFixed(2) : r.toPrecision(2)) + '×';
  }
  // The noise of a figure: half the width of its 95 % interval, percent ("±1.4 %").
  function formatHalfwidth(p) { return finite(p) ? '±' + p.toFixed(1) + ' %' : MISSING; }
  // A confidence level as core prints it ("95 %", "96.9 %").
  function levelPct(l) {
    var pct = l * 100;
    return Math.abs(pct - Math.round(pct)) < 0.05 ? fixed(pct, 0) + ' %' : fixed(pct, 1) + ' %';
  }
  // A diff row's ratio with its interval and noise ("1.034 [1.012, 1.057] ±2.2 %"), and the
  // interval's level when it is not 95 % (" at 96.9 %").
  function formatRatioText(r) {
    if (!finite(r.ratio)) return MISSING;
    if (finite(r.ci_low) && finite(r.ci_high) && finite(r.halfwidth_pct)) {
      var level = finite(r.level) && Math.abs(r.level - 0.95) >= 0.0005 ? ' at ' + levelPct(r.level) : '';
      return fixed(r.ratio, 3) + ' [' + fixed(r.ci_low, 3) + ', ' + fixed(r.ci_high, 3) + '] ±' + fixed(r.halfwidth_pct, 1) + ' %' + level;
    }
    return fixed(r.ratio, 3) + ' (no interval)';
  }
  // A runtime's geometric mean, naming how many tests it covers when not all ("1.23× (12 of 15 tests)").
  function formatGeomean(g) {
    if (!g || !finite(g.geomean_relative)) return MISSING;
    var total = finite(g.tests_total) ? g.tests_total : 0;
    var mean = fixed(g.geomean_relative, 2) + '×';
    return total > 0 && g.tests_compared < total ? mean + ' (' + g.tests_compared + ' of ' + total + ' tests)' : mean;
  }
  return {
    MISSING: MISSING,
    fixed: fixed,
    formatNs: formatNs,
    formatNsWithin: formatNsWithin,
    formatBytes: formatBytes,
    formatRate: formatRate,
    formatSize: formatSize,
    formatValue: formatValue,
    formatRatio: formatRatio,
    formatHalfwidth: formatHalfwidth,
    formatRatioText: formatRatioText,
    formatGeomean: formatGeomean,
  };
})();
