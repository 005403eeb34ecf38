import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { FeatureMatrix } from '../api';
import { detail, FeatureGrid, mark } from '../screens/detail/FeatureGrid';

/** Core's matrix of a features run, as `load_run` sends it in `Report.features`. */
const matrix: FeatureMatrix = {
  run: '20261127-083118-features-88de',
  machine: 'Intel(R) Xeon(R) Processor, 2 cores, Debian GNU/Linux 12 (bookworm)',
  started_unix: 1795768278,
  columns: [
    { runtime: 'wasmtime', version: '48.0.0' },
    { runtime: 'wasm3', version: '0.4.7' },
    { runtime: 'wasmtime-cli', version: '49.0.3' },
    { runtime: 'workerd', version: '-' },
  ],
  rows: [
    {
      feature: 'simd',
      cells: [
        { support: 'yes' },
        { support: 'no', message: 'error: unknown value_type' },
        { support: 'yes' },
        { support: 'not_applicable', reason: 'a JS runtime for the servers suite only' },
      ],
    },
    {
      feature: 'threads',
      cells: [
        { support: 'no', message: 'threads.wasm: not a valid WebAssembly module' },
        { support: 'no', message: 'not a valid WebAssembly module' },
        { support: 'needs_flag', flag: '-W shared-memory=y', message: 'shared memory support is disabled' },
        { support: 'not_applicable', reason: 'a JS runtime for the servers suite only' },
      ],
    },
  ],
};

describe('feature grid', () => {
  it('marks and details are core’s', () => {
    expect(mark({ support: 'needs_flag', flag: '-W x', message: 'm' })).toBe('flag');
    expect(detail({ support: 'needs_flag', flag: '-W x', message: 'm' })).toBe('needs -W x (without: m)');
    expect(detail({ support: 'yes' })).toBe('');
  });

  it('draws features by runtimes, says the runtimes it does not apply to, and shows a picked cell', () => {
    render(<FeatureGrid matrix={matrix} />);
    expect(screen.getByTestId('feature-wasm3-simd').textContent).toBe('✗');
    expect(screen.getByTestId('feature-wasmtime-cli-threads').textContent).toBe('flag');
    expect(screen.queryByTestId('feature-workerd-simd')).toBeNull();
    expect(screen.getByTestId('feature-absent').textContent).toContain('workerd (a JS runtime for the servers suite only)');
    fireEvent.click(screen.getByTestId('feature-wasmtime-cli-threads'));
    expect(screen.getByTestId('feature-picked').textContent).toBe(
      'wasmtime-cli 49.0.3 × threads: flag needs -W shared-memory=y (without: shared memory support is disabled)',
    );
  });
});
