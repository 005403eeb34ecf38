//! The gateway's container variant end to end: the native gateway in a real OCI container
//! (podman here, or docker), its port published on loopback, measured beside the native
//! gateway; the container's creation counted in its cold start; no container left behind.

use crate::common::{exported, json, not_installed, outcome, runtimes_missing, stderr, wasmeter};
use serde_json::Value;

/// The tests here count every container wasmeter made on the machine: one at a time.
static ENGINE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ENGINE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The containers wasmeter made that still exist, by name.
fn ours(engine: &str) -> Vec<String> {
    listed(engine, &["-a"])
}

/// Those of [`ours`] that are running (not just created, which a killed client's
/// `--rm` may still take away).
fn ours_running(engine: &str) -> Vec<String> {
    listed(engine, &["--filter", "status=running"])
}

fn listed(engine: &str, filter: &[&str]) -> Vec<String> {
    let out = std::process::Command::new(engine)
        .arg("ps")
        .args(filter)
        .args(["--filter", "label=wasmeter.owner", "--format", "{{.Names}}"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_native_gateway_in_a_container_is_measured_and_removed() {
    let Some((_one, engine, ocis)) = engine_here() else {
        return;
    };
    for oci in &ocis {
        native_gateway_in_a_container(engine, oci);
    }
}

fn native_gateway_in_a_container(engine: &str, oci: &Oci) {
    let tmp = tempfile::tempdir().unwrap();
    // `proxy` too: the gateway in its container reaches the upstream in a sidecar.
    let load = "--invocations 2 --concurrency 1,8 --duration 0.4 --latency 0.3";
    three_requests(tmp.path(), "container", load, oci);
    // Figures: through the published port, with the container's processes sampled.
    let v = exported(tmp.path());
    let (native, boxed) = (
        http_cell(&v, "native", "hello"),
        http_cell(&v, "container", "hello"),
    );
    for l in http_cell(&v, "container", "proxy")["levels"]
        .as_array()
        .unwrap()
    {
        assert!(l["rps"]["median"].as_f64().unwrap() > 100.0, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
    }
    let cold = |c: &Value| c["cold_start"]["median"].as_f64().unwrap();
    // Creating and starting a container costs more than starting a process.
    assert!(cold(&boxed) > cold(&native), "{boxed}\n{native}");
    let native_cpu: f64 = native["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["cpu_ns_per_1k"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    for l in boxed["levels"].as_array().unwrap() {
        assert!(l["rps"]["median"].as_f64().unwrap() > 100.0, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
        // The gateway inside counts, not only the engine's client (idle while the
        // published port forwards in the kernel): its memory, and at least a fifth of the
        // CPU per request of the same gateway outside (about the same when quiet; a
        // fifth is a margin noise beside other tests does not reach).
        assert!(l["rss_bytes"].as_f64().unwrap() > 5e6, "{l}");
        let cpu = l["cpu_ns_per_1k"].as_f64().unwrap();
        assert!(
            cpu > native_cpu / 5.0,
            "container {cpu} ns/1k vs native {native_cpu}: {l}"
        );
    }
    // What the host needed (flags the probe found) is kept with the cell and shown.
    let notes: Vec<&str> = boxed["notes"]
        .as_array()
        .map(|n| n.iter().map(|v| v.as_str().unwrap()).collect())
        .unwrap_or_default();
    assert!(native["notes"].is_null(), "{native}");
    let shown = oci.wasmeter(&["show", "latest"], tmp.path());
    let shown = String::from_utf8_lossy(&shown.stdout);
    for n in &notes {
        assert!(n.starts_with("adapted to this host: "), "{n}");
        assert!(
            shown.contains(&format!("container × hello: {n}")),
            "{n}\n{shown}"
        );
    }
    eprintln!("container notes under {}: {notes:?}", oci.name);
    // Every container is gone when the run ends.
    let left = ours(engine);
    assert!(left.is_empty(), "{}: containers left: {left:?}", oci.name);
}

/// The least load that still measures: the fake engines' tests check what was started,
/// not how fast.
const TINY_LOAD: &[&str] = &[
    "--concurrency",
    "1",
    "--duration",
    "0.3",
    "--latency",
    "0.2",
];

/// Runs `hello`, `state` and `proxy` on native and `variant` with `load`'s settings under
/// `oci`, and checks every cell answered right.
fn three_requests(dir: &std::path::Path, variant: &str, load: &str, oci: &Oci) {
    let runtimes = format!("native,{variant}");
    let head = ["run", "--suite", "gateway", "--tests", "hello,state,proxy"];
    let load: Vec<&str> = load.split(' ').collect();
    let args = [
        &head[..],
        &["--runtimes", &runtimes, "--runs", "1", "--json"],
        &load,
    ]
    .concat();
    let out = oci.wasmeter(&args, dir);
    let summary = json(&out);
    for test in ["hello", "state", "proxy"] {
        for rt in ["native", variant] {
            assert_eq!(
                outcome(&summary, rt, test),
                "ok",
                "{rt} × {test} under {}\n{}",
                oci.name,
                stderr(&out)
            );
        }
    }
}

/// The exported cell of a runtime and test in the latest run.
fn http_cell(v: &Value, rt: &str, test: &str) -> Value {
    v["runs"][0]["http"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no {rt} × {test} in {v}"))
        .clone()
}

/// The guest, built natively, in a fresh container per request: every request answered
/// right (`state`'s counter kept by the host, `proxy` forwarded by it), far slower than
/// the native gateway, with the containers' own processes (the engine's monitor and the
/// guest) counted in its CPU, and none left.
#[test]
fn the_guest_in_a_container_per_request_is_measured_and_removed() {
    let Some((_one, engine, ocis)) = engine_here() else {
        return;
    };
    for oci in &ocis {
        guest_in_a_container_per_request(engine, oci);
    }
}

fn guest_in_a_container_per_request(engine: &str, oci: &Oci) {
    let tmp = tempfile::tempdir().unwrap();
    // A container's start per request: under a loaded CI machine one took over 0.5 s, and
    // a latency window in which none completes fails the cell.
    let load = "--invocations 1 --concurrency 1,4 --duration 1.5 --latency 2";
    three_requests(tmp.path(), "container-per-request", load, oci);
    let v = exported(tmp.path());
    let (native, boxed) = (
        http_cell(&v, "native", "hello"),
        http_cell(&v, "container-per-request", "hello"),
    );
    let min_cpu = |c: &Value| {
        c["levels"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| l["cpu_ns_per_1k"].as_f64())
            .fold(f64::INFINITY, f64::min)
    };
    // A container per request: its latency is a container's start, tens of milliseconds
    // at least, where the native gateway answers in well under one.
    let latency = |c: &Value| c["p50_ns"].as_f64().unwrap();
    assert!(latency(&boxed) > 10e6, "{boxed}");
    assert!(
        latency(&boxed) > 50.0 * latency(&native),
        "{boxed}\n{native}"
    );
    for l in boxed["levels"].as_array().unwrap() {
        assert!(l["rps"]["median"].as_f64().unwrap() > 0.5, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
        // The engine's client, its monitor and the guest, per request.
        assert!(l["rss_bytes"].as_f64().unwrap() > 20e6, "{l}");
    }
    // CPU per request: the engine's client alone is ~60 ms here; with its monitor and the
    // guest (adopted by the gateway) more, and far more than the native gateway's.
    let cpu = min_cpu(&boxed);
    assert!(
        cpu > 1e3 * min_cpu(&native),
        "{cpu} vs {}",
        min_cpu(&native)
    );
    assert!(cpu / 1e3 > 20e6, "{cpu} ns per 1k requests");
    let left = ours(engine);
    assert!(left.is_empty(), "{}: containers left: {left:?}", oci.name);
}

/// `kill -9` of wasmeter and its workers (the whole process group) mid-cell leaves the
/// container running, owned by a dead process; resuming the run clears it before anything
/// else, finishes the run, and leaves none behind.
#[test]
fn a_container_left_by_a_killed_run_is_removed_when_it_resumes() {
    let Some((_one, engine, ocis)) = engine_here() else {
        return;
    };
    for oci in &ocis {
        killed_run_resumed(engine, oci);
    }
}

fn killed_run_resumed(engine: &str, oci: &Oci) {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let mut child = oci.command();
    child
        .args([
            "run",
            "--suite",
            "gateway",
            "--tests",
            "hello",
            "--runtimes",
            "container",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--invocations",
            "1",
            "--concurrency",
            "1",
            "--duration",
            "4",
            "--latency",
            "0.3",
            "--results",
        ])
        .arg(&results)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    let mut child = child.spawn().unwrap();
    // Until the gateway's container runs (the image may be made first): killed while it
    // was only created, its client's `--rm` could still remove it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while ours_running(engine).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no container started under {}",
            oci.name
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let pgid = child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap();
    let left = ours(engine);
    assert!(
        !left.is_empty(),
        "the kill left no container: nothing to test"
    );
    let dir = std::fs::read_dir(&results)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let id = dir.file_name().unwrap().to_str().unwrap().to_string();
    let out = oci.wasmeter(&["run", "--resume", &id, "--json"], &results);
    assert!(out.status.success(), "{}: {}", oci.name, stderr(&out));
    assert_eq!(outcome(&json(&out), "container", "hello"), "ok");
    let after = ours(engine);
    assert!(
        after.is_empty(),
        "{}: containers left after the resumed run: {after:?} (before: {left:?})",
        oci.name
    );
}

/// The lock, the engine and the OCI runtimes of a container test.
type Here = (std::sync::MutexGuard<'static, ()>, &'static str, Vec<Oci>);

/// One test at a time, the engine and the configurations to run under (`None`, said, when
/// the machine has no engine: allowed outside CI only).
fn engine_here() -> Option<Here> {
    let one = one_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    if runtimes_missing(&not_installed(&["container"], tmp.path())) {
        return None;
    }
    let engine = engine_of(tmp.path());
    let ocis = if engine == "podman" {
        Oci::both()
    } else {
        vec![Oci::engines_own()]
    };
    Some((one, engine, ocis))
}

/// A scratch podman configuration naming one OCI runtime, and nothing else: podman reads
/// only the file `CONTAINERS_CONF` names (every other containers.conf is ignored) and an
/// empty `XDG_CONFIG_HOME`, so this machine's /etc/containers or ~/.config/containers can
/// neither make a container test pass nor fail. As a fresh podman would, with that runtime.
struct Oci {
    /// "crun", "runc", or the engine's own configuration (docker).
    name: &'static str,
    /// The scratch `containers.conf` and `XDG_CONFIG_HOME`; `None` for docker.
    dir: Option<tempfile::TempDir>,
}

impl Oci {
    /// crun (a fresh Debian podman's default) and runc, each installed (a missing one is
    /// said, and fails under CI as a missing runtime does).
    fn both() -> Vec<Oci> {
        let ocis: Vec<Oci> = ["crun", "runc"]
            .into_iter()
            .filter(|name| {
                let here = installed(name);
                if !here {
                    assert!(
                        std::env::var("CI").is_err(),
                        "CI must have the OCI runtime {name} (scripts/test installs it)"
                    );
                    eprintln!("skipping the container tests under {name}: not installed");
                }
                here
            })
            .map(|name| {
                let dir = tempfile::tempdir().unwrap();
                std::fs::write(
                    dir.path().join("containers.conf"),
                    format!("[engine]\nruntime = \"{name}\"\n"),
                )
                .unwrap();
                std::fs::create_dir(dir.path().join("xdg")).unwrap();
                Oci {
                    name,
                    dir: Some(dir),
                }
            })
            .collect();
        ocis
    }

    fn engines_own() -> Oci {
        Oci {
            name: "the engine's own configuration",
            dir: None,
        }
    }

    /// wasmeter with the repository's suites, no user config, under this configuration.
    fn command(&self) -> std::process::Command {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"));
        c.env("WASMETER_SUITES", crate::common::suites_root())
            .env("WASMETER_CONFIG", "/dev/null");
        if let Some(dir) = &self.dir {
            c.env("CONTAINERS_CONF", dir.path().join("containers.conf"))
                .env("XDG_CONFIG_HOME", dir.path().join("xdg"));
        }
        c
    }

    /// As [`crate::common::wasmeter`], under this configuration.
    fn wasmeter(&self, args: &[&str], results: &std::path::Path) -> std::process::Output {
        self.command()
            .args(args)
            .arg("--results")
            .arg(results)
            .output()
            .expect("run wasmeter")
    }
}

/// Whether an OCI runtime answers `--version` (on PATH, or in /usr/sbin where Debian puts
/// runc).
fn installed(name: &str) -> bool {
    [name.to_string(), format!("/usr/sbin/{name}")]
        .iter()
        .any(|p| {
            std::process::Command::new(p)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// `docker` when the runtimes row says so, else `podman`.
fn engine_of(results: &std::path::Path) -> &'static str {
    let listed = json(&wasmeter(&["runtimes", "--json"], results));
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "container")
        .unwrap()
        .clone();
    if row["version"].as_str().unwrap().starts_with("docker") {
        "docker"
    } else {
        "podman"
    }
}

/// Puts `script` as each of `names` in `dir/bin` and returns a PATH with it first.
fn fake_engine(dir: &std::path::Path, script: &str, names: &[&str]) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    for name in names {
        let p = bin.join(name);
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A container engine's CLI that fails one way, put first on PATH as both `docker` (whose
/// engine never answers) and `podman`: `import` fails for `image`, the probe's start for
/// `refuse`, and the gateway's start for `port`.
const FAKE_ENGINE: &str = r#"#!/bin/sh
case "$0" in *docker) exit 1;; esac
case "$1" in
  version) echo "4.3.1-fake"; exit 0;;
  image) exit 1;;
  import)
    cat >/dev/null
    if [ "$FAKE_MODE" = image ]; then echo "Error: writing blob: no space left on device" >&2; exit 125; fi
    exit 0;;
  run)
    for a; do last=$a; done
    if [ "$last" = "--version" ]; then
      if [ "$FAKE_MODE" = refuse ]; then echo "Error: OCI runtime error: runc: permission denied" >&2; exit 126; fi
      exit 0
    fi
    cat >/dev/null
    echo "Error: rootlessport listen tcp 127.0.0.1:8080: bind: address already in use" >&2
    exit 126;;
  *) exit 0;;
esac
"#;

#[test]
fn an_engine_that_fails_fails_only_the_container_cell_with_one_line() {
    for (mode, words) in [
        (
            "image",
            &[
                "the image build failed (podman import): Error: writing blob: no space left on device",
            ][..],
        ),
        (
            "refuse",
            &[
                "the container engine refused to start it with every setting tried (the default; --ulimit nofile=",
                "): Error: OCI runtime error: runc: permission denied",
            ][..],
        ),
        ("port", &["address already in use"][..]),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let path = fake_engine(tmp.path(), FAKE_ENGINE, &["podman", "docker"]);
        let load = [TINY_LOAD, &["--ready-timeout", "5"]].concat();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
            .args(["run", "--suite", "gateway", "--tests", "hello"])
            .args(crate::common::once("native,container", &load))
            .arg("--results")
            .arg(tmp.path().join("results"))
            .env("WASMETER_SUITES", crate::common::suites_root())
            .env("WASMETER_CONFIG", "/dev/null")
            .env("PATH", path)
            .env("FAKE_MODE", mode)
            .output()
            .unwrap();
        let summary = json(&out);
        assert_eq!(
            outcome(&summary, "native", "hello"),
            "ok",
            "{mode}: {}",
            stderr(&out)
        );
        let failure = outcome(&summary, "container", "hello");
        for w in words {
            assert!(failure.contains(w), "{mode}: {failure}");
        }
        assert_eq!(failure.lines().count(), 1, "{mode}: {failure}");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{mode}: a failed cell fails the run"
        );
    }
}

/// A podman that refuses the default start as a fresh Debian podman (crun) refuses it here,
/// and refuses `--ulimit` alone and `--runtime runc` alone in crun's and runc's words, but
/// starts a container given both; it "runs" an image by running its entry from the
/// imported root filesystem (the guest, built natively, with the host's libraries).
const PICKY_ENGINE: &str = r#"#!/bin/sh
case "$0" in *docker) exit 1;; esac
store="$(dirname "$0")/store"
case "$1" in
  version) echo "4.3.1-fake"; exit 0;;
  image) exit 1;;
  import)
    for a; do tag=$a; done
    dir="$store/$(echo "$tag" | tr '/:' '__')"
    mkdir -p "$dir" && tar -x -C "$dir"; exit $?;;
  run)
    shift
    ulimit=0; runc=0; image=""; interactive=0
    while [ $# -gt 0 ]; do
      case "$1" in
        -i) interactive=1; shift;;
        --ulimit) ulimit=1; shift 2;;
        --runtime) [ "$2" = runc ] && runc=1; shift 2;;
        --label|--name|--network|-p) shift 2;;
        localhost/*) image=$1; shift; break;;
        *) shift;;
      esac
    done
    [ $interactive = 0 ] && echo "$ulimit$runc" >> "$store/probes.log"
    if [ $ulimit = 0 ] && [ $runc = 0 ]; then
      echo 'Error: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied' >&2; exit 126
    fi
    if [ $runc = 0 ]; then
      echo 'Error: crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2: OCI runtime error' >&2; exit 126
    fi
    if [ $ulimit = 0 ]; then
      echo 'Error: OCI runtime error: runc: runc create failed: unable to start container process: error during container init: error setting rlimit type 7: operation not permitted' >&2; exit 126
    fi
    entry="$store/$(echo "$image" | tr '/:' '__')/guest"
    exec "$entry" "$@";;
  *) exit 0;;
esac
"#;

/// When the default start is refused, every known setting is tried whatever the refusal
/// says, and the first that starts (here only `--ulimit` with `--runtime runc`) serves the
/// cell and is noted: matching crun's refusal by its words alone would fail this cell.
#[test]
fn a_refused_default_start_is_probed_until_a_setting_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let path = fake_engine(tmp.path(), PICKY_ENGINE, &["podman", "docker", "runc"]);
    let bin = tmp.path().join("bin");
    let results = tmp.path().join("results");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(["run", "--suite", "gateway", "--tests", "hello,state"])
        .args(crate::common::once("container-per-request", TINY_LOAD))
        .arg("--results")
        .arg(&results)
        .env("WASMETER_SUITES", crate::common::suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .env("PATH", path)
        .output()
        .unwrap();
    let summary = json(&out);
    for test in ["hello", "state"] {
        assert_eq!(
            outcome(&summary, "container-per-request", test),
            "ok",
            "{}",
            stderr(&out)
        );
    }
    let v = exported(&results);
    let cell = http_cell(&v, "container-per-request", "hello");
    let notes: Vec<&str> = cell["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("no notes: {cell}"))
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    for words in [
        "adapted to this host: --ulimit nofile=",
        " --runtime runc (the engine's default start was refused: Error: crun: setrlimit `RLIMIT_NOFILE`",
    ] {
        assert!(notes[0].contains(words), "{words}: {notes:?}");
    }
    // One start per setting, once per run (the second cell read the first's answer): the
    // default, then `--ulimit` (first: the refusal names an rlimit), `--runtime runc`, both.
    let probes = std::fs::read_to_string(bin.join("store/probes.log")).unwrap();
    assert_eq!(
        probes.lines().collect::<Vec<_>>(),
        ["00", "10", "01", "11"],
        "ulimit, runc flags of each probe start"
    );
}
