//! Which embedded engines show the machine code they compile, for the hot-code view
//! (`crate::explain::hot`), each engine saying for itself ([`super::EmbeddedEngine`]):
//! wasmtime's variants give each function's code and an address map back to wasm, wasmer's
//! compilers give theirs to a watched compiler (`wasmer/watched.rs`), and the interpreters
//! compile no machine code of the guest's functions.

use super::Embedded;
use crate::profile::code::{CompiledFunction, Compiler};
use crate::profile::names::canonical;

/// The embedded engines, as a [`Compiler`] of the hot-code view.
pub struct EngineCode;

impl Compiler for EngineCode {
    fn cannot_show(&self, runtime: &str) -> Option<String> {
        match Embedded::parse(runtime) {
            // The engine's own reason first; then a build without its feature.
            Some(engine) => engine
                .cannot_show_code(runtime)
                .or_else(|| (engine.feature().missing()).map(|why| format!("{runtime}: {why}"))),
            None => Some(format!(
                "{runtime}: only the embedded wasmtime and wasmer variants show the machine code they compile (a CLI runtime or a native build is another program)"
            )),
        }
    }

    fn compile(
        &self,
        runtime: &str,
        module: &[u8],
        function: &str,
    ) -> Result<CompiledFunction, String> {
        let functions = match Embedded::parse(runtime) {
            Some(engine) if engine.feature().on => engine.module_code(runtime, module)?,
            _ => return Err(self.cannot_show(runtime).unwrap_or_default()),
        };
        let index = function
            .strip_prefix("function[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u32>().ok());
        let wanted = canonical(function);
        functions
            .into_iter()
            .find(|f| match index {
                Some(i) => f.index == i,
                None => canonical(&f.name) == wanted,
            })
            .ok_or_else(|| format!("the module has no function named {function}"))
    }
}

/// The module the engines' check-counting tests compile: a function that loads and stores,
/// one that divides, one that calls indirectly (`load`, `divide`, `indirect`).
#[cfg(all(test, any(feature = "wasmtime", feature = "wasmer")))]
pub fn checked_module() -> Vec<u8> {
    wat::parse_str(
        r#"(module
          (type $t (func (param i32) (result i32)))
          (memory 1)
          (table 2 funcref)
          (func $load (param i32) (result i32)
            (i32.store (local.get 0) (i32.add (i32.load (local.get 0)) (i32.const 1)))
            (i32.load offset=4 (local.get 0)))
          (func $divide (param i32) (result i32)
            (i32.div_s (i32.const 1000) (local.get 0)))
          (func $indirect (param i32) (result i32)
            (call_indirect (type $t) (local.get 0) (local.get 0)))
          (elem (i32.const 0) $load $divide)
          (export "indirect" (func $indirect)))"#,
    )
    .expect("the test module is valid text")
}
