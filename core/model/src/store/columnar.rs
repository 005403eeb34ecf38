//! Parquet files of a finished run (via polars), which replace its JSON-lines files.

use super::lines::{digest, read_jsonl};
use super::{FileDigest, MeasurementRow, SampleRow, StoreError};
use crate::model::{Metric, Phase};
use polars::prelude::*;
use std::fs::File;
use std::path::Path;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A polars error reading `path`: the file is corrupt, and the message says which.
pub fn polars_err(path: &Path, e: PolarsError) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

fn write_parquet(path: &Path, mut df: DataFrame) -> Result<(), StoreError> {
    let tmp = path.with_extension("parquet.tmp");
    let f = File::create(&tmp).map_err(|e| StoreError::io(&tmp, e))?;
    ParquetWriter::new(f)
        .finish(&mut df)
        .map_err(|e| polars_err(path, e))?;
    std::fs::rename(&tmp, path).map_err(|e| StoreError::io(path, e))
}

/// Reads a Parquet file. polars' reader panics on some corrupt files instead of returning an
/// error (an `unwrap` in its page decoder, found by fuzzing the saved-run loader): the panic
/// becomes this file's error, so a damaged run cannot take a UI down with it.
fn read_parquet(path: &Path) -> Result<DataFrame, StoreError> {
    let f = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let read = quiet_polars_panics(|| ParquetReader::new(f).finish());
    match read {
        Ok(r) => r.map_err(|e| polars_err(path, e)),
        Err(why) => Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            message: format!("unreadable Parquet ({why})"),
        }),
    }
}

/// Reads in flight under [`quiet_polars_panics`].
static QUIET_READS: AtomicUsize = AtomicUsize::new(0);

/// Runs `f`, turning a panic into its message. While it runs, panics raised in polars' code
/// (on its worker threads too) skip the panic hooks: no message on stderr, and the TUI's hook
/// does not restore the terminal under a UI that goes on.
pub fn quiet_polars_panics<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_polars = info.location().is_some_and(|l| l.file().contains("polars"));
            if !(in_polars && QUIET_READS.load(Ordering::SeqCst) > 0) {
                previous(info);
            }
        }));
    });
    QUIET_READS.fetch_add(1, Ordering::SeqCst);
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET_READS.fetch_sub(1, Ordering::SeqCst);
    out.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the Parquet reader panicked".into())
    })
}

/// One column per (name, field) of rows.
macro_rules! frame {
    ($rows:expr; $($name:literal => $field:expr),+ $(,)?) => {
        DataFrame::new(
            $rows.len(),
            vec![$(Column::new($name.into(), $rows.iter().map($field).collect::<Vec<_>>())),+],
        )
    };
}

/// Measurement rows as a DataFrame (one column per field).
pub fn measurements_frame(rows: &[MeasurementRow]) -> PolarsResult<DataFrame> {
    frame!(rows;
        "runtime" => |r| r.runtime.as_str(),
        "test" => |r| r.test.as_str(),
        "phase" => |r| r.phase.as_str(),
        "invocation" => |r| r.invocation,
        "iteration" => |r| r.iteration,
        "warmup" => |r| r.warmup,
        "metric" => |r| r.metric.as_str(),
        "value" => |r| r.value,
    )
}

fn samples_frame(rows: &[SampleRow]) -> PolarsResult<DataFrame> {
    frame!(rows;
        "t_ms" => |r| r.t_ms,
        "runtime" => |r| r.runtime.as_str(),
        "test" => |r| r.test.as_str(),
        "cpu_pct" => |r| r.cpu_pct,
        "rss_bytes" => |r| r.rss_bytes,
    )
}

fn missing(path: &Path, what: &str) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        message: format!("missing or null value in column '{what}'"),
    }
}

/// One typed column of a frame, or an error naming the file and the column.
fn column<'a, T: ?Sized>(
    df: &'a DataFrame,
    path: &Path,
    name: &str,
    typed: impl Fn(&'a Column) -> PolarsResult<&'a T>,
) -> Result<&'a T, StoreError> {
    df.column(name)
        .and_then(typed)
        .map_err(|e| polars_err(path, e))
}

/// Reads measurements.parquet back into rows.
pub fn read_measurements(path: &Path) -> Result<Vec<MeasurementRow>, StoreError> {
    measurement_rows(&read_parquet(path)?, path)
}

/// A frame of measurements (read from `path`: one file, or the scan of many) as rows.
pub fn measurement_rows(df: &DataFrame, path: &Path) -> Result<Vec<MeasurementRow>, StoreError> {
    let runtime = column(df, path, "runtime", Column::str)?;
    let test = column(df, path, "test", Column::str)?;
    let phase = column(df, path, "phase", Column::str)?;
    let iteration = column(df, path, "iteration", Column::u32)?;
    // Runs saved before invocations existed have one, numbered 0.
    let invocation = match df.column("invocation") {
        Ok(c) => Some(c.u32().map_err(|e| polars_err(path, e))?),
        Err(_) => None,
    };
    let warmup = column(df, path, "warmup", Column::bool)?;
    let metric = column(df, path, "metric", Column::str)?;
    let value = column(df, path, "value", Column::f64)?;
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let p = phase.get(i).ok_or_else(|| missing(path, "phase"))?;
        let m = metric.get(i).ok_or_else(|| missing(path, "metric"))?;
        out.push(MeasurementRow {
            runtime: runtime
                .get(i)
                .ok_or_else(|| missing(path, "runtime"))?
                .to_string(),
            test: test
                .get(i)
                .ok_or_else(|| missing(path, "test"))?
                .to_string(),
            phase: Phase::parse(p).ok_or_else(|| StoreError::Corrupt {
                path: path.to_path_buf(),
                message: format!("row {i}: unknown phase '{p}'"),
            })?,
            // A scan of many files fills the column with nulls where a run predates it.
            invocation: invocation.and_then(|c| c.get(i)).unwrap_or(0),
            iteration: iteration.get(i).ok_or_else(|| missing(path, "iteration"))?,
            warmup: warmup.get(i).ok_or_else(|| missing(path, "warmup"))?,
            metric: Metric::parse(m).ok_or_else(|| StoreError::Corrupt {
                path: path.to_path_buf(),
                message: format!("row {i}: unknown metric '{m}'"),
            })?,
            value: value.get(i).ok_or_else(|| missing(path, "value"))?,
        });
    }
    Ok(out)
}

/// Reads samples.parquet back into rows.
pub fn read_samples(path: &Path) -> Result<Vec<SampleRow>, StoreError> {
    let df = read_parquet(path)?;
    let t = column(&df, path, "t_ms", Column::f64)?;
    let runtime = column(&df, path, "runtime", Column::str)?;
    let test = column(&df, path, "test", Column::str)?;
    let cpu = column(&df, path, "cpu_pct", Column::f32)?;
    let rss = column(&df, path, "rss_bytes", Column::u64)?;
    (0..df.height())
        .map(|i| {
            Ok(SampleRow {
                t_ms: t.get(i).ok_or_else(|| missing(path, "t_ms"))?,
                runtime: runtime
                    .get(i)
                    .ok_or_else(|| missing(path, "runtime"))?
                    .to_string(),
                test: test
                    .get(i)
                    .ok_or_else(|| missing(path, "test"))?
                    .to_string(),
                cpu_pct: cpu.get(i).ok_or_else(|| missing(path, "cpu_pct"))?,
                rss_bytes: rss.get(i).ok_or_else(|| missing(path, "rss_bytes"))?,
            })
        })
        .collect()
}

/// Turns the run's JSON-lines files into Parquet, then removes them. The Parquet files
/// are read back and checked before anything is removed. Returns the digests of the files
/// it wrote, by file name.
pub fn compact(dir: &Path) -> Result<Vec<(String, FileDigest)>, StoreError> {
    let mut written = Vec::new();
    let mj = dir.join("measurements.jsonl");
    if mj.exists() {
        let rows: Vec<MeasurementRow> = read_jsonl(&mj)?;
        let mp = dir.join("measurements.parquet");
        write_parquet(
            &mp,
            measurements_frame(&rows).map_err(|e| polars_err(&mp, e))?,
        )?;
        if read_measurements(&mp)?.len() != rows.len() {
            return Err(StoreError::Corrupt {
                path: mp,
                message: "row count differs after compaction".into(),
            });
        }
        written.push(("measurements.parquet".to_string(), digest(&mp)?));
        std::fs::remove_file(&mj).map_err(|e| StoreError::io(&mj, e))?;
    }
    let sj = dir.join("samples.jsonl");
    if sj.exists() {
        let rows: Vec<SampleRow> = read_jsonl(&sj)?;
        let sp = dir.join("samples.parquet");
        write_parquet(&sp, samples_frame(&rows).map_err(|e| polars_err(&sp, e))?)?;
        if read_samples(&sp)?.len() != rows.len() {
            return Err(StoreError::Corrupt {
                path: sp,
                message: "row count differs after compaction".into(),
            });
        }
        written.push(("samples.parquet".to_string(), digest(&sp)?));
        std::fs::remove_file(&sj).map_err(|e| StoreError::io(&sj, e))?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurements_saved_before_invocations_read_as_invocation_0() {
        let row = |invocation, iteration| MeasurementRow {
            runtime: "wasmtime".into(),
            test: "sha256".into(),
            phase: Phase::Execute,
            invocation,
            iteration,
            warmup: false,
            metric: Metric::SelfNs,
            value: 1.5,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("measurements.parquet");
        // The columns a run saved before invocations has: no `invocation`.
        let old = measurements_frame(&[row(0, 0), row(0, 1)])
            .unwrap()
            .drop("invocation")
            .unwrap();
        assert!(old.column("invocation").is_err());
        write_parquet(&path, old).unwrap();
        assert_eq!(
            read_measurements(&path).unwrap(),
            vec![row(0, 0), row(0, 1)]
        );
        // And a run of today keeps each row's invocation.
        let new = vec![row(0, 0), row(2, 0)];
        write_parquet(&path, measurements_frame(&new).unwrap()).unwrap();
        assert_eq!(read_measurements(&path).unwrap(), new);
    }
}
