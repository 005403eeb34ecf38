//! Lifecycle modules that are files, not generated: a suite build script's modules (the
//! apps suite's programs, megabytes of real code). Their compile, load and instantiation
//! are measured; their imports are linked to stubs that trap, since no export of theirs is
//! called (a program's `_start` is what the apps suite times).

use super::lifecycle_modules::ModuleSpec;
use crate::model::Failure;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The module a lifecycle test takes through its life.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LifecycleModule {
    /// Generated from the test's name, with a trivial export to call.
    Generated(ModuleSpec),
    /// A module file, nothing of it called.
    File {
        /// The module.
        wasm: PathBuf,
        /// Why the suite's build script could not make it: its cells fail with this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        build_error: Option<String>,
    },
}

impl LifecycleModule {
    /// The generated module, if this is one.
    pub fn generated(&self) -> Option<ModuleSpec> {
        match self {
            LifecycleModule::Generated(m) => Some(*m),
            LifecycleModule::File { .. } => None,
        }
    }
}

/// A module file read for the lifecycle driver.
#[derive(Debug)]
pub struct FileModule {
    /// Its bytes.
    pub wasm: Vec<u8>,
    /// Initial size of its defined memories, bytes: what an instance may make resident.
    pub heap_bytes: u64,
}

/// Reads a module file and the initial size of its memories; a missing file and a
/// malformed module are each named with the file.
pub fn read(path: &Path) -> Result<FileModule, Failure> {
    let wasm = std::fs::read(path).map_err(|e| Failure::unreadable(path, e))?;
    let heap_bytes = initial_memory_bytes(&wasm).map_err(|e| Failure::invalid_module(path, e))?;
    Ok(FileModule { wasm, heap_bytes })
}

/// Sum of the initial sizes of the memories a module defines (imported ones are not its
/// own), bytes.
fn initial_memory_bytes(wasm: &[u8]) -> Result<u64, String> {
    let mut bytes = 0u64;
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        match payload.map_err(|e| e.to_string())? {
            wasmparser::Payload::Version {
                encoding: wasmparser::Encoding::Component,
                ..
            } => return Err("a component, not a core module".into()),
            wasmparser::Payload::MemorySection(memories) => {
                for m in memories {
                    let m = m.map_err(|e| e.to_string())?;
                    let page = 1u64 << m.page_size_log2.unwrap_or(16);
                    bytes = bytes.saturating_add(m.initial.saturating_mul(page));
                }
            }
            _ => {}
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes_and_bad_files() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("heap.wasm");
        std::fs::write(&path, ModuleSpec::parse("heap-256k-sparse").unwrap().wasm()).unwrap();
        assert_eq!(read(&path).unwrap().heap_bytes, 256 << 10);
        std::fs::write(&path, ModuleSpec::Hello.wasm()).unwrap();
        assert_eq!(read(&path).unwrap().heap_bytes, 0);

        std::fs::write(&path, b"\0asm\x01\0\0\0\x05\x03\x01").unwrap();
        let e = read(&path).unwrap_err();
        assert!(
            matches!(&e, Failure::InvalidModule(m) if m.contains("heap.wasm")),
            "{e}"
        );
        let gone = tmp.path().join("gone.wasm");
        assert!(matches!(read(&gone), Err(Failure::MissingFile(f)) if f.contains("gone.wasm")));
    }
}
