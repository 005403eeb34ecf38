//! The gateway's `container` variant: the native gateway (`wasmeter serve-gateway` with the
//! Rust backend) inside an OCI container on a bridge network, its port published on
//! 127.0.0.1, as the published study ran its gateway in Docker. The engine is the `docker`
//! CLI when a Docker engine answers, else podman. The image is made here from the wasmeter
//! binary and the shared libraries it loads (`podman import` of that root filesystem):
//! nothing is pulled from a registry.
//!
//! Some hosts refuse what an engine does by default. When the default start is refused,
//! whatever the message says, the known working settings are tried in turn (see
//! [`settings`]): explicit `--ulimit` values at or below this process's own, `--runtime
//! runc` when runc is installed, then both. The first that starts is kept for the run and
//! said in the cell's notes; known words in the refusal only order the tries. One short
//! `run --rm` per setting, once per run.
//!
//! Every container is labelled with the worker that made it and removed when its cell
//! ends; containers whose worker is gone (a `kill -9`) are removed before the next start.
//!
//! The `proxy` request's upstream echo server runs in a second container sharing the
//! gateway's network namespace (`--network container:NAME`), so the gateway reaches it on
//! that namespace's loopback, as a sidecar: nothing listens on the host for it.
//!
//! The [`PER_REQUEST`] variant runs the test's C guest, built natively, in a fresh
//! container per request (no network; body on stdin, reply on stdout, as the CLI
//! variants run a runtime per request), from the native gateway on the host.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The variant's runtime id.
pub const VARIANT: &str = "container";

/// The container-per-request variant's runtime id.
pub const PER_REQUEST: &str = "container-per-request";

/// Whether a runtime id is one of the container variants.
pub fn is_variant(id: &str) -> bool {
    id == VARIANT || id == PER_REQUEST
}

/// The port the `proxy` upstream sidecar listens on, on the gateway container's loopback.
pub const UPSTREAM_PORT: u16 = 8081;

/// The name of the container serving on `port` for this process.
pub fn name(port: u16) -> String {
    format!("wasmeter-{}-{port}", std::process::id())
}

/// Label on every container wasmeter makes; its value is the making process's pid.
pub const LABEL: &str = "wasmeter.owner";

/// [`LABEL`] with this process as the owner, as `--label` takes it.
fn owned_here() -> String {
    format!("{LABEL}={}", std::process::id())
}

/// The port the gateway listens on inside its container.
pub const INNER_PORT: u16 = 8080;

/// A container engine's CLI.
#[derive(Debug, Clone)]
pub struct Engine {
    /// `docker` or `podman`, resolved.
    pub program: PathBuf,
    /// "podman 4.3.1", "docker 28.2.2".
    pub version: String,
}

/// How to get a container engine, for the runtime's row.
pub const HINT: &str = "podman (Debian: apt-get install podman runc; scripts/test installs it) or a running Docker engine";

/// What an image holds: the wasmeter binary serving the gateway (and the upstream
/// sidecar), or a native guest run once per request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `/wasmeter`: `serve-gateway`, `serve-echo`.
    Gateway,
    /// `/guest`: the test's C guest, built natively.
    Guest,
}

impl Role {
    fn repository(self) -> &'static str {
        match self {
            Role::Gateway => "localhost/wasmeter-gateway",
            Role::Guest => "localhost/wasmeter-guest",
        }
    }

    fn entry(self) -> &'static str {
        match self {
            Role::Gateway => "wasmeter",
            Role::Guest => "guest",
        }
    }
}

/// The engine to use: docker when its engine answers, else podman; `Err` says why none.
/// Its program is resolved to a path: per-request containers start with no environment.
pub fn detect() -> Result<Engine, String> {
    let answer = |program: &str, args: &[&str]| -> Option<String> {
        let out = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let resolve = |program: &str| {
        std::env::var_os("PATH")
            .and_then(|path| {
                std::env::split_paths(&path)
                    .map(|d| d.join(program))
                    .find(|p| p.is_file())
            })
            .unwrap_or_else(|| program.into())
    };
    if let Some(v) = answer("docker", &["version", "--format", "{{.Server.Version}}"]) {
        return Ok(Engine {
            program: resolve("docker"),
            version: format!("docker {v}"),
        });
    }
    if let Some(v) = answer("podman", &["version", "--format", "{{.Client.Version}}"]) {
        return Ok(Engine {
            program: resolve("podman"),
            version: format!("podman {v}"),
        });
    }
    Err("no container engine: neither a Docker engine nor podman answers".into())
}

impl Engine {
    fn cmd(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.stdin(Stdio::null());
        c
    }

    fn run_quiet(&self, args: &[&str]) -> Result<String, String> {
        let out = self
            .cmd()
            .args(args)
            .output()
            .map_err(|e| format!("{}: {e}", self.name()))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            Err(last_line(&out.stderr))
        }
    }

    /// The image holding `binary` (as its role's entry point) and its libraries, made once
    /// per binary (its name carries a hash of the binary's path, size and modification
    /// time). A new gateway image prunes the older ones (each holds a whole wasmeter); guest
    /// images are a few MB and kept, as the native builds they hold are.
    pub fn image(&self, binary: &Path, role: Role) -> Result<String, String> {
        let meta = std::fs::metadata(binary).map_err(|e| format!("{}: {e}", binary.display()))?;
        let mut h = Sha256::new();
        h.update(binary.display().to_string().as_bytes());
        h.update(meta.len().to_le_bytes());
        if let Ok(t) = meta.modified()
            && let Ok(d) = t.duration_since(std::time::UNIX_EPOCH)
        {
            h.update(d.as_nanos().to_le_bytes());
        }
        let tag = format!(
            "{}:{}",
            role.repository(),
            &crate::text::hex(&h.finalize())[..16]
        );
        if self
            .run_quiet(&["image", "inspect", "--format", "{{.Id}}", &tag])
            .is_ok()
        {
            return Ok(tag);
        }
        let root = std::env::temp_dir().join(format!("wasmeter-rootfs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let made = rootfs(binary, role.entry(), &root)
            .and_then(|()| self.import(&root, role.entry(), &tag));
        let _ = std::fs::remove_dir_all(&root);
        made?;
        if role == Role::Guest {
            return Ok(tag);
        }
        // Images of earlier builds of wasmeter are of no more use: each holds a binary.
        if let Ok(list) = self.run_quiet(&[
            "images",
            "--filter",
            &format!("reference={}", role.repository()),
            "--format",
            "{{.Repository}}:{{.Tag}}",
        ]) {
            for old in list.lines().filter(|t| *t != tag) {
                let _ = self.run_quiet(&["rmi", old]);
            }
        }
        Ok(tag)
    }

    fn import(&self, root: &Path, entry: &str, tag: &str) -> Result<(), String> {
        let tar = Command::new("tar")
            .arg("-C")
            .arg(root)
            .args(["-cf", "-", "."])
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("tar: {e}"))?;
        let out = self
            .cmd()
            .args(["import", "--change"])
            .arg(format!("ENTRYPOINT [\"/{entry}\"]"))
            .args(["-", tag])
            .stdin(tar.stdout.ok_or("tar: no output")?)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("{} import: {e}", self.name()))?;
        if !out.status.success() {
            return Err(format!(
                "the image build failed ({} import): {}",
                self.name(),
                last_line(&out.stderr)
            ));
        }
        Ok(())
    }

    /// Starts `image` with `args` to find what this host needs: the flags to add and what
    /// was adapted, or `Err` naming every setting tried and the last refusal. What a host
    /// refuses is the host's, not the image's: found once per run (the run's process, this
    /// engine and its configuration: see [`probe_cache`]), later cells read the answer.
    pub fn probe(&self, image: &str, args: &[&str]) -> Result<(Vec<String>, Vec<String>), String> {
        let cache = probe_cache(self);
        if let Some(known) = cache.as_deref().and_then(read_probe) {
            return known;
        }
        let found = self.probe_settings(image, args, &settings(runc_installed()));
        if let Some(path) = &cache {
            write_probe(path, &found);
        }
        found
    }

    /// Tries the engine's default, then each of `tries` (in the order the default's refusal
    /// hints at), whatever the refusal says: the first that starts is kept.
    pub fn probe_settings(
        &self,
        image: &str,
        args: &[&str],
        tries: &[Setting],
    ) -> Result<(Vec<String>, Vec<String>), String> {
        let refused = match self.start_once(image, args, &[]) {
            Ok(()) => return Ok((Vec::new(), Vec::new())),
            Err(why) => why,
        };
        let mut last = refused.clone();
        for s in hinted(tries, &refused) {
            match self.start_once(image, args, &s.flags) {
                Ok(()) => {
                    let note = format!(
                        "{} (the engine's default start was refused: {refused})",
                        s.label
                    );
                    return Ok((s.flags, vec![note]));
                }
                Err(why) => last = why,
            }
        }
        let tried: Vec<&str> = std::iter::once("the default")
            .chain(tries.iter().map(|s| s.label.as_str()))
            .collect();
        Err(format!(
            "the container engine refused to start it with every setting tried ({}): {last}",
            tried.join("; ")
        ))
    }

    /// One `run --rm` of `image` with `flags`: `Err` is the engine's last line of refusal.
    fn start_once(&self, image: &str, args: &[&str], flags: &[String]) -> Result<(), String> {
        let out = self
            .cmd()
            .args(["run", "--rm"])
            .arg("--label")
            .arg(owned_here())
            .args(flags)
            .arg(image)
            .args(args)
            .output()
            .map_err(|e| format!("{}: {e}", self.name()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(last_line(&out.stderr))
        }
    }

    /// The `run` command of a container serving the gateway spec it reads on stdin, its
    /// port published on 127.0.0.1:`port`, with `adapt`'s extra flags.
    pub fn run(
        &self,
        image: &str,
        name: &str,
        port: u16,
        args: &[String],
        adapt: &[String],
    ) -> Command {
        let mut c = Command::new(&self.program);
        c.args(["run", "--rm", "-i", "--name", name])
            .arg("--label")
            .arg(owned_here())
            .args(["--network", "bridge", "-p"])
            .arg(format!("127.0.0.1:{port}:{INNER_PORT}"))
            .args(adapt)
            .arg(image)
            .args(args);
        c
    }

    /// The `proxy` upstream's echo server (`serve-echo`, its spec on stdin) in a container
    /// joining container `gateway`'s network namespace: the gateway reaches it on that
    /// namespace's loopback at [`UPSTREAM_PORT`].
    pub fn upstream(&self, image: &str, gateway: &str, adapt: &[String]) -> Command {
        let mut c = Command::new(&self.program);
        c.args(["run", "--rm", "-i", "--name"])
            .arg(format!("{gateway}-upstream"))
            .arg("--label")
            .arg(owned_here())
            .arg("--network")
            .arg(format!("container:{gateway}"))
            .args(adapt)
            .arg(image)
            .arg(crate::runtime::SERVE_ECHO);
        c
    }

    /// The command line that runs the guest `image` in a fresh container per request: no
    /// network, stdin attached, removed when it exits, labelled as this process's, with
    /// `adapt`'s flags; the guest's arguments follow the image (`{args}`).
    pub fn per_request(&self, image: &str, adapt: &[String]) -> crate::runtime::CliCommand {
        let mut run: Vec<String> = [
            self.program.display().to_string(),
            "run".into(),
            "--rm".into(),
            "-i".into(),
            "--network".into(),
            "none".into(),
            "--label".into(),
            owned_here(),
        ]
        .into();
        run.extend(adapt.iter().cloned());
        run.push(image.into());
        run.push("{args}".into());
        // The guest gets no environment; the engine's client needs its search path and
        // whatever configures it, as the probe saw it (CONTAINERS_CONF, DOCKER_HOST, …).
        let env = ["PATH"]
            .into_iter()
            .chain(ENGINE_ENV)
            .filter_map(|k| Some((k.to_string(), std::env::var(k).ok()?)))
            .collect();
        crate::runtime::CliCommand {
            run,
            precompile: None,
            env,
        }
    }

    /// The roots of a running container's processes outside the client's tree: podman's
    /// conmon (the container's processes are its children), or docker's main process.
    pub fn pids(&self, name: &str) -> Vec<u32> {
        let fmt = if self.is_podman() {
            "{{.State.ConmonPid}}"
        } else {
            "{{.State.Pid}}"
        };
        self.run_quiet(&["inspect", "--format", fmt, name])
            .map(|s| {
                s.split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .filter(|p| *p > 0)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn is_podman(&self) -> bool {
        self.name() == "podman"
    }

    /// `docker` or `podman`, for messages.
    fn name(&self) -> String {
        self.program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.program.display().to_string())
    }

    /// Removes a container, whatever state it is in.
    pub fn remove(&self, name: &str) {
        let _ = self
            .cmd()
            .args(["rm", "-f", "-t", "0", name])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// Removes every container process `owner` made (a cell's, when it ends).
    pub fn remove_owned_by(&self, owner: u32) {
        for name in self.labelled(&format!("{LABEL}={owner}")) {
            self.remove(&name);
        }
    }

    /// The names of the containers, in any state, carrying `label` (`KEY` or `KEY=VALUE`).
    fn labelled(&self, label: &str) -> Vec<String> {
        self.run_quiet(&[
            "ps",
            "-a",
            "--filter",
            &format!("label={label}"),
            "--format",
            "{{.Names}}",
        ])
        .map(|s| s.lines().map(str::to_string).collect())
        .unwrap_or_default()
    }

    /// Removes the containers wasmeter made whose making process is gone.
    pub fn clear_stale(&self) {
        let Ok(list) = self.run_quiet(&[
            "ps",
            "-a",
            "--filter",
            &format!("label={LABEL}"),
            "--format",
            &if self.is_podman() {
                format!("{{{{.Names}}}} {{{{index .Labels \"{LABEL}\"}}}}")
            } else {
                format!("{{{{.Names}}}} {{{{.Label \"{LABEL}\"}}}}")
            },
        ]) else {
            return;
        };
        for line in list.lines() {
            let mut w = line.split_whitespace();
            let (Some(name), owner) = (w.next(), w.next().and_then(|p| p.parse::<u32>().ok()))
            else {
                continue;
            };
            if owner.is_none_or(|p| !Path::new(&format!("/proc/{p}")).exists()) {
                self.remove(name);
            }
        }
    }

    /// The names of the containers wasmeter made that still exist (for tests and checks).
    pub fn ours(&self) -> Vec<String> {
        self.labelled(LABEL)
    }
}

/// A way of starting a container that some hosts need, tried when the engine's default
/// start is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The flags `run` takes.
    pub flags: Vec<String>,
    /// The flags as notes and errors name them.
    pub label: String,
    /// Words of refusals this setting is known to cure: they only order the tries.
    hints: &'static [&'static str],
}

/// The settings known to start containers on hosts that refuse the default, in the order
/// tried when the refusal hints at none: explicit rlimits at or below this process's own
/// (some hosts refuse the engine's defaults: crun's "setrlimit `RLIMIT_NOFILE`: Operation
/// not permitted", runc's "error setting rlimit"), runc instead of the default OCI runtime
/// when `runc` is installed (crun refuses hybrid cgroups), then both.
pub fn settings(runc: bool) -> Vec<Setting> {
    let nofile = soft_limit(libc::RLIMIT_NOFILE);
    // Here nproc may not be set even to its current value: at most 4096.
    let nproc = soft_limit(libc::RLIMIT_NPROC).min(4096);
    let ulimit = vec![
        "--ulimit".to_string(),
        format!("nofile={nofile}:{nofile}"),
        "--ulimit".to_string(),
        format!("nproc={nproc}:{nproc}"),
    ];
    let runtime = vec!["--runtime".to_string(), "runc".to_string()];
    let setting = |flags: Vec<String>, hints| Setting {
        label: flags.join(" "),
        flags,
        hints,
    };
    let mut all = vec![setting(ulimit.clone(), &["rlimit"][..])];
    if runc {
        all.push(setting(runtime.clone(), &["hybrid mode", "cgroup"][..]));
        all.push(setting([ulimit, runtime].concat(), &[][..]));
    }
    all
}

/// `tries` with those whose hints the refusal names first, each group in its own order.
fn hinted(tries: &[Setting], refusal: &str) -> Vec<Setting> {
    let refusal = refusal.to_lowercase();
    let (first, rest): (Vec<&Setting>, Vec<&Setting>) = tries
        .iter()
        .partition(|s| s.hints.iter().any(|h| refusal.contains(h)));
    first.into_iter().chain(rest).cloned().collect()
}

/// Whether an executable `runc` is on PATH or where Debian and podman look for it.
fn runc_installed() -> bool {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"].map(PathBuf::from))
        .map(|d| d.join("runc"))
        .any(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// Where a run keeps its probe's answer: named by the run's process (the worker's parent,
/// with its start time, so a reused pid never reads an old answer) and a hash of the
/// engine and the environment that configures it. `None` when the parent's start time
/// cannot be read: then every cell probes.
fn probe_cache(engine: &Engine) -> Option<PathBuf> {
    let parent = std::os::unix::process::parent_id();
    let stat = std::fs::read_to_string(format!("/proc/{parent}/stat")).ok()?;
    // Fields after the command's closing parenthesis: rest[0] is field 3, start time is 22.
    let started = stat
        .rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .to_string();
    let mut h = Sha256::new();
    for part in [engine.program.display().to_string(), engine.version.clone()] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    for key in ENGINE_ENV {
        h.update(std::env::var(key).unwrap_or_default().as_bytes());
        h.update([0]);
    }
    let hash = crate::text::hex(&h.finalize());
    Some(std::env::temp_dir().join(format!(
        "wasmeter-probe-{parent}-{started}-{}.json",
        &hash[..16]
    )))
}

/// Variables that change what a container engine does by default.
const ENGINE_ENV: [&str; 8] = [
    "CONTAINERS_CONF",
    "CONTAINERS_STORAGE_CONF",
    "XDG_CONFIG_HOME",
    "XDG_RUNTIME_DIR",
    "HOME",
    "DOCKER_HOST",
    "DOCKER_CONFIG",
    "CONTAINER_HOST",
];

/// A probe's answer as cached: the flags and notes, or the refusal.
type Probed = Result<(Vec<String>, Vec<String>), String>;

fn read_probe(path: &Path) -> Option<Probed> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes the answer whole (a temporary file renamed), so a cell never reads half of one.
fn write_probe(path: &Path, found: &Probed) {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    if let Ok(json) = serde_json::to_vec(found)
        && std::fs::write(&tmp, json).is_ok()
        && std::fs::rename(&tmp, path).is_err()
    {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// A root filesystem at `root` holding `binary` as `/entry` and every library `ldd`
/// names, at the same paths.
fn rootfs(binary: &Path, entry: &str, root: &Path) -> Result<(), String> {
    let copy = |from: &Path, to: &Path| -> Result<(), String> {
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::copy(from, to).map_err(|e| format!("{}: {e}", from.display()))?;
        Ok(())
    };
    copy(binary, &root.join(entry))?;
    std::fs::create_dir_all(root.join("tmp")).map_err(|e| format!("{e}"))?;
    let out = Command::new("ldd")
        .arg(binary)
        .output()
        .map_err(|e| format!("ldd: {e}"))?;
    for lib in String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter(|w| w.starts_with('/'))
    {
        let from = Path::new(lib);
        copy(from, &root.join(lib.trim_start_matches('/')))?;
    }
    Ok(())
}

#[allow(unsafe_code)]
fn soft_limit(resource: libc::__rlimit_resource_t) -> u64 {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    if unsafe { libc::getrlimit(resource, &mut r) } == 0 {
        r.rlim_cur
    } else {
        1024
    }
}

fn last_line(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Removes the probe answers this run's workers cached ([`probe_cache`]), when it ends.
pub fn forget_probes() {
    let mine = format!("wasmeter-probe-{}-", std::process::id());
    let Ok(dir) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in dir.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&mine) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(tries: &[Setting]) -> Vec<&str> {
        tries
            .iter()
            .map(|s| s.flags.first().map_or("", String::as_str))
            .collect()
    }

    #[test]
    fn every_setting_is_tried_and_the_refusal_only_orders_them() {
        let all = settings(true);
        assert_eq!(labels(&all), ["--ulimit", "--runtime", "--ulimit"]);
        assert_eq!(all[2].label, format!("{} --runtime runc", all[0].label));
        // crun's and runc's words for the rlimits put --ulimit first; crun's hybrid cgroups
        // put runc first; words nobody knows leave the order as it is, and nothing out.
        for (refusal, first) in [
            (
                "Error: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied",
                "--ulimit",
            ),
            (
                "runc create failed: error setting rlimit type 7: operation not permitted",
                "--ulimit",
            ),
            (
                "Error: crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2",
                "--runtime",
            ),
            ("Error: something no release has said yet", "--ulimit"),
        ] {
            let order = hinted(&all, refusal);
            assert_eq!(order.len(), 3, "{refusal}");
            assert_eq!(labels(&order)[0], first, "{refusal}");
            for s in &all {
                assert!(order.contains(s), "{refusal}: {s:?} left out");
            }
        }
        // Without runc only the rlimits can be tried.
        assert_eq!(labels(&settings(false)), ["--ulimit"]);
    }

    #[test]
    fn rlimits_are_at_or_below_this_processs_own() {
        let ulimit = &settings(false)[0].flags;
        let value = |prefix: &str| -> u64 {
            let v = ulimit.iter().find_map(|f| f.strip_prefix(prefix)).unwrap();
            let (soft, hard) = v.split_once(':').unwrap();
            assert_eq!(soft, hard);
            soft.parse().unwrap()
        };
        assert!(value("nofile=") <= soft_limit(libc::RLIMIT_NOFILE));
        assert!(value("nproc=") <= soft_limit(libc::RLIMIT_NPROC).min(4096));
    }
}
