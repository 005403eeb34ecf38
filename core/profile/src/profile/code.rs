//! What an engine that can show its compiled code gives the hot-code view
//! (`crate::explain::hot`): one function's machine code with its map back to the wasm, and
//! the engine that compiles it.

/// One function's machine code as an engine compiled it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledFunction {
    /// Its index in the module's function space (imports first).
    pub index: u32,
    /// Its name, as the module's name section gives it; `function[N]` without one.
    pub name: String,
    /// The engine and its settings, in words.
    pub engine: String,
    /// The engine's version, as runs record it.
    pub version: String,
    /// The machine's architecture (`x86_64`, `aarch64`).
    pub arch: &'static str,
    /// The machine code.
    pub code: Vec<u8>,
    /// (offset in `code`, byte offset of the wasm instruction in the module) where the code
    /// of an instruction starts, by offset; `None`: code of no instruction.
    pub address_map: Vec<(u32, Option<u32>)>,
}

/// An engine that can show the code it compiles.
pub trait Compiler {
    /// Why the code of this runtime cannot be shown; `None` when it can.
    fn cannot_show(&self, runtime: &str) -> Option<String>;
    /// Compiles `module` as `runtime` does and returns the code of the function named
    /// `function` (a name as profiles give it, or `function[N]`).
    fn compile(
        &self,
        runtime: &str,
        module: &[u8],
        function: &str,
    ) -> Result<CompiledFunction, String>;
}

/// Each defined function's body in `module`: its byte range (locals and code) and where its
/// first instruction starts, by index in the function space (imports first). What the
/// hot-code view lists and the checks class by offset.
pub fn function_bodies(
    module: &[u8],
) -> std::collections::BTreeMap<u32, (std::ops::Range<usize>, Option<usize>)> {
    let mut out = std::collections::BTreeMap::new();
    let mut index = 0u32;
    for payload in wasmparser::Parser::new(0).parse_all(module) {
        match payload {
            Ok(wasmparser::Payload::ImportSection(imports)) => {
                for import in imports.into_imports().flatten() {
                    if matches!(
                        import.ty,
                        wasmparser::TypeRef::Func(_) | wasmparser::TypeRef::FuncExact(_)
                    ) {
                        index += 1;
                    }
                }
            }
            Ok(wasmparser::Payload::CodeSectionEntry(body)) => {
                let first = body
                    .get_operators_reader()
                    .ok()
                    .map(|ops| ops.original_position());
                out.insert(index, (body.range(), first));
                index += 1;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    out
}
