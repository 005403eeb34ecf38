//! The modules the lifecycle suite instantiates, generated at run time (wasm-encoder), so
//! the suite needs no toolchain and no committed binaries. Each test's name is its module:
//!
//! - `hello`: one trivial export `hello` returning 42, no memory, no imports — the cost of
//!   an instance itself;
//! - `heap-<N>k-dense`, `heap-<N>m-sparse`, …: a defined (not imported) memory of N KiB/MiB
//!   whose initial contents are static active data segments, so wasmtime can map them
//!   copy-on-write. *Dense*: every 4 KiB host page holds non-zero bytes; *sparse*: one page
//!   in eight does (pages 0, 8, 16, …), the rest are zero, as in Lucet's study.
//!
//! Heap modules also export `peek(addr) -> i32` (one byte of memory), which the harness uses
//! once per cell to check that the data really arrived, and `memory`.

/// The trivial export every module has.
pub const CALL_EXPORT: &str = "hello";
/// What [`CALL_EXPORT`] returns.
pub const ANSWER: i32 = 42;
/// The export that reads one byte of memory (heap modules).
pub const PEEK_EXPORT: &str = "peek";
use serde::{Deserialize, Serialize};
use wasm_encoder::{
    CodeSection, ConstExpr, DataSection, ExportKind, ExportSection, Function, FunctionSection,
    MemArg, MemorySection, MemoryType, Module, TypeSection, ValType,
};

/// Host page size the fill pattern is laid out in: what copy-on-write and zeroing work on.
pub const HOST_PAGE: u64 = 4096;
/// WebAssembly page size.
pub const WASM_PAGE: u64 = 65536;
/// One page in this many is non-zero in a sparse heap.
pub const SPARSE_EVERY: u64 = 8;
/// Largest heap a module name may ask for: the module carries its data, so its size grows
/// with the heap.
pub const MAX_HEAP_BYTES: u64 = 64 << 20;

/// How the initial heap is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fill {
    /// Every host page holds non-zero bytes.
    Dense,
    /// One host page in [`SPARSE_EVERY`] holds non-zero bytes; the others are zero.
    Sparse,
}

impl Fill {
    /// `dense` or `sparse`.
    pub fn as_str(self) -> &'static str {
        match self {
            Fill::Dense => "dense",
            Fill::Sparse => "sparse",
        }
    }
}

/// One module of the lifecycle suite; its name is its specification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum ModuleSpec {
    /// No memory, one trivial export.
    Hello,
    /// A memory of `bytes` whose initial contents are data segments filled as `fill` says.
    Heap {
        /// Initial (and only) size of the memory, a multiple of 64 KiB.
        bytes: u64,
        /// How its pages are filled.
        fill: Fill,
    },
}

impl ModuleSpec {
    /// Parses a module name: `hello` or `heap-<N>k|m-dense|sparse` (N KiB or MiB, a
    /// multiple of 64 KiB, at most [`MAX_HEAP_BYTES`]).
    pub fn parse(name: &str) -> Result<ModuleSpec, String> {
        let usage = || {
            format!(
                "unknown lifecycle module '{name}' (use 'hello' or 'heap-<size>-<dense|sparse>' \
                 with a size in k or m, a multiple of 64k up to {}m, e.g. heap-256k-sparse)",
                MAX_HEAP_BYTES >> 20
            )
        };
        if name == "hello" {
            return Ok(ModuleSpec::Hello);
        }
        let rest = name.strip_prefix("heap-").ok_or_else(usage)?;
        let (size, fill) = rest.split_once('-').ok_or_else(usage)?;
        let fill = match fill {
            "dense" => Fill::Dense,
            "sparse" => Fill::Sparse,
            _ => return Err(usage()),
        };
        let (digits, unit) = size.split_at(size.len().saturating_sub(1));
        let shift = match unit {
            "k" => 10,
            "m" => 20,
            _ => return Err(usage()),
        };
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.chars().all(|c| c.is_ascii_digit())
        {
            return Err(usage());
        }
        let n: u64 = digits.parse().map_err(|_| usage())?;
        let bytes = n
            .checked_shl(shift)
            .filter(|b| b >> shift == n)
            .ok_or_else(usage)?;
        if bytes == 0 || bytes % WASM_PAGE != 0 || bytes > MAX_HEAP_BYTES {
            return Err(usage());
        }
        Ok(ModuleSpec::Heap { bytes, fill })
    }

    /// The canonical name (`hello`, `heap-1m-dense`, `heap-64k-sparse`).
    pub fn name(&self) -> String {
        match *self {
            ModuleSpec::Hello => "hello".into(),
            ModuleSpec::Heap { bytes, fill } => {
                let size = if bytes % (1 << 20) == 0 {
                    format!("{}m", bytes >> 20)
                } else {
                    format!("{}k", bytes >> 10)
                };
                format!("heap-{size}-{}", fill.as_str())
            }
        }
    }

    /// Initial memory size, bytes (0 for `hello`).
    pub fn heap_bytes(&self) -> u64 {
        match *self {
            ModuleSpec::Hello => 0,
            ModuleSpec::Heap { bytes, .. } => bytes,
        }
    }

    /// The fill, for heap modules.
    pub fn fill(&self) -> Option<Fill> {
        match *self {
            ModuleSpec::Hello => None,
            ModuleSpec::Heap { fill, .. } => Some(fill),
        }
    }

    /// True when host page `page` (0-based) starts out holding data.
    pub fn page_has_data(&self, page: u64) -> bool {
        match *self {
            ModuleSpec::Hello => false,
            ModuleSpec::Heap { bytes, fill } => {
                page * HOST_PAGE < bytes
                    && (fill == Fill::Dense || page.is_multiple_of(SPARSE_EVERY))
            }
        }
    }

    /// The byte at `addr` right after instantiation.
    pub fn expected_byte(&self, addr: u64) -> u8 {
        if self.page_has_data(addr / HOST_PAGE) {
            pattern(addr)
        } else {
            0
        }
    }

    /// Bytes of initial data (non-zero pages × page size).
    pub fn data_bytes(&self) -> u64 {
        let pages = self.heap_bytes() / HOST_PAGE;
        (0..pages).filter(|p| self.page_has_data(*p)).count() as u64 * HOST_PAGE
    }

    /// The module's binary.
    pub fn wasm(&self) -> Vec<u8> {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], [ValType::I32]);
        let mut functions = FunctionSection::new();
        functions.function(0);
        let mut exports = ExportSection::new();
        exports.export(CALL_EXPORT, ExportKind::Func, 0);
        let mut code = CodeSection::new();
        let mut hello = Function::new([]);
        hello.instructions().i32_const(ANSWER).end();
        code.function(&hello);

        let ModuleSpec::Heap { bytes, .. } = *self else {
            module
                .section(&types)
                .section(&functions)
                .section(&exports)
                .section(&code);
            return module.finish();
        };
        types.ty().function([ValType::I32], [ValType::I32]);
        functions.function(1);
        exports.export(PEEK_EXPORT, ExportKind::Func, 1);
        exports.export("memory", ExportKind::Memory, 0);
        let mut peek = Function::new([]);
        peek.instructions()
            .local_get(0)
            .i32_load8_u(MemArg {
                offset: 0,
                align: 0,
                memory_index: 0,
            })
            .end();
        code.function(&peek);
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: bytes / WASM_PAGE,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        // One segment per run of consecutive data pages: a single one when dense.
        let mut data = DataSection::new();
        let pages = bytes / HOST_PAGE;
        let mut page = 0;
        while page < pages {
            if !self.page_has_data(page) {
                page += 1;
                continue;
            }
            let start = page;
            while page < pages && self.page_has_data(page) {
                page += 1;
            }
            let (from, to) = (start * HOST_PAGE, page * HOST_PAGE);
            let bytes: Vec<u8> = (from..to).map(pattern).collect();
            data.active(0, &ConstExpr::i32_const(from as i32), bytes);
        }
        module
            .section(&types)
            .section(&functions)
            .section(&memories)
            .section(&exports)
            .section(&code)
            .section(&data);
        module.finish()
    }
}

/// The non-zero byte stored at `addr` of a data page: varied (so no page is trivially
/// compressible or shared) and never zero.
fn pattern(addr: u64) -> u8 {
    ((addr.wrapping_mul(167).wrapping_add(13)) % 251) as u8 + 1
}

impl std::fmt::Display for ModuleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl TryFrom<String> for ModuleSpec {
    type Error = String;
    fn try_from(s: String) -> Result<ModuleSpec, String> {
        ModuleSpec::parse(&s)
    }
}

impl From<ModuleSpec> for String {
    fn from(m: ModuleSpec) -> String {
        m.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        for (name, bytes, fill) in [
            ("heap-64k-dense", 64 << 10, Some(Fill::Dense)),
            ("heap-256k-sparse", 256 << 10, Some(Fill::Sparse)),
            ("heap-1m-dense", 1 << 20, Some(Fill::Dense)),
            ("heap-16m-sparse", 16 << 20, Some(Fill::Sparse)),
            ("hello", 0, None),
        ] {
            let m = ModuleSpec::parse(name).unwrap();
            assert_eq!(m.heap_bytes(), bytes, "{name}");
            assert_eq!(m.fill(), fill, "{name}");
            assert_eq!(m.name(), name);
        }
        // 1024k is 1m: one canonical name.
        assert_eq!(
            ModuleSpec::parse("heap-1024k-dense").unwrap().name(),
            "heap-1m-dense"
        );
        for bad in [
            "heap",
            "heap-64k",
            "heap-64k-full",
            "heap-63k-dense",
            "heap-0k-dense",
            "heap-064k-dense",
            "heap-128m-dense",
            "heap-64g-dense",
            "heap--dense",
            "heap-k-dense",
            "heap-99999999999999999999m-dense",
            "Hello",
        ] {
            let e = ModuleSpec::parse(bad).unwrap_err();
            assert!(e.contains(bad) && e.contains("heap-<size>"), "{e}");
        }
    }

    #[test]
    fn pattern_is_never_zero() {
        assert!((0..100_000u64).all(|a| pattern(a) != 0));
    }

    #[test]
    fn dense_and_sparse_pages() {
        let dense = ModuleSpec::parse("heap-256k-dense").unwrap();
        let sparse = ModuleSpec::parse("heap-256k-sparse").unwrap();
        assert_eq!(dense.data_bytes(), 256 << 10);
        assert_eq!(sparse.data_bytes(), 32 << 10);
        assert!(sparse.page_has_data(0) && sparse.page_has_data(8) && !sparse.page_has_data(7));
        assert!(!dense.page_has_data(64), "page past the heap");
        // A 64 KiB sparse heap still differs from the dense one: 2 of its 16 pages.
        assert_eq!(
            ModuleSpec::parse("heap-64k-sparse").unwrap().data_bytes(),
            8 << 10
        );
    }

    #[test]
    fn module_sizes_follow_the_data() {
        let hello = ModuleSpec::Hello.wasm();
        assert!(hello.len() < 64, "hello is {} bytes", hello.len());
        assert_eq!(&hello[..4], b"\0asm");
        for name in [
            "heap-1m-dense",
            "heap-1m-sparse",
            "heap-16m-dense",
            "heap-16m-sparse",
        ] {
            let m = ModuleSpec::parse(name).unwrap();
            let len = m.wasm().len() as u64;
            let data = m.data_bytes();
            assert!(
                len >= data && len < data + data / 8 + 1024,
                "{name}: {len} bytes of module for {data} bytes of data"
            );
        }
    }
}
