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
    /// Statistics of the values with a (hierarchical) bootstrap interval of the median;
    /// `None` when there are none. `seed` makes the bootstrap reproducible: same data and seed, same interval.
    pub fn of(values: &Groups, seed: u64) -> Option<Stats> {
        let mut s = Stats::describe(values.values)?;
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

/// The values of one measurement of a cell, grouped by the worker process (invocation)
/// they came from: the unit a hierarchical bootstrap resamples first.
#[derive(Debug, Clone, Copy)]
pub struct Groups<'a> {
    /// Every value, each invocation's contiguous, in invocation order.
    pub values: &'a [f64],
    /// Where each invocation's values start in `values` (ascending, first is 0).
    pub starts: &'a [usize],
}

impl<'a> Groups<'a> {
    /// One group holding every value (a sample without invocations).
    pub fn flat(values: &'a [f64]) -> Groups<'a> {
        Groups {
            values,
            starts: &[0],
        }
    }

    /// Invocations that have values.
    pub fn invocations(&self) -> usize {
        if self.values.is_empty() {
            0
        } else {
            self.starts.len()
        }
    }

    /// The values of invocation `i`.
    pub fn group(&self, i: usize) -> &'a [f64] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.values.len());
        &self.values[self.starts[i]..end]
    }
}

/// Median of a hierarchical bootstrap resample (Kalibera & Jones 2013): draw as many
/// invocations as there are, with replacement, then from each drawn invocation as many of
/// its values as it has, with replacement. Between-process variance is in the spread of
/// the draws, which resampling values alone would hide.
fn resample_median(g: &Groups, rng: &mut Rng, buf: &mut Vec<f64>) -> f64 {
    buf.clear();
    let k = g.invocations();
    for _ in 0..k {
        let grp = g.group(rng.below(k));
        for _ in 0..grp.len() {
            buf.push(grp[rng.below(grp.len())]);
        }
    }
    median_in_place(buf)
}

/// Median of a scratch buffer (reordered).
fn median_in_place(v: &mut [f64]) -> f64 {
    let n = v.len();
    let (_, hi, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    let hi = *hi;
    if n % 2 == 1 {
        return hi;
    }
    let lo = v[..n / 2].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo + hi) / 2.0
}

fn interval(mut draws: Vec<f64>) -> (f64, f64) {
    draws.sort_by(f64::total_cmp);
    (
        quantile_sorted(&draws, 0.025),
        quantile_sorted(&draws, 0.975),
    )
}

/// 95 % hierarchical-bootstrap interval of the median (percentile method).
pub fn median_interval(g: &Groups, seed: u64) -> (f64, f64) {
    if g.values.len() < 2 {
        return (g.values[0], g.values[0]);
    }
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(g.values.len());
    interval(
        (0..RESAMPLES)
            .map(|_| resample_median(g, &mut rng, &mut buf))
            .collect(),
    )
}

/// The ratio of two medians with its bootstrap distribution: `b / a`, or with references
/// `(b / b_ref) / (a / a_ref)` — each side relative to its own run's baseline, which
/// cancels a machine that was uniformly faster or slower during one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioEstimate {
    /// The ratio of the medians.
    pub ratio: f64,
    /// Lower end of its 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Standard deviation of the bootstrap distribution of ln(ratio).
    pub log_sd: f64,
}

impl RatioEstimate {
    /// Half the interval's width as a percentage of the ratio: the smallest change these
    /// data could tell from noise.
    pub fn halfwidth_pct(&self) -> f64 {
        50.0 * (self.high - self.low) / self.ratio
    }

    /// Two-sided p-value of "the true ratio lies within ±`threshold_pct`": how surprising
    /// the data are if the change is no bigger than the threshold. From a normal
    /// approximation of the bootstrap distribution of ln(ratio) (its standard error), which
    /// resolves the small p-values a correction over many rows needs, where counting draws
    /// could not go below 1/1000.
    pub fn p_beyond(&self, threshold_pct: f64) -> f64 {
        let t = threshold_pct / 100.0;
        let mu = self.ratio.ln();
        let up = (1.0 + t).ln();
        let down = if t < 1.0 {
            (1.0 - t).ln()
        } else {
            f64::NEG_INFINITY
        };
        if self.log_sd <= 0.0 || !self.log_sd.is_finite() {
            return if mu > up || mu < down { 0.0 } else { 1.0 };
        }
        let slower = normal_cdf((up - mu) / self.log_sd);
        let faster = normal_cdf((mu - down) / self.log_sd);
        (2.0 * slower.min(faster)).min(1.0)
    }
}

/// Bootstrap estimate of median(b)/median(a) (and, with references, of
/// [median(b)/median(b_ref)] / [median(a)/median(a_ref)]), each sample resampled
/// hierarchically and independently. `None` when a side is empty or a median is not
/// positive.
pub fn ratio_estimate(
    a: &Groups,
    b: &Groups,
    refs: Option<(&Groups, &Groups)>,
    seed: u64,
) -> Option<RatioEstimate> {
    let sides: Vec<&Groups> = match refs {
        Some((ra, rb)) => vec![a, b, ra, rb],
        None => vec![a, b],
    };
    if sides.iter().any(|g| g.values.is_empty()) {
        return None;
    }
    let meds: Vec<f64> = sides
        .iter()
        .map(|g| median(g.values).unwrap_or(0.0))
        .collect();
    if meds.iter().any(|m| *m <= 0.0) {
        return None;
    }
    let combine = |m: &[f64]| match m {
        [a, b, ra, rb] => (b.ln() - rb.ln()) - (a.ln() - ra.ln()),
        [a, b] => b.ln() - a.ln(),
        _ => unreachable!("two or four sides"),
    };
    let observed = combine(&meds);
    let mut rng = Rng::new(seed);
    let mut buf = Vec::new();
    let mut draw = vec![0.0; sides.len()];
    let draws: Vec<f64> = (0..RESAMPLES)
        .filter_map(|_| {
            for (d, g) in draw.iter_mut().zip(&sides) {
                *d = resample_median(g, &mut rng, &mut buf);
            }
            let l = combine(&draw);
            l.is_finite().then_some(l)
        })
        .collect();
    if draws.is_empty() {
        return None;
    }
    let mean = draws.iter().sum::<f64>() / draws.len() as f64;
    let sd = (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>()
        / (draws.len().max(2) - 1) as f64)
        .sqrt();
    let (lo, hi) = interval(draws);
    Some(RatioEstimate {
        ratio: observed.exp(),
        low: lo.exp(),
        high: hi.exp(),
        log_sd: sd,
    })
}

/// Standard normal distribution function, from erfc (Numerical Recipes' erfcc: fractional
/// error below 1.2e-7 everywhere).
pub fn normal_cdf(x: f64) -> f64 {
    let z = (x / std::f64::consts::SQRT_2).abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let erfc = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Benjamini–Hochberg adjusted p-values (same order as given): rows of one diff are many
/// comparisons, and at 95 % one in twenty would fire by chance alone without this.
pub fn bh_adjust(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![1.0; m];
    let mut running = 1.0f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] * m as f64 / (rank + 1) as f64);
        adjusted[i] = running.min(1.0);
    }
    adjusted
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
        let s = Stats::of(&Groups::flat(&[4.0, 1.0, 3.0, 2.0]), 1).unwrap();
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
        assert_eq!(Stats::of(&Groups::flat(&[]), 1), None);
        // Reproducible for a seed.
        let g = Groups::flat(&[1.0, 2.0, 3.0, 9.0, 4.0]);
        assert_eq!(Stats::of(&g, 7), Stats::of(&g, 7));
        let mut v = vec![3.0, 1.0, 2.0, 10.0];
        assert_eq!(median_in_place(&mut v), 2.5);
    }

    #[test]
    fn median_interval_covers_the_true_median_about_95_percent() {
        let mut rng = Rng::new(42);
        let trials = 400;
        let mut covered = 0;
        for t in 0..trials {
            let v: Vec<f64> = (0..30).map(|_| 100.0 + 5.0 * rng.normal()).collect();
            let (lo, hi) = median_interval(&Groups::flat(&v), t);
            covered += usize::from(lo <= 100.0 && 100.0 <= hi);
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.88..=0.99).contains(&rate), "coverage {rate}");
    }

    /// Values of `k` invocations of `n` each: every invocation has its own level (sd
    /// `between`), values scatter around it (sd `within`).
    fn clustered(
        rng: &mut Rng,
        k: usize,
        n: usize,
        level: f64,
        between: f64,
        within: f64,
    ) -> (Vec<f64>, Vec<usize>) {
        let mut v = Vec::new();
        let mut starts = Vec::new();
        for _ in 0..k {
            starts.push(v.len());
            let inv = level * (1.0 + between * rng.normal());
            v.extend((0..n).map(|_| inv * (1.0 + within * rng.normal())));
        }
        (v, starts)
    }

    #[test]
    fn hierarchical_intervals_hold_the_noise_between_invocations() {
        // Two processes of the same code differ by 5 % (sd), values inside one by 0.5 %.
        // Intervals from values alone would call most A/A pairs different; the
        // hierarchical ones must cover the true ratio 1 at least ~90 % of the time.
        let mut rng = Rng::new(11);
        let (mut covered_h, mut covered_flat) = (0, 0);
        let trials = 300;
        for t in 0..trials {
            let (va, sa) = clustered(&mut rng, 8, 3, 100.0, 0.05, 0.005);
            let (vb, sb) = clustered(&mut rng, 8, 3, 100.0, 0.05, 0.005);
            let (ga, gb) = (
                Groups {
                    values: &va,
                    starts: &sa,
                },
                Groups {
                    values: &vb,
                    starts: &sb,
                },
            );
            let h = ratio_estimate(&ga, &gb, None, t).unwrap();
            covered_h += usize::from(h.low <= 1.0 && 1.0 <= h.high);
            let f = ratio_estimate(&Groups::flat(&va), &Groups::flat(&vb), None, t).unwrap();
            covered_flat += usize::from(f.low <= 1.0 && 1.0 <= f.high);
        }
        let (h, f) = (
            covered_h as f64 / trials as f64,
            covered_flat as f64 / trials as f64,
        );
        assert!(h >= 0.88, "hierarchical coverage {h}");
        assert!(
            f < h,
            "flat coverage {f} should be worse than hierarchical {h}"
        );
    }

    #[test]
    fn ratio_estimate_brackets_a_planted_ratio() {
        let mut rng = Rng::new(3);
        let a: Vec<f64> = (0..20)
            .map(|_| 100.0 * (1.0 + 0.02 * rng.normal()))
            .collect();
        let b: Vec<f64> = (0..20)
            .map(|_| 110.0 * (1.0 + 0.02 * rng.normal()))
            .collect();
        let e = ratio_estimate(&Groups::flat(&a), &Groups::flat(&b), None, 9).unwrap();
        assert!(
            e.low < 1.1 && 1.1 < e.high && e.low > 1.05 && e.high < 1.15,
            "{e:?}"
        );
        assert!(e.p_beyond(2.0) < 1e-4, "{e:?}");
        assert!(e.p_beyond(20.0) > 0.5, "{e:?}");
        assert!(e.halfwidth_pct() > 0.0 && e.halfwidth_pct() < 5.0);
        // The same ratio relative to references that both doubled: unchanged.
        let ra: Vec<f64> = a.iter().map(|x| x * 0.5).collect();
        let rb: Vec<f64> = a.iter().map(|x| x * 0.5).collect();
        let n = ratio_estimate(
            &Groups::flat(&a),
            &Groups::flat(&b),
            Some((&Groups::flat(&ra), &Groups::flat(&rb))),
            9,
        )
        .unwrap();
        assert!((n.ratio - e.ratio).abs() < 1e-9);
        // A machine 20 % slower during B's run, baseline included: cancelled.
        let b_slow: Vec<f64> = b.iter().map(|x| x * 1.2).collect();
        let rb_slow: Vec<f64> = rb.iter().map(|x| x * 1.2).collect();
        let c = ratio_estimate(
            &Groups::flat(&a),
            &Groups::flat(&b_slow),
            Some((&Groups::flat(&ra), &Groups::flat(&rb_slow))),
            9,
        )
        .unwrap();
        assert!((c.ratio - e.ratio).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn normal_cdf_and_bh() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-3.0) - 0.001_349_9).abs() < 1e-6);
        // Benjamini–Hochberg on a textbook example.
        let adj = bh_adjust(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.02, 0.04, 0.04, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
        assert!(bh_adjust(&[]).is_empty());
    }
}
