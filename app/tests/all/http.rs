//! The HTTP suites end to end: real gateways (native, embedded wasmtime, wasmer, wasmi and
//! wasm3, a runtime CLI per request) and real server processes on loopback, measured through
//! every phase, with every view of the run; and servers that exit, hang, fail or find their
//! port taken, each failing its own cell while the run goes on.

use crate::common::{
    assert_all_ok, exported, failures, json, not_installed, runtimes_missing, stderr, wasmeter,
    with_own_suites,
};
use serde_json::Value;
use std::path::Path;

fn http_cell<'a>(report: &'a Value, rt: &str, test: &str) -> &'a Value {
    report["runs"][0]["http"]
        .as_array()
        .expect("http cells in the export")
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no http cell {rt} × {test}"))
}

fn num(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what}: not a number: {v}"))
}

fn cli_available(results: &Path, id: &str) -> bool {
    not_installed(&[id], results).is_empty()
}

#[test]
fn gateway_variants_answer_correctly_and_every_phase_is_measured() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rts = vec![
        "native",
        "wasmtime-pooling",
        "wasmer-cranelift",
        "wasmi",
        "wasm3",
    ];
    if cli_available(tmp.path(), "wasmtime-cli") {
        rts.push("wasmtime-cli");
    } else {
        eprintln!(
            "note: wasmtime-cli not installed; the CLI-per-request variant is not tested here"
        );
    }
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "gateway",
            "--runtimes",
            &rts.join(","),
            "--runs",
            "2",
            "--invocations",
            "1",
            "--concurrency",
            "1,8",
            "--duration",
            "0.4",
            // A second: under CI's load (the other tests and a build on one core), one
            // wasmtime-cli request (a process and a compile) once took longer than 0.3 s,
            // and a latency window in which no request completes fails the cell.
            "--latency",
            "1",
            "--json",
        ],
        tmp.path(),
    );
    let summary = json(&out);
    assert_all_ok(&summary, &out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let report = exported(tmp.path());
    for test in ["hello", "compute", "state", "proxy"] {
        for rt in &rts {
            let c = http_cell(&report, rt, test);
            let what = format!("{rt} × {test}");
            assert!(c["failure"].is_null(), "{what}: {c}");
            let cold = num(&c["cold_start"]["median"], &what);
            assert!(cold > 0.0 && cold < 10e9, "{what}: cold start {cold} ns");
            let (p50, p90, p99) = (
                num(&c["p50_ns"], &what),
                num(&c["p90_ns"], &what),
                num(&c["p99_ns"], &what),
            );
            assert!(
                0.0 < p50 && p50 <= p90 && p90 <= p99,
                "{what}: {p50} {p90} {p99}"
            );
            let levels = c["levels"].as_array().unwrap();
            let saturated = c["saturated"].as_array().unwrap();
            let mut conns: Vec<u64> = levels
                .iter()
                .chain(saturated)
                .map(|l| l["connections"].as_u64().unwrap())
                .collect();
            conns.sort_unstable();
            assert_eq!(conns, vec![1, 8], "{what}");
            // A process per request may not finish one request within 0.4 s at 8
            // connections on a busy machine: that level is then saturated (a measurement
            // with its bound), never an in-process variant's.
            assert!(
                saturated.is_empty() || (*rt == "wasmtime-cli" && conns == [1, 8]),
                "{what}: {c}"
            );
            for l in levels {
                assert!(num(&l["rps"]["median"], &what) > 1.0, "{what}: {l}");
                assert_eq!(num(&l["errors"], &what), 0.0, "{what}: {l}");
                assert!(num(&l["cpu_ns_per_1k"], &what) > 0.0, "{what}: {l}");
                assert!(num(&l["rss_bytes"], &what) > 100_000.0, "{what}: {l}");
            }
            assert!(num(&c["peak_rss_kib"], &what) > 100.0, "{what}");
        }
    }
    // The native gateway answers a hello in well under a millisecond: hundreds of
    // requests per second at the least, even on a loaded 2-core machine.
    let native = http_cell(&report, "native", "hello");
    assert!(num(&native["best"][1], "native best") > 500.0, "{native}");
    assert_eq!(num(&native["best_vs_baseline"], "native vs itself"), 1.0);
    if rts.contains(&"wasmtime-cli") {
        // A process per request cannot keep up with a function call per request.
        let cli = http_cell(&report, "wasmtime-cli", "hello");
        let (c, n) = (
            num(&cli["best"][1], "cli"),
            num(&native["best"][1], "native"),
        );
        assert!(c < n, "wasmtime-cli {c} rps vs native {n}");
    }

    // Every view shows the run.
    let show = wasmeter(&["show", "latest"], tmp.path());
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(show.status.success(), "{}", stderr(&show));
    for want in [
        "requests/s by connections",
        "cold start",
        "wasmtime-pooling",
        "proxy",
    ] {
        assert!(text.contains(want), "show lacks {want:?}:\n{text}");
    }
    let csv = wasmeter(
        &["export", "latest", "--format", "csv", "-o", "-"],
        tmp.path(),
    );
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(
        csv.lines()
            .any(|l| l.contains(",wasmtime-pooling,hello,throughput_c8,rps,2,")),
        "{csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.contains(",native,state,latency,wall,")),
        "{csv}"
    );
    let md = wasmeter(
        &["export", "latest", "--format", "md", "-o", "-"],
        tmp.path(),
    );
    assert!(String::from_utf8_lossy(&md.stdout).contains("| variant | cold start |"));
    let diff = wasmeter(
        &[
            "diff",
            "latest",
            "--runtimes",
            "native,wasmtime-pooling",
            "--json",
        ],
        tmp.path(),
    );
    let d = json(&diff);
    let phases: Vec<&str> = d["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["test"] == "hello")
        .map(|r| r["phase"].as_str().unwrap())
        .collect();
    for p in ["latency", "cold_start", "throughput_c1", "throughput_c8"] {
        assert!(phases.contains(&p), "diff lacks {p}: {phases:?}");
    }
}

#[test]
fn a_guest_the_gateway_cannot_serve_fails_its_cell_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suites/badgw");
    std::fs::create_dir_all(suite.join("src")).unwrap();
    // A real WASI command that prints a line, not a CGI reply.
    let root = crate::common::suites_root();
    std::fs::copy(
        root.join("overhead/wasm/empty.wasm"),
        suite.join("bad.wasm"),
    )
    .unwrap();
    std::fs::copy(root.join("overhead/src/empty.c"), suite.join("src/bad.c")).unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        "[suite]\nname = \"badgw\"\nkind = \"gateway\"\n[[test]]\nname = \"hello\"\nsource = \"src/bad.c\"\nwasm = \"bad.wasm\"\npath = \"/hello\"\n",
    )
    .unwrap();
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "badgw",
            "--runtimes",
            "native,wasmtime-pooling",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--concurrency",
            "2",
            "--duration",
            "0.2",
            "--latency",
            "0.1",
            "--ready-timeout",
            "1.5",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let s = json(&out);
    let f = failures(&s);
    assert_eq!(
        f[0], "ok",
        "the native gateway does not run the guest: {f:?}"
    );
    // It imports a clock, which the gateway's WASI does not give guests: refused at
    // start-up, naming the import.
    assert!(
        f[1].contains("cannot link") && f[1].contains("clock_time_get"),
        "{f:?}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn broken_servers_fail_their_own_cells_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suites/srv");
    std::fs::create_dir_all(&suite).unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy_port = busy.local_addr().unwrap().port();
    let py500 = "import http.server,sys\nclass H(http.server.BaseHTTPRequestHandler):\n  def do_GET(self):\n    sys.stderr.write('handler exploded\\n'); sys.stderr.flush(); self.send_error(500)\nhttp.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n";
    std::fs::write(suite.join("err500.py"), py500).unwrap();
    let manifest = format!(
        r#"[suite]
name = "srv"
kind = "servers"

[[test]]
name = "ok"
path = "/"
connections = 4
[[test.server]]
runtime = "native"
command = ["python3", "-m", "http.server", "{{port}}", "--bind", "127.0.0.1"]

[[test]]
name = "exits"
path = "/"
[[test.server]]
runtime = "native"
command = ["sh", "-c", "echo cannot open config >&2; exit 3"]

[[test]]
name = "hangs"
path = "/"
[[test.server]]
runtime = "native"
command = ["sleep", "60.4171"]

[[test]]
name = "errors"
path = "/"
[[test.server]]
runtime = "native"
command = ["python3", "{{suite}}/err500.py", "{{port}}"]

[[test]]
name = "busy"
path = "/"
[[test.server]]
runtime = "native"
port = {busy_port}
command = ["python3", "-m", "http.server", "{{port}}", "--bind", "127.0.0.1"]
"#
    );
    std::fs::write(suite.join("suite.toml"), manifest).unwrap();
    let t0 = std::time::Instant::now();
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "srv",
            "--runtimes",
            "native",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--duration",
            "0.3",
            "--latency",
            "0.2",
            "--ready-timeout",
            "1.5",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let s = json(&out);
    let f = failures(&s);
    assert_eq!(f[0], "ok", "{f:?}\n{}", stderr(&out));
    assert!(
        f[1].contains("exited") && f[1].contains("cannot open config"),
        "{f:?}"
    );
    assert!(f[2].contains("never became ready"), "{f:?}");
    assert!(
        f[3].contains("answered 500") && f[3].contains("handler exploded"),
        "{f:?}"
    );
    assert!(
        f[4].contains(&format!("port {busy_port} is in use")),
        "{f:?}"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(t0.elapsed().as_secs() < 60, "took {:?}", t0.elapsed());
    // The hanging server was stopped with its cell.
    let ps = std::process::Command::new("pgrep")
        // An unusual duration: no unrelated `sleep` on the machine matches it.
        .args(["-f", "^sleep 60.4171$"])
        .output()
        .unwrap();
    assert!(ps.stdout.is_empty(), "a server outlived its cell");
    drop(busy);
}

/// Processes whose command line contains `marker`.
fn pids_with(marker: &str) -> Vec<String> {
    let out = std::process::Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn ctrl_c_mid_load_stops_the_server_and_saves_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suites/srv");
    std::fs::create_dir_all(&suite).unwrap();
    // A directory name no other process has: how the server is found in the process list.
    let marker = format!("wasmeter-ctrlc-{}", std::process::id());
    let served = tmp.path().join(&marker);
    std::fs::create_dir_all(&served).unwrap();
    std::fs::write(served.join("index.html"), "hi").unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        format!(
            "[suite]\nname = \"srv\"\nkind = \"servers\"\n[[test]]\nname = \"ok\"\npath = \"/\"\nconnections = 4\nduration_secs = 30\n[[test.server]]\nruntime = \"native\"\ncommand = [\"python3\", \"-m\", \"http.server\", \"{{port}}\", \"--bind\", \"127.0.0.1\", \"--directory\", \"{}\"]\n",
            served.display()
        ),
    )
    .unwrap();
    let mut child = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "srv",
            "--runtimes",
            "native",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--latency",
            "0.2",
        ],
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while pids_with(&marker).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Under load for a moment, then Ctrl-C.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    #[allow(unsafe_code)]
    // SAFETY: kill has no memory effects; the pid is our own child's.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(pids_with(&marker).is_empty(), "the server outlived Ctrl-C");
    let runs = wasmeter(&["runs", "--json"], &tmp.path().join("results"));
    let v = json(&runs);
    assert_eq!(v[0]["status"], "cancelled", "{v}");
}

/// Copies the repository's servers suite with a short load: 1 s at 8 connections.
fn short_servers_suite(dir: &Path) {
    let src = crate::common::suites_root().join("servers");
    let dst = dir.join("suites/servers");
    std::fs::create_dir_all(dst.join("src/hello-workerd")).unwrap();
    for f in [
        "src/hello.js",
        "src/hello-workerd/worker.js",
        "src/hello-workerd/config.capnp",
    ] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    let manifest = std::fs::read_to_string(src.join("suite.toml")).unwrap();
    let short = manifest
        .replace("connections = [50, 400]", "connections = 8")
        .replace("duration_secs = 5", "duration_secs = 1");
    assert_ne!(short, manifest, "the servers suite's load settings moved");
    std::fs::write(dst.join("suite.toml"), short).unwrap();
}

#[test]
fn the_servers_suite_serves_hello_on_every_js_runtime() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let rts = ["node", "bun", "deno", "workerd"];
    let missing: Vec<&str> = rts
        .iter()
        .copied()
        .filter(|r| !cli_available(&results, r))
        .collect();
    if runtimes_missing(&missing) {
        return;
    }
    short_servers_suite(tmp.path());
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "servers",
            "--runtimes",
            &rts.join(","),
            "--runs",
            "1",
            "--invocations",
            "1",
            "--latency",
            "0.3",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let summary = json(&out);
    assert_all_ok(&summary, &out);
    let report = exported(&results);
    for rt in rts {
        let c = http_cell(&report, rt, "hello");
        assert!(c["failure"].is_null(), "{rt}: {c}");
        // Loaded at the suite's own level, and every request answered.
        assert_eq!(num(&c["best"][0], rt), 8.0, "{rt}: {c}");
        assert!(num(&c["best"][1], rt) > 200.0, "{rt}: {c}");
        let cold = num(&c["cold_start"]["median"], rt);
        assert!(cold > 0.0 && cold < 20e9, "{rt}: cold start {cold} ns");
    }
    // workerd serves, but runs no WASI command: every other suite leaves it out.
    let plan = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--runtimes",
            "workerd",
            "--json",
        ],
        &results,
    );
    assert_eq!(plan.status.code(), Some(2), "{}", stderr(&plan));
    assert!(
        stderr(&plan).contains("servers suite only"),
        "{}",
        stderr(&plan)
    );
}
