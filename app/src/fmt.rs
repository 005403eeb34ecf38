//! Text formatting for terminal output: durations and aligned tables.

pub use wasmeter_core::export::format_ns as duration_ns;

/// Renders rows as an aligned table: the first `left` columns left-aligned (text), the
/// rest right-aligned (numbers).
pub fn table(header: &[String], rows: &[Vec<String>], left: usize) -> String {
    let cols = header.len();
    let mut w = vec![0; cols];
    for r in std::iter::once(header).chain(rows.iter().map(|r| r.as_slice())) {
        for (i, c) in r.iter().enumerate().take(cols) {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |r: &[String]| {
        r.iter()
            .enumerate()
            .map(|(i, c)| {
                if i < left {
                    format!("{c:<width$}", width = w[i])
                } else {
                    format!("{c:>width$}", width = w[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(header);
    out.push('\n');
    out.push_str(
        &w.iter()
            .map(|n| "-".repeat(*n))
            .collect::<Vec<_>>()
            .join("  "),
    );
    out.push('\n');
    for r in rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(duration_ns(1_234_567.0), "1.23 ms");
        assert_eq!(duration_ns(2_500_000_000.0), "2.50 s");
        assert_eq!(duration_ns(999.0), "999 ns");
        let t = table(
            &["a".into(), "bb".into()],
            &[vec!["xyz".into(), "1".into()]],
            1,
        );
        assert_eq!(t, "a    bb\n---  --\nxyz   1\n");
    }
}
