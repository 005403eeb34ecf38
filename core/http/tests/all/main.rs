//! The HTTP/1.1 codec, the server and the load generator, against real sockets on loopback.
//! Wall-clock bounds here only catch a hang: how fast or how punctually the kit works is
//! measured by `cargo bench --bench gateway` and `wasmeter load`, not asserted by tests
//! that a busy 2-core machine would fail.

/// Longer than any of these tests takes unless something hangs.
const NO_HANG: std::time::Duration = std::time::Duration::from_secs(10);

mod codec {
    // Wire-format tests: response parsing (lengths, chunks, split reads) and request
    // parsing (valid, pipelined, rejected).

    use wasmeter_http::codec::{
        Limits, ParseError, Progress, Request, RequestStatus, Response, ResponseParser,
        parse_request, write_response,
    };

    /// Feeds `input` to a fresh parser in pieces of `step` bytes, the way reads deliver it,
    /// keeping unconsumed bytes; returns (status, keep_alive, body, bytes left over).
    fn feed(input: &[u8], step: usize) -> Result<(u16, bool, Vec<u8>, usize), ParseError> {
        let mut p = ResponseParser::new(8192);
        p.reset(false);
        let mut pending: Vec<u8> = Vec::new();
        let mut body = Vec::new();
        for piece in input.chunks(step) {
            pending.extend_from_slice(piece);
            let Progress { consumed, complete } =
                p.parse(&pending, &mut |b: &[u8]| body.extend_from_slice(b))?;
            pending.drain(..consumed);
            if complete {
                return Ok((p.status(), p.keep_alive(), body, pending.len()));
            }
        }
        if p.finish_at_eof() {
            return Ok((p.status(), p.keep_alive(), body, pending.len()));
        }
        panic!("response incomplete: {:?}", String::from_utf8_lossy(input));
    }

    const CL: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";
    const CHUNKED: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n8;ext=1\r\n, World!\r\n0\r\nX-Trailer: 1\r\n\r\n";

    #[test]
    fn content_length_body_in_one_read() {
        assert_eq!(
            feed(CL, CL.len()).unwrap(),
            (200, true, b"Hello, World!".to_vec(), 0)
        );
    }

    #[test]
    fn chunked_body_with_extension_and_trailer() {
        assert_eq!(
            feed(CHUNKED, CHUNKED.len()).unwrap(),
            (200, true, b"Hello, World!".to_vec(), 0)
        );
    }

    #[test]
    fn responses_split_across_reads_at_every_size() {
        for step in 1..=CL.len() {
            assert_eq!(
                feed(CL, step).unwrap().2,
                b"Hello, World!",
                "content-length, step {step}"
            );
        }
        for step in 1..=CHUNKED.len() {
            assert_eq!(
                feed(CHUNKED, step).unwrap().2,
                b"Hello, World!",
                "chunked, step {step}"
            );
        }
    }

    #[test]
    fn connection_close_and_close_delimited_bodies() {
        let r = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok";
        assert_eq!(feed(r, 3).unwrap(), (200, false, b"ok".to_vec(), 0));
        let r = b"HTTP/1.0 200 OK\r\n\r\nuntil the end";
        assert_eq!(
            feed(r, 4).unwrap(),
            (200, false, b"until the end".to_vec(), 0)
        );
        let r = b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(feed(r, 100).unwrap(), (200, true, Vec::new(), 0));
    }

    #[test]
    fn head_response_has_no_body_and_leftover_is_not_consumed() {
        let mut p = ResponseParser::new(8192);
        p.reset(true);
        let r = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHTTP/1.1";
        let pr = p
            .parse(r, &mut |_: &[u8]| panic!("no body for HEAD"))
            .unwrap();
        assert_eq!(
            pr,
            Progress {
                consumed: r.len() - 8,
                complete: true
            }
        );
    }

    #[test]
    fn bad_responses_are_errors() {
        let bad: &[(&[u8], ParseError)] = &[
            (b"HTTP/2 200 OK\r\n\r\n", ParseError::BadStatusLine),
            (b"HTTP/1.1 2x0 OK\r\n\r\n", ParseError::BadStatusLine),
            (b"HTTP/1.2 200 OK\r\n\r\n", ParseError::BadVersion),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
                ParseError::BadContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                ParseError::BadContentLength,
            ),
            (
                b"HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
                ParseError::BadHeader,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                ParseError::BadChunk,
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc",
                ParseError::BadChunk,
            ),
        ];
        for (input, want) in bad {
            let mut p = ResponseParser::new(8192);
            let got = p.parse(input, &mut |_: &[u8]| {});
            assert_eq!(got, Err(*want), "{:?}", String::from_utf8_lossy(input));
        }
        let mut p = ResponseParser::new(64);
        let huge = [b"HTTP/1.1 200 OK\r\nX: ".as_slice(), &[b'a'; 100]].concat();
        assert_eq!(
            p.parse(&huge, &mut |_: &[u8]| {}),
            Err(ParseError::HeadTooLarge(64))
        );
    }

    #[test]
    fn truncated_response_is_not_complete_at_eof() {
        let mut p = ResponseParser::new(8192);
        let r = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc";
        let pr = p.parse(r, &mut |_: &[u8]| {}).unwrap();
        assert!(!pr.complete);
        assert!(p.head_done());
        assert!(!p.finish_at_eof());
    }

    #[test]
    fn request_with_body_headers_and_query() {
        let raw =
        b"POST /echo?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing:  v  \r\nContent-Length: 3\r\n\r\nabcGET";
        let mut req = Request::default();
        let st = parse_request(raw, &Limits::default(), &mut req).unwrap();
        assert_eq!(st, RequestStatus::Complete(raw.len() - 3));
        assert_eq!(req.method(), "POST");
        assert_eq!(req.target(), "/echo?x=1");
        assert_eq!(req.path(), "/echo");
        assert_eq!(req.query(), Some("x=1"));
        assert_eq!(req.header("x-thing"), Some("v"));
        assert_eq!(req.headers().count(), 3);
        assert_eq!(req.body(), b"abc");
        assert_eq!(req.minor_version(), 1);
        assert!(req.keep_alive());
    }

    #[test]
    fn request_partial_until_whole_and_pipelined() {
        let one = b"GET /a HTTP/1.1\r\nHost: h\r\n\r\n";
        let two = [
            one.as_slice(),
            b"GET /b HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        ]
        .concat();
        let mut req = Request::default();
        let l = Limits::default();
        for cut in 0..one.len() {
            assert_eq!(
                parse_request(&one[..cut], &l, &mut req).unwrap(),
                RequestStatus::Partial {
                    expect_continue: false
                },
                "cut {cut}"
            );
        }
        let RequestStatus::Complete(n) = parse_request(&two, &l, &mut req).unwrap() else {
            panic!()
        };
        assert_eq!((n, req.path(), req.keep_alive()), (one.len(), "/a", true));
        let RequestStatus::Complete(m) = parse_request(&two[n..], &l, &mut req).unwrap() else {
            panic!()
        };
        assert_eq!(
            (n + m, req.path(), req.keep_alive()),
            (two.len(), "/b", false)
        );
    }

    #[test]
    fn expect_continue_is_reported_while_body_is_missing() {
        let raw =
            b"PUT /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
        let mut req = Request::default();
        assert_eq!(
            parse_request(raw, &Limits::default(), &mut req).unwrap(),
            RequestStatus::Partial {
                expect_continue: true
            }
        );
    }

    #[test]
    fn http10_request_defaults_to_close() {
        let mut req = Request::default();
        parse_request(b"GET / HTTP/1.0\r\n\r\n", &Limits::default(), &mut req).unwrap();
        assert!(!req.keep_alive());
        parse_request(
            b"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
            &Limits::default(),
            &mut req,
        )
        .unwrap();
        assert!(req.keep_alive());
    }

    #[test]
    fn bad_requests_are_rejected_with_the_right_status() {
        let small = Limits {
            max_head: 64,
            max_headers: 3,
            max_body: 4,
        };
        let cases: &[(&[u8], ParseError, u16)] = &[
            (b"GET\r\n\r\n", ParseError::BadRequestLine, 400),
            (b"GET /\r\n\r\n", ParseError::BadRequestLine, 400),
            (
                b"G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
                ParseError::BadRequestLine,
                400,
            ),
            (
                b"GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
                ParseError::BadRequestLine,
                400,
            ),
            (
                b"GET / HTTP/2.0\r\nHost: h\r\n\r\n",
                ParseError::BadVersion,
                505,
            ),
            (b"GET / HTTP/1.1\r\n\r\n", ParseError::BadHeader, 400),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n",
                ParseError::BadHeader,
                400,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n",
                ParseError::BadHeader,
                400,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",
                ParseError::BadHeader,
                400,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
                ParseError::BadContentLength,
                400,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                ParseError::BadContentLength,
                400,
            ),
            (
                b"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
                ParseError::UnsupportedTransferEncoding,
                501,
            ),
            (
                b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n",
                ParseError::BodyTooLarge(4),
                413,
            ),
            (
                b"GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n",
                ParseError::TooManyHeaders(3),
                431,
            ),
        ];
        let mut req = Request::default();
        for (raw, err, status) in cases {
            let got = parse_request(raw, &small, &mut req);
            assert_eq!(got, Err(*err), "{:?}", String::from_utf8_lossy(raw));
            assert_eq!(err.status(), *status);
        }
        // An endless head is refused once it passes the limit, complete or not.
        let long = [b"GET /".as_slice(), &[b'a'; 100]].concat();
        assert_eq!(
            parse_request(&long, &small, &mut req),
            Err(ParseError::HeadTooLarge(64))
        );
    }

    #[test]
    fn responses_are_written_with_length_and_close() {
        let mut out = Vec::new();
        let r = Response::ok(&b"hi"[..]).with_header("X-A", "1");
        write_response(&mut out, &r, true, false);
        assert_eq!(
            out,
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\n\r\nhi"
        );
        out.clear();
        write_response(&mut out, &Response::error(404), false, true);
        assert_eq!(
        out,
        b"HTTP/1.1 404 Not Found\r\nContent-Length: 14\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    );
    }
}

mod server {
    // Server tests over real loopback sockets.

    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use super::NO_HANG;
    use wasmeter_http::codec::Response;
    use wasmeter_http::server::{self, Handler, ServerOptions};

    fn echo() -> Handler {
        Arc::new(|req| match req.path() {
            "/echo" => {
                Response::ok(req.body().to_vec()).with_header("X-Method", req.method().to_string())
            }
            "/close" => Response::ok(&b"bye"[..]).with_close(),
            "/panic" => panic!("handler bug"),
            "/" => Response::ok(&b"Hello, World!"[..]),
            _ => Response::error(404),
        })
    }

    /// Sends raw bytes and reads until the server closes or `until` appears.
    fn exchange(stream: &mut TcpStream, raw: &[u8], until: &str) -> String {
        stream.write_all(raw).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&got).contains(until) {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8(got).unwrap()
    }

    fn connect(addr: std::net::SocketAddr) -> TcpStream {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
        s
    }

    #[test]
    fn keep_alive_pipelining_and_echo() {
        let h = server::spawn_local(echo(), ServerOptions::default()).unwrap();
        let mut s = connect(h.addr());
        let r = exchange(&mut s, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "World!");
        assert_eq!(
            r,
            "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!"
        );
        // Same connection, two pipelined requests answered in order.
        let r = exchange(
        &mut s,
        b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\npingGET /nope HTTP/1.1\r\nHost: x\r\n\r\n",
        "Not Found\n",
    );
        assert!(
            r.starts_with("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Method: POST\r\n\r\nping"),
            "{r}"
        );
        assert!(r.contains("HTTP/1.1 404 Not Found\r\n"), "{r}");
        h.stop().unwrap();
    }

    #[test]
    fn body_split_across_writes_and_expect_continue() {
        let h = server::spawn_local(echo(), ServerOptions::default()).unwrap();
        let mut s = connect(h.addr());
        let r = exchange(
            &mut s,
            b"PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
            "Continue\r\n\r\n",
        );
        assert_eq!(r, "HTTP/1.1 100 Continue\r\n\r\n");
        s.write_all(b"ab").unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let r = exchange(&mut s, b"cde", "abcde");
        assert!(r.ends_with("\r\n\r\nabcde"), "{r}");
    }

    #[test]
    fn bad_request_gets_400_and_close() {
        let h = server::spawn_local(echo(), ServerOptions::default()).unwrap();
        let mut s = connect(h.addr());
        let r = exchange(
            &mut s,
            b"GET / HTTP/1.1\r\nBad Header\r\n\r\n",
            "\u{0}never",
        );
        assert!(r.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{r}");
        assert!(r.contains("Connection: close\r\n"), "{r}");
        let mut s = connect(h.addr());
        let r = exchange(
            &mut s,
            b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            "\u{0}never",
        );
        assert!(r.starts_with("HTTP/1.1 501 Not Implemented\r\n"), "{r}");
    }

    #[test]
    fn close_head_http10_and_panicking_handler() {
        let h = server::spawn_local(echo(), ServerOptions::default()).unwrap();
        let mut s = connect(h.addr());
        let r = exchange(
            &mut s,
            b"GET /close HTTP/1.1\r\nHost: x\r\n\r\n",
            "\u{0}never",
        );
        assert_eq!(
            r,
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbye"
        );
        let mut s = connect(h.addr());
        let r = exchange(&mut s, b"HEAD / HTTP/1.0\r\n\r\n", "\u{0}never");
        assert_eq!(
            r,
            "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"
        );
        let mut s = connect(h.addr());
        let r = exchange(&mut s, b"GET /panic HTTP/1.1\r\nHost: x\r\n\r\n", "Error\n");
        assert!(
            r.starts_with("HTTP/1.1 500 Internal Server Error\r\n"),
            "{r}"
        );
    }

    #[test]
    fn stop_closes_connections_and_the_listener() {
        let h = server::spawn_local(
            echo(),
            ServerOptions {
                workers: 1,
                ..Default::default()
            },
        )
        .unwrap();
        let addr = h.addr();
        let mut idle = connect(addr);
        let t = Instant::now();
        h.stop().unwrap();
        assert!(t.elapsed() < NO_HANG);
        let mut buf = [0u8; 16];
        assert!(matches!(idle.read(&mut buf), Ok(0) | Err(_)));
        assert!(TcpStream::connect(addr).is_err());
    }

    #[test]
    fn serve_on_callers_runtime_until_watch_fires() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (tx, rx) = tokio::sync::watch::channel(false);
        let task = rt.spawn(server::serve(listener, echo(), Default::default(), rx));
        let mut s = connect(addr);
        assert!(
            exchange(&mut s, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "World!").ends_with("World!")
        );
        tx.send(true).unwrap();
        rt.block_on(async { tokio::time::timeout(Duration::from_secs(2), task).await })
            .expect("serve returned")
            .unwrap()
            .unwrap();
    }
}

mod load {
    // Load generator tests against in-process servers; each is bounded to a few seconds.

    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpListener};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::{Duration, Instant};

    use super::NO_HANG;
    use wasmeter_http::codec::Response;
    use wasmeter_http::load::{self, LoadError, LoadSpec, Stop};
    use wasmeter_http::server::{self, Handler, ServerHandle, ServerOptions};

    fn start(handler: Handler, workers: usize) -> ServerHandle {
        server::spawn_local(
            handler,
            ServerOptions {
                workers,
                ..Default::default()
            },
        )
        .unwrap()
    }

    fn spec(addr: SocketAddr, connections: usize, stop: Stop) -> LoadSpec {
        let mut s = LoadSpec::new(addr);
        s.connections = connections;
        s.stop = stop;
        s.request_timeout = Duration::from_secs(2);
        s.max_time = Duration::from_secs(10);
        s
    }

    /// A raw server: each connection answers `per_conn` requests with a fixed response, then
    /// is dropped without `Connection: close` (an abrupt close, as by a crashing server).
    fn abrupt_server(per_conn: usize, response: &'static [u8]) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                std::thread::spawn(move || {
                    let _ = s.set_nodelay(true);
                    let mut buf = [0u8; 4096];
                    let mut answered = 0;
                    while answered < per_conn {
                        match s.read(&mut buf) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => {
                                // One request per read is enough for this test client.
                                let _ = n;
                                if s.write_all(response).is_err() {
                                    return;
                                }
                                answered += 1;
                            }
                        }
                    }
                });
            }
        });
        addr
    }

    #[test]
    fn closed_loop_counts_ok_responses_and_checks_bodies() {
        let h = start(Arc::new(|_| Response::ok(&b"Hello, World!"[..])), 2);
        let mut s = spec(h.addr(), 8, Stop::Duration(Duration::from_millis(500)));
        s.expect_body = Some(b"Hello, World!".to_vec());
        let t = Instant::now();
        let r = load::run(&s).unwrap();
        // It stops (how close to 500 ms it stops is a timing, for a bench, not a test).
        assert!(t.elapsed() < NO_HANG, "{:?}", t.elapsed());
        assert!(r.requests > 1000, "{r:?}");
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.statuses.get(&200), Some(&r.requests));
        assert_eq!(r.histogram.len(), r.requests);
        assert_eq!(r.elapsed, Duration::from_millis(500));
        assert!((r.rps - r.requests as f64 / 0.5).abs() < 1.0);
        assert!(
            r.latency.min <= r.latency.p50
                && r.latency.p50 <= r.latency.p99
                && r.latency.p99 <= r.latency.max
        );
        assert!(r.bytes_read >= r.requests * 50);

        // A wrong expectation makes every response a body error.
        s.expect_body = Some(b"Hello, Moon!!".to_vec());
        let r = load::run(&s).unwrap();
        assert_eq!(r.requests, 0);
        assert!(r.errors["body"] > 1000, "{:?}", r.errors);
    }

    /// The edges `run_observed` reports are the measured window: after the warm-up, one
    /// duration apart, and what the server handled between them is what the report
    /// counts — so a caller's counters read there (the server's CPU time) leave the
    /// warm-up out.
    #[test]
    fn observed_edges_are_the_measured_window() {
        let seen = Arc::new(AtomicU64::new(0));
        let s2 = seen.clone();
        let h = start(
            Arc::new(move |_| {
                s2.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(2));
                Response::ok(&b"ok"[..])
            }),
            2,
        );
        let mut s = spec(h.addr(), 4, Stop::Duration(Duration::from_millis(600)));
        s.warmup = Duration::from_millis(300);
        let t0 = Instant::now();
        let mut edges = Vec::new();
        let r = load::run_observed(&s, &mut |w| {
            edges.push((w, t0.elapsed(), seen.load(Ordering::Relaxed)))
        })
        .unwrap();
        let done = t0.elapsed();
        let [(load::Window::Start, start, a), (load::Window::End, end, b)] = edges[..] else {
            panic!("edges {edges:?}");
        };
        // The window opens after the warm-up and lasts at least its duration; how soon
        // after is the scheduler's, not the kit's (a 2-core VM under load can be late).
        assert!(
            start >= Duration::from_millis(300) && start < NO_HANG,
            "start {start:?}"
        );
        let window = end - start;
        assert!(
            window >= Duration::from_millis(595) && window < NO_HANG,
            "window {window:?}"
        );
        assert!(end <= done);
        assert!(a > 0, "the warm-up sent requests");
        // In flight at either edge: at most one request per connection.
        let handled = (b - a) as i64;
        assert!(
            (handled - r.requests as i64).abs() <= 2 * 4,
            "the server handled {handled} requests in the window, the report counts {}",
            r.requests
        );
    }

    #[test]
    fn requests_stop_sends_exactly_n_and_warmup_is_not_counted() {
        let seen = Arc::new(AtomicU64::new(0));
        let s2 = seen.clone();
        let h = start(
            Arc::new(move |_| {
                s2.fetch_add(1, Ordering::Relaxed);
                Response::ok(&b"x"[..])
            }),
            2,
        );
        let r = load::run(&spec(h.addr(), 7, Stop::Requests(1234))).unwrap();
        assert_eq!(r.requests, 1234);
        assert_eq!(seen.load(Ordering::Relaxed), 1234);
        assert!(r.elapsed > Duration::ZERO && r.elapsed < Duration::from_secs(5));

        seen.store(0, Ordering::Relaxed);
        let mut s = spec(h.addr(), 4, Stop::Requests(300));
        s.warmup = Duration::from_millis(200);
        let r = load::run(&s).unwrap();
        assert_eq!(r.requests, 300);
        assert!(
            seen.load(Ordering::Relaxed) > 300 + 100,
            "warm-up sent requests too"
        );
        assert_eq!(r.histogram.len(), 300);
    }

    #[test]
    fn abrupt_server_close_is_counted_and_reconnected() {
        let addr = abrupt_server(5, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        let r = load::run(&spec(addr, 4, Stop::Duration(Duration::from_millis(500)))).unwrap();
        // Every 6th request on a connection finds it closed, then the connection is reopened.
        assert!(r.requests > 100, "{r:?}");
        assert!(
            r.errors.get("closed").copied().unwrap_or(0) > 10,
            "{:?}",
            r.errors
        );
        assert!(r.reconnects > 10, "{}", r.reconnects);
        let closed = r.errors["closed"] as f64;
        assert!(
            closed * 4.0 < r.requests as f64,
            "about one close per five requests: {r:?}"
        );
    }

    #[test]
    fn graceful_close_reconnects_without_errors() {
        let n = Arc::new(AtomicU64::new(0));
        let h = start(
            Arc::new(move |_| {
                let r = Response::ok(&b"ok"[..]);
                if n.fetch_add(1, Ordering::Relaxed) % 3 == 2 {
                    r.with_close()
                } else {
                    r
                }
            }),
            2,
        );
        let r = load::run(&spec(h.addr(), 4, Stop::Requests(600))).unwrap();
        assert_eq!(r.requests, 600);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert!(r.reconnects >= 150, "{}", r.reconnects);
    }

    #[test]
    fn timed_constant_rate_corrects_for_coordinated_omission() {
        // Every 10th request stalls its connection's worker for 50 ms.
        let n = Arc::new(AtomicU64::new(0));
        let h = start(
            Arc::new(move |_| {
                if n.fetch_add(1, Ordering::Relaxed) % 10 == 9 {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Response::ok(&b"ok"[..])
            }),
            4,
        );
        let mut s = spec(h.addr(), 10, Stop::Duration(Duration::from_secs(2)));
        s.rate = Some(200.0);
        let t = Instant::now();
        let r = load::run(&s).unwrap();
        assert!(t.elapsed() < NO_HANG, "{:?}", t.elapsed());
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        // 200 req/s for 2 s.
        assert!((380..=420).contains(&r.requests), "{}", r.requests);
        assert!((r.rps - 200.0).abs() < 10.0, "{}", r.rps);
        assert!(r.latency.p99 >= 50_000_000, "p99 {} ns", r.latency.p99);
        assert!(r.latency.p50 < 50_000_000, "p50 {} ns", r.latency.p50);
    }

    #[test]
    fn timed_constant_rate_charges_queueing_to_the_server() {
        // One connection at 100 req/s (10 ms apart) against a server taking 30 ms: requests
        // fall further and further behind, and latency from the intended send time grows
        // well past the 30 ms service time (wrk2's coordinated-omission correction).
        let h = start(
            Arc::new(|_| {
                std::thread::sleep(Duration::from_millis(30));
                Response::ok(&b"ok"[..])
            }),
            2,
        );
        let mut s = spec(h.addr(), 1, Stop::Duration(Duration::from_secs(1)));
        s.threads = 1;
        s.rate = Some(100.0);
        let r = load::run(&s).unwrap();
        assert!((25..=40).contains(&r.requests), "{}", r.requests);
        assert!(r.latency.max > 300_000_000, "max {} ns", r.latency.max);
        assert!(
            r.latency.min >= 30_000_000 && r.latency.min < 40_000_000,
            "min {}",
            r.latency.min
        );
        // Uncorrected, each request took its 30 ms of service: what a closed-loop tool
        // would report, and what the correction exists to expose.
        let raw = r.uncorrected_latency().expect("a constant rate keeps both");
        assert!(
            raw.max < 40_000_000 && raw.p50 >= 30_000_000,
            "uncorrected {raw:?}"
        );
        assert!(r.latency.p99 > 5 * raw.p99, "{:?} vs {raw:?}", r.latency);
        // It started ~33 of the 100 requests due: the server's fault, not the generator's.
        assert!(r.sent_rps() < 45.0, "{}", r.sent_rps());
        assert!(
            !r.generator_bound(100.0),
            "capacity {:?}",
            r.generator_capacity()
        );
    }

    #[test]
    fn timed_a_rate_beyond_the_generator_is_reported_as_its_limit() {
        let h = start(Arc::new(|_| Response::ok(&b"ok"[..])), 1);
        // Within reach: 300 req/s from one generator thread.
        let mut s = spec(h.addr(), 32, Stop::Duration(Duration::from_millis(1500)));
        s.threads = 1;
        s.rate = Some(300.0);
        let r = load::run(&s).unwrap();
        let capacity = r
            .generator_capacity()
            .expect("thread CPU clocks are readable");
        assert!(capacity > 3000.0, "capacity {capacity}");
        assert!((r.sent_rps() - 300.0).abs() < 15.0, "{}", r.sent_rps());
        assert!(!r.generator_bound(300.0));
        // Out of reach: 5 M req/s from one thread. It sends what it can and says that the
        // rate is beyond it, rather than blaming the server.
        s.rate = Some(5e6);
        s.connections = 128;
        let r = load::run(&s).unwrap();
        let capacity = r.generator_capacity().unwrap();
        assert!(r.sent_rps() < 0.95 * 5e6, "{}", r.sent_rps());
        assert!(capacity < 4.5e6, "capacity {capacity}");
        assert!(r.generator_bound(5e6));
        // Closed loop keeps no uncorrected copy: there is nothing to correct.
        let closed = load::run(&spec(
            h.addr(),
            2,
            Stop::Duration(Duration::from_millis(300)),
        ))
        .unwrap();
        assert!(closed.uncorrected.is_none());
    }

    #[test]
    fn status_errors_are_classified() {
        let n = Arc::new(AtomicU64::new(0));
        let h = start(
            Arc::new(move |_| match n.fetch_add(1, Ordering::Relaxed) % 3 {
                0 => Response::error(503),
                1 => Response::error(404),
                _ => Response::ok(&b"ok"[..]),
            }),
            2,
        );
        let r = load::run(&spec(h.addr(), 1, Stop::Requests(300))).unwrap();
        assert_eq!(r.requests, 100);
        assert_eq!(r.errors["status_5xx"], 100);
        assert_eq!(r.errors["status_4xx"], 100);
        assert_eq!(r.statuses[&503] + r.statuses[&404] + r.statuses[&200], 300);
    }

    #[test]
    fn post_body_and_chunked_responses() {
        // A raw server answering with a chunked echo of fixed text, split in two writes.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { return };
                std::thread::spawn(move || {
                    let mut buf = [0u8; 4096];
                    let mut pending = Vec::new();
                    loop {
                        match s.read(&mut buf) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => pending.extend_from_slice(&buf[..n]),
                        }
                        // Request: head + "hello" body (Content-Length: 5).
                        while let Some(p) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
                            if pending.len() < p + 4 + 5 {
                                break;
                            }
                            assert!(pending.starts_with(b"POST /up HTTP/1.1\r\n"));
                            assert_eq!(&pending[p + 4..p + 9], b"hello");
                            pending.drain(..p + 9);
                            let _ = s.write_all(
                                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel",
                            );
                            std::thread::sleep(Duration::from_millis(2));
                            let _ = s.write_all(b"\r\n2\r\nlo\r\n0\r\n\r\n");
                        }
                    }
                });
            }
        });
        let mut s = spec(addr, 2, Stop::Requests(50));
        s.method = "POST".into();
        s.path = "/up".into();
        s.body = b"hello".to_vec();
        s.expect_body = Some(b"hello".to_vec());
        let r = load::run(&s).unwrap();
        assert_eq!(r.requests, 50, "{:?}", r.errors);
        assert!(
            r.latency.p50 >= 2_000_000,
            "split response waited for: {}",
            r.latency.p50
        );
    }

    #[test]
    fn silent_server_times_out_within_bounds() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        // Accepts (via the backlog) and never answers.
        let mut s = spec(addr, 2, Stop::Duration(Duration::from_millis(800)));
        s.request_timeout = Duration::from_millis(200);
        let t = Instant::now();
        let r = load::run(&s).unwrap();
        assert!(t.elapsed() < NO_HANG, "{:?}", t.elapsed());
        assert_eq!(r.requests, 0);
        assert!(r.errors["timeout"] >= 4, "{:?}", r.errors);

        // A requests stop against it ends at max_time.
        let mut s = spec(addr, 2, Stop::Requests(10));
        s.request_timeout = Duration::from_secs(30);
        s.max_time = Duration::from_millis(500);
        let t = Instant::now();
        let r = load::run(&s).unwrap();
        assert!(t.elapsed() < NO_HANG, "{:?}", t.elapsed());
        assert_eq!(r.requests, 0);
        assert_eq!(r.errors["timeout"], 2);
        drop(listener);
    }

    #[test]
    fn non_loopback_address_is_refused() {
        for a in [
            "10.1.2.3:80",
            "8.8.8.8:53",
            "[2001:db8::1]:80",
            "0.0.0.0:80",
        ] {
            let err = load::run(&LoadSpec::new(a.parse().unwrap())).unwrap_err();
            assert!(matches!(err, LoadError::NotLoopback(_)), "{a}: {err}");
            assert_eq!(
                err.to_string(),
                format!("refusing to load {a}: only loopback addresses are allowed")
            );
        }
    }

    #[test]
    fn connect_refused_is_a_clear_error() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let t = Instant::now();
        let err = load::run(&spec(addr, 4, Stop::Duration(Duration::from_secs(5)))).unwrap_err();
        // Refused at once, not after the 5 s of load.
        assert!(t.elapsed() < Duration::from_secs(4));
        assert_eq!(
            err.to_string(),
            format!("connect to 127.0.0.1:{port} failed: connection refused")
        );
    }

    #[test]
    fn invalid_specs_are_refused() {
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        type Edit = Box<dyn Fn(&mut LoadSpec)>;
        let cases: Vec<(Edit, &str)> = vec![
            (Box::new(|s| s.connections = 0), "connections"),
            (Box::new(|s| s.threads = 0), "threads"),
            (Box::new(|s| s.rate = Some(0.0)), "rate"),
            (Box::new(|s| s.rate = Some(f64::NAN)), "rate"),
            (Box::new(|s| s.method = "GE T".into()), "method"),
            (Box::new(|s| s.path = "no-slash".into()), "path"),
            (Box::new(|s| s.stop = Stop::Requests(0)), "count"),
            (
                Box::new(|s| s.stop = Stop::Duration(Duration::ZERO)),
                "duration",
            ),
        ];
        for (edit, word) in cases {
            let mut s = LoadSpec::new(addr);
            edit(&mut s);
            let e = load::run(&s).unwrap_err();
            assert!(
                matches!(e, LoadError::InvalidSpec(_)) && e.to_string().contains(word),
                "{e}"
            );
        }
    }
}
