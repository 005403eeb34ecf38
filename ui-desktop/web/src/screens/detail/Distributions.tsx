/**
 * Per test, the iteration times of every runtime as a strip plot. A big run has thousands
 * of lanes: each figure is drawn once it comes near the view (its height is known
 * beforehand, so the page does not jump).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { cellKey, type Distribution } from '../../api';
import { AXIS_H, LANE_H, StripPlot } from '../../charts/Strip';
import { paletteColor } from '../../charts/uplot';

export function Distributions({
  tests,
  runtimes,
  distributions,
}: {
  tests: readonly string[];
  runtimes: readonly string[];
  distributions: readonly Distribution[];
}) {
  const byKey = useMemo(() => new Map(distributions.map((d) => [cellKey(d.runtime, d.test), d.values])), [distributions]);
  return (
    <div class="distributions">
      {tests.map((t) => {
        const lanes = runtimes
          .map((r, i) => ({
            runtime: r,
            color: paletteColor(i),
            values: byKey.get(cellKey(r, t)) ?? [],
          }))
          .filter((l) => l.values.length > 0);
        if (lanes.length === 0) return null;
        return (
          <figure key={t} class="strip-figure">
            <figcaption>{t}</figcaption>
            <WhenNear height={lanes.length * LANE_H + AXIS_H}>
              <StripPlot test={t} lanes={lanes} />
            </WhenNear>
          </figure>
        );
      })}
    </div>
  );
}

/**
 * Its children once they come within a screen of the view (at once where the browser cannot
 * tell, as in tests); until then an empty box of `height` px.
 */
function WhenNear({ height, children }: { height: number; children: ComponentChildren }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver !== 'function');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return undefined;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '100% 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  if (near) return <>{children}</>;
  return <div ref={ref} class="strip-placeholder" style={{ height: `${height}px` }} aria-hidden="true" />;
}
