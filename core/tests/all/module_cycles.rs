//! No module of the workspace's crates depends on another that depends back on it: a
//! circle between modules means neither can be understood, tested or moved alone. Edges
//! are the `crate::`, `super::` and `self::` paths of each file (tests and comments left
//! out), resolved to the longest module they name; a module using its own ancestors is the
//! ordinary shape of a Rust crate and is not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `runtime/embedded/mod.rs` → `runtime::embedded`.
fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut m: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        m.pop();
    }
    m
}

/// The source without its unit tests and comments.
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    i
}

/// Every path a file names from `crate`, `super` or `self`, as module segments from the
/// crate root (brace groups expanded to their first segment each).
fn paths(m: &Module, code: &str) -> Vec<Module> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    for base in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(base) {
            if at > 0 && (s[at - 1].is_ascii_alphanumeric() || s[at - 1] == b'_') {
                continue;
            }
            let mut prefix: Module = match base {
                "crate::" => Vec::new(),
                "self::" => m.clone(),
                _ => m[..m.len().saturating_sub(1)].to_vec(),
            };
            let mut i = at + base.len();
            loop {
                if s.get(i) == Some(&b'{') {
                    let close = code[i..].find('}').map_or(s.len(), |c| i + c);
                    for item in code[i + 1..close].split(',') {
                        let item = item.trim().split("::").next().unwrap_or("").trim();
                        let name = item.split_whitespace().next().unwrap_or("");
                        if !name.is_empty() && name != "self" {
                            let mut p = prefix.clone();
                            p.push(name.to_string());
                            out.push(p);
                        }
                    }
                    break;
                }
                let end = ident_end(s, i);
                if end == i {
                    out.push(prefix.clone());
                    break;
                }
                let seg = &code[i..end];
                if seg == "super" {
                    prefix.pop();
                } else {
                    prefix.push(seg.to_string());
                }
                if code[end..].starts_with("::") {
                    i = end + 2;
                } else {
                    out.push(prefix.clone());
                    break;
                }
            }
        }
    }
    out
}

/// The module graph of a crate's `src`.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeMap<Module, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, file) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let to = edges.entry(m.clone()).or_default();
        for p in paths(m, &text) {
            let target = (1..=p.len())
                .rev()
                .map(|n| p[..n].to_vec())
                .find(|t| modules.contains_key(t));
            if let Some(t) = target
                && t != *m
                && !m.starts_with(&t)
            {
                to.insert(t);
            }
        }
    }
    edges
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct T<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, (usize, usize)>,
        stack: Vec<&'a Module>,
        next: usize,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Module) {
        t.index.insert(v, (t.next, t.next));
        t.next += 1;
        t.stack.push(v);
        for w in &t.edges[v] {
            match t.index.get(w).copied() {
                None => {
                    visit(t, w);
                    let low = t.index[v].1.min(t.index[w].1);
                    t.index.get_mut(v).unwrap().1 = low;
                }
                Some((wi, _)) if t.stack.contains(&w) => {
                    let low = t.index[v].1.min(wi);
                    t.index.get_mut(v).unwrap().1 = low;
                }
                _ => {}
            }
        }
        if t.index[v].0 == t.index[v].1 {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn names(c: &[Module]) -> Vec<String> {
    c.iter().map(|m| m.join("::")).collect()
}

#[test]
fn no_crate_has_a_module_cycle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = Vec::new();
    for krate in ["core", "core/http", "app", "ui-tui", "ui-desktop"] {
        let g = graph(&workspace.join(krate).join("src"));
        assert!(g.len() > 3, "{krate}: {} modules found", g.len());
        for c in cycles(&g) {
            found.push(format!("{krate}: {}", names(&c).join(" ↔ ")));
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The check sees a cycle when there is one: two sibling files naming each other, through
/// `super::` and through `crate::` with a brace group.
#[test]
fn the_check_finds_a_planted_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("runner")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod runner;\n").unwrap();
    std::fs::write(src.join("runner/mod.rs"), "mod plan;\nmod policy;\n").unwrap();
    std::fs::write(
        src.join("runner/plan.rs"),
        "use super::policy::Choices; // crate::x\n",
    )
    .unwrap();
    std::fs::write(
        src.join("runner/policy.rs"),
        "use crate::runner::{plan::Plan, mod_free};\n#[cfg(test)]\nmod tests { use super::super::nothing; }\n",
    )
    .unwrap();
    let g = graph(src);
    assert_eq!(
        cycles(&g).iter().map(|c| names(c)).collect::<Vec<_>>(),
        [vec![
            "runner::plan".to_string(),
            "runner::policy".to_string()
        ]]
    );
    // Using an ancestor (runner's mod.rs) is no edge.
    std::fs::write(src.join("runner/policy.rs"), "use super::Choices;\n").unwrap();
    assert!(cycles(&graph(src)).is_empty());
}
