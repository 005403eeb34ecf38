//! The range of every number a run's settings hold, in the CLI's words. The plan checks a
//! request against these; the TUI calls them as a field is edited; the desktop page sends
//! what was typed and shows the plan's refusal. So the three say the same line for the
//! same bad value, as they do for `--pair` and `--precision`, and keep no ranges of their
//! own: a front end only turns text into a number.

/// A whole number of a run's settings: the flag that sets it, its least and greatest
/// value, and how a message says its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The CLI's flag, which every front end's message names.
    pub flag: &'static str,
    /// The least value.
    pub min: u64,
    /// The greatest value.
    pub max: u64,
    /// How the value reads.
    pub unit: Unit,
}

/// How a limited number reads in a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A count ("from 1 to 100000").
    Count,
    /// After the number ("from 1 to 86400 s").
    Suffix(&'static str),
    /// Held in milliseconds, given and said in seconds with decimals (the load's
    /// durations): "over 0 and at most 3600 seconds".
    MsAsSeconds,
}

impl Limit {
    /// `v` when in range, else the one line every front end says.
    pub fn check(&self, v: u64) -> Result<u64, String> {
        if (self.min..=self.max).contains(&v) {
            return Ok(v);
        }
        Err(match self.unit {
            Unit::MsAsSeconds => self.refuse(v as f64 / 1000.0),
            _ => self.refuse(v),
        })
    }

    /// Seconds as given, with decimals, to the whole milliseconds a [`Unit::MsAsSeconds`]
    /// value is held in, in range. Any time over 0 is at least 1 ms: nothing is rounded
    /// to 0, or up from it.
    pub fn check_seconds(&self, secs: f64) -> Result<u64, String> {
        let ms = match secs {
            s if s.is_nan() || s < 0.0 => None,
            0.0 => Some(0),
            // `as` saturates: infinity reads as the greatest value, which is out of range.
            s => Some(((s * 1000.0).round() as u64).max(1)),
        };
        ms.and_then(|ms| self.check(ms).ok())
            .ok_or_else(|| self.refuse(secs))
    }

    /// A value as a front end's field holds it (whole, or seconds with decimals for
    /// [`Unit::MsAsSeconds`]), in range. A text that is no number is refused naming the
    /// flag too.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        let not = |what: &str| format!("{} takes {what}, not '{t}'", self.flag);
        match self.unit {
            Unit::MsAsSeconds => {
                self.check_seconds(t.parse().map_err(|_| not("a number of seconds"))?)
            }
            _ => self.check(t.parse().map_err(|_| not("a whole number"))?),
        }
    }

    /// `v` one step up or down, kept in range: what a front end's ± keys do.
    pub fn step(&self, v: u64, up: bool) -> u64 {
        let v = if up {
            v.saturating_add(1)
        } else {
            v.saturating_sub(1)
        };
        v.clamp(self.min, self.max)
    }

    /// Each of a list (`--concurrency 1,10,100`, `--rates`): at least one when the list
    /// must have one (`at_least_one`), each in range.
    pub fn check_all(&self, vs: &[u32], at_least_one: bool) -> Result<(), String> {
        if at_least_one && vs.is_empty() {
            return Err(format!("{} takes at least one value", self.flag));
        }
        vs.iter()
            .try_for_each(|v| self.check(u64::from(*v)).map(drop))
    }

    /// The line for a value out of range, `got` as the user gave it.
    fn refuse(&self, got: impl std::fmt::Display) -> String {
        let flag = self.flag;
        let (min, max) = (self.min, self.max);
        match self.unit {
            Unit::Count => format!("{flag} must be from {min} to {max}, got {got}"),
            Unit::Suffix(u) => format!("{flag} must be from {min} to {max} {u}, got {got}"),
            Unit::MsAsSeconds if min == 0 => {
                format!("{flag} must be from 0 to {} seconds, got {got}", max / 1000)
            }
            Unit::MsAsSeconds => format!(
                "{flag} must be over 0 and at most {} seconds, got {got}",
                max / 1000
            ),
        }
    }
}

const fn count(flag: &'static str, min: u64, max: u64) -> Limit {
    Limit {
        flag,
        min,
        max,
        unit: Unit::Count,
    }
}

const fn suffix(flag: &'static str, min: u64, max: u64, unit: &'static str) -> Limit {
    Limit {
        flag,
        min,
        max,
        unit: Unit::Suffix(unit),
    }
}

const fn seconds(flag: &'static str, min_ms: u64, max_secs: u64) -> Limit {
    Limit {
        flag,
        min: min_ms,
        max: max_secs * 1000,
        unit: Unit::MsAsSeconds,
    }
}

/// Warm-up iterations per invocation.
pub const WARMUP: Limit = count("--warmup", 0, 100_000);
/// Measured iterations per invocation.
pub const RUNS: Limit = count("--runs", 1, 100_000);
/// Fresh worker processes per cell.
pub const INVOCATIONS: Limit = count("--invocations", 1, 10_000);
/// Per-iteration timeout: a day at most, so that a hung guest is found the same day.
pub const TIMEOUT_SECS: Limit = suffix("--timeout", 1, 86_400, "s");
/// Memory cap per cell: 16 MiB holds the smallest runtime; 1 TiB is past any machine here.
pub const MEMORY_MIB: Limit = suffix("--memory-mib", 16, 1 << 20, "MiB");
/// Live sampling interval: sampling more often than every 10 ms would mostly measure the
/// sampler.
pub const SAMPLE_MS: Limit = suffix("--sample-ms", 10, 60_000, "ms");
/// Time a run may spend adding rounds for its precision: a week at most.
pub const BUDGET_SECS: Limit = suffix("--budget", 1, 7 * 86_400, "s");
/// Connections of each throughput level of an HTTP suite.
pub const CONCURRENCY: Limit = count("--concurrency", 1, 100_000);
/// Offered rates of an HTTP suite's open-model levels.
pub const RATES: Limit = suffix("--rates", 1, 10_000_000, "requests/s");
/// Connections that carry the open-model load.
pub const RATE_CONNECTIONS: Limit = count("--rate-connections", 1, 100_000);
/// Load per level.
pub const DURATION: Limit = seconds("--duration", 1, 3600);
/// Warm latency over one connection.
pub const LATENCY: Limit = seconds("--latency", 1, 3600);
/// Longest a server may take to answer its first request.
pub const READY_TIMEOUT: Limit = seconds("--ready-timeout", 1, 3600);
/// Time per iteration for stepping the rate past the highest listed one; 0 for none.
pub const KNEE_BUDGET: Limit = seconds("--knee-budget", 0, 3600);
/// Server or load-generator threads (`--threads SERVER,CLIENT`).
pub const THREADS: Limit = count("--threads", 1, 1024);
/// Most guest processes a CLI gateway runs at once.
pub const CLI_INFLIGHT: Limit = count("--cli-inflight", 1, 1024);

/// The knee's latency objective, ms (given with decimals and units, so not a [`Limit`]):
/// over 0 and at most an hour.
pub fn check_slo_p99_ms(ms: f64) -> Result<f64, String> {
    if ms.is_finite() && ms > 0.0 && ms <= 3_600_000.0 {
        Ok(ms)
    } else {
        Err(format!(
            "--slo-p99 must be over 0 and at most 3600000 ms, got {ms} ms"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_says_its_flag_range_and_the_value() {
        assert_eq!(RUNS.check(1), Ok(1));
        assert_eq!(RUNS.check(100_000), Ok(100_000));
        assert_eq!(
            RUNS.check(0),
            Err("--runs must be from 1 to 100000, got 0".into())
        );
        assert_eq!(
            TIMEOUT_SECS.check(90_000),
            Err("--timeout must be from 1 to 86400 s, got 90000".into())
        );
        assert_eq!(
            RUNS.parse(" x "),
            Err("--runs takes a whole number, not 'x'".into())
        );
        assert_eq!(WARMUP.parse("0"), Ok(0));
        assert_eq!((RUNS.step(1, false), RUNS.step(1, true)), (1, 2));
        assert_eq!(INVOCATIONS.step(10_000, true), 10_000);
        assert_eq!(WARMUP.step(0, false), 0);
    }

    #[test]
    fn seconds_are_held_in_ms_and_nothing_under_0_rounds_up() {
        assert_eq!(DURATION.parse("0.0001"), Ok(1));
        assert_eq!(DURATION.parse("2.5"), Ok(2500));
        for bad in ["0", "-1", "NaN", "inf", "3600.1"] {
            let e = DURATION.parse(bad).unwrap_err();
            assert!(
                e.starts_with("--duration must be over 0 and at most 3600 seconds, got "),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            DURATION.parse("soon"),
            Err("--duration takes a number of seconds, not 'soon'".into())
        );
        assert_eq!(KNEE_BUDGET.parse("0"), Ok(0));
        assert_eq!(
            KNEE_BUDGET.check_seconds(-1.0),
            Err("--knee-budget must be from 0 to 3600 seconds, got -1".into())
        );
        assert_eq!(
            KNEE_BUDGET.check(3_600_001),
            Err("--knee-budget must be from 0 to 3600 seconds, got 3600.001".into())
        );
    }

    #[test]
    fn a_list_is_checked_value_by_value() {
        assert_eq!(CONCURRENCY.check_all(&[1, 10], true), Ok(()));
        assert_eq!(
            CONCURRENCY.check_all(&[], true),
            Err("--concurrency takes at least one value".into())
        );
        assert_eq!(RATES.check_all(&[], false), Ok(()));
        assert_eq!(
            RATES.check_all(&[5, 0], false),
            Err("--rates must be from 1 to 10000000 requests/s, got 0".into())
        );
        assert!(check_slo_p99_ms(0.0).is_err());
        assert!(check_slo_p99_ms(f64::NAN).is_err());
        assert_eq!(check_slo_p99_ms(0.5), Ok(0.5));
    }
}
