//! Lifecycle tests: the name names the generated module; nothing is built from files.

use super::{Manifest, RawTest};
use crate::lifecycle::ModuleSpec;
use crate::suite::{SuiteError, TestKind};

/// A lifecycle test: its module, from its name (written the way the module names itself).
pub(super) fn test(m: &Manifest, t: &RawTest, name: &str) -> Result<TestKind, SuiteError> {
    m.only(t, &[], |field| {
        format!("{field} does not apply to a lifecycle test: its module is generated from its name")
    })?;
    let at = t.name.span().start;
    let module = ModuleSpec::parse(name).map_err(|e| m.err(at, e))?;
    if module.name() != name {
        return Err(m.err(
            at,
            format!("write lifecycle module '{name}' as '{}'", module.name()),
        ));
    }
    Ok(TestKind::Lifecycle(module))
}
