//! Embedded wasmtime serving a `wasi:http/proxy` component the way `wasmtime serve` does:
//! compiled and pre-linked once (`ProxyPre`), then per request a fresh `Store`, WASI and
//! wasi:http context and instance, from the pooling allocator with copy-on-write memory,
//! and `wasi:http/incoming-handler.handle` called with the request. The component's own
//! outgoing requests may reach the gateway's upstream echo server and nothing else.

use super::WasmtimeVariant;
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec, GuestPool};
use crate::runtime::{Failure, Iteration, Job, Phase};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Instant;
use wasmeter_http::guest::{GuestCall, GuestReply};
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::io::TokioIo;
use wasmtime_wasi_http::p2::bindings::ProxyPre;
use wasmtime_wasi_http::p2::bindings::http::types::{ErrorCode, Scheme};
use wasmtime_wasi_http::{Error as HttpError, WasiBody, WasiHttpCtx, WasiHttpCtxView};
use wasmtime_wasi_http::{WasiHttpHooks, WasiHttpView};

/// Most bytes of a response body read back from the component.
const BODY_LIMIT: usize = 1 << 20;

/// A store's state for one request.
struct Host {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    limits: StoreLimits,
    hooks: UpstreamOnly,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for Host {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.hooks,
        }
    }
}

/// Outgoing requests go to the gateway's upstream server only, over plain HTTP/1.1 on
/// loopback: a benchmark guest must not reach anything else.
struct UpstreamOnly(Option<SocketAddr>);

type Sent = Box<dyn Future<Output = Result<(), HttpError>> + Send>;

impl WasiHttpHooks for UpstreamOnly {
    fn send_request(
        &mut self,
        mut request: http::Request<WasiBody>,
        _options: Option<wasmtime_wasi_http::RequestOptions>,
        _fut: Sent,
    ) -> Box<dyn Future<Output = Result<(http::Response<WasiBody>, Sent), HttpError>> + Send> {
        let upstream = self.0;
        Box::new(async move {
            let to = request.uri().authority().map(|a| a.as_str().to_string());
            let addr = match (upstream, to) {
                (Some(up), Some(to)) if to == up.to_string() => up,
                _ => return Err(HttpError::HttpRequestDenied),
            };
            let stream = tokio::net::TcpStream::connect(addr)
                .await
                .map_err(HttpError::Connect)?;
            let (mut sender, conn) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            let io = tokio::spawn(conn);
            // HTTP/1.1 needs Host; the request line takes the origin form (scheme and
            // authority belong there only for proxies).
            if let Ok(host) = http::HeaderValue::from_str(&addr.to_string()) {
                request
                    .headers_mut()
                    .entry(http::header::HOST)
                    .or_insert(host);
            }
            let path = request
                .uri()
                .path_and_query()
                .map(|p| p.as_str().to_string())
                .unwrap_or_else(|| "/".into());
            *request.uri_mut() = path.parse().map_err(|_| HttpError::HttpRequestUriInvalid)?;
            let response = sender.send_request(request).await?;
            let done: Sent = Box::new(async move {
                match io.await {
                    Ok(r) => r.map_err(HttpError::from),
                    Err(_) => Err(HttpError::ConnectionTerminated),
                }
            });
            Ok((
                response.map(|b| b.map_err(HttpError::from).boxed_unsync()),
                done,
            ))
        })
    }
}

/// A wasmtime engine with the component ready to instantiate, served from guest threads
/// that each drive their own single-threaded tokio runtime (the async wasi:http host must
/// not block the gateway server's own runtime).
pub struct WasmtimeHttpBackend {
    pool: GuestPool,
}

impl WasmtimeHttpBackend {
    /// Compiles and pre-links the component; fails, naming the file, when it is not a
    /// component or does not export `wasi:http/incoming-handler`.
    pub fn new(spec: &GatewaySpec) -> Result<WasmtimeHttpBackend, String> {
        // A component instance takes a few core instances and tables (its adapter shims).
        let slots = (spec.threads * 16).max(64) as u32;
        let config = WasmtimeVariant::POOLING.server_config(slots);
        let engine = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
        let path = &spec.wasm;
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let pre = proxy_pre(&engine, path, &bytes)?;
        let upstream = spec.upstream;
        let memory = usize::try_from(spec.memory_limit).unwrap_or(usize::MAX);
        let pool = GuestPool::new(spec.threads, move || {
            let pre = pre.clone();
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime for a guest thread");
            move |call: &GuestCall| rt.block_on(serve(&pre, call, upstream, memory))
        });
        Ok(WasmtimeHttpBackend { pool })
    }
}

/// Compiles and pre-links a component against wasi:http and WASI preview 2; fails, naming
/// the file, when it is not a component or does not export `wasi:http/incoming-handler`.
fn proxy_pre(engine: &Engine, path: &Path, bytes: &[u8]) -> Result<ProxyPre<Host>, String> {
    let component = Component::new(engine, bytes)
        .map_err(|e| format!("{}: not a valid component: {e:#}", path.display()))?;
    let mut linker: Linker<Host> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(|e| format!("{e:#}"))?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker)
        .map_err(|e| format!("{e:#}"))?;
    let pre = linker
        .instantiate_pre(&component)
        .map_err(|e| format!("cannot link {}: {e:#}", path.display()))?;
    ProxyPre::new(pre).map_err(|e| {
        format!(
            "{} does not export wasi:http/incoming-handler: {e:#}",
            path.display()
        )
    })
}

/// A `wasi:http/proxy` component run as a command job: compiled and linked (the compile
/// phase), then one instance answers `GET /` (the execute phase), and the response body is
/// the job's output, as `wasmtime serve` and one request would give
/// ([`Iteration::answered`]).
pub(super) fn answer_once(engine: &Engine, job: &Job, bytes: &[u8]) -> Result<Iteration, Failure> {
    let mut it = Iteration::default();
    let whole = Instant::now();
    let t = Instant::now();
    let pre = proxy_pre(engine, &job.program, bytes).map_err(Failure::Other)?;
    it.wall(Phase::Compile, t.elapsed());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Other(format!("a tokio runtime: {e}")))?;
    let root = GuestCall {
        workload: String::new(),
        args: Vec::new(),
        stdin: Vec::new(),
    };
    let memory = usize::try_from(job.memory_limit).unwrap_or(usize::MAX);
    let t = Instant::now();
    let reply = rt
        .block_on(serve(&pre, &root, None, memory))
        .map_err(Failure::Other)?;
    it.wall(Phase::Execute, t.elapsed());
    it.wall(Phase::Total, whole.elapsed());
    it.answered(reply.status, reply.body, job.stdout_limit)
}

impl Backend for WasmtimeHttpBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        self.pool.call(call)
    }
}

/// The request a call stands for: `/workload`, compute's `?n=`, state's counter in
/// `X-Counter`, the body POSTed.
fn request(call: &GuestCall) -> Result<hyper::Request<Full<Bytes>>, String> {
    let arg = call.args.first();
    let mut target = format!("/{}", call.workload);
    if let ("compute", Some(n)) = (call.workload.as_str(), arg) {
        target.push_str("?n=");
        target.push_str(n);
    }
    let mut b = hyper::Request::builder()
        .method(if call.stdin.is_empty() { "GET" } else { "POST" })
        .uri(format!("http://localhost{target}"))
        .header("content-length", call.stdin.len());
    if let ("state", Some(c)) = (call.workload.as_str(), arg) {
        b = b.header("x-counter", c.as_str());
    }
    b.body(Full::new(Bytes::from(call.stdin.clone())))
        .map_err(|e| format!("cannot make the request {target}: {e}"))
}

/// One request: a fresh store and instance, `handle`, the response read back.
async fn serve(
    pre: &ProxyPre<Host>,
    call: &GuestCall,
    upstream: Option<SocketAddr>,
    memory: usize,
) -> Result<GuestReply, String> {
    let mut wasi = WasiCtx::builder();
    if let Some(up) = upstream {
        wasi.env("UPSTREAM", up.to_string());
    }
    let host = Host {
        wasi: wasi.build(),
        http: WasiHttpCtx::new(),
        table: ResourceTable::new(),
        limits: StoreLimitsBuilder::new()
            .memory_size(memory)
            .trap_on_grow_failure(true)
            .build(),
        hooks: UpstreamOnly(upstream),
    };
    let mut store = super::store(pre.engine(), host);
    store.limiter(|h| &mut h.limits);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let req = store
        .data_mut()
        .http()
        .new_incoming_request(Scheme::Http, request(call)?)
        .map_err(|e| format!("{e:#}"))?;
    let out = store
        .data_mut()
        .http()
        .new_response_outparam(tx)
        .map_err(|e| format!("{e:#}"))?;
    let pre = pre.clone();
    // The instance runs as its own task, so a guest that goes on after setting its
    // response still streams the body, and one that never sets it drops the sender.
    let task = tokio::spawn(async move {
        let proxy = pre.instantiate_async(&mut store).await?;
        proxy
            .wasi_http_incoming_handler()
            .call_handle(&mut store, req, out)
            .await
    });
    let response = match rx.await {
        Ok(Ok(r)) => r,
        Ok(Err(code)) => return Err(format!("the component answered {}", error_code(&code))),
        Err(_) => {
            return Err(match task.await {
                Ok(Ok(())) => "the component returned without setting a response".into(),
                Ok(Err(e)) => format!("the component failed: {}", one_line(&e)),
                Err(e) => format!("the component's task failed: {e}"),
            });
        }
    };
    let (parts, body) = response.into_parts();
    let body = http_body_util::Limited::new(body, BODY_LIMIT)
        .collect()
        .await
        .map_err(|e| format!("the component's response body: {e}"))?
        .to_bytes();
    if let Ok(Err(e)) = task.await {
        return Err(format!(
            "the component failed after answering: {}",
            one_line(&e)
        ));
    }
    Ok(GuestReply {
        status: parts.status.as_u16(),
        // The gateway frames the body itself.
        headers: parts
            .headers
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "content-length" | "transfer-encoding" | "date"))
            .map(|(k, v)| (k.to_string(), String::from_utf8_lossy(v.as_bytes()).into()))
            .collect(),
        body: body.to_vec(),
    })
}

/// A guest's failure on one line: its causes without the wasm backtrace wasmtime attaches
/// (a frame per line), so that a cell's reason stays one line.
fn one_line(e: &wasmtime::Error) -> String {
    e.chain()
        .map(|c| c.to_string())
        .filter(|c| !c.starts_with("error while executing at wasm backtrace"))
        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(": ")
}

/// A wasi:http error code in a few words.
fn error_code(code: &ErrorCode) -> String {
    format!("the wasi:http error {code:?}")
}
