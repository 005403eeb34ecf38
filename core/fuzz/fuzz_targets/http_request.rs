//! HTTP request parsing (`parse_request`): what the gateway and the HTTP servers read from
//! any client, pipelined. Whatever the bytes, no panic, and:
//! - a parsed request consumes at least one byte and no more than it was given;
//! - it is self-delimited: its own bytes parse to the same request, and every shorter prefix
//!   asks for more;
//! - re-encoded (canonical CRLFs, `name: value`), it parses to the same request;
//! - tighter limits never accept what the defaults refuse, nor read it differently;
//! - every error maps to a status a server can send (400, 413, 431, 501, 505).
#![no_main]

use libfuzzer_sys::fuzz_target;
use wasmeter_http::codec::{Limits, Request, RequestStatus, parse_request};

/// Small enough that short inputs reach every limit.
const TIGHT: Limits = Limits {
    max_head: 256,
    max_headers: 8,
    max_body: 64,
};

/// No limit: for the re-encoded request, whose canonical head may be longer than the input's.
const UNLIMITED: Limits = Limits {
    max_head: usize::MAX,
    max_headers: usize::MAX,
    max_body: usize::MAX,
};

/// Everything a handler can see of a request, to compare two parses.
#[derive(Debug, PartialEq)]
struct Seen {
    method: String,
    target: String,
    minor: u8,
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
    keep_alive: bool,
}

fn seen(r: &Request) -> Seen {
    Seen {
        method: r.method().to_string(),
        target: r.target().to_string(),
        minor: r.minor_version(),
        headers: r
            .headers()
            .map(|(n, v)| (n.to_string(), v.to_vec()))
            .collect(),
        body: r.body().to_vec(),
        keep_alive: r.keep_alive(),
    }
}

/// The request in canonical form: one space between the request line's parts, CRLF line
/// ends, `name: value` header fields in their order, then the body.
fn encode(s: &Seen) -> Vec<u8> {
    let mut out = format!("{} {} HTTP/1.{}\r\n", s.method, s.target, s.minor).into_bytes();
    for (name, value) in &s.headers {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&s.body);
    out
}

/// Prefix lengths to try: all of them for short requests, about 128 spread over long ones.
fn prefixes(n: usize) -> impl Iterator<Item = usize> {
    (0..n).step_by((n / 128).max(1)).chain(n.checked_sub(1))
}

fuzz_target!(|data: &[u8]| {
    let defaults = Limits::default();
    let mut rest = data;
    let mut req = Request::default();
    let mut other = Request::default();
    // Request after request, as a server's connection loop reads a pipelined buffer.
    loop {
        let outcome = parse_request(rest, &defaults, &mut req);
        if let Ok(RequestStatus::Complete(n)) = parse_request(rest, &TIGHT, &mut other) {
            assert_eq!(
                outcome,
                Ok(RequestStatus::Complete(n)),
                "tight limits accepted more"
            );
            assert_eq!(seen(&other), seen(&req));
        }
        let n = match outcome {
            Err(e) => {
                assert!(
                    matches!(e.status(), 400 | 413 | 431 | 501 | 505),
                    "{e}: {}",
                    e.status()
                );
                return;
            }
            Ok(RequestStatus::Partial { .. }) => return,
            Ok(RequestStatus::Complete(n)) => n,
        };
        assert!(n > 0 && n <= rest.len(), "consumed {n} of {}", rest.len());
        let parsed = seen(&req);
        assert!(parsed.body.len() < n);

        // Self-delimited: its own bytes, and nothing less.
        let own = parse_request(&rest[..n], &defaults, &mut other);
        assert_eq!(own, Ok(RequestStatus::Complete(n)));
        assert_eq!(seen(&other), parsed);
        for k in prefixes(n) {
            let short = parse_request(&rest[..k], &defaults, &mut other);
            assert!(
                matches!(short, Ok(RequestStatus::Partial { .. })),
                "prefix {k} of a {n}-byte request: {short:?}"
            );
        }

        // Re-encoded, the same request.
        let canonical = encode(&parsed);
        let again = parse_request(&canonical, &UNLIMITED, &mut other);
        assert_eq!(again, Ok(RequestStatus::Complete(canonical.len())));
        assert_eq!(seen(&other), parsed);

        rest = &rest[n..];
    }
});
