//! The JSON-lines files a run appends to as it goes, and the digests that guard its
//! Parquet files.

use super::{FileDigest, StoreError};
use serde::de::DeserializeOwned;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Reads a JSON-lines file. A last line cut short by a crash is dropped; any other bad
/// line is an error naming the file and line.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, StoreError> {
    let f = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let lines: Vec<String> = BufReader::new(f)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| StoreError::io(path, e))?;
    let text_ends_with_newline = std::fs::read(path)
        .map(|b| b.last() == Some(&b'\n'))
        .unwrap_or(true);
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(v) => out.push(v),
            Err(_) if i + 1 == lines.len() && !text_ends_with_newline => break,
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

/// Size and SHA-256 of a file.
pub fn digest(path: &Path) -> Result<FileDigest, StoreError> {
    use sha2::{Digest, Sha256};
    let mut f = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut f, &mut hasher).map_err(|e| StoreError::io(path, e))?;
    Ok(FileDigest {
        bytes,
        sha256: crate::text::hex(&hasher.finalize()),
    })
}

/// Refuses a Parquet file that differs from what was written, before polars sees it.
pub fn verify(path: &Path, want: &FileDigest) -> Result<(), StoreError> {
    let got = digest(path)?;
    if got == *want {
        return Ok(());
    }
    let message = if got.bytes != want.bytes {
        format!(
            "damaged: {} bytes, {} when it was saved",
            got.bytes, want.bytes
        )
    } else {
        "damaged: its SHA-256 differs from the one saved with the run".into()
    };
    Err(StoreError::Corrupt {
        path: path.to_path_buf(),
        message,
    })
}
