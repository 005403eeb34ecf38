//! Finding the table's CLI runtimes on this machine: each binary, its version, its
//! command line with wasmeter's paths filled in; and the config's own runtimes.

use super::table::{Entry, TABLE, Table};
use crate::config::{Config, CustomRuntime};
use crate::model::{CliCommand, RuntimeInfo, RuntimeKind};
use sha2::Digest as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where `scripts/install-runtimes` puts runtimes: `$WASMETER_RUNTIMES_DIR`, else
/// `~/.cache/wasmeter/runtimes`.
pub fn runtimes_dir() -> PathBuf {
    std::env::var_os("WASMETER_RUNTIMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::cache::cache_root().join("runtimes"))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Finds a binary: a configured path, else wasmeter's runtimes dir, PATH, `~/go/bin`.
fn find_binary(name: &str, config: &Config) -> Result<PathBuf, String> {
    if let Some(p) = config.paths.get(name) {
        return if is_executable(p) {
            Ok(p.clone())
        } else {
            Err(format!("{} (configured) is not executable", p.display()))
        };
    }
    // wasmeter's own installs first: a PATH entry may be a slow shim (pyenv) or another build.
    let mut dirs = vec![runtimes_dir().join("bin")];
    dirs.extend(
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    if let Some(h) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(h).join("go/bin"));
    }
    let mut not_exec = None;
    for d in dirs {
        let p = d.join(name);
        if is_executable(&p) {
            return Ok(p);
        }
        if p.is_file() && not_exec.is_none() {
            not_exec = Some(p);
        }
    }
    Err(match not_exec {
        Some(p) => format!("{} is not executable", p.display()),
        None => format!(
            "'{name}' not found on PATH or in {}/bin",
            runtimes_dir().display()
        ),
    })
}

/// Runs a version command with a time limit; returns the version word of its first line.
fn version_of(argv: &[String]) -> Result<String, String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", argv[0]))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`{}` did not answer within 10 s", argv.join(" ")));
            }
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`{}` failed ({})", argv.join(" "), out.status));
    }
    let text = if out.stdout.is_empty() {
        out.stderr
    } else {
        out.stdout
    };
    Ok(parse_version(&String::from_utf8_lossy(&text)))
}

/// The first word of the first line that looks like a version (`v1.2.3` → `1.2.3`).
pub fn parse_version(text: &str) -> String {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    first
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(')
        .map(|w| w.trim_start_matches('v'))
        .find(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit()) && (w.contains('.') || is_date(w))
        })
        .map(str::to_string)
        .unwrap_or_else(|| first.chars().take(60).collect())
}

/// True for a `YYYY-MM-DD` word: workerd's version is its build date.
fn is_date(w: &str) -> bool {
    let parts: Vec<&str> = w.split('-').collect();
    parts.len() == 3
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && [4, 2, 2] == [parts[0].len(), parts[1].len(), parts[2].len()]
}

/// The node/bun WASI runner shipped with wasmeter, written where the runtime can read it.
fn wrapper() -> Result<PathBuf, String> {
    const SCRIPT: &str = include_str!("../../../../../assets/runtimes/node-wasi.mjs");
    let hash = crate::text::hex(&sha2::Sha256::digest(SCRIPT.as_bytes()))[..12].to_string();
    let path = runtimes_dir().join(format!("node-wasi-{hash}.mjs"));
    if !path.is_file() {
        std::fs::create_dir_all(runtimes_dir())
            .map_err(|e| format!("{}: {e}", runtimes_dir().display()))?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, SCRIPT).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(path)
}

/// A table entry found on this machine (a preset: its base's entry, then its settings'
/// flags in the base's command line).
fn resolve(table: &Table, e: &Entry, config: &Config) -> RuntimeInfo {
    let mut info = RuntimeInfo {
        id: e.id.clone(),
        kind: RuntimeKind::Cli,
        version: "-".into(),
        config: e.config.clone(),
        unavailable: None,
        hint: e.hint.clone(),
        command: None,
    };
    match command(e, config) {
        Ok((version, command)) => {
            info.version = version;
            info.command = Some(table.command(&e.id, command));
        }
        Err(why) => info.unavailable = Some(why),
    }
    info
}

/// An entry's version and command line, or why it cannot run here.
fn command(e: &Entry, config: &Config) -> Result<(String, CliCommand), String> {
    let bin = find_binary(&e.binary, config)?;
    let mut version_argv = vec![bin.display().to_string()];
    version_argv.extend(e.version.iter().cloned());
    let version = version_of(&version_argv)?;
    if let Some(probe) = &e.probe {
        let ok = std::process::Command::new(&bin)
            .args(&probe.args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return Err(format!("{} ({version})", probe.otherwise));
        }
    }
    let mut run = vec![bin.display().to_string()];
    for arg in &e.run {
        if arg.contains("{wrapper}") {
            run.push(arg.replace("{wrapper}", &wrapper()?.display().to_string()));
        } else {
            run.push(arg.clone());
        }
    }
    let precompile = match &e.precompile {
        Some(p) => {
            let compiler = find_binary(&p.binary, config)
                .map_err(|e| format!("ahead-of-time compiler: {e}"))?;
            let mut v = vec![compiler.display().to_string()];
            v.extend(p.args.iter().cloned());
            Some(v)
        }
        None => None,
    };
    let env = e.env.iter().map(|[k, v]| (k.clone(), v.clone())).collect();
    Ok((
        version,
        CliCommand {
            run,
            precompile,
            env,
        },
    ))
}

fn resolve_custom(c: &CustomRuntime) -> RuntimeInfo {
    let mut info = RuntimeInfo {
        id: c.id.clone(),
        kind: RuntimeKind::Cli,
        version: "-".into(),
        config: c.description.clone(),
        unavailable: None,
        hint: None,
        command: Some(CliCommand {
            run: c.command.clone(),
            precompile: c.precompile.clone(),
            env: Vec::new(),
        }),
    };
    let program = PathBuf::from(&c.command[0]);
    let exists = if program.is_absolute() {
        program.is_file()
    } else {
        find_binary(&c.command[0], &Config::default()).is_ok()
    };
    if !exists {
        info.unavailable = Some(format!("{}: not found", c.command[0]));
    } else if let Some(v) = &c.version {
        match version_of(v) {
            Ok(v) => info.version = v,
            Err(e) => info.version = format!("unknown ({e})"),
        }
    }
    info
}

/// Every CLI runtime (the table, then the config's own), detected in parallel.
pub fn cli_runtimes(config: &Config) -> Vec<RuntimeInfo> {
    let mut out = resolve_all(&TABLE, config);
    out.extend(config.runtimes.iter().map(resolve_custom));
    out
}

/// Every entry of a table, found on this machine (in parallel: each asks for a version).
pub(super) fn resolve_all(table: &Table, config: &Config) -> Vec<RuntimeInfo> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (table.entries.iter())
            .map(|e| s.spawn(move || resolve(table, e, config)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("detection thread"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn versions() {
        assert_eq!(
            parse_version("wasmtime 39.0.1 (abc 2025-01-01)\n"),
            "39.0.1"
        );
        assert_eq!(parse_version("v20.20.2\n"), "20.20.2");
        assert_eq!(parse_version("wazero v1.9.0"), "1.9.0");
        assert_eq!(parse_version("iwasm 2.2.0\n"), "2.2.0");
        assert_eq!(parse_version("workerd 2026-11-17\n"), "2026-11-17");
        assert_eq!(
            parse_version("deno 2.9.8 (stable, release, x86_64-unknown-linux-gnu)\nv8 14.1\n"),
            "2.9.8"
        );
    }
}
