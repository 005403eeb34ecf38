//! Where a run's noise lies ([`crate::analysis::noise`]): per cell, within and between
//! processes and the first iteration; per pair, what the pairing cancelled.

use super::Table;
use crate::analysis::Noise;
use crate::format::MISSING;

/// The cells' table, then (with `run --pair`) the pairs'.
pub fn noise_tables(n: &Noise) -> Vec<Table> {
    let pct = |v: Option<f64>| v.map_or(MISSING.to_string(), |v| format!("{v:.1} %"));
    let signed = |v: Option<f64>| v.map_or(MISSING.to_string(), |v| format!("{v:+.1} %"));
    let mut cells = Table::new(
        [
            "test",
            "runtime",
            "processes",
            "values",
            "within a process",
            "between processes",
            "first iteration",
        ],
        2,
    )
    .titled(
        "noise: standard deviation of the log of the primary measure (≈ % of the value); \
         first iteration: how much slower a process's first measured iteration was than its others",
    );
    for c in &n.cells {
        cells.rows.push(vec![
            c.test.clone(),
            c.runtime.clone(),
            c.invocations.to_string(),
            c.values.to_string(),
            pct(c.within_pct),
            pct(c.between_pct),
            signed(c.first_pct),
        ]);
    }
    let mut tables = vec![cells];
    if !n.pairs.is_empty() {
        let mut pairs = Table::new(
            ["shared", "pair", "rounds", "paired", "unpaired", "variance removed"],
            2,
        )
        .titled(
            "pairing: standard deviation of the arms' per-round difference, against independent rounds",
        );
        for p in &n.pairs {
            pairs.rows.push(vec![
                p.shared.clone(),
                format!("{} vs {}", p.arms[0], p.arms[1]),
                p.rounds.to_string(),
                format!("{:.1} %", p.paired_pct),
                format!("{:.1} %", p.unpaired_pct),
                format!("{:.0} %", p.removed() * 100.0),
            ]);
        }
        tables.push(pairs);
    }
    if let Some(h) = &n.host {
        let mut host = Table::new(["what the host added"], 1).titled(
            "the host: a fixed probe timed before every worker, and what ran before each process",
        );
        host.rows = h.describe().into_iter().map(|l| vec![l]).collect();
        tables.push(host);
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{CellNoise, PairNoise};

    #[test]
    fn cells_and_pairs_are_tabled_with_their_figures() {
        let n = Noise {
            cells: vec![CellNoise {
                runtime: "wasmtime".into(),
                test: "nbody".into(),
                invocations: 6,
                values: 12,
                within_pct: Some(3.04),
                between_pct: None,
                first_pct: Some(-1.26),
            }],
            pairs: vec![PairNoise {
                shared: "nbody".into(),
                arms: ["wasmtime".into(), "wasmer".into()],
                rounds: 6,
                paired_pct: 3.0,
                unpaired_pct: 6.0,
            }],
            host: None,
        };
        let t = noise_tables(&n);
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[0].rows[0],
            ["nbody", "wasmtime", "6", "12", "3.0 %", MISSING, "-1.3 %"]
        );
        assert_eq!(
            t[1].rows[0],
            ["nbody", "wasmtime vs wasmer", "6", "3.0 %", "6.0 %", "75 %"]
        );
        // No pair: one table.
        assert_eq!(
            noise_tables(&Noise {
                pairs: Vec::new(),
                ..n.clone()
            })
            .len(),
            1
        );
        // The host's lines last, when the run has probe readings.
        let host = crate::analysis::HostNoise {
            invocations: 120,
            cpu_pct: 1.2,
            mem_pct: 9.8,
            mem_range: 1.6,
            shared_r: Some(0.7),
            shared_n: 114,
            after_large_r: Some(0.01),
            after_large_n: 100,
        };
        let t = noise_tables(&Noise {
            host: Some(host),
            ..n
        });
        let lines: Vec<&str> = t[2].rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            lines,
            [
                "host: the probe (fixed work timed before each of 120 workers) varied ±1.2 % in its arithmetic loop and ±9.8 % in its memory chase (1.60× from its fastest to its slowest moment)",
                "slow phases of the host: the cells' processes moved with the probe (r = 0.70 over 114 processes): about 49 % of their spread between processes is the host's moment, which pairing in time cancels (--pair)",
                "not slower after a large process (r = 0.01 over 100 processes)",
            ]
        );
    }
}
