//! The gateway: an HTTP server that answers each request by running the gateway guest once
//! (a fresh instance per request, embedded or through a runtime CLI) or natively in Rust.
//! One [`Backend`] per way of running the guest: native and CLI here, an embedded engine's
//! in its folder under `runtime/embedded/` (the trait and the spec are defined below both, in
//! `runtime::suite_api`); [`Gateway`] does what is the same for all of them:
//! routing, the host-kept counter and the upstream call.

mod cli;
mod native;

pub use crate::runtime::serves_components;
pub use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};

use crate::runtime::RuntimeKind;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmeter_http::client::Upstream;
use wasmeter_http::codec::{Request, Response};
use wasmeter_http::guest::{GuestCall, GuestReply, query_param, route};
use wasmeter_http::server::{Handler, ServerOptions};

/// Builds the backend of a variant. Compiling the guest happens here, at start-up, so it
/// counts in the cold start and not in any request.
pub fn backend(spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
    let id = spec.runtime.id.as_str();
    match spec.runtime.kind {
        RuntimeKind::Native => Ok(Box::new(native::NativeBackend)),
        RuntimeKind::Embedded => {
            if let Some(engine) = crate::runtime::embedded::Embedded::parse(id) {
                return engine.gateway(spec);
            }
            Err(format!("no embedded gateway for runtime '{id}'"))
        }
        RuntimeKind::Cli => {
            let cmd = spec
                .runtime
                .command
                .clone()
                .ok_or_else(|| format!("runtime '{id}' has no command line"))?;
            let backend = cli::CliBackend::new(
                cmd,
                &spec.wasm,
                &spec.scratch,
                spec.cli_inflight,
                spec.memory_limit,
            )?;
            if id == crate::runtime::container::PER_REQUEST {
                return Ok(Box::new(backend.adopting()?));
            }
            Ok(Box::new(backend))
        }
    }
}

/// Routing, the counter the host keeps for `state`, and the upstream call of `proxy`,
/// around a backend.
pub struct Gateway {
    backend: Box<dyn Backend>,
    counter: AtomicU64,
    upstream: Option<Upstream>,
}

impl Gateway {
    /// A gateway over a backend; `upstream` serves the `proxy` workload.
    pub fn new(backend: Box<dyn Backend>, upstream: Option<SocketAddr>) -> Gateway {
        Gateway {
            backend,
            counter: AtomicU64::new(0),
            upstream: upstream.map(Upstream::new),
        }
    }

    /// Answers one request; a guest that fails answers 502 with why.
    pub fn handle(&self, target: &str, body: &[u8]) -> Response {
        match self.try_handle(target, body) {
            Ok(r) => {
                let mut resp = Response::new(r.status, r.body);
                for (k, v) in r.headers {
                    resp = resp.with_header(k, v);
                }
                resp
            }
            Err(e) => Response::text(502, format!("gateway: {e}\n")),
        }
    }

    fn try_handle(&self, target: &str, body: &[u8]) -> Result<GuestReply, String> {
        let (workload, query) = route(target);
        let mut call = GuestCall {
            workload: workload.to_string(),
            args: Vec::new(),
            stdin: body.to_vec(),
        };
        match workload {
            "compute" => {
                let Some(n) = query_param(query, "n") else {
                    return Ok(GuestReply::text(400, "compute needs ?n=ITERATIONS\n"));
                };
                call.args.push(n.to_string());
            }
            "state" => {
                // The host keeps the counter: each request gets the next value to increment.
                let c = self.counter.fetch_add(1, Ordering::Relaxed);
                call.args.push(c.to_string());
                let reply = self.backend.call(&call)?;
                let want = (c + 1).to_string();
                if reply.status == 200 && reply.header("X-Counter") != Some(want.as_str()) {
                    return Err(format!(
                        "guest answered counter {:?} to {c}, expected {want}",
                        reply.header("X-Counter")
                    ));
                }
                return Ok(reply);
            }
            _ => {}
        }
        let reply = self.backend.call(&call)?;
        match reply.header("X-Forward") {
            Some(path) if reply.status == 200 => {
                let up = self
                    .upstream
                    .as_ref()
                    .ok_or_else(|| "no upstream server configured for proxy".to_string())?;
                let (status, body) = up.post(path, &reply.body)?;
                Ok(GuestReply {
                    status,
                    headers: vec![("Content-Type".into(), "text/plain".into())],
                    body,
                })
            }
            _ => Ok(reply),
        }
    }
}

/// Entry point of `wasmeter serve-gateway`: reads a [`GatewaySpec`] as JSON from `input`,
/// binds its loopback port, prepares the backend (compiling the guest) and serves until
/// killed. Errors go to stderr as one line; returns the exit code (3: port in use).
pub fn serve_main(input: impl std::io::Read) -> i32 {
    let spec: GatewaySpec = match crate::runtime::read_spec(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter serve-gateway: bad gateway spec on stdin: {e}");
            return 2;
        }
    };
    let host = if spec.listen_any {
        "0.0.0.0"
    } else {
        "127.0.0.1"
    };
    let listener = match std::net::TcpListener::bind((host, spec.port)) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            eprintln!("wasmeter serve-gateway: 127.0.0.1:{} is in use", spec.port);
            return 3;
        }
        Err(e) => {
            eprintln!(
                "wasmeter serve-gateway: cannot listen on 127.0.0.1:{}: {e}",
                spec.port
            );
            return 2;
        }
    };
    let backend = match backend(&spec) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("wasmeter serve-gateway: {}: {e}", spec.runtime.id);
            return 2;
        }
    };
    let gateway = Gateway::new(backend, spec.upstream);
    let handler: Handler =
        std::sync::Arc::new(move |req: &Request| gateway.handle(req.target(), req.body()));
    // A CLI guest blocks its server thread for a whole process: give each in-flight
    // process a thread of its own.
    let workers = match spec.runtime.kind {
        RuntimeKind::Cli => spec.threads.max(spec.cli_inflight),
        _ => spec.threads,
    };
    let server = match wasmeter_http::server::spawn(
        listener,
        handler,
        ServerOptions {
            workers: workers.max(1),
            ..ServerOptions::default()
        },
    ) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter serve-gateway: cannot start the server: {e}");
            return 2;
        }
    };
    // Serves until the driver kills the process group.
    loop {
        std::thread::park();
        let _ = &server;
    }
}

/// Why a runtime that serves an HTTP suite still cannot run one of its tests, if so: the
/// plan leaves such a cell out as n/a rather than failing it. Under `wasmtime serve` no host
/// in front of the instances keeps `state`'s counter.
pub fn cell_unavailable(runtime: &str, test: &crate::suite::HttpTest) -> Option<String> {
    (runtime == crate::runtime::WASMTIME_SERVE && route(&test.path).0 == "state").then(|| {
        "`wasmtime serve` is the whole server: no host in front of it keeps the counter \
         between instances (wasmtime-http serves state with the host's counter)"
            .to_string()
    })
}
