/**
 * How the page shows a kind of suite: core's `SuiteKind::shape`, generated into
 * `bindings/suiteShapes.ts`. The page reads these facts (its phases, whether cells are HTTP
 * or an instance's life, whether there is a baseline or a profile) instead of comparing
 * kind words, so a new kind is placed in core and the page follows.
 */
import type { SuiteKind, SuiteShape, View } from './api';
import { SUITE_SHAPES } from './bindings/suiteShapes';

/** A kind's shape; a run saved without a kind is a command run, as core reads it. */
export function shapeOf(kind: SuiteKind | null | undefined): SuiteShape {
  return SUITE_SHAPES[kind ?? 'command'];
}

/** True when a kind of this shape has `view` (core's list of its tables and views). */
export function hasView(shape: SuiteShape | null | undefined, view: View): boolean {
  return shape?.views.some((v) => v.view === view) ?? false;
}
