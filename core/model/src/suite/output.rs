//! The self-timing protocol: what a guest prints about its own execution time.
//!
//! A guest prints a line `wasmeter:time_ns=<u64>`; all `wasmeter:` lines are removed before
//! the known-answer comparison. libsodium's format (stdout that is a single integer,
//! picoseconds per iteration) is read only for suites that declare it
//! (`Suite::self_timed_iterations`): any other program printing one integer (a checksum)
//! would otherwise be taken for a time.

/// What a guest's stdout says once the protocol lines are taken out.
#[derive(Debug, Clone, PartialEq)]
pub struct GuestOutput {
    /// Self-timed execution in nanoseconds, when the guest reported one.
    pub self_time_ns: Option<f64>,
    /// Stdout read as libsodium's picoseconds per iteration, when it is one integer: a time
    /// only for suites that declare that format.
    pub ps_per_iteration: Option<f64>,
    /// Stdout without protocol lines: what is compared with the expected file.
    pub answer: String,
}

const PREFIX: &str = "wasmeter:";

/// Splits protocol lines from the answer. Errors name the malformed line.
pub fn parse_output(stdout: &str) -> Result<GuestOutput, String> {
    let mut self_time_ns = None;
    let mut answer = String::with_capacity(stdout.len());
    for line in stdout.split_inclusive('\n') {
        let trimmed = line.trim_end_matches(['\n', '\r']);
        if let Some(rest) = trimmed.strip_prefix(PREFIX) {
            if let Some(v) = rest.strip_prefix("time_ns=") {
                let ns: u64 = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("malformed self-timing line '{trimmed}'"))?;
                self_time_ns = Some(ns as f64);
            }
            continue;
        }
        answer.push_str(line);
    }
    let ps_per_iteration = if self_time_ns.is_none() {
        let t = answer.trim();
        (!t.is_empty() && t.len() < 20 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u64>().ok().map(|v| v as f64))
            .flatten()
    } else {
        None
    };
    Ok(GuestOutput {
        self_time_ns,
        ps_per_iteration,
        answer,
    })
}

/// Result of comparing a guest's answer with the expected one.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputCheck {
    /// Identical.
    Match,
    /// Different; says where, to be shown to the user.
    Mismatch(String),
}

/// Compares an answer with the expected text, describing the first difference.
pub fn check_output(answer: &str, expected: &str) -> OutputCheck {
    if answer == expected {
        return OutputCheck::Match;
    }
    let mut got = answer.lines();
    let mut want = expected.lines();
    let mut n = 1;
    loop {
        match (got.next(), want.next()) {
            (Some(g), Some(w)) if g == w => n += 1,
            (Some(g), Some(w)) => {
                return OutputCheck::Mismatch(format!(
                    "line {n}: expected '{}', got '{}'",
                    clip(w),
                    clip(g)
                ));
            }
            (None, Some(w)) => {
                return OutputCheck::Mismatch(format!(
                    "line {n}: expected '{}', got nothing",
                    clip(w)
                ));
            }
            (Some(g), None) => {
                return OutputCheck::Mismatch(format!(
                    "line {n}: unexpected extra output '{}'",
                    clip(g)
                ));
            }
            (None, None) => return OutputCheck::Mismatch("differs in line endings".into()),
        }
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_protocol_lines_and_reads_time() {
        let o = parse_output("sha256 abc\nwasmeter:time_ns=12345\nok\n").unwrap();
        assert_eq!(o.self_time_ns, Some(12345.0));
        assert_eq!(o.answer, "sha256 abc\nok\n");
        assert_eq!(o.ps_per_iteration, None);
    }

    #[test]
    fn accepts_libsodium_format() {
        let o = parse_output("123456789\n").unwrap();
        assert_eq!(o.ps_per_iteration, Some(123456789.0));
        assert_eq!(o.self_time_ns, None);
    }

    #[test]
    fn rejects_malformed_time() {
        let e = parse_output("wasmeter:time_ns=12x\n").unwrap_err();
        assert!(e.contains("wasmeter:time_ns=12x"));
    }

    #[test]
    fn mismatch_names_the_line() {
        assert_eq!(check_output("a\nb\n", "a\nb\n"), OutputCheck::Match);
        assert_eq!(
            check_output("a\nc\n", "a\nb\n"),
            OutputCheck::Mismatch("line 2: expected 'b', got 'c'".into())
        );
        assert_eq!(
            check_output("a\n", "a\nb\n"),
            OutputCheck::Mismatch("line 2: expected 'b', got nothing".into())
        );
    }
}
