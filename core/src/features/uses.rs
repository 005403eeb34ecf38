//! Which proposals a module uses: it validates with every proposal on, and fails without
//! each one it uses. So a failed cell can name the feature its runtime lacks.

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

/// The proposals of [`PROPOSALS`] a core module uses; none for bytes that do not validate
/// with all of them on (a component, a broken file).
pub fn used_by(bytes: &[u8]) -> Vec<&'static str> {
    if !valid(bytes, WasmFeatures::all()) {
        return Vec::new();
    }
    PROPOSALS
        .iter()
        .filter(|(_, f)| !valid(bytes, WasmFeatures::all() - *f))
        .map(|(name, _)| *name)
        .collect()
}
