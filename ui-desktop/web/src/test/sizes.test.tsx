/**
 * A run of programs (the apps suite, modules by path) shows each module beside its native
 * build and the engines' compiled artifacts, then each cell's peak memory; a run without
 * module sizes shows no size panel.
 */
import { render, screen, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { CellSizes, TestRecord } from '../api';
import { hasSizes, Sizes } from '../screens/detail/Sizes';

const tests: TestRecord[] = [
  { name: 'sqlite', source_hash: 'a', module_bytes: 1_133_009, native_bytes: 1_197_632, as_given: false },
  { name: 'lua', source_hash: 'b', module_bytes: 320_364, native_bytes: 281_440, as_given: false },
];
const cells: CellSizes[] = [
  { runtime: 'native', test: 'sqlite', peak_rss_bytes: 12 << 20, artifact_bytes: null },
  { runtime: 'wasmtime', test: 'sqlite', peak_rss_bytes: 74 << 20, artifact_bytes: 2.9 * 1024 * 1024 },
  { runtime: 'wasmtime', test: 'lua', peak_rss_bytes: 49 << 20, artifact_bytes: 833 * 1024 },
];

describe('sizes', () => {
  it('shows module, native, their ratio and each engine artifact, then peak memory per cell', () => {
    render(<Sizes tests={tests} runtimes={['native', 'wasmtime', 'wasmi']} cells={cells} />);
    const sizes = screen.getByTestId('sizes-table');
    const heads = within(sizes)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // Only engines that made an artifact get a column.
    expect(heads).toEqual(['test', 'wasm', 'native', 'wasm ÷ native', 'wasmtime compiled']);
    const rows = within(sizes).getAllByRole('row').slice(1);
    const text = (r: HTMLElement) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(text(rows[0])[0]).toBe('sqlite');
    expect(text(rows[0])[3]).toBe('0.95');
    expect(text(rows[1])[3]).toBe('1.14');
    expect(text(rows[1])[4]).toMatch(/^833/);
    const memory = within(screen.getByTestId('memory-table')).getAllByRole('row').slice(1);
    // sqlite: native 12 MiB, wasmtime 74 MiB, wasmi none.
    expect(text(memory[0])[1]).toMatch(/^12(\.0)?\s?MiB$/);
    expect(text(memory[0])[2]).toMatch(/^74(\.0)?\s?MiB$/);
    expect(text(memory[0])[3]).toBe('-');
  });

  it('is only for runs with module sizes', () => {
    expect(hasSizes(tests)).toBe(true);
    expect(hasSizes([{ name: 'sha256', source_hash: 'x' }])).toBe(false);
  });
});
