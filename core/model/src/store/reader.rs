//! Loading saved runs: finished ones from Parquet, unfinished ones recovered from their
//! JSON-lines files.

use super::columnar::{read_measurements, read_samples};
use super::lines::{read_jsonl, verify};
use super::{CellRecord, MeasurementRow, RunMeta, RunStatus, SampleRow, StoreError};
use std::path::{Path, PathBuf};

/// A saved run, loaded whole.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRun {
    /// Its directory.
    pub dir: PathBuf,
    /// Metadata (status corrected to `Interrupted` when its writer died).
    pub meta: RunMeta,
    /// How each finished cell ended.
    pub cells: Vec<CellRecord>,
    /// Tidy measurements.
    pub measurements: Vec<MeasurementRow>,
    /// Live samples.
    pub samples: Vec<SampleRow>,
}

/// A run directory in a listing: its metadata, or why it could not be read.
#[derive(Debug)]
pub struct RunListing {
    /// Its directory.
    pub dir: PathBuf,
    /// Metadata, or the error naming the broken file.
    pub meta: Result<RunMeta, StoreError>,
}

fn writer_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).contains("wasmeter"))
        .unwrap_or(false)
}

fn read_meta(dir: &Path) -> Result<RunMeta, StoreError> {
    let path = dir.join("meta.json");
    let bytes = std::fs::read(&path).map_err(|e| StoreError::io(&path, e))?;
    meta_from_bytes(&path, &bytes)
}

/// A run's metadata from the bytes of its meta.json (read from `path`, a file or a URL).
pub fn meta_from_bytes(path: &Path, bytes: &[u8]) -> Result<RunMeta, StoreError> {
    let path = path.to_path_buf();
    let mut meta: RunMeta = serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        path: path.clone(),
        message: format!("not valid run metadata: {e}"),
    })?;
    if meta.schema_version > super::SCHEMA_VERSION {
        return Err(StoreError::Corrupt {
            path,
            message: format!(
                "schema version {} is newer than this wasmeter understands ({})",
                meta.schema_version,
                super::SCHEMA_VERSION
            ),
        });
    }
    if meta.status == RunStatus::Running && !writer_alive(meta.pid) {
        meta.status = RunStatus::Interrupted;
    }
    Ok(meta)
}

/// Loads a run directory whole. Errors name the file at fault.
pub fn load_run(dir: &Path) -> Result<SavedRun, StoreError> {
    let meta = read_meta(dir)?;
    let pick = |stem: &str| -> Result<Option<(PathBuf, bool)>, StoreError> {
        let pq = dir.join(format!("{stem}.parquet"));
        let jl = dir.join(format!("{stem}.jsonl"));
        if pq.exists() {
            Ok(Some((pq, true)))
        } else if jl.exists() {
            Ok(Some((jl, false)))
        } else if matches!(meta.status, RunStatus::Complete | RunStatus::Cancelled) {
            Err(StoreError::Corrupt {
                path: pq,
                message: "missing (the run is marked finished)".into(),
            })
        } else {
            Ok(None)
        }
    };
    // A Parquet file with a saved digest must still match it before polars reads it.
    let intact = |p: &Path| -> Result<(), StoreError> {
        let name = p.file_name().map(|n| n.to_string_lossy().to_string());
        match name.and_then(|n| meta.files.get(&n)) {
            Some(want) => verify(p, want),
            None => Ok(()),
        }
    };
    let measurements = match pick("measurements")? {
        Some((p, true)) => {
            intact(&p)?;
            read_measurements(&p)?
        }
        Some((p, false)) => read_jsonl(&p)?,
        None => Vec::new(),
    };
    let samples = match pick("samples")? {
        Some((p, true)) => {
            intact(&p)?;
            read_samples(&p)?
        }
        Some((p, false)) => read_jsonl(&p)?,
        None => Vec::new(),
    };
    let cells = read_cells(dir)?;
    Ok(SavedRun {
        dir: dir.to_path_buf(),
        meta,
        cells,
        measurements,
        samples,
    })
}

/// A run's finished cells (`cells.jsonl`, none when absent) without its measurements:
/// what an estimate of a later run's time reads.
pub fn read_cells(dir: &Path) -> Result<Vec<CellRecord>, StoreError> {
    let path = dir.join("cells.jsonl");
    if path.exists() {
        read_jsonl(&path)
    } else {
        Ok(Vec::new())
    }
}

/// Every run directory under `results`, oldest first. Reads only metadata, so it is fast;
/// a broken run is listed with its error rather than hiding the others.
pub fn list_runs(results: &Path) -> Result<Vec<RunListing>, StoreError> {
    let rd = match std::fs::read_dir(results) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::io(results, e)),
    };
    let mut dirs: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    dirs.sort_by_cached_key(|d| start_order(d));
    Ok(dirs
        .into_iter()
        .map(|dir| RunListing {
            meta: read_meta(&dir),
            dir,
        })
        .collect())
}

/// Orders run directories by start: an id's date-time, then its fraction of the second,
/// whatever the suite name between them; other names sort by name.
fn start_order(dir: &Path) -> (String, String, String) {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let stamp = name.get(..15).unwrap_or(&name).to_string();
    let fraction = name.rsplit('-').next().unwrap_or_default().to_string();
    (stamp, fraction, name)
}

/// Finds a run by id, unique id prefix, `latest`, or path.
pub fn resolve_run(results: &Path, spec: &str) -> Result<PathBuf, StoreError> {
    let as_path = Path::new(spec);
    if as_path.join("meta.json").is_file() {
        return Ok(as_path.to_path_buf());
    }
    let runs = list_runs(results)?;
    if spec == "latest" {
        return runs
            .iter()
            .filter_map(|r| r.meta.as_ref().ok().map(|m| (m.started_unix, &r.dir)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, d)| d.clone())
            .ok_or_else(|| StoreError::NotFound {
                spec: spec.into(),
                dir: results.to_path_buf(),
            });
    }
    let name = |d: &Path| {
        d.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    };
    if let Some(r) = runs.iter().find(|r| name(&r.dir) == spec) {
        return Ok(r.dir.clone());
    }
    let matches: Vec<&RunListing> = runs
        .iter()
        .filter(|r| name(&r.dir).starts_with(spec))
        .collect();
    match matches.len() {
        0 => Err(StoreError::NotFound {
            spec: spec.into(),
            dir: results.to_path_buf(),
        }),
        1 => Ok(matches[0].dir.clone()),
        _ => Err(StoreError::Ambiguous {
            spec: spec.into(),
            matches: matches
                .iter()
                .map(|r| name(&r.dir))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_order_by_start_whatever_the_suite() {
        let mut dirs: Vec<PathBuf> = [
            "20261122-161753-compute-8000",
            "20261122-161753-http-0100",
            "20261122-161754-a-0000",
            "20261122-161752-zzz-ffff",
            "odd",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        dirs.sort_by_cached_key(|d| start_order(d));
        let names: Vec<_> = dirs
            .iter()
            .map(|d| d.to_string_lossy().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "20261122-161752-zzz-ffff",
                "20261122-161753-http-0100",
                "20261122-161753-compute-8000",
                "20261122-161754-a-0000",
                "odd",
            ]
        );
    }

    #[test]
    fn ids_started_within_one_second_still_sort_in_order() {
        let a = crate::store::new_run_id("compute");
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = crate::store::new_run_id("compute");
        assert!(
            start_order(Path::new(&a)) < start_order(Path::new(&b)),
            "{a} then {b}"
        );
    }
}
