//! Building the native baseline: the same C sources as the wasm, compiled by the system C
//! compiler, cached by what they are built from.

use super::Failure;
use crate::suite::{SourceBuild, Suite};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a native build is: a program run as a child process, or a shared library the worker
/// loads, so the native baseline can alternate with embedded engines in one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NativeForm {
    /// An executable (`native`).
    Program,
    /// A shared object whose `main` is renamed [`LIBRARY_MAIN`] (`native-dlopen`).
    Library,
}

use crate::cache::cache_root;
/// The entry point of a [`NativeForm::Library`] build.
pub use crate::profile::names::LIBRARY_MAIN;

/// The C compiler of the native baseline: `$WASMETER_CC`, else `$CC`, else `clang-19` when
/// installed (the compiler of the committed wasm, so both sides get the same optimiser),
/// else `cc`.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeCompiler {
    /// Program name or path.
    pub program: String,
    /// First line of `--version`, recorded with runs.
    pub version: String,
}

impl NativeCompiler {
    /// Finds the compiler and asks its version; the error says what is missing.
    pub fn detect() -> Result<NativeCompiler, String> {
        let program = std::env::var("WASMETER_CC")
            .or_else(|_| std::env::var("CC"))
            .unwrap_or_else(|_| {
                let clang = Command::new("clang-19").arg("--version").output();
                if clang.is_ok_and(|o| o.status.success()) {
                    "clang-19".to_string()
                } else {
                    "cc".to_string()
                }
            });
        let out = Command::new(&program)
            .arg("--version")
            .output()
            .map_err(|e| format!("no C compiler '{program}' ({e}); install gcc or set CC"))?;
        let version = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("unknown")
            .trim()
            .to_string();
        Ok(NativeCompiler { program, version })
    }

    /// Builds (or finds in the cache) the native executable or library of test `name`,
    /// built from `src`.
    pub fn build(
        &self,
        suite: &Suite,
        name: &str,
        src: &SourceBuild,
        form: NativeForm,
    ) -> Result<PathBuf, Failure> {
        let library_flags = [
            "-shared".to_string(),
            "-fPIC".to_string(),
            format!("-Dmain={LIBRARY_MAIN}"),
        ];
        let form_flags: &[String] = match form {
            NativeForm::Program => &[],
            NativeForm::Library => &library_flags,
        };
        let mut h = Sha256::new();
        let read =
            |p: &Path| std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()));
        h.update(read(&src.source)?);
        for inc in &suite.includes {
            h.update(read(inc)?);
        }
        h.update(src.native_cflags.join(" "));
        h.update(form_flags.join(" "));
        h.update(suite.native_libs.join(" "));
        h.update(&self.version);
        let key = crate::text::hex(&h.finalize());
        let dir = native_cache_dir().join(&key[..16]);
        let exe = match form {
            NativeForm::Program => dir.join(name),
            NativeForm::Library => dir.join(format!("lib{name}.so")),
        };
        if exe.is_file() {
            return Ok(exe);
        }
        std::fs::create_dir_all(&dir)
            .map_err(|e| Failure::Other(format!("{}: {e}", dir.display())))?;
        let tmp = dir.join(format!(".{name}.{}", std::process::id()));
        let out = Command::new(&self.program)
            .args(&src.native_cflags)
            .args(form_flags)
            .arg("-o")
            .arg(&tmp)
            .arg(&src.source)
            .args(&suite.native_libs)
            .output()
            .map_err(|e| Failure::Other(format!("cannot run {}: {e}", self.program)))?;
        if !out.status.success() {
            let _ = std::fs::remove_file(&tmp);
            let log = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = log.lines().rev().take(5).collect();
            return Err(Failure::Other(format!(
                "native build of {} failed: {}",
                src.source.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            )));
        }
        std::fs::rename(&tmp, &exe)
            .map_err(|e| Failure::Other(format!("{}: {e}", exe.display())))?;
        Ok(exe)
    }
}

/// Where native builds are cached.
pub fn native_cache_dir() -> PathBuf {
    cache_root().join("native")
}
