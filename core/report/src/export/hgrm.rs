//! A run's open-model histograms as `.hgrm` files: HdrHistogram's percentile distribution
//! text, which its plotter and wrk2's users read. One file per variant × request × rate ×
//! correction, the measured iterations of every invocation merged, values in ms.

use crate::store::{HistogramRow, SavedRun, StoreError, load_histograms};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::fmt::Write;
use wasmeter_http::load::latency_histogram;

/// `(file name, contents)` of every histogram of the run, in a stable order. A run without
/// open-model levels has none; a damaged histogram is an error naming the run's file.
pub fn hgrm_files(run: &SavedRun) -> Result<Vec<(String, String)>, StoreError> {
    let rows = load_histograms(&run.dir)?;
    merged(&rows)
        .map_err(|message| StoreError::Corrupt {
            path: run.dir.join(crate::store::HISTOGRAMS_FILE),
            message,
        })
        .map(|m| {
            m.into_iter()
                .map(|((rt, test, phase, corrected), h)| {
                    let kind = if corrected {
                        "corrected"
                    } else {
                        "uncorrected"
                    };
                    (
                        format!("{rt}.{test}.{phase}.{kind}.hgrm"),
                        percentile_distribution(&h),
                    )
                })
                .collect()
        })
}

type Key = (String, String, String, bool);

fn merged(rows: &[HistogramRow]) -> Result<BTreeMap<Key, Histogram<u64>>, String> {
    let mut out: BTreeMap<Key, Histogram<u64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.warmup) {
        let h = r.level.histogram().map_err(|e| {
            format!(
                "{} × {} {} iteration {}: {e}",
                r.runtime,
                r.test,
                r.level.phase.as_str(),
                r.iteration
            )
        })?;
        let key = (
            r.runtime.clone(),
            r.test.clone(),
            r.level.phase.as_str().to_string(),
            r.level.corrected,
        );
        let into = out.entry(key).or_insert_with(latency_histogram);
        for v in h.iter_recorded() {
            into.saturating_record_n(v.value_iterated_to(), v.count_at_value());
        }
    }
    Ok(out)
}

/// HdrHistogram's `outputPercentileDistribution` (5 ticks per half distance), ns shown as
/// ms.
pub fn percentile_distribution(h: &Histogram<u64>) -> String {
    const MS: f64 = 1e6;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    );
    let mut total = 0u64;
    if !h.is_empty() {
        for v in h.iter_quantiles(5) {
            total += v.count_since_last_iteration();
            let q = v.quantile_iterated_to();
            let value = v.value_iterated_to() as f64 / MS;
            if q < 1.0 {
                let _ = writeln!(
                    s,
                    "{value:12.3} {q:2.12} {total:10} {:14.2}",
                    1.0 / (1.0 - q)
                );
            } else {
                let _ = writeln!(s, "{value:12.3} {q:2.12} {total:10}");
            }
        }
    }
    let sub_buckets = 2f64.powf((2.0 * 10f64.powi(i32::from(h.sigfig()))).log2().ceil());
    let _ = writeln!(
        s,
        "#[Mean    = {:12.3}, StdDeviation   = {:12.3}]",
        h.mean() / MS,
        h.stdev() / MS
    );
    let _ = writeln!(
        s,
        "#[Max     = {:12.3}, Total count    = {:12}]",
        h.max() as f64 / MS,
        h.len()
    );
    let _ = writeln!(
        s,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        h.buckets(),
        sub_buckets as u64
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distribution_reads_as_hdrhistogram_writes_it() {
        let mut h = latency_histogram();
        for ms in 1..=1000u64 {
            h.record(ms * 1_000_000).unwrap();
        }
        let text = percentile_distribution(&h);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "       Value     Percentile TotalCount 1/(1-Percentile)"
        );
        assert_eq!(lines[1], "");
        let first: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(first[0], "1.000");
        assert_eq!(first[2], "1");
        // The median and the last line: 100 %, every value counted, no 1/(1-p).
        let median = lines
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some("0.500000000000"))
            .expect("a 50 % line");
        let v: f64 = median.split_whitespace().next().unwrap().parse().unwrap();
        assert!((v - 500.0).abs() < 1.0, "{median}");
        let last = lines.iter().rev().find(|l| !l.starts_with('#')).unwrap();
        let cols: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(cols.len(), 3, "{last}");
        assert_eq!(cols[1], "1.000000000000");
        assert_eq!(cols[2], "1000");
        assert!(text.contains("Total count    =         1000]"), "{text}");
        assert!(text.contains("SubBuckets     =         2048]"), "{text}");
    }
}
