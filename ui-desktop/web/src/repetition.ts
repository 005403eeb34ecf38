/**
 * How often a run repeats each cell by default: fresh worker processes (invocations),
 * each with warm-ups and measured runs — core's `Repetition::default_for` per kind of
 * suite (ui-desktop/tests/commands.rs checks that these agree with it). Every default
 * gives a cell at least 3 values from 2 invocations, the least a diff needs for a verdict.
 */
import type { RunOrder, SuiteKind } from './api';
import { isHttpKind } from './http';

export interface Repetition {
  invocations: number;
  warmup: number;
  runs: number;
}

export const REPETITION: Readonly<Record<'command' | 'lifecycle' | 'http', Repetition>> = {
  command: { invocations: 3, warmup: 0, runs: 2 },
  lifecycle: { invocations: 2, warmup: 1, runs: 3 },
  http: { invocations: 3, warmup: 0, runs: 1 },
};

/** Which defaults a kind of suite takes. */
export function repetitionGroup(kind: SuiteKind): keyof typeof REPETITION {
  return isHttpKind(kind) ? 'http' : kind === 'lifecycle' ? 'lifecycle' : 'command';
}

/** The defaults of a kind of suite. */
export function repetitionFor(kind: SuiteKind): Repetition {
  return REPETITION[repetitionGroup(kind)];
}

/** The order a run takes unless told otherwise (core's `RunRequest::new`). */
export const DEFAULT_ORDER: RunOrder = 'interleaved';

/** Fewest invocations and values a cell needs for a diff's verdict (core's MIN_INVOCATIONS, MIN_VALUES). */
export const MIN_INVOCATIONS = 2;
export const MIN_VALUES = 3;
