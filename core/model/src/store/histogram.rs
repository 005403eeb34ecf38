//! Latency histograms of the open-model levels, kept whole beside the percentiles so that
//! a run's full distributions can be exported (`.hgrm`) and merged later.

use super::StoreError;
use super::lines::read_jsonl;
use crate::model::Phase;
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
    /// The histogram in HdrHistogram's own interchange form (V2, deflated, base64), as
    /// its log tools read it: a few hundred bytes where bucket lists take tens of KB.
    pub hdr: String,
}

impl LevelHistogram {
    /// Encodes `h`.
    pub fn new(phase: Phase, corrected: bool, h: &Histogram<u64>) -> LevelHistogram {
        use base64::Engine;
        use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
        let mut bytes = Vec::new();
        // Into a Vec, from a histogram we made: nothing can fail.
        let _ = V2DeflateSerializer::new().serialize(h, &mut bytes);
        LevelHistogram {
            phase,
            corrected,
            hdr: base64::engine::general_purpose::STANDARD.encode(bytes),
        }
    }

    /// Decodes the histogram; the error says what is wrong with the saved bytes.
    pub fn histogram(&self) -> Result<Histogram<u64>, String> {
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&self.hdr)
            .map_err(|e| format!("not base64: {e}"))?;
        hdrhistogram::serialization::Deserializer::new()
            .deserialize(&mut bytes.as_slice())
            .map_err(|e| format!("not an HdrHistogram: {e:?}"))
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
