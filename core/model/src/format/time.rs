//! Dates as text: a Unix time as the UTC calendar date and time of day, for listings and
//! run ids.

/// UTC calendar fields of a Unix time (days-from-civil inverse, Howard Hinnant's method).
pub fn civil(secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

/// `YYYY-MM-DD HH:MM` UTC of a Unix time, for listings.
pub fn format_time(secs: f64) -> String {
    let (y, mo, d, h, mi, _) = civil(secs as i64);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(civil(1_795_308_245), (2026, 11, 22, 0, 44, 5));
    }

    #[test]
    fn times_read_as_utc_minutes() {
        assert_eq!(format_time(0.0), "1970-01-01 00:00");
        assert_eq!(format_time(1_795_308_245.9), "2026-11-22 00:44");
    }
}
