//! Descriptive statistics, and intervals over worker processes: a cell's typical value
//! and the ratio of two cells, with Student-t intervals whose width follows the number of
//! processes (docs/statistics.md).

use super::normal::normal_cdf;
use super::signed_rank;
use serde::{Deserialize, Serialize};

/// Descriptive statistics of a sample, with a 95 % interval of its typical value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Lower end of the 95 % interval of the typical value (geometric mean over
    /// invocations, Student t; when computed).
    pub ci_low: Option<f64>,
    /// Upper end of that interval (when computed).
    pub ci_high: Option<f64>,
}

impl Stats {
    /// Statistics of the values with the 95 % interval of the cell's typical value
    /// ([`LogMean::interval`]: over invocations when there are several); `None` when there
    /// are none.
    pub fn of(values: &Groups) -> Option<Stats> {
        let mut s = Stats::describe(values.values)?;
        if let Some((lo, hi)) = LogMean::of(values).and_then(|m| m.interval()) {
            s.ci_low = Some(lo);
            s.ci_high = Some(hi);
        }
        Some(s)
    }

    /// The typical value, the figure the interval is of: the geometric mean over
    /// invocations (the interval's centre on the log scale); the median without an
    /// interval. Shown with its interval, never the median of all values, which can lie
    /// outside it.
    pub fn typical(&self) -> f64 {
        match (self.ci_low, self.ci_high) {
            (Some(lo), Some(hi)) => (lo * hi).sqrt(),
            _ => self.median,
        }
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

/// B's median over A's: the ratio where a side is too small for [`ratio_estimate`] (a
/// single value), claiming no interval. `None` unless both medians are positive.
pub fn median_ratio(a: &[f64], b: &[f64]) -> Option<f64> {
    match (median(a)?, median(b)?) {
        (x, y) if x > 0.0 && y > 0.0 => Some(y / x),
        _ => None,
    }
}

/// Geometric mean of positive values; `None` when there are none.
pub fn geomean(values: &[f64]) -> Option<f64> {
    let pos: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    if pos.is_empty() {
        return None;
    }
    Some((pos.iter().map(|v| v.ln()).sum::<f64>() / pos.len() as f64).exp())
}

/// The values of one measurement of a cell, grouped by the worker process (invocation)
/// they came from: the independent unit of every interval.
#[derive(Debug, Clone, Copy)]
pub struct Groups<'a> {
    /// Every value, each invocation's contiguous, in invocation order.
    pub values: &'a [f64],
    /// Where each invocation's values start in `values` (ascending, first is 0).
    pub starts: &'a [usize],
    /// The invocation each group came from, parallel to `starts` (its round, in an
    /// interleaved run): what pairs two cells of one run. Empty when not known (then the
    /// groups are invocations 0, 1, …).
    pub ids: &'a [u32],
    /// The planned invocations of a `--precision` run (0 for any other): the first stage of
    /// Stein's rule, whose spread alone the interval may use ([`LogMean::of`]).
    pub first_stage: usize,
}

impl<'a> Groups<'a> {
    /// One group holding every value (a sample without invocations).
    pub fn flat(values: &'a [f64]) -> Groups<'a> {
        Groups {
            values,
            starts: &[0],
            ids: &[],
            first_stage: 0,
        }
    }

    /// The invocation (round) group `i` came from.
    pub fn id(&self, i: usize) -> u32 {
        self.ids.get(i).copied().unwrap_or(i as u32)
    }

    /// Each invocation's mean log value with its id: the unit of every interval. `None`
    /// when a value is not positive and finite.
    pub fn log_units(&self) -> Option<Vec<(u32, f64)>> {
        (0..self.invocations())
            .map(|i| {
                let v = self.group(i);
                v.iter().all(|x| x.is_finite() && *x > 0.0).then(|| {
                    (
                        self.id(i),
                        v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64,
                    )
                })
            })
            .collect()
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

/// A cell's typical value on the log scale: one unit per worker process (the mean of the
/// logs of its values), or one per value when the cell ran in a single process. Processes
/// are the independent units here — values inside one share its code and data layout, and
/// on a shared machine most of the noise lies between processes — so the spread of the
/// units, not of the values, is what an interval must carry (Kalibera & Jones 2013).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogMean {
    /// Mean of the units (log scale).
    pub mean: f64,
    /// Variance of that mean: the units' sample variance over their count.
    pub var: f64,
    /// Units (invocations, or values of a single invocation).
    pub units: usize,
    /// Set when the interval is Stein's (a `--precision` run that added rounds): the units
    /// of the first stage, whose spread `var` carries, on their degrees of freedom.
    pub stage: Option<usize>,
}

impl LogMean {
    /// The units of the values: `None` when a value is not positive or there are none.
    pub fn of(g: &Groups) -> Option<LogMean> {
        if g.values.is_empty()
            || g.values
                .iter()
                .any(|v| v.is_nan() || *v <= 0.0 || v.is_infinite())
        {
            return None;
        }
        let units: Vec<f64> = if g.invocations() >= 2 {
            (0..g.invocations())
                .map(|i| {
                    let v = g.group(i);
                    v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64
                })
                .collect()
        } else {
            g.values.iter().map(|x| x.ln()).collect()
        };
        let n = units.len();
        let mean = units.iter().sum::<f64>() / n as f64;
        // A `--precision` run chose how many invocations to add from its first stage's
        // spread (Stein's two-stage rule): its interval is that spread over all of them, on
        // the first stage's degrees of freedom, which keeps 95 % whatever the stage showed.
        let first: Vec<f64> = if g.first_stage >= 2 && g.invocations() > g.first_stage {
            (0..g.invocations())
                .filter(|&i| (g.id(i) as usize) < g.first_stage)
                .map(|i| units[i])
                .collect()
        } else {
            Vec::new()
        };
        if first.len() >= 2 {
            let m0 = first.iter().sum::<f64>() / first.len() as f64;
            let s2 = first.iter().map(|u| (u - m0).powi(2)).sum::<f64>() / (first.len() - 1) as f64;
            return Some(LogMean {
                mean,
                var: s2 / n as f64,
                units: n,
                stage: Some(first.len()),
            });
        }
        let var = if n >= 2 {
            units.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / ((n - 1) * n) as f64
        } else {
            f64::NAN
        };
        Some(LogMean {
            mean,
            var,
            units: n,
            stage: None,
        })
    }

    /// Degrees of freedom of `var`: the units' less one, or the first stage's under
    /// Stein's rule.
    pub fn df(&self) -> f64 {
        self.stage.unwrap_or(self.units) as f64 - 1.0
    }

    /// 95 % Student-t interval of the typical value (geometric mean of the units);
    /// `None` from fewer than 2 units.
    pub fn interval(&self) -> Option<(f64, f64)> {
        if self.units < 2 {
            return None;
        }
        let h = t_quantile(0.975, self.df()) * self.var.sqrt();
        Some(((self.mean - h).exp(), (self.mean + h).exp()))
    }
}

/// The ratio B/A of two cells' typical values with its interval: `b / a`, or with
/// references `(b / b_ref) / (a / a_ref)` — each side relative to its own run's baseline,
/// which cancels a machine that was uniformly faster or slower during one run.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioEstimate {
    /// The ratio of the geometric means over invocations.
    pub ratio: f64,
    /// Lower end of its 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Standard error of ln(ratio).
    pub log_se: f64,
    /// Welch–Satterthwaite degrees of freedom of that error.
    pub df: f64,
    /// Set when the interval is a signed-rank one (a paired estimate over
    /// [`signed_rank::MIN_ROUNDS`] rounds or more): the per-round log differences, from
    /// which its p-values come by the same test.
    pub rounds: Option<Vec<f64>>,
    /// The confidence the interval achieves: 95 % for Student t, more for a signed-rank
    /// interval, whose discreteness leaves it at 96.9 % over 6 rounds
    /// ([`signed_rank::level`]). What a report prints beside it.
    pub level: f64,
}

impl RatioEstimate {
    /// Half the interval's width as a percentage of the ratio: how far the true ratio may
    /// lie from the estimate (not the smallest change a verdict can call: that needs the
    /// threshold plus this).
    pub fn halfwidth_pct(&self) -> f64 {
        50.0 * (self.high - self.low) / self.ratio
    }

    /// The smallest p-value [`RatioEstimate::p_beyond`] can give, whatever the data: 2⁻ⁿ
    /// doubled for a signed-rank test of n rounds, 0 for Student t. A row of a family
    /// whose correction needs less cannot be decided at its rounds.
    pub fn least_p(&self) -> f64 {
        self.rounds
            .as_ref()
            .map_or(0.0, |d| signed_rank::least_p(d.len()))
    }

    /// Two-sided p-value of "the true ratio lies within ±`threshold_pct`": how surprising
    /// the data are if the change is no bigger than the threshold (Student t with the
    /// estimate's degrees of freedom, so a few invocations give honest, large p-values).
    pub fn p_beyond(&self, threshold_pct: f64) -> f64 {
        let t = threshold_pct / 100.0;
        let mu = self.ratio.ln();
        let up = (1.0 + t).ln();
        let down = if t < 1.0 {
            (1.0 - t).ln()
        } else {
            f64::NEG_INFINITY
        };
        if let Some(d) = &self.rounds {
            let slower = signed_rank::p_above(d, up);
            let neg: Vec<f64> = d.iter().map(|x| -x).collect();
            let faster = signed_rank::p_above(&neg, -down);
            return (2.0 * slower.min(faster)).min(1.0);
        }
        if self.log_se <= 0.0 || !self.log_se.is_finite() {
            return if mu > up || mu < down { 0.0 } else { 1.0 };
        }
        let slower = t_cdf((up - mu) / self.log_se, self.df);
        let faster = t_cdf((mu - down) / self.log_se, self.df);
        (2.0 * slower.min(faster)).min(1.0)
    }
}

/// Welch's estimate of b/a (and, with references, of (b/b_ref)/(a/a_ref)) on the log
/// scale: the difference of the sides' [`LogMean`]s, its standard error from their
/// variances, a Student-t interval with Welch–Satterthwaite degrees of freedom. With three
/// invocations a side the t quantile is about 2.8, not 1.96: few processes give wide
/// intervals, as they should. `None` when a side has no positive values or fewer than 2
/// units.
pub fn ratio_estimate(
    a: &Groups,
    b: &Groups,
    refs: Option<(&Groups, &Groups)>,
) -> Option<RatioEstimate> {
    let sides: Vec<(&Groups, f64)> = match refs {
        Some((ra, rb)) => vec![(a, -1.0), (b, 1.0), (ra, 1.0), (rb, -1.0)],
        None => vec![(a, -1.0), (b, 1.0)],
    };
    let means: Vec<(LogMean, f64)> = sides
        .iter()
        .map(|(g, sign)| LogMean::of(g).map(|m| (m, *sign)))
        .collect::<Option<_>>()?;
    if means.iter().any(|(m, _)| m.units < 2) {
        return None;
    }
    let diff: f64 = means.iter().map(|(m, sign)| sign * m.mean).sum();
    let var: f64 = means.iter().map(|(m, _)| m.var).sum();
    // A side sized by Stein's rule carries its first stage's variance, which Welch's
    // degrees of freedom would overstate (93 % coverage in simulation): the fewest of the
    // sides' own keeps the interval at 95 % or a little above.
    let staged = means.iter().any(|(m, _)| m.stage.is_some());
    let df = if staged {
        means
            .iter()
            .map(|(m, _)| m.df())
            .fold(f64::INFINITY, f64::min)
    } else if var > 0.0 {
        var * var
            / means
                .iter()
                .map(|(m, _)| m.var * m.var / m.df())
                .sum::<f64>()
    } else {
        means
            .iter()
            .map(|(m, _)| m.df())
            .fold(f64::INFINITY, f64::min)
    };
    Some(t_estimate(diff, var.sqrt(), df))
}

/// B/A of two cells of one run, paired by round. Round k ran both cells' k-th invocations
/// close together, so whatever the machine did in that round (drift, a noisy neighbour) is
/// in both and cancels in the difference of their mean logs; only what differs between the
/// two processes of a round is left. From [`signed_rank::MIN_ROUNDS`] rounds the estimate is
/// the Hodges–Lehmann centre of those differences with its signed-rank interval, so a single
/// round the host disturbed cannot set the width (from [`signed_rank::ROBUST_FROM`]
/// rounds); below that, their mean with a paired Student-t interval on rounds − 1 degrees
/// of freedom. Two arms whose rounds Stein's rule sized from their paired differences
/// (`stein`: a `--pair` run with `--precision`, its planned rounds the first stage) get
/// Stein's interval instead: the mean of every round's difference, the first stage's spread
/// over all of them, on the first stage's degrees of freedom, as the rule assumed when it
/// chose the rounds. Rounds that only one side has (a failed or busy invocation) are left
/// out. `None` with fewer than 2 shared rounds. Returns the estimate and the rounds it
/// paired.
pub fn paired_estimate(
    a: &Groups,
    b: &Groups,
    stein: Option<usize>,
) -> Option<(RatioEstimate, usize)> {
    let rounds = paired_units(a, b)?;
    let n = rounds.len();
    if n < 2 {
        return None;
    }
    let d: Vec<f64> = rounds.iter().map(|(_, x, y)| y - x).collect();
    if let Some(n0) = stein {
        let first: Vec<f64> = rounds
            .iter()
            .filter(|(id, ..)| (*id as usize) < n0)
            .map(|(_, x, y)| y - x)
            .collect();
        if first.len() >= 2 {
            let k = first.len() as f64;
            let m0 = first.iter().sum::<f64>() / k;
            let s2 = first.iter().map(|x| (x - m0).powi(2)).sum::<f64>() / (k - 1.0);
            let mean = d.iter().sum::<f64>() / n as f64;
            return Some((t_estimate(mean, (s2 / n as f64).sqrt(), k - 1.0), n));
        }
    }
    let df = (n - 1) as f64;
    if let Some((centre, lo, hi)) = signed_rank::interval(&d) {
        // The Student-t error the interval's width would have: for anything that reads
        // an error rather than the interval.
        let se = (hi - lo) / 2.0 / t_quantile(0.975, df);
        return Some((
            RatioEstimate {
                ratio: centre.exp(),
                low: lo.exp(),
                high: hi.exp(),
                log_se: se,
                df,
                level: signed_rank::level(n).unwrap_or(0.95),
                rounds: Some(d),
            },
            n,
        ));
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / ((n - 1) * n) as f64;
    Some((t_estimate(mean, var.sqrt(), df), n))
}

/// A 95 % Student-t estimate of a log ratio from its mean, standard error and degrees of
/// freedom.
fn t_estimate(mean: f64, se: f64, df: f64) -> RatioEstimate {
    let h = t_quantile(0.975, df) * se;
    RatioEstimate {
        ratio: mean.exp(),
        low: (mean - h).exp(),
        high: (mean + h).exp(),
        log_se: se,
        df,
        rounds: None,
        level: 0.95,
    }
}

/// The two cells' process means (mean logs), round by round, as (round, a, b) for the
/// rounds (invocation ids) both have; `None` when a value is not positive and finite.
pub fn paired_units(a: &Groups, b: &Groups) -> Option<Vec<(u32, f64, f64)>> {
    let (ua, ub) = (a.log_units()?, b.log_units()?);
    Some(
        ua.iter()
            .filter_map(|(id, x)| ub.iter().find(|(j, _)| j == id).map(|(_, y)| (*id, *x, *y)))
            .collect(),
    )
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Regularized incomplete beta function I_x(a, b).
fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// Student's t distribution function with `df` degrees of freedom (any positive real;
/// the normal one beyond 1e7).
pub fn t_cdf(x: f64, df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > 1e7 {
        return normal_cdf(x);
    }
    let tail = 0.5 * inc_beta(df / 2.0, 0.5, df / (df + x * x));
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// The `p` quantile of Student's t with `df` degrees of freedom (bisection on
/// [`t_cdf`]: exact to 1e-9, and cheap next to everything else a diff does).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if p == 0.5 {
        return 0.0;
    }
    let (mut lo, mut hi) = (-1e7, 1e7);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-10 * mid.abs().max(1.0) {
            break;
        }
    }
    0.5 * (lo + hi)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn known_values() {
        let s = Stats::of(&Groups::flat(&[4.0, 1.0, 3.0, 2.0])).unwrap();
        assert_eq!(
            (s.n, s.min, s.max, s.median, s.mean),
            (4, 1.0, 4.0, 2.5, 2.5)
        );
        assert!((s.stddev - 1.2909944487358056).abs() < 1e-12);
        assert_eq!(s.mad, 1.0);
        assert!((s.p90 - 3.7).abs() < 1e-12);
        let (lo, hi) = (s.ci_low.unwrap(), s.ci_high.unwrap());
        // Student t with 3 degrees of freedom around the geometric mean 2.21.
        assert!(lo > 0.8 && lo < 1.0 && hi > 5.0 && hi < 6.0, "{lo} {hi}");
        assert_eq!(Stats::describe(&[1.0, 2.0]).unwrap().ci_low, None);
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert!((geomean(&[1.0, 4.0]).unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(Stats::of(&Groups::flat(&[])), None);
        // One value: no interval.
        assert_eq!(Stats::of(&Groups::flat(&[3.0])).unwrap().ci_low, None);
    }

    #[test]
    fn student_t_matches_tables() {
        // Two-sided 95 % critical values from the standard tables.
        for (df, want) in [
            (1.0, 12.706_204_736),
            (2.0, 4.302_652_730),
            (4.0, 2.776_445_105),
            (10.0, 2.228_138_852),
            (30.0, 2.042_272_456),
        ] {
            let q = t_quantile(0.975, df);
            assert!((q - want).abs() < 1e-6, "df {df}: {q} vs {want}");
        }
        assert!((t_quantile(0.975, 1e9) - 1.959_964).abs() < 1e-5);
        assert!((t_cdf(2.0, 5.0) - 0.949_030_260).abs() < 1e-8);
        assert!((t_cdf(-1.0, 3.0) - 0.195_501_109).abs() < 1e-8);
        assert!((t_cdf(0.0, 2.5) - 0.5).abs() < 1e-12);
        // Non-integer degrees of freedom lie between their neighbours.
        let q = t_quantile(0.975, 2.5);
        assert!(q < t_quantile(0.975, 2.0) && q > t_quantile(0.975, 3.0));
        assert!(t_cdf(1.0, -1.0).is_nan());
    }

    #[test]
    fn log_mean_units_are_invocations() {
        // Two invocations: units are their log-means, not the four values.
        let v = [1.0, 1.0, 4.0, 4.0];
        let m = LogMean::of(&Groups {
            values: &v,
            starts: &[0, 2],
            ids: &[],
            first_stage: 0,
        })
        .unwrap();
        assert_eq!(m.units, 2);
        assert!((m.mean - 2f64.ln()).abs() < 1e-12);
        // Sample variance of [0, ln 4] is (ln 4)^2 / 2; over 2 units: (ln 4)^2 / 4.
        assert!((m.var - 4f64.ln().powi(2) / 4.0).abs() < 1e-12);
        // A single invocation: its values are the units.
        assert_eq!(LogMean::of(&Groups::flat(&v)).unwrap().units, 4);
        assert_eq!(LogMean::of(&Groups::flat(&[1.0, 0.0])), None);
    }

    #[test]
    fn typical_value_interval_covers_about_95_percent() {
        let mut rng = Rng::new(42);
        let trials = 400;
        let mut covered = 0;
        for _ in 0..trials {
            let v: Vec<f64> = (0..30)
                .map(|_| 100.0 * (0.05 * rng.normal()).exp())
                .collect();
            let (lo, hi) = LogMean::of(&Groups::flat(&v)).unwrap().interval().unwrap();
            covered += usize::from(lo <= 100.0 && 100.0 <= hi);
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.91..=0.985).contains(&rate), "coverage {rate}");
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
    fn intervals_hold_the_noise_between_invocations() {
        // Two processes of the same code differ by 5 % (sd), values inside one by 0.5 %.
        // Intervals from values alone would call most A/A pairs different; those over
        // invocations must cover the true ratio 1 about 95 % of the time — with only 3
        // invocations a side too, where a normal quantile would not.
        let mut rng = Rng::new(11);
        let (mut covered_h, mut covered_flat, mut covered_few) = (0, 0, 0);
        let trials = 300;
        for _ in 0..trials {
            let (va, sa) = clustered(&mut rng, 8, 3, 100.0, 0.05, 0.005);
            let (vb, sb) = clustered(&mut rng, 8, 3, 100.0, 0.05, 0.005);
            let (ga, gb) = (
                Groups {
                    values: &va,
                    starts: &sa,
                    ids: &[],
                    first_stage: 0,
                },
                Groups {
                    values: &vb,
                    starts: &sb,
                    ids: &[],
                    first_stage: 0,
                },
            );
            let h = ratio_estimate(&ga, &gb, None).unwrap();
            covered_h += usize::from(h.low <= 1.0 && 1.0 <= h.high);
            let f = ratio_estimate(&Groups::flat(&va), &Groups::flat(&vb), None).unwrap();
            covered_flat += usize::from(f.low <= 1.0 && 1.0 <= f.high);
            let (va, sa) = clustered(&mut rng, 3, 2, 100.0, 0.05, 0.005);
            let (vb, sb) = clustered(&mut rng, 3, 2, 100.0, 0.05, 0.005);
            let few = ratio_estimate(
                &Groups {
                    values: &va,
                    starts: &sa,
                    ids: &[],
                    first_stage: 0,
                },
                &Groups {
                    values: &vb,
                    starts: &sb,
                    ids: &[],
                    first_stage: 0,
                },
                None,
            )
            .unwrap();
            covered_few += usize::from(few.low <= 1.0 && 1.0 <= few.high);
        }
        let rate = |c: usize| c as f64 / trials as f64;
        let (h, f, few) = (rate(covered_h), rate(covered_flat), rate(covered_few));
        assert!((0.91..=0.99).contains(&h), "coverage over invocations {h}");
        assert!(
            (0.91..=0.99).contains(&few),
            "coverage with 3 invocations {few}"
        );
        assert!(f < h - 0.15, "flat coverage {f} should be far below {h}");
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
        let e = ratio_estimate(&Groups::flat(&a), &Groups::flat(&b), None).unwrap();
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
        )
        .unwrap();
        assert!((c.ratio - e.ratio).abs() < 1e-9, "{c:?}");
        // Too few units on a side: no estimate.
        assert_eq!(
            ratio_estimate(&Groups::flat(&a), &Groups::flat(&[110.0]), None),
            None
        );
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
