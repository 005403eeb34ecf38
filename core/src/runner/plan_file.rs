//! A plan as a file (`wasmeter plan … -o plan.toml`, `wasmeter run --plan plan.toml`): the
//! suite and the user's choices, so that every machine of a fleet runs the same plan and
//! its runs are known to be comparable by the plan's hash, saved with each run.

use super::policy::RunChoices;
use crate::text::hex;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The plan file format this wasmeter writes and reads.
pub const PLAN_VERSION: u32 = 1;

/// A plan file: `[plan]` says which suite, `[run]` holds the choices made (what is left out
/// is decided on the machine that runs it, by the same policy as any run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanFile {
    /// The format and the suite.
    pub plan: PlanHeader,
    /// The choices.
    #[serde(default)]
    pub run: RunChoices,
}

/// A plan file's `[plan]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanHeader {
    /// [`PLAN_VERSION`] when written.
    pub version: u32,
    /// The suite's name, looked up on the machine that runs the plan.
    pub suite: String,
}

/// A plan file that cannot be read: the message names the file and, where it is about
/// something in it, the line.
#[derive(Debug, thiserror::Error)]
pub enum PlanFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file says something wasmeter does not take.
    #[error("{path}:{line}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl PlanFile {
    /// The plan of `suite` with `choices` (their `skip_missing` is not part of a plan: a
    /// plan run always leaves out what a machine lacks, and says so).
    pub fn new(suite: &str, choices: RunChoices) -> PlanFile {
        PlanFile {
            plan: PlanHeader {
                version: PLAN_VERSION,
                suite: suite.to_string(),
            },
            run: RunChoices {
                skip_missing: false,
                ..choices
            },
        }
    }

    /// The file's text: a comment saying how to run it, then the plan.
    pub fn to_toml(&self) -> String {
        format!(
            "# A wasmeter plan: run it with `wasmeter run --plan FILE`. What [run] leaves out\n# is decided where it runs. Its hash ({}) is saved with every run of it.\n{}",
            self.hash(),
            self.canonical()
        )
    }

    /// The plan as TOML without comments: what the hash is of.
    fn canonical(&self) -> String {
        toml::to_string(self).expect("a plan serialises")
    }

    /// Identifies the plan across machines: 16 hex digits of the SHA-256 of its canonical
    /// text, so comments, spacing and key order in the file do not change it.
    pub fn hash(&self) -> String {
        hex(&Sha256::digest(self.canonical().as_bytes()))[..16].to_string()
    }

    /// Writes the plan to `path`.
    pub fn write(&self, path: &Path) -> Result<(), PlanFileError> {
        std::fs::write(path, self.to_toml()).map_err(|source| PlanFileError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads a plan file. Refuses, with the file and line: TOML errors, a missing or
    /// unknown version, and any key wasmeter does not know (a typo must not quietly
    /// become a default).
    pub fn read(path: &Path) -> Result<PlanFile, PlanFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| PlanFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let invalid = |line: usize, message: String| PlanFileError::Invalid {
            path: path.to_path_buf(),
            line,
            message,
        };
        let doc: toml::Table = toml::from_str(&text).map_err(|e| {
            invalid(
                e.span().map_or(1, |s| line_of(&text, s.start)),
                one_line(e.message()),
            )
        })?;
        match doc.get("plan").and_then(|p| p.get("version")) {
            Some(toml::Value::Integer(v)) if *v == i64::from(PLAN_VERSION) => {}
            Some(v) => {
                return Err(invalid(
                    key_line(&text, "version"),
                    format!("plan version {v} is not one this wasmeter reads ({PLAN_VERSION})"),
                ));
            }
            None => return Err(invalid(1, "no [plan] version".into())),
        }
        let plan: PlanFile = toml::from_str(&text).map_err(|e| {
            invalid(
                e.span().map_or(1, |s| line_of(&text, s.start)),
                one_line(e.message()),
            )
        })?;
        // What serde left out is what wasmeter does not know: compare the document with
        // the plan written back.
        let known: toml::Table = toml::from_str(&plan.canonical()).expect("a plan reads back");
        if let Some(key) = unknown_key(&doc, &known, "") {
            let last = key.rsplit('.').next().unwrap_or(&key);
            return Err(invalid(
                key_line(&text, last),
                format!("unknown field '{key}'"),
            ));
        }
        Ok(plan)
    }
}

/// The first key of `doc` (dotted from its table) that `known` lacks.
fn unknown_key(doc: &toml::Table, known: &toml::Table, at: &str) -> Option<String> {
    for (k, v) in doc {
        let name = if at.is_empty() {
            k.clone()
        } else {
            format!("{at}.{k}")
        };
        match (v, known.get(k)) {
            (_, None) => return Some(name),
            (toml::Value::Table(d), Some(toml::Value::Table(kn))) => {
                if let Some(u) = unknown_key(d, kn, &name) {
                    return Some(u);
                }
            }
            _ => {}
        }
    }
    None
}

/// The line of the first `key =` or `[key]` in the text, else 1.
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
                || l.trim_start_matches('[').trim_end().trim_end_matches(']') == key
        })
        .map_or(1, |i| i + 1)
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RunOrder;

    #[test]
    fn a_plan_round_trips_and_its_hash_ignores_the_layout() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("plan.toml");
        let plan = PlanFile::new(
            "compute",
            RunChoices {
                runtimes: vec!["wasmtime".into(), "wasmi".into()],
                invocations: Some(5),
                order: Some(RunOrder::Interleaved),
                skip_missing: true,
                ..RunChoices::default()
            },
        );
        plan.write(&path).unwrap();
        let back = PlanFile::read(&path).unwrap();
        assert_eq!(
            back,
            PlanFile {
                run: RunChoices {
                    skip_missing: false,
                    ..plan.run.clone()
                },
                ..plan.clone()
            }
        );
        assert!(!back.run.skip_missing, "not part of a plan");
        // The same plan written by hand, keys in another order and with comments.
        std::fs::write(
            &path,
            "[run]\ninvocations = 5 # more is better\nruntimes = [\"wasmtime\", \"wasmi\"]\norder = \"interleaved\"\n\n[plan]\nsuite = \"compute\"\nversion = 1\n",
        )
        .unwrap();
        assert_eq!(PlanFile::read(&path).unwrap().hash(), plan.hash());
        let other = PlanFile::new("compute", RunChoices::default());
        assert_ne!(other.hash(), plan.hash());
    }

    #[test]
    fn bad_plans_are_refused_with_file_and_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("plan.toml");
        for (text, words) in [
            (
                "[plan]\nversion = 1\nsuite = \"compute\"\n\n[run]\ninvocatons = 5\n",
                "plan.toml:6: unknown field 'run.invocatons'",
            ),
            (
                "[plan]\nversion = 1\nsuite = \"compute\"\nmachine = \"x\"\n",
                "plan.toml:4: unknown field 'plan.machine'",
            ),
            (
                "[plan]\nversion = 2\nsuite = \"compute\"\n",
                "plan.toml:2: plan version 2 is not one this wasmeter reads (1)",
            ),
            ("[run]\nruns = 3\n", "plan.toml:1: no [plan] version"),
            (
                "[plan]\nversion = 1\nsuite = \"compute\"\n[run]\nruns = \"three\"\n",
                "plan.toml:5: ",
            ),
            ("[plan\n", "plan.toml:1: "),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = PlanFile::read(&path).unwrap_err().to_string();
            assert!(e.contains(words), "{words}: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        let e = PlanFile::read(&tmp.path().join("none.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("none.toml: No such file"), "{e}");
    }
}
