//! A wasmtime variant's machine code, function by function, for the hot-code view and the
//! checks a profile counts: the module compiled as the variant compiles it, each function's
//! bytes from `Module::text`, and the address map back to the wasm offsets (on by default
//! in wasmtime).

use super::WasmtimeVariant;
use crate::profile::code::CompiledFunction;
use wasmtime::{Engine, Module};

/// The code of every function `module` defines, compiled by `variant` as the runtime
/// `runtime` compiles it.
pub fn module_code(
    variant: WasmtimeVariant,
    runtime: &str,
    module: &[u8],
) -> Result<Vec<CompiledFunction>, String> {
    // As the command runtime makes its engine: the same configuration, the same code.
    let engine = Engine::new(&variant.config(16)).map_err(|e| format!("{e:#}"))?;
    let m =
        Module::new(&engine, module).map_err(|e| format!("wasmtime cannot compile it: {e:#}"))?;
    let text = m.text();
    let mut map: Vec<(usize, Option<u32>)> = m
        .address_map()
        .map(|map| map.collect())
        .unwrap_or_default();
    map.sort_by_key(|(o, _)| *o);
    let version = env!("WASMETER_WASMTIME_VERSION").to_string();
    let engine = format!(
        "wasmtime {version} configured as {runtime}, compiled again by this wasmeter: the code the run measured (same engine, settings and code section)"
    );
    m.functions()
        .map(|f| {
            let (start, end) = (f.offset, f.offset + f.len);
            let index = f.index.as_u32();
            let name = f
                .name
                .map_or_else(|| format!("function[{index}]"), |n| n.to_string());
            let code = text
                .get(start..end)
                .ok_or_else(|| format!("{name}'s code lies outside the module's text"))?
                .to_vec();
            let from = map.partition_point(|(o, _)| *o < start);
            let to = map.partition_point(|(o, _)| *o < end);
            Ok(CompiledFunction {
                index,
                name,
                engine: engine.clone(),
                version: version.clone(),
                arch: std::env::consts::ARCH,
                code,
                address_map: map[from..to]
                    .iter()
                    .map(|(o, w)| ((o - start) as u32, *w))
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::checks;

    /// wasmtime's code, counted: a function that calls indirectly branches to a trap for
    /// the callee's checks, one that divides for zero and overflow, and loads and stores
    /// compile to no branch at all (guard pages); a function that calls checks the stack on
    /// entry (wasmtime 48 counted: divide 1 arithmetic, indirect 1 stack and 1 indirect-call,
    /// load none).
    #[test]
    fn checks_are_counted_in_wasmtimes_code_by_what_they_guard() {
        let module = crate::runtime::embedded::code::checked_module();
        let functions = module_code(WasmtimeVariant::DEFAULT, "wasmtime", &module).unwrap();
        assert_eq!(functions.len(), 3);
        let Some(counted) = checks::count(&module, &functions) else {
            assert_ne!(std::env::consts::ARCH, "x86_64");
            return;
        };
        let of = |name: &str| counted.get(name).copied().unwrap_or_else(|| panic!("{name}: {counted:?}"));
        assert_eq!(of("load").bounds, 0, "{:?}", of("load"));
        assert!(of("divide").arithmetic >= 1, "{:?}", of("divide"));
        assert_eq!(of("divide").indirect, 0, "{:?}", of("divide"));
        assert!(of("indirect").indirect >= 1, "{:?}", of("indirect"));
        assert!(of("indirect").stack >= 1, "{:?}", of("indirect"));
        for f in ["load", "divide", "indirect"] {
            assert_eq!(of(f).other, 0, "{f}: {:?}", of(f));
        }
    }
}
