/** Runner events and core's views of a run as tests script them: what every test leaves at its default, once. */
import type { LiveBatch, RunEvent } from '../api';
import type { CellView } from '../bindings/CellView';
import type { LiveView } from '../bindings/LiveView';

type Planned = Extract<RunEvent, { type: 'planned' }>;

/** A plan of one compute cell (native × sha256), one invocation; `over` changes any field. */
export function planned(over: Partial<Omit<Planned, 'type'>> = {}): Planned {
  return {
    type: 'planned',
    run_id: 'r',
    suite: 'compute',
    suite_kind: 'command',
    baseline: 'native',
    cells: [['native', 'sha256']],
    iterations_per_cell: 1,
    invocations: 1,
    ...over,
  };
}

/**
 * Core's view of a run (its `LiveView`, what the backend sends with each batch) as a test
 * gives it: a compute run just planned; `over` changes any field.
 */
export function view(over: Partial<LiveView> = {}): LiveView {
  return {
    state: 'running',
    run_id: 'r',
    suite: 'compute',
    suite_kind: 'command',
    baseline: 'native',
    cell_count: 0,
    iterations_per_cell: 1,
    invocations: 1,
    current: null,
    alongside: null,
    finished_cells: 0,
    failed_cells: 0,
    failed_reported: null,
    error: null,
    progress: { done: 0, total: 0, fraction: 0 },
    eta_ms: null,
    position: { at: 0, of: 0, invocation: 0, invocations: 1, round: null, in_round: 0 },
    cells: [],
    ...over,
  };
}

/** One cell as core shows it, pending unless `over` says otherwise. */
export function cellView(index: number, runtime: string, test: string, over: Partial<CellView> = {}): CellView {
  return {
    index,
    runtime,
    test,
    status: 'pending',
    done: 0,
    invocation: 0,
    invocations_ended: 0,
    failure: null,
    wall_ms: null,
    value: null,
    ratio: null,
    interim: false,
    source: null,
    ...over,
  };
}

/** A batch as the backend sends it: events, and the view after them. */
export function batch(events: RunEvent[], v: LiveView = view()): LiveBatch {
  return { events, view: v };
}
