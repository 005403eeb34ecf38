//! Writing a run as it goes: every row is appended and flushed, so a crash or a kill loses
//! at most the cell in flight.

use super::{
    CellRecord, HISTOGRAMS_FILE, HistogramRow, MeasurementRow, RunMeta, RunStatus, SampleRow,
    StoreError, columnar, reader,
};
use serde::Serialize;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What an unfinished run already has, so that resuming it runs only the rest.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Done {
    /// Invocations that ended (other than by cancellation): (runtime, test, invocation).
    pub invocations: HashSet<(String, String, u32)>,
    /// Cells that failed: none of their invocations runs again.
    pub failed: HashSet<(String, String)>,
}

/// An open run directory being written.
pub struct RunWriter {
    dir: PathBuf,
    meta: RunMeta,
    measurements: Appender,
    samples: Appender,
    cells: Appender,
    /// Opened with the first histogram: most runs have none.
    histograms: Option<Appender>,
    /// Opened with the first profile (`run --profile`).
    profiles: Option<Appender>,
}

struct Appender {
    path: PathBuf,
    out: BufWriter<File>,
}

impl Appender {
    fn open(path: PathBuf) -> Result<Appender, StoreError> {
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| StoreError::io(&path, e))?;
        Ok(Appender {
            path,
            out: BufWriter::new(f),
        })
    }

    fn push<T: Serialize>(&mut self, row: &T) -> Result<(), StoreError> {
        serde_json::to_writer(&mut self.out, row)
            .map_err(|e| StoreError::io(&self.path, e.into()))?;
        self.out
            .write_all(b"\n")
            .map_err(|e| StoreError::io(&self.path, e))
    }

    fn flush(&mut self) -> Result<(), StoreError> {
        self.out.flush().map_err(|e| StoreError::io(&self.path, e))
    }
}

/// Writes `value` as JSON to `path` atomically (temp file + rename), so a reader never sees
/// half a file and a crash never destroys the previous version.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let tmp = path.with_extension("json.tmp");
    let bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::io(path, e.into()))?;
    let mut f = File::create(&tmp).map_err(|e| StoreError::io(&tmp, e))?;
    f.write_all(&bytes).map_err(|e| StoreError::io(&tmp, e))?;
    f.sync_all().map_err(|e| StoreError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| StoreError::io(path, e))
}

impl RunWriter {
    /// Creates `results/<meta.id>/` and writes its metadata. Never reuses a directory.
    pub fn create(results: &Path, meta: RunMeta) -> Result<RunWriter, StoreError> {
        std::fs::create_dir_all(results).map_err(|e| StoreError::io(results, e))?;
        let dir = results.join(&meta.id);
        std::fs::create_dir(&dir).map_err(|e| StoreError::io(&dir, e))?;
        write_json_atomic(&dir.join("meta.json"), &meta)?;
        Ok(RunWriter {
            measurements: Appender::open(dir.join("measurements.jsonl"))?,
            samples: Appender::open(dir.join("samples.jsonl"))?,
            cells: Appender::open(dir.join("cells.jsonl"))?,
            histograms: None,
            profiles: None,
            dir,
            meta,
        })
    }

    /// Reopens an unfinished (interrupted or cancelled) run to run its missing invocations.
    /// Returns the writer and what already ended. Rows of an invocation that never ended
    /// (the one in flight at a crash) and cancelled invocations are dropped, so they run
    /// again whole; everything else is kept exactly.
    pub fn resume(dir: &Path) -> Result<(RunWriter, Done), StoreError> {
        let run = reader::load_run(dir)?;
        if run.meta.status == RunStatus::Complete {
            return Err(StoreError::Corrupt {
                path: dir.join("meta.json"),
                message: "the run is complete; nothing to resume".into(),
            });
        }
        if run.meta.status == RunStatus::Running {
            return Err(StoreError::Corrupt {
                path: dir.join("meta.json"),
                message: format!("the run is still being written by process {}", run.meta.pid),
            });
        }
        let mut done = Done::default();
        for c in &run.cells {
            if c.failure == Some(crate::model::Failure::Cancelled) {
                continue;
            }
            done.invocations
                .insert((c.runtime.clone(), c.test.clone(), c.invocation));
            if c.failure.is_some() {
                done.failed.insert((c.runtime.clone(), c.test.clone()));
            }
        }
        let ended = &done.invocations;
        let keep =
            |rt: &str, t: &str, inv: u32| ended.contains(&(rt.to_string(), t.to_string(), inv));
        let cells_ended: HashSet<(&str, &str)> = ended
            .iter()
            .map(|(r, t, _)| (r.as_str(), t.as_str()))
            .collect();
        let rewrite = |name: &str, lines: Vec<String>| -> Result<(), StoreError> {
            let path = dir.join(name);
            let tmp = dir.join(format!("{name}.tmp"));
            let mut text = lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            std::fs::write(&tmp, text).map_err(|e| StoreError::io(&tmp, e))?;
            std::fs::rename(&tmp, &path).map_err(|e| StoreError::io(&path, e))
        };
        rewrite(
            "measurements.jsonl",
            run.measurements
                .iter()
                .filter(|m| keep(&m.runtime, &m.test, m.invocation))
                .map(json_line)
                .collect(),
        )?;
        rewrite(
            "samples.jsonl",
            run.samples
                .iter()
                .filter(|m| cells_ended.contains(&(m.runtime.as_str(), m.test.as_str())))
                .map(json_line)
                .collect(),
        )?;
        rewrite(
            "cells.jsonl",
            run.cells
                .iter()
                .filter(|c| keep(&c.runtime, &c.test, c.invocation))
                .map(json_line)
                .collect(),
        )?;
        if dir.join(HISTOGRAMS_FILE).exists() {
            rewrite(
                HISTOGRAMS_FILE,
                super::load_histograms(dir)?
                    .iter()
                    .filter(|h| keep(&h.runtime, &h.test, h.invocation))
                    .map(json_line)
                    .collect(),
            )?;
        }
        let profiles = dir.join(super::PROFILES_FILE);
        if profiles.exists() {
            rewrite(
                super::PROFILES_FILE,
                super::read_profiles(dir)?
                    .iter()
                    .filter(|p| keep(&p.runtime, &p.test, p.invocation))
                    .map(json_line)
                    .collect(),
            )?;
        }
        for stale in ["measurements.parquet", "samples.parquet"] {
            let p = dir.join(stale);
            if p.exists() {
                std::fs::remove_file(&p).map_err(|e| StoreError::io(&p, e))?;
            }
        }
        let mut meta = run.meta;
        meta.status = RunStatus::Running;
        meta.pid = std::process::id();
        meta.finished_unix = None;
        meta.files.clear();
        write_json_atomic(&dir.join("meta.json"), &meta)?;
        Ok((
            RunWriter {
                measurements: Appender::open(dir.join("measurements.jsonl"))?,
                samples: Appender::open(dir.join("samples.jsonl"))?,
                cells: Appender::open(dir.join("cells.jsonl"))?,
                histograms: None,
                profiles: None,
                dir: dir.to_path_buf(),
                meta,
            },
            done,
        ))
    }

    /// The run directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run's metadata as written.
    pub fn meta(&self) -> &RunMeta {
        &self.meta
    }

    /// Appends measurement rows and flushes them to disk.
    pub fn measurements(&mut self, rows: &[MeasurementRow]) -> Result<(), StoreError> {
        for r in rows {
            self.measurements.push(r)?;
        }
        self.measurements.flush()
    }

    /// Appends an iteration's level histograms and flushes them to disk.
    pub fn histograms(&mut self, rows: &[HistogramRow]) -> Result<(), StoreError> {
        let out = match &mut self.histograms {
            Some(a) => a,
            None => self
                .histograms
                .insert(Appender::open(self.dir.join(HISTOGRAMS_FILE))?),
        };
        for r in rows {
            out.push(r)?;
        }
        out.flush()
    }

    /// Appends an iteration's profile and flushes it to disk.
    pub fn profile(&mut self, row: &super::ProfileRow) -> Result<(), StoreError> {
        let out = match &mut self.profiles {
            Some(a) => a,
            None => self
                .profiles
                .insert(Appender::open(self.dir.join(super::PROFILES_FILE))?),
        };
        out.push(row)?;
        out.flush()
    }

    /// Appends a live sample (flushed with the next cell or measurement).
    pub fn sample(&mut self, row: &SampleRow) -> Result<(), StoreError> {
        self.samples.push(row)
    }

    /// Records how an invocation of a cell ended, flushing everything written so far.
    pub fn cell(&mut self, rec: &CellRecord) -> Result<(), StoreError> {
        self.samples.flush()?;
        self.measurements.flush()?;
        self.cells.push(rec)?;
        self.cells.flush()
    }

    /// Ends the run: compacts rows to Parquet and records the final status.
    pub fn finish(mut self, status: RunStatus) -> Result<PathBuf, StoreError> {
        self.measurements.flush()?;
        self.samples.flush()?;
        self.cells.flush()?;
        if let Some(h) = &mut self.histograms {
            h.flush()?;
        }
        let Self {
            dir,
            mut meta,
            measurements,
            samples,
            cells,
            histograms,
            profiles,
        } = self;
        drop((cells, measurements, samples, histograms, profiles));
        meta.files.extend(columnar::compact(&dir)?);
        meta.status = status;
        meta.finished_unix = Some(now_unix());
        write_json_atomic(&dir.join("meta.json"), &meta)?;
        Ok(dir)
    }
}

fn json_line<T: Serialize>(row: &T) -> String {
    serde_json::to_string(row).expect("rows serialise")
}

/// Seconds since the Unix epoch.
pub fn now_unix() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A new sortable run id: `YYYYMMDD-HHMMSS-<suite>-<4 hex>`. The hex part is the fraction
/// of the second (in 1/65536 s), so two runs started within one second still sort in order.
pub fn new_run_id(suite: &str) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let (y, mo, d, h, mi, s) = crate::format::civil(now.as_secs() as i64);
    let fraction = (u64::from(now.subsec_nanos()) << 16) / 1_000_000_000;
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{suite}-{fraction:04x}")
}

/// Fails early, naming the directory, when runs cannot be saved there.
pub fn check_writable(results: &Path) -> Result<(), StoreError> {
    std::fs::create_dir_all(results).map_err(|e| StoreError::io(results, e))?;
    let probe = results.join(format!(".wasmeter-probe-{}", std::process::id()));
    File::create(&probe).map_err(|e| StoreError::io(results, e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
