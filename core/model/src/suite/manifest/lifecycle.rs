//! Lifecycle tests: the name names the generated module, or `wasm` names a module file (a
//! suite build script's), with `wasm_build_error` when the script could not make it.

use super::{Manifest, RawTest};
use crate::suite::{LifecycleModule, ModuleSpec};
use crate::suite::{SuiteError, TestKind};

/// A lifecycle test: its module, from its name (written the way the module names itself)
/// or from its file.
pub(super) fn test(m: &Manifest, t: &RawTest, name: &str) -> Result<TestKind, SuiteError> {
    m.only(t, &["wasm", "wasm_build_error"], |field| {
        format!(
            "{field} does not apply to a lifecycle test: its module is generated from its name, or read from 'wasm'"
        )
    })?;
    let at = t.name.span().start;
    let Some(wasm) = &t.wasm else {
        if let Some(e) = &t.wasm_build_error {
            return Err(m.err(
                e.span().start,
                format!("'wasm_build_error' applies only to a lifecycle test with 'wasm'; test '{name}' has none"),
            ));
        }
        let module = ModuleSpec::parse(name).map_err(|e| m.err(at, e))?;
        if module.name() != name {
            return Err(m.err(
                at,
                format!("write lifecycle module '{name}' as '{}'", module.name()),
            ));
        }
        return Ok(TestKind::Lifecycle(LifecycleModule::Generated(module)));
    };
    if ModuleSpec::parse(name).is_ok() {
        return Err(m.err(
            at,
            format!("lifecycle test '{name}' reads 'wasm', so it may not take the name of a generated module"),
        ));
    }
    let build_error = t
        .wasm_build_error
        .as_ref()
        .map(|e| e.get_ref().trim().to_string());
    // A module the script could not build need not exist: its cells fail with the reason.
    let wasm = match build_error {
        Some(_) => m.inside("wasm", wasm)?,
        None => m.existing("wasm", wasm, "module")?,
    };
    Ok(TestKind::Lifecycle(LifecycleModule::File {
        wasm,
        build_error,
    }))
}
