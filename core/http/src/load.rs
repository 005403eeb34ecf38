//! HTTP/1.1 load generator: keep-alive connections, closed-loop or constant-rate, with
//! latencies in an HdrHistogram.
//!
//! The HTTP suite measures servers (native, embedded wasm, CLI per request) with this
//! instead of an external tool, so it has to stay out of the way: like wrk it runs one
//! event loop per thread (a current-thread tokio runtime each) with the connections split
//! between them, sends the same pre-built request bytes every time, parses responses in
//! place without copying bodies, and records into one histogram per thread that are
//! merged at the end.
//!
//! Two modes:
//! - **closed loop** (`rate: None`): each connection sends its next request as soon as the
//!   previous response is in; latency runs from the write to the end of the response.
//!   Requests still in flight when a [`Stop::Duration`] ends are dropped (neither counted
//!   nor errors), as in wrk.
//! - **constant rate** (`rate: Some(r)`): `r` requests/s in total, spread evenly over the
//!   connections, with coordinated-omission correction as in wrk2: when a connection is
//!   behind schedule (the previous response came late), the request's latency runs from
//!   the time it *should* have been sent, so a stalled server shows up in the tail instead
//!   of silently lowering the rate. When the connection is on time the latency runs from
//!   the actual write, so the timer's own millisecond granularity is not charged to the
//!   server. After a [`Stop::Duration`] ends no new request starts (not even one that is
//!   behind schedule); requests in flight get up to `request_timeout` to finish and are
//!   counted.
//!
//! Every run is bounded: a duration stop ends by warm-up + duration + request timeout,
//! and a [`Stop::Requests`] run ends by warm-up + [`LoadSpec::max_time`]. Only loopback
//! addresses are accepted, so tests and benchmarks never send traffic off the machine.

use std::collections::BTreeMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::codec::{ParseError, ResponseParser, write_request};

/// What to load, how hard and for how long.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadSpec {
    /// Server address; must be a loopback address.
    pub addr: SocketAddr,
    /// Request target, e.g. `/` or `/echo?x=1`.
    pub path: String,
    /// Request method (`GET` by default).
    pub method: String,
    /// Request body, sent with a `Content-Length` (empty: no body).
    pub body: Vec<u8>,
    /// Number of keep-alive connections (at least 1).
    pub connections: usize,
    /// When the measured phase ends.
    pub stop: Stop,
    /// Time spent loading before measuring, so caches, JITs and pools are warm.
    pub warmup: Duration,
    /// Total requests per second for constant-rate mode; `None` for closed loop.
    pub rate: Option<f64>,
    /// Longest wait for one response (and for one connect); a late one is a `timeout`.
    pub request_timeout: Duration,
    /// Event-loop threads (at least 1, at most `connections`).
    pub threads: usize,
    /// When set, a 2xx/3xx response whose body differs is counted as a `body` error.
    pub expect_body: Option<Vec<u8>>,
    /// Upper bound on the measured phase: a duration stop is cut to it, and a requests
    /// stop gives up after it, so no run can hang.
    pub max_time: Duration,
}

impl LoadSpec {
    /// A closed-loop `GET /` spec: 50 connections, 2 threads, 10 s, no warm-up,
    /// 5 s request timeout, 10 min overall cap.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            path: "/".into(),
            method: "GET".into(),
            body: Vec::new(),
            connections: 50,
            stop: Stop::Duration(Duration::from_secs(10)),
            warmup: Duration::ZERO,
            rate: None,
            request_timeout: Duration::from_secs(5),
            threads: 2,
            expect_body: None,
            max_time: Duration::from_secs(600),
        }
    }
}

/// When a run's measured phase ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// After this long (not counting warm-up).
    Duration(Duration),
    /// After exactly this many requests have been sent (not counting warm-up).
    Requests(u64),
}

/// Latency summary of the successful requests, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Latency {
    /// Fastest response.
    pub min: u64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Slowest response.
    pub max: u64,
}

impl Latency {
    /// Summarises a histogram of nanoseconds (all zero when it is empty).
    pub fn from_histogram(h: &Histogram<u64>) -> Self {
        if h.is_empty() {
            return Self::default();
        }
        Self {
            min: h.min(),
            mean: h.mean(),
            p50: h.value_at_quantile(0.5),
            p90: h.value_at_quantile(0.9),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
        }
    }
}

/// What a run measured (after warm-up only).
#[derive(Debug, Clone)]
pub struct LoadReport {
    /// Successful responses (2xx/3xx with the expected body, if any).
    pub requests: u64,
    /// Length of the measured phase: the duration, or for a requests stop the time until
    /// the last response.
    pub elapsed: Duration,
    /// `requests / elapsed`.
    pub rps: f64,
    /// Latency of the successful requests.
    pub latency: Latency,
    /// Failed requests by kind: `connect`, `timeout`, `io`, `parse`, `status_5xx`,
    /// `status_4xx`, `body`, `closed` (the server closed the connection before the whole
    /// response). Kinds that did not occur are absent.
    pub errors: BTreeMap<String, u64>,
    /// Responses by status code, successful or not.
    pub statuses: BTreeMap<u16, u64>,
    /// Bytes received in responses.
    pub bytes_read: u64,
    /// Connections opened again after the server closed one or after an error.
    pub reconnects: u64,
    /// Latencies of the successful requests, in nanoseconds (3 significant digits);
    /// at a constant rate corrected for coordinated omission.
    pub histogram: Histogram<u64>,
    /// Constant rate only: the same requests timed from their actual write, without the
    /// correction (what a closed-loop tool would have reported).
    pub uncorrected: Option<Histogram<u64>>,
    /// Requests started in the measured phase (at a constant rate, what was offered).
    pub sent: u64,
    /// Constant rate only: requests due in the measured phase that were never started,
    /// because their connection was still waiting on the server when the phase ended.
    /// Far past capacity this, not the latency of the few that were sent, is the news.
    pub unsent: u64,
    /// CPU time the load threads used over the measured phase (`None` where the threads'
    /// clocks cannot be read).
    pub generator_cpu: Option<Duration>,
    /// Load threads.
    pub generator_threads: usize,
}

impl LoadReport {
    /// The uncorrected latency summary (constant rate only).
    pub fn uncorrected_latency(&self) -> Option<Latency> {
        self.uncorrected.as_ref().map(Latency::from_histogram)
    }

    /// Requests started per second in the measured phase.
    pub fn sent_rps(&self) -> f64 {
        if self.elapsed.is_zero() {
            0.0
        } else {
            self.sent as f64 / self.elapsed.as_secs_f64()
        }
    }

    /// Requests per second the load threads could start with a core each, from the CPU
    /// they spent per request started. CPU time, not wall time, so a generator starved by
    /// other work still knows its own cost.
    pub fn generator_capacity(&self) -> Option<f64> {
        let cpu = self.generator_cpu?.as_secs_f64();
        (cpu > 0.0 && self.sent > 0).then(|| self.generator_threads as f64 * self.sent as f64 / cpu)
    }

    /// At a constant `rate`: the load generator, not the server, fell short of it — it
    /// started fewer than 95 % of the requests due, and the rate needs at least 90 % of
    /// what its threads can offer. The level then says nothing about the server.
    pub fn generator_bound(&self, rate: f64) -> bool {
        self.sent_rps() < 0.95 * rate && self.generator_capacity().is_some_and(|c| rate >= 0.9 * c)
    }
}

/// Why a run could not take place at all. Per-request failures are not errors: they are
/// counted in [`LoadReport::errors`].
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The spec is inconsistent (no connections, zero rate, bad method or path, ...).
    #[error("invalid load spec: {0}")]
    InvalidSpec(String),
    /// The target is not a loopback address.
    #[error("refusing to load {0}: only loopback addresses are allowed")]
    NotLoopback(SocketAddr),
    /// No connection to the server could be opened.
    #[error("connect to {addr} failed: {reason}")]
    Connect {
        /// The target address.
        addr: SocketAddr,
        /// What the OS said, e.g. "connection refused".
        reason: String,
    },
    /// The runtime or its threads could not be created.
    #[error("cannot start the load generator: {0}")]
    Runtime(#[from] io::Error),
    /// A load thread panicked (a bug).
    #[error("a load generator thread panicked")]
    Panicked,
}

/// Kinds of failed requests, indexing the per-thread error counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ErrorKind {
    Connect,
    Timeout,
    Io,
    Parse,
    Status5xx,
    Status4xx,
    Body,
    Closed,
}

impl ErrorKind {
    const ALL: [Self; 8] = [
        Self::Connect,
        Self::Timeout,
        Self::Io,
        Self::Parse,
        Self::Status5xx,
        Self::Status4xx,
        Self::Body,
        Self::Closed,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Connect => "connect",
            Self::Timeout => "timeout",
            Self::Io => "io",
            Self::Parse => "parse",
            Self::Status5xx => "status_5xx",
            Self::Status4xx => "status_4xx",
            Self::Body => "body",
            Self::Closed => "closed",
        }
    }

    fn from_io(e: &io::Error) -> Self {
        match e.kind() {
            io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::UnexpectedEof => Self::Closed,
            _ => Self::Io,
        }
    }
}

/// Human form of an I/O error: "connection refused" rather than "... (os error 111)".
fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or_default();
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "unknown error".into(),
    }
}

/// Largest latency the histograms hold (longer ones are clamped): one hour.
const MAX_LATENCY_NS: u64 = 3_600_000_000_000;
/// Bytes read per `read` call; responses larger than this stream through.
const READ_BUF: usize = 16 * 1024;
/// Heads larger than this are a `parse` error.
const MAX_RESPONSE_HEAD: usize = 8 * 1024;

/// The edges of the measured phase, where [`run_observed`] lets its caller read counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Warm-up is over: requests from here on are counted.
    Start,
    /// Counting is over: a closed-loop duration run at the end of its duration (responses
    /// after it are not counted); any other run once its last request is done.
    End,
}

/// Runs the load described by `spec` and reports what it measured.
///
/// Builds `threads` current-thread tokio runtimes, one per OS thread, and blocks until the
/// run is over. Fails only when the run cannot start: invalid spec, non-loopback address,
/// or a server that refuses the first connection.
pub fn run(spec: &LoadSpec) -> Result<LoadReport, LoadError> {
    run_observed(spec, &mut |_| {})
}

/// [`run`], calling `at` on the caller's thread at each edge of the measured phase
/// ([`Window`]), so that what the caller reads there (the server's CPU time) covers the
/// same window as the report's requests — not the warm-up, whose requests are not counted.
pub fn run_observed(spec: &LoadSpec, at: &mut dyn FnMut(Window)) -> Result<LoadReport, LoadError> {
    validate(spec)?;
    let threads = spec.threads.min(spec.connections);

    // Fail fast with a clear message when nothing listens there.
    let probe_timeout = spec.request_timeout.min(Duration::from_secs(5));
    match std::net::TcpStream::connect_timeout(&spec.addr, probe_timeout) {
        Ok(s) => drop(s),
        Err(e) => {
            return Err(LoadError::Connect {
                addr: spec.addr,
                reason: describe(&e),
            });
        }
    }

    let runtimes = (0..threads)
        .map(|_| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
        })
        .collect::<io::Result<Vec<_>>>()?;

    let mut request = Vec::with_capacity(128 + spec.body.len());
    write_request(
        &mut request,
        &spec.method,
        &spec.path,
        &spec.addr.to_string(),
        &spec.body,
    );

    let begin = Instant::now();
    let measure_start = begin + spec.warmup;
    let (limit, end, hard_deadline) = match spec.stop {
        Stop::Duration(d) => {
            let end = measure_start + d.min(spec.max_time);
            let hard = if spec.rate.is_some() {
                end + spec.request_timeout
            } else {
                end
            };
            (None, end, hard)
        }
        Stop::Requests(n) => {
            let hard = measure_start + spec.max_time;
            (Some(n), hard, hard)
        }
    };
    let shared = Arc::new(Shared {
        addr: spec.addr,
        request,
        head_request: spec.method == "HEAD",
        expect_body: spec.expect_body.clone(),
        request_timeout: spec.request_timeout,
        interval: spec
            .rate
            .map(|r| Duration::from_secs_f64(spec.connections as f64 / r)),
        rate: spec.rate.unwrap_or(0.0),
        begin,
        measure_start,
        end,
        hard_deadline,
        limit,
        tickets: AtomicU64::new(0),
        connected: AtomicBool::new(false),
        last_connect_error: Mutex::new(None),
    });

    let mut handles = Vec::with_capacity(threads);
    for (t, rt) in runtimes.into_iter().enumerate() {
        let shared = shared.clone();
        let ids: Vec<usize> = (t..spec.connections).step_by(threads).collect();
        let handle = std::thread::Builder::new()
            .name(format!("wasmeter-load-{t}"))
            .spawn(move || thread_main(rt, shared, ids))?;
        handles.push(handle);
    }
    let sleep_until = |t: Instant| std::thread::sleep(t.saturating_duration_since(Instant::now()));
    sleep_until(measure_start);
    at(Window::Start);
    let ends_on_time = spec.rate.is_none() && limit.is_none();
    if ends_on_time {
        sleep_until(end);
        at(Window::End);
    }
    let mut total = Stats::new();
    let mut panicked = false;
    for h in handles {
        match h.join() {
            Ok(s) => total.merge(&s),
            Err(_) => panicked = true,
        }
    }
    if !ends_on_time {
        at(Window::End);
    }
    if panicked {
        return Err(LoadError::Panicked);
    }
    if !shared.connected.load(Ordering::Relaxed) {
        let reason = shared
            .last_connect_error
            .lock()
            .ok()
            .and_then(|g| g.clone())
            .unwrap_or_else(|| "no connection succeeded".into());
        return Err(LoadError::Connect {
            addr: spec.addr,
            reason,
        });
    }

    let elapsed = match spec.stop {
        Stop::Duration(_) => end - measure_start,
        Stop::Requests(_) => total.last_done.map_or(Duration::ZERO, |t| {
            t.saturating_duration_since(measure_start)
        }),
    };
    let rps = if elapsed.is_zero() {
        0.0
    } else {
        total.requests as f64 / elapsed.as_secs_f64()
    };
    let errors = ErrorKind::ALL
        .iter()
        .zip(total.errors)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (k.name().to_string(), n))
        .collect();
    let statuses = total
        .statuses
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(s, n)| (s as u16, *n))
        .collect();
    Ok(LoadReport {
        requests: total.requests,
        elapsed,
        rps,
        latency: Latency::from_histogram(&total.histogram),
        errors,
        statuses,
        bytes_read: total.bytes_read,
        reconnects: total.reconnects,
        histogram: total.histogram,
        uncorrected: spec.rate.is_some().then_some(total.uncorrected),
        sent: total.sent,
        unsent: total.unsent,
        generator_cpu: total.cpu_read.then(|| Duration::from_nanos(total.busy_ns)),
        generator_threads: threads,
    })
}

/// How many of the times `due`, `due + interval`, `due + 2 × interval`, … fall in
/// `[from, end)`: a connection's requests that were due in the measured phase.
fn dues_between(due: Instant, interval: Duration, from: Instant, end: Instant) -> u64 {
    let step = interval.as_nanos().max(1);
    let first = if due >= from {
        due
    } else {
        let behind = from.duration_since(due).as_nanos().div_ceil(step);
        due + Duration::from_nanos(u64::try_from(behind * step).unwrap_or(u64::MAX))
    };
    if first >= end {
        return 0;
    }
    u64::try_from(end.duration_since(first).as_nanos().div_ceil(step)).unwrap_or(u64::MAX)
}

/// Checks a spec before anything is started.
fn validate(spec: &LoadSpec) -> Result<(), LoadError> {
    let invalid = |m: &str| Err(LoadError::InvalidSpec(m.to_string()));
    let ip = match spec.addr.ip() {
        std::net::IpAddr::V6(v6) => v6.to_canonical(),
        ip => ip,
    };
    if !ip.is_loopback() {
        return Err(LoadError::NotLoopback(spec.addr));
    }
    if spec.connections == 0 {
        return invalid("connections must be at least 1");
    }
    if spec.threads == 0 {
        return invalid("threads must be at least 1");
    }
    let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if spec.method.is_empty() || !spec.method.bytes().all(tchar) {
        return invalid("method must be an HTTP token such as GET");
    }
    if !spec.path.starts_with('/') || !spec.path.bytes().all(|b| b > 0x20 && b < 0x7f) {
        return invalid("path must start with '/' and contain no spaces or control characters");
    }
    match spec.stop {
        Stop::Duration(d) if d.is_zero() => return invalid("duration must be positive"),
        Stop::Requests(0) => return invalid("request count must be positive"),
        _ => {}
    }
    if let Some(r) = spec.rate
        && !(r.is_finite() && r > 0.0)
    {
        return invalid("rate must be a positive number of requests per second");
    }
    if spec.request_timeout.is_zero() {
        return invalid("request timeout must be positive");
    }
    if spec.max_time.is_zero() {
        return invalid("max time must be positive");
    }
    Ok(())
}

/// State shared by all threads and connections of a run.
struct Shared {
    addr: SocketAddr,
    request: Vec<u8>,
    head_request: bool,
    expect_body: Option<Vec<u8>>,
    request_timeout: Duration,
    /// Per-connection send interval in constant-rate mode.
    interval: Option<Duration>,
    /// Total rate, to stagger the connections' schedules.
    rate: f64,
    begin: Instant,
    measure_start: Instant,
    /// No request starts at or after this instant.
    end: Instant,
    /// Nothing waits past this instant.
    hard_deadline: Instant,
    /// Number of measured requests to send for a requests stop.
    limit: Option<u64>,
    tickets: AtomicU64,
    connected: AtomicBool,
    last_connect_error: Mutex<Option<String>>,
}

/// Counters of one thread, merged into the report at the end.
struct Stats {
    requests: u64,
    errors: [u64; ErrorKind::ALL.len()],
    statuses: Vec<u64>,
    bytes_read: u64,
    reconnects: u64,
    last_done: Option<Instant>,
    histogram: Histogram<u64>,
    uncorrected: Histogram<u64>,
    sent: u64,
    unsent: u64,
    /// The thread's CPU time over the measured phase, ns, and whether it could be read.
    busy_ns: u64,
    cpu_read: bool,
}

impl Stats {
    fn new() -> Self {
        Self {
            requests: 0,
            errors: [0; ErrorKind::ALL.len()],
            statuses: vec![0; 1000],
            bytes_read: 0,
            reconnects: 0,
            last_done: None,
            histogram: latency_histogram(),
            uncorrected: latency_histogram(),
            sent: 0,
            unsent: 0,
            busy_ns: 0,
            cpu_read: false,
        }
    }

    fn error(&mut self, kind: ErrorKind) {
        self.errors[kind as usize] += 1;
    }

    fn merge(&mut self, o: &Self) {
        self.requests += o.requests;
        for (a, b) in self.errors.iter_mut().zip(o.errors) {
            *a += b;
        }
        for (a, b) in self.statuses.iter_mut().zip(&o.statuses) {
            *a += b;
        }
        self.bytes_read += o.bytes_read;
        self.reconnects += o.reconnects;
        self.last_done = self.last_done.max(o.last_done);
        // Same bounds on both sides, so adding cannot fail.
        let _ = self.histogram.add(&o.histogram);
        let _ = self.uncorrected.add(&o.uncorrected);
        self.sent += o.sent;
        self.unsent += o.unsent;
        self.busy_ns += o.busy_ns;
        self.cpu_read |= o.cpu_read;
    }
}

/// An empty histogram of latencies in ns, 1 ns to [`MAX_LATENCY_NS`], 3 significant digits.
pub fn latency_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3).expect("static histogram bounds are valid")
}

/// One load thread: its connections as tasks on a current-thread runtime.
fn thread_main(rt: tokio::runtime::Runtime, shared: Arc<Shared>, ids: Vec<usize>) -> Stats {
    let stats = std::rc::Rc::new(std::cell::RefCell::new(Stats::new()));
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, async {
        // The CPU this thread spends from the start of the measured phase to its last
        // response, read on the thread itself.
        let start = std::rc::Rc::new(std::cell::Cell::new(None));
        let busy = {
            let (start, at) = (start.clone(), shared.measure_start);
            tokio::task::spawn_local(async move {
                tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await;
                start.set(crate::cpu::thread_ns());
            })
        };
        let tasks: Vec<_> = ids
            .into_iter()
            .map(|id| tokio::task::spawn_local(connection(id, shared.clone(), stats.clone())))
            .collect();
        let all = async {
            for t in tasks {
                let _ = t.await;
            }
        };
        // Every wait inside a connection is bounded by the hard deadline; this is a net.
        let net = tokio::time::Instant::from_std(shared.hard_deadline + Duration::from_secs(1));
        let _ = tokio::time::timeout_at(net, all).await;
        busy.abort();
        if let (Some(c0), Some(c1)) = (start.get(), crate::cpu::thread_ns()) {
            let mut st = stats.borrow_mut();
            st.busy_ns = c1.saturating_sub(c0);
            st.cpu_read = true;
        }
    });
    drop(local);
    drop(rt);
    std::rc::Rc::try_unwrap(stats)
        .map(std::cell::RefCell::into_inner)
        .unwrap_or_else(|rc| {
            let s = rc.borrow();
            let mut copy = Stats::new();
            copy.merge(&s);
            copy
        })
}

/// Read buffer of a connection: bytes `start..end` of `buf` are unparsed.
struct ReadBuf {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

/// A response as the load generator sees it.
struct Reply {
    status: u16,
    keep_alive: bool,
    body_ok: bool,
    /// Bytes beyond the response arrived (not expected without pipelining).
    trailing_garbage: bool,
}

/// Writes the request and reads one whole response.
async fn exchange(
    stream: &mut TcpStream,
    shared: &Shared,
    rb: &mut ReadBuf,
    parser: &mut ResponseParser,
    bytes: &mut u64,
) -> Result<Reply, ErrorKind> {
    stream
        .write_all(&shared.request)
        .await
        .map_err(|e| ErrorKind::from_io(&e))?;
    parser.reset(shared.head_request);
    let expect = shared.expect_body.as_deref();
    let mut body_pos = 0usize;
    let mut body_ok = true;
    let mut on_body = |chunk: &[u8]| {
        if let Some(exp) = expect {
            let to = body_pos + chunk.len();
            if body_ok && (to > exp.len() || exp[body_pos..to] != *chunk) {
                body_ok = false;
            }
        }
        body_pos += chunk.len();
    };
    loop {
        if rb.start < rb.end {
            let p = parser
                .parse(&rb.buf[rb.start..rb.end], &mut on_body)
                .map_err(|_: ParseError| ErrorKind::Parse)?;
            rb.start += p.consumed;
            if p.complete {
                break;
            }
        }
        if rb.start == rb.end {
            rb.start = 0;
            rb.end = 0;
        } else if rb.end == rb.buf.len() {
            // Only an unfinished head or chunk line is left: move it to the front.
            rb.buf.copy_within(rb.start..rb.end, 0);
            rb.end -= rb.start;
            rb.start = 0;
            if rb.end == rb.buf.len() {
                return Err(ErrorKind::Parse);
            }
        }
        let n = stream
            .read(&mut rb.buf[rb.end..])
            .await
            .map_err(|e| ErrorKind::from_io(&e))?;
        if n == 0 {
            if parser.finish_at_eof() {
                break;
            }
            return Err(ErrorKind::Closed);
        }
        rb.end += n;
        *bytes += n as u64;
    }
    if let Some(exp) = expect {
        body_ok &= body_pos == exp.len();
    }
    let trailing_garbage = rb.start < rb.end;
    rb.start = 0;
    rb.end = 0;
    Ok(Reply {
        status: parser.status(),
        keep_alive: parser.keep_alive(),
        body_ok,
        trailing_garbage,
    })
}

/// Opens a connection with `TCP_NODELAY`, bounded by `deadline`.
async fn connect(addr: SocketAddr, deadline: Instant) -> io::Result<TcpStream> {
    let at = tokio::time::Instant::from_std(deadline);
    match tokio::time::timeout_at(at, TcpStream::connect(addr)).await {
        Ok(Ok(s)) => {
            s.set_nodelay(true)?;
            Ok(s)
        }
        Ok(Err(e)) => Err(e),
        Err(_) => Err(io::Error::new(io::ErrorKind::TimedOut, "connect timed out")),
    }
}

/// One connection's loop: connect, send, read, record, until the stop condition.
async fn connection(id: usize, shared: Arc<Shared>, stats: std::rc::Rc<std::cell::RefCell<Stats>>) {
    let mut stream: Option<TcpStream> = None;
    let mut opened_before = false;
    let mut connect_failures = 0u32;
    let mut rb = ReadBuf {
        buf: vec![0u8; READ_BUF],
        start: 0,
        end: 0,
    };
    let mut parser = ResponseParser::new(MAX_RESPONSE_HEAD);
    // Constant rate: connection `id` starts `id / rate` seconds in, then every interval.
    let mut next = shared
        .interval
        .map(|_| shared.begin + Duration::from_secs_f64(id as f64 / shared.rate));
    // A closed-loop duration run drops in-flight requests at `end`; other runs let them
    // finish until their own timeout, within the hard deadline.
    let cut_at_end = shared.interval.is_none() && shared.limit.is_none();
    // One timer per connection, moved forward for each request: pushing a registered
    // deadline later is cheap in tokio, while a new `timeout` per request costs a timer
    // registration and removal every time.
    let timer = tokio::time::sleep_until(tokio::time::Instant::from_std(shared.hard_deadline));
    tokio::pin!(timer);

    loop {
        // 1. When is the next request due, and is the run over?
        let mut now = Instant::now();
        let behind = match (next, shared.interval) {
            (Some(due), Some(interval)) => {
                // Nothing starts after the end, even requests that are behind schedule;
                // those that were due in the measured phase are counted as never sent.
                if due >= shared.end || now >= shared.end {
                    stats.borrow_mut().unsent +=
                        dues_between(due, interval, shared.measure_start, shared.end);
                    break;
                }
                if now < due {
                    tokio::time::sleep_until(tokio::time::Instant::from_std(due)).await;
                    now = Instant::now();
                    false
                } else {
                    true
                }
            }
            _ => {
                if now >= shared.end {
                    break;
                }
                false
            }
        };
        let intended = if behind { next.unwrap_or(now) } else { now };
        let measured = intended >= shared.measure_start;

        // 2. Connect if needed (not part of the latency unless we are behind schedule).
        if stream.is_none() {
            let deadline = (now + shared.request_timeout).min(shared.hard_deadline);
            match connect(shared.addr, deadline).await {
                Ok(s) => {
                    shared.connected.store(true, Ordering::Relaxed);
                    if opened_before {
                        stats.borrow_mut().reconnects += 1;
                    }
                    opened_before = true;
                    connect_failures = 0;
                    stream = Some(s);
                }
                Err(e) => {
                    if measured {
                        stats.borrow_mut().error(ErrorKind::Connect);
                    }
                    if let Ok(mut g) = shared.last_connect_error.lock() {
                        *g = Some(describe(&e));
                    }
                    // Back off 10, 20, 40, 80, 160 ms, but not past the end.
                    let pause = Duration::from_millis(10 << connect_failures.min(4));
                    connect_failures += 1;
                    let until = (Instant::now() + pause).min(shared.end);
                    tokio::time::sleep_until(tokio::time::Instant::from_std(until)).await;
                    if let (Some(n), Some(i)) = (next.as_mut(), shared.interval) {
                        *n += i;
                    }
                    continue;
                }
            }
        }
        let Some(s) = stream.as_mut() else { continue };

        // 3. A requests stop hands out exactly `limit` measured requests.
        if measured
            && let Some(limit) = shared.limit
            && shared.tickets.fetch_add(1, Ordering::Relaxed) >= limit
        {
            break;
        }

        // 4. Send and wait for the response.
        if measured {
            stats.borrow_mut().sent += 1;
        }
        let sent = Instant::now();
        let start = if behind { intended } else { sent };
        let request_deadline = sent + shared.request_timeout;
        let cut = if cut_at_end {
            shared.end
        } else {
            shared.hard_deadline
        };
        let deadline = request_deadline.min(cut);
        let mut bytes = 0u64;
        timer
            .as_mut()
            .reset(tokio::time::Instant::from_std(deadline));
        let outcome = tokio::select! {
            biased;
            r = exchange(s, &shared, &mut rb, &mut parser, &mut bytes) => Ok(r),
            () = &mut timer => Err(()),
        };
        let done = Instant::now();
        // Closed loop for a duration: a response counts when it completes inside the
        // measured window, as in wrk, so a server whose queue is longer than the window
        // still shows its rate (and latencies that include the queueing).
        let measured = if shared.interval.is_none() && shared.limit.is_none() {
            done >= shared.measure_start
        } else {
            measured
        };
        let result = match outcome {
            Ok(r) => r,
            Err(_) if cut_at_end && deadline < request_deadline => {
                // The run ended with this request in flight: not counted at all.
                break;
            }
            Err(_) => Err(ErrorKind::Timeout),
        };

        // 5. Record.
        let mut st = stats.borrow_mut();
        if measured {
            st.bytes_read += bytes;
        }
        match result {
            Ok(reply) => {
                if measured {
                    st.statuses[usize::from(reply.status).min(999)] += 1;
                    if reply.status >= 500 {
                        st.error(ErrorKind::Status5xx);
                    } else if reply.status >= 400 {
                        st.error(ErrorKind::Status4xx);
                    } else if !reply.body_ok {
                        st.error(ErrorKind::Body);
                    } else {
                        st.requests += 1;
                        let ns = u64::try_from(done.duration_since(start).as_nanos())
                            .unwrap_or(u64::MAX);
                        st.histogram.saturating_record(ns.max(1));
                        if shared.interval.is_some() {
                            let raw = u64::try_from(done.duration_since(sent).as_nanos())
                                .unwrap_or(u64::MAX);
                            st.uncorrected.saturating_record(raw.max(1));
                        }
                        st.last_done = Some(done);
                    }
                    if reply.trailing_garbage {
                        st.error(ErrorKind::Parse);
                    }
                }
                if !reply.keep_alive || reply.trailing_garbage {
                    stream = None;
                }
            }
            Err(kind) => {
                if measured {
                    st.error(kind);
                    st.last_done = Some(done);
                }
                stream = None;
                rb.start = 0;
                rb.end = 0;
            }
        }
        drop(st);
        if let (Some(n), Some(i)) = (next.as_mut(), shared.interval) {
            *n += i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dues_in_the_measured_phase_are_counted() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        // Due every 10 ms from 0; measured from 25 ms to 100 ms: 30, 40, …, 90.
        assert_eq!(dues_between(t0, ms(10), t0 + ms(25), t0 + ms(100)), 7);
        // From a due time inside the window: 50, 60, …, 90.
        assert_eq!(
            dues_between(t0 + ms(50), ms(10), t0 + ms(25), t0 + ms(100)),
            5
        );
        // Exactly on the window's start, and one at the end excluded: 20, …, 90.
        assert_eq!(dues_between(t0, ms(10), t0 + ms(20), t0 + ms(100)), 8);
        // Due at or past the end: none.
        assert_eq!(dues_between(t0 + ms(100), ms(10), t0, t0 + ms(100)), 0);
        assert_eq!(
            dues_between(t0 + ms(95), ms(10), t0 + ms(96), t0 + ms(100)),
            0
        );
    }
}
