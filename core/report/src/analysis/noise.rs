//! Where a run's noise lies: between the iterations inside one worker process, between
//! processes, in a cell's first iteration, and how much of it a pair's design cancelled.
//! It tells which lever narrows an interval: more runs per invocation help only against
//! the first, more invocations against the second, pairing against what both arms share.

use super::stats::{Groups, paired_units};
use super::summary::Index;
use crate::store::{Pair, PairOf, SavedRun};
use serde::Serialize;

/// The noise of one cell's primary measure, as standard deviations of its logarithm in
/// percent (about the coefficient of variation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellNoise {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Invocations (worker processes) with values.
    pub invocations: usize,
    /// Measured values in all.
    pub values: usize,
    /// Between iterations of one process (pooled over processes); `None` with one value
    /// per process.
    pub within_pct: Option<f64>,
    /// Between processes beyond what the iterations' own spread explains (one-way random
    /// effects, method of moments, floored at 0); `None` with fewer than 2 processes.
    pub between_pct: Option<f64>,
    /// How much slower a process's first measured iteration was than its others, percent
    /// (mean over processes with at least 2): what a warm-up would remove.
    pub first_pct: Option<f64>,
}

/// What a pair's design cancelled: the per-round differences of its two arms against the
/// spread two independent arms would have.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairNoise {
    /// The runtime (for two tests) or test (for two runtimes) the arms share.
    pub shared: String,
    /// The arms, A and B.
    pub arms: [String; 2],
    /// Rounds both arms have.
    pub rounds: usize,
    /// Standard deviation of the per-round difference of the arms' process means, percent.
    pub paired_pct: f64,
    /// What it would be if the arms' rounds were independent: the root of the sum of their
    /// variances, percent.
    pub unpaired_pct: f64,
}

impl PairNoise {
    /// The share of the difference's variance the pairing removed (negative: it added).
    pub fn removed(&self) -> f64 {
        1.0 - (self.paired_pct / self.unpaired_pct).powi(2)
    }
}

/// Where a run's noise lies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Noise {
    /// Each cell with values, in the run's test × runtime order.
    pub cells: Vec<CellNoise>,
    /// With `run --pair A,B`: each pair of cells.
    pub pairs: Vec<PairNoise>,
    /// What the host did over the run, from the probe timed before every worker; `None` for
    /// a run saved before the probe was recorded.
    pub host: Option<HostNoise>,
}

/// The probe's spread (%) from which the host is said to have moved during a run: a quiet
/// 2-core VM here keeps it within ±1–2 %.
const HOST_MOVED_PCT: f64 = 3.0;

/// What the host added, read from the host probe (the same fixed work timed in wasmeter's
/// own process before every worker, [`crate::sample::probe`]) and from the order in which
/// the invocations ran. Each figure is over every process of the run, pooled: a cell's own
/// few processes cannot tell a cause, a run's hundreds can.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostNoise {
    /// Invocations with a probe reading.
    pub invocations: usize,
    /// Spread of the probe's arithmetic loop over the run (standard deviation of its log,
    /// ≈ %): the cores' speed.
    pub cpu_pct: f64,
    /// Spread of the probe's memory chase: the memory system's.
    pub mem_pct: f64,
    /// Largest over smallest memory chase: how far apart the host's moments were.
    pub mem_range: f64,
    /// The correlation of each process's deviation from its cell's mean (log) with the
    /// probe's deviation from the run's mean, pooled over every cell with 3 or more
    /// processes; its square is the share of the cells' spread between processes that
    /// moved with the host. `None` below 10 processes.
    pub shared_r: Option<f64>,
    /// Processes in that correlation.
    pub shared_n: usize,
    /// The same correlation with the peak resident memory of the worker that ran just
    /// before (log): positive when a process runs slower after a large one. `None` without
    /// samples or start times.
    pub after_large_r: Option<f64>,
    /// Processes in that correlation.
    pub after_large_n: usize,
}

impl HostNoise {
    /// What the host added, in words, for `show --noise` and a precision run's closing
    /// lines: the probe's spread, and which of the causes the run can see mattered.
    pub fn describe(&self) -> Vec<String> {
        let mut out = vec![format!(
            "host: the probe (fixed work timed before each of {} workers) varied ±{:.1} % in its arithmetic loop and ±{:.1} % in its memory chase ({:.2}× from its fastest to its slowest moment)",
            self.invocations, self.cpu_pct, self.mem_pct, self.mem_range
        )];
        let moved = self.mem_pct.max(self.cpu_pct) >= HOST_MOVED_PCT;
        if let Some(r) = self.shared_r {
            let share = r.max(0.0).powi(2) * 100.0;
            // Two standard errors of a correlation of no relation, and a tenth of the spread.
            out.push(if r >= 2.0 / (self.shared_n as f64).sqrt() && share >= 10.0 {
                format!(
                    "slow phases of the host: the cells' processes moved with the probe (r = {r:.2} over {} processes): about {share:.0} % of their spread between processes is the host's moment, which pairing in time cancels (--pair)",
                    self.shared_n
                )
            } else if moved {
                format!(
                    "the host's moments are shorter than a process: the probe moved ±{:.1} % but not in step with the processes after it (r = {r:.2} over {} processes); such noise is the host's, not the harness's, and only more processes (--precision) or alternating arms iteration by iteration (--pair) average it",
                    self.mem_pct.max(self.cpu_pct),
                    self.shared_n
                )
            } else {
                format!(
                    "the host was steady (the probe within ±{:.1} %) and the processes did not move with it (r = {r:.2} over {} processes): their spread is each process's own (code and data placement)",
                    self.mem_pct.max(self.cpu_pct),
                    self.shared_n
                )
            });
        }
        if let Some(r) = self.after_large_r {
            out.push(if r >= 2.0 / (self.after_large_n as f64).sqrt() {
                format!(
                    "slower after a large process: processes ran slower the larger the worker before them (r = {r:.2} over {} processes)",
                    self.after_large_n
                )
            } else {
                format!(
                    "not slower after a large process (r = {r:.2} over {} processes)",
                    self.after_large_n
                )
            });
        }
        out
    }
}

/// The noise of every cell of `run` (by its primary measure) and of every two of its pair's
/// arms.
pub fn noise(run: &SavedRun) -> Noise {
    let index = Index::new(&run.measurements);
    let runtimes: Vec<&str> = run.meta.runtimes.iter().map(|r| r.id.as_str()).collect();
    let tests: Vec<&str> = run.meta.tests.iter().map(|t| t.name.as_str()).collect();
    let mut cells = Vec::new();
    for test in &tests {
        for rt in &runtimes {
            if let Some((g, _, _)) = index.primary(rt, test)
                && let Some(c) = cell_noise(rt, test, &g)
            {
                cells.push(c);
            }
        }
    }
    let pairs = run
        .meta
        .pair()
        .map_or_else(Vec::new, |p| pair_noise(p, &index, &tests, &runtimes));
    Noise {
        cells,
        pairs,
        host: host_noise(run, &index),
    }
}

/// Every two arms of the pair, in the order given, on each test (runtime arms) or runtime
/// (test arms) they share: their paired spread against the unpaired one.
fn pair_noise(pair: Pair, index: &Index, tests: &[&str], runtimes: &[&str]) -> Vec<PairNoise> {
    let shared = match pair.of {
        PairOf::Runtimes => tests,
        PairOf::Tests => runtimes,
    };
    let arms = pair.arms;
    let twos = arms
        .iter()
        .enumerate()
        .flat_map(|(i, a)| arms[i + 1..].iter().map(move |b| (a, b)));
    let mut out = Vec::new();
    for (a, b) in twos {
        for s in shared {
            let (cell_a, cell_b) = (pair.cell(a, s), pair.cell(b, s));
            let (Some((ga, _, _)), Some((gb, _, _))) = (
                index.primary(cell_a.0, cell_a.1),
                index.primary(cell_b.0, cell_b.1),
            ) else {
                continue;
            };
            if let Some((rounds, paired, unpaired)) = paired_spread(&ga, &gb) {
                out.push(PairNoise {
                    shared: s.to_string(),
                    arms: [a.clone(), b.clone()],
                    rounds,
                    paired_pct: paired * 100.0,
                    unpaired_pct: unpaired * 100.0,
                });
            }
        }
    }
    out
}

/// Pearson's correlation of two equally long series; `None` below 10 points or without
/// spread.
fn correlation(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() < 10 || x.len() != y.len() {
        return None;
    }
    let (mx, my) = (mean(x), mean(y));
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// The host's part of a run's noise: the probe's spread, and how the cells' processes
/// moved with it and with the size of the worker before them.
fn host_noise(run: &SavedRun, index: &Index) -> Option<HostNoise> {
    let probed: Vec<&crate::store::CellRecord> =
        run.cells.iter().filter(|c| c.host.is_some()).collect();
    if probed.len() < 3 {
        return None;
    }
    let lg = |f: fn(&crate::sample::HostProbe) -> f64| -> Vec<f64> {
        probed
            .iter()
            .filter_map(|c| c.host.as_ref().map(f))
            .filter(|v| *v > 0.0)
            .map(f64::ln)
            .collect()
    };
    let (cpu, mem) = (lg(|p| p.cpu_ns), lg(|p| p.mem_ns));
    let sd = |v: &[f64]| variance(v).map_or(0.0, |x| x.sqrt() * 100.0);
    let range = mem.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - mem.iter().copied().fold(f64::INFINITY, f64::min);
    let mem_mean = mean(&mem);
    // Each process's deviation from its cell's mean, beside the probe's and the size of
    // the worker that ran before it.
    let probe_of: std::collections::HashMap<(&str, &str, u32), f64> = probed
        .iter()
        .filter_map(|c| {
            let p = c.host.as_ref()?;
            (p.mem_ns > 0.0).then(|| {
                (
                    (c.runtime.as_str(), c.test.as_str(), c.invocation),
                    p.mem_ns.ln(),
                )
            })
        })
        .collect();
    let before = previous_peaks(run);
    let (mut dev, mut host, mut dev_b, mut big) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for t in &run.meta.tests {
        for r in &run.meta.runtimes {
            let Some((g, _, _)) = index.primary(&r.id, &t.name) else {
                continue;
            };
            let Some(units) = g.log_units() else {
                continue;
            };
            if units.len() < 3 {
                continue;
            }
            let m = units.iter().map(|(_, u)| u).sum::<f64>() / units.len() as f64;
            for (id, u) in &units {
                let key = (r.id.as_str(), t.name.as_str(), *id);
                if let Some(p) = probe_of.get(&key) {
                    dev.push(u - m);
                    host.push(p - mem_mean);
                }
                if let Some(b) = before.get(&key) {
                    dev_b.push(u - m);
                    big.push(*b);
                }
            }
        }
    }
    Some(HostNoise {
        invocations: probed.len(),
        cpu_pct: sd(&cpu),
        mem_pct: sd(&mem),
        mem_range: range.exp(),
        shared_r: correlation(&dev, &host),
        shared_n: dev.len(),
        after_large_r: correlation(&dev_b, &big),
        after_large_n: dev_b.len(),
    })
}

/// For each invocation with a start time, the log of the peak resident memory its live
/// samples showed for the invocation that started just before it.
fn previous_peaks(run: &SavedRun) -> std::collections::HashMap<(&str, &str, u32), f64> {
    let mut timed: Vec<&crate::store::CellRecord> = run
        .cells
        .iter()
        .filter(|c| c.started_ms.is_some() && c.failure.is_none())
        .collect();
    timed.sort_by(|a, b| {
        a.started_ms
            .unwrap_or(0.0)
            .total_cmp(&b.started_ms.unwrap_or(0.0))
    });
    // Each cell's samples, looked up once; then the peak RSS within an invocation's window.
    let mut samples: std::collections::HashMap<(&str, &str), Vec<(f64, f64)>> =
        std::collections::HashMap::new();
    for s in &run.samples {
        samples
            .entry((s.runtime.as_str(), s.test.as_str()))
            .or_default()
            .push((s.t_ms, s.rss_bytes as f64));
    }
    let peak = |c: &crate::store::CellRecord| -> Option<f64> {
        let from = c.started_ms?;
        let to = from + c.wall_ms;
        samples
            .get(&(c.runtime.as_str(), c.test.as_str()))?
            .iter()
            .filter(|(t, _)| *t >= from && *t <= to)
            .map(|(_, rss)| *rss)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
            .filter(|v| *v > 0.0)
    };
    let mut out = std::collections::HashMap::new();
    for w in timed.windows(2) {
        if let Some(p) = peak(w[0]) {
            out.insert(
                (w[1].runtime.as_str(), w[1].test.as_str(), w[1].invocation),
                p.ln(),
            );
        }
    }
    out
}

/// Each process's logs; `None` when a value is not positive and finite.
fn log_groups(g: &Groups) -> Option<Vec<Vec<f64>>> {
    (0..g.invocations())
        .map(|i| {
            let v = g.group(i);
            v.iter()
                .all(|x| x.is_finite() && *x > 0.0)
                .then(|| v.iter().map(|x| x.ln()).collect())
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Sample variance (n − 1); `None` below 2 values.
fn variance(v: &[f64]) -> Option<f64> {
    (v.len() >= 2).then(|| {
        let m = mean(v);
        v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64
    })
}

fn cell_noise(runtime: &str, test: &str, g: &Groups) -> Option<CellNoise> {
    let groups = log_groups(g)?;
    if groups.is_empty() {
        return None;
    }
    let (mut ss, mut df) = (0.0, 0usize);
    let mut first = Vec::new();
    for v in &groups {
        if v.len() >= 2 {
            let m = mean(v);
            ss += v.iter().map(|x| (x - m).powi(2)).sum::<f64>();
            df += v.len() - 1;
            first.push(v[0] - mean(&v[1..]));
        }
    }
    let within = (df > 0).then(|| ss / df as f64);
    let means: Vec<f64> = groups.iter().map(|v| mean(v)).collect();
    let per_process = g.values.len() as f64 / groups.len() as f64;
    let between = variance(&means).map(|vm| (vm - within.unwrap_or(0.0) / per_process).max(0.0));
    let pct = |var: f64| var.sqrt() * 100.0;
    Some(CellNoise {
        runtime: runtime.to_string(),
        test: test.to_string(),
        invocations: groups.len(),
        values: g.values.len(),
        within_pct: within.map(pct),
        between_pct: between.map(pct),
        first_pct: (!first.is_empty()).then(|| mean(&first).exp_m1() * 100.0),
    })
}

/// Rounds both arms have, and the standard deviations (log scale) of their per-round
/// difference and of the difference of independent rounds; `None` below 3 rounds.
fn paired_spread(a: &Groups, b: &Groups) -> Option<(usize, f64, f64)> {
    let (xa, xb): (Vec<f64>, Vec<f64>) = paired_units(a, b)?
        .into_iter()
        .map(|(_, x, y)| (x, y))
        .unzip();
    if xa.len() < 3 {
        return None;
    }
    let d: Vec<f64> = xa.iter().zip(&xb).map(|(x, y)| y - x).collect();
    let paired = variance(&d)?.sqrt();
    let unpaired = (variance(&xa)? + variance(&xb)?).sqrt();
    (unpaired > 0.0).then_some((xa.len(), paired, unpaired))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups<'a>(values: &'a [f64], starts: &'a [usize]) -> Groups<'a> {
        Groups {
            values,
            starts,
            ids: &[],
            first_stage: 0,
        }
    }

    #[test]
    fn within_and_between_are_told_apart() {
        // Three processes at 100, 200 and 400, each iteration within ±1 % of its own.
        let v = [99.0, 101.0, 198.0, 202.0, 396.0, 404.0];
        let c = cell_noise("r", "t", &groups(&v, &[0, 2, 4])).unwrap();
        let within = c.within_pct.unwrap();
        assert!((within - 1.414).abs() < 0.01, "{within}");
        // ln 2 apart, step by step: sd of (ln100, ln200, ln400) = ln 2 = 69.3 %.
        let between = c.between_pct.unwrap();
        assert!((between - 69.3).abs() < 0.1, "{between}");
        assert_eq!((c.invocations, c.values), (3, 6));
        // The first of each process is 2 % below its second.
        let first = c.first_pct.unwrap();
        assert!((first + 1.98).abs() < 0.02, "{first}");
    }

    #[test]
    fn one_value_a_process_has_no_within_and_no_first() {
        let v = [100.0, 110.0, 90.0];
        let c = cell_noise("r", "t", &groups(&v, &[0, 1, 2])).unwrap();
        assert_eq!((c.within_pct, c.first_pct), (None, None));
        assert!(c.between_pct.unwrap() > 9.0);
        // One process: no between.
        let c = cell_noise("r", "t", &groups(&v, &[0])).unwrap();
        assert_eq!(c.between_pct, None);
        assert!(c.within_pct.is_some());
    }

    #[test]
    fn pairing_cancels_what_both_arms_share() {
        // The machine's speed moves both arms alike by round; B is 5 % slower throughout.
        let speed = [1.0, 1.3, 0.8, 1.1, 0.9];
        let a: Vec<f64> = speed.iter().map(|s| 100.0 * s).collect();
        let b: Vec<f64> = speed
            .iter()
            .enumerate()
            .map(|(i, s)| 105.0 * s * (1.0 + 0.001 * i as f64))
            .collect();
        let starts = [0, 1, 2, 3, 4];
        let (rounds, paired, unpaired) =
            paired_spread(&groups(&a, &starts), &groups(&b, &starts)).unwrap();
        assert_eq!(rounds, 5);
        assert!(paired < 0.002, "{paired}");
        assert!(unpaired > 0.2, "{unpaired}");
        let p = PairNoise {
            shared: "t".into(),
            arms: ["a".into(), "b".into()],
            rounds,
            paired_pct: paired * 100.0,
            unpaired_pct: unpaired * 100.0,
        };
        assert!(p.removed() > 0.99);
        // Rounds only one arm has are left out; below 3 in common there is no figure.
        assert!(paired_spread(&groups(&a, &starts), &groups(&b[..2], &[0, 1])).is_none());
    }
}
