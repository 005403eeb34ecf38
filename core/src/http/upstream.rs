//! Blocking HTTP/1.1 exchanges for the few places that need one request at a time: the
//! gateway's call to its upstream (kept-alive connections reused from a small pool),
//! readiness polls and answer checks.

use super::codec::{Request, Response, ResponseParser, write_request};
use super::server::{Handler, ServerOptions};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use std::time::Duration;

/// Largest response head accepted.
const MAX_HEAD: usize = 64 << 10;

/// Sends one request on `stream` and reads its response: status, body, and whether the
/// connection may be reused.
pub(crate) fn exchange(
    stream: &mut TcpStream,
    method: &str,
    target: &str,
    body: &[u8],
) -> Result<(u16, Vec<u8>, bool), String> {
    let host = stream
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| "localhost".into());
    let mut req = Vec::with_capacity(128 + body.len());
    write_request(&mut req, method, target, &host, body);
    stream.write_all(&req).map_err(|e| format!("send: {e}"))?;
    let mut parser = ResponseParser::new(MAX_HEAD);
    parser.reset(method == "HEAD");
    let (mut buf, mut out) = (Vec::with_capacity(4096), Vec::new());
    let mut chunk = [0u8; 16 << 10];
    loop {
        let p = parser
            .parse(&buf, &mut |b: &[u8]| out.extend_from_slice(b))
            .map_err(|e| format!("bad response: {e}"))?;
        buf.drain(..p.consumed);
        if p.complete {
            return Ok((parser.status(), out, parser.keep_alive()));
        }
        let n = stream
            .read(&mut chunk)
            .map_err(|e| format!("receive: {e}"))?;
        if n == 0 {
            if parser.finish_at_eof() {
                return Ok((parser.status(), out, false));
            }
            return Err("connection closed before the response ended".into());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// One request over a fresh connection; status and body.
pub(crate) fn request_once(
    addr: SocketAddr,
    method: &str,
    target: &str,
    body: &[u8],
    timeout: Duration,
) -> Result<(u16, Vec<u8>), String> {
    let mut s = TcpStream::connect_timeout(&addr, timeout).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    s.set_nodelay(true).map_err(|e| e.to_string())?;
    exchange(&mut s, method, target, body).map(|(status, body, _)| (status, body))
}

/// The upstream server of the `proxy` workload, with idle connections kept for reuse.
pub(crate) struct Upstream {
    addr: SocketAddr,
    idle: Mutex<Vec<TcpStream>>,
}

impl Upstream {
    pub(crate) fn new(addr: SocketAddr) -> Upstream {
        Upstream {
            addr,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// POSTs `body` to `path`; status and body of the answer.
    pub(crate) fn post(&self, path: &str, body: &[u8]) -> Result<(u16, Vec<u8>), String> {
        let kept = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let mut stream = match kept {
            Some(s) => s,
            None => {
                let s = TcpStream::connect(self.addr)
                    .map_err(|e| format!("upstream {}: {e}", self.addr))?;
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                s.set_read_timeout(Some(Duration::from_secs(10)))
                    .map_err(|e| e.to_string())?;
                s
            }
        };
        let (status, out, keep) = exchange(&mut stream, "POST", path, body)
            .map_err(|e| format!("upstream {}: {e}", self.addr))?;
        if keep {
            self.idle
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(stream);
        }
        Ok((status, out))
    }
}

/// The upstream of the `proxy` workload: answers every request with its body.
pub(crate) fn echo() -> Handler {
    std::sync::Arc::new(|req: &Request| Response::ok(req.body().to_vec()))
}

/// One worker: the upstream is not what is measured.
pub(crate) fn echo_options() -> ServerOptions {
    ServerOptions {
        workers: 1,
        ..ServerOptions::default()
    }
}

/// What `wasmeter serve-echo` reads on stdin.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct EchoSpec {
    /// Loopback port to listen on.
    pub(crate) port: u16,
}

/// Entry point of `wasmeter serve-echo`: the `proxy` upstream as a process of its own (the
/// container variant's sidecar), on 127.0.0.1 at the port its spec names, until killed.
/// Errors go to stderr as one line; returns the exit code.
pub(crate) fn echo_main(input: impl Read) -> i32 {
    let spec: EchoSpec = match crate::runner::read_spec(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter serve-echo: bad spec on stdin: {e}");
            return 2;
        }
    };
    let server = std::net::TcpListener::bind(("127.0.0.1", spec.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", spec.port))
        .and_then(|l| {
            super::server::spawn(l, echo(), echo_options())
                .map_err(|e| format!("cannot start the server: {e}"))
        });
    match server {
        Ok(server) => loop {
            std::thread::park();
            let _ = &server;
        },
        Err(e) => {
            eprintln!("wasmeter serve-echo: {e}");
            2
        }
    }
}
