//! Blocking HTTP/1.1 exchanges for the few places that need one request at a time: a
//! gateway's call to its upstream (kept-alive connections reused from a small pool),
//! readiness polls and answer checks.

use crate::codec::{ResponseParser, write_request};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Mutex;
use std::time::Duration;

/// Largest response head accepted.
const MAX_HEAD: usize = 64 << 10;

/// Sends one request on `stream` and reads its response: status, body, and whether the
/// connection may be reused.
pub fn exchange(
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
pub fn request_once(
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
pub struct Upstream {
    addr: SocketAddr,
    idle: Mutex<Vec<TcpStream>>,
}

impl Upstream {
    /// An upstream at `addr`, no connection open yet.
    pub fn new(addr: SocketAddr) -> Upstream {
        Upstream {
            addr,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// POSTs `body` to `path`; status and body of the answer.
    pub fn post(&self, path: &str, body: &[u8]) -> Result<(u16, Vec<u8>), String> {
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
