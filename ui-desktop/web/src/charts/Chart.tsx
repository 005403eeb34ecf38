/**
 * A uPlot chart as a component: created once per `specKey`, fed through `setData` when
 * `data` changes identity. Live charts bypass `data` and drive the handle themselves.
 */

import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { type ChartData, type ChartHandle, type ChartSpec, createChart } from './uplot';

/** Creates the chart on mount (and again when `specKey` changes), destroys on unmount. */
export function useChart(spec: ChartSpec, specKey: string): [RefObject<HTMLDivElement>, RefObject<ChartHandle | null>] {
  const el = useRef<HTMLDivElement>(null);
  const handle = useRef<ChartHandle | null>(null);
  useEffect(() => {
    if (!el.current) return undefined;
    const h = createChart(el.current, spec);
    handle.current = h;
    return () => {
      h.destroy();
      if (handle.current === h) handle.current = null;
    };
    // The spec is described by its key; a new object with the same key is the same chart.
  }, [specKey]);
  return [el, handle];
}

interface ChartProps {
  spec: ChartSpec;
  specKey: string;
  data: ChartData;
  label: string;
  testid?: string;
}

export function Chart({ spec, specKey, data, label, testid }: ChartProps) {
  const [el, handle] = useChart(spec, specKey);
  useEffect(() => {
    handle.current?.setData(data);
  }, [data, specKey]);
  return <div class="chart" ref={el} role="img" aria-label={label} data-testid={testid} />;
}
