//! Latency histograms of the open-model levels, kept whole beside the percentiles so that
//! a run's full distributions can be exported (`.hgrm`) and merged later.

use super::StoreError;
use super::lines::read_jsonl;
use crate::runtime::Phase;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file of a run that holds them.
pub const HISTOGRAMS_FILE: &str = "histograms.jsonl";

/// One level's latency histogram (ns) as a worker reports it with its iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelHistogram {
    /// The level (a [`Phase::Rate`]).
    pub phase: Phase,
    /// Corrected for coordinated omission (timed from when each request was due), or
    /// timed from its actual write.
    pub corrected: bool,
    /// `(value, count)` of every non-empty bucket, values in ns.
    pub counts: Vec<(u64, u64)>,
}

impl LevelHistogram {
    /// Keeps the non-empty buckets of `h`.
    pub fn new(phase: Phase, corrected: bool, h: &Histogram<u64>) -> LevelHistogram {
        LevelHistogram {
            phase,
            corrected,
            counts: h
                .iter_recorded()
                .map(|v| (v.value_iterated_to(), v.count_at_value()))
                .collect(),
        }
    }

    /// Adds the buckets into `h` (values beyond its range are clamped to it).
    pub fn add_to(&self, h: &mut Histogram<u64>) {
        for &(v, n) in &self.counts {
            h.saturating_record_n(v, n);
        }
    }
}

/// A level's histogram as saved: which cell, invocation and iteration it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistogramRow {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Worker process of the cell, from 0.
    pub invocation: u32,
    /// Iteration within the invocation (warm-ups first).
    pub iteration: u32,
    /// True for warm-up iterations.
    pub warmup: bool,
    /// The histogram.
    #[serde(flatten)]
    pub level: LevelHistogram,
}

/// The histograms a run saved (none for runs without open-model levels). A damaged line
/// is an error naming the file.
pub fn load_histograms(run_dir: &Path) -> Result<Vec<HistogramRow>, StoreError> {
    let path = run_dir.join(HISTOGRAMS_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    read_jsonl(&path)
}
