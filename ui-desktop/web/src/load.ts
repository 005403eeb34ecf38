/**
 * One load a screen makes from the backend whenever its inputs change (a run, a diff, a
 * comparison, a history), with the one rule they all need: an answer that arrives after the
 * inputs have changed again is dropped, so a slow early answer never overwrites a later one.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from './api';
import { showError } from './errors';

/** What the screen does with the load's life: all optional but `loaded`. */
export interface LoadHandlers<T> {
  /** Before every load, and when the inputs leave nothing to load: clear the last answer. */
  start?: () => void;
  /** The latest answer. */
  loaded: (value: T) => void;
  /** The latest load failed (its message is in `error` and the banner). */
  failed?: () => void;
}

/**
 * Runs `load` (null: nothing to load) again whenever `deps` change; `loading` and `error`
 * follow the latest call only.
 */
export function useLoad<T>(
  load: (() => Promise<T>) | null,
  deps: readonly unknown[],
  handlers: LoadHandlers<T>,
): { loading: boolean; error: string | null } {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    handlers.start?.();
    setError(null);
    if (!load) {
      setLoading(false);
      return undefined;
    }
    let stale = false;
    setLoading(true);
    load()
      .then((value) => {
        if (!stale) handlers.loaded(value);
      })
      .catch((e: unknown) => {
        if (stale) return;
        handlers.failed?.();
        setError(errorMessage(e));
        showError(e);
      })
      .finally(() => {
        if (!stale) setLoading(false);
      });
    return () => {
      stale = true;
    };
  }, deps);
  return { loading, error };
}

/** An answer of [`useRestingCheck`] and the inputs it was for. */
export interface Checked<T> {
  key: string;
  value: T | null;
  /** The check's refusal, in the backend's words. */
  error: string | null;
}

/**
 * Asks `check` once the inputs named by `key` have rested `delayMs` (null: nothing to ask,
 * and the last answer forgotten), and keeps the answer with the key it was for, so the
 * caller shows it only while the inputs are still those; an answer that arrives after the
 * inputs changed is dropped.
 * Unlike [`useLoad`], a refusal is an answer (shown where the input is), not an error banner.
 */
export function useRestingCheck<T>(key: string | null, check: () => Promise<T>, delayMs: number): Checked<T> | null {
  const [answer, setAnswer] = useState<Checked<T> | null>(null);
  useEffect(() => {
    if (key === null) {
      setAnswer(null);
      return undefined;
    }
    let live = true;
    const timer = setTimeout(() => {
      check()
        .then((value) => live && setAnswer({ key, value, error: null }))
        .catch((e: unknown) => live && setAnswer({ key, value: null, error: errorMessage(e) }));
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return answer;
}
