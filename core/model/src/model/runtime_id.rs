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

/// A settings id split: its base and its `NAME=VALUE` pairs, in order.
pub type SettingsPairs<'a> = (&'a str, Vec<(String, String)>);

/// The base and `NAME=VALUE` pairs of a settings id (`wasmtime[allocator=pooling]`), or
/// what is wrong with its syntax; `None` for an id without brackets. Which names and values
/// an engine takes is checked by the engines (`runtime::settings::parse_id`), on this.
pub fn settings_pairs(id: &str) -> Option<Result<SettingsPairs<'_>, String>> {
    let (base, rest) = id.split_once('[')?;
    Some((|| {
        let inner = rest
            .strip_suffix(']')
            .ok_or_else(|| format!("runtime '{id}': settings end with ']'"))?;
        inner
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                pair.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("runtime '{id}': '{pair}' is not NAME=VALUE"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|pairs| (base, pairs))
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settings_id_splits_into_its_base_and_pairs() {
        assert_eq!(base_id("wasmtime-cli[opt-level=none]"), "wasmtime-cli");
        assert_eq!(base_id("wasmtime"), "wasmtime");
        assert_eq!(base_id("odd[x"), "odd[x");
        let (base, pairs) = settings_pairs("wasmtime[allocator=pooling,cow=off]")
            .unwrap()
            .unwrap();
        assert_eq!(base, "wasmtime");
        assert_eq!(
            pairs,
            [
                ("allocator".to_string(), "pooling".to_string()),
                ("cow".to_string(), "off".to_string())
            ]
        );
        assert_eq!(settings_pairs("wasmtime"), None);
        assert_eq!(
            settings_pairs("wasmtime[cow]"),
            Some(Err(
                "runtime 'wasmtime[cow]': 'cow' is not NAME=VALUE".into()
            ))
        );
        assert_eq!(
            settings_pairs("wasmtime[cow=off"),
            Some(Err(
                "runtime 'wasmtime[cow=off': settings end with ']'".into()
            ))
        );
    }
}
