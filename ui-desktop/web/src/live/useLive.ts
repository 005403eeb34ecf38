/**
 * Hooks over the session: components re-render when it notifies (at most once per frame),
 * and only when what they select changed, so a 10 Hz sample stream re-renders the live
 * screen, not the whole app.
 */
import { useEffect, useState } from 'preact/hooks';
import type { LiveSession } from './session';
import type { LiveState } from './state';

/** A value derived from the live state; compared with Object.is between notifications. */
export function useLiveSelect<T>(session: LiveSession, select: (s: LiveState) => T): T {
  const [value, setValue] = useState(() => select(session.state));
  useEffect(() => {
    const update = () => setValue(() => select(session.state));
    update();
    return session.subscribe(update);
  }, [session]);
  return value;
}

/** The whole live state. */
export function useLive(session: LiveSession): LiveState {
  return useLiveSelect(session, (s) => s);
}
