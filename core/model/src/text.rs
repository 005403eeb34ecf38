//! Small text helpers shared by the parsers (suite manifests, config), the store, the
//! exports and the machine fingerprint: hex digests, CSV fields, and error messages that
//! name a line and fit on one.

/// A CSV field, quoted when it needs to be (every CSV wasmeter writes).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Lower-case hex of bytes (digests in file names, metadata and hashes): wasmeter-http's,
/// which sits below this crate.
pub use wasmeter_http::guest::hex;

/// 1-based line of a byte offset, for error messages that name file and line.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// An error message kept to one line: values quoted from the file may hold newlines or
/// other control characters (found by fuzzing the config parser); they are escaped.
pub fn one_line(message: String) -> String {
    if !message.chars().any(char::is_control) {
        return message;
    }
    message
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_give_hex_lines_and_one_line_messages() {
        assert_eq!(hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
        assert_eq!(one_line("plain".into()), "plain");
        assert_eq!(one_line("a\nb\tc".into()), "a\\nb\\tc");
    }
}
