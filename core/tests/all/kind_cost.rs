//! What a new suite kind costs (issue 61): the files whose code decides something per kind
//! by a `match` naming every kind, each of which the compiler names when a kind is added;
//! and, for a kind that runs in a new way, the files that decide per `Execution`.
//! docs/architecture.md lists them between `<!-- kind-cost -->` and `<!-- execution-cost
//! -->` markers; this test finds them in the source and fails when a list and the source
//! differ, so the counts the page gives are the true ones. Both lists were checked against
//! the compiler on 2026-12-07 by adding a variant to `SuiteKind` (then, apart, to
//! `Execution`) in a copy of the workspace and running `cargo check --workspace
//! --all-targets` in rounds until it built: each named exactly its list's files. The trivial
//! kind (core/model/src/suite/manifest/trivial.rs) is such a variant, compiled in the
//! model's tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The kinds as written in `SuiteKind` (the trivial one too: its arms are test-only).
const KINDS: [&str; 5] = ["Command", "Lifecycle", "Gateway", "Servers", "Trivial"];

/// The ways a kind runs, as written in `Execution`.
const EXECUTIONS: [&str; 4] = ["Commands", "InProcess", "PerRequest", "ServerPrograms"];

/// The folders of product code, from the repository's root.
const ROOTS: [&str; 4] = ["core", "app/src", "ui-tui/src", "ui-desktop/src"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            // Tests and fuzz targets are not what a kind costs.
            if name != "tests" && name != "fuzz" && name != "target" && name != "benches" {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's code before its test module.
fn product_code(text: &str) -> &str {
    text.find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at])
}

/// An enum whose variants are decided on, and its variants.
type Decided = (&'static str, &'static [&'static str]);

const KIND: Decided = ("SuiteKind", &KINDS);
const EXECUTION: Decided = ("Execution", &EXECUTIONS);

/// True when a line is a match arm naming a kind: `SuiteKind::Command =>`,
/// `SuiteKind::Gateway | SuiteKind::Servers =>`, or, in a file that imports the variants
/// (`use SuiteKind::*` or `use SuiteKind::{…}`), a bare `Lifecycle | Gateway =>`.
fn names_a_kind_arm(line: &str, bare: bool) -> bool {
    names_an_arm(KIND, line, bare)
}

/// True when a line is a match arm naming a variant of `decided` (as
/// [`names_a_kind_arm`] for kinds).
fn names_an_arm((ty, variants): Decided, line: &str, bare: bool) -> bool {
    let Some((pattern, _)) = line.split_once("=>") else {
        return false;
    };
    let pattern = pattern.trim().trim_start_matches('|').trim();
    pattern.split('|').any(|alt| {
        let alt = alt.trim();
        let alt = alt.split(" if ").next().unwrap_or(alt).trim();
        let name = match alt.rsplit_once(&format!("{ty}::")) {
            Some((_, n)) => n,
            None if bare => alt,
            None => return false,
        };
        variants.contains(&name)
    })
}

/// The files (from the repository's root) whose product code has an arm naming a variant
/// of `decided`.
fn deciding_files(root: &Path, decided: Decided) -> BTreeSet<String> {
    let ty = decided.0;
    let mut files = Vec::new();
    for r in ROOTS {
        rust_files(&root.join(r), &mut files);
    }
    files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let code = product_code(&text);
            let bare = code.contains(&format!("{ty}::*")) || code.contains(&format!("{ty}::{{"));
            code.lines().any(|l| names_an_arm(decided, l, bare))
        })
        .map(|f| {
            f.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

/// The files docs/architecture.md lists between its `marker` markers: the first
/// backticked path of each `- ` line.
fn listed(doc: &str, marker: &str) -> BTreeSet<String> {
    let start = doc
        .find(&format!("<!-- {marker} -->"))
        .expect("opening marker");
    let end = doc
        .find(&format!("<!-- /{marker} -->"))
        .expect("closing marker");
    doc[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_arm_finder_sees_every_form_of_kind_arm() {
    assert!(names_a_kind_arm("SuiteKind::Command => (6, 0, 1),", false));
    assert!(names_a_kind_arm(
        "  SuiteKind::Gateway | SuiteKind::Servers => {",
        false
    ));
    assert!(names_a_kind_arm("Lifecycle | Gateway => Err(", true));
    assert!(names_a_kind_arm("Servers if named => Ok(()),", true));
    assert!(!names_a_kind_arm("Lifecycle | Gateway => Err(", false));
    assert!(!names_a_kind_arm("HttpKind::Gateway => 1,", true));
    assert!(names_a_kind_arm(
        "crate::model::SuiteKind::Servers => 2,",
        false
    ));
    assert!(!names_a_kind_arm("let kind = SuiteKind::Command;", false));
    assert!(names_an_arm(
        EXECUTION,
        "Execution::PerRequest | Execution::ServerPrograms => None,",
        false
    ));
    assert!(names_an_arm(
        EXECUTION,
        "InProcess | PerRequest => Err(",
        true
    ));
    assert!(!names_an_arm(EXECUTION, "SuiteKind::Command => 1,", false));
}

#[test]
fn architecture_md_lists_every_file_a_new_suite_kind_costs() {
    let root = repo();
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    for (decided, marker, table) in [
        (KIND, "kind-cost", "core/model/src/model/suite.rs"),
        (EXECUTION, "execution-cost", "core/model/src/model/suite.rs"),
    ] {
        let found = deciding_files(&root, decided);
        let listed = listed(&doc, marker);
        assert!(
            found.contains(table),
            "the table itself must be found: {found:?}"
        );
        assert_eq!(
            found,
            listed,
            "files deciding per {} (found) against docs/architecture.md's {marker} list \
             (listed); only in the source: {:?}; only in the list: {:?}",
            decided.0,
            found.difference(&listed).collect::<Vec<_>>(),
            listed.difference(&found).collect::<Vec<_>>()
        );
    }
}
