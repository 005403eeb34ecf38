//! Where history reads runs from: a results directory on this machine, or one copied to
//! S3 (`s3://bucket/prefix`, credentials and endpoint from the usual `AWS_*` variables).
//! Either way a run is its metadata, how its cells ended, and where its measurements are;
//! the measurements themselves are left to the scan.

use super::HistoryError;
use crate::store::{CellRecord, FileDigest, RunMeta, RunStatus, StoreError, list_runs, verify};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long an S3 endpoint may take to accept a connection (and any request to answer).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A results directory, local or in S3.
#[derive(Debug, Clone, PartialEq)]
pub enum Results {
    /// A directory on this machine.
    Local(PathBuf),
    /// `s3://bucket/prefix`: run directories under the prefix.
    S3 {
        /// The URL as given.
        url: String,
        /// Bucket.
        bucket: String,
        /// Key prefix of the run directories, without a trailing slash (maybe empty).
        prefix: String,
    },
}

impl Results {
    /// A results directory as the user names it: a path, or an `s3://` URL.
    pub fn parse(s: &str) -> Result<Results, HistoryError> {
        let Some(rest) = s.strip_prefix("s3://") else {
            if s.contains("://") {
                return Err(HistoryError::Query(format!(
                    "{s}: only local directories and s3:// URLs are read"
                )));
            }
            return Ok(Results::Local(PathBuf::from(s)));
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(HistoryError::Query(format!("{s}: no bucket in the URL")));
        }
        Ok(Results::S3 {
            url: s.to_string(),
            bucket: bucket.to_string(),
            prefix: prefix.trim_matches('/').to_string(),
        })
    }

    /// How errors name it.
    pub fn name(&self) -> String {
        match self {
            Results::Local(p) => p.display().to_string(),
            Results::S3 { url, .. } => url.clone(),
        }
    }
}

/// A run as history sees it before its measurements are read.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Metadata.
    pub meta: RunMeta,
    /// Its measurements.parquet: a path, or an s3:// URL.
    pub measurements: String,
    /// How the cells asked for ended (S3: fetched with the metadata); `None`: read from the
    /// run's directory when the run is summarised.
    pub cells: Option<Vec<CellRecord>>,
    /// The run's directory (local runs).
    pub dir: Option<PathBuf>,
}

impl Listed {
    /// A run in a local results directory, or why it is left out (unfinished, or its
    /// measurements missing).
    pub fn local(meta: RunMeta, dir: PathBuf) -> Result<Listed, Skipped> {
        if let Some(why) = unfinished(&meta) {
            return Err(why);
        }
        let pq = dir.join("measurements.parquet");
        if !pq.is_file() {
            return Err(format!("{}: missing", pq.display()));
        }
        Ok(Listed {
            meta,
            measurements: pq.to_string_lossy().into_owned(),
            cells: None,
            dir: Some(dir),
        })
    }

    /// What identifies this state of the run in the index: a resumed run finishes again.
    pub fn stamp(&self) -> f64 {
        self.meta.finished_unix.unwrap_or(self.meta.started_unix)
    }

    /// How its cells ended, read now for a local run; its measurements file checked against
    /// the digest written with it before polars reads it.
    pub fn checked_cells(
        &self,
        wanted: &dyn Fn(&str, &str) -> bool,
        hint: &[&str],
    ) -> Result<Vec<CellRecord>, Skipped> {
        if let Some(c) = &self.cells {
            return Ok(c.clone());
        }
        let Some(dir) = &self.dir else {
            return Ok(Vec::new());
        };
        if let Some(want) = measurements_digest(&self.meta) {
            verify(Path::new(&self.measurements), want).map_err(|e| e.to_string())?;
        }
        let cp = dir.join("cells.jsonl");
        match std::fs::read_to_string(&cp) {
            Ok(text) => cells_from(&cp, &text, wanted, hint).map_err(|e| e.to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(StoreError::io(&cp, e).to_string()),
        }
    }
}

/// A run left out of a history, and why.
pub type Skipped = String;

/// Which runs to keep, decided on metadata alone.
pub trait Keep: Fn(&RunMeta) -> bool + Sync {}
impl<F: Fn(&RunMeta) -> bool + Sync> Keep for F {}

/// Only the lines of cells.jsonl about the cells `wanted` keeps (a cheap text test first,
/// then the record): a run of 133 cells has one or two of interest.
pub fn cells_from(
    path: &Path,
    text: &str,
    wanted: &dyn Fn(&str, &str) -> bool,
    hint: &[&str],
) -> Result<Vec<CellRecord>, StoreError> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() || !hint.iter().all(|h| line.contains(h)) {
            continue;
        }
        match serde_json::from_str::<CellRecord>(line) {
            Ok(c) if wanted(&c.runtime, &c.test) => out.push(c),
            Ok(_) => {}
            // A last line cut short by a crash, as the store reads it.
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
            Err(e) => {
                return Err(StoreError::Corrupt {
                    path: path.to_path_buf(),
                    message: format!("line {}: {e}", i + 1),
                });
            }
        }
    }
    Ok(out)
}

/// Why a finished run cannot be read from its metadata, if it cannot.
pub fn unfinished(meta: &RunMeta) -> Option<String> {
    match meta.status {
        RunStatus::Complete | RunStatus::Cancelled => None,
        s => Some(format!("{}: {s}", meta.id)),
    }
}

/// The digest of the run's measurements.parquet, as written.
pub fn measurements_digest(meta: &RunMeta) -> Option<&FileDigest> {
    meta.files.get("measurements.parquet")
}

pub(super) fn list_local(
    dir: &Path,
    keep: &dyn Keep,
) -> Result<(Vec<Listed>, Vec<Skipped>), HistoryError> {
    let mut listed = Vec::new();
    let mut skipped = Vec::new();
    for r in list_runs(dir)? {
        let meta = match r.meta {
            Ok(m) => m,
            Err(e) => {
                skipped.push(e.to_string());
                continue;
            }
        };
        if !keep(&meta) {
            continue;
        }
        match Listed::local(meta, r.dir) {
            Ok(l) => listed.push(l),
            Err(why) => skipped.push(why),
        }
    }
    Ok((listed, skipped))
}
