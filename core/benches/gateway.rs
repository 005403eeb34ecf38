//! Per-request cost of each gateway backend, in process and on one thread, without HTTP:
//! what a request costs the server before any network I/O, and so what bounds the
//! embedded gateways' throughput against native. `cargo bench --profile ci --workspace
//! --bench gateway [BACKEND [WORKLOAD]]`; figures in docs/http.md.

use std::path::Path;
use std::time::{Duration, Instant};
use wasmeter_core::config::Config;
use wasmeter_core::http::guest::GuestCall;
use wasmeter_core::http_suites::gateway::{GatewaySpec, backend};
use wasmeter_core::runtime::known_runtimes;

fn main() {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/gateway/wasm/gateway.wasm");
    let runtimes = known_runtimes(&Config::default());
    let calls = [
        ("hello", vec![]),
        ("state", vec!["41".to_string()]),
        ("compute", vec!["1000".to_string()]),
    ];
    println!(
        "{:<18} {:>8} {:>14} {:>12}",
        "backend", "workload", "µs/request", "requests/s"
    );
    // Optional filters: a backend id and a workload (`--bench` is cargo's own flag).
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |i: usize, v: &str| args.get(i).is_none_or(|a| a == v);
    for id in ["native", "wasmtime-pooling", "wasmtime", "wasmer-cranelift"] {
        if !wanted(0, id) {
            continue;
        }
        let rt = runtimes
            .iter()
            .find(|r| r.id == id)
            .expect("known runtime")
            .clone();
        let spec = GatewaySpec {
            runtime: rt,
            wasm: wasm.clone(),
            port: 0,
            upstream: None,
            threads: 1,
            cli_inflight: 1,
            memory_limit: 1 << 30,
            scratch: std::env::temp_dir().join("wasmeter-gateway-bench"),
            listen_any: false,
        };
        let b = backend(&spec).expect("backend");
        for (w, args) in calls.iter().filter(|(w, _)| wanted(1, w)) {
            let call = GuestCall {
                workload: w.to_string(),
                args: args.clone(),
                stdin: Vec::new(),
            };
            // Warm up, then as many calls as fit in a second.
            for _ in 0..200 {
                b.call(&call).expect("call");
            }
            let t = Instant::now();
            let mut n = 0u64;
            while t.elapsed() < Duration::from_secs(1) {
                for _ in 0..50 {
                    let r = b.call(&call).expect("call");
                    assert_eq!(r.status, 200);
                }
                n += 50;
            }
            let per = t.elapsed().as_secs_f64() / n as f64;
            println!("{id:<18} {w:>8} {:>14.2} {:>12.0}", per * 1e6, 1.0 / per);
        }
    }
}
