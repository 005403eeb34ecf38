//! A diff of two runs: what makes them incomparable, busy invocations, and every cell of
//! both.

use super::*;

/// What makes two runs incomparable, as warnings shown with every output format.
pub(super) fn comparability(a: &SavedRun, b: &SavedRun) -> Vec<String> {
    let (ma, mb) = (&a.meta, &b.meta);
    let mut w = Vec::new();
    if ma.machine.fingerprint != mb.machine.fingerprint {
        w.push(format!(
            "machine differs: {} ({}, {} cores, {}) vs {} ({}, {} cores, {})",
            ma.machine.fingerprint,
            ma.machine.cpu_model,
            ma.machine.cores,
            ma.machine.kernel,
            mb.machine.fingerprint,
            mb.machine.cpu_model,
            mb.machine.cores,
            mb.machine.kernel
        ));
    }
    for ra in &ma.runtimes {
        if let Some(rb) = mb.runtimes.iter().find(|r| r.id == ra.id) {
            if ra.version != rb.version {
                w.push(format!(
                    "runtime {} version differs: {} vs {}",
                    ra.id, ra.version, rb.version
                ));
            } else if ra.config != rb.config || ra.command != rb.command {
                w.push(format!("runtime {} configuration differs", ra.id));
            }
        }
    }
    for ta in &ma.tests {
        if let Some(tb) = mb.tests.iter().find(|t| t.name == ta.name)
            && ta.source_hash != tb.source_hash
        {
            w.push(match (ta.module_bytes, tb.module_bytes) {
                (Some(x), Some(y)) => format!(
                    "module {} differs: another build ({x} vs {y} bytes)",
                    ta.name
                ),
                _ => format!("test {} sources differ", ta.name),
            });
        }
    }
    for m in [ma, mb] {
        if m.status != crate::store::RunStatus::Complete {
            w.push(format!("run {} is {}", m.id, m.status));
        }
    }
    w
}

/// Says, in the warnings, which invocations were left out as busy (or kept, with
/// `--allow-busy`), and for which runs.
pub(super) fn busy_warnings(d: &mut Diff, runs: &[&SavedRun], sides: &[&Side], allow_busy: bool) {
    let left_out: usize = sides.iter().map(|s| s.busy_count()).sum();
    d.busy_left_out = left_out;
    for r in runs {
        if let Some(why) = &r.meta.machine.load_unreadable {
            d.warnings.push(if allow_busy {
                format!(
                    "--allow-busy: verdicts include run {}, whose load of other processes could not be measured ({why})",
                    r.meta.id
                )
            } else {
                format!(
                    "verdicts withheld from run {}: the load of other processes could not be measured ({why}), so no invocation can be shown quiet (--allow-busy gives them)",
                    r.meta.id
                )
            });
        }
    }
    let described = busy_described(runs);
    if described.is_empty() {
        return;
    }
    let share = crate::analysis::quiet::BUSY_SHARE * 100.0;
    d.warnings.push(if allow_busy {
        format!(
            "--allow-busy: verdicts include invocations measured while other processes took more than {share:.0} % of the CPUs ({}); such load moves results by more than their intervals hold",
            described.join(", ")
        )
    } else {
        format!(
            "left out of the verdicts: invocations measured while other processes took more than {share:.0} % of the CPUs ({}); rows left with too few say insufficient data (--allow-busy keeps them)",
            described.join(", ")
        )
    });
}

/// How many invocations of each run were busy, as `N of M in run ID`, for runs with any.
pub(super) fn busy_described(runs: &[&SavedRun]) -> Vec<String> {
    runs.iter()
        .filter(|r| r.meta.machine.load_unreadable.is_none())
        .filter_map(|r| {
            let n = r
                .cells
                .iter()
                .filter(|c| crate::analysis::quiet::busy_invocation(r, c))
                .count();
            (n > 0).then(|| format!("{n} of {} in run {}", r.cells.len(), r.meta.id))
        })
        .collect()
}

/// Diffs run B against run A: for each runtime, test and phase both have, the ratio B/A
/// of the typical values with its 95 % interval over invocations and a verdict.
pub fn diff_runs(a: &SavedRun, b: &SavedRun, opts: &DiffOptions) -> Result<Diff, DiffError> {
    check_threshold(opts.threshold_pct)?;
    if a.meta.id == b.meta.id {
        return Err(DiffError::SameRun(a.meta.id.clone()));
    }
    if a.meta.suite != b.meta.suite {
        return Err(DiffError::DifferentSuites {
            a: a.meta.id.clone(),
            a_suite: a.meta.suite.clone(),
            b: b.meta.id.clone(),
            b_suite: b.meta.suite.clone(),
        });
    }
    if let Some(n) = &opts.normalize {
        for run in [a, b] {
            if !run.meta.runtimes.iter().any(|r| &r.id == n) {
                return Err(DiffError::NoRuntime(n.clone(), run.meta.id.clone()));
            }
        }
    }
    let (side_a, side_b) = (Side::new(a, opts.allow_busy), Side::new(b, opts.allow_busy));
    let cells = |run: &SavedRun| -> BTreeSet<(String, String)> {
        run.meta
            .tests
            .iter()
            .flat_map(|t| {
                run.meta
                    .runtimes
                    .iter()
                    .map(move |r| (r.id.clone(), t.name.clone()))
            })
            .collect()
    };
    let all: BTreeSet<(String, String)> = cells(a).union(&cells(b)).cloned().collect();
    let mut d = Diff::new(a.meta.id.clone(), b.meta.id.clone(), opts);
    d.warnings = comparability(a, b);
    let mut estimates = Vec::new();
    for (rt, test) in &all {
        pair_cells(
            &mut d,
            &mut estimates,
            Arm {
                side: &side_a,
                runtime: rt,
                test,
            },
            Arm {
                side: &side_b,
                runtime: rt,
                test,
            },
            (rt.as_str(), test.as_str()),
            opts.normalize.as_deref(),
            Design::Independent,
        );
    }
    d.decide(estimates);
    busy_warnings(&mut d, &[a, b], &[&side_a, &side_b], opts.allow_busy);
    let (sa, sb) = (&a.meta.settings.size, &b.meta.settings.size);
    if sa != sb {
        d.withhold(
            format!(
                "problem size differs: {sa} vs {sb}: no verdicts, the runs measured different work"
            ),
            "not comparable: problem sizes differ",
        );
    }
    Ok(d)
}
