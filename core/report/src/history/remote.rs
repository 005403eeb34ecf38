//! Runs in S3: listed and their metadata fetched with object_store (the client polars'
//! cloud reader is built on), with a short connect timeout and no retries, so an endpoint
//! that is down is one error within seconds.

use super::HistoryError;
use super::source::{Keep, Listed, Results, Skipped, cells_from, measurements_digest, unfinished};
use crate::store::meta_from_bytes;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path as Key;
use object_store::{ClientConfigKey, ObjectStore, ObjectStoreExt, RetryConfig};
use std::collections::BTreeMap;
use std::path::Path;

/// Requests in flight at once while fetching metadata.
const CONCURRENCY: usize = 32;

/// The client options every S3 request of a history takes (object_store's own and polars'
/// scan): the connect timeout, and plain HTTP when `AWS_ALLOW_HTTP` allows it (a local
/// S3-compatible server). polars replaces the client options `from_env` read, so they are
/// given again explicitly.
pub fn client_config() -> Vec<(AmazonS3ConfigKey, String)> {
    let mut out = vec![
        (
            AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
            format!("{}s", super::CONNECT_TIMEOUT.as_secs()),
        ),
        (
            AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
            "60s".to_string(),
        ),
    ];
    if let Ok(v) = std::env::var("AWS_ALLOW_HTTP") {
        out.push((AmazonS3ConfigKey::Client(ClientConfigKey::AllowHttp), v));
    }
    out
}

fn store(bucket: &str, url: &str) -> Result<AmazonS3, HistoryError> {
    let mut b = AmazonS3Builder::from_env().with_bucket_name(bucket);
    for (k, v) in client_config() {
        b = b.with_config(k, v);
    }
    b.with_retry(RetryConfig {
        max_retries: 0,
        retry_timeout: super::CONNECT_TIMEOUT,
        ..RetryConfig::default()
    })
    .build()
    .map_err(|e| remote(url, e))
}

/// One line naming the URL, whatever the client's error says.
fn remote(url: &str, e: impl std::fmt::Display) -> HistoryError {
    HistoryError::Remote {
        url: url.to_string(),
        message: crate::text::one_line(e.to_string()),
    }
}

/// What a run directory in the bucket holds.
#[derive(Default)]
struct Dir {
    meta: bool,
    cells: bool,
    measurements: Option<u64>,
}

/// The finished runs under the URL's prefix that `keep` keeps.
pub fn list(
    results: &Results,
    keep: &dyn Keep,
    wanted: &(dyn Fn(&str, &str) -> bool + Sync),
    hint: &[&str],
) -> Result<(Vec<Listed>, Vec<Skipped>), HistoryError> {
    let Results::S3 {
        url,
        bucket,
        prefix,
    } = results
    else {
        unreachable!("remote::list is called for S3 results only")
    };
    let store = store(bucket, url)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| remote(url, e))?;
    rt.block_on(async {
        let root = (!prefix.is_empty()).then(|| Key::from(prefix.as_str()));
        let objects: Vec<_> = store
            .list(root.as_ref())
            .try_collect()
            .await
            .map_err(|e| remote(url, e))?;
        // Run directories: the first level under the prefix.
        let mut dirs: BTreeMap<String, Dir> = BTreeMap::new();
        let skip = if prefix.is_empty() {
            0
        } else {
            prefix.len() + 1
        };
        for o in &objects {
            let key = o.location.as_ref();
            let Some((run, file)) = key.get(skip..).and_then(|k| k.split_once('/')) else {
                continue;
            };
            let d = dirs.entry(run.to_string()).or_default();
            match file {
                "meta.json" => d.meta = true,
                "cells.jsonl" => d.cells = true,
                "measurements.parquet" => d.measurements = Some(o.size),
                _ => {}
            }
        }
        let at = |run: &str, file: &str| {
            if prefix.is_empty() {
                format!("{run}/{file}")
            } else {
                format!("{prefix}/{run}/{file}")
            }
        };
        let url_of = |key: &str| format!("s3://{bucket}/{key}");
        let store = &store;
        let fetched: Vec<Result<Option<Listed>, Skipped>> =
            futures::stream::iter(dirs.iter().filter(|(_, d)| d.meta))
                .map(|(run, d)| {
                    let (mk, ck) = (at(run, "meta.json"), at(run, "cells.jsonl"));
                    let pq = url_of(&at(run, "measurements.parquet"));
                    async move {
                        let bytes = get(store, &mk)
                            .await
                            .map_err(|e| format!("{}: {e}", url_of(&mk)))?;
                        let meta = meta_from_bytes(Path::new(&url_of(&mk)), &bytes)
                            .map_err(|e| e.to_string())?;
                        if !keep(&meta) {
                            return Ok(None);
                        }
                        if let Some(why) = unfinished(&meta) {
                            return Err(why);
                        }
                        let Some(size) = d.measurements else {
                            return Err(format!("{pq}: missing"));
                        };
                        if let Some(want) = measurements_digest(&meta)
                            && want.bytes != size
                        {
                            return Err(format!(
                                "{pq}: {size} bytes, but {} were written",
                                want.bytes
                            ));
                        }
                        let cells = if d.cells {
                            let b = get(store, &ck)
                                .await
                                .map_err(|e| format!("{}: {e}", url_of(&ck)))?;
                            let text = String::from_utf8_lossy(&b);
                            cells_from(Path::new(&url_of(&ck)), &text, wanted, hint)
                                .map_err(|e| e.to_string())?
                        } else {
                            Vec::new()
                        };
                        Ok(Some(Listed {
                            meta,
                            measurements: pq,
                            cells: Some(cells),
                            dir: None,
                        }))
                    }
                })
                .buffer_unordered(CONCURRENCY)
                .collect()
                .await;
        let mut listed = Vec::new();
        let mut skipped = Vec::new();
        for f in fetched {
            match f {
                Ok(Some(l)) => listed.push(l),
                Ok(None) => {}
                Err(why) => skipped.push(why),
            }
        }
        Ok((listed, skipped))
    })
}

async fn get(store: &AmazonS3, key: &str) -> Result<Vec<u8>, String> {
    let r = store
        .get(&Key::from(key))
        .await
        .map_err(|e| crate::text::one_line(e.to_string()))?;
    let b = r
        .bytes()
        .await
        .map_err(|e| crate::text::one_line(e.to_string()))?;
    Ok(b.to_vec())
}
