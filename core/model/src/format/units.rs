//! Quantities with their unit, short enough for a table cell: a time in ns as `1.23 ms`,
//! bytes as `1.5 KiB`, a rate as `12.3k/s`.

use serde::Serialize;

/// The unit a measurement is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Unit {
    /// Nanoseconds per operation.
    Ns,
    /// Bytes.
    Bytes,
    /// Operations per second (higher is better).
    PerSec,
}

/// What a table cell says when it has no value (not run, not comparable, no mean).
pub const MISSING: &str = "-";

/// What a table cell says when its cell failed (the reason is listed under the table).
pub const FAILED: &str = "FAILED";

/// A duration in ns as a short human string (`1.23 ms`).
pub fn format_ns(ns: f64) -> String {
    let (scale, unit, decimals) = time_unit(ns);
    format!("{:.decimals$} {unit}", ns / scale)
}

/// The unit a duration in ns is written in: its size in ns, its name, and the decimals
/// [`format_ns`] gives it.
fn time_unit(ns: f64) -> (f64, &'static str, usize) {
    if ns >= 1e9 {
        (1e9, "s", 2)
    } else if ns >= 1e6 {
        (1e6, "ms", 2)
    } else if ns >= 1e3 {
        (1e3, "µs", 1)
    } else {
        (1.0, "ns", 0)
    }
}

/// A count as a short human string with its unit (`1.23G instr`).
pub fn format_count(n: f64, unit: &str) -> String {
    let (v, prefix) = if n >= 1e9 {
        (n / 1e9, "G")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "k")
    } else {
        (n, "")
    };
    format!("{v:.3}{prefix} {unit}")
}

/// A duration to the digits its interval supports, given the interval's half-width in
/// percent: down to the place of the half-width's first digit (`984.82 ms` is `980 ms` at
/// ±4 % and `984.8 ms` at ±0.1 %), never fewer than two significant digits nor more than
/// [`format_ns`] gives (which it is without a half-width). Five digits against ±4 % claim
/// a precision the measurement does not have. The half-width counts as it is shown, to one
/// decimal (`101.6 ms` beside `±1.0 %` contradicted the rule it shows; 0.96 % is `±1.0 %`).
pub fn format_ns_within(ns: f64, halfwidth_pct: Option<f64>) -> String {
    let Some(h) = halfwidth_pct.filter(|h| h.is_finite() && *h > 0.0) else {
        return format_ns(ns);
    };
    let shown: f64 = format!("{h:.1}").parse().unwrap_or(h);
    let h = if shown > 0.0 { shown } else { h };
    if !(ns.is_finite() && ns > 0.0) {
        return format_ns(ns);
    }
    let (scale, unit, most) = time_unit(ns);
    let v = ns / scale;
    let lead = v.log10().floor() as i32;
    let place = ((v * h / 100.0).log10().floor() as i32).min(lead - 1);
    if place > 0 {
        let step = 10f64.powi(place);
        format!("{:.0} {unit}", (v / step).round() * step)
    } else {
        let decimals = (-place as usize).min(most);
        format!("{v:.decimals$} {unit}")
    }
}

/// A byte count as a short human string (`1.5 KiB`, `12.0 MiB`, `-300 B`).
pub fn format_bytes(b: f64) -> String {
    let a = b.abs();
    if a >= (1u64 << 30) as f64 {
        format!("{:.2} GiB", b / (1u64 << 30) as f64)
    } else if a >= (1 << 20) as f64 {
        format!("{:.1} MiB", b / (1 << 20) as f64)
    } else if a >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

/// A rate per second as a short human string (`12.3k/s`, `250/s`); below 10/s with two
/// decimals, since a slow level serves a request or two (`0.50/s`, not `0/s`).
pub fn format_rate(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.2}M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}k/s", r / 1e3)
    } else if r >= 10.0 {
        format!("{r:.0}/s")
    } else {
        format!("{r:.2}/s")
    }
}

/// A memory size that is a whole number of KiB or MiB, as such (`64 KiB`, `16 MiB`).
pub fn format_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes >> 10)
    } else {
        format_bytes(bytes as f64)
    }
}

/// A value in its unit, shortly; times under 100 ns keep a decimal (a call takes ~10 ns).
pub fn format_value(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Ns if v.abs() < 100.0 => format!("{v:.1} ns"),
        Unit::Ns => format_ns(v),
        Unit::Bytes => format_bytes(v),
        Unit::PerSec => format_rate(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A figure keeps the digits down to its half-width's first digit, at least two
    /// significant ones, at most what format_ns gives.
    #[test]
    fn a_time_is_rounded_to_what_its_interval_supports() {
        let cases = [
            (984_820_000.0, Some(4.0), "980 ms"),
            (984_820_000.0, Some(0.1), "984.8 ms"),
            (984_820_000.0, Some(0.001), "984.82 ms"),
            (984_820_000.0, None, "984.82 ms"),
            (152_390_000.0, Some(79.6), "150 ms"),
            (152_390_000.0, Some(2165.8), "150 ms"),
            (12_345_678.0, Some(1.23), "12.3 ms"),
            (2_260_000_000.0, Some(65.5), "2.3 s"),
            (2_260_000_000.0, Some(1.0), "2.26 s"),
            (8_361.0, Some(0.5), "8.4 µs"),
            (8_361.0, Some(30.0), "8.4 µs"),
            (836.0, Some(3.0), "840 ns"),
            (836.0, Some(0.3), "836 ns"),
            (0.0, Some(3.0), "0 ns"),
            (101_600_000.0, Some(0.97), "102 ms"),
            (101_600_000.0, Some(0.94), "101.6 ms"),
            (101_600_000.0, Some(0.01), "101.60 ms"),
        ];
        for (ns, h, want) in cases {
            assert_eq!(format_ns_within(ns, h), want, "{ns} ns ±{h:?} %");
        }
    }

    #[test]
    fn durations_pick_their_unit() {
        assert_eq!(format_ns(999.0), "999 ns");
        assert_eq!(format_ns(1_000.0), "1.0 µs");
        assert_eq!(format_ns(1_234_567.0), "1.23 ms");
        assert_eq!(format_ns(2_500_000_000.0), "2.50 s");
        assert_eq!(format_value(Unit::Ns, 12.25), "12.2 ns");
        assert_eq!(format_value(Unit::Ns, 408.0), "408 ns");
    }

    #[test]
    fn counts_bytes_and_sizes() {
        assert_eq!(format_count(1_234_000_000.0, "instr"), "1.234G instr");
        assert_eq!(format_count(512.0, "instr"), "512.000 instr");
        assert_eq!(format_bytes(-300.0), "-300 B");
        assert_eq!(format_bytes(1536.0), "1.5 KiB");
        assert_eq!(format_bytes(12.0 * 1048576.0), "12.0 MiB");
        assert_eq!(format_bytes(3.0 * 1073741824.0), "3.00 GiB");
        assert_eq!(format_size(64 << 10), "64 KiB");
        assert_eq!(format_size(16 << 20), "16 MiB");
        assert_eq!(format_size(1536), "1.5 KiB");
        assert_eq!(format_value(Unit::Bytes, 4198.4), "4.1 KiB");
    }

    #[test]
    fn rates_keep_decimals_only_when_slow() {
        assert_eq!(format_rate(0.5), "0.50/s");
        assert_eq!(format_rate(9.994), "9.99/s");
        assert_eq!(format_rate(250.4), "250/s");
        assert_eq!(format_rate(12_345.0), "12.3k/s");
        assert_eq!(format_rate(2_500_000.0), "2.50M/s");
        assert_eq!(format_value(Unit::PerSec, 679_500.0), "679.5k/s");
    }
}
