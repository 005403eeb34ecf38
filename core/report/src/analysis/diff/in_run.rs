//! A diff inside one run: two of its runtimes, or two of its tests, paired by round.

use super::*;

/// Compares two runtimes inside one run, test by test: B's time over A's, paired by
/// round. Normalising does not apply (both sides ran in the same run).
pub fn compare_runtimes(
    run: &SavedRun,
    rt_a: &str,
    rt_b: &str,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    compare_in_run(run, [rt_a, rt_b], ArmKind::Runtime, opts)
}

/// Compares two tests inside one run, runtime by runtime: test B's time over test A's
/// (two builds of a module, say), paired by round.
pub fn compare_tests(
    run: &SavedRun,
    test_a: &str,
    test_b: &str,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    compare_in_run(run, [test_a, test_b], ArmKind::Test, opts)
}

/// What the two arms of a comparison inside one run are.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum ArmKind {
    Runtime,
    Test,
}

/// Two arms of one run, paired by round, over every value of the other dimension (tests
/// for two runtimes, runtimes for two tests).
pub(super) fn compare_in_run(
    run: &SavedRun,
    [x, y]: [&str; 2],
    kind: ArmKind,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    check_threshold(opts.threshold_pct)?;
    if x == y {
        return Err(DiffError::SameArms(x.to_string()));
    }
    let runtimes: Vec<&str> = run.meta.runtimes.iter().map(|r| r.id.as_str()).collect();
    let tests: Vec<&str> = run.meta.tests.iter().map(|t| t.name.as_str()).collect();
    let (arms, others) = match kind {
        ArmKind::Runtime => (&runtimes, &tests),
        ArmKind::Test => (&tests, &runtimes),
    };
    if let Some(missing) = [x, y].into_iter().find(|a| !arms.contains(a)) {
        let id = run.meta.id.clone();
        return Err(match kind {
            ArmKind::Runtime => DiffError::NoRuntime(missing.to_string(), id),
            ArmKind::Test => DiffError::NoTest(missing.to_string(), id, tests.join(", ")),
        });
    }
    // Arms that alternated in one worker shared every moment, busy ones too: the load fell
    // on both alike and cancels in their paired difference (calibrated: statistics §6c).
    let exempt = alternated(run, x, y);
    let side = Side::new(run, opts.allow_busy || exempt);
    let mut d = Diff::new(
        format!("{}:{x}", run.meta.id),
        format!("{}:{y}", run.meta.id),
        &DiffOptions {
            normalize: None,
            ..opts.clone()
        },
    );
    d.paired = true;
    d.alternated = exempt;
    // Arms of a `--pair` run with `--precision` had their rounds sized from their paired
    // differences' first stage: Stein's interval is the one that holds 95 % for them.
    let stein = (run.meta.settings.precision.is_some() && both_arms(run, x, y))
        .then_some(run.meta.settings.invocations as usize);
    d.stein = stein.is_some();
    let label = format!("{x} → {y}");
    let mut estimates = Vec::new();
    for other in others {
        let arm = |a| match kind {
            ArmKind::Runtime => Arm {
                side: &side,
                runtime: a,
                test: other,
            },
            ArmKind::Test => Arm {
                side: &side,
                runtime: other,
                test: a,
            },
        };
        let labels = match kind {
            ArmKind::Runtime => (label.as_str(), *other),
            ArmKind::Test => (*other, label.as_str()),
        };
        pair_cells(
            &mut d,
            &mut estimates,
            arm(x),
            arm(y),
            labels,
            None,
            Design::Paired(stein),
        );
    }
    d.decide(estimates);
    if exempt && !opts.allow_busy {
        let described = busy_described(&[run]);
        if !described.is_empty() {
            d.warnings.push(format!(
                "the machine was busy during some invocations ({}); {x} and {y} alternated in one worker, so the load fell on both alike and the paired verdicts keep them",
                described.join(", ")
            ));
        }
    } else {
        busy_warnings(&mut d, &[run], &[&side], opts.allow_busy);
    }
    Ok(d)
}

/// Whether `x` and `y` are both arms of the run's `--pair`, alternated in one worker.
pub(super) fn alternated(run: &SavedRun, x: &str, y: &str) -> bool {
    run.meta
        .pair()
        .is_some_and(|p| p.mode == Some(crate::store::PairMode::Alternate) && p.both(x, y))
}

/// Whether `x` and `y` are two arms of the run's `--pair`.
pub(super) fn both_arms(run: &SavedRun, x: &str, y: &str) -> bool {
    run.meta.pair().is_some_and(|p| p.both(x, y))
}
