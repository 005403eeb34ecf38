//! Where a cell's one figure comes from: the summary's matrix, the exports and both live
//! views take the first source a cell has values of, with that source's statistic, so a
//! number reads the same while the run goes and after.

use super::{Metric, Phase};
use serde::Serialize;

/// Which statistic stands for a cell's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Statistic {
    /// Core's typical value (`Stats::typical`): the geometric mean over invocations, the
    /// figure a cell's interval is of.
    Typical,
    /// The median of every value: what the lifecycle and HTTP views show.
    Median,
}

/// One place a cell's figure may come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PrimarySource {
    /// Its name in the live views (`self`, `wall`, `total`, …), unique.
    pub key: &'static str,
    /// The phase and metric whose values it is.
    pub phase: Phase,
    /// The metric of those values.
    pub metric: Metric,
    /// What the summary says the figure is counted by (`instructions`, `self`, `wall`,
    /// `process`).
    pub source: &'static str,
    /// The phase the figure is reported as: a command is compared by `execute`, whatever
    /// measured it.
    pub shown: Phase,
    /// The statistic the views show of it.
    pub statistic: Statistic,
}

/// The sources in order of preference: instructions when the run counted them, else the
/// guest's self-timing (the same region on every runtime), else the harness's wall time of
/// `execute`, else of the whole iteration (a process, start-up included), else the wall
/// time of `instantiate` (lifecycle), else the request latency over one connection (HTTP).
pub const PRIMARY_SOURCES: [PrimarySource; 6] = [
    source(
        "instructions",
        Phase::Execute,
        Metric::Instructions,
        "instructions",
        Statistic::Typical,
    ),
    source(
        "self",
        Phase::Execute,
        Metric::SelfNs,
        "self",
        Statistic::Typical,
    ),
    source(
        "wall",
        Phase::Execute,
        Metric::WallNs,
        "wall",
        Statistic::Typical,
    ),
    PrimarySource {
        shown: Phase::Execute,
        ..source(
            "total",
            Phase::Total,
            Metric::WallNs,
            "process",
            Statistic::Typical,
        )
    },
    source(
        "instantiate",
        Phase::Instantiate,
        Metric::WallNs,
        "wall",
        Statistic::Median,
    ),
    source(
        "latency",
        Phase::Latency,
        Metric::WallNs,
        "wall",
        Statistic::Median,
    ),
];

const fn source(
    key: &'static str,
    phase: Phase,
    metric: Metric,
    source: &'static str,
    statistic: Statistic,
) -> PrimarySource {
    PrimarySource {
        key,
        phase,
        metric,
        source,
        shown: phase,
        statistic,
    }
}

impl PrimarySource {
    /// The source a measurement counts toward (its index in [`PRIMARY_SOURCES`]).
    pub fn of(phase: Phase, metric: Metric) -> Option<usize> {
        PRIMARY_SOURCES
            .iter()
            .position(|s| s.phase == phase && s.metric == metric)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_unique_and_commands_are_shown_as_execute() {
        for (i, s) in PRIMARY_SOURCES.iter().enumerate() {
            assert!(
                PRIMARY_SOURCES[..i]
                    .iter()
                    .all(|t| t.key != s.key && (t.phase, t.metric) != (s.phase, s.metric)),
                "{s:?}"
            );
            assert_eq!(PrimarySource::of(s.phase, s.metric), Some(i));
        }
        assert_eq!(PRIMARY_SOURCES[3].shown, Phase::Execute);
        assert_eq!(PRIMARY_SOURCES[4].shown, Phase::Instantiate);
        assert_eq!(PrimarySource::of(Phase::Compile, Metric::WallNs), None);
    }
}
