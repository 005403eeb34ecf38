/**
 * The error banner's store. Any failure anywhere (a rejected command, a run error, an
 * uncaught exception) lands here and is shown: the window never goes blank silently.
 */
import { errorMessage } from './api';

type Listener = (messages: readonly string[]) => void;

/** Messages kept at once; older ones drop off. */
const MAX = 5;

let messages: string[] = [];
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of [...listeners]) l(messages);
}

/** Shows `e` (any rejection value) in the banner. */
export function showError(e: unknown): void {
  const m = errorMessage(e).trim() || 'unknown error';
  // The same message twice in a row (e.g. a retried command) is shown once.
  if (messages[messages.length - 1] === m) return;
  messages = [...messages, m].slice(-MAX);
  emit();
}

export function dismissErrors(): void {
  messages = [];
  emit();
}

export function currentErrors(): readonly string[] {
  return messages;
}

export function subscribeErrors(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/**
 * Window errors that are the browser's notices, not the app's failures: a ResizeObserver
 * whose callback changed a size again (charts and tables that follow their box do) is
 * reported as an `error` event with no error object, and nothing is lost by it.
 */
export function isBrowserNotice(ev: Pick<ErrorEvent, 'error' | 'message'>): boolean {
  return ev.error == null && /^ResizeObserver loop/.test(ev.message ?? '');
}

/** Routes uncaught errors and unhandled rejections to the banner. */
export function installGlobalHandlers(target: Window = window): () => void {
  const onError = (ev: ErrorEvent) => {
    if (!isBrowserNotice(ev)) showError(ev.error ?? ev.message);
  };
  const onRejection = (ev: PromiseRejectionEvent) => showError(ev.reason);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
