//! Which proposals a module uses: it validates with every proposal on, and fails without
//! each one it uses. So a failed cell can name the feature its runtime lacks.

use crate::suite::WasmHeader;
use wasmparser::{Validator, WasmFeatures};

/// Each probe of a proposal, by its name in the features suite, and the validator's flag.
pub const PROPOSALS: [(&str, WasmFeatures); 15] = [
    ("sign-extension", WasmFeatures::SIGN_EXTENSION),
    (
        "non-trapping-float-to-int",
        WasmFeatures::SATURATING_FLOAT_TO_INT,
    ),
    ("multi-value", WasmFeatures::MULTI_VALUE),
    ("bulk-memory", WasmFeatures::BULK_MEMORY),
    ("reference-types", WasmFeatures::REFERENCE_TYPES),
    ("simd", WasmFeatures::SIMD),
    ("relaxed-simd", WasmFeatures::RELAXED_SIMD),
    ("tail-calls", WasmFeatures::TAIL_CALL),
    ("extended-const", WasmFeatures::EXTENDED_CONST),
    ("threads", WasmFeatures::THREADS),
    ("exceptions", WasmFeatures::EXCEPTIONS),
    ("function-references", WasmFeatures::FUNCTION_REFERENCES),
    ("gc", WasmFeatures::GC),
    ("memory64", WasmFeatures::MEMORY64),
    ("multi-memory", WasmFeatures::MULTI_MEMORY),
];

fn valid(bytes: &[u8], features: WasmFeatures) -> bool {
    Validator::new_with_features(features)
        .validate_all(bytes)
        .is_ok()
}

/// The features suite's probe of the component model itself.
pub const COMPONENT_MODEL: &str = "component-model";

/// The proposals of [`PROPOSALS`] a core module uses, or [`COMPONENT_MODEL`] for a component
/// (a layer of its own, which runtimes of core modules lack whatever is inside); none for
/// bytes that do not validate with everything on (a broken file).
pub fn used_by(bytes: &[u8]) -> Vec<&'static str> {
    if WasmHeader::of(bytes) == Some(WasmHeader::Component) {
        return vec![COMPONENT_MODEL];
    }
    if !valid(bytes, WasmFeatures::all()) {
        return Vec::new();
    }
    PROPOSALS
        .iter()
        .filter(|(_, f)| !valid(bytes, WasmFeatures::all() - *f))
        .map(|(name, _)| *name)
        .collect()
}
