//! A row's verdict: what the interval, the threshold and the correction over the family
//! let a diff say.

use super::*;

/// What a diff concludes for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Verdict {
    /// B is faster: the whole interval lies below 1 − threshold and the change survives
    /// the correction for the diff's many rows.
    #[serde(rename = "faster")]
    Faster,
    /// B is slower: the whole interval lies above 1 + threshold, corrected likewise.
    #[serde(rename = "slower")]
    Slower,
    /// The row's interval lies wholly below 1 − threshold on its own, but the change does
    /// not hold over the diff's many rows: among that many, some rows lie beyond by chance.
    #[serde(rename = "faster, not held")]
    FasterNotHeld,
    /// The row's interval lies wholly above 1 + threshold on its own, not held over the
    /// diff's many rows.
    #[serde(rename = "slower, not held")]
    SlowerNotHeld,
    /// No change beyond the threshold can be told from the noise.
    #[serde(rename = "no change")]
    NoChange,
    /// The row's test cannot reach the level its family's correction needs at its number
    /// of rounds, whatever they show (a signed-rank test of 6 rounds gives no p below
    /// 0.031): neither a change nor "no change" can be told; the note says how many rounds
    /// it needs.
    #[serde(rename = "undecided")]
    Undecided,
    /// Too few values or invocations, or a partial cell: no verdict either way.
    #[serde(rename = "insufficient data")]
    InsufficientData,
    /// The two sides were not measured the same way (timing sources or problem sizes
    /// differ, the reference a side is normalised by failed, or every invocation of a side
    /// ran on a busy machine): no verdict.
    #[serde(rename = "not comparable")]
    NotComparable,
}

impl Verdict {
    /// Whether the row claims a change.
    pub fn is_change(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }

    /// Whether the row's interval lies beyond the threshold, held over the family or not:
    /// the rows a reader looks at first.
    pub fn is_beyond(self) -> bool {
        self.is_change() || matches!(self, Verdict::FasterNotHeld | Verdict::SlowerNotHeld)
    }

    /// Whether the row was judged (faster, slower or no change), not left without a
    /// verdict: what a gate and a headline read intervals from.
    pub fn is_decided(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower | Verdict::NoChange)
    }

    /// Whether the row has an estimate the correction ran over (every verdict but
    /// insufficient data and not comparable).
    pub fn is_estimated(self) -> bool {
        !matches!(self, Verdict::InsufficientData | Verdict::NotComparable)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::FasterNotHeld => "faster, not held",
            Verdict::SlowerNotHeld => "slower, not held",
            Verdict::NoChange => "no change",
            Verdict::Undecided => "undecided",
            Verdict::InsufficientData => "insufficient data",
            Verdict::NotComparable => "not comparable",
        })
    }
}
