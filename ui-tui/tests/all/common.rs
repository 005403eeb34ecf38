//! Deterministic data for the UI tests: runtimes, a suite, saved runs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Metric, Phase, RuntimeInfo, RuntimeKind};
use wasmeter_core::store::{
    CellRecord, MeasurementRow, RunMeta, RunSettings, RunStatus, RunWriter, SCHEMA_VERSION,
    SampleRow, SavedRun, TestRecord,
};
use wasmeter_core::suite::{
    Build, CommandTest, GatewayTest, Guest, HttpTest, SourceBuild, Suite, TestCase, TestKind,
};

pub fn rt(
    id: &str,
    kind: RuntimeKind,
    version: &str,
    config: &str,
    unavailable: Option<&str>,
) -> RuntimeInfo {
    RuntimeInfo {
        id: id.into(),
        kind,
        version: version.into(),
        config: config.into(),
        unavailable: unavailable.map(String::from),
        hint: unavailable.map(|_| "scripts/install-runtimes".to_string()),
        command: None,
    }
}

pub fn runtimes() -> Vec<RuntimeInfo> {
    vec![
        rt(
            "native",
            RuntimeKind::Native,
            "cc 14.2.0",
            "C build, -O2",
            None,
        ),
        rt(
            "wasmtime",
            RuntimeKind::Embedded,
            "48.0.0",
            "Cranelift, default configuration",
            None,
        ),
        rt(
            "wasmtime-winch",
            RuntimeKind::Embedded,
            "48.0.0",
            "Winch baseline compiler",
            None,
        ),
        rt(
            "wasmer-cranelift",
            RuntimeKind::Embedded,
            "7.4.2",
            "Cranelift compiler, WASIX",
            None,
        ),
        rt(
            "wasmtime-cli",
            RuntimeKind::Cli,
            "-",
            "wasmtime run",
            Some("not found on PATH"),
        ),
        rt(
            "wazero",
            RuntimeKind::Cli,
            "-",
            "wazero run",
            Some("not found on PATH"),
        ),
    ]
}

fn guest(name: &str) -> Guest {
    Guest {
        wasm: PathBuf::from(format!("/suites/compute/wasm/{name}.wasm")),
        build: Build::Source(SourceBuild {
            source: PathBuf::from(format!("/suites/compute/src/{name}.c")),
            ..SourceBuild::default()
        }),
    }
}

fn test(name: &str, desc: &str, tags: &[&str]) -> TestCase {
    TestCase {
        name: name.into(),
        description: desc.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        kind: TestKind::Command(CommandTest {
            guest: guest(name),
            check: None,
        }),
    }
}

pub fn suites() -> Vec<Suite> {
    vec![
        Suite {
            name: "compute".into(),
            description: "CPU kernels".into(),
            kind: Default::default(),
            dir: PathBuf::from("/suites/compute"),
            tests: vec![
                test("sha256", "SHA-256 over a buffer", &["hashing"]),
                test("chacha20", "ChaCha20 stream cipher", &["cipher"]),
                test("nbody", "n-body simulation, doubles", &["float"]),
                test("qsort", "quicksort of integers", &["branchy"]),
            ],
            ..Default::default()
        },
        Suite {
            name: "http".into(),
            description: "HTTP gateway".into(),
            kind: wasmeter_core::suite::SuiteKind::Gateway,
            dir: PathBuf::from("/suites/http"),
            tests: vec![TestCase {
                kind: TestKind::Gateway(GatewayTest {
                    request: HttpTest {
                        path: "/hello".into(),
                        method: "GET".into(),
                        body: vec![],
                        connections: Vec::new(),
                        rates: Vec::new(),
                        duration_secs: None,
                        servers: vec![],
                        component: None,
                    },
                    guest: guest("hello"),
                }),
                ..test("hello", "a hello-world handler", &["http"])
            }],
            ..Default::default()
        },
    ]
}

pub fn machine(fingerprint: &str) -> Machine {
    Machine {
        cpu_model: "Test CPU @ 3.00GHz".into(),
        cores: 2,
        os: "Debian GNU/Linux 13".into(),
        kernel: "6.1.0".into(),
        governor: None,
        memory_bytes: 8 << 30,
        arch: "x86_64".into(),
        fingerprint: fingerprint.into(),
        cpus_allowed: None,
        cpu_quota: None,
        load_unreadable: None,
    }
}

pub const RTS: [&str; 3] = ["native", "wasmtime", "wasmer-cranelift"];
/// Worker processes per cell of the compute fixture: enough for a diff's verdicts.
pub const INVOCATIONS: u32 = 2;
/// Measured iterations per invocation (after one warm-up).
pub const INV_RUNS: u32 = 3;
pub const TESTS: [&str; 3] = ["sha256", "chacha20", "nbody"];

pub fn meta(id: &str, label: Option<&str>, started: f64) -> RunMeta {
    let all = runtimes();
    RunMeta {
        schema_version: SCHEMA_VERSION,
        id: id.into(),
        label: label.map(String::from),
        suite: "compute".into(),
        suite_kind: Default::default(),
        tests: TESTS
            .iter()
            .map(|t| TestRecord {
                name: t.to_string(),
                source_hash: format!("hash-{t}"),
                module_bytes: None,
                native_bytes: None,
                as_given: None,
            })
            .collect(),
        not_applicable: Vec::new(),
        runtimes: RTS
            .iter()
            .map(|r| all.iter().find(|x| x.id == *r).unwrap().clone())
            .collect(),
        settings: RunSettings {
            warmup: 1,
            order: wasmeter_core::store::RunOrder::Interleaved,
            seed: 7,
            memory_cap_bytes: 4 << 30,
            ..RunSettings::new(INV_RUNS, INVOCATIONS)
        },
        machine: machine("fp-1"),
        wasmeter_version: "0.1.0".into(),
        started_unix: started,
        finished_unix: Some(started + 30.0),
        status: RunStatus::Complete,
        pid: 1,
        files: Default::default(),
    }
}

/// Values of a cell: base time of the test × runtime factor × `scale` × small deterministic
/// noise; [`INVOCATIONS`] invocations of one warm-up and [`INV_RUNS`] runs each.
pub fn measurements(scale: f64, fail: Option<(&str, &str)>) -> Vec<MeasurementRow> {
    let mut v = Vec::new();
    for (ti, t) in TESTS.iter().enumerate() {
        let base = [2.0e6, 5.0e6, 1.2e7][ti];
        for (ri, r) in RTS.iter().enumerate() {
            if fail == Some((r, t)) {
                continue;
            }
            let factor = [1.0, 1.3 + 0.2 * ti as f64, 1.9 + 0.5 * ti as f64][ri];
            for inv in 0..INVOCATIONS {
                for i in 0..=INV_RUNS {
                    let k = inv * (INV_RUNS + 1) + i;
                    let noise = 1.0 + 0.013 * ((k * 7 + ri as u32 * 3 + ti as u32) % 5) as f64;
                    let x = base * factor * scale * noise;
                    let mut row = |phase, metric, value| {
                        v.push(MeasurementRow {
                            runtime: r.to_string(),
                            test: t.to_string(),
                            phase,
                            invocation: inv,
                            iteration: i,
                            warmup: i == 0,
                            metric,
                            value,
                        })
                    };
                    row(Phase::Execute, Metric::SelfNs, x);
                    if *r == "native" {
                        row(Phase::Total, Metric::WallNs, x + 9.0e5);
                    } else {
                        row(Phase::Compile, Metric::WallNs, 3.0e6 * factor);
                        row(Phase::Instantiate, Metric::WallNs, 4.0e4 * factor);
                        row(Phase::Execute, Metric::WallNs, x * 1.01);
                        row(Phase::Teardown, Metric::WallNs, 2.0e4);
                        row(Phase::Total, Metric::WallNs, x * 1.01 + 3.1e6 * factor);
                    }
                }
            }
        }
    }
    v
}

pub fn samples() -> Vec<SampleRow> {
    (0..60)
        .map(|i| SampleRow {
            t_ms: i as f64 * 100.0,
            runtime: RTS[i / 20].into(),
            test: "sha256".into(),
            cpu_pct: [98.0, 100.0, 75.0, 40.0, 99.0][i % 5],
            rss_bytes: (8 + (i as u64 % 20) * 2) << 20,
        })
        .collect()
}

/// One record per invocation of every cell; a failed cell's first invocation failed and
/// ended it.
pub fn cells(fail: Option<(&str, &str)>) -> Vec<CellRecord> {
    let mut v = Vec::new();
    for t in TESTS {
        for r in RTS {
            let failed = fail == Some((r, t));
            for inv in 0..if failed { 1 } else { INVOCATIONS } {
                v.push(CellRecord {
                    runtime: r.into(),
                    test: t.into(),
                    invocation: inv,
                    failure: failed.then(|| {
                        wasmeter_core::runtime::Failure::Trap("unreachable executed".into())
                    }),
                    wall_ms: 60.0,
                    other_cores: None,
                    notes: Vec::new(),
                    host: None,
                    started_ms: None,
                });
            }
        }
    }
    v
}

/// A run held in memory (not on disk).
pub fn saved_run(
    id: &str,
    label: Option<&str>,
    scale: f64,
    fail: Option<(&str, &str)>,
) -> SavedRun {
    SavedRun {
        dir: PathBuf::from(format!("/results/{id}")),
        meta: meta(id, label, 1_795_300_000.0),
        cells: cells(fail),
        measurements: measurements(scale, fail),
        samples: samples(),
    }
}

/// A cancelled run with the guards' cases: wasmer-cranelift × chacha20 is partial (its
/// second invocation never ran), wasmtime × nbody reported no self-timing (wall time only,
/// not comparable with native's self-timed value) and wasmer-cranelift × nbody failed.
pub fn guarded_run(id: &str) -> SavedRun {
    let mut run = saved_run(
        id,
        Some("cancelled"),
        1.0,
        Some(("wasmer-cranelift", "nbody")),
    );
    run.meta.status = RunStatus::Cancelled;
    let partial = |rt: &str, t: &str| rt == "wasmer-cranelift" && t == "chacha20";
    run.measurements
        .retain(|m| !(partial(&m.runtime, &m.test) && m.invocation == 1));
    run.cells
        .retain(|c| !(partial(&c.runtime, &c.test) && c.invocation == 1));
    run.measurements
        .retain(|m| !(m.runtime == "wasmtime" && m.test == "nbody" && m.metric == Metric::SelfNs));
    run
}

/// Writes a complete run to `results` with the core's writer; returns its directory.
pub fn write_run(results: &Path, id: &str, label: Option<&str>, scale: f64) -> PathBuf {
    let mut w = RunWriter::create(results, meta(id, label, 1_795_300_000.0)).unwrap();
    w.measurements(&measurements(scale, None)).unwrap();
    for s in samples() {
        w.sample(&s).unwrap();
    }
    for c in cells(None) {
        w.cell(&c).unwrap();
    }
    w.finish(RunStatus::Complete).unwrap()
}

/// Writes a run held in memory to `results` with the core's writer, as the runner would
/// have; returns its directory.
pub fn write_saved_run(results: &Path, run: &SavedRun) -> PathBuf {
    let mut w = RunWriter::create(results, run.meta.clone()).unwrap();
    w.measurements(&run.measurements).unwrap();
    for s in &run.samples {
        w.sample(s).unwrap();
    }
    for c in &run.cells {
        w.cell(c).unwrap();
    }
    w.finish(run.meta.status).unwrap()
}

/// A measurement event of one self-timed execute value.
pub fn measurement_event(rt: &str, test: &str, i: u32, v: f64) -> wasmeter_core::runner::Event {
    invocation_measurement(rt, test, 0, i, v)
}

/// A measurement event of one self-timed execute value of an invocation.
pub fn invocation_measurement(
    rt: &str,
    test: &str,
    invocation: u32,
    i: u32,
    v: f64,
) -> wasmeter_core::runner::Event {
    wasmeter_core::runner::Event::Measurement {
        rows: vec![MeasurementRow {
            runtime: rt.into(),
            test: test.into(),
            phase: Phase::Execute,
            invocation,
            iteration: i,
            warmup: false,
            metric: Metric::SelfNs,
            value: v,
        }],
    }
}

pub const LC_RTS: [&str; 2] = ["wasmtime-pooling", "wasmer-cranelift"];
pub const LC_TESTS: [&str; 5] = [
    "hello",
    "heap-64k-dense",
    "heap-64k-sparse",
    "heap-1m-dense",
    "heap-1m-sparse",
];

/// A lifecycle run: two engine configurations × hello and two heap sizes, dense and
/// sparse; copy-on-write instantiation flat in heap size, copying linear in the data.
pub fn lifecycle_run() -> SavedRun {
    let id = "20261122-050000-lifecycle-e5f6";
    let mut m = meta(id, None, 1_795_300_000.0);
    m.suite = "lifecycle".into();
    m.suite_kind = wasmeter_core::suite::SuiteKind::Lifecycle;
    // One worker process per cell, as every run saved before invocations.
    m.settings.invocations = 1;
    m.settings.order = wasmeter_core::store::RunOrder::Sequential;
    m.tests = LC_TESTS
        .iter()
        .map(|t| TestRecord {
            name: t.to_string(),
            source_hash: format!("hash-{t}"),
            module_bytes: None,
            native_bytes: None,
            as_given: None,
        })
        .collect();
    m.runtimes = vec![
        rt(
            "wasmtime-pooling",
            RuntimeKind::Embedded,
            "48.0.0",
            "Cranelift, pooling allocator, copy-on-write memory init",
            None,
        ),
        rt(
            "wasmer-cranelift",
            RuntimeKind::Embedded,
            "7.4.2",
            "Cranelift compiler, WASIX",
            None,
        ),
    ];
    m.not_applicable = vec![wasmeter_core::store::NotApplicable {
        runtime: "native".into(),
        test: None,
        why: "the lifecycle suite drives an engine in-process".into(),
    }];
    let mut v = Vec::new();
    for (ti, t) in LC_TESTS.iter().enumerate() {
        let heap = [0.0, 65536.0, 65536.0, 1048576.0, 1048576.0][ti];
        let data = [0.0, 65536.0, 8192.0, 1048576.0, 131072.0][ti];
        for (ri, r) in LC_RTS.iter().enumerate() {
            for i in 0..4u32 {
                let noise = 1.0 + 0.02 * ((i * 3 + ri as u32 + ti as u32) % 4) as f64;
                let cow = ri == 0;
                let inst = if cow {
                    1100.0 + heap / 1e6
                } else {
                    700.0 + data * 0.38
                };
                let mut row = |phase, metric, value: f64| {
                    v.push(MeasurementRow {
                        runtime: r.to_string(),
                        test: t.to_string(),
                        phase,
                        invocation: 0,
                        iteration: i,
                        warmup: i == 0,
                        metric,
                        value: value * noise,
                    })
                };
                row(Phase::Compile, Metric::WallNs, 3.0e5 + data * 1.6);
                row(Phase::Load, Metric::WallNs, 1.7e4 + data * 0.01);
                row(Phase::Instantiate, Metric::WallNs, inst);
                row(Phase::FirstInstantiate, Metric::WallNs, 2.0e4 + inst);
                row(Phase::Call, Metric::WallNs, [12.3, 57.8][ri]);
                row(Phase::FirstCall, Metric::WallNs, [1.2e4, 1.9e4][ri]);
                row(
                    Phase::Teardown,
                    Metric::WallNs,
                    if cow { 400.0 } else { 200.0 + data * 0.08 },
                );
                row(
                    Phase::Instantiate,
                    Metric::RssPerInstanceBytes,
                    if cow { 4096.0 } else { 1843.0 + data },
                );
                row(
                    Phase::Instantiate,
                    Metric::InstancesPerSec,
                    1e9 / (inst + 400.0),
                );
            }
        }
    }
    let cells = LC_TESTS
        .iter()
        .flat_map(|t| {
            LC_RTS.iter().map(move |r| CellRecord {
                runtime: r.to_string(),
                test: t.to_string(),
                invocation: 0,
                failure: None,
                wall_ms: 150.0,
                other_cores: None,
                notes: Vec::new(),
                host: None,
                started_ms: None,
            })
        })
        .collect();
    SavedRun {
        dir: PathBuf::from(format!("/results/{id}")),
        meta: m,
        cells,
        measurements: v,
        samples: samples(),
    }
}

pub const HTTP_RTS: [&str; 3] = ["native", "wasmtime-pooling", "wasmer-cranelift"];
pub const HTTP_TESTS: [&str; 2] = ["hello", "echo-1k"];
pub const HTTP_LEVELS: [u32; 4] = [1, 10, 50, 100];

/// A gateway run: native, embedded wasmtime (pooling) and wasmer per request, two requests,
/// three iterations; native throughput grows up to 50 connections, wasmtime's flattens at
/// 10; wasmer failed on `echo-1k`.
pub fn http_run() -> SavedRun {
    let id = "20261122-123047-gateway-e7f9";
    let mut m = meta(id, None, 1_795_300_000.0);
    m.suite = "gateway".into();
    m.suite_kind = wasmeter_core::suite::SuiteKind::Gateway;
    m.settings.warmup = 0;
    m.settings.runs = 3;
    m.settings.invocations = 1;
    m.settings.order = wasmeter_core::store::RunOrder::Sequential;
    m.settings.http = Some(wasmeter_core::http_suites::HttpSettings {
        levels: HTTP_LEVELS.to_vec(),
        duration_ms: 500,
        latency_ms: 300,
        ..Default::default()
    });
    m.tests = HTTP_TESTS
        .iter()
        .map(|t| TestRecord {
            name: t.to_string(),
            source_hash: format!("hash-{t}"),
            module_bytes: None,
            native_bytes: None,
            as_given: None,
        })
        .collect();
    m.runtimes = vec![
        rt(
            "native",
            RuntimeKind::Native,
            "cc 14.2.0",
            "C build, -O2",
            None,
        ),
        rt(
            "wasmtime-pooling",
            RuntimeKind::Embedded,
            "48.0.0",
            "Cranelift, pooling allocator",
            None,
        ),
        rt(
            "wasmer-cranelift",
            RuntimeKind::Embedded,
            "7.4.2",
            "Cranelift compiler, WASIX",
            None,
        ),
    ];
    let failed = ("wasmer-cranelift", "echo-1k");
    let mut v = Vec::new();
    for (ti, t) in HTTP_TESTS.iter().enumerate() {
        for (ri, r) in HTTP_RTS.iter().enumerate() {
            if (*r, *t) == failed {
                continue;
            }
            // Latency over one connection: 8 µs native, 44 µs wasmtime, 61 µs wasmer.
            let lat = [8.0e3, 44.0e3, 61.0e3][ri] * (1.0 + 0.5 * ti as f64);
            for i in 0..3u32 {
                let noise = 1.0 + 0.01 * ((i + ri as u32 + ti as u32) % 3) as f64;
                let mut row = |phase, metric, value: f64| {
                    v.push(MeasurementRow {
                        runtime: r.to_string(),
                        test: t.to_string(),
                        phase,
                        invocation: 0,
                        iteration: i,
                        warmup: false,
                        metric,
                        value: value * noise,
                    })
                };
                row(
                    Phase::ColdStart,
                    Metric::WallNs,
                    [4.1e6, 43.0e6, 120.0e6][ri],
                );
                row(Phase::Latency, Metric::WallNs, lat);
                row(Phase::Latency, Metric::P90Ns, lat * 1.1);
                row(Phase::Latency, Metric::P99Ns, lat * 1.9);
                for (li, c) in HTTP_LEVELS.iter().enumerate() {
                    let ph = Phase::Throughput(*c);
                    let rps = match ri {
                        0 => [130e3, 170e3, 180e3, 176e3][li],
                        1 => [16e3, 21e3, 20e3, 19e3][li],
                        _ => [12e3, 14e3, 13e3, 9e3][li],
                    } / (1.0 + 0.5 * ti as f64);
                    row(ph, Metric::Rps, rps);
                    row(ph, Metric::WallNs, *c as f64 * 1e9 / rps);
                    row(ph, Metric::P99Ns, *c as f64 * 3e9 / rps);
                    row(ph, Metric::CpuNsPer1k, [3.3e6, 63.0e6, 80.0e6][ri]);
                    row(ph, Metric::RssBytes, [11.0, 29.0, 41.0][ri] * 1048576.0);
                    row(
                        ph,
                        Metric::Errors,
                        if ri == 2 && li == 3 { 4.0 } else { 0.0 },
                    );
                }
                row(
                    Phase::Total,
                    Metric::MaxRssKib,
                    [12084.0, 30618.0, 42000.0][ri],
                );
            }
        }
    }
    let cells = HTTP_TESTS
        .iter()
        .flat_map(|t| {
            HTTP_RTS.iter().map(move |r| CellRecord {
                runtime: r.to_string(),
                test: t.to_string(),
                invocation: 0,
                failure: ((*r, *t) == failed).then(|| {
                    wasmeter_core::runtime::Failure::Trap("out of bounds memory access".into())
                }),
                wall_ms: 1600.0,
                other_cores: None,
                notes: Vec::new(),
                host: None,
                started_ms: None,
            })
        })
        .collect();
    SavedRun {
        dir: PathBuf::from(format!("/results/{id}")),
        meta: m,
        cells,
        measurements: v,
        samples: samples(),
    }
}

/// The row of the settings field named `name` among those shown (what the cursor takes).
pub fn settings_field(app: &wasmeter_tui::App, name: &str) -> usize {
    app.settings
        .shown()
        .iter()
        .position(|&i| wasmeter_tui::panes::settings::FIELDS[i] == name)
        .unwrap_or_else(|| panic!("no settings field {name}"))
}

/// A key pressed, as the event loop passes it.
pub fn key(app: &mut wasmeter_tui::App, code: crossterm::event::KeyCode) {
    app.on_key(crossterm::event::KeyEvent::from(code));
}

/// Each character of `s` typed.
pub fn keys(app: &mut wasmeter_tui::App, s: &str) {
    for c in s.chars() {
        key(app, crossterm::event::KeyCode::Char(c));
    }
}

/// Types `value` into the settings field named `name` (what was there cleared) and gives
/// the error it shows, if any.
pub fn set_setting(app: &mut wasmeter_tui::App, name: &str, value: &str) -> Option<String> {
    use crossterm::event::KeyCode;
    app.settings.cursor = settings_field(app, name);
    key(app, KeyCode::Enter);
    for _ in 0..80 {
        key(app, KeyCode::Backspace);
    }
    keys(app, value);
    key(app, KeyCode::Enter);
    app.settings.error.clone()
}

/// What `draw` puts on a `width` × `height` screen, as lines of text.
pub fn screen_text(
    width: u16,
    height: u16,
    draw: impl FnOnce(ratatui::layout::Rect, &mut ratatui::buffer::Buffer),
) -> String {
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    draw(area, &mut buf);
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
