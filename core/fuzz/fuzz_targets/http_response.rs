//! HTTP response parsing (`ResponseParser`): what the load generator and the gateway's proxy
//! read from any server, pipelined, until the server closes. Whatever the bytes, no panic,
//! and:
//! - no call consumes more than it was given, nor hands on more body than it consumed;
//! - the same bytes arriving in pieces (as TCP delivers them) give the same responses, the
//!   same bodies and the same ending as arriving at once;
//! - a complete response, re-encoded by `write_response`, parses to the same status,
//!   keep-alive and body;
//! - after a `HEAD` request no response has a body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wasmeter_http::codec::{Response, ResponseParser, write_response};

/// The load generator's limit on a response head.
const MAX_HEAD: usize = 8 * 1024;

/// One complete response as a client sees it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    status: u16,
    keep_alive: bool,
    body: Vec<u8>,
}

/// How a connection's bytes ended.
#[derive(Debug, Clone, PartialEq)]
enum End {
    /// The parser refused the bytes.
    Refused,
    /// The close completed the last response (a body delimited by the end of the connection).
    Closed,
    /// The peer closed with this many bytes not consumed: mid-response, or (nothing left
    /// and no head) right after a complete one.
    Cut { head_done: bool, left: usize },
}

/// Feeds `data` in pieces of the given sizes (the last piece takes the rest) to one parser,
/// resetting it after each complete response, then closes the connection.
fn connection(
    data: &[u8],
    pieces: &mut dyn Iterator<Item = usize>,
    head: bool,
) -> (Vec<Seen>, End) {
    let mut parser = ResponseParser::new(MAX_HEAD);
    parser.reset(head);
    let (mut seen, mut body, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    let mut fed = 0;
    while fed < data.len() {
        let take = pieces
            .next()
            .unwrap_or(data.len())
            .clamp(1, data.len() - fed);
        pending.extend_from_slice(&data[fed..fed + take]);
        fed += take;
        loop {
            let before = body.len();
            let progress = match parser.parse(&pending, &mut |b: &[u8]| body.extend_from_slice(b)) {
                Ok(p) => p,
                Err(_) => return (seen, End::Refused),
            };
            assert!(progress.consumed <= pending.len());
            assert!(body.len() - before <= progress.consumed);
            assert_eq!(progress.complete, parser.is_complete());
            pending.drain(..progress.consumed);
            if !progress.complete {
                break;
            }
            seen.push(Seen {
                status: parser.status(),
                keep_alive: parser.keep_alive(),
                body: std::mem::take(&mut body),
            });
            parser.reset(head);
        }
    }
    if parser.finish_at_eof() {
        assert!(pending.is_empty());
        seen.push(Seen {
            status: parser.status(),
            keep_alive: parser.keep_alive(),
            body,
        });
        return (seen, End::Closed);
    }
    let end = End::Cut {
        head_done: parser.head_done(),
        left: pending.len(),
    };
    (seen, end)
}

/// Piece sizes from 1 to 97 bytes, drawn from the input so that each input has its own.
fn pieces(data: &[u8]) -> impl Iterator<Item = usize> {
    let mut x = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    }) | 1;
    std::iter::from_fn(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Some(1 + (x % 97) as usize)
    })
}

fuzz_target!(|data: &[u8]| {
    let (whole, end) = connection(data, &mut std::iter::empty::<usize>(), false);
    let (split, split_end) = connection(data, &mut pieces(data), false);
    assert_eq!(split, whole, "pieces changed the responses");
    assert_eq!(split_end, end, "pieces changed how the bytes ended");

    for r in &whole {
        assert!((100..1000).contains(&r.status), "{}", r.status);
        // 204 and 304 have no body by definition; 1xx are not final responses.
        if r.status < 200 || r.status == 204 || r.status == 304 {
            assert!(r.body.is_empty());
            continue;
        }
        let mut out = Vec::new();
        let resp = Response::new(r.status, r.body.clone());
        write_response(&mut out, &resp, r.keep_alive, false);
        let (again, again_end) = connection(&out, &mut std::iter::empty::<usize>(), false);
        assert_eq!(
            again,
            vec![r.clone()],
            "re-encoded: {:?}",
            String::from_utf8_lossy(&out)
        );
        assert_eq!(
            again_end,
            End::Cut {
                head_done: false,
                left: 0
            }
        );
    }

    let (after_head, _) = connection(data, &mut std::iter::empty::<usize>(), true);
    assert!(after_head.iter().all(|r| r.body.is_empty()));
});
