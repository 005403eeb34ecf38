/**
 * The fixtures the page's tests run on have the shapes of the generated types: each is
 * assigned to its type (string literals widened, as JSON imports are), so a field renamed,
 * removed or added as required on the Rust side fails `tsc` here until the fixture is
 * brought up to date, instead of the tests passing on data the backend no longer sends.
 */
import { describe, expect, it } from 'vitest';
import type { Comparison, Diff, History, Report, RunListItem, RunPolicy, RuntimeView, SuiteInfo } from '../api';
import compare from './fixtures/compare.json';
import diff from './fixtures/diff.json';
import history from './fixtures/history.json';
import http from './fixtures/http.json';
import httpDiff from './fixtures/http-diff.json';
import lifecycle from './fixtures/lifecycle.json';
import policy from './fixtures/policy.json';
import run from './fixtures/run.json';
import runs from './fixtures/runs.json';
import runtimes from './fixtures/runtimes.json';
import suites from './fixtures/suites.json';

/** `T` as a JSON import types it: literals widened, tuples as arrays. */
type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? Widen<U>[]
        : T extends object
          ? string extends keyof T
            ? { [k: string]: Widen<T[string & keyof T]> | undefined }
            : { [K in keyof T]: Widen<T[K]> }
          : T;

const checked = {
  compare: compare satisfies Widen<Comparison>,
  diff: diff satisfies Widen<Report>,
  history: history satisfies Widen<History>,
  httpDiff: httpDiff satisfies Widen<Diff>,
  http: http satisfies Widen<Report>,
  lifecycle: lifecycle satisfies Widen<Report>,
  policy: policy satisfies Widen<RunPolicy>,
  run: run satisfies Widen<Report>,
  runs: runs satisfies Widen<RunListItem[]>,
  runtimes: runtimes satisfies Widen<RuntimeView[]>,
  suites: suites satisfies Widen<SuiteInfo[]>,
};

describe('test fixtures', () => {
  it('are typed as what the commands answer (checked by tsc)', () => {
    expect(Object.keys(checked)).toHaveLength(11);
  });
});
