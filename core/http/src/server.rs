//! A tiny keep-alive HTTP/1.1 server on tokio that calls a synchronous handler.
//!
//! The HTTP suite needs servers it controls: the native gateway, the embedded-wasm
//! gateway, an in-process upstream "echo" server, and servers for tests. They all share
//! this loop: accept, set `TCP_NODELAY`, parse requests with [`crate::codec`], call
//! the [`Handler`] inline (handlers are CPU-bound and short, ~1 ms at most), write the
//! response, and keep the connection open until the client closes it or asks to.
//! Pipelined requests are answered in order with one write per batch.
//!
//! [`serve`] runs on the caller's tokio runtime until a shutdown signal; [`spawn`] and
//! [`spawn_local`] run it on a background thread with its own runtime and return a
//! [`ServerHandle`] that knows the bound address and stops the server.

use std::io;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::codec::{Limits, Request, RequestStatus, Response, parse_request, write_response};

/// The per-request callback. Synchronous on purpose: the handlers being benchmarked are
/// CPU work (native code or a wasm call), and running them inline avoids a thread hop.
pub type Handler = Arc<dyn Fn(&Request) -> Response + Send + Sync>;

/// How [`spawn`] runs a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerOptions {
    /// Number of tokio worker threads (at least 1). Two by default, to leave room for the
    /// load generator on small machines.
    pub workers: usize,
    /// Limits on request heads and bodies.
    pub limits: Limits,
}

impl Default for ServerOptions {
    /// Two workers and the default [`Limits`].
    fn default() -> Self {
        Self {
            workers: 2,
            limits: Limits::default(),
        }
    }
}

/// Size of a connection's read buffer before it grows for a large body.
const READ_CHUNK: usize = 8 * 1024;

/// Serves HTTP/1.1 on `listener` until `shutdown` turns true (or its sender is dropped).
///
/// Must be called inside a tokio runtime with I/O and time enabled. On shutdown it stops
/// accepting, drops every open connection and returns once their tasks have ended.
pub async fn serve(
    listener: std::net::TcpListener,
    handler: Handler,
    limits: Limits,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = TcpListener::from_std(listener)?;
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            biased;
            () = wait_for_shutdown(&mut shutdown) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    // Without NODELAY small responses wait for the peer's delayed ACK.
                    let _ = stream.set_nodelay(true);
                    connections.spawn(connection(stream, handler.clone(), limits));
                }
                // EMFILE, ECONNABORTED and the like: wait a little and go on accepting.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    connections.shutdown().await;
    Ok(())
}

/// Resolves when the watched value is true or the sender is gone.
async fn wait_for_shutdown(rx: &mut watch::Receiver<bool>) {
    while !*rx.borrow_and_update() {
        if rx.changed().await.is_err() {
            return;
        }
    }
}

/// Serves one connection until the client closes it, asks to, or errs.
async fn connection(mut stream: TcpStream, handler: Handler, limits: Limits) {
    let max_buf = limits
        .max_head
        .saturating_add(limits.max_body)
        .max(READ_CHUNK);
    let mut buf = vec![0u8; READ_CHUNK];
    let (mut start, mut end) = (0usize, 0usize);
    let mut out: Vec<u8> = Vec::with_capacity(READ_CHUNK);
    let mut req = Request::default();
    let mut sent_continue = false;
    loop {
        // Answer every complete request in the buffer (pipelining), then write once.
        let mut close = false;
        while start < end {
            match parse_request(&buf[start..end], &limits, &mut req) {
                Ok(RequestStatus::Complete(n)) => {
                    start += n;
                    sent_continue = false;
                    let resp = catch_unwind(AssertUnwindSafe(|| handler(&req)))
                        .unwrap_or_else(|_| Response::error(500));
                    let keep = req.keep_alive() && !resp.close;
                    write_response(&mut out, &resp, keep, req.method() == "HEAD");
                    if !keep {
                        close = true;
                        break;
                    }
                }
                Ok(RequestStatus::Partial { expect_continue }) => {
                    if expect_continue && !sent_continue {
                        out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
                        sent_continue = true;
                    }
                    break;
                }
                Err(e) => {
                    write_response(&mut out, &Response::error(e.status()), false, false);
                    close = true;
                    break;
                }
            }
        }
        if !out.is_empty() {
            if stream.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
        }
        if close {
            let _ = stream.shutdown().await;
            return;
        }
        if start == end {
            start = 0;
            end = 0;
        } else if end == buf.len() {
            if start > 0 {
                buf.copy_within(start..end, 0);
                end -= start;
                start = 0;
            } else if buf.len() < max_buf {
                let len = buf.len().saturating_mul(2).min(max_buf);
                buf.resize(len, 0);
            } else {
                // Cannot happen: the parser refuses anything larger than the limits.
                return;
            }
        }
        match stream.read(&mut buf[end..]).await {
            Ok(0) | Err(_) => return,
            Ok(n) => end += n,
        }
    }
}

/// A server running on a background thread; dropping it stops the server too.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl ServerHandle {
    /// The address the server listens on (with the port the OS picked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops the server, waits for its thread, and returns the error that ended it, if any.
    pub fn stop(mut self) -> io::Result<()> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> io::Result<()> {
        let _ = self.stop.send(true);
        match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("server thread panicked"))),
            None => Ok(()),
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Runs [`serve`] on `listener` on a new thread with its own runtime of
/// `options.workers` threads, and returns once it is accepting.
pub fn spawn(
    listener: std::net::TcpListener,
    handler: Handler,
    options: ServerOptions,
) -> io::Result<ServerHandle> {
    let addr = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(options.workers.max(1))
        .thread_name("wasmeter-http-server")
        .enable_all()
        .build()?;
    let (stop, rx) = watch::channel(false);
    let limits = options.limits;
    let thread = std::thread::Builder::new()
        .name("wasmeter-http-serve".into())
        .spawn(move || {
            let result = runtime.block_on(serve(listener, handler, limits, rx));
            // Connection tasks are gone; do not wait for a handler stuck in user code.
            runtime.shutdown_timeout(Duration::from_secs(1));
            result
        })?;
    Ok(ServerHandle {
        addr,
        stop,
        thread: Some(thread),
    })
}

/// Binds `127.0.0.1:0` and [`spawn`]s a server there: the in-process upstream and test
/// servers use this.
pub fn spawn_local(handler: Handler, options: ServerOptions) -> io::Result<ServerHandle> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    spawn(listener, handler, options)
}
