/** Per test, the iteration times of every runtime as a strip plot. */
import type { Distribution } from '../../api';
import { StripPlot } from '../../charts/Strip';
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
  return (
    <div class="distributions">
      {tests.map((t) => {
        const lanes = runtimes
          .map((r, i) => ({
            runtime: r,
            color: paletteColor(i),
            values: distributions.find((d) => d.runtime === r && d.test === t)?.values ?? [],
          }))
          .filter((l) => l.values.length > 0);
        if (lanes.length === 0) return null;
        return (
          <figure key={t} class="strip-figure">
            <figcaption>{t}</figcaption>
            <StripPlot test={t} lanes={lanes} />
          </figure>
        );
      })}
    </div>
  );
}
