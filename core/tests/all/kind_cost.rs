//! What a new suite kind costs (issue 61): the files whose code decides something per kind
//! by a `match` naming every kind, each of which the compiler names when a kind is added.
//! docs/architecture.md lists them between `<!-- kind-cost -->` markers; this test finds
//! them in the source and fails when the list and the source differ, so the count the page
//! gives is the true one. The list was checked against the compiler on 2026-12-07 by adding
//! a variant to `SuiteKind` in a copy of the workspace and running `cargo check
//! --workspace --all-targets` until it built: it named exactly these files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The kinds as written in `SuiteKind`.
const KINDS: [&str; 4] = ["Command", "Lifecycle", "Gateway", "Servers"];

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

/// True when a line is a match arm naming a kind: `SuiteKind::Command =>`,
/// `SuiteKind::Gateway | SuiteKind::Servers =>`, or, in a file that imports the variants
/// (`use SuiteKind::*` or `use SuiteKind::{…}`), a bare `Lifecycle | Gateway =>`.
fn names_a_kind_arm(line: &str, bare: bool) -> bool {
    let Some((pattern, _)) = line.split_once("=>") else {
        return false;
    };
    let pattern = pattern.trim().trim_start_matches('|').trim();
    pattern.split('|').any(|alt| {
        let alt = alt.trim();
        let alt = alt.split(" if ").next().unwrap_or(alt).trim();
        let name = match alt.rsplit_once("SuiteKind::") {
            Some((_, n)) => n,
            None if bare => alt,
            None => return false,
        };
        KINDS.contains(&name)
    })
}

/// The files (from the repository's root) whose product code has an arm naming a kind.
fn deciding_files(root: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    for r in ROOTS {
        rust_files(&root.join(r), &mut files);
    }
    files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let code = product_code(&text);
            let bare = code.contains("SuiteKind::*") || code.contains("SuiteKind::{");
            code.lines().any(|l| names_a_kind_arm(l, bare))
        })
        .map(|f| {
            f.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

/// The files docs/architecture.md lists between its `kind-cost` markers: the first
/// backticked path of each `- ` line.
fn listed(doc: &str) -> BTreeSet<String> {
    let start = doc.find("<!-- kind-cost -->").expect("kind-cost marker");
    let end = doc
        .find("<!-- /kind-cost -->")
        .expect("closing kind-cost marker");
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
}

#[test]
fn architecture_md_lists_every_file_a_new_suite_kind_costs() {
    let root = repo();
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let found = deciding_files(&root);
    let listed = listed(&doc);
    assert!(
        found.contains("core/model/src/model/suite.rs"),
        "the kind's table itself must be found: {found:?}"
    );
    assert_eq!(
        found,
        listed,
        "files deciding per kind (found) against docs/architecture.md's kind-cost list (listed); \
         only in the source: {:?}; only in the list: {:?}",
        found.difference(&listed).collect::<Vec<_>>(),
        listed.difference(&found).collect::<Vec<_>>()
    );
}
