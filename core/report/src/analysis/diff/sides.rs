//! One side of a diff: a run's values of a cell, by measure, with the invocations that
//! count (busy ones withheld) and why a side cannot carry a verdict.

use super::*;

/// One measurement of a cell as a diff compares it.
pub(super) struct Values<'a> {
    pub(super) values: Cow<'a, [f64]>,
    pub(super) starts: Cow<'a, [usize]>,
    pub(super) ids: Cow<'a, [u32]>,
    /// How it was timed: `self` (the guest), `wall` (the harness) or `rps`.
    pub(super) source: &'static str,
    /// Every invocation was busy: the values are kept to be shown, never to decide.
    pub(super) all_busy: bool,
    /// [`Groups::first_stage`].
    pub(super) first_stage: usize,
}

impl<'g> Values<'g> {
    /// The groups of `g` less the invocations in `drop` (busy ones); all of them, marked,
    /// when every one is to be dropped.
    pub(super) fn of(
        g: Groups<'g>,
        source: &'static str,
        drop: Option<&HashSet<u32>>,
    ) -> Values<'g> {
        let dropped = |d: &HashSet<u32>, i: usize| d.contains(&g.id(i));
        let all_busy = drop.is_some_and(|d| (0..g.invocations()).all(|i| dropped(d, i)));
        let Some(drop) = drop.filter(|d| !all_busy && (0..g.invocations()).any(|i| dropped(d, i)))
        else {
            return Values {
                values: Cow::Borrowed(g.values),
                starts: Cow::Borrowed(g.starts),
                ids: Cow::Borrowed(g.ids),
                source,
                all_busy,
                first_stage: g.first_stage,
            };
        };
        let (mut values, mut starts, mut ids) = (Vec::new(), Vec::new(), Vec::new());
        for i in (0..g.invocations()).filter(|i| !drop.contains(&g.id(*i))) {
            starts.push(values.len());
            ids.push(g.id(i));
            values.extend_from_slice(g.group(i));
        }
        Values {
            values: Cow::Owned(values),
            starts: Cow::Owned(starts),
            ids: Cow::Owned(ids),
            source,
            all_busy: false,
            first_stage: g.first_stage,
        }
    }

    pub(super) fn groups(&self) -> Groups<'_> {
        Groups {
            values: &self.values,
            starts: &self.starts,
            ids: &self.ids,
            first_stage: self.first_stage,
        }
    }

    /// The geometric mean over invocations: what the ratio is of.
    pub(super) fn typical(&self) -> Option<f64> {
        LogMean::of(&self.groups()).map(|m| m.mean.exp())
    }
}

/// One run as a diff reads it: its measurements indexed, its failed cells, how many
/// invocations each cell finished, and which were measured on a busy machine, so each cell
/// is a lookup rather than a scan of the run.
pub(super) struct Side<'a> {
    pub(super) index: Index<'a>,
    pub(super) failed: HashSet<(&'a str, &'a str)>,
    pub(super) ended: HashMap<(&'a str, &'a str), u32>,
    pub(super) planned: u32,
    /// Invocations left out of verdicts, per cell (none with `--allow-busy`).
    pub(super) busy: HashMap<(&'a str, &'a str), HashSet<u32>>,
}

impl<'a> Side<'a> {
    pub(super) fn new(run: &'a SavedRun, allow_busy: bool) -> Side<'a> {
        let mut busy: HashMap<(&str, &str), HashSet<u32>> = HashMap::new();
        if !allow_busy {
            for c in run
                .cells
                .iter()
                .filter(|c| crate::analysis::quiet::busy_invocation(run, c))
            {
                busy.entry((c.runtime.as_str(), c.test.as_str()))
                    .or_default()
                    .insert(c.invocation);
            }
        }
        Side {
            index: Index::of_run(run),
            failed: run
                .cells
                .iter()
                .filter(|c| c.failure.is_some())
                .map(|c| (c.runtime.as_str(), c.test.as_str()))
                .collect(),
            ended: ended_invocations(run),
            planned: run.meta.settings.invocations,
            busy,
        }
    }

    /// Invocations of a cell that ended, when fewer than planned.
    pub(super) fn partial(&self, rt: &str, test: &str) -> Option<u32> {
        let ended = self.ended.get(&(rt, test)).copied().unwrap_or(0);
        (ended < self.planned).then_some(ended)
    }

    /// The values of every comparable phase of a cell: the primary under its phase
    /// (`execute` for commands), then wall time of the other phases, then (HTTP suites) the
    /// time per request at each concurrency level, 1/throughput, so that lower is better
    /// throughout. A process-timed cell's whole-process time is its primary and is not
    /// listed again as `total`: one measurement, one row of the family. Failed cells have
    /// none; busy invocations are left out.
    pub(super) fn series(&self, rt: &str, test: &str) -> Vec<(String, Values<'_>)> {
        if self.failed.contains(&(rt, test)) {
            return Vec::new();
        }
        let index = &self.index;
        let drop = self.busy.get(&(rt, test));
        let of = |g, source| Values::of(g, source, drop);
        let mut out = Vec::new();
        let mut shown = Phase::Execute;
        let mut process = false;
        if let Some((g, source, phase)) = index.primary(rt, test) {
            out.push((phase.as_str().to_string(), of(g, source)));
            shown = phase;
            process = source == "process";
        }
        for ph in Phase::ALL {
            if ph == shown || ph == Phase::Execute || (process && ph == Phase::Total) {
                continue;
            }
            if let Some(g) = index.groups(rt, test, ph, Metric::WallNs) {
                out.push((ph.as_str().to_string(), of(g, "wall")));
            }
        }
        for ph in index.phases(rt, test) {
            // A level that saturated in any iteration has no rate there, only a bound:
            // the rates of the other iterations alone would compare as a faster server.
            if let Some(g) = index.groups(rt, test, ph, Metric::Rps)
                && ph.concurrency().is_some()
                && index
                    .groups(rt, test, ph, Metric::SaturatedBelowRps)
                    .is_none()
            {
                let mut v = of(g, "rps");
                v.values = Cow::Owned(v.values.iter().map(|r| 1e9 / r.max(1e-9)).collect());
                out.push((ph.as_str().to_string(), v));
            }
            // Latency at an offered rate: its corrected p99, the figure its SLO is about.
            // A rate beyond the load generator measured the generator, and is left out.
            if let Some(g) = index.groups(rt, test, ph, Metric::P99Ns)
                && ph.rate().is_some()
                && index
                    .groups(rt, test, ph, Metric::GeneratorBoundRps)
                    .is_none()
            {
                out.push((format!("{} p99", ph.as_str()), of(g, "p99")));
            }
        }
        out
    }

    /// Invocations left out as busy.
    pub(super) fn busy_count(&self) -> usize {
        self.busy.values().map(HashSet::len).sum()
    }
}

/// Why a side of a row cannot carry a verdict, if it cannot.
pub(super) fn too_little(
    side: &str,
    g: &Groups,
    partial: Option<u32>,
    planned: u32,
) -> Option<String> {
    if let Some(ended) = partial {
        return Some(format!(
            "partial cell in {side}: {ended} of {planned} invocations"
        ));
    }
    if g.values.len() < MIN_VALUES {
        return Some(format!(
            "{} value(s) in {side}, {MIN_VALUES} needed",
            g.values.len()
        ));
    }
    if g.invocations() < MIN_INVOCATIONS {
        return Some(format!(
            "{} invocation(s) in {side}, {MIN_INVOCATIONS} needed (--invocations)",
            g.invocations()
        ));
    }
    None
}
