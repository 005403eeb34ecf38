//! The columnar store of a build without the `parquet` feature (the fuzz targets, which
//! would otherwise compile polars with coverage instrumentation): a finished run keeps its
//! JSON-lines files, and a Parquet file is refused with its name and the reason.

use super::{FileDigest, MeasurementRow, SampleRow, StoreError};
use std::path::Path;

fn unsupported(path: &Path) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        message: "this build of wasmeter reads no Parquet (built without the `parquet` feature)"
            .into(),
    }
}

/// Refuses measurements.parquet.
pub fn read_measurements(path: &Path) -> Result<Vec<MeasurementRow>, StoreError> {
    Err(unsupported(path))
}

/// Refuses samples.parquet.
pub fn read_samples(path: &Path) -> Result<Vec<SampleRow>, StoreError> {
    Err(unsupported(path))
}

/// Leaves the JSON-lines files as they are: nothing written, no digests.
pub fn compact(_dir: &Path) -> Result<Vec<(String, FileDigest)>, StoreError> {
    Ok(Vec::new())
}
