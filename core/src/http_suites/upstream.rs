//! The `proxy` workload's upstream: an echo server, in the gateway's process or as a
//! process of its own (`wasmeter serve-echo`, the container variant's sidecar).

use std::io::Read;
use wasmeter_http::codec::{Request, Response};
use wasmeter_http::server::{Handler, ServerOptions};

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
    let spec: EchoSpec = match crate::runtime::read_spec(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter serve-echo: bad spec on stdin: {e}");
            return 2;
        }
    };
    let server = std::net::TcpListener::bind(("127.0.0.1", spec.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", spec.port))
        .and_then(|l| {
            wasmeter_http::server::spawn(l, echo(), echo_options())
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
