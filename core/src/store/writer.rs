//! Writing a run as it goes: every row is appended and flushed, so a crash or a kill loses
//! at most the cell in flight.

use super::{
    CellRecord, MeasurementRow, RunMeta, RunStatus, SampleRow, StoreError, columnar, reader,
};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// An open run directory being written.
pub struct RunWriter {
    dir: PathBuf,
    meta: RunMeta,
    measurements: Appender,
    samples: Appender,
    cells: Appender,
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
pub(crate) fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
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
            dir,
            meta,
        })
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

    /// Appends a live sample (flushed with the next cell or measurement).
    pub fn sample(&mut self, row: &SampleRow) -> Result<(), StoreError> {
        self.samples.push(row)
    }

    /// Records how a cell ended, flushing everything written so far.
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
        let Self {
            dir,
            mut meta,
            measurements,
            samples,
            cells,
        } = self;
        drop((cells, measurements, samples));
        columnar::compact(&dir)?;
        meta.status = status;
        meta.finished_unix = Some(now_unix());
        write_json_atomic(&dir.join("meta.json"), &meta)?;
        Ok(dir)
    }
}

/// Seconds since the Unix epoch.
pub fn now_unix() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A new sortable run id: `YYYYMMDD-HHMMSS-<suite>-<4 hex>`.
pub fn new_run_id(suite: &str) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let (y, mo, d, h, mi, s) = reader::civil(now.as_secs() as i64);
    let salt = (now.subsec_nanos() ^ std::process::id().rotate_left(16)) & 0xffff;
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{suite}-{salt:04x}")
}

/// Fails early, naming the directory, when runs cannot be saved there.
pub fn check_writable(results: &Path) -> Result<(), StoreError> {
    std::fs::create_dir_all(results).map_err(|e| StoreError::io(results, e))?;
    let probe = results.join(format!(".wasmeter-probe-{}", std::process::id()));
    File::create(&probe).map_err(|e| StoreError::io(results, e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
