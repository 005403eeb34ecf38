//! What wasmeter knows about a runtime before running anything on it: plain data, recorded
//! with a run and sent to workers and gateway servers.

use serde::{Deserialize, Serialize};

/// How a runtime runs a guest; decides which phases it can time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RuntimeKind {
    /// An engine linked into wasmeter: every phase timed separately.
    Embedded,
    /// An external runtime's command line: the whole process, plus self-timing.
    Cli,
    /// The C build of the test, the baseline.
    Native,
}

impl std::fmt::Display for RuntimeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RuntimeKind::Embedded => "embedded",
            RuntimeKind::Cli => "cli",
            RuntimeKind::Native => "native",
        })
    }
}

/// A resolved CLI invocation: recorded with the run, sent to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CliCommand {
    /// Program (absolute) then arguments, with placeholders.
    pub run: Vec<String>,
    /// Ahead-of-time step, timed as the `compile` phase.
    pub precompile: Option<Vec<String>>,
    /// Environment the runtime itself needs (deno's update check off), added to the job's
    /// (empty unless configured); values take the same placeholders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
}

/// What wasmeter knows about a runtime before running anything on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RuntimeInfo {
    /// Stable id used on the command line and in saved runs.
    pub id: String,
    /// How it runs guests.
    pub kind: RuntimeKind,
    /// Version of the engine, CLI or compiler.
    pub version: String,
    /// The configuration in words (compiler, allocator, flags).
    pub config: String,
    /// Why it cannot run here, if it cannot.
    pub unavailable: Option<String>,
    /// How to get it, for runtimes wasmeter does not link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The exact command lines of a CLI runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CliCommand>,
}

impl RuntimeInfo {
    /// True when it can run here.
    pub fn available(&self) -> bool {
        self.unavailable.is_none()
    }
}

#[cfg(any(test, feature = "testing"))]
impl RuntimeInfo {
    /// An available CLI runtime with these command lines, as tests make one (the adapter
    /// table makes the real ones).
    pub fn cli_for_tests(id: &str, run: &[&str], precompile: Option<&[&str]>) -> RuntimeInfo {
        let words = |s: &[&str]| s.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        RuntimeInfo {
            id: id.into(),
            kind: RuntimeKind::Cli,
            version: "1".into(),
            config: "c".into(),
            unavailable: None,
            hint: None,
            command: Some(CliCommand {
                run: words(run),
                precompile: precompile.map(words),
                env: Vec::new(),
            }),
        }
    }
}

impl CliCommand {
    /// This command with `words` after the first `after` words (after the program) of its
    /// run and precompile lines: where a CLI runtime's settings and feature flags go.
    pub fn with_words(&self, after: usize, words: &[String]) -> CliCommand {
        CliCommand {
            run: spliced(&self.run, after, words),
            precompile: self
                .precompile
                .as_deref()
                .map(|line| spliced(line, after, words)),
            env: self.env.clone(),
        }
    }

    /// This command with `words` after the first `after` words of its run line only (a
    /// profile's perf-map flag: the ahead-of-time step is not profiled).
    pub fn with_run_words(&self, after: usize, words: &[String]) -> CliCommand {
        CliCommand {
            run: spliced(&self.run, after, words),
            ..self.clone()
        }
    }
}

/// `line` (a program, then its words) with `words` after its first `after` words.
fn spliced(line: &[String], after: usize, words: &[String]) -> Vec<String> {
    let at = (1 + after).min(line.len());
    let mut v = line[..at].to_vec();
    v.extend_from_slice(words);
    v.extend_from_slice(&line[at..]);
    v
}
