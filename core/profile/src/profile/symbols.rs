//! Names for sampled addresses: the functions an engine compiled (its perf map,
//! `/tmp/perf-PID.map`: wasmtime names each from the module's name section, wasmer's
//! Cranelift likewise) and the symbols of the files mapped into the process (a native
//! program, a C library). Everything else is the engine or the host, the kernel, or unknown.

use super::sampler::Mapping;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a sampled address is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A function of the program measured: a guest function an engine compiled, or a C
    /// function of the native build (or of its C library).
    Function {
        /// Its name, as the name section or the symbol table gives it; `function[N]` when
        /// the module has no names.
        name: String,
        /// Engine-compiled code keeps frame pointers: the caller above it can be trusted.
        jit: bool,
        /// The C library it came from natively (`libc.so.6`), if not the program itself.
        library: Option<String>,
    },
    /// Anything else, by kind.
    Outside(Outside),
}

/// Samples outside the program's own functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outside {
    /// The engine and its host: compiler, runtime, trampolines, WASI calls, allocator.
    Engine,
    /// The kernel (system calls, page faults), when it could be sampled.
    Kernel,
    /// The dynamic loader and process start-up of a native program.
    Startup,
    /// Machine code an engine compiled into anonymous memory that no perf map names (an
    /// engine that writes none, such as wasmer's Singlepass).
    Compiled,
    /// An address in no mapping (code freed since).
    Unknown,
}

impl Outside {
    /// How the pseudo-frame is written in folded stacks and tables.
    pub fn label(self) -> &'static str {
        match self {
            Outside::Engine => "[engine & host]",
            Outside::Kernel => "[kernel]",
            Outside::Startup => "[start-up & loader]",
            Outside::Compiled => "[compiled code, unnamed]",
            Outside::Unknown => "[unknown]",
        }
    }

    /// Every kind, in the order tables list them.
    pub const ALL: [Outside; 5] = [
        Outside::Engine,
        Outside::Kernel,
        Outside::Startup,
        Outside::Compiled,
        Outside::Unknown,
    ];

    /// The kind of a pseudo-frame label, if it is one.
    pub fn parse(label: &str) -> Option<Outside> {
        Outside::ALL.into_iter().find(|o| o.label() == label)
    }
}

/// One code range with a name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named {
    start: u64,
    end: u64,
    name: String,
}

/// A sorted table of named ranges.
#[derive(Debug, Clone, Default)]
struct Table(Vec<Named>);

impl Table {
    fn sorted(mut v: Vec<Named>) -> Table {
        v.sort_by_key(|n| (n.start, std::cmp::Reverse(n.end)));
        Table(v)
    }

    fn find(&self, addr: u64) -> Option<&Named> {
        let i = self.0.partition_point(|n| n.start <= addr);
        self.0[..i].iter().rev().take(4).find(|n| addr < n.end)
    }
}

/// A perf map's lines, in the order written, without those whose code was freed and its
/// addresses given to code written later (an engine compiles each iteration's module
/// anew; the counting copy of a module is laid out otherwise): the later line wins.
fn latest(lines: Vec<Named>) -> Vec<Named> {
    let mut taken: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
    let mut kept = Vec::with_capacity(lines.len());
    for line in lines.into_iter().rev() {
        let overlaps = taken
            .range(..line.end)
            .next_back()
            .is_some_and(|(_, end)| *end > line.start);
        if !overlaps {
            taken.insert(line.start, line.end);
            kept.push(line);
        }
    }
    kept
}

/// Parses a perf map (`START SIZE NAME`, hex, `0x` optional). Later lines win where code
/// was freed and its addresses reused.
pub fn parse_perf_map(text: &str) -> Vec<(u64, u64, String)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ' ');
            let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
            let start = hex(parts.next()?)?;
            let size = hex(parts.next()?)?;
            let name = parts.next()?.trim().to_string();
            (size > 0).then_some((start, size, name))
        })
        .collect()
}

/// A V8 perf-map name of a compiled wasm function (`--perf-basic-prof`: node, deno):
/// `JS:NAME-INDEX-TIER`, the tier `liftoff` or `turbofan`, NAME `wasm-function[N]` when
/// the module has no names. Its name as wasmtime would give it, so both meet; `None` for
/// anything else V8 compiled (builtins, JavaScript, wasm-to-JS wrappers).
fn v8_wasm_function(name: &str) -> Option<String> {
    let rest = name.strip_prefix("JS:")?;
    let (rest, tier) = rest.rsplit_once('-')?;
    if tier != "liftoff" && tier != "turbofan" {
        return None;
    }
    let (function, index) = rest.rsplit_once('-')?;
    if function.is_empty()
        || index.is_empty()
        || !index.bytes().all(|b| b.is_ascii_digit())
        || function.starts_with("wasm-to-js:")
    {
        return None;
    }
    Some(match function.strip_prefix("wasm-function[") {
        Some(_) => format!("function[{index}]"),
        None => function.to_string(),
    })
}

/// Whether a perf-map name is V8's: its code is V8's own when not a wasm function.
fn is_v8(name: &str) -> bool {
    const KINDS: [&str; 10] = [
        "JS:",
        "Builtin:",
        "BytecodeHandler:",
        "Eval:",
        "Script:",
        "RegExp:",
        "Function:",
        "LazyCompile:",
        "Stub:",
        "Handler:",
    ];
    KINDS.iter().any(|k| name.starts_with(k))
}

/// A perf map's name as a frame: wasmtime calls unnamed functions `wasm[M]::function[N]`
/// and its own stubs `wasm[M]::…trampoline…`; V8 writes `JS:NAME-INDEX-TIER` for wasm
/// and a kind prefix for its own code; a named function is its name.
fn jit_frame(name: &str) -> Frame {
    // wasmtime's and wasmer's own compiled helpers.
    if name.starts_with("wasmtime_builtin") || name.starts_with("wasmer_vm") {
        return Frame::Outside(Outside::Engine);
    }
    if is_v8(name) {
        return match v8_wasm_function(name) {
            Some(name) => Frame::Function {
                name,
                jit: true,
                library: None,
            },
            None => Frame::Outside(Outside::Engine),
        };
    }
    if let Some(rest) = name.strip_prefix("wasm[") {
        if let Some(i) = rest.find("]::function[") {
            let index = &rest[i + "]::function[".len()..];
            return Frame::Function {
                name: format!("function[{}", index),
                jit: true,
                library: None,
            };
        }
        return Frame::Outside(Outside::Engine);
    }
    if name.contains("trampoline") {
        return Frame::Outside(Outside::Engine);
    }
    Frame::Function {
        name: name.to_string(),
        jit: true,
        library: None,
    }
}

/// The symbols of one ELF file, by virtual address, with how file offsets map to them.
#[derive(Debug, Clone, Default)]
struct Elf {
    symbols: Table,
    /// (file offset, size, virtual address) of each loadable segment.
    segments: Vec<(u64, u64, u64)>,
}

impl Elf {
    /// The file's symbols, or its separate debug file's when it has no symbol table of its
    /// own: `FILE.debug` beside it (a stripped build that ships its symbols apart, as the
    /// apps suite's do), else Debian's by build id (libc6-dbg names glibc's internal
    /// routines: `__memcpy_avx_unaligned`). A debug file counts only with the same build id.
    fn read(path: &Path) -> Option<Elf> {
        use object::{Object, ObjectSegment};
        let data = std::fs::read(path).ok()?;
        let file = object::File::parse(&*data).ok()?;
        let id = file
            .symbol_table()
            .is_none()
            .then(|| file.build_id().ok().flatten())
            .flatten();
        let debug = id.and_then(|id| {
            let beside = std::path::PathBuf::from(format!("{}.debug", path.display()));
            [beside, debug_file(id)].into_iter().find_map(|p| {
                let d = std::fs::read(p).ok()?;
                let same = object::File::parse(&*d).ok()?.build_id().ok().flatten() == Some(id);
                same.then_some(d)
            })
        });
        let named = match debug.as_deref().and_then(|d| object::File::parse(d).ok()) {
            Some(d) => text_symbols(&d),
            None => text_symbols(&file),
        };
        let segments = file
            .segments()
            .map(|s| {
                let (off, size) = s.file_range();
                (off, size, s.address())
            })
            .collect();
        Some(Elf {
            symbols: Table::sorted(named),
            segments,
        })
    }
}

/// The functions a native program imports from its libraries (`printf`, `malloc`), by the
/// names it calls them.
fn imports(path: &Path) -> Vec<String> {
    use object::{Object, ObjectSymbol};
    let Ok(data) = std::fs::read(path) else {
        return Vec::new();
    };
    let Ok(file) = object::File::parse(&*data) else {
        return Vec::new();
    };
    file.dynamic_symbols()
        .filter(|s| s.is_undefined())
        .filter_map(|s| s.name().ok().map(|n| demangled(called_name(n))))
        .filter(|n| !n.is_empty())
        .collect()
}

/// Where Debian keeps the separate debug file of a build id.
fn debug_file(id: &[u8]) -> PathBuf {
    let hex = crate::text::hex(id);
    PathBuf::from(format!(
        "/usr/lib/debug/.build-id/{}/{}.debug",
        &hex[..2.min(hex.len())],
        hex.get(2..).unwrap_or("")
    ))
}

/// The functions a file defines, by address.
fn text_symbols(file: &object::File<'_>) -> Vec<Named> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let mut named = Vec::new();
    for sym in file.symbols().chain(file.dynamic_symbols()) {
        if sym.kind() != SymbolKind::Text || sym.size() == 0 || !sym.is_definition() {
            continue;
        }
        if let Ok(name) = sym.name() {
            named.push(Named {
                start: sym.address(),
                end: sym.address() + sym.size(),
                name: demangled(name),
            });
        }
    }
    named.sort_by_key(|n| (n.start, n.name.clone()));
    named.dedup_by(|a, b| a.start == b.start && a.name == b.name);
    named
}

/// A C++ symbol as a module's name section gives it (wasm-ld demangles, as `c++filt` does):
/// `_ZN8simdjson3dom6parser5parseEPKhmb` is `simdjson::dom::parser::parse(unsigned char
/// const*, unsigned long, bool)` on both sides. Any other name as it is.
fn demangled(name: &str) -> String {
    name.starts_with("_Z")
        .then(|| cpp_demangle::Symbol::new(name).ok()?.demangle().ok())
        .flatten()
        .unwrap_or_else(|| name.to_string())
}

impl Elf {
    /// The name of the function at `offset` in the file.
    fn at_offset(&self, offset: u64) -> Option<&str> {
        let (off, _, vaddr) = self
            .segments
            .iter()
            .find(|(o, size, _)| *o <= offset && offset < o + size)?;
        self.symbols
            .find(offset - off + vaddr)
            .map(|n| n.name.as_str())
    }
}

/// C library routines an optimised libc runs under another name (glibc picks
/// `__memcpy_avx_unaligned_erms` for `memcpy`): the name the program called, so that
/// native meets the guest's own `memcpy` by name.
fn called_name(symbol: &str) -> &str {
    const ROUTINES: [&str; 14] = [
        "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strnlen", "strcmp",
        "strncmp", "strchr", "strrchr", "strcpy", "stpcpy", "bcmp",
    ];
    let bare = symbol.trim_start_matches('_');
    ROUTINES
        .iter()
        .find(|r| {
            bare.strip_prefix(**r)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
        })
        .copied()
        .unwrap_or(symbol)
}

/// What a mapped file is to the resolver, found once per file.
struct FileInfo {
    is_program: bool,
    c_library: bool,
    file: String,
    elf: std::sync::Arc<Option<Elf>>,
}

/// A file's symbols, read once per process (a worker names every iteration's samples,
/// and the C library's debug symbols alone are megabytes).
fn cached_elf(path: &Path) -> std::sync::Arc<Option<Elf>> {
    use std::sync::{Arc, Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Option<Elf>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(e) = cache.lock().ok().and_then(|c| c.get(path).cloned()) {
        return e;
    }
    let e = Arc::new(Elf::read(path));
    if let Ok(mut c) = cache.lock() {
        c.insert(path.to_path_buf(), e.clone());
    }
    e
}

/// Names sampled addresses of one process.
pub struct Resolver {
    mappings: Vec<Mapping>,
    jit: Table,
    files: HashMap<String, FileInfo>,
    program: Option<PathBuf>,
    others: Outside,
}

impl Resolver {
    /// A resolver for a process with these executable mappings and, when an engine
    /// compiled code in it, this perf map's text. `program` is the native program measured
    /// (its functions are the program's own; the C library's are named with the library);
    /// code in every other file is `others` (a native process's loader and start-up, or
    /// the worker hosting an engine or a loaded library).
    pub fn new(
        mappings: Vec<Mapping>,
        perf_map: &str,
        program: Option<&Path>,
        others: Outside,
    ) -> Resolver {
        let jit = parse_perf_map(perf_map)
            .into_iter()
            .map(|(start, size, name)| Named {
                start,
                end: start + size,
                name,
            })
            .collect();
        Resolver {
            mappings,
            jit: Table::sorted(latest(jit)),
            files: HashMap::new(),
            program: program.map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf())),
            others,
        }
    }

    /// The names of every function of the program: the perf map's functions (an engine),
    /// else the native program's text symbols and the C library functions it imports.
    pub fn program_functions(&mut self) -> Vec<String> {
        let mut names: Vec<String> = self
            .jit
            .0
            .iter()
            .filter_map(|n| match jit_frame(&n.name) {
                Frame::Function { name, .. } => Some(name),
                Frame::Outside(_) => None,
            })
            .collect();
        if names.is_empty()
            && let Some(program) = self.program.clone()
            && let Some(elf) = cached_elf(&program).as_ref()
        {
            names = elf.symbols.0.iter().map(|n| n.name.clone()).collect();
            names.extend(imports(&program));
        }
        names.sort();
        names.dedup();
        names
    }

    /// Each function's machine code size in bytes: the perf map's (an engine), else the
    /// native program's symbol sizes.
    pub fn program_sizes(&mut self) -> std::collections::BTreeMap<String, u64> {
        let mut sizes = std::collections::BTreeMap::new();
        for n in &self.jit.0 {
            if let Frame::Function { name, .. } = jit_frame(&n.name) {
                sizes.insert(name, n.end - n.start);
            }
        }
        if sizes.is_empty()
            && let Some(program) = self.program.clone()
            && let Some(elf) = cached_elf(&program).as_ref()
        {
            for n in &elf.symbols.0 {
                sizes.insert(n.name.clone(), n.end - n.start);
            }
        }
        sizes
    }

    /// The byte offset of `addr` in the engine-compiled function that holds it, when a
    /// perf map names one that wasmtime or wasmer compiled (V8's tiers share a name, so
    /// their offsets would mix): where the hot-code view puts a sample.
    pub fn jit_offset(&self, addr: u64) -> Option<(String, u32)> {
        let n = self.jit.find(addr)?;
        if is_v8(&n.name) {
            return None;
        }
        match jit_frame(&n.name) {
            Frame::Function { name, .. } => Some((name, u32::try_from(addr - n.start).ok()?)),
            Frame::Outside(_) => None,
        }
    }

    /// What the address is. `return_address`: a caller's, which points after its call.
    pub fn frame(&mut self, addr: u64, return_address: bool) -> Frame {
        let addr = if return_address {
            addr.saturating_sub(1)
        } else {
            addr
        };
        if addr >= 0xffff_8000_0000_0000 {
            return Frame::Outside(Outside::Kernel);
        }
        if let Some(n) = self.jit.find(addr) {
            return jit_frame(&n.name);
        }
        let Some(m) = self
            .mappings
            .iter()
            .rev()
            .find(|m| m.start <= addr && addr < m.end)
            .cloned()
        else {
            return Frame::Outside(Outside::Unknown);
        };
        if !m.path.starts_with('/') {
            // Anonymous executable memory no perf map names: compiled code; [vdso],
            // [vsyscall]: the kernel's.
            return Frame::Outside(if m.path.starts_with("[v") {
                Outside::Kernel
            } else if m.path.is_empty() {
                Outside::Compiled
            } else {
                Outside::Unknown
            });
        }
        let program = self.program.clone();
        let info = self.files.entry(m.path.clone()).or_insert_with(|| {
            let path = Path::new(&m.path);
            let file = m.path.rsplit('/').next().unwrap_or(&m.path).to_string();
            let is_program = program
                .as_deref()
                .is_some_and(|p| p == path || path.canonicalize().is_ok_and(|c| c == p));
            let c_library = file.starts_with("libc.") || file.starts_with("libm.");
            // Only the program's and the C library's names are ever shown: the worker's own
            // binary (an engine's host, 160 MB) is not read at all.
            let named = program.is_some() && (is_program || c_library);
            FileInfo {
                is_program,
                c_library,
                file,
                elf: if named {
                    cached_elf(path)
                } else {
                    std::sync::Arc::new(None)
                },
            }
        });
        let name = info
            .elf
            .as_ref()
            .as_ref()
            .and_then(|e| e.at_offset(addr - m.start + m.offset))
            .map(str::to_string);
        let (is_program, c_library, file) = (info.is_program, info.c_library, info.file.clone());
        match (self.program.is_some(), is_program, name) {
            (true, true, Some(name)) => Frame::Function {
                name,
                jit: false,
                library: None,
            },
            (true, true, None) => Frame::Outside(Outside::Unknown),
            // The C library a native program calls, as the guest's own libc is compiled in.
            (true, false, Some(name)) if c_library => Frame::Function {
                name: called_name(&name).to_string(),
                jit: false,
                library: Some(file),
            },
            // glibc keeps its routines' names in a separate debug file (Debian: libc6-dbg).
            (true, false, None) if c_library => Frame::Function {
                name: format!("[{file}: no symbols; apt-get install libc6-dbg]"),
                jit: false,
                library: Some(file),
            },
            _ => Frame::Outside(self.others),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_line_wins_where_freed_code_was_reused() {
        // The counting copy's code, freed, then the measured module's over its addresses.
        let mut r = Resolver::new(
            Vec::new(),
            "0x1000 100 pop_arg\n0x1100 40 memcpy\n0x1000 80 __multi3\n0x1080 a0 fe_mul\n",
            None,
            Outside::Engine,
        );
        let name = |r: &mut Resolver, a| match r.frame(a, false) {
            Frame::Function { name, .. } => name,
            Frame::Outside(o) => o.label().to_string(),
        };
        assert_eq!(name(&mut r, 0x1010), "__multi3");
        assert_eq!(name(&mut r, 0x10f0), "fe_mul");
        // memcpy's line (0x1100-0x1140) overlaps fe_mul's later one (0x1080-0x1120): its
        // code is gone, even where fe_mul does not reach (an address in no mapping here).
        assert_eq!(name(&mut r, 0x1120), "[unknown]");
    }

    #[test]
    fn perf_map_lines_name_wasm_functions_and_engine_stubs() {
        let map = parse_perf_map(
            "0x7f0000001000 40 sha256_transform\n\
             7f0000001040 20 wasm[0]::function[7]\n\
             0x7f0000001060 10 wasm[0]::array_to_wasm_trampoline[2]\n\
             bad line\n\
             0x7f0000001080 0 empty\n",
        );
        assert_eq!(map.len(), 3, "{map:?}");
        let mut r = Resolver::new(
            Vec::new(),
            "0x7f0000001000 40 sha256_transform\n7f0000001040 20 wasm[0]::function[7]\n\
             0x7f0000001060 10 wasm[0]::array_to_wasm_trampoline[2]\n",
            None,
            Outside::Engine,
        );
        assert_eq!(
            r.frame(0x7f0000001010, false),
            Frame::Function {
                name: "sha256_transform".into(),
                jit: true,
                library: None
            }
        );
        // A return address just past the end belongs to the function before it.
        assert!(
            matches!(r.frame(0x7f0000001040, true), Frame::Function { name, .. } if name == "sha256_transform")
        );
        assert!(
            matches!(r.frame(0x7f0000001041, false), Frame::Function { name, .. } if name == "function[7]")
        );
        assert_eq!(
            r.frame(0x7f0000001065, false),
            Frame::Outside(Outside::Engine)
        );
        assert_eq!(
            r.frame(0x7f0000009000, false),
            Frame::Outside(Outside::Unknown)
        );
        assert_eq!(
            r.frame(0xffff_ffff_8100_0000, false),
            Frame::Outside(Outside::Kernel)
        );
    }

    #[test]
    fn v8_names_wasm_functions_as_wasmtime_does_and_keeps_its_own_code_apart() {
        let map = "1000 100 JS:fe_mul-12-turbofan\n\
                   1100 100 JS:wasm-function[7]-7-liftoff\n\
                   1200 100 JS:wasm-to-js:ii:i-__imported_wasi_snapshot_preview1_fd_write-6-turbofan\n\
                   1300 100 Builtin:GenericJSToWasmWrapper\n\
                   1400 100 JS:^resolve node:path:1217:10\n\
                   1500 100 JS:_start.command_export-67-liftoff\n\
                   1600 100 JS:odd-name-3-turbofan\n";
        let mut r = Resolver::new(Vec::new(), map, None, Outside::Engine);
        let named = |r: &mut Resolver, a: u64| match r.frame(a, false) {
            Frame::Function {
                name, jit: true, ..
            } => Some(name),
            _ => None,
        };
        assert_eq!(named(&mut r, 0x1010).as_deref(), Some("fe_mul"));
        assert_eq!(named(&mut r, 0x1110).as_deref(), Some("function[7]"));
        assert_eq!(named(&mut r, 0x1210), None);
        assert_eq!(named(&mut r, 0x1310), None);
        assert_eq!(named(&mut r, 0x1410), None);
        assert_eq!(
            named(&mut r, 0x1510).as_deref(),
            Some("_start.command_export")
        );
        assert_eq!(named(&mut r, 0x1610).as_deref(), Some("odd-name"));
        assert_eq!(r.frame(0x1310, false), Frame::Outside(Outside::Engine));
        // V8's two tiers share a name: no offsets; wasmtime's are kept.
        assert_eq!(r.jit_offset(0x1010), None);
        let r = Resolver::new(
            Vec::new(),
            "2000 40 fe_mul\n2040 10 wasm[0]::array_to_wasm_trampoline[2]\n",
            None,
            Outside::Engine,
        );
        assert_eq!(r.jit_offset(0x2013), Some(("fe_mul".into(), 0x13)));
        assert_eq!(r.jit_offset(0x2041), None);
        assert_eq!(r.jit_offset(0x2050), None);
        let names = Resolver::new(Vec::new(), map, None, Outside::Engine).program_functions();
        assert_eq!(
            names,
            ["_start.command_export", "fe_mul", "function[7]", "odd-name"]
        );
    }

    #[test]
    fn cpp_symbols_read_as_the_name_section_writes_them() {
        assert_eq!(
            demangled("_ZN8simdjson8fallback25dom_parser_implementation6stage1EPKhmb"),
            "simdjson::fallback::dom_parser_implementation::stage1(unsigned char const*, unsigned long, bool)"
        );
        assert_eq!(demangled("luaV_execute"), "luaV_execute");
        assert_eq!(demangled("_Znot_mangled"), "_Znot_mangled");
    }

    #[test]
    fn glibc_routines_are_named_as_called() {
        assert_eq!(called_name("__memcpy_avx_unaligned_erms"), "memcpy");
        assert_eq!(called_name("__memset_avx2_unaligned"), "memset");
        assert_eq!(called_name("__strlen_evex"), "strlen");
        assert_eq!(called_name("memcpy"), "memcpy");
        assert_eq!(called_name("__memcpy_chk"), "memcpy");
        assert_eq!(called_name("memcpyish"), "memcpyish");
        assert_eq!(called_name("malloc"), "malloc");
    }

    /// A stripped build is named from `FILE.debug` beside it (the apps suite's native
    /// builds), and only when that file has the build's own build id.
    #[test]
    fn a_stripped_build_is_named_by_the_debug_file_beside_it() {
        let d = tempfile::tempdir().unwrap();
        let build = |body: &str, out: &Path| {
            let src = d.path().join("p.c");
            std::fs::write(&src, body).unwrap();
            let ok = std::process::Command::new("clang-19")
                .args(["-O1", "-Wl,--build-id=sha1", "-o"])
                .arg(out)
                .arg(&src)
                .status()
                .is_ok_and(|s| s.success());
            let split = |args: &[&std::ffi::OsStr]| {
                std::process::Command::new("objcopy")
                    .args(args)
                    .status()
                    .is_ok_and(|s| s.success())
            };
            let debug = PathBuf::from(format!("{}.debug", out.display()));
            ok && split(&[
                "--only-keep-debug".as_ref(),
                out.as_os_str(),
                debug.as_os_str(),
            ]) && split(&["--strip-all".as_ref(), out.as_os_str()])
        };
        let prog = d.path().join("prog");
        let body = "int wasmeter_side_symbol(int x) { return x * 3 + 1; }\n\
                    int main(int c, char **v) { return wasmeter_side_symbol(c) & (int)(long)v; }\n";
        if !build(body, &prog) {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI needs clang-19 and objcopy (binutils) for this test"
            );
            eprintln!("skipped: clang-19 or objcopy missing");
            return;
        }
        let names = |elf: &Elf| {
            elf.symbols
                .0
                .iter()
                .map(|n| n.name.clone())
                .collect::<Vec<_>>()
        };
        let elf = Elf::read(&prog).unwrap();
        assert!(
            names(&elf).iter().any(|n| n == "wasmeter_side_symbol"),
            "{:?}",
            names(&elf)
        );
        // Another build's symbols beside it (another build id) name nothing.
        let other = d.path().join("other");
        assert!(build(&body.replace("* 3", "* 5"), &other));
        std::fs::rename(
            format!("{}.debug", other.display()),
            format!("{}.debug", prog.display()),
        )
        .unwrap();
        let elf = Elf::read(&prog).unwrap();
        assert!(
            !names(&elf).iter().any(|n| n == "wasmeter_side_symbol"),
            "{:?}",
            names(&elf)
        );
    }

    #[test]
    fn this_test_binary_names_its_own_functions() {
        let exe = std::env::current_exe().unwrap();
        let mut r = Resolver::new(
            super::super::sampler::process_mappings(None),
            "",
            Some(&exe),
            Outside::Engine,
        );
        let here = this_test_binary_names_its_own_functions as *const () as usize as u64;
        match r.frame(here, false) {
            Frame::Function { name, jit, library } => {
                assert!(
                    name.contains("this_test_binary_names_its_own_functions"),
                    "{name}"
                );
                assert!(!jit && library.is_none());
            }
            other => panic!("{other:?}"),
        }
        // libc's memcpy, found through the mapping of the C library, as called.
        let memcpy = libc::memcpy as *const () as usize as u64;
        match r.frame(memcpy, false) {
            Frame::Function { library, .. } => {
                assert!(library.is_some_and(|l| l.starts_with("libc.")));
            }
            other => panic!("{other:?}"),
        }
    }
}
