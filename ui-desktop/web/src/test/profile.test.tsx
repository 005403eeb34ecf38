/**
 * A profiled run's detail shows core's explanation — each function's share, time and ratio
 * as core computed them — for the selected runtime beside the baseline (every runtime
 * with "All runtimes"), the notes, and that runtime's flame graph; an unreadable profile
 * says why.
 */
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Causes } from '../bindings/Causes';
import type { ProfileReport } from '../bindings/ProfileReport';
import type { RuntimeColumn } from '../bindings/RuntimeColumn';
import { Profile } from '../screens/detail/Profile';

const column = (runtime: string, samples: number, typical_ns: number, unattributed: string | null = null): RuntimeColumn => ({
  runtime,
  samples,
  iterations: 6,
  typical_ns,
  method: 'software CPU clock every 250 µs',
  unattributed,
  few_samples: false,
  leaf_only: null,
  names: null,
  lost: 0,
  kernel: true,
});
const cell = (samples: number, share: number, ns: number, ratio: number | null) => ({
  samples,
  share,
  inclusive: null,
  ns,
  ratio,
  part: null,
});
// What the counting run counted of fe_mul on wasmtime, with core's words for it.
const feMulCauses: Causes = {
  entries: 2.578e6,
  instructions: 1.779e9,
  memory: 1.676e8,
  indirect: 0,
  grows: 0,
  calls: [{ name: '__multi3', per_iteration: 6.4447e7, share: 0.318, inlined_in_baseline: true }],
  host_calls: [],
  code_bytes: 2848,
  checks: { stack: 1, bounds: 0, indirect: 0, arithmetic: 0, other: 0 },
  said: 'entered 2.58M× · calls __multi3 64.4M× (31.8 % of the samples), inlined on native · 168M loads and stores · 2848 B of code (native 905 B) · checks in its code: 1 stack',
};
const none = [null, null, null];

const report: ProfileReport = {
  explanation: {
    run: 'r1',
    baseline: 'native',
    tests: [
      {
        test: 'x25519',
        runtimes: [
          column('native', 1000, 60e6),
          column('wasmtime', 5000, 360e6),
          column('wasmi', 0, 3.6e9, 'wasmi interprets its own bytecode'),
        ],
        functions: [
          {
            name: '__multi3',
            library: null,
            cells: [null, cell(2700, 0.54, 194.4e6, null), null],
            causes: none,
            note: 'no function of that name in the build on native',
          },
          {
            name: 'fe_mul',
            library: null,
            cells: [cell(500, 0.5, 30e6, null), cell(1250, 0.25, 90e6, 3), null],
            causes: [null, feMulCauses, null],
            note: null,
          },
          {
            name: 'x25519',
            library: null,
            cells: [cell(495, 0.495, 29.7e6, null), cell(1045, 0.209, 75.24e6, 2.533), null],
            causes: none,
            note: null,
          },
        ],
        outside: [
          {
            name: '[kernel]',
            library: null,
            cells: [cell(5, 0.005, 0.3e6, null), cell(5, 0.001, 0.36e6, 1.2), null],
            causes: none,
            note: null,
          },
        ],
        total: {
          name: 'total',
          library: null,
          cells: [cell(1000, 1, 60e6, null), cell(5000, 1, 360e6, 6), null],
          causes: none,
          note: null,
        },
        notes: ['wasmi: not attributable: wasmi interprets its own bytecode'],
      },
    ],
  },
  flames: [
    {
      test: 'x25519',
      runtime: 'native',
      against: null,
      svg: '<svg xmlns="http://www.w3.org/2000/svg" class="flame" data-for="native"></svg>',
    },
    {
      test: 'x25519',
      runtime: 'wasmtime',
      against: 'native',
      svg: '<svg xmlns="http://www.w3.org/2000/svg" class="flame" data-for="wasmtime"></svg>',
    },
  ],
  stacks: [],
  error: null,
};

const rows = () =>
  within(screen.getByTestId('profile-table'))
    .getAllByRole('row')
    .map((r) =>
      within(r)
        .queryAllByRole(r.querySelector('th') ? 'columnheader' : 'cell')
        .map((c) => c.textContent?.replace(' *', '')),
    );

describe('profile', () => {
  it('compares the first engine with the baseline, function by function, as core computed it', () => {
    render(<Profile profile={report} />);
    const [head, multi3, feMul, , kernel, total] = rows();
    expect(head).toEqual(['function', 'native share', 'time', 'wasmtime share', 'time', '×native']);
    expect(multi3).toEqual(['__multi3', '-', '-', '54.0 %', '194.40 ms', '-']);
    expect(feMul).toEqual(['fe_mul', '50.0 %', '30.00 ms', '25.0 %', '90.00 ms', '3.00×']);
    expect(kernel[0]).toBe('[kernel]');
    expect(total).toEqual(['total', '100.0 %', '60.00 ms', '100.0 %', '360.00 ms', '6.00×']);
    expect(screen.getByTestId('profile-notes').textContent).toContain('__multi3: no function of that name in the build on native');
    expect(screen.getByTestId('profile-flame').querySelector('svg')?.getAttribute('data-for')).toBe('wasmtime');
  });

  it('shows every runtime on request, and an interpreter says why it has no flame graph', () => {
    render(<Profile profile={report} />);
    fireEvent.click(screen.getByTestId('profile-all'));
    expect(rows()[0]).toEqual(['function', 'native share', 'time', 'wasmtime share', 'time', '×native', 'wasmi share', 'time', '×native']);
    fireEvent.change(screen.getByTestId('profile-runtime'), { target: { value: 'wasmi' } });
    expect(screen.getByTestId('profile-no-flame').textContent).toContain('wasmi interprets its own bytecode');
    fireEvent.change(screen.getByTestId('profile-runtime'), { target: { value: 'native' } });
    expect(screen.getByTestId('profile-flame').querySelector('svg')?.getAttribute('data-for')).toBe('native');
  });

  it("lists what the chosen runtime's hottest functions did, in core's words, and nothing where nothing was counted", () => {
    render(<Profile profile={report} />);
    const causes = screen.getByTestId('profile-causes');
    expect(causes.textContent).toContain('wasmtime’s hottest functions');
    expect(
      within(causes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([`fe_mul: ${feMulCauses.said}`]);
    fireEvent.change(screen.getByTestId('profile-runtime'), { target: { value: 'native' } });
    expect(screen.queryByTestId('profile-causes')).toBeNull();
  });

  it('says why a profile cannot be shown', () => {
    render(<Profile profile={{ explanation: null, flames: [], stacks: [], error: '/r/profiles.jsonl: line 3: not a profile' }} />);
    expect(screen.getByTestId('profile-error').textContent).toBe('/r/profiles.jsonl: line 3: not a profile');
  });
});
