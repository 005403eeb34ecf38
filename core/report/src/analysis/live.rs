//! A cell's figure while its run goes: its measurements as they arrive, and the figure the
//! run's summary will show for them (the same source of [`PRIMARY_SOURCES`], the same
//! statistic). The TUI's live table takes it from here; the desktop page reads the same
//! sources (generated into its bindings), so both agree with the run's detail.

use super::stats::{Stats, median};
use super::summary::Series;
use crate::model::{Metric, PRIMARY_SOURCES, Phase, PrimarySource, Statistic};

/// One cell's values per primary source, each with the invocation it came from.
#[derive(Debug, Clone, Default)]
pub struct LiveValues {
    by_source: [Vec<(u32, f64)>; PRIMARY_SOURCES.len()],
}

impl LiveValues {
    /// Records a measured (not warm-up) value; false when it counts toward no source.
    pub fn push(&mut self, phase: Phase, metric: Metric, invocation: u32, value: f64) -> bool {
        let Some(i) = PrimarySource::of(phase, metric) else {
            return false;
        };
        self.by_source[i].push((invocation, value));
        true
    }

    /// The cell's figure: of the first source with values, its statistic.
    pub fn figure(&self) -> Option<(f64, &'static PrimarySource)> {
        let (i, measured) = (self.by_source.iter().enumerate()).find(|(_, v)| !v.is_empty())?;
        let source = &PRIMARY_SOURCES[i];
        let series = Series::of(measured.clone());
        let groups = series.groups(0);
        let value = match source.statistic {
            Statistic::Median => median(groups.values)?,
            Statistic::Typical => Stats::of(&groups)?.typical(),
        };
        Some((value, source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_source_with_values_gives_the_figure_by_its_statistic() {
        let mut v = LiveValues::default();
        assert!(v.figure().is_none());
        assert!(!v.push(Phase::Compile, Metric::WallNs, 0, 5.0));
        // Wall total alone: the typical value, over two invocations the geometric mean of
        // each invocation's geometric mean.
        for (invocation, x) in [(1, 400.0), (0, 100.0), (1, 400.0), (0, 100.0)] {
            assert!(v.push(Phase::Total, Metric::WallNs, invocation, x));
        }
        let (x, s) = v.figure().unwrap();
        assert!((x - 200.0).abs() < 1e-9, "{x}");
        assert_eq!((s.key, s.shown), ("total", Phase::Execute));
        // Self-timing, once there is some, comes first.
        v.push(Phase::Execute, Metric::SelfNs, 0, 50.0);
        assert_eq!(v.figure().unwrap().1.key, "self");
        // Lifecycle: the median of every value.
        let mut l = LiveValues::default();
        for x in [1.0, 2.0, 30.0] {
            l.push(Phase::Instantiate, Metric::WallNs, 0, x);
        }
        assert_eq!(
            l.figure().map(|(x, s)| (x, s.key)),
            Some((2.0, "instantiate"))
        );
    }
}
