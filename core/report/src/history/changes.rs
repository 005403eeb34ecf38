//! Change points in a series of runs: E-Divisive means (Matteson & James, 2014), the method
//! MongoDB runs over its nightly performance tests (Daly et al., ICPE 2020), with its
//! simplification of the end of the second sample fixed at the end of the segment.
//!
//! The series is cut where the energy statistic q̂ (α = 1) of "before" against "after" is
//! largest; the cut is kept when a permutation test finds it significant, and the search
//! goes on in the pieces. Each evaluation of q̂ over every cut of a segment is
//! O(n log n): the sums of |x − y| within the growing prefix and suffix come from Fenwick
//! trees over the values' ranks. A permutation's maxima depend only on its segment, so a
//! segment's are computed once and kept while other segments are cut.
//!
//! docs/statistics.md §7 says why this method, and why a cut must also move the median by
//! more than the diff's noise threshold before it is shown.

use crate::analysis::{Rng, median};

/// How change points are searched for.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChangeOptions {
    /// Fewest points on each side of a cut.
    pub min_segment: usize,
    /// Permutations of the significance test.
    pub permutations: usize,
    /// Significance level of a cut.
    pub alpha: f64,
    /// A cut must move the segments' medians by more than this, percent.
    pub threshold_pct: f64,
    /// Seed of the permutations: the same series gives the same cuts.
    pub seed: u64,
}

impl Default for ChangeOptions {
    fn default() -> ChangeOptions {
        ChangeOptions {
            min_segment: 5,
            permutations: 199,
            alpha: 0.01,
            threshold_pct: crate::analysis::DEFAULT_THRESHOLD_PCT,
            seed: 0x5eed_c4a9,
        }
    }
}

/// A change point: the series changes level from point `index` on.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChangePoint {
    /// First point of the new level.
    pub index: usize,
    /// Median of the segment before it.
    pub before: f64,
    /// Median of the segment from it.
    pub after: f64,
    /// after / before − 1, percent.
    pub change_pct: f64,
    /// The permutation test's p-value when the cut was made.
    pub p_value: f64,
}

/// Fenwick tree of counts and sums over ranks.
struct Fenwick {
    count: Vec<u32>,
    sum: Vec<f64>,
}

impl Fenwick {
    fn new(n: usize) -> Fenwick {
        Fenwick {
            count: vec![0; n + 1],
            sum: vec![0.0; n + 1],
        }
    }

    fn add(&mut self, rank: usize, v: f64) {
        let mut i = rank + 1;
        while i < self.count.len() {
            self.count[i] += 1;
            self.sum[i] += v;
            i += i & i.wrapping_neg();
        }
    }

    /// Count and sum of the values of rank ≤ `rank`.
    fn upto(&self, rank: usize) -> (u32, f64) {
        let (mut c, mut s, mut i) = (0, 0.0, rank + 1);
        while i > 0 {
            c += self.count[i];
            s += self.sum[i];
            i -= i & i.wrapping_neg();
        }
        (c, s)
    }
}

/// For each k, Σ |x_i − x_j| over pairs i < j < k of `order`'s values (k = 0..=n).
fn within(order: &[usize], values: &[f64], rank: &[usize]) -> Vec<f64> {
    let mut tree = Fenwick::new(values.len());
    let mut out = Vec::with_capacity(order.len() + 1);
    let (mut total, mut acc) = (0.0, 0.0);
    out.push(0.0);
    for (k, &i) in order.iter().enumerate() {
        let x = values[i];
        let (c_le, s_le) = tree.upto(rank[i]);
        let c_gt = k as f64 - c_le as f64;
        acc += x * c_le as f64 - s_le + (total - s_le) - x * c_gt;
        tree.add(rank[i], x);
        total += x;
        out.push(acc);
    }
    out
}

/// The largest q̂ over the cuts of a segment given in `order`, and where.
fn best_cut(order: &[usize], values: &[f64], rank: &[usize], min: usize) -> Option<(usize, f64)> {
    let n = order.len();
    if n < 2 * min.max(2) {
        return None;
    }
    let left = within(order, values, rank);
    let rev: Vec<usize> = order.iter().rev().copied().collect();
    let right = within(&rev, values, rank);
    let all = left[n];
    let mut best: Option<(usize, f64)> = None;
    for tau in min.max(2)..=n - min.max(2) {
        let (m, k) = (tau as f64, (n - tau) as f64);
        let a = left[tau];
        let b = right[n - tau];
        let cross = all - a - b;
        let q = (m * k / n as f64)
            * (2.0 * cross / (m * k) - 2.0 * a / (m * (m - 1.0)) - 2.0 * b / (k * (k - 1.0)));
        if best.is_none_or(|(_, bq)| q > bq) {
            best = Some((tau, q));
        }
    }
    best
}

/// One segment of the series with its best cut and its permutations' best q̂.
struct Segment {
    start: usize,
    end: usize,
    cut: Option<(usize, f64)>,
    permuted: Vec<f64>,
}

impl Segment {
    fn new(start: usize, end: usize, values: &[f64], rank: &[usize], o: &ChangeOptions) -> Segment {
        let order: Vec<usize> = (start..end).collect();
        let cut = best_cut(&order, values, rank, o.min_segment).map(|(t, q)| (start + t, q));
        let mut permuted = Vec::new();
        if cut.is_some() {
            let mut rng = Rng::new(o.seed ^ ((start as u64) << 32) ^ end as u64);
            let mut p = order;
            for _ in 0..o.permutations {
                rng.shuffle(&mut p);
                permuted.push(best_cut(&p, values, rank, o.min_segment).map_or(0.0, |(_, q)| q));
            }
        }
        Segment {
            start,
            end,
            cut,
            permuted,
        }
    }
}

/// The change points of `values` (in time order), earliest first.
pub fn change_points(values: &[f64], o: &ChangeOptions) -> Vec<ChangePoint> {
    // Ranks for the Fenwick trees: the order of the values (ties in any order: |x − y| is
    // 0 for them either way).
    let mut by_value: Vec<usize> = (0..values.len()).collect();
    by_value.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut rank = vec![0; values.len()];
    for (r, &i) in by_value.iter().enumerate() {
        rank[i] = r;
    }
    let mut segments = vec![Segment::new(0, values.len(), values, &rank, o)];
    let mut cuts: Vec<(usize, f64)> = Vec::new();
    // The segment with the largest q̂, tested against the largest q̂ of each permutation
    // (within every segment at once).
    let strongest = |segments: &[Segment]| {
        (0..segments.len())
            .filter(|&i| segments[i].cut.is_some())
            .max_by(|&a, &b| {
                let q = |i: usize| segments[i].cut.map_or(f64::MIN, |c| c.1);
                q(a).total_cmp(&q(b))
            })
    };
    while let Some(at) = strongest(&segments) {
        let (tau, q) = segments[at].cut.expect("filtered on a cut");
        let beaten = (0..o.permutations)
            .filter(|&r| {
                segments
                    .iter()
                    .filter_map(|s| s.permuted.get(r))
                    .any(|&pq| pq >= q)
            })
            .count();
        let p = (beaten + 1) as f64 / (o.permutations + 1) as f64;
        if p > o.alpha {
            break;
        }
        cuts.push((tau, p));
        let s = segments.remove(at);
        segments.push(Segment::new(s.start, tau, values, &rank, o));
        segments.push(Segment::new(tau, s.end, values, &rank, o));
    }
    cuts.sort_by_key(|c| c.0);
    // Each cut against its neighbours: kept when it moves the median beyond the threshold.
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cuts.iter().map(|c| c.0))
        .chain(std::iter::once(values.len()))
        .collect();
    cuts.iter()
        .enumerate()
        .filter_map(|(i, &(index, p_value))| {
            let before = median(&values[bounds[i]..bounds[i + 1]])?;
            let after = median(&values[bounds[i + 1]..bounds[i + 2]])?;
            let change_pct = (after / before - 1.0) * 100.0;
            (change_pct.abs() > o.threshold_pct).then_some(ChangePoint {
                index,
                before,
                after,
                change_pct,
                p_value,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` values around `level` with a relative noise of `sd`.
    fn noisy(rng: &mut Rng, n: usize, level: f64, sd: f64) -> Vec<f64> {
        (0..n).map(|_| level * (1.0 + sd * rng.normal())).collect()
    }

    /// q̂ straight from its definition, every pair summed.
    fn q_naive(x: &[f64], y: &[f64]) -> f64 {
        let pairs = |a: &[f64], b: &[f64]| -> f64 {
            a.iter()
                .map(|p| b.iter().map(|q| (p - q).abs()).sum::<f64>())
                .sum()
        };
        let (m, k) = (x.len() as f64, y.len() as f64);
        (m * k / (m + k))
            * (2.0 * pairs(x, y) / (m * k)
                - pairs(x, x) / (m * (m - 1.0))
                - pairs(y, y) / (k * (k - 1.0)))
    }

    #[test]
    fn the_fenwick_sums_give_the_statistic_of_its_definition() {
        let mut rng = Rng::new(7);
        let values: Vec<f64> = noisy(&mut rng, 40, 10.0, 0.3);
        let mut by: Vec<usize> = (0..40).collect();
        by.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
        let mut rank = vec![0; 40];
        for (r, &i) in by.iter().enumerate() {
            rank[i] = r;
        }
        let order: Vec<usize> = (0..40).collect();
        let (tau, q) = best_cut(&order, &values, &rank, 3).unwrap();
        let naive = (3..=37)
            .map(|t| (t, q_naive(&values[..t], &values[t..])))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        assert_eq!(tau, naive.0);
        assert!(
            (q - naive.1).abs() < 1e-9 * naive.1.abs().max(1.0),
            "{q} {naive:?}"
        );
    }

    #[test]
    fn a_step_is_found_where_it_is_and_nothing_in_noise() {
        let mut rng = Rng::new(1);
        let mut v = noisy(&mut rng, 60, 100.0, 0.02);
        v.extend(noisy(&mut rng, 40, 110.0, 0.02));
        v.extend(noisy(&mut rng, 50, 95.0, 0.02));
        let c = change_points(&v, &ChangeOptions::default());
        assert_eq!(
            c.iter().map(|c| c.index).collect::<Vec<_>>(),
            [60, 100],
            "{c:?}"
        );
        assert!((c[0].change_pct - 10.0).abs() < 2.0, "{c:?}");
        assert!(c.iter().all(|c| c.p_value <= 0.01));

        // Pure noise, however long: no change points, in 20 series of 200.
        let mut found = 0;
        for seed in 0..20 {
            let mut rng = Rng::new(100 + seed);
            found += change_points(
                &noisy(&mut rng, 200, 100.0, 0.05),
                &ChangeOptions::default(),
            )
            .len();
        }
        assert_eq!(found, 0);
    }

    #[test]
    fn a_significant_step_below_the_threshold_is_not_shown() {
        let mut rng = Rng::new(3);
        let mut v = noisy(&mut rng, 50, 100.0, 0.001);
        v.extend(noisy(&mut rng, 50, 101.0, 0.001));
        assert!(change_points(&v, &ChangeOptions::default()).is_empty());
        let o = ChangeOptions {
            threshold_pct: 0.5,
            ..ChangeOptions::default()
        };
        assert_eq!(change_points(&v, &o).len(), 1);
    }

    #[test]
    fn short_series_have_none() {
        assert!(
            change_points(
                &[1.0, 2.0, 3.0, 100.0, 100.0, 100.0],
                &ChangeOptions::default()
            )
            .is_empty()
        );
        assert!(change_points(&[], &ChangeOptions::default()).is_empty());
    }
}
