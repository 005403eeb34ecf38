//! The CLI runtime table, `runtimes.toml`: data, compiled in and read once at start, so
//! that a new CLI runtime is an entry there (and its docs row), not code. Presets are
//! settings ids of another entry; the settings an entry takes are declared beside it.

use crate::model::CliCommand;
use crate::runtime::settings::{CliArgs, EngineSettings, Setting, Values};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The table wasmeter ships.
pub const SHIPPED: &str = include_str!("runtimes.toml");

/// The shipped table, checked (a bad table fails every test: it is compiled in).
pub static TABLE: LazyLock<Table> = LazyLock::new(|| {
    Table::parse(SHIPPED)
        .unwrap_or_else(|e| panic!("core/engines/src/runtime/cli/runtimes.toml: {e}"))
});

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    hints: BTreeMap<String, String>,
    runtime: Vec<Entry>,
}

/// One CLI runtime of the table; a preset's fields are its base's after [`Table::parse`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Entry {
    /// Its id on the command line and in saved runs.
    pub id: String,
    /// A settings id of another entry that this one is (`wasmtime-cli[opt-level=none]`).
    #[serde(default)]
    pub preset: Option<String>,
    /// The program's name.
    #[serde(default)]
    pub binary: String,
    /// The arguments that print its version.
    #[serde(default = "version_args")]
    pub version: Vec<String>,
    /// The run line after the program, with placeholders.
    #[serde(default)]
    pub run: Vec<String>,
    /// The ahead-of-time step.
    #[serde(default)]
    pub precompile: Option<Precompile>,
    /// `[NAME, VALUE]` pairs the runtime itself needs.
    #[serde(default)]
    pub env: Vec<[String; 2]>,
    /// The configuration in words.
    pub config: String,
    /// How to get it (after parsing, always set).
    #[serde(default)]
    pub hint: Option<String>,
    /// Runs WASI preview 2 command components as it runs modules.
    #[serde(default)]
    pub components: bool,
    /// Hands the guest its own environment.
    #[serde(default)]
    pub process_env: bool,
    /// Why it cannot map a host folder, in its own words.
    #[serde(default)]
    pub no_dir: Option<String>,
    /// Why it cannot give the guest variables, in its own words.
    #[serde(default)]
    pub no_env: Option<String>,
    /// A subcommand that must work for it to be available.
    #[serde(default)]
    pub probe: Option<Probe>,
    /// How it is asked for a perf map.
    #[serde(default)]
    pub perf_map: Option<PerfMapFlag>,
    /// The settings it takes on its command line.
    #[serde(default)]
    settings: Option<SettingsEntry>,
    /// Only the servers suite (and the gateway's for wasmtime-serve) uses it.
    #[serde(default)]
    pub servers_only: bool,
}

fn version_args() -> Vec<String> {
    vec!["--version".into()]
}

/// An ahead-of-time step: its program and arguments.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Precompile {
    /// The compiler's program name.
    pub binary: String,
    /// Its arguments, with placeholders.
    pub args: Vec<String>,
}

/// A subcommand a runtime needs beyond its binary.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// The arguments that must succeed.
    pub args: Vec<String>,
    /// What the runtime's row says when they do not.
    #[serde(rename = "else")]
    pub otherwise: String,
}

/// How a CLI runtime is asked for a perf map of the code it compiles, for profiles.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerfMapFlag {
    /// Whose perf map it is, in words.
    pub engine: String,
    /// How many words of the run line (after the program) come before the flag.
    pub after: usize,
    /// The flag's words.
    pub words: Vec<String>,
}

/// An entry's settings as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsEntry {
    /// An embedded engine whose declarations it takes.
    #[serde(default)]
    of: Option<String>,
    #[serde(default)]
    setting: Vec<SettingEntry>,
    after: usize,
    /// `[setting, value, words…]`.
    args: Vec<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingEntry {
    name: String,
    values: Vec<String>,
    default: String,
    what: String,
}

/// The table, checked: unique ids, lines that use the module, presets of entries that
/// declare the settings they name.
#[derive(Debug)]
pub struct Table {
    /// The entries in file order, presets filled in from their bases.
    pub entries: Vec<Entry>,
    /// Per preset entry: its base's settings declaration and the values it names.
    presets: BTreeMap<String, crate::runtime::settings::ParsedId>,
    /// The settings declarations, in entry order.
    pub settings: &'static [EngineSettings],
}

/// A string that lives as long as the program: the table is read once, and the settings
/// model is made of `'static` declarations.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

impl SettingsEntry {
    /// The declaration of entry `id` (leaked: once per table).
    fn declare(&self, id: &str) -> Result<EngineSettings, String> {
        let settings: &'static [Setting] =
            match &self.of {
                Some(of) => crate::runtime::embedded::settings()
                    .iter()
                    .find(|s| s.engine == of)
                    .ok_or_else(|| {
                        format!(
                            "{id}: settings of '{of}', which is no embedded engine with settings"
                        )
                    })?
                    .settings,
                None => Box::leak(
                    self.setting
                        .iter()
                        .map(|s| Setting {
                            name: leak(&s.name),
                            values: Values::OneOf(Box::leak(
                                s.values
                                    .iter()
                                    .map(|v| leak(v))
                                    .collect::<Vec<_>>()
                                    .into_boxed_slice(),
                            )),
                            default: leak(&s.default),
                            what: leak(&s.what),
                        })
                        .collect::<Vec<_>>()
                        .into_boxed_slice(),
                ),
            };
        let mut args = Vec::new();
        for row in &self.args {
            let [name, value, words @ ..] = &row[..] else {
                return Err(format!(
                    "{id}: settings args {row:?}: want [setting, value, words…]"
                ));
            };
            let Some(s) = settings.iter().find(|s| s.name == name) else {
                return Err(format!(
                    "{id}: settings args name '{name}', which it does not declare"
                ));
            };
            if value != "*"
                && !matches!(s.values, Values::OneOf(vs) if vs.contains(&value.as_str()))
            {
                return Err(format!(
                    "{id}: settings args give {name}={value}, a value it does not accept"
                ));
            }
            let words: Vec<&'static str> = words.iter().map(|w| leak(w)).collect();
            args.push((
                leak(name),
                leak(value),
                &*Box::leak(words.into_boxed_slice()),
            ));
        }
        Ok(EngineSettings {
            engine: leak(id),
            base: leak(id),
            settings,
            cli: Some(CliArgs {
                after: self.after,
                args: Box::leak(args.into_boxed_slice()),
            }),
        })
    }
}

impl Table {
    /// Reads and checks a table's text; the error names the entry and what is wrong.
    pub fn parse(text: &str) -> Result<Table, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut entries = file.runtime;
        let mut settings = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            if entries[..i].iter().any(|b| b.id == e.id) {
                return Err(format!("runtime '{}' is listed twice", e.id));
            }
            if let Some(s) = &e.settings {
                settings.push(s.declare(&e.id)?);
            }
        }
        let settings: &'static [EngineSettings] = Box::leak(settings.into_boxed_slice());
        let mut presets = BTreeMap::new();
        for i in 0..entries.len() {
            let Some(preset) = entries[i].preset.clone() else {
                continue;
            };
            let id = entries[i].id.clone();
            let (decl, pairs) = crate::runtime::settings::parse_id(&preset, settings)
                .unwrap_or_else(|| Err(format!("'{preset}' is no settings id")))
                .map_err(|e| format!("{id}: preset {e}"))?;
            let base = entries
                .iter()
                .position(|b| b.id == decl.base && b.preset.is_none())
                .ok_or_else(|| {
                    format!(
                        "{id}: preset of '{}', which is no entry of its own",
                        decl.base
                    )
                })?;
            let b = entries[base].clone();
            let e = &mut entries[i];
            if !(e.binary.is_empty() && e.run.is_empty() && e.precompile.is_none()) {
                return Err(format!(
                    "{id}: a preset takes its command from {}; give no binary, run or precompile",
                    b.id
                ));
            }
            *e = Entry {
                id: e.id.clone(),
                preset: e.preset.clone(),
                config: e.config.clone(),
                hint: e.hint.clone().or(b.hint),
                settings: None,
                ..b
            };
            presets.insert(id, (decl, pairs));
        }
        for e in &mut entries {
            e.check()?;
            if e.hint.is_none() {
                e.hint = Some(file.hints.get(&e.binary).cloned().ok_or_else(|| {
                    format!("{}: no hint, and [hints] has none for '{}'", e.id, e.binary)
                })?);
            }
        }
        Ok(Table {
            entries,
            presets,
            settings,
        })
    }

    /// The entry of a runtime id, or of its settings ids (`wasmtime-cli[opt-level=none]`
    /// takes folders, components and features as `wasmtime-cli` does).
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        let id = crate::runtime::settings::base_id(id);
        self.entries.iter().find(|e| e.id == id)
    }

    /// Entry `id`'s command from its own line (`line`, the base's for a preset): a preset's
    /// with its settings' flags added.
    pub fn command(&self, id: &str, line: CliCommand) -> CliCommand {
        match self.presets.get(id) {
            Some((decl, pairs)) => decl.cli_command(&line, pairs).unwrap_or(line),
            None => line,
        }
    }
}

impl Entry {
    /// The line wasmeter runs uses the module and the guest's arguments, and a precompile
    /// step writes the artifact the line runs.
    fn check(&self) -> Result<(), String> {
        let id = &self.id;
        if self.binary.is_empty() {
            return Err(format!("{id}: no binary"));
        }
        if self.servers_only {
            return if self.run.is_empty() {
                Ok(())
            } else {
                Err(format!("{id}: a servers-only runtime has no run line"))
            };
        }
        let uses = |v: &[String], what: &str| v.iter().any(|s| s.contains(what));
        if !(uses(&self.run, "{wasm}") || uses(&self.run, "{aot}")) {
            return Err(format!(
                "{id}: the run line names neither {{wasm}} nor {{aot}}"
            ));
        }
        if !self.run.iter().any(|w| w == "{args}") {
            return Err(format!("{id}: the run line has no {{args}}"));
        }
        match &self.precompile {
            Some(p) if !(uses(&p.args, "{aot}") && uses(&self.run, "{aot}")) => Err(format!(
                "{id}: the precompile step and the run line must both name {{aot}}"
            )),
            None if uses(&self.run, "{aot}") => Err(format!(
                "{id}: the run line names {{aot}} but there is no precompile step"
            )),
            _ => Ok(()),
        }
    }
}
