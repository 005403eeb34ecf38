//! A wasmtime variant's machine code for one function, for the hot-code view: the module
//! compiled as the variant compiles it, the function's bytes from `Module::text`, and the
//! address map back to the wasm offsets (on by default in wasmtime).

use super::WasmtimeVariant;
use crate::profile::code::CompiledFunction;
use crate::profile::names::canonical;
use wasmtime::{Engine, Module};

/// The code of `function` (a profile's name, or `function[N]`) in `module`, compiled by
/// `variant` as the runtime `runtime` compiles it.
pub fn function_code(
    variant: WasmtimeVariant,
    runtime: &str,
    module: &[u8],
    function: &str,
) -> Result<CompiledFunction, String> {
    // As the command runtime makes its engine: the same configuration, the same code.
    let engine = Engine::new(&variant.config(16)).map_err(|e| format!("{e:#}"))?;
    let m =
        Module::new(&engine, module).map_err(|e| format!("wasmtime cannot compile it: {e:#}"))?;
    let index = function
        .strip_prefix("function[")
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|n| n.parse::<u32>().ok());
    let wanted = canonical(function);
    let f = m
        .functions()
        .find(|f| match index {
            Some(i) => f.index.as_u32() == i,
            None => f.name.as_deref().is_some_and(|n| canonical(n) == wanted),
        })
        .ok_or_else(|| format!("the module has no function named {function}"))?;
    let (start, end) = (f.offset, f.offset + f.len);
    let code = m
        .text()
        .get(start..end)
        .ok_or_else(|| format!("{function}'s code lies outside the module's text"))?
        .to_vec();
    let address_map = m
        .address_map()
        .map(|map| {
            map.filter(|(o, _)| (start..end).contains(o))
                .map(|(o, w)| ((o - start) as u32, w))
                .collect()
        })
        .unwrap_or_default();
    let version = env!("WASMETER_WASMTIME_VERSION").to_string();
    Ok(CompiledFunction {
        index: f.index.as_u32(),
        engine: format!(
            "wasmtime {version} configured as {runtime}, compiled again by this wasmeter: the code the run measured (same engine, settings and code section)"
        ),
        version,
        arch: std::env::consts::ARCH,
        code,
        address_map,
    })
}
