//! The flags that turn a WebAssembly proposal on in a CLI runtime, declared per adapter row,
//! so the feature matrix can say "needs a flag" (and which) instead of ✗ where a runtime
//! supports a feature only when asked.

use super::RuntimeInfo;
use super::runtime_id::base_id;

/// One adapter's flags: where they go in its command lines, and the words per feature.
struct Flags {
    /// Adapter ids that share these flags.
    ids: &'static [&'static str],
    /// Words of the adapter's run (and precompile) line before the flags: 1 after a
    /// subcommand (`wasmtime run -W …`), 0 right after the program (`node --flag …`).
    after: usize,
    /// Feature (a probe of the `features` suite) → the words that turn it on.
    features: &'static [(&'static str, &'static [&'static str])],
}

/// Checked against `wasmtime run -W help` (49.0.3) and `node --v8-options` (20.20.2).
const FLAGS: &[Flags] = &[
    Flags {
        ids: &[
            "wasmtime-cli",
            "wasmtime-cli-o0",
            "wasmtime-cli-winch",
            "wasmtime-cli-aot",
        ],
        after: 1,
        features: &[("threads", &["-W", "shared-memory=y"])],
    },
    Flags {
        ids: &["node"],
        after: 0,
        features: &[
            ("relaxed-simd", &["--experimental-wasm-relaxed-simd"]),
            ("extended-const", &["--experimental-wasm-extended-const"]),
            (
                "function-references",
                &["--experimental-wasm-typed-funcref"],
            ),
            ("gc", &["--experimental-wasm-gc"]),
            ("memory64", &["--experimental-wasm-memory64"]),
        ],
    },
];

/// What a variant with every declared flag on is called: `wasmtime-cli+flags`.
pub const FLAGGED: &str = "+flags";

fn flags_of(id: &str) -> Option<&'static Flags> {
    let id = base_id(id);
    FLAGS.iter().find(|f| f.ids.contains(&id))
}

/// The words that turn `feature` on in runtime `id`, if it declares any.
pub fn feature_flag(id: &str, feature: &str) -> Option<String> {
    flags_of(id)?
        .features
        .iter()
        .find(|(f, _)| *f == feature)
        .map(|(_, words)| words.join(" "))
}

/// The runtime with every declared feature flag on, as a runtime of its own (`ID+flags`),
/// for an available CLI runtime that declares flags. The features suite's plan adds it
/// beside the runtime, so the matrix can tell "needs a flag" from ✗ in every front end.
pub fn flagged_variant(info: &RuntimeInfo) -> Option<RuntimeInfo> {
    let flags = flags_of(&info.id)?;
    let cmd = info.command.as_ref().filter(|_| info.available())?;
    let words: Vec<String> = flags
        .features
        .iter()
        .flat_map(|(_, w)| w.iter().map(|s| s.to_string()))
        .collect();
    Some(RuntimeInfo {
        id: format!("{}{FLAGGED}", info.id),
        config: format!("{}, with {}", info.config, words.join(" ")),
        command: Some(cmd.with_words(flags.after, &words)),
        ..info.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(id: &str, run: &[&str], precompile: Option<&[&str]>) -> RuntimeInfo {
        RuntimeInfo::cli_for_tests(id, run, precompile)
    }

    #[test]
    fn flags_go_after_the_subcommand_or_the_program() {
        let aot = info(
            "wasmtime-cli-aot",
            &["/bin/wasmtime", "run", "{aot}"],
            Some(&["/bin/wasmtime", "compile", "{wasm}"]),
        );
        let v = flagged_variant(&aot).unwrap();
        assert_eq!(v.id, "wasmtime-cli-aot+flags");
        let cmd = v.command.unwrap();
        assert_eq!(
            cmd.run,
            ["/bin/wasmtime", "run", "-W", "shared-memory=y", "{aot}"]
        );
        assert_eq!(
            cmd.precompile.unwrap(),
            [
                "/bin/wasmtime",
                "compile",
                "-W",
                "shared-memory=y",
                "{wasm}"
            ]
        );
        let node = flagged_variant(&info("node", &["/bin/node", "w.js", "{wasm}"], None))
            .unwrap()
            .command
            .unwrap()
            .run;
        assert_eq!(node[0], "/bin/node");
        assert_eq!(node[1], "--experimental-wasm-relaxed-simd");
        assert_eq!(node[node.len() - 2..], ["w.js", "{wasm}"]);
        assert_eq!(
            feature_flag("node", "gc").as_deref(),
            Some("--experimental-wasm-gc")
        );
        assert_eq!(feature_flag("node", "simd"), None);
        assert!(flagged_variant(&info("wazero", &["/bin/wazero"], None)).is_none());
        let mut gone = info("node", &["/bin/node"], None);
        gone.unavailable = Some("not found".into());
        assert!(flagged_variant(&gone).is_none());
    }
}
