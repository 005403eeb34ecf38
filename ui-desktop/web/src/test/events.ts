/** Runner events as tests script them: what every test leaves at its default, once. */
import type { RunEvent } from '../api';

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
