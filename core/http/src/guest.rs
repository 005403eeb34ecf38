//! The gateway guest protocol (suites/README.md, "Gateway guest protocol"): how an HTTP
//! request becomes a guest's argv and stdin, how its CGI-like stdout becomes a response, and
//! the answers every variant must give, computed here so any variant can be checked.

use sha2::{Digest, Sha256};

/// Most SHA-256 iterations a `compute` request may ask for (the guest's own limit).
pub const MAX_COMPUTE: u64 = 10_000_000;

/// What the guest is run with for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestCall {
    /// Workload: the first path segment (`hello`, `compute`, `state`, `proxy`).
    pub workload: String,
    /// argv after the workload (`compute`: N; `state`: the host's counter).
    pub args: Vec<String>,
    /// The request body, the guest's stdin.
    pub stdin: Vec<u8>,
}

impl GuestCall {
    /// argv as the guest sees it, argv[0] included.
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["gateway".to_string(), self.workload.clone()];
        v.extend(self.args.iter().cloned());
        v
    }
}

/// A guest's answer, parsed from its stdout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GuestReply {
    /// HTTP status.
    pub status: u16,
    /// Headers other than `Status`, in order.
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl GuestReply {
    /// A plain-text reply.
    pub fn text(status: u16, body: impl Into<Vec<u8>>) -> GuestReply {
        GuestReply {
            status,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: body.into(),
        }
    }

    /// The value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The workload and query of a request target: `/compute?n=1000` → (`compute`, `n=1000`).
pub fn route(target: &str) -> (&str, &str) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let workload = path.trim_start_matches('/').split('/').next().unwrap_or("");
    (workload, query)
}

/// The value of a query parameter.
pub fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Parses a guest's stdout: header lines, an empty line, the body.
pub fn parse_reply(out: &[u8]) -> Result<GuestReply, String> {
    let split = out
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|i| (i, i + 2))
        .or_else(|| {
            out.windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|i| (i, i + 4))
        })
        .ok_or_else(|| {
            format!(
                "guest output has no blank line after its headers: {:?}",
                String::from_utf8_lossy(&out[..out.len().min(80)])
            )
        })?;
    let head = std::str::from_utf8(&out[..split.0])
        .map_err(|_| "guest headers are not UTF-8".to_string())?;
    let mut reply = GuestReply {
        status: 0,
        headers: Vec::new(),
        body: out[split.1..].to_vec(),
    };
    for line in head.lines() {
        let line = line.trim_end_matches('\r');
        let (k, v) = line
            .split_once(':')
            .ok_or_else(|| format!("bad guest header line {line:?}"))?;
        let (k, v) = (k.trim(), v.trim());
        if k.eq_ignore_ascii_case("status") {
            reply.status = v
                .split_whitespace()
                .next()
                .and_then(|s| s.parse().ok())
                .filter(|s| (100..600).contains(s))
                .ok_or_else(|| format!("bad guest status {v:?}"))?;
        } else {
            reply.headers.push((k.to_string(), v.to_string()));
        }
    }
    if reply.status == 0 {
        return Err("guest output has no Status header".into());
    }
    Ok(reply)
}

/// The SHA-256 chain of `compute N`: SHA-256("wasmeter"), then N times SHA-256 of the
/// previous digest; lower-case hex.
pub fn compute_digest(n: u64) -> String {
    let mut d: [u8; 32] = Sha256::digest(b"wasmeter").into();
    for _ in 0..n {
        d = Sha256::digest(d).into();
    }
    hex(&d)
}

/// Lower-case hex of bytes (digests here; model re-exports it for file names, metadata and
/// hashes, so wasmeter has one).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The body a correct gateway answers to a test's request, when it does not depend on
/// state: `hello`, `compute` (and `proxy`: the request body, echoed by the upstream).
pub fn expected_body(target: &str, request_body: &[u8]) -> Option<Vec<u8>> {
    let (workload, query) = route(target);
    match workload {
        "hello" => Some(b"hello, world\n".to_vec()),
        "compute" => {
            let n: u64 = query_param(query, "n")?.parse().ok()?;
            Some(format!("{}\n", compute_digest(n)).into_bytes())
        }
        "proxy" => Some(request_body.to_vec()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_and_queries() {
        assert_eq!(route("/compute?n=10"), ("compute", "n=10"));
        assert_eq!(route("/hello"), ("hello", ""));
        assert_eq!(route("/state/x"), ("state", ""));
        assert_eq!(query_param("a=1&n=20", "n"), Some("20"));
        assert_eq!(query_param("a=1", "n"), None);
    }

    #[test]
    fn parses_cgi_output() {
        let r = parse_reply(b"Status: 200\nContent-Type: text/plain\nX-Counter: 5\n\n5\n").unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.header("x-counter"), Some("5"));
        assert_eq!(r.body, b"5\n");
        let r = parse_reply(b"Status: 404 Not Found\r\n\r\n").unwrap();
        assert_eq!((r.status, r.body.len()), (404, 0));
        assert!(parse_reply(b"hello").unwrap_err().contains("no blank line"));
        assert!(parse_reply(b"X: 1\n\n").unwrap_err().contains("no Status"));
        assert!(
            parse_reply(b"Status: abc\n\n")
                .unwrap_err()
                .contains("bad guest status")
        );
    }

    #[test]
    fn digest_chain_is_sha256_iterated() {
        let d0: [u8; 32] = Sha256::digest(b"wasmeter").into();
        let d1: [u8; 32] = Sha256::digest(d0).into();
        assert_eq!(compute_digest(1), hex(&d1));
        assert_eq!(
            expected_body("/compute?n=1", b""),
            Some(format!("{}\n", hex(&d1)).into_bytes())
        );
        assert_eq!(expected_body("/state", b""), None);
    }
}
