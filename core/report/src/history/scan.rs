//! The measurements of many runs in one lazy polars scan: only the columns a summary reads
//! (projection) and only the rows of the cells asked for (predicate, pushed into the
//! Parquet reader), so memory follows the cells read, not the runs' size. Local files and
//! s3:// URLs alike (polars' cloud reader).

use super::HistoryError;
use super::source::Results;
use crate::store::{MeasurementRow, measurement_rows, polars_err, quiet_polars_panics};
use polars::io::cloud::{CloudOptions, CloudRetryConfig};
use polars::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// The column naming the file each row came from.
const FILE: &str = "file";

/// Rows of `files` whose test and runtime `test`/`runtime` allow (`None`: any), by file.
pub fn scan(
    results: &Results,
    files: &[String],
    test: Option<&str>,
    runtime: Option<&str>,
) -> Result<HashMap<String, Vec<MeasurementRow>>, HistoryError> {
    let mut out: HashMap<String, Vec<MeasurementRow>> = HashMap::new();
    if files.is_empty() {
        return Ok(out);
    }
    let name = results.name();
    let err = |e: PolarsError| HistoryError::Store(polars_err(Path::new(&name), e));
    let cloud_options = match results {
        Results::Local(_) => None,
        Results::S3 { .. } => Some(
            CloudOptions::default()
                .with_aws(super::remote::client_config())
                .with_retry_config(CloudRetryConfig {
                    max_retries: Some(1),
                    ..CloudRetryConfig::default()
                }),
        ),
    };
    let args = ScanArgsParquet {
        cloud_options,
        include_file_paths: Some(FILE.into()),
        // Runs saved before invocations were recorded lack that column.
        allow_missing_columns: true,
        glob: false,
        cache: false,
        ..ScanArgsParquet::default()
    };
    let paths: Vec<PlRefPath> = files.iter().map(|f| PlRefPath::new(f.as_str())).collect();
    let mut filter: Option<Expr> = None;
    for (column, want) in [("test", test), ("runtime", runtime)] {
        if let Some(w) = want {
            let e = col(column).eq(lit(w));
            filter = Some(match filter {
                Some(f) => f.and(e),
                None => e,
            });
        }
    }
    let columns = [
        "runtime",
        "test",
        "phase",
        "invocation",
        "iteration",
        "warmup",
        "metric",
        "value",
        FILE,
    ];
    let df = quiet_polars_panics(|| -> PolarsResult<DataFrame> {
        let mut lf = LazyFrame::scan_parquet_files(paths.into(), args)?;
        if let Some(f) = filter {
            lf = lf.filter(f);
        }
        lf.select(columns.iter().map(|c| col(*c)).collect::<Vec<_>>())
            .collect()
    })
    .map_err(|why| HistoryError::Remote {
        url: name.clone(),
        message: format!("unreadable Parquet ({why})"),
    })?
    .map_err(err)?;
    let rows = measurement_rows(&df, Path::new(&name))?;
    let file = df.column(FILE).and_then(|c| c.str()).map_err(err)?;
    for (i, row) in rows.into_iter().enumerate() {
        let f = file.get(i).unwrap_or_default();
        match out.get_mut(f) {
            Some(v) => v.push(row),
            None => {
                out.insert(f.to_string(), vec![row]);
            }
        }
    }
    Ok(out)
}
