//! The history index of a local results directory (`results/.history/`): one row per run ×
//! cell with the figure its summary gives, in Parquet parts sorted by test and runtime.
//!
//! polars takes about half a millisecond to open one run's measurements, so 10,000 runs
//! read afresh would take seconds for every question. Each run is summarised once, when a
//! history first sees it (or sees it finished again, after `--resume`), and every later
//! history is one lazy scan of the parts, whose row-group statistics let the reader skip
//! all but the cell asked for. The run directories stay the truth: rows of runs that are
//! gone or changed are ignored, and the index can be deleted at any time.

use super::{HistoryError, Row};
use crate::store::{StoreError, polars_err, quiet_polars_panics};
use polars::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The index's folder in a results directory (hidden: `list_runs` skips it).
pub const DIR: &str = ".history";

/// Parts beyond which they are merged into one.
const MAX_PARTS: usize = 16;

/// Rows per row group: a cell's rows of a whole history fall in one or two.
const ROW_GROUP: usize = 16_384;

fn err(path: &Path, e: PolarsError) -> HistoryError {
    HistoryError::Store(polars_err(path, e))
}

/// The index's parts, oldest first.
fn parts(dir: &Path) -> Result<Vec<PathBuf>, HistoryError> {
    let idx = dir.join(DIR);
    let rd = match std::fs::read_dir(&idx) {
        Ok(rd) => rd,
        // No index yet, or something else in its place (then it is not written either).
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(Vec::new());
        }
        Err(e) => return Err(StoreError::io(&idx, e).into()),
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    out.sort();
    Ok(out)
}

fn scan(parts: &[PathBuf]) -> PolarsResult<LazyFrame> {
    let paths: Vec<PlRefPath> = parts
        .iter()
        .map(|p| PlRefPath::new(p.to_string_lossy().as_ref()))
        .collect();
    LazyFrame::scan_parquet_files(
        paths.into(),
        ScanArgsParquet {
            glob: false,
            cache: false,
            ..ScanArgsParquet::default()
        },
    )
}

/// Runs in the index, with the stamp each was indexed at.
pub fn indexed(dir: &Path) -> Result<HashMap<String, f64>, HistoryError> {
    let parts = parts(dir)?;
    let mut out = HashMap::new();
    if parts.is_empty() {
        return Ok(out);
    }
    let idx = dir.join(DIR);
    let df = read(&idx, || {
        scan(&parts)?
            .select([col("run"), col("stamp")])
            .unique(None, UniqueKeepStrategy::Any)
            .collect()
    })?;
    let run = df
        .column("run")
        .and_then(|c| c.str())
        .map_err(|e| err(&idx, e))?;
    let stamp = df
        .column("stamp")
        .and_then(|c| c.f64())
        .map_err(|e| err(&idx, e))?;
    for i in 0..df.height() {
        if let (Some(r), Some(s)) = (run.get(i), stamp.get(i)) {
            // A run indexed twice (resumed) keeps its latest stamp.
            let e = out.entry(r.to_string()).or_insert(s);
            *e = e.max(s);
        }
    }
    Ok(out)
}

/// Runs a polars query over the index; a damaged part is an error naming the index (and
/// deleting `.history` is always safe).
fn read(
    idx: &Path,
    q: impl FnOnce() -> PolarsResult<DataFrame>,
) -> Result<DataFrame, HistoryError> {
    quiet_polars_panics(q)
        .map_err(|why| {
            HistoryError::Store(StoreError::Corrupt {
                path: idx.to_path_buf(),
                message: format!("unreadable history index ({why}); delete it to rebuild it"),
            })
        })?
        .map_err(|e| err(idx, e))
}

/// The rows of the cells `test`/`runtime`/`suite` name (`None`: any).
pub fn rows(
    dir: &Path,
    suite: Option<&str>,
    test: Option<&str>,
    runtime: Option<&str>,
) -> Result<Vec<Row>, HistoryError> {
    let parts = parts(dir)?;
    if parts.is_empty() {
        return Ok(Vec::new());
    }
    let idx = dir.join(DIR);
    let mut filter: Option<Expr> = None;
    for (column, want) in [("suite", suite), ("test", test), ("runtime", runtime)] {
        if let Some(w) = want {
            let e = col(column).eq(lit(w));
            filter = Some(match filter {
                Some(f) => f.and(e),
                None => e,
            });
        }
    }
    let df = read(&idx, || {
        let mut lf = scan(&parts)?;
        if let Some(f) = filter {
            lf = lf.filter(f);
        }
        lf.collect()
    })?;
    from_frame(&df).map_err(|e| err(&idx, e))
}

/// Whether the index can be written here (a colleague's results directory or a read-only
/// mount cannot be: history then reads the runs afresh).
pub fn writable(dir: &Path) -> bool {
    let idx = dir.join(DIR);
    let probe = idx.join(format!(".probe-{}", std::process::id()));
    let ok = std::fs::create_dir_all(&idx).is_ok() && std::fs::File::create(&probe).is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// Adds rows as a new part (written whole, then renamed: a reader never sees half), then
/// merges the parts when there are too many.
pub fn append(dir: &Path, mut rows: Vec<Row>) -> Result<(), HistoryError> {
    let idx = dir.join(DIR);
    if rows.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(&idx).map_err(|e| StoreError::io(&idx, e))?;
    rows.sort_by(|a, b| (&a.test, &a.runtime).cmp(&(&b.test, &b.runtime)));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!("part-{nanos:024}-{}", std::process::id());
    let df = to_frame(&rows).map_err(|e| err(&idx, e))?;
    write(&idx.join(format!("{name}.parquet")), df)?;
    let parts = parts(dir)?;
    if parts.len() > MAX_PARTS {
        let df = read(&idx, || {
            scan(&parts)?
                .sort(["test", "runtime"], SortMultipleOptions::default())
                .collect()
        })?;
        write(&idx.join(format!("{name}-merged.parquet")), df)?;
        for p in parts {
            std::fs::remove_file(&p).map_err(|e| StoreError::io(&p, e))?;
        }
    }
    Ok(())
}

fn write(path: &Path, mut df: DataFrame) -> Result<(), HistoryError> {
    let tmp = path.with_extension("parquet.tmp");
    let f = std::fs::File::create(&tmp).map_err(|e| StoreError::io(&tmp, e))?;
    ParquetWriter::new(f)
        .with_row_group_size(Some(ROW_GROUP))
        .with_statistics(StatisticsOptions::full())
        .finish(&mut df)
        .map_err(|e| err(path, e))?;
    std::fs::rename(&tmp, path).map_err(|e| StoreError::io(path, e).into())
}

fn to_frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let s = |name: &str, f: fn(&Row) -> &str| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let o = |name: &str, f: fn(&Row) -> Option<&str>| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let n = |name: &str, f: fn(&Row) -> f64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let on = |name: &str, f: fn(&Row) -> Option<f64>| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    DataFrame::new(
        rows.len(),
        vec![
            s("run", |r| &r.point.run),
            n("stamp", |r| r.stamp),
            s("suite", |r| &r.suite),
            s("test", |r| &r.test),
            s("runtime", |r| &r.runtime),
            s("machine", |r| &r.machine),
            s("machine_label", |r| &r.machine_label),
            s("phase", |r| &r.phase),
            s("source", |r| &r.source),
            n("started_unix", |r| r.point.started_unix),
            n("value", |r| r.point.value),
            on("low", |r| r.point.low),
            on("high", |r| r.point.high),
            n("median", |r| r.point.median),
            Column::new(
                "invocations".into(),
                rows.iter().map(|r| r.point.invocations).collect::<Vec<_>>(),
            ),
            o("version", |r| r.point.version.as_deref()),
            o("plan_hash", |r| r.point.plan_hash.as_deref()),
        ],
    )
}

fn from_frame(df: &DataFrame) -> PolarsResult<Vec<Row>> {
    let s = |n: &str| df.column(n).and_then(|c| c.str());
    let f = |n: &str| df.column(n).and_then(|c| c.f64());
    let (run, suite, test, runtime) = (s("run")?, s("suite")?, s("test")?, s("runtime")?);
    let (machine, label, phase, source) = (
        s("machine")?,
        s("machine_label")?,
        s("phase")?,
        s("source")?,
    );
    let (stamp, started, value, low, high, median) = (
        f("stamp")?,
        f("started_unix")?,
        f("value")?,
        f("low")?,
        f("high")?,
        f("median")?,
    );
    let invocations = df.column("invocations").and_then(|c| c.u32())?;
    let (version, plan) = (s("version")?, s("plan_hash")?);
    let text = |c: &StringChunked, i: usize| c.get(i).unwrap_or_default().to_string();
    Ok((0..df.height())
        .map(|i| Row {
            suite: text(suite, i),
            test: text(test, i),
            runtime: text(runtime, i),
            machine: text(machine, i),
            machine_label: text(label, i),
            phase: text(phase, i),
            source: text(source, i),
            stamp: stamp.get(i).unwrap_or_default(),
            point: super::Point {
                run: text(run, i),
                started_unix: started.get(i).unwrap_or_default(),
                value: value.get(i).unwrap_or_default(),
                low: low.get(i),
                high: high.get(i),
                median: median.get(i).unwrap_or_default(),
                invocations: invocations.get(i).unwrap_or_default(),
                version: version.get(i).map(str::to_string),
                plan_hash: plan.get(i).map(str::to_string),
            },
        })
        .collect())
}
