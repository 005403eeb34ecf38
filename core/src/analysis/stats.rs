//! Descriptive statistics and a seeded bootstrap for confidence intervals of medians.

use serde::{Deserialize, Serialize};

/// Descriptive statistics of a sample, with a 95 % bootstrap interval of its median.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Sample size.
    pub n: usize,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// Median.
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (0 for n < 2).
    pub stddev: f64,
    /// Median absolute deviation (unscaled).
    pub mad: f64,
    /// 90th percentile (linear interpolation).
    pub p90: f64,
    /// 99th percentile (linear interpolation).
    pub p99: f64,
    /// Lower end of the 95 % bootstrap interval of the median (when computed).
    pub ci_low: Option<f64>,
    /// Upper end of the 95 % bootstrap interval of the median (when computed).
    pub ci_high: Option<f64>,
}

/// Bootstrap resamples per interval: enough for stable 2.5/97.5 % quantiles.
pub const RESAMPLES: usize = 1000;

impl Stats {
    /// Statistics of the values with a bootstrap interval of the median; `None` when there
    /// are none. `seed` makes the bootstrap reproducible: same data and seed, same interval.
    pub fn of(values: &[f64], seed: u64) -> Option<Stats> {
        let mut s = Stats::describe(values)?;
        let (lo, hi) = median_interval(values, seed);
        s.ci_low = Some(lo);
        s.ci_high = Some(hi);
        Some(s)
    }

    /// Statistics of the values without the (costlier) interval.
    pub fn describe(values: &[f64]) -> Option<Stats> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let median = quantile_sorted(&sorted, 0.5);
        let mut dev: Vec<f64> = sorted.iter().map(|v| (v - median).abs()).collect();
        dev.sort_by(f64::total_cmp);
        Some(Stats {
            n,
            min: sorted[0],
            max: sorted[n - 1],
            median,
            mean,
            stddev: var.sqrt(),
            mad: quantile_sorted(&dev, 0.5),
            p90: quantile_sorted(&sorted, 0.9),
            p99: quantile_sorted(&sorted, 0.99),
            ci_low: None,
            ci_high: None,
        })
    }
}

/// Quantile `q` of sorted values, linear interpolation between closest ranks.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.len() == 1 {
        return sorted[0];
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Median of the values; `None` when there are none.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    Some(quantile_sorted(&v, 0.5))
}

/// Geometric mean of positive values; `None` when there are none.
pub fn geomean(values: &[f64]) -> Option<f64> {
    let pos: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    if pos.is_empty() {
        return None;
    }
    Some((pos.iter().map(|v| v.ln()).sum::<f64>() / pos.len() as f64).exp())
}

/// A small, fast, seedable generator (SplitMix64): reproducible bootstraps without a
/// dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform index below `n` (multiply-shift; `n` is far below 2^32 here).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(f64::MIN_POSITIVE);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// Median of a bootstrap resample of `sorted` (ascending). Resampling ranks is the same as
/// resampling values, and the median rank of the resample maps straight back to a value,
/// so a histogram of drawn ranks replaces copying and selecting.
fn resample_median(sorted: &[f64], rng: &mut Rng, counts: &mut Vec<u32>) -> f64 {
    let n = sorted.len();
    counts.clear();
    counts.resize(n, 0);
    for _ in 0..n {
        counts[rng.below(n)] += 1;
    }
    // The 0-based positions of the middle element(s) of the resample.
    let (lo_pos, hi_pos) = ((n - 1) / 2, n / 2);
    let (mut seen, mut lo) = (0usize, None);
    for (rank, &c) in counts.iter().enumerate() {
        seen += c as usize;
        if lo.is_none() && seen > lo_pos {
            lo = Some(sorted[rank]);
        }
        if seen > hi_pos {
            return (lo.unwrap_or(sorted[rank]) + sorted[rank]) / 2.0;
        }
    }
    sorted[n - 1]
}

fn sorted_copy(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

fn interval(mut draws: Vec<f64>) -> (f64, f64) {
    draws.sort_by(f64::total_cmp);
    (
        quantile_sorted(&draws, 0.025),
        quantile_sorted(&draws, 0.975),
    )
}

/// 95 % percentile-bootstrap interval of the median.
pub fn median_interval(values: &[f64], seed: u64) -> (f64, f64) {
    if values.len() < 2 {
        return (values[0], values[0]);
    }
    let sorted = sorted_copy(values);
    let mut rng = Rng::new(seed);
    let mut counts = Vec::with_capacity(values.len());
    interval(
        (0..RESAMPLES)
            .map(|_| resample_median(&sorted, &mut rng, &mut counts))
            .collect(),
    )
}

/// 95 % percentile-bootstrap interval of median(b) / median(a), resampling both sides.
pub fn ratio_interval(a: &[f64], b: &[f64], seed: u64) -> Option<(f64, f64)> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (a, b) = (sorted_copy(a), sorted_copy(b));
    let mut rng = Rng::new(seed);
    let mut counts = Vec::with_capacity(a.len().max(b.len()));
    let draws: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let ma = resample_median(&a, &mut rng, &mut counts);
            let mb = resample_median(&b, &mut rng, &mut counts);
            if ma > 0.0 { mb / ma } else { f64::NAN }
        })
        .filter(|r| r.is_finite())
        .collect();
    (!draws.is_empty()).then(|| interval(draws))
}

/// A stable seed for a key (FNV-1a), so each cell's bootstrap is reproducible and
/// independent of the others.
pub fn seed_for(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let s = Stats::of(&[4.0, 1.0, 3.0, 2.0], 1).unwrap();
        assert_eq!(
            (s.n, s.min, s.max, s.median, s.mean),
            (4, 1.0, 4.0, 2.5, 2.5)
        );
        assert!((s.stddev - 1.2909944487358056).abs() < 1e-12);
        assert_eq!(s.mad, 1.0);
        assert!((s.p90 - 3.7).abs() < 1e-12);
        let (lo, hi) = (s.ci_low.unwrap(), s.ci_high.unwrap());
        assert!(lo >= 1.0 && hi <= 4.0 && lo <= s.median && s.median <= hi);
        assert_eq!(Stats::describe(&[1.0, 2.0]).unwrap().ci_low, None);
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert!((geomean(&[1.0, 4.0]).unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(Stats::of(&[], 1), None);
        // Reproducible for a seed.
        assert_eq!(
            Stats::of(&[1.0, 2.0, 3.0, 9.0, 4.0], 7),
            Stats::of(&[1.0, 2.0, 3.0, 9.0, 4.0], 7)
        );
    }

    #[test]
    fn median_interval_covers_the_true_median_about_95_percent() {
        let mut rng = Rng::new(42);
        let trials = 400;
        let mut covered = 0;
        for t in 0..trials {
            let v: Vec<f64> = (0..30).map(|_| 100.0 + 5.0 * rng.normal()).collect();
            let (lo, hi) = median_interval(&v, t);
            covered += usize::from(lo <= 100.0 && 100.0 <= hi);
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.88..=0.99).contains(&rate), "coverage {rate}");
    }

    #[test]
    fn ratio_interval_brackets_a_planted_ratio() {
        let mut rng = Rng::new(3);
        let a: Vec<f64> = (0..20)
            .map(|_| 100.0 * (1.0 + 0.02 * rng.normal()))
            .collect();
        let b: Vec<f64> = (0..20)
            .map(|_| 110.0 * (1.0 + 0.02 * rng.normal()))
            .collect();
        let (lo, hi) = ratio_interval(&a, &b, 9).unwrap();
        assert!(lo < 1.1 && 1.1 < hi && lo > 1.05 && hi < 1.15, "{lo} {hi}");
    }
}

#[cfg(test)]
mod resample_tests {
    use super::*;

    #[test]
    fn rank_resampling_gives_medians_of_the_data() {
        let sorted = [1.0, 2.0, 3.0, 10.0];
        let mut rng = Rng::new(5);
        let mut counts = Vec::new();
        for _ in 0..200 {
            let m = resample_median(&sorted, &mut rng, &mut counts);
            // An even-sized resample's median is a midpoint of two data values.
            let ok = sorted
                .iter()
                .any(|a| sorted.iter().any(|b| (a + b) / 2.0 == m));
            assert!(ok, "{m}");
        }
        let odd = [5.0, 6.0, 7.0];
        for _ in 0..200 {
            assert!(odd.contains(&resample_median(&odd, &mut rng, &mut counts)));
        }
    }
}
