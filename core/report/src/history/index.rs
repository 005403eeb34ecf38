//! The history index of a local results directory (`results/.history/`): one row per run ×
//! cell with the figure its summary gives, in Parquet parts sorted by test and runtime.
//!
//! polars takes about half a millisecond to open one run's measurements, so 10,000 runs
//! read afresh would take seconds for every question. Each run is summarised once, when it
//! ends (the runner adds it) or when a history first sees it (or sees it finished again,
//! after `--resume`), and every later history is one lazy scan of the parts, whose
//! row-group statistics let the reader skip all but the cell asked for. The run
//! directories stay the truth: rows of runs that are gone or changed are ignored, and the
//! index can be deleted at any time.
//!
//! Figures depend on how they were summarised: a part's name carries the version of the
//! index's columns and of the statistics ([`STATS_VERSION`]), parts of any other version
//! are not read, and a history removes them ([`drop_stale`]) so that every run is
//! summarised afresh.
//!
//! Several processes write one index (two runs ending at once, a history adding the runs
//! it lacks meanwhile). A part appears whole, by rename, and needs no lock; merging parts
//! and removing stale ones take `.history/lock` exclusively (flock(2)), reading takes it
//! shared, so that no reader opens a part a merge has just removed. Two writers may still
//! summarise the same run: readers and merges keep one row per [`KEY`].

use super::{HistoryError, Row};
use crate::analysis::STATS_VERSION;
use crate::store::{StoreError, polars_err, quiet_polars_panics};
use polars::prelude::*;
use std::collections::HashMap;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The index's folder in a results directory (hidden: `list_runs` skips it).
pub const DIR: &str = ".history";

/// Parts beyond which they are merged into one.
const MAX_PARTS: usize = 16;

/// Rows per row group: a cell's rows of a whole history fall in one or two.
const ROW_GROUP: usize = 16_384;

/// Version of the index's columns and what they hold: bumped when they change, so older
/// parts are made afresh (3: busy invocations left out one by one).
pub(super) const LAYOUT: u32 = 3;

/// The advisory lock's file (not a part).
const LOCK: &str = "lock";

/// What names a row: one cell of a run in one state. Rows written twice (by two writers
/// that summarised the run at once) count once.
const KEY: [&str; 5] = ["run", "stamp", "suite", "test", "runtime"];

/// The start of the names of the parts this wasmeter writes and reads.
fn tag() -> String {
    format!("v{LAYOUT}.{STATS_VERSION}-")
}

/// A new part's name (without extension), unique across processes and threads: sorted by
/// time, then the writer's pid and a count of the parts it wrote.
fn part_name() -> String {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    format!("{}{nanos:024}-{}-{seq}", tag(), std::process::id())
}

/// An advisory lock on the index (flock(2) on `.history/lock`), released when dropped
/// (closing the file releases it).
struct Lock {
    _file: std::fs::File,
}

impl Lock {
    /// `how`: `LOCK_SH` or `LOCK_EX`, maybe with `LOCK_NB`. `None` when it is not taken: no
    /// index folder, one this user cannot open the lock file in, or (with `LOCK_NB`)
    /// another process holds it.
    fn take(idx: &Path, how: libc::c_int) -> Option<Lock> {
        let path = idx.join(LOCK);
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .or_else(|_| std::fs::File::open(&path))
            .ok()?;
        loop {
            if flock(&f, how) == 0 {
                return Some(Lock { _file: f });
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return None;
            }
        }
    }
}

#[allow(unsafe_code)]
fn flock(f: &std::fs::File, how: libc::c_int) -> libc::c_int {
    // SAFETY: the descriptor belongs to `f`, open for the duration of the call.
    unsafe { libc::flock(f.as_raw_fd(), how) }
}

fn err(path: &Path, e: PolarsError) -> HistoryError {
    HistoryError::Store(polars_err(path, e))
}

/// The index's Parquet files: this version's parts and the others (stale), each sorted.
pub fn listing(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), HistoryError> {
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
            return Ok(Default::default());
        }
        Err(e) => return Err(StoreError::io(&idx, e).into()),
    };
    let tag = tag();
    let (mut current, mut stale): (Vec<PathBuf>, Vec<PathBuf>) = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .partition(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&tag))
        });
    current.sort();
    stale.sort();
    Ok((current, stale))
}

/// This version's parts.
fn parts(dir: &Path) -> Result<Vec<PathBuf>, HistoryError> {
    Ok(listing(dir)?.0)
}

/// Removes the parts of another version of the index or of the statistics, so that every
/// run is summarised afresh; what to tell the user, in one line, when there were any. An
/// index that cannot be written keeps them (they are not read: its runs are read afresh).
pub fn drop_stale(dir: &Path) -> Result<Option<String>, HistoryError> {
    if listing(dir)?.1.is_empty() {
        return Ok(None);
    }
    let idx = dir.join(DIR);
    let lock = Lock::take(&idx, libc::LOCK_EX);
    // Listed again under the lock: another history may have just removed them.
    let stale = listing(dir)?.1;
    if stale.is_empty() {
        return Ok(None);
    }
    let removed = lock.is_some()
        && stale.iter().all(|p| match std::fs::remove_file(p) {
            Ok(()) => true,
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        });
    Ok(Some(format!(
        "{} was made by another version of wasmeter's statistics: {}",
        idx.display(),
        if removed {
            "made afresh"
        } else {
            "not used (it cannot be written here)"
        }
    )))
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
    let idx = dir.join(DIR);
    let _lock = Lock::take(&idx, libc::LOCK_SH);
    let parts = parts(dir)?;
    let mut out = HashMap::new();
    if parts.is_empty() {
        return Ok(out);
    }
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

/// The rows of the cells `test`/`runtime`/`suite` name (`None`: any), each once.
pub fn rows(
    dir: &Path,
    suite: Option<&str>,
    test: Option<&str>,
    runtime: Option<&str>,
) -> Result<Vec<Row>, HistoryError> {
    let idx = dir.join(DIR);
    let _lock = Lock::take(&idx, libc::LOCK_SH);
    let parts = parts(dir)?;
    if parts.is_empty() {
        return Ok(Vec::new());
    }
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
        once(lf).collect()
    })?;
    from_frame(&df).map_err(|e| err(&idx, e))
}

/// Each row once (see [`KEY`]).
fn once(lf: LazyFrame) -> LazyFrame {
    lf.unique_generic(
        Some(KEY.iter().map(|c| col(*c)).collect()),
        UniqueKeepStrategy::Any,
    )
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
/// merges the parts when there are too many, unless another process is merging or reading
/// (the next append merges then).
pub fn append(dir: &Path, mut rows: Vec<Row>) -> Result<(), HistoryError> {
    let idx = dir.join(DIR);
    if rows.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(&idx).map_err(|e| StoreError::io(&idx, e))?;
    rows.sort_by(|a, b| (&a.test, &a.runtime).cmp(&(&b.test, &b.runtime)));
    let df = to_frame(&rows).map_err(|e| err(&idx, e))?;
    write(&idx.join(format!("{}.parquet", part_name())), df)?;
    merge(dir, false)
}

/// Merges the parts into one, each row once, when there are more than [`MAX_PARTS`];
/// `wait`: for the lock, else a merge that cannot take it at once is skipped.
pub(super) fn merge(dir: &Path, wait: bool) -> Result<(), HistoryError> {
    let idx = dir.join(DIR);
    let how = if wait {
        libc::LOCK_EX
    } else {
        libc::LOCK_EX | libc::LOCK_NB
    };
    let Some(_lock) = Lock::take(&idx, how) else {
        return Ok(());
    };
    let parts = parts(dir)?;
    if parts.len() <= MAX_PARTS {
        return Ok(());
    }
    let df = read(&idx, || {
        once(scan(&parts)?)
            .sort(["test", "runtime"], SortMultipleOptions::default())
            .collect()
    })?;
    write(&idx.join(format!("{}-merged.parquet", part_name())), df)?;
    for p in parts {
        match std::fs::remove_file(&p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(StoreError::io(&p, e).into());
            }
            _ => {}
        }
    }
    Ok(())
}

fn write(path: &Path, mut df: DataFrame) -> Result<(), HistoryError> {
    let tmp = path.with_extension("parquet.tmp");
    let f = std::fs::File::create(&tmp).map_err(|e| StoreError::io(&tmp, e))?;
    let written = ParquetWriter::new(f)
        .with_row_group_size(Some(ROW_GROUP))
        .with_statistics(StatisticsOptions::full())
        .finish(&mut df)
        .map_err(|e| err(path, e))
        .and_then(|_| std::fs::rename(&tmp, path).map_err(|e| StoreError::io(path, e).into()));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
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
    let b = |name: &str, f: fn(&Row) -> bool| {
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
            s("size", |r| &r.size),
            o("plan_hash", |r| r.plan_hash.as_deref()),
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
            b("partial", |r| r.point.partial),
            b("busy", |r| r.point.busy),
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
    let (size, version, plan) = (s("size")?, s("version")?, s("plan_hash")?);
    let b = |n: &str| df.column(n).and_then(|c| c.bool());
    let (partial, busy) = (b("partial")?, b("busy")?);
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
            size: text(size, i),
            plan_hash: plan.get(i).map(str::to_string),
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
                partial: partial.get(i).unwrap_or_default(),
                busy: busy.get(i).unwrap_or_default(),
            },
        })
        .collect())
}
