//! User configuration: `wasmeter.toml` in the working directory, else
//! `~/.config/wasmeter/config.toml`. It overrides where runtime binaries are and adds custom
//! runtimes from command templates.
//!
//! ```toml
//! [paths]
//! wasmtime = "/opt/wasmtime/bin/wasmtime"   # binary name = path
//!
//! [[runtime]]
//! id = "my-runtime"
//! command = ["/opt/rt/bin/rt", "run", "--dir", "{scratch}", "{wasm}", "{args}"]
//! version = ["/opt/rt/bin/rt", "--version"]         # optional
//! precompile = ["/opt/rt/bin/rtc", "{wasm}", "-o", "{aot}"]   # optional; run then uses {aot}
//! ```

use crate::text::{line_of, one_line};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Errors in a configuration file; each names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Unreadable file.
    #[error("{path}: cannot read config: {source}")]
    Io {
        /// Config path.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// Bad content.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// Config path.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    paths: BTreeMap<String, Spanned<String>>,
    #[serde(default, rename = "runtime")]
    runtimes: Vec<RawRuntime>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuntime {
    id: Spanned<String>,
    command: Spanned<Vec<String>>,
    version: Option<Vec<String>>,
    precompile: Option<Spanned<Vec<String>>>,
    description: Option<String>,
}

/// A runtime the user defined by a command template.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomRuntime {
    /// Id used on the command line.
    pub id: String,
    /// Program and arguments; placeholders `{wasm}`, `{aot}`, `{scratch}`, `{args}`.
    pub command: Vec<String>,
    /// Command printing the version, if any.
    pub version: Option<Vec<String>>,
    /// Ahead-of-time step producing `{aot}` from `{wasm}`, if any.
    pub precompile: Option<Vec<String>>,
    /// Words for listings.
    pub description: String,
    /// 1-based line of its `id` in the config file (0 when not from a file).
    pub line: usize,
}

/// Loaded configuration (empty when there is no file).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The file it came from.
    pub source: Option<PathBuf>,
    /// Binary name → path overrides.
    pub paths: BTreeMap<String, PathBuf>,
    /// Custom runtimes.
    pub runtimes: Vec<CustomRuntime>,
}

impl Config {
    /// The config in force: `./wasmeter.toml`, else `~/.config/wasmeter/config.toml`, else
    /// empty. `WASMETER_CONFIG` names a file explicitly.
    pub fn load_default() -> Result<Config, ConfigError> {
        if let Some(p) = std::env::var_os("WASMETER_CONFIG") {
            return Config::load(Path::new(&p));
        }
        let local = PathBuf::from("wasmeter.toml");
        if local.is_file() {
            return Config::load(&local);
        }
        if let Some(home) = std::env::var_os("HOME") {
            let user = PathBuf::from(home).join(".config/wasmeter/config.toml");
            if user.is_file() {
                return Config::load(&user);
            }
        }
        Ok(Config::default())
    }

    /// The config, refused when one of its runtimes takes an id that `taken` says is
    /// wasmeter's own (the runtime registry's ids, which this module cannot know):
    /// `path:line: runtime id 'x' is already taken`.
    pub fn reserve(self, taken: impl Fn(&str) -> bool) -> Result<Config, ConfigError> {
        match self.runtimes.iter().find(|r| taken(&r.id)) {
            Some(r) => Err(ConfigError::Parse {
                path: self.source.clone().unwrap_or_default(),
                line: r.line,
                message: format!("runtime id '{}' is already taken", r.id),
            }),
            None => Ok(self),
        }
    }

    /// Reads one config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(path, &text)
    }

    /// Parses config text; `path` is used in messages.
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let err = |offset: usize, message: String| ConfigError::Parse {
            path: path.to_path_buf(),
            line: line_of(text, offset),
            message: one_line(message),
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            err(
                e.span().map(|s| s.start).unwrap_or(0),
                e.message().to_string(),
            )
        })?;
        let mut cfg = Config {
            source: Some(path.to_path_buf()),
            ..Config::default()
        };
        for (name, p) in raw.paths {
            let pb = PathBuf::from(p.get_ref());
            if !pb.is_file() {
                return Err(err(
                    p.span().start,
                    format!("path for '{name}' does not exist: {}", p.get_ref()),
                ));
            }
            cfg.paths.insert(name, pb);
        }
        for r in raw.runtimes {
            let id = r.id.get_ref().trim().to_string();
            if id.is_empty()
                || !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(err(
                    r.id.span().start,
                    format!("invalid runtime id '{id}' (use letters, digits, '-', '_')"),
                ));
            }
            if cfg.runtimes.iter().any(|c| c.id == id) {
                return Err(err(
                    r.id.span().start,
                    format!("runtime id '{id}' is already taken"),
                ));
            }
            let command = r.command.get_ref().clone();
            let uses_module = |v: &[String]| {
                v.iter()
                    .any(|a| a.contains("{wasm}") || a.contains("{aot}"))
            };
            if command.is_empty() || !uses_module(&command) {
                return Err(err(
                    r.command.span().start,
                    "command must name a program and use {wasm} (or {aot} with precompile)".into(),
                ));
            }
            if let Some(pre) = &r.precompile
                && (pre.get_ref().is_empty() || !pre.get_ref().iter().any(|a| a.contains("{aot}")))
            {
                return Err(err(
                    pre.span().start,
                    "precompile must name a program and write {aot}".into(),
                ));
            }
            cfg.runtimes.push(CustomRuntime {
                id,
                command,
                version: r.version,
                precompile: r.precompile.map(|p| p.into_inner()),
                description: r
                    .description
                    .unwrap_or_else(|| "custom runtime from config".into()),
                line: line_of(text, r.id.span().start),
            });
        }
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(Path::new("wasmeter.toml"), text)
    }

    #[test]
    fn parses_custom_runtimes_and_paths() {
        let c = parse(
            "[paths]\nsh = \"/bin/sh\"\n\n[[runtime]]\nid = \"mine\"\ncommand = [\"/bin/sh\", \"-c\", \"x\", \"{wasm}\"]\n",
        )
        .unwrap();
        assert_eq!(c.paths["sh"], PathBuf::from("/bin/sh"));
        assert_eq!(c.runtimes[0].id, "mine");
        assert_eq!(c.runtimes[0].command.len(), 4);
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse("[[runtime]]\nid = \"x\"\ncommand = [\"/bin/true\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("wasmeter.toml:3: command must"), "{e}");
        let e = parse("[paths]\nwasmtime = \"/no/such/file\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("wasmeter.toml:2: path for 'wasmtime' does not exist"),
            "{e}"
        );
        let e = parse("\n\n[[runtime]]\nid = \"wasmtime\"\ncommand = [\"a\", \"{wasm}\"]\n")
            .unwrap()
            .reserve(|id| id == "wasmtime")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("wasmeter.toml:4: runtime id 'wasmtime' is already taken"),
            "{e}"
        );
        // A value quoted in the message stays on the message's one line.
        let e = parse("[paths]\nwasmtime = \"/no/such\\nfile\"\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "wasmeter.toml:2: path for 'wasmtime' does not exist: /no/such\\nfile"
        );
        let e = parse("[oops\n").unwrap_err().to_string();
        assert!(e.starts_with("wasmeter.toml:1:"), "{e}");
        let e = parse("[[runtime]]\nid = \"x\"\ncommand = [\"a\", \"{wasm}\"]\nbogus = 2\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("wasmeter.toml:4:") && e.contains("bogus"),
            "{e}"
        );
    }
}
