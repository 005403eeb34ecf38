/**
 * The one load every screen makes (useLoad): the latest inputs' answer wins even when an
 * earlier one arrives after it, a failure is shown once and cleared by the next load, and
 * inputs that leave nothing to load stop the spinner. The setup's checks (useRestingCheck)
 * ask once the inputs rest, and keep an answer with the inputs it was for.
 */
import { render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { currentErrors } from '../errors';
import { useLoad, useRestingCheck } from '../load';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Probe({ id, loads }: { id: string | null; loads: Map<string, Promise<string>> }) {
  const { loading, error } = useLoad(id ? () => loads.get(id) ?? Promise.reject('no load') : null, [id], {
    start: () => {
      document.body.dataset.shown = '';
    },
    loaded: (v) => {
      document.body.dataset.shown = v;
    },
  });
  return (
    <p data-testid="probe">
      {loading ? 'loading' : 'idle'}|{error ?? ''}
    </p>
  );
}

describe('useLoad', () => {
  it('keeps the latest answer when an earlier one arrives after it', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const loads = new Map([
      ['a', first.promise],
      ['b', second.promise],
    ]);
    const { rerender } = render(<Probe id="a" loads={loads} />);
    expect(screen.getByTestId('probe').textContent).toMatch(/^loading/);
    rerender(<Probe id="b" loads={loads} />);
    second.resolve('answer b');
    await waitFor(() => expect(document.body.dataset.shown).toBe('answer b'));
    first.resolve('answer a');
    await new Promise((r) => setTimeout(r, 10));
    expect(document.body.dataset.shown).toBe('answer b');
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toMatch(/^idle/));
  });

  it('shows a failure once and clears it on the next load; nothing to load is not loading', async () => {
    const bad = deferred<string>();
    const loads = new Map([['x', bad.promise]]);
    const { rerender } = render(<Probe id="x" loads={loads} />);
    bad.reject('x.json: not a run');
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('idle|x.json: not a run'));
    expect(currentErrors()).toEqual(['x.json: not a run']);
    rerender(<Probe id={null} loads={loads} />);
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('idle|'));
  });
});

function CheckProbe({ k, checks, asked }: { k: string | null; checks: Map<string, Promise<string>>; asked: string[] }) {
  const answer = useRestingCheck(
    k,
    () => {
      asked.push(k!);
      return checks.get(k!) ?? Promise.reject(new Error('no check'));
    },
    20,
  );
  return <p data-testid="check">{answer ? `${answer.key}:${answer.value ?? ''}:${answer.error ?? ''}` : 'none'}</p>;
}

describe('useRestingCheck', () => {
  it('asks only once the inputs rest, and drops an answer for inputs since changed', async () => {
    const slow = deferred<string>();
    const fast = deferred<string>();
    const refused = Promise.reject(new Error("--pair needs different arms, got 'x' twice"));
    refused.catch(() => undefined); // handled here: asked for later
    const checks = new Map([
      ['a', slow.promise],
      ['b', fast.promise],
      ['c', refused],
    ]);
    const asked: string[] = [];
    const { rerender } = render(<CheckProbe k="t" checks={checks} asked={asked} />);
    // Typed through quickly: only the value it rests on is asked.
    rerender(<CheckProbe k="a" checks={checks} asked={asked} />);
    await waitFor(() => expect(asked).toEqual(['a']));
    rerender(<CheckProbe k="b" checks={checks} asked={asked} />);
    await waitFor(() => expect(asked).toEqual(['a', 'b']));
    fast.resolve('fine');
    await waitFor(() => expect(screen.getByTestId('check').textContent).toBe('b:fine:'));
    slow.resolve('stale');
    await new Promise((r) => setTimeout(r, 10));
    expect(screen.getByTestId('check').textContent).toBe('b:fine:');
    // A refusal is an answer, in the backend's words, not a banner.
    rerender(<CheckProbe k="c" checks={checks} asked={asked} />);
    await waitFor(() => expect(screen.getByTestId('check').textContent).toBe("c::--pair needs different arms, got 'x' twice"));
    expect(currentErrors()).toEqual([]);
  });
});
