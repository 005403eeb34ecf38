/**
 * The run in flight, outside of any component: it owns the event channel, merges each
 * batch's view (core's) into the state, keeps samples in a ring buffer, and tells subscribers
 * at most once per animation frame, so 10 samples a second cost at most one re-render
 * and one chart update per frame, and nothing at all while idle.
 */
import type { Channel } from '@tauri-apps/api/core';
import type { LiveBatch, ModulesRequest, RunChoices } from '../api';
import * as api from '../api';
import { Ring } from '../charts/ring';
import { inFlight, initialState, type LiveAction, type LiveState, reduce } from './state';

/** Samples kept for the live graphs: two minutes at the default 100 ms. */
export const SAMPLE_CAPACITY = 1200;

/** Series of the sample ring. */
export const S_T = 0;
export const S_CPU = 1;
export const S_RSS = 2;

export interface SessionDeps {
  startRun: typeof api.startRun;
  cancelRun: typeof api.cancelRun;
  /** A run ended (finished, cancelled or failed): e.g. refresh the saved runs. */
  onEnded?: (s: LiveState) => void;
  /** Shows an error to the user. */
  onError?: (message: string) => void;
  /** Defers a notification to the next frame. */
  schedule?: (fn: () => void) => void;
}

function defaultSchedule(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => fn());
  else setTimeout(fn, 16);
}

export class LiveSession {
  state: LiveState = initialState();
  readonly samples = new Ring(SAMPLE_CAPACITY, 3);
  /** Bumped when samples changed, so a chart redraws only then. */
  sampleVersion = 0;
  /** The open event channel while a run is in flight. */
  channel: Channel<LiveBatch> | null = null;
  private readonly listeners = new Set<() => void>();
  private pending = false;
  private readonly deps: SessionDeps;

  constructor(deps: Partial<SessionDeps> = {}) {
    this.deps = { startRun: api.startRun, cancelRun: api.cancelRun, ...deps };
  }

  private apply(a: LiveAction): void {
    const wasRunning = inFlight(this.state);
    this.state = reduce(this.state, a);
    if (a.type === 'batch') {
      for (const e of a.batch.events) {
        // A resident size of 0 is a moment with no worker (between processes), not a worker
        // of no memory: the charts skip it rather than drop to 0 every cell.
        if (e.type === 'sample' && e.sample.rss_bytes > 0) {
          this.samples.push(e.sample.t_ms / 1000, e.sample.cpu_pct, e.sample.rss_bytes);
          this.sampleVersion++;
        } else if (e.type === 'planned') {
          this.samples.clear();
          this.sampleVersion++;
        } else if (e.type === 'stopped') {
          this.deps.onError?.(e.message);
        }
      }
    }
    if (a.type === 'startFailed') this.deps.onError?.(a.message);
    if (wasRunning && !inFlight(this.state)) {
      this.channel = null;
      this.deps.onEnded?.(this.state);
    }
  }

  /** Merges one batch from the channel, then notifies once. */
  handleBatch = (batch: LiveBatch): void => {
    this.apply({ type: 'batch', batch });
    this.notify();
  };

  /**
   * Starts a run of `suite` with `choices` (of the modules given by path, when `modules`
   * is given); resolves false if the backend refused it. The suite's kind and the
   * baseline come with the plan.
   */
  async start(suite: string, choices: RunChoices, modules?: ModulesRequest): Promise<boolean> {
    if (inFlight(this.state)) return false;
    this.samples.clear();
    this.sampleVersion++;
    this.apply({ type: 'begin', suite });
    this.notify();
    try {
      this.channel = await (modules
        ? this.deps.startRun(suite, choices, this.handleBatch, modules)
        : this.deps.startRun(suite, choices, this.handleBatch));
      return true;
    } catch (e) {
      this.apply({ type: 'startFailed', message: api.errorMessage(e) });
      this.notify();
      return false;
    }
  }

  /** Asks the backend to cancel; the run ends with a run_finished event. */
  async cancel(): Promise<void> {
    if (!inFlight(this.state)) return;
    this.apply({ type: 'cancelRequested' });
    this.notify();
    try {
      await this.deps.cancelRun();
    } catch (e) {
      this.deps.onError?.(api.errorMessage(e));
    }
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    if (this.pending) return;
    this.pending = true;
    (this.deps.schedule ?? defaultSchedule)(() => {
      this.pending = false;
      for (const fn of [...this.listeners]) fn();
    });
  }
}
