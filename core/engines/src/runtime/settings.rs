//! Engine settings as parameters. Each embedded engine declares its settings once (name,
//! accepted values, default, what it changes); a runtime id may carry values
//! (`wasmtime[allocator=pooling,cow=off]`), and `--set ENGINE.NAME=V1,V2` sweeps them, every
//! combination a runtime column of its own. The fixed variants (`wasmtime-pooling`…) are
//! named presets of the same settings, so old runs still load and diff.

/// What a setting accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Values {
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A size in bytes: a number, optionally with `k`, `m` or `g` (powers of 1024).
    Bytes,
}

/// One setting of an engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Setting {
    /// Its name in ids and `--set`.
    pub name: &'static str,
    /// What it accepts.
    pub values: Values,
    /// The value of the engine's base preset.
    pub default: &'static str,
    /// What it changes, in a few words.
    pub what: &'static str,
}

/// An engine's settings, and the preset their values apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct EngineSettings {
    /// The engine's name in ids and `--set` (`wasmtime`).
    pub engine: &'static str,
    /// The runtime id whose configuration a settings id starts from.
    pub base: &'static str,
    /// Its settings.
    pub settings: &'static [Setting],
    /// A CLI runtime's: the arguments its values add to the base's command line; `None`
    /// for an embedded engine, which is configured in-process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cli: Option<CliArgs>,
}

/// How a CLI runtime's settings reach its command line: each value's arguments, inserted
/// after the first `after` words of the adapter's line (after `run` for wasmtime), in the
/// order the settings are declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CliArgs {
    /// Words of the adapter's line (after the program) the arguments follow.
    pub after: usize,
    /// `(setting, value, arguments)`: the arguments a value adds (none for a default the
    /// runtime has anyway). Value `*` matches any value, and `{}` in an argument is the
    /// value (a size in bytes for a [`Values::Bytes`] setting).
    pub args: &'static [(&'static str, &'static str, &'static [&'static str])],
}

impl CliArgs {
    /// The arguments `NAME=VALUE` pairs add, in declaration order of `decl`'s settings.
    pub fn for_pairs(&self, decl: &EngineSettings, pairs: &[(String, String)]) -> Vec<String> {
        let mut out = Vec::new();
        for s in decl.settings {
            let Some((_, v)) = pairs.iter().find(|(k, _)| k == s.name) else {
                continue;
            };
            let value = match s.values {
                Values::Bytes => parse_bytes(v).map_or_else(|| v.clone(), |b| b.to_string()),
                Values::OneOf(_) => v.clone(),
            };
            let row = self
                .args
                .iter()
                .find(|(n, w, _)| *n == s.name && *w == v.as_str())
                .or_else(|| self.args.iter().find(|(n, w, _)| *n == s.name && *w == "*"));
            if let Some((_, _, words)) = row {
                out.extend(words.iter().map(|w| w.replace("{}", &value)));
            }
        }
        out
    }
}

pub use crate::model::base_id;

/// An engine's declaration and the `NAME=VALUE` pairs of an id.
pub type ParsedId = (&'static EngineSettings, Vec<(String, String)>);

/// Per engine swept: its declaration and each setting's values.
type Swept = Vec<(&'static EngineSettings, Vec<(String, Vec<String>)>)>;

/// Most combinations a sweep runs without `--yes`.
pub const MAX_COMBINATIONS: usize = 64;

/// The settings of engine `name` among `engines`.
fn engine(engines: &'static [EngineSettings], name: &str) -> Option<&'static EngineSettings> {
    engines.iter().find(|e| e.engine == name)
}

/// The engines' names, for errors.
fn names(engines: &[EngineSettings]) -> String {
    engines
        .iter()
        .map(|e| e.engine)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A size such as `64k`, `2g` or `4096`, in bytes.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let (num, unit) = match text.char_indices().last()? {
        (i, 'k') => (&text[..i], 1u64 << 10),
        (i, 'm') => (&text[..i], 1 << 20),
        (i, 'g') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(unit)
}

impl EngineSettings {
    /// A CLI runtime's command with the flags `NAME=VALUE` pairs stand for; `None` for an
    /// embedded engine.
    pub fn cli_command(
        &self,
        base: &crate::model::CliCommand,
        pairs: &[(String, String)],
    ) -> Option<crate::model::CliCommand> {
        let cli = self.cli?;
        Some(base.with_words(cli.after, &cli.for_pairs(self, pairs)))
    }

    /// Checks `name=value` against the declaration; the error names the engine and what it
    /// accepts.
    pub fn check(&self, name: &str, value: &str) -> Result<(), String> {
        let e = self.engine;
        let Some(s) = self.settings.iter().find(|s| s.name == name) else {
            let names: Vec<&str> = self.settings.iter().map(|s| s.name).collect();
            return Err(format!(
                "{e} has no setting '{name}' (its settings: {})",
                names.join(", ")
            ));
        };
        match s.values {
            Values::OneOf(words) if !words.contains(&value) => Err(format!(
                "{e}.{name}: unknown value '{value}' (accepts {})",
                words.join(", ")
            )),
            Values::Bytes if parse_bytes(value).is_none() => Err(format!(
                "{e}.{name}: '{value}' is not a size (accepts bytes, e.g. 0, 64k, 2g)"
            )),
            _ => Ok(()),
        }
    }
}

/// The engine (of `engines`) and `NAME=VALUE` pairs of a settings id
/// (`wasmtime[allocator=pooling]`); `None` for an id without brackets. The pairs are checked
/// against the declaration.
pub fn parse_id(id: &str, engines: &'static [EngineSettings]) -> Option<Result<ParsedId, String>> {
    Some(crate::model::settings_pairs(id)?.and_then(|(name, pairs)| {
        let decl = engine(engines, name).ok_or_else(|| {
            format!(
                "runtime '{id}': '{name}' declares no settings (engines with settings: {})",
                names(engines)
            )
        })?;
        for (k, v) in &pairs {
            decl.check(k, v)?;
        }
        Ok((decl, pairs))
    }))
}

/// Splits comma-separated runtime ids, keeping the commas inside a settings id's brackets:
/// `native,wasmtime[allocator=pooling,cow=off]` is two ids. Empty items are dropped.
pub fn split_ids(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(list[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(list[start..].to_string());
    out.retain(|s| !s.is_empty());
    out
}

/// The id of an engine with these settings: `wasmtime[allocator=pooling,cow=off]`.
pub fn settings_id(engine: &str, pairs: &[(String, String)]) -> String {
    let inner: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{engine}[{}]", inner.join(","))
}

/// The runtimes of a run with sweeps: each `ENGINE.NAME=V1,V2` of `sets` checked, and for
/// each engine swept, every combination of its values as a runtime of its own, in place of
/// the engine's base preset in `runtimes` (added when `runtimes` does not name it; with no
/// runtimes given, the combinations are the run's runtimes). More than
/// [`MAX_COMBINATIONS`] need `yes`.
pub fn expand(
    runtimes: &[String],
    sets: &[String],
    yes: bool,
    engines: &'static [EngineSettings],
) -> Result<Vec<String>, String> {
    if sets.is_empty() {
        return Ok(runtimes.to_vec());
    }
    // Per engine, in the order first set: its settings, each with its values.
    let mut swept: Swept = Vec::new();
    for set in sets {
        let (lhs, values) = set
            .split_once('=')
            .ok_or_else(|| format!("--set '{set}': expected ENGINE.NAME=VALUE[,VALUE…]"))?;
        let (e, name) = lhs
            .split_once('.')
            .ok_or_else(|| format!("--set '{set}': expected ENGINE.NAME=VALUE[,VALUE…]"))?;
        let decl = engine(engines, e).ok_or_else(|| {
            format!(
                "--set '{set}': '{e}' declares no settings (engines with settings: {})",
                names(engines)
            )
        })?;
        let values: Vec<String> = values.split(',').map(str::to_string).collect();
        for v in &values {
            decl.check(name, v)?;
        }
        let slot = match swept.iter().position(|(d, _)| d.engine == decl.engine) {
            Some(i) => i,
            None => {
                swept.push((decl, Vec::new()));
                swept.len() - 1
            }
        };
        if swept[slot].1.iter().any(|(n, _)| n == name) {
            return Err(format!("--set: {e}.{name} is set twice"));
        }
        swept[slot].1.push((name.to_string(), values));
    }
    let named = !runtimes.is_empty();
    let mut out = runtimes.to_vec();
    let mut total = 0;
    for (decl, settings) in &swept {
        let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (name, values) in settings {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((name.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        total += combos.len();
        let ids: Vec<String> = combos.iter().map(|c| settings_id(decl.engine, c)).collect();
        let in_run = |r: &String| r == decl.base || r == decl.engine;
        match out.iter().position(in_run) {
            Some(at) => {
                out.splice(at..=at, ids);
            }
            None if named => {
                return Err(format!(
                    "--set {}.…: {} is not in the run (its runtimes: {}); add {} to --runtimes",
                    decl.engine,
                    decl.engine,
                    runtimes.join(", "),
                    decl.base
                ));
            }
            None => out.extend(ids),
        }
    }
    if total > MAX_COMBINATIONS && !yes {
        return Err(format!(
            "--set makes {total} runtime columns, more than {MAX_COMBINATIONS}: give --yes to run them all"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::engine_settings;

    fn expand(runtimes: &[String], sets: &[String], yes: bool) -> Result<Vec<String>, String> {
        super::expand(runtimes, sets, yes, engine_settings())
    }

    fn parse_id(id: &str) -> Option<Result<ParsedId, String>> {
        super::parse_id(id, engine_settings())
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn every_combination_is_a_runtime_in_place_of_the_engine() {
        let out = expand(
            &s(&["native", "wasmtime", "wasmi"]),
            &s(&[
                "wasmtime.allocator=pooling,on-demand",
                "wasmtime.cow=on,off",
            ]),
            false,
        )
        .unwrap();
        assert_eq!(
            out,
            s(&[
                "native",
                "wasmtime[allocator=pooling,cow=on]",
                "wasmtime[allocator=pooling,cow=off]",
                "wasmtime[allocator=on-demand,cow=on]",
                "wasmtime[allocator=on-demand,cow=off]",
                "wasmi",
            ])
        );
        assert_eq!(
            expand(&[], &s(&["wasmi.translation=eager,lazy"]), false).unwrap(),
            s(&["wasmi[translation=eager]", "wasmi[translation=lazy]"])
        );
        assert_eq!(expand(&s(&["a"]), &[], false).unwrap(), s(&["a"]));
    }

    #[test]
    fn bad_settings_name_the_engine_and_what_it_accepts() {
        let err = |sets: &[&str], rts: &[&str]| expand(&s(rts), &s(sets), false).unwrap_err();
        assert_eq!(
            err(&["wasmtime.allocator=pool"], &[]),
            "wasmtime.allocator: unknown value 'pool' (accepts on-demand, pooling)"
        );
        assert!(
            err(&["wasmtime.colour=red"], &[]).starts_with(
                "wasmtime has no setting 'colour' (its settings: compiler, opt-level,"
            )
        );
        assert_eq!(
            err(&["wasmer.compiler=singlepass"], &["wasmtime"]),
            "--set wasmer.…: wasmer is not in the run (its runtimes: wasmtime); add wasmer-cranelift to --runtimes"
        );
        assert!(err(&["v8.jit=on"], &[]).contains("'v8' declares no settings"));
        assert!(err(&["wasmtime.guard-size=lots"], &[]).contains("is not a size"));
        let many = [
            "wasmtime.guard-size=0,1k,2k,4k,8k,16k,32k,64k,128k",
            "wasmtime.opt-level=none,speed,speed-and-size",
            "wasmtime.cow=on,off",
            "wasmtime.allocator=on-demand,pooling",
        ];
        assert_eq!(
            err(&many, &[]),
            "--set makes 108 runtime columns, more than 64: give --yes to run them all"
        );
        assert_eq!(expand(&[], &s(&many), true).unwrap().len(), 108);
    }

    #[test]
    fn ids_parse_back_and_sizes_read() {
        let (e, pairs) = parse_id("wasmtime[allocator=pooling,cow=off]")
            .unwrap()
            .unwrap();
        assert_eq!(e.engine, "wasmtime");
        assert_eq!(
            settings_id(e.engine, &pairs),
            "wasmtime[allocator=pooling,cow=off]"
        );
        assert!(parse_id("wasmtime").is_none());
        assert!(parse_id("wasmtime[cow=maybe]").unwrap().is_err());
        assert_eq!(parse_bytes("64k"), Some(65536));
        assert_eq!(parse_bytes("2g"), Some(2 << 30));
        assert_eq!(parse_bytes("0"), Some(0));
        assert_eq!(parse_bytes("k"), None);
        assert_eq!(
            split_ids("native,wasmtime[allocator=pooling,cow=off],wasmi"),
            ["native", "wasmtime[allocator=pooling,cow=off]", "wasmi"]
        );
        assert_eq!(split_ids(""), Vec::<String>::new());
    }

    #[test]
    fn a_cli_runtimes_values_are_its_flags_in_declared_order() {
        let (decl, pairs) = parse_id("wasmtime-cli[guard-size=64k,compiler=winch,interrupt=none]")
            .unwrap()
            .unwrap();
        let args = decl.cli.unwrap().for_pairs(decl, &pairs);
        // compiler is declared before guard-size; `none` adds nothing; sizes in bytes.
        assert_eq!(
            args,
            ["-C", "compiler=winch", "-O", "memory-guard-size=65536"]
        );
        assert_eq!(base_id("wasmtime-cli[opt-level=none]"), "wasmtime-cli");
        assert_eq!(base_id("node"), "node");
        assert_eq!(base_id("odd[id"), "odd[id");
        assert!(parse_id("wazero[engine=jit]").unwrap().is_err());
    }
}
