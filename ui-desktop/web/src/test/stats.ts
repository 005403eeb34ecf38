/** Test data shared by the page's tests. */
import type { Stats } from '../api';

/** Statistics of one value: every figure is that value. */
export const stats = (median: number): Stats =>
  ({
    n: 1,
    min: median,
    max: median,
    median,
    mean: median,
    stddev: 0,
    mad: 0,
    p90: median,
    p99: median,
    ci_low: null,
    ci_high: null,
  }) as Stats;
