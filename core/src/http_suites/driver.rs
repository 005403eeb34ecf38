//! One HTTP cell — a server variant (gateway: native, embedded, CLI; servers: a command)
//! and one request — measured once per iteration: a fresh server is started and timed to
//! its first `200 OK` (cold start), its latency is taken one request at a time over a
//! persistent connection, then it is loaded at each concurrency level while its CPU (over
//! the measured window, not the warm-up) and memory are read. A level at which no request
//! completes within the duration is recorded as saturated, with its bound, and the next
//! level goes on. Every server is stopped when the iteration ends, whatever happened.

use super::HttpSettings;
use super::gateway::{GatewaySpec, serves_components};
use super::upstream::{EchoSpec, echo, echo_options};
use crate::runtime::WorkerCommand;
use crate::runtime::container;
use crate::runtime::launch::{ServerProcess, command_in, free_port, port_in_use};
use crate::runtime::{
    Failure, Metric, Phase, PhaseValue, RuntimeInfo, RuntimeKind, WASMTIME_SERVE,
};
use crate::sample::TreeSampler;
use crate::store::LevelHistogram;
use crate::suite::{HttpKind, HttpTest, ServerDef};
use serde::{Deserialize, Serialize};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use wasmeter_http::client::request_once;
use wasmeter_http::guest::{expected_body, route};
use wasmeter_http::load::{self, LoadReport, LoadSpec, Stop};
use wasmeter_http::server::{ServerHandle, spawn_local};

/// What an HTTP cell needs besides its runtime, sent to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpJob {
    /// Gateway or servers.
    pub kind: HttpKind,
    /// The request (and, for servers, the server of this runtime).
    pub test: HttpTest,
    /// Load settings of the run.
    pub settings: HttpSettings,
    /// How to start `wasmeter serve-gateway`.
    pub serve_gateway: WorkerCommand,
    /// The suite folder (`{suite}`, and where build steps run).
    pub suite_dir: PathBuf,
    /// Build outputs of servers suites (`{cache}`).
    pub cache_dir: PathBuf,
}

/// A cell being measured.
pub struct Driver {
    runtime: RuntimeInfo,
    job: HttpJob,
    wasm: PathBuf,
    scratch: PathBuf,
    memory_limit: u64,
    server: Option<ServerDef>,
    upstream: Option<ServerHandle>,
    container: Option<Container>,
    /// What preparing the cell had to adapt, for the worker to pass on as notes.
    notes: Vec<String>,
}

/// A container variant's engine, image (the gateway's, or the guest's for
/// container-per-request) and the flags this host needs.
struct Container {
    engine: container::Engine,
    role: container::Role,
    image: String,
    flags: Vec<String>,
}

impl Driver {
    /// What preparing the cell had to adapt to this host, once: notes of the cell.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// Prepares a cell: finds this runtime's server (servers suites) and runs its build
    /// step; starts the upstream echo server of the `proxy` request.
    pub fn new(
        runtime: &RuntimeInfo,
        job: &HttpJob,
        wasm: &Path,
        scratch: &Path,
        memory_limit: u64,
    ) -> Result<Driver, Failure> {
        let mut d = Driver {
            runtime: runtime.clone(),
            job: job.clone(),
            wasm: wasm.to_path_buf(),
            scratch: scratch.to_path_buf(),
            memory_limit,
            server: None,
            upstream: None,
            container: None,
            notes: Vec::new(),
        };
        if job.kind == HttpKind::Servers {
            let def = job
                .test
                .servers
                .iter()
                .find(|s| s.runtime == runtime.id)
                .cloned()
                .ok_or_else(|| {
                    Failure::Unavailable(format!(
                        "no server for runtime '{}' in this test",
                        runtime.id
                    ))
                })?;
            if let Some(build) = &def.build {
                d.build(build)?;
            }
            d.server = Some(def);
        } else if container::is_variant(&runtime.id) {
            let (container, notes) = d.prepare_container()?;
            d.container = Some(container);
            d.notes = notes
                .into_iter()
                .map(|n| format!("adapted to this host: {n}"))
                .collect();
        } else {
            d.guest_for_variant()?;
        }
        // The gateway in a container reaches its upstream in a sidecar instead.
        let sidecar = runtime.id == container::VARIANT;
        if job.kind == HttpKind::Gateway && route(&job.test.path).0 == "proxy" && !sidecar {
            let up = spawn_local(echo(), echo_options()).map_err(|e| {
                Failure::Other(format!("cannot start the upstream echo server: {e}"))
            })?;
            d.upstream = Some(up);
        }
        Ok(d)
    }

    /// Finds the engine, clears containers left by dead workers, makes the image (once
    /// per binary: the wasmeter binary, or for container-per-request the natively built
    /// guest) and finds what flags this host needs to start it, with what it had to adapt.
    fn prepare_container(&self) -> Result<(Container, Vec<String>), Failure> {
        let engine = container::detect()
            .map_err(|e| Failure::Unavailable(format!("{e}; install {}", container::HINT)))?;
        engine.clear_stale();
        let (role, binary, probe) = if self.runtime.id == container::PER_REQUEST {
            (container::Role::Guest, &self.wasm, "hello")
        } else {
            (
                container::Role::Gateway,
                &self.job.serve_gateway.program,
                "--version",
            )
        };
        let image = engine.image(binary, role).map_err(Failure::Other)?;
        let (flags, notes) = engine.probe(&image, &[probe]).map_err(Failure::Other)?;
        Ok((
            Container {
                engine,
                role,
                image,
                flags,
            },
            notes,
        ))
    }

    /// The native gateway in a container, its port published on loopback; removed with
    /// the server.
    fn start_container(&self, c: &Container, port: u16) -> Result<ServerProcess, Failure> {
        let name = container::name(port);
        let proxy = route(&self.job.test.path).0 == "proxy";
        let spec = GatewaySpec {
            runtime: crate::runtime::native_info(),
            wasm: PathBuf::new(),
            port: container::INNER_PORT,
            upstream: proxy
                .then(|| SocketAddr::from((Ipv4Addr::LOCALHOST, container::UPSTREAM_PORT))),
            threads: self.job.settings.server_threads,
            cli_inflight: self.job.settings.cli_inflight,
            memory_limit: self.memory_limit,
            scratch: PathBuf::from("/tmp/gateway"),
            listen_any: true,
        };
        let json = serde_json::to_vec(&spec).expect("gateway spec serialises");
        let cmd = c.engine.run(
            &c.image,
            &name,
            port,
            &self.job.serve_gateway.args,
            &c.flags,
        );
        let mut server = ServerProcess::spawn(cmd, Some(json), port).map_err(Failure::Other)?;
        let engine = c.engine.clone();
        let gone = name.clone();
        server.on_drop(Box::new(move || engine.remove(&gone)));
        Ok(server)
    }

    /// The `proxy` upstream as a sidecar in the gateway container's network namespace,
    /// started once the gateway answers (so not in its cold start, as the host's upstream
    /// of the other variants is not), and waited for until `proxy` answers 200 (the
    /// sidecar is spawned with the gateway's port, so its readiness poll goes through the
    /// gateway). Removed with the gateway.
    fn start_sidecar(
        &self,
        c: &Container,
        port: u16,
        server: &mut ServerProcess,
    ) -> Result<(), Failure> {
        let gateway = container::name(port);
        let cmd = c.engine.upstream(&c.image, &gateway, &c.flags);
        let json = serde_json::to_vec(&EchoSpec {
            port: container::UPSTREAM_PORT,
        })
        .expect("echo spec serialises");
        let mut sidecar = ServerProcess::spawn(cmd, Some(json), port).map_err(Failure::Other)?;
        let engine = c.engine.clone();
        let gone = format!("{gateway}-upstream");
        sidecar.on_drop(Box::new(move || engine.remove(&gone)));
        sidecar
            .wait_ready(
                &self.job.test.path,
                Instant::now(),
                Duration::from_millis(self.job.settings.ready_timeout_ms),
            )
            .map_err(|e| Failure::Other(format!("the upstream sidecar: {e}")))?;
        server.on_drop(Box::new(move || drop(sidecar)));
        Ok(())
    }

    /// The gateway on the host, running the natively built guest in a fresh container per
    /// request; every container this worker made is removed with it.
    fn per_request_runtime(&self, c: &Container) -> RuntimeInfo {
        RuntimeInfo {
            command: Some(c.engine.per_request(&c.image, &c.flags)),
            ..self.runtime.clone()
        }
    }

    /// A gateway variant that serves components runs the test's `wasi:http` component (a
    /// cell it has no way to run never gets here: the plan leaves it out as n/a).
    fn guest_for_variant(&mut self) -> Result<(), Failure> {
        let id = self.runtime.id.as_str();
        if !serves_components(id) {
            return Ok(());
        }
        self.wasm = self.job.test.component.clone().ok_or_else(|| {
            Failure::Unavailable(
                "this test has no wasi:http component (`component` in its suite.toml)".into(),
            )
        })?;
        Ok(())
    }

    fn placeholders(&self, s: &str, port: u16) -> String {
        let runtime = match (&self.runtime.command, self.runtime.kind) {
            (Some(c), RuntimeKind::Cli) => c.run.first().cloned().unwrap_or_default(),
            _ => String::new(),
        };
        s.replace("{runtime}", &runtime)
            .replace("{suite}", &self.job.suite_dir.display().to_string())
            .replace("{cache}", &self.job.cache_dir.display().to_string())
            .replace("{port}", &port.to_string())
    }

    /// Runs a servers-suite build step once, in the suite folder.
    fn build(&self, argv: &[String]) -> Result<(), Failure> {
        std::fs::create_dir_all(&self.job.cache_dir)
            .map_err(|e| Failure::Other(format!("{}: {e}", self.job.cache_dir.display())))?;
        let argv: Vec<String> = argv.iter().map(|a| self.placeholders(a, 0)).collect();
        let out = command_in(&argv, &self.job.suite_dir)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| Failure::Other(format!("build step {}: {e}", argv[0])))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = err.lines().rev().take(3).collect();
            return Err(Failure::Other(format!(
                "build step `{}` failed ({}): {}",
                argv.join(" "),
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            )));
        }
        Ok(())
    }

    /// Starts this cell's server on `port`.
    fn start(&self, port: u16) -> Result<ServerProcess, Failure> {
        let component = self
            .server
            .as_ref()
            .and_then(|d| d.component.as_ref())
            .map(|c| PathBuf::from(self.placeholders(c, port)));
        if let Some(def) = self.server.as_ref().filter(|_| component.is_none()) {
            let argv: Vec<String> = def
                .command
                .iter()
                .map(|a| self.placeholders(a, port))
                .collect();
            let mut cmd = command_in(&argv, &self.job.suite_dir);
            for (k, v) in &def.env {
                cmd.env(k, self.placeholders(v, port));
            }
            return ServerProcess::spawn(cmd, None, port).map_err(Failure::Other);
        }
        let wasm = component.unwrap_or_else(|| self.wasm.clone());
        if self.runtime.id == WASMTIME_SERVE {
            return self.start_wasmtime_serve(&wasm, port);
        }
        let runtime = match &self.container {
            Some(c) if c.role == container::Role::Gateway => return self.start_container(c, port),
            Some(c) => self.per_request_runtime(c),
            None => self.runtime.clone(),
        };
        let spec = GatewaySpec {
            runtime,
            wasm,
            port,
            upstream: self.upstream.as_ref().map(|u| u.addr()),
            threads: self.job.settings.server_threads,
            cli_inflight: self.job.settings.cli_inflight,
            memory_limit: self.memory_limit,
            scratch: self.scratch.join("gateway"),
            listen_any: false,
        };
        let gw = &self.job.serve_gateway;
        let mut cmd = std::process::Command::new(&gw.program);
        cmd.args(&gw.args).env("RUST_BACKTRACE", "0");
        let json = serde_json::to_vec(&spec).expect("gateway spec serialises");
        let mut server = ServerProcess::spawn(cmd, Some(json), port).map_err(Failure::Other)?;
        if let Some(c) = &self.container {
            let (engine, owner) = (c.engine.clone(), std::process::id());
            server.on_drop(Box::new(move || engine.remove_owned_by(owner)));
        }
        Ok(server)
    }

    /// The wasmtime CLI as the gateway itself: its own HTTP server, an instance of the
    /// component per request, compiled at start-up (no cache, as every variant).
    fn start_wasmtime_serve(&self, wasm: &Path, port: u16) -> Result<ServerProcess, Failure> {
        let bin = self
            .runtime
            .command
            .as_ref()
            .and_then(|c| c.run.first())
            .ok_or_else(|| Failure::Unavailable(format!("{WASMTIME_SERVE}: no command")))?;
        let mut cmd = std::process::Command::new(bin);
        cmd.args(["serve", "-C", "cache=n", "-S", "cli=y"])
            .arg("-W")
            .arg(format!("max-memory-size={}", self.memory_limit))
            .arg("--addr")
            .arg(format!("127.0.0.1:{port}"));
        if let Some(up) = &self.upstream {
            cmd.arg("--env").arg(format!("UPSTREAM={}", up.addr()));
        }
        cmd.arg(wasm);
        ServerProcess::spawn(cmd, None, port).map_err(Failure::Other)
    }

    fn ready_path(&self) -> String {
        match &self.server {
            Some(def) => def.ready.clone(),
            None => "/hello".into(),
        }
    }

    fn load_spec(
        &self,
        server: &ServerProcess,
        connections: usize,
        stop: Duration,
        rate: Option<u32>,
    ) -> LoadSpec {
        let t = &self.job.test;
        let request_timeout = match rate {
            Some(_) => Duration::from_millis(super::RATE_REQUEST_TIMEOUT_MS),
            None => Duration::from_secs(10),
        };
        LoadSpec {
            path: t.path.clone(),
            method: t.method.clone(),
            body: t.body.clone(),
            connections,
            stop: Stop::Duration(stop),
            warmup: (stop / 5).min(Duration::from_millis(500)),
            request_timeout,
            rate: rate.map(f64::from),
            threads: self.job.settings.client_threads.clamp(1, connections),
            expect_body: match self.job.kind {
                HttpKind::Gateway => expected_body(&t.path, &t.body),
                HttpKind::Servers => None,
            },
            max_time: stop + Duration::from_secs(30),
            ..LoadSpec::new(server.addr)
        }
    }

    /// Checks the server's answer to the test's request once, before any load.
    fn check(&self, server: &mut ServerProcess) -> Result<(), Failure> {
        let t = &self.job.test;
        let (status, body) = request_once(
            server.addr,
            &t.method,
            &t.path,
            &t.body,
            Duration::from_secs(10),
        )
        .map_err(|e| Failure::Other(format!("{} {}: {e}", t.method, t.path)))?;
        let shown = || {
            String::from_utf8_lossy(&body[..body.len().min(200)])
                .trim()
                .to_string()
        };
        if status != 200 {
            return Err(Failure::WrongOutput(format!(
                "{} {} answered {status}: {}{}",
                t.method,
                t.path,
                shown(),
                server.stderr_suffix("; stderr: ")
            )));
        }
        if self.job.kind == HttpKind::Servers {
            return Ok(());
        }
        let want = match route(&t.path).0 {
            // The host's counter starts at 0: the first request makes it 1.
            "state" => Some(b"1\n".to_vec()),
            _ => expected_body(&t.path, &t.body),
        };
        match want {
            Some(w) if w != body => Err(Failure::WrongOutput(format!(
                "{} {} answered {:?}, expected {:?}",
                t.method,
                t.path,
                shown(),
                String::from_utf8_lossy(&w).trim()
            ))),
            _ => Ok(()),
        }
    }

    /// One iteration: cold start, warm latency, each concurrency level, then each offered
    /// rate and the knee; with the rates' latency histograms.
    pub fn iteration(&mut self) -> Result<(Vec<PhaseValue>, Vec<LevelHistogram>), Failure> {
        let s = &self.job.settings;
        let port = match self.server.as_ref().and_then(|d| d.port) {
            Some(p) if port_in_use(p) => {
                return Err(Failure::Other(format!(
                    "port {p} is in use by another process (the server's fixed port)"
                )));
            }
            Some(p) => p,
            None => free_port().map_err(|e| Failure::Other(format!("no free port: {e}")))?,
        };
        let t0 = Instant::now();
        let mut server = self.start(port)?;
        let ready = server.wait_ready(
            &self.ready_path(),
            t0,
            Duration::from_millis(s.ready_timeout_ms),
        );
        let cold = match ready {
            Ok(d) => d,
            Err(e) if server.exited().is_some() && port_in_use(port) => {
                return Err(Failure::Other(format!(
                    "port {port} is in use by another process: {e}"
                )));
            }
            Err(e) => return Err(Failure::Other(e)),
        };
        let mut v = vec![PhaseValue::new(
            Phase::ColdStart,
            Metric::WallNs,
            cold.as_nanos() as f64,
        )];
        if let Some(c) = self
            .container
            .as_ref()
            .filter(|c| c.role == container::Role::Gateway)
        {
            // conmon and the container's processes are not the engine client's children.
            server.add_roots(c.engine.pids(&container::name(port)));
            if route(&self.job.test.path).0 == "proxy" {
                self.start_sidecar(c, port, &mut server)?;
            }
        }
        self.check(&mut server)?;

        let lat = self.load(
            &mut server,
            1,
            Duration::from_millis(s.latency_ms),
            "latency",
        )?;
        v.push(PhaseValue::new(
            Phase::Latency,
            Metric::WallNs,
            lat.latency.p50 as f64,
        ));
        v.push(PhaseValue::new(
            Phase::Latency,
            Metric::P90Ns,
            lat.latency.p90 as f64,
        ));
        v.push(PhaseValue::new(
            Phase::Latency,
            Metric::P99Ns,
            lat.latency.p99 as f64,
        ));

        let levels = match &self.job.test.connections[..] {
            own if self.job.kind == HttpKind::Servers && !own.is_empty() => own.to_vec(),
            _ => s.levels.clone(),
        };
        let per_level = self
            .job
            .test
            .duration_secs
            .map(Duration::from_secs_f64)
            .unwrap_or(Duration::from_millis(s.duration_ms));
        let mut peak_rss = 0u64;
        for c in levels {
            let sampling = RssWatch::start(server.roots());
            let level = self.level(&mut server, c as usize, per_level, None);
            let rss = sampling.stop();
            peak_rss = peak_rss.max(rss);
            let ph = Phase::Throughput(c);
            match level? {
                Level::Served { report: r, cores } => {
                    v.push(PhaseValue::new(ph, Metric::Rps, r.rps));
                    v.push(PhaseValue::new(ph, Metric::WallNs, r.latency.p50 as f64));
                    v.push(PhaseValue::new(ph, Metric::P99Ns, r.latency.p99 as f64));
                    v.push(PhaseValue::new(ph, Metric::Errors, error_count(&r)));
                    v.push(PhaseValue::new(ph, Metric::RssBytes, rss as f64));
                    if let Some(cores) = cores {
                        // CPU per request = CPU per second / requests per second.
                        v.push(PhaseValue::new(
                            ph,
                            Metric::CpuNsPer1k,
                            cpu_per_1k(cores, &r),
                        ));
                    }
                }
                Level::Saturated { report: r } => {
                    v.push(PhaseValue::new(
                        ph,
                        Metric::SaturatedBelowRps,
                        1.0 / r.elapsed.as_secs_f64(),
                    ));
                    v.push(PhaseValue::new(ph, Metric::Errors, error_count(&r)));
                    v.push(PhaseValue::new(ph, Metric::RssBytes, rss as f64));
                }
            }
        }
        let mut histograms = Vec::new();
        self.rates(
            &mut server,
            per_level,
            &mut v,
            &mut histograms,
            &mut peak_rss,
        )?;
        v.push(PhaseValue::new(
            Phase::Total,
            Metric::MaxRssKib,
            (peak_rss / 1024) as f64,
        ));
        Ok((v, histograms))
    }

    /// The open-model phases: each offered rate in turn, ascending; then, while no rate
    /// has broken the SLO and the knee budget lasts, twice the last; then the knee.
    fn rates(
        &self,
        server: &mut ServerProcess,
        per_level: Duration,
        v: &mut Vec<PhaseValue>,
        histograms: &mut Vec<LevelHistogram>,
        peak_rss: &mut u64,
    ) -> Result<(), Failure> {
        let s = &self.job.settings;
        let mut queue: std::collections::VecDeque<u32> = s.rates_for(&self.job.test.rates).into();
        let Some(&lowest) = queue.front() else {
            return Ok(());
        };
        let budget = Duration::from_millis(s.knee_budget_ms);
        let mut knee = Knee::default();
        let mut stepping: Option<Instant> = None;
        while let Some(rate) = queue.pop_front() {
            let ph = Phase::Rate(rate);
            let sampling = RssWatch::start(server.roots());
            let level = self.level(server, s.rate_connections as usize, per_level, Some(rate));
            let rss = sampling.stop();
            *peak_rss = (*peak_rss).max(rss);
            let (r, cores) = match level? {
                Level::Served { report, cores } => (report, cores),
                Level::Saturated { report } => (report, None),
            };
            v.push(PhaseValue::new(ph, Metric::Rps, r.rps));
            v.push(PhaseValue::new(ph, Metric::Errors, error_count(&r)));
            v.push(PhaseValue::new(ph, Metric::Timeouts, timeout_count(&r)));
            v.push(PhaseValue::new(ph, Metric::RssBytes, rss as f64));
            if r.requests > 0 {
                let c = r.latency;
                for (m, x) in [
                    (Metric::WallNs, c.p50),
                    (Metric::P90Ns, c.p90),
                    (Metric::P99Ns, c.p99),
                    (Metric::P999Ns, c.p999),
                ] {
                    v.push(PhaseValue::new(ph, m, x as f64));
                }
                if let Some(u) = r.uncorrected_latency() {
                    for (m, x) in [
                        (Metric::UncorrectedP50Ns, u.p50),
                        (Metric::UncorrectedP90Ns, u.p90),
                        (Metric::UncorrectedP99Ns, u.p99),
                        (Metric::UncorrectedP999Ns, u.p999),
                    ] {
                        v.push(PhaseValue::new(ph, m, x as f64));
                    }
                }
                if let Some(cores) = cores {
                    v.push(PhaseValue::new(
                        ph,
                        Metric::CpuNsPer1k,
                        cpu_per_1k(cores, &r),
                    ));
                }
                histograms.push(LevelHistogram::new(ph, true, &r.histogram));
                if let Some(u) = &r.uncorrected {
                    histograms.push(LevelHistogram::new(ph, false, u));
                }
            }
            if r.unsent > 0 {
                v.push(PhaseValue::new(ph, Metric::UnsentRequests, r.unsent as f64));
            }
            let verdict = RateVerdict::of(&r, rate, s.slo_p99_ms);
            if verdict == RateVerdict::GeneratorBound {
                v.push(PhaseValue::new(ph, Metric::GeneratorBoundRps, r.sent_rps()));
            }
            knee.saw(rate, verdict);
            // Past the listed rates: double while the SLO holds and the budget lasts.
            if queue.is_empty() && verdict == RateVerdict::Met && !budget.is_zero() {
                let since = *stepping.get_or_insert_with(Instant::now);
                let next = rate.saturating_mul(2);
                if next > rate && since.elapsed() + per_level <= budget {
                    queue.push_back(next);
                }
            }
        }
        match knee.best {
            Some(b) => v.push(PhaseValue::new(Phase::Knee, Metric::Rps, f64::from(b))),
            // Broke at the lowest rate tried: the knee is below it.
            None if knee.broke.is_some() => v.push(PhaseValue::new(
                Phase::Knee,
                Metric::SaturatedBelowRps,
                f64::from(lowest),
            )),
            None => {}
        }
        v.push(PhaseValue::new(
            Phase::Knee,
            Metric::Unbroken,
            if knee.broke.is_none() { 1.0 } else { 0.0 },
        ));
        Ok(())
    }

    /// Loads the server at one concurrency level, reading its CPU time at the edges of
    /// the measured window (not over the warm-up, whose requests are not counted). A
    /// level at which no request completed within the duration is saturated: a
    /// measurement, not a failure. A server that died or answered only errors fails the
    /// cell.
    fn level(
        &self,
        server: &mut ServerProcess,
        connections: usize,
        stop: Duration,
        rate: Option<u32>,
    ) -> Result<Level, Failure> {
        let spec = self.load_spec(server, connections, stop, rate);
        let serving = &*server;
        let (mut start, mut end) = (None, None);
        let read = || (Instant::now(), serving.cpu_time().as_nanos() as u64);
        let r = load::run_observed(&spec, &mut |edge| match edge {
            load::Window::Start => start = Some(read()),
            load::Window::End => end = Some(read()),
        });
        let what = match rate {
            Some(r) => format!("{r} requests/s"),
            None => format!("{connections} connections"),
        };
        let r = self.checked(server, r, &what)?;
        if r.requests == 0 {
            // Nothing completed, and nothing failed but requests that ran out of time:
            // the server cannot keep up with this many connections.
            if r.errors.keys().all(|k| k == "timeout") {
                return Ok(Level::Saturated { report: r });
            }
            return Err(no_success(server, &r, &what));
        }
        let cores = match (start, end) {
            (Some((t0, c0)), Some((t1, c1))) if t1 > t0 => {
                Some(c1.saturating_sub(c0) as f64 / (t1 - t0).as_nanos() as f64)
            }
            _ => None,
        };
        Ok(Level::Served { report: r, cores })
    }

    /// Loads the server; a load with no successful request, or a server that died, fails
    /// the cell with what went wrong and the server's last words.
    fn load(
        &self,
        server: &mut ServerProcess,
        connections: usize,
        stop: Duration,
        what: &str,
    ) -> Result<LoadReport, Failure> {
        let spec = self.load_spec(server, connections, stop, None);
        let r = self.checked(server, load::run(&spec), what)?;
        if r.requests == 0 {
            if r.errors.is_empty() {
                return Err(Failure::Other(format!(
                    "no request completed within {:.1} s at {what}: each takes longer than that (try a longer --duration){}",
                    stop.as_secs_f64(),
                    server.stderr_suffix("; stderr: ")
                )));
            }
            return Err(no_success(server, &r, what));
        }
        Ok(r)
    }

    /// The load's report, or why the cell fails: the server died during it, or the load
    /// could not run at all.
    fn checked(
        &self,
        server: &mut ServerProcess,
        r: Result<LoadReport, load::LoadError>,
        what: &str,
    ) -> Result<LoadReport, Failure> {
        if let Some(status) = server.exited() {
            return Err(Failure::Crash(format!(
                "server exited ({status}) during the {what} load{}",
                server.stderr_suffix(": ")
            )));
        }
        r.map_err(|e| Failure::Other(format!("{what}: {e}")))
    }
}

/// What one concurrency level measured.
enum Level {
    /// Requests completed; `cores` is the server's CPU time over the measured window per
    /// wall second (CPU per request is that over the rate).
    Served {
        report: LoadReport,
        cores: Option<f64>,
    },
    /// No request completed within the duration: throughput below 1 / duration.
    Saturated { report: LoadReport },
}

/// How an offered rate went against the SLO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RateVerdict {
    /// The SLO held ([`super::RateOutcome::meets`]).
    Met,
    /// It did not.
    Broke,
    /// The load generator could not offer the rate: the level says nothing of the server.
    GeneratorBound,
}

impl RateVerdict {
    fn of(r: &LoadReport, rate: u32, slo_ms: f64) -> RateVerdict {
        let rate = f64::from(rate);
        if r.generator_bound(rate) {
            return RateVerdict::GeneratorBound;
        }
        let met = super::RateOutcome {
            offered: rate,
            achieved: r.rps,
            p99_ns: (r.requests > 0).then_some(r.latency.p99 as f64),
            errors: error_count(r),
            timeouts: timeout_count(r),
            seconds: r.elapsed.as_secs_f64(),
        }
        .meets(slo_ms);
        if met {
            RateVerdict::Met
        } else {
            RateVerdict::Broke
        }
    }
}

/// The knee as the rates go up: the highest rate that met the SLO below the first that
/// broke it.
#[derive(Debug, Default)]
struct Knee {
    best: Option<u32>,
    broke: Option<u32>,
}

impl Knee {
    fn saw(&mut self, rate: u32, verdict: RateVerdict) {
        if self.broke.is_some() {
            return;
        }
        match verdict {
            RateVerdict::Met => self.best = Some(rate),
            RateVerdict::Broke => self.broke = Some(rate),
            RateVerdict::GeneratorBound => {}
        }
    }
}

/// Requests that timed out (among the errors).
fn timeout_count(r: &LoadReport) -> f64 {
    r.errors.get("timeout").copied().unwrap_or(0) as f64
}

/// Server CPU per 1,000 requests: CPU per second (`cores`) over requests per second.
fn cpu_per_1k(cores: f64, r: &LoadReport) -> f64 {
    cores * 1e9 / r.rps * 1000.0
}

fn error_count(r: &LoadReport) -> f64 {
    r.errors.values().sum::<u64>() as f64
}

/// "no successful request at … (errors: …)" with the server's last words.
fn no_success(server: &ServerProcess, r: &LoadReport, what: &str) -> Failure {
    let errors: Vec<String> = r.errors.iter().map(|(k, n)| format!("{k} {n}")).collect();
    Failure::Other(format!(
        "no successful request at {what} (errors: {}){}",
        errors.join(", "),
        server.stderr_suffix("; stderr: ")
    ))
}

/// Peak resident memory of a process tree, sampled every 50 ms on a thread of its own.
struct RssWatch {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<u64>,
}

impl RssWatch {
    fn start(roots: Vec<u32>) -> RssWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut samplers: Vec<TreeSampler> = roots.into_iter().map(TreeSampler::new).collect();
            let mut peak = 0;
            loop {
                peak = peak.max(samplers.iter_mut().map(|s| s.sample().rss_bytes).sum());
                if flag.load(Ordering::Relaxed) {
                    return peak;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        RssWatch { stop, thread }
    }

    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or(0)
    }
}
