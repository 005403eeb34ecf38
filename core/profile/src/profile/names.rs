//! Function names for a profiled module without changing the code measured. The suites'
//! modules are built with `--strip-all`, which drops the name section; their build script
//! also writes a side file, `NAME.names`: a custom section `wasmeter.code-sha256` (the
//! SHA-256 of the code section it names) followed by the name section of a twin build made
//! with `--strip-debug` instead, whose code section is the same. A profiled cell runs the
//! module with that name section appended, once the hashes agree.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The name a library build (`native-dlopen`) gives the C test's `main`, so the library
/// never offers a `main` of its own; profiles call it `main` again.
pub const LIBRARY_MAIN: &str = "wasmeter_main";

/// The custom section of a names file that says which code it names.
pub const CODE_HASH_SECTION: &str = "wasmeter.code-sha256";

/// How to keep names, for a module that has none.
pub const HOW_TO_KEEP: &str = "build with -Wl,--strip-debug instead of -Wl,--strip-all (clang), keep the name section (wasm-opt --debuginfo, Go and Zig keep it), or give a NAME.names side file";

/// What a module says about its names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sections {
    /// SHA-256 of the code section's contents, hex.
    pub code_sha256: Option<String>,
    /// Whether it has a `name` custom section.
    pub has_names: bool,
    /// The bytes of its `name` section, whole (id, size, contents), if it has one.
    pub name_section: Option<Vec<u8>>,
    /// The contents of a `wasmeter.code-sha256` section, hex, if it has one.
    pub names_code: Option<String>,
}

/// Reads the sections of a module (or a names file, a run of custom sections).
pub fn sections(bytes: &[u8]) -> Result<Sections, String> {
    let mut out = Sections {
        code_sha256: None,
        has_names: false,
        name_section: None,
        names_code: None,
    };
    let mut at = if bytes.starts_with(b"\0asm") { 8 } else { 0 };
    while at < bytes.len() {
        let start = at;
        let id = bytes[at];
        at += 1;
        let (size, n) = leb128(&bytes[at..]).ok_or("a section size is cut short")?;
        at += n;
        let end = at
            .checked_add(size as usize)
            .filter(|e| *e <= bytes.len())
            .ok_or("a section runs past the end of the file")?;
        let body = &bytes[at..end];
        match id {
            10 => out.code_sha256 = Some(crate::text::hex(&Sha256::digest(body))),
            0 => {
                let (len, n) = leb128(body).ok_or("a custom section's name is cut short")?;
                let name = body
                    .get(n..n + len as usize)
                    .ok_or("a custom section's name runs past its section")?;
                let contents = &body[n + len as usize..];
                match name {
                    b"name" => {
                        out.has_names = true;
                        out.name_section = Some(bytes[start..end].to_vec());
                    }
                    n if n == CODE_HASH_SECTION.as_bytes() => {
                        out.names_code = Some(crate::text::hex(contents));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        at = end;
    }
    Ok(out)
}

/// An unsigned LEB128 number and the bytes it took.
pub(super) fn leb128(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for (i, b) in bytes.iter().take(10).enumerate() {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// The side file of a module: `x.wasm` → `x.names`.
pub fn side_file(module: &Path) -> PathBuf {
    module.with_extension("names")
}

/// A module's names, as a profile gets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// It has a name section of its own (or cannot be read): used as it is.
    Own,
    /// Its bytes with its side file's name section appended (the same code), and the note.
    Appended(Vec<u8>, String),
    /// No names to be had: why, and how to keep them.
    Without(String),
}

fn no_names(module: &Path) -> String {
    format!(
        "{} has no name section: functions are shown by index; {HOW_TO_KEEP}",
        module.display()
    )
}

/// The names of `module` (whose contents are `bytes`): its own, or its side file's once the
/// side file is shown to name this very code.
pub fn names_for(module: &Path, bytes: &[u8]) -> Named {
    let Ok(own) = sections(bytes) else {
        return Named::Own;
    };
    if own.has_names {
        return Named::Own;
    }
    let side = side_file(module);
    let Ok(side_bytes) = std::fs::read(&side) else {
        return Named::Without(no_names(module));
    };
    let names = match sections(&side_bytes) {
        Ok(s) => s,
        Err(e) => return Named::Without(format!("{}: {e}; {}", side.display(), no_names(module))),
    };
    let (Some(section), Some(code)) = (names.name_section, names.names_code) else {
        return Named::Without(format!(
            "{}: not a names file (no name section or no {CODE_HASH_SECTION}); {}",
            side.display(),
            no_names(module)
        ));
    };
    if own.code_sha256.as_deref() != Some(code.as_str()) {
        return Named::Without(format!(
            "{} names other code than {} (stale: rebuild the suite); {}",
            side.display(),
            module.display(),
            no_names(module)
        ));
    }
    let mut out = bytes.to_vec();
    out.extend_from_slice(&section);
    Named::Appended(
        out,
        format!(
            "names from {} (its name section appended; the code section is the same, by SHA-256)",
            side.display()
        ),
    )
}

/// The module a profiled cell runs, and what to say about its names: the module itself when
/// it has names (or none can be found), else a copy in `dir` with its side file's name
/// section appended ([`names_for`]). `bytes`: the module's contents, read by the caller.
pub fn named_module(module: &Path, bytes: &[u8], dir: &Path) -> (PathBuf, Option<String>) {
    match names_for(module, bytes) {
        Named::Own => (module.to_path_buf(), None),
        Named::Without(why) => (module.to_path_buf(), Some(why)),
        Named::Appended(out, note) => {
            let stem = module
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "module".into());
            let named = dir.join(format!("{stem}.named.wasm"));
            match std::fs::write(&named, &out) {
                Ok(()) => (named, Some(note)),
                Err(_) => (module.to_path_buf(), Some(no_names(module))),
            }
        }
    }
}

/// Names one function has under different builds: wasi-libc calls the C `main`
/// `__main_argc_argv` (or `__original_main`), a library build calls it
/// [`LIBRARY_MAIN`].
pub fn canonical(name: &str) -> &str {
    match name {
        "__main_argc_argv" | "__original_main" | "__main_void" => "main",
        n if n == LIBRARY_MAIN => "main",
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of one function, with or without a name section for it.
    fn module(named: bool) -> Vec<u8> {
        let text = if named {
            "(module (func $work (result i32) i32.const 7) (export \"f\" (func $work)))"
        } else {
            "(module (func (result i32) i32.const 7) (export \"f\" (func 0)))"
        };
        let mut bytes = wat::parse_str(text).unwrap();
        if !named {
            // wat writes a name section only for names it was given: none here.
            assert!(!sections(&bytes).unwrap().has_names);
        }
        bytes.shrink_to_fit();
        bytes
    }

    fn custom(name: &str, contents: &[u8]) -> Vec<u8> {
        let mut body = vec![name.len() as u8];
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(contents);
        let mut s = vec![0u8, body.len() as u8];
        s.extend(body);
        s
    }

    #[test]
    fn a_side_file_names_the_same_code_and_only_that() {
        let dir = tempfile::tempdir().unwrap();
        let (plain, named) = (module(false), module(true));
        let p = dir.path().join("k.wasm");
        std::fs::write(&p, &plain).unwrap();
        // No side file: indexes, and how to keep names.
        let (used, note) = named_module(&p, &std::fs::read(&p).unwrap(), dir.path());
        assert_eq!(used, p);
        assert!(note.unwrap().contains("-Wl,--strip-debug"));

        let twin = sections(&named).unwrap();
        let code = sections(&plain).unwrap().code_sha256.unwrap();
        assert_eq!(twin.code_sha256.as_deref(), Some(code.as_str()));
        let hash: Vec<u8> = (0..32)
            .map(|i| u8::from_str_radix(&code[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let mut side = custom(CODE_HASH_SECTION, &hash);
        side.extend(twin.name_section.clone().unwrap());
        std::fs::write(side_file(&p), &side).unwrap();
        let (used, note) = named_module(&p, &std::fs::read(&p).unwrap(), dir.path());
        assert_ne!(used, p);
        assert!(note.unwrap().contains("the code section is the same"));
        let got = std::fs::read(&used).unwrap();
        let s = sections(&got).unwrap();
        assert!(s.has_names && s.code_sha256.as_deref() == Some(code.as_str()));
        wasmparser::Validator::new().validate_all(&got).unwrap();

        // A side file for other code is refused by name.
        let mut stale = custom(CODE_HASH_SECTION, &[0u8; 32]);
        stale.extend(twin.name_section.unwrap());
        std::fs::write(side_file(&p), &stale).unwrap();
        let (used, note) = named_module(&p, &std::fs::read(&p).unwrap(), dir.path());
        assert_eq!(used, p);
        assert!(note.unwrap().contains("stale"));
    }
}
