//! A wasmer compiler's machine code, function by function, for the hot-code view and the
//! checks a profile counts: the module compiled again as the runtime compiles it, each
//! function's code and address map kept by the watched compiler ([`super::watched`]), as
//! the compiler returned them (calls not yet linked to their targets).

use super::WasmerCompiler;
use crate::profile::code::CompiledFunction;

/// The code of every function `module` defines, compiled by `compiler` as the runtime
/// `runtime` compiles it, in index order.
pub fn module_code(
    compiler: WasmerCompiler,
    runtime: &str,
    module: &[u8],
) -> Result<Vec<CompiledFunction>, String> {
    let kept = super::watched::Kept::default();
    let words = format!(
        "wasmer {} configured as {runtime}, compiled again by this wasmeter: the code the run measured (same compiler and code section), before its calls are linked",
        env!("WASMETER_WASMER_VERSION")
    );
    let engine = compiler.watched(false, Some((kept.clone(), words)));
    wasmer::Module::new(&engine, module).map_err(|e| format!("wasmer cannot compile it: {e}"))?;
    let mut functions = std::mem::take(&mut *kept.lock().unwrap_or_else(|e| e.into_inner()));
    functions.sort_by_key(|f| f.index);
    Ok(functions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::checks;

    /// wasmer's code, counted as wasmtime's is: on both compilers a function that divides
    /// branches to a trap for zero, one that calls indirectly for the callee's checks (by
    /// Singlepass's own trap codes there); Singlepass checks a bounds in code where
    /// Cranelift leaves them to guard pages (wasmer 7.4 counted: divide 1 arithmetic,
    /// indirect 3 indirect-call, load 0 on Cranelift and 1 bounds on Singlepass); and each
    /// function has its own code and map.
    #[test]
    fn checks_are_counted_in_wasmers_code_by_what_they_guard() {
        let module = crate::runtime::embedded::code::checked_module();
        for (compiler, runtime) in [
            (WasmerCompiler::Cranelift, "wasmer-cranelift"),
            (WasmerCompiler::Singlepass, "wasmer-singlepass"),
        ] {
            let functions = module_code(compiler, runtime, &module).unwrap();
            let names: Vec<(u32, &str)> =
                functions.iter().map(|f| (f.index, f.name.as_str())).collect();
            assert_eq!(names, [(0, "load"), (1, "divide"), (2, "indirect")], "{runtime}");
            for f in &functions {
                assert!(!f.code.is_empty(), "{runtime}: {}", f.name);
                assert!(
                    f.address_map.iter().any(|(_, w)| w.is_some()),
                    "{runtime}: {} has no address map",
                    f.name
                );
            }
            let Some(counted) = checks::count(&module, &functions) else {
                assert_ne!(std::env::consts::ARCH, "x86_64");
                continue;
            };
            let of = |name: &str| counted[name];
            assert!(of("divide").arithmetic >= 1, "{runtime}: {:?}", of("divide"));
            // The table's bounds, a null entry, the signature; nothing else.
            assert!(of("indirect").indirect >= 2, "{runtime}: {:?}", of("indirect"));
            assert_eq!(of("indirect").other, 0, "{runtime}: {:?}", of("indirect"));
            assert_eq!(of("divide").bounds, 0, "{runtime}: {:?}", of("divide"));
            match compiler {
                WasmerCompiler::Cranelift => {
                    assert_eq!(of("load").bounds, 0, "{runtime}: {:?}", of("load"))
                }
                WasmerCompiler::Singlepass => {
                    assert!(of("load").bounds >= 1, "{runtime}: {:?}", of("load"))
                }
            }
        }
    }
}
