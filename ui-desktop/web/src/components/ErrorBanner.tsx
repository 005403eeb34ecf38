/** Shows what went wrong, from the error store, until dismissed. */
import { useEffect, useState } from 'preact/hooks';
import { currentErrors, dismissErrors, subscribeErrors } from '../errors';

export function ErrorBanner() {
  const [messages, setMessages] = useState<readonly string[]>(currentErrors());
  useEffect(() => subscribeErrors(setMessages), []);
  if (messages.length === 0) return null;
  return (
    <div class="error-banner" role="alert" data-testid="error-banner">
      <ul>
        {messages.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
      <button type="button" onClick={dismissErrors} aria-label="Dismiss errors" data-testid="dismiss-error">
        Dismiss
      </button>
    </div>
  );
}
