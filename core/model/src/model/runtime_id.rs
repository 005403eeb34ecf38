//! The grammar of a runtime id: a base id, optionally with engine settings in brackets
//! (`wasmtime[allocator=pooling,cow=off]`). Syntax only: which settings an engine takes is
//! the engines' business; a saved run's ids were checked when it ran, so readers of saved
//! runs (sweeps, the feature matrix) split them without the engines' declarations.

/// The id before a settings id's brackets (`wasmtime-cli` of `wasmtime-cli[opt-level=none]`);
/// any other id as it is. What is keyed by a CLI runtime's id (how it takes folders,
/// components, features) holds for its settings ids too.
pub fn base_id(id: &str) -> &str {
    match id.split_once('[') {
        Some((base, rest)) if rest.ends_with(']') => base,
        _ => id,
    }
}

/// The base and `NAME=VALUE` pairs of a well-formed settings id; `None` for an id without
/// brackets or with a malformed pair.
pub fn settings_pairs(id: &str) -> Option<(&str, Vec<(String, String)>)> {
    let (base, rest) = id.split_once('[')?;
    let inner = rest.strip_suffix(']')?;
    let pairs = inner
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect::<Option<Vec<_>>>()?;
    Some((base, pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settings_id_splits_into_its_base_and_pairs() {
        assert_eq!(base_id("wasmtime-cli[opt-level=none]"), "wasmtime-cli");
        assert_eq!(base_id("wasmtime"), "wasmtime");
        assert_eq!(base_id("odd[x"), "odd[x");
        let (base, pairs) = settings_pairs("wasmtime[allocator=pooling,cow=off]").unwrap();
        assert_eq!(base, "wasmtime");
        assert_eq!(
            pairs,
            [
                ("allocator".to_string(), "pooling".to_string()),
                ("cow".to_string(), "off".to_string())
            ]
        );
        assert_eq!(settings_pairs("wasmtime"), None);
        assert_eq!(settings_pairs("wasmtime[cow]"), None);
        assert_eq!(settings_pairs("wasmtime[cow=off"), None);
    }
}
