//! Wilcoxon's signed-rank test and its Hodges–Lehmann interval, for the per-round
//! differences of two arms of one run. Their width follows the bulk of the rounds: one
//! round the host disturbed moves a rank, not a sum of squares, so it cannot set the width
//! of the whole interval as it does a Student-t one (docs/statistics.md §6c). Both are
//! exact (conditional on the ranks) where the differences are symmetric about their centre,
//! which an A/A pair whose arms run in a random order is.

use super::normal::normal_cdf;

/// Rounds from which a 95 % two-sided signed-rank interval exists: with 5, even the widest
/// one (every round on one side) has a chance of 1/32 > 2.5 %.
pub const MIN_ROUNDS: usize = 6;

/// Rounds from which one wild round cannot set an end of the 95 % interval: the critical
/// value (13 at 12 rounds) passes the n Walsh averages that hold the wild round.
pub const ROBUST_FROM: usize = 12;

/// Above this many rounds the null distribution is its normal approximation (the exact
/// one costs rounds³ steps).
const EXACT_UP_TO: usize = 200;

/// The Hodges–Lehmann estimate of the differences' centre (the median of their Walsh
/// averages) and its interval of at least 95 % (order statistics of the Walsh averages at
/// the signed-rank test's critical value; [`level`] says how much more); `None` below
/// [`MIN_ROUNDS`] or with a value that is not finite.
pub fn interval(d: &[f64]) -> Option<(f64, f64, f64)> {
    let n = d.len();
    if n < MIN_ROUNDS || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mut walsh = Vec::with_capacity(n * (n + 1) / 2);
    for i in 0..n {
        for j in i..n {
            walsh.push((d[i] + d[j]) / 2.0);
        }
    }
    walsh.sort_by(f64::total_cmp);
    let m = walsh.len();
    let centre = if m % 2 == 1 {
        walsh[m / 2]
    } else {
        (walsh[m / 2 - 1] + walsh[m / 2]) / 2.0
    };
    let c = critical(n)?;
    Some((centre, walsh[c], walsh[m - 1 - c]))
}

/// The confidence [`interval`] achieves over `n` rounds: 1 − 2·P(W⁺ ≤ k) at its critical
/// value, which the discreteness of the test keeps above 95 % (96.9 % at 6 rounds, 95.2 %
/// at 20): the level a report prints beside the interval. `None` below [`MIN_ROUNDS`].
pub fn level(n: usize) -> Option<f64> {
    let c = critical(n)?;
    if n > EXACT_UP_TO {
        return Some(0.95);
    }
    let below: f64 = flips(&(1..=n).collect::<Vec<_>>())[..=c].iter().sum();
    Some(1.0 - 2.0 * below)
}

/// The smallest two-sided p-value the test can give over `n` rounds, whatever the
/// differences: every round on one side has a chance of 2⁻ⁿ, doubled (0.031 at 6 rounds).
/// A family of rows that needs a smaller one cannot be decided at `n` rounds.
pub fn least_p(n: usize) -> f64 {
    2f64.powi(1 - n.min(1000) as i32)
}

/// The fewest rounds whose [`least_p`] is at most `p`: what a row needs before a correction
/// at that level could hold it.
pub fn rounds_for(p: f64) -> usize {
    (1..1000).find(|&n| least_p(n) <= p).unwrap_or(1000)
}

/// The largest `k` with P(W⁺ ≤ k) ≤ 2.5 % for `n` untied ranks: the interval runs from the
/// (k+1)-th smallest Walsh average to the (k+1)-th largest, and covers with 1 − 2·P(W⁺ ≤ k)
/// ≥ 95 %. `None` when even P(W⁺ = 0) is above 2.5 %.
fn critical(n: usize) -> Option<usize> {
    let ranks: Vec<usize> = (1..=n).collect();
    let within = if n <= EXACT_UP_TO {
        let mut sum = 0.0;
        flips(&ranks)
            .iter()
            .take_while(|q| {
                sum += **q;
                sum <= 0.025
            })
            .count()
    } else {
        let (mean, sd) = normal_moments(&ranks);
        (mean + 0.5 - 1.959_964 * sd).floor().max(0.0) as usize
    };
    within.checked_sub(1)
}

/// One-sided p-value of "the differences' centre is at most `shift`" against "above it":
/// P(W⁺ ≥ observed) for the signed ranks of `d − shift` (ties take their mid-rank; exact
/// zeros are left out, as Wilcoxon did). 1 when nothing is left.
pub fn p_above(d: &[f64], shift: f64) -> f64 {
    let mut x: Vec<f64> = d.iter().map(|v| v - shift).filter(|v| *v != 0.0).collect();
    if x.is_empty() {
        return 1.0;
    }
    x.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Doubled mid-ranks keep ties integral.
    let mut ranks = vec![0usize; x.len()];
    let mut i = 0;
    while i < x.len() {
        let mut j = i;
        while j + 1 < x.len() && x[j + 1].abs() == x[i].abs() {
            j += 1;
        }
        for r in &mut ranks[i..=j] {
            *r = i + j + 2;
        }
        i = j + 1;
    }
    let observed: usize = x
        .iter()
        .zip(&ranks)
        .filter(|(v, _)| **v > 0.0)
        .map(|(_, r)| r)
        .sum();
    if x.len() <= EXACT_UP_TO {
        flips(&ranks)[observed..].iter().sum::<f64>().min(1.0)
    } else {
        let (mean, sd) = normal_moments(&ranks);
        1.0 - normal_cdf((observed as f64 - 1.0 - mean) / sd)
    }
}

/// The chance of each sum of the weights that carry a plus sign, every sign a fair coin:
/// the null distribution of the signed-rank statistic.
fn flips(weights: &[usize]) -> Vec<f64> {
    let total: usize = weights.iter().sum();
    let mut p = vec![0.0; total + 1];
    p[0] = 1.0;
    let mut reach = 0;
    for &w in weights {
        for s in (0..=reach).rev() {
            let q = p[s] / 2.0;
            p[s] = q;
            p[s + w] += q;
        }
        reach += w;
    }
    p
}

/// Mean and standard deviation of the signed-rank statistic over the weights.
fn normal_moments(weights: &[usize]) -> (f64, f64) {
    let mean = weights.iter().sum::<usize>() as f64 / 2.0;
    let var = weights.iter().map(|w| (w * w) as f64).sum::<f64>() / 4.0;
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Rng;

    #[test]
    fn the_null_distribution_matches_the_textbook() {
        // n = 6: P(W⁺ = 0) = 1/64, and the 95 % interval is the widest (k = 0).
        let p = flips(&[1, 2, 3, 4, 5, 6]);
        assert!((p[0] - 1.0 / 64.0).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(critical(6), Some(0));
        assert_eq!(critical(5), None);
        // The tables' two-sided 5 % critical values: n = 10 → 8, n = 20 → 52.
        assert_eq!(critical(10), Some(8));
        assert_eq!(critical(20), Some(52));
        // The normal approximation agrees with the exact count where both apply.
        let (mean, sd) = normal_moments(&(1..=200).collect::<Vec<_>>());
        let approx = mean - 1.959_964 * sd;
        let exact = critical(200).unwrap() as f64;
        assert!((approx - exact).abs() < 3.0, "{approx} vs {exact}");
    }

    #[test]
    fn one_wild_round_does_not_set_the_width() {
        // n − 1 rounds within ±0.5 % of −12 %, one at −62 %: at every n from the fewest
        // where a wild round cannot reach an end (ROBUST_FROM) through a paired run's
        // default to 20, the interval stays near −12 %, neither end set by the wild round.
        assert!(ROBUST_FROM <= crate::analysis::DEFAULT_PAIR_ROUNDS as usize);
        for n in ROBUST_FROM..=20usize.max(crate::analysis::DEFAULT_PAIR_ROUNDS as usize) {
            let mut d: Vec<f64> = (0..n - 1)
                .map(|i| (0.88f64).ln() + 0.005 * (2.0 * i as f64 / (n - 2) as f64 - 1.0))
                .collect();
            d.push((0.38f64).ln());
            let (c, lo, hi) = interval(&d).unwrap();
            assert!((c.exp() - 0.88).abs() < 0.005, "n = {n}: {}", c.exp());
            assert!(lo.exp() > 0.87 && hi.exp() < 0.89, "n = {n}: [{lo}, {hi}]");
            let half = 50.0 * (hi.exp() - lo.exp()) / c.exp();
            assert!(half < 1.0, "n = {n}: ±{half:.2} %");
            // A Student-t interval of the same rounds is an order wider.
            let k = d.len() as f64;
            let mean = d.iter().sum::<f64>() / k;
            let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt();
            assert!(2.09 * sd / k.sqrt() * 100.0 > 5.0 * half, "n = {n}");
        }
        // One round fewer than ROBUST_FROM and the wild round sets the lower end.
        let n = ROBUST_FROM - 1;
        let mut d: Vec<f64> = (0..n - 1)
            .map(|i| (0.88f64).ln() + 0.001 * i as f64)
            .collect();
        d.push((0.38f64).ln());
        let (_, lo, _) = interval(&d).unwrap();
        assert!(lo.exp() < 0.7, "n = {n}: {}", lo.exp());
    }

    #[test]
    fn the_printed_level_is_the_one_achieved() {
        // n = 6: [min, max], 1 − 2/64; n = 7: P(W⁺ ≤ 2) = 3/128, so 1 − 6/128 = 95.3 %.
        assert!((level(6).unwrap() - (1.0 - 2.0 / 64.0)).abs() < 1e-12);
        assert!((level(7).unwrap() - (1.0 - 6.0 / 128.0)).abs() < 1e-12);
        assert_eq!(level(5), None);
        for n in 6..=200 {
            let l = level(n).unwrap();
            assert!((0.95..0.97).contains(&l), "n = {n}: {l}");
        }
        assert_eq!(least_p(6), 2.0 / 64.0);
        // A family of 20 at 5 % needs p ≤ 0.0025 from its best row: 10 rounds.
        assert_eq!(rounds_for(0.05 / 20.0), 10);
        assert_eq!(rounds_for(0.05 / 40.0), 11);
    }

    #[test]
    fn p_values_agree_with_the_interval() {
        let d: Vec<f64> = (0..12).map(|i| 0.02 + 0.001 * f64::from(i)).collect();
        // Every round above 0: the chance of that under a centre of 0 is 2^-12.
        assert!((p_above(&d, 0.0) - 0.5f64.powi(12)).abs() < 1e-12);
        assert!(p_above(&d, 0.1) > 0.99);
        let (_, lo, hi) = interval(&d).unwrap();
        // A shift just below the interval is rejected one-sided at 2.5 %; inside is not.
        assert!(p_above(&d, lo - 1e-9) <= 0.025);
        assert!(p_above(&d, (lo + hi) / 2.0) > 0.025);
        // Ties take mid-ranks: the distribution still sums to 1 and p stays in [0, 1].
        let tied = [0.01, 0.01, -0.01, 0.02, 0.02, 0.0, 0.03];
        let p = p_above(&tied, 0.0);
        assert!(p > 0.0 && p < 1.0, "{p}");
    }

    /// Coverage by simulation: A/A rounds, symmetric about 0 but heavy-tailed (5 % of
    /// rounds ten times wider, the host's hiccups), 3,000 trials each of 6, 20 and 300
    /// rounds. The interval must hold 0 in 93–97 %: the exact one is conservative by its
    /// discreteness, never below 95 % in expectation.
    #[test]
    fn the_interval_covers_about_95_percent() {
        let mut rng = Rng::new(47);
        for n in [6usize, 20, 300] {
            let trials = if n > 100 { 600 } else { 3000 };
            let mut covered = 0;
            for _ in 0..trials {
                let d: Vec<f64> = (0..n)
                    .map(|_| {
                        let scale = if rng.unit() < 0.05 { 0.1 } else { 0.01 };
                        scale * rng.normal()
                    })
                    .collect();
                let (_, lo, hi) = interval(&d).unwrap();
                covered += usize::from(lo <= 0.0 && 0.0 <= hi);
            }
            let share = covered as f64 / trials as f64;
            assert!((0.93..=0.985).contains(&share), "n = {n}: {share}");
        }
    }
}
