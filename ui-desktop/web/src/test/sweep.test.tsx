import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Sweep } from '../api';
import { SweepChart, scanLines } from '../screens/detail/SweepChart';

const point = (x: string, line: string, v: number | null) => ({
  runtime: `wasmtime[allocator=${x},${line}]`,
  x,
  line,
  typical: v,
  low: v === null ? null : v * 0.9,
  high: v === null ? null : v * 1.1,
});

/** Core's sweep of a lifecycle run, as `load_run` sends it in `Report.sweep`. */
const sweep: Sweep = {
  engine: 'wasmtime',
  settings: ['allocator', 'cow'],
  x_values: ['pooling', 'on-demand'],
  lines: ['cow=on', 'cow=off'],
  tests: [
    {
      test: 'hello',
      phase: 'instantiate',
      points: [
        point('pooling', 'cow=on', 2000),
        point('pooling', 'cow=off', 2100),
        point('on-demand', 'cow=on', 20000),
        point('on-demand', 'cow=off', null),
      ],
      best: 'wasmtime[allocator=pooling,cow=on]',
    },
    { test: 'heap-1m-dense', phase: 'instantiate', points: [point('pooling', 'cow=on', 3000)], best: 'wasmtime[allocator=pooling,cow=on]' },
  ],
  effects: [
    { setting: 'allocator', changed: ['hello'], within_noise: ['heap-1m-dense'], undecided: [] },
    { setting: 'cow', changed: [], within_noise: ['hello'], undecided: ['heap-1m-dense'] },
  ],
};

describe('sweep chart', () => {
  it('puts each combination at its setting value, on its line, with its interval', () => {
    const lines = scanLines(sweep, 'hello');
    expect(lines.map((l) => l.label)).toEqual(['cow=on', 'cow=off']);
    expect(lines[0]!.typical).toEqual([2000, 20000]);
    expect(lines[1]!.typical).toEqual([2100, null]);
    expect(lines[0]!.low[0]).toBeCloseTo(1800);
    expect(lines[0]!.high[1]).toBeCloseTo(22000);
  });

  it('names the best combination and what each setting did, per test', () => {
    render(<SweepChart runId="r1" sweep={sweep} />);
    const notes = () => screen.getByTestId('sweep-notes').textContent;
    expect(notes()).toContain('best: wasmtime[allocator=pooling,cow=on]');
    expect(notes()).toContain('allocator: moved the figure beyond noise');
    expect(notes()).toContain('cow: within noise');
    fireEvent.change(screen.getByTestId('sweep-test'), { target: { value: 'heap-1m-dense' } });
    expect(notes()).toContain('allocator: within noise');
    expect(notes()).toContain('cow: could not tell (busy or too few invocations)');
  });
});
