//! The page's generated types match the Rust types they come from.

use std::collections::BTreeMap;
use std::path::Path;
use wasmeter_desktop::bindings;

fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "ts"))
                .map(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read_to_string(&p).unwrap())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Regenerated bindings equal the checked-in ones, file for file: a Rust type changed
/// without its bindings fails here, and the page's type check then shows what it breaks.
#[test]
fn the_page_bindings_are_generated_from_the_rust_types() {
    let tmp = tempfile::tempdir().unwrap();
    bindings::export(tmp.path()).expect("bindings export");
    let fresh = files(tmp.path());
    assert!(
        fresh.contains_key("Event.ts") && fresh.contains_key("RunChoices.ts"),
        "{:?}",
        fresh.keys()
    );
    // u64 fields are plain numbers on the wire, and so in the types.
    assert!(!fresh.values().any(|t| t.contains("bigint")));
    let dir = bindings::checked_in();
    if std::env::var_os("WASMETER_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &fresh {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    let kept = files(&dir);
    let stale: Vec<&String> = kept.keys().filter(|k| !fresh.contains_key(*k)).collect();
    let drifted: Vec<&String> = fresh
        .iter()
        .filter(|(k, v)| kept.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        stale.is_empty() && drifted.is_empty(),
        "the page's bindings in {} are out of date (changed or missing: {drifted:?}; no longer \
         generated: {stale:?}); rerun this test with WASMETER_BLESS=1 and check the page",
        dir.display()
    );
}
