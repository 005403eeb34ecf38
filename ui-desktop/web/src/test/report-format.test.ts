/**
 * The HTML report writes numbers by core's rules too: its formats (`assets/report/format.js`,
 * which core's HTML exporter puts into the page) come out as core's own functions on the
 * table of cases core writes, as the page's do.
 */
import { describe } from 'vitest';
import script from '../../../../assets/report/format.js?raw';
import { type Formatters, itFormatsAsCore } from './formatCases';

// The script as the report runs it: a plain script that defines WASMETER_FORMAT.
const F = new Function(`${script}\nreturn WASMETER_FORMAT;`)();

describe("the HTML report's formats are core's", () => {
  const report: Formatters = {
    ns: F.formatNs,
    nsWithin: F.formatNsWithin,
    bytes: F.formatBytes,
    rate: F.formatRate,
    size: F.formatSize,
    value: F.formatValue,
    ratioText: F.formatRatioText,
    geomean: F.formatGeomean,
  };
  itFormatsAsCore(report);
});
