//! No module of the workspace's crates depends on another that depends back on it, no
//! circle runs through core's folders, and every import between those folders goes down
//! the layers docs/architecture.md gives them: a circle means neither side can be
//! understood, tested or moved alone (issue 49).
//!
//! Imports are read the way the compiler resolves them: every path a file names (`use`
//! trees with their groups, renames and globs, and paths in code), resolved segment by
//! segment from `crate`, `super`, `self`, a child module or a name the module imports,
//! and followed through re-exports (`pub use`, and the private `use` a child reaches by
//! `super::`) to the file that defines the item. A file depends on the files that define
//! what it names. Re-exports themselves are not dependencies (a `mod.rs` that re-exports
//! its children is their front door, not their user), and neither is a module's use of
//! its own ancestors or descendants: that is the ordinary shape of a Rust module tree.
//! Tests (`#[cfg(test)]` items and the files they declare) and comments are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Tokens of Rust source, enough to read paths: identifiers (raw ones unprefixed), `::`,
/// single punctuation characters, and `"` for any literal; comments and lifetimes dropped.
fn lex(text: &str) -> Vec<String> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && next == Some(b'/') {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if s[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(s, i) {
            i = end;
            out.push("\"".into());
        } else if c == b'"' || (c == b'b' && next == Some(b'"')) {
            i += if c == b'"' { 1 } else { 2 };
            while i < s.len() && s[i] != b'"' {
                i += if s[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push("\"".into());
        } else if c == b'\'' {
            // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            let close = if next == Some(b'\\') {
                s[i + 2..]
                    .iter()
                    .position(|&b| b == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (s.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch)
            };
            match close {
                Some(end) => {
                    i = end + 1;
                    out.push("\"".into());
                }
                None => {
                    i += 1;
                    while i < s.len() && ident(s[i]) {
                        i += 1;
                    }
                }
            }
        } else if c.is_ascii_digit() {
            while i < s.len() && (ident(s[i]) || s[i] == b'.') {
                i += 1;
            }
            out.push("\"".into());
        } else if ident(c) {
            let start = if c == b'r' && next == Some(b'#') {
                i + 2
            } else {
                i
            };
            let mut end = start;
            while end < s.len() && ident(s[end]) {
                end += 1;
            }
            out.push(text[start..end].to_string());
            i = end;
        } else if c == b':' && next == Some(b':') {
            out.push("::".into());
            i += 2;
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch.to_string());
            i += ch.len_utf8();
        }
    }
    out
}

/// The end of a raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `i`.
fn raw_string_end(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if s.get(j) == Some(&b'b') {
        j += 1;
    }
    if s.get(j) != Some(&b'r') || (i > 0 && (s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_'))
    {
        return None;
    }
    j += 1;
    let hashes = s[j..].iter().take_while(|&&b| b == b'#').count();
    j += hashes;
    if s.get(j) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let from = j + 1;
    s[from..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|p| from + p + close.len())
}

/// The index after the bracket group opening at `i`.
fn group_end(t: &[String], i: usize) -> usize {
    let (open, close) = match t[i].as_str() {
        "{" => ("{", "}"),
        "(" => ("(", ")"),
        _ => ("[", "]"),
    };
    let mut depth = 0;
    for (j, tok) in t.iter().enumerate().skip(i) {
        if tok == open {
            depth += 1;
        } else if tok == close {
            depth -= 1;
            if depth == 0 {
                return j + 1;
            }
        }
    }
    t.len()
}

/// The index after the item starting at `i`: its `;` or its brace group.
fn item_end(t: &[String], mut i: usize) -> usize {
    while i < t.len() {
        match t[i].as_str() {
            ";" => return i + 1,
            "{" => return group_end(t, i),
            "(" | "[" => i = group_end(t, i),
            _ => i += 1,
        }
    }
    i
}

/// The tokens without `#[cfg(test)]` items, and the names of the test-only `mod x;` files.
fn without_tests(t: Vec<String>) -> (Vec<String>, Vec<String>) {
    let (mut out, mut test_files) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < t.len() {
        if t[i] == "#" && t.get(i + 1).is_some_and(|x| x == "[") {
            let end = group_end(&t, i + 1);
            if t[i + 2..end - 1] == ["cfg", "(", "test", ")"] {
                let mut k = end;
                while t.get(k).is_some_and(|x| x == "#") {
                    k = group_end(&t, k + 1);
                }
                if t.get(k).is_some_and(|x| x == "pub") {
                    k += 1;
                    if t.get(k).is_some_and(|x| x == "(") {
                        k = group_end(&t, k);
                    }
                }
                if t.get(k).is_some_and(|x| x == "mod") && t.get(k + 2).is_some_and(|x| x == ";") {
                    test_files.push(t[k + 1].clone());
                }
                i = item_end(&t, k);
                continue;
            }
        }
        out.push(t[i].clone());
        i += 1;
    }
    (out, test_files)
}

/// One leaf of a `use` tree: the path, the name it binds (`None` for a glob).
struct Use {
    path: Vec<String>,
    name: Option<String>,
    /// `pub use …` (any visibility): a re-export, followed but not a dependency.
    reexport: bool,
}

/// Reads the `use` tree at `i` under `prefix`; returns the index after it.
fn use_tree(
    t: &[String],
    mut i: usize,
    prefix: &[String],
    reexport: bool,
    out: &mut Vec<Use>,
) -> usize {
    let mut path = prefix.to_vec();
    if t.get(i).is_some_and(|x| x == "::") {
        i += 1;
    }
    loop {
        match t.get(i).map(String::as_str) {
            Some("{") => {
                let end = group_end(t, i);
                let mut j = i + 1;
                while j < end - 1 {
                    j = use_tree(t, j, &path, reexport, out);
                    if t.get(j).is_some_and(|x| x == ",") {
                        j += 1;
                    }
                }
                return end;
            }
            Some("*") => {
                out.push(Use {
                    path,
                    name: None,
                    reexport,
                });
                return i + 1;
            }
            Some(seg) => {
                path.push(seg.to_string());
                i += 1;
                if t.get(i).is_some_and(|x| x == "::") {
                    i += 1;
                    continue;
                }
                let mut name = path.last().cloned();
                if t.get(i).is_some_and(|x| x == "as") {
                    name = t.get(i + 1).cloned();
                    i += 2;
                }
                if path.last().is_some_and(|x| x == "self") {
                    path.pop();
                    if name.as_deref() == Some("self") {
                        name = path.last().cloned();
                    }
                }
                out.push(Use {
                    path,
                    name,
                    reexport,
                });
                return i;
            }
            None => return i,
        }
    }
}

/// What one file declares and names.
#[derive(Default)]
struct File {
    /// Items it defines at its top level.
    defines: BTreeSet<String>,
    uses: Vec<Use>,
    /// Paths named in code (two segments or more).
    paths: Vec<Vec<String>>,
    /// Every identifier in code outside `use` declarations: a name a file re-exports and
    /// also uses is a dependency of that file.
    idents: BTreeSet<String>,
}

fn is_ident(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
}

fn read_file(text: &str) -> (File, Vec<String>) {
    let (t, test_files) = without_tests(lex(text));
    let mut f = File::default();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        let tok = t[i].as_str();
        let after_path_sep = i > 0 && t[i - 1] == "::";
        match tok {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "use" if !after_path_sep => {
                let reexport = depth == 0 && i > 0 && (t[i - 1] == "pub" || t[i - 1] == ")");
                i = use_tree(&t, i + 1, &[], reexport, &mut f.uses);
                continue;
            }
            "struct" | "enum" | "fn" | "trait" | "type" | "const" | "static" | "union"
                if depth == 0 && t.get(i + 1).is_some_and(|n| is_ident(n)) =>
            {
                f.defines.insert(t[i + 1].clone());
            }
            "macro_rules" if depth == 0 => {
                if let Some(n) = t.get(i + 2) {
                    f.defines.insert(n.clone());
                }
            }
            _ if is_ident(tok) && !after_path_sep && t.get(i + 1).is_some_and(|x| x == "::") => {
                let mut p = vec![tok.to_string()];
                let mut j = i + 1;
                while t.get(j).is_some_and(|x| x == "::")
                    && t.get(j + 1).is_some_and(|n| is_ident(n))
                {
                    p.push(t[j + 1].clone());
                    j += 2;
                }
                f.idents.extend(p.iter().cloned());
                f.paths.push(p);
                i = j;
                continue;
            }
            _ => {}
        }
        if is_ident(tok) {
            f.idents.insert(tok.to_string());
        }
        i += 1;
    }
    (f, test_files)
}

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

/// A crate's modules, one per file, test-only files left out.
struct Crate {
    files: BTreeMap<Module, File>,
}

/// Where a path leads: a module, or the file that defines an item.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Target {
    Module(Module),
    Item(Module),
}

impl Crate {
    fn read(src: &Path) -> Crate {
        Crate::read_all(&[src.to_path_buf()])
    }

    /// Several crates read as one tree: core's crates, whose top-level folders are distinct
    /// and whose code names a lower crate's folder as `crate::folder` (each `lib.rs` imports
    /// the lower crates' modules it builds on), so the layers are checked across crates.
    /// The roots (`lib.rs`) merge into one.
    fn read_all(srcs: &[PathBuf]) -> Crate {
        let mut files: BTreeMap<Module, File> = BTreeMap::new();
        let mut tests = Vec::new();
        for src in srcs {
            let mut paths = Vec::new();
            rust_files(src, &mut paths);
            for p in paths {
                let m = module_of(src, &p);
                let (f, test_files) = read_file(&std::fs::read_to_string(&p).unwrap());
                tests.extend(test_files.into_iter().map(|t| {
                    let mut c = m.clone();
                    c.push(t);
                    c
                }));
                match files.get_mut(&m) {
                    Some(root) if m.is_empty() => {
                        root.defines.extend(f.defines);
                        root.uses.extend(f.uses);
                        root.paths.extend(f.paths);
                        root.idents.extend(f.idents);
                    }
                    Some(_) => panic!("{}: module {m:?} read twice", p.display()),
                    None => {
                        files.insert(m, f);
                    }
                }
            }
        }
        for t in tests {
            files.remove(&t);
        }
        Crate { files }
    }

    /// Resolves `segs` as named inside module `at`; `None` for what lies outside the crate.
    fn resolve(
        &self,
        at: &Module,
        segs: &[String],
        seen: &mut BTreeSet<(Module, Vec<String>)>,
    ) -> Option<Target> {
        if !seen.insert((at.clone(), segs.to_vec())) {
            return None;
        }
        let mut cur = at.clone();
        for (i, seg) in segs.iter().enumerate() {
            let first = i == 0;
            match seg.as_str() {
                "crate" if first => {
                    cur.clear();
                    continue;
                }
                "super" => {
                    cur.pop();
                    continue;
                }
                "self" if first => continue,
                "Self" => return None,
                _ => {}
            }
            let mut child = cur.clone();
            child.push(seg.clone());
            if self.files.contains_key(&child) {
                cur = child;
                continue;
            }
            let file = self.files.get(&cur)?;
            if file.defines.contains(seg) {
                return Some(Target::Item(cur));
            }
            let named = file
                .uses
                .iter()
                .filter(|u| u.name.as_ref() == Some(seg))
                .find_map(|u| self.resolve(&cur, &u.path, seen));
            let hit = named.or_else(|| {
                file.uses.iter().filter(|u| u.name.is_none()).find_map(|u| {
                    match self.resolve(&cur, &u.path, seen)? {
                        Target::Module(m) => self.resolve(&m, std::slice::from_ref(seg), seen),
                        Target::Item(_) => None,
                    }
                })
            });
            match hit {
                Some(Target::Module(m)) => cur = m,
                Some(item) => return Some(item),
                // A name the crate does not have (std, another crate) …
                None if first => return None,
                // … or one this module makes by a macro, or an enum's variant.
                None => return Some(Target::Item(cur)),
            }
        }
        Some(Target::Module(cur))
    }

    /// Which files each file depends on.
    fn graph(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges = BTreeMap::new();
        for (m, f) in &self.files {
            // A `use` of a module names no item of it (the paths through it do); a glob
            // takes what it wants from the module's file.
            let named = f
                .uses
                .iter()
                .filter(|u| !u.reexport || u.name.as_ref().is_some_and(|n| f.idents.contains(n)))
                .map(|u| (u.path.clone(), u.name.is_none()))
                .chain(f.paths.iter().map(|p| (p.clone(), false)));
            let mut to = BTreeSet::new();
            for (p, glob) in named {
                let target = match self.resolve(m, &p, &mut BTreeSet::new()) {
                    Some(Target::Item(t)) => t,
                    Some(Target::Module(t)) if glob => t,
                    Some(Target::Module(_)) | None => continue,
                };
                if target != *m && !m.starts_with(&target) && !target.starts_with(m) {
                    to.insert(target);
                }
            }
            edges.insert(m.clone(), to);
        }
        edges
    }
}

/// The same graph between top-level folders (a root file is its own folder).
fn folders(edges: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<Module, BTreeSet<Module>> {
    let top = |m: &Module| {
        m.first()
            .map_or_else(|| vec!["<root>".to_string()], |f| vec![f.clone()])
    };
    let mut out: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (a, to) in edges {
        let fa = top(a);
        let set = out.entry(fa.clone()).or_default();
        set.extend(to.iter().map(top).filter(|fb| *fb != fa));
    }
    out
}

/// Strongly connected components of more than one node (Tarjan).
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
        for w in t.edges.get(v).into_iter().flatten() {
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

/// Each pair of nodes that depend on each other, as `a ↔ b`.
fn mutual(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut out = Vec::new();
    for (a, to) in edges {
        for b in to {
            if a < b && edges.get(b).is_some_and(|back| back.contains(a)) {
                out.push(format!("{} ↔ {}", a.join("::"), b.join("::")));
            }
        }
    }
    out
}

/// The files behind a cycle's edges, to say where to cut.
fn explain(edges: &BTreeMap<Module, BTreeSet<Module>>, comp: &[Module]) -> String {
    let inside: BTreeSet<&Module> = comp.iter().collect();
    let mut lines = Vec::new();
    for a in comp {
        for b in edges.get(a).into_iter().flatten() {
            if inside.contains(b) {
                lines.push(format!("    {} → {}", a.join("::"), b.join("::")));
            }
        }
    }
    lines.join("\n")
}

/// The layers docs/architecture.md gives core's folders: the rows of its table between
/// `<!-- layers -->` and `<!-- /layers -->`, `| N | \`folder/\`, \`file.rs\` | … |`.
fn documented_layers(doc: &str) -> BTreeMap<String, usize> {
    let start = doc
        .find("<!-- layers -->")
        .expect("docs/architecture.md: no <!-- layers -->");
    let end = doc
        .find("<!-- /layers -->")
        .expect("docs/architecture.md: no <!-- /layers -->");
    let mut out = BTreeMap::new();
    for line in doc[start..end].lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(layer) = cols.get(1).and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        for name in cols[2].split('`').skip(1).step_by(2) {
            let folder = name.trim_end_matches('/').trim_end_matches(".rs");
            assert!(
                out.insert(folder.to_string(), layer).is_none(),
                "docs/architecture.md lists {folder} twice"
            );
        }
    }
    out
}

/// What breaks the layering: an import of a folder at the same or a higher layer, a
/// folder without a layer, a layer for a folder that is not there.
fn layer_violations(
    f: &BTreeMap<Module, BTreeSet<Module>>,
    layers: &BTreeMap<String, usize>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (a, to) in f {
        let name = &a[0];
        if name == "<root>" {
            continue;
        }
        let Some(&la) = layers.get(name) else {
            wrong.push(format!("{name} has no layer in docs/architecture.md"));
            continue;
        };
        for b in to.iter().filter(|b| b[0] != "<root>") {
            if let Some(&lb) = layers.get(&b[0])
                && lb >= la
            {
                wrong.push(format!(
                    "{name} (layer {la}) imports {} (layer {lb}): only lower layers",
                    b[0]
                ));
            }
        }
    }
    for listed in layers.keys() {
        if !f.contains_key(&vec![listed.clone()]) {
            wrong.push(format!(
                "docs/architecture.md lists {listed}, which is not there"
            ));
        }
    }
    wrong
}

/// Core's crates, lowest first: the layers are numbered across them.
const CORE_CRATES: [&str; 5] = [
    "core/model",
    "core/profile",
    "core/engines",
    "core/report",
    "core",
];

/// Core's crates read as one tree ([`Crate::read_all`]).
fn core_crates(workspace: &Path) -> Crate {
    let srcs: Vec<PathBuf> = CORE_CRATES
        .iter()
        .map(|c| workspace.join(c).join("src"))
        .collect();
    Crate::read_all(&srcs)
}

/// Every import between core's folders goes down the layers docs/architecture.md gives
/// them, and every folder has its layer there: the architecture as written is the code's.
#[test]
fn core_folders_import_only_lower_layers_as_documented() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let doc = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    let layers = documented_layers(&doc);
    assert!(layers.len() > 10, "{layers:?}");
    let f = folders(&core_crates(workspace).graph());
    let wrong = layer_violations(&f, &layers);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_crate_has_a_module_cycle_and_no_core_folders_import_each_other() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut found = Vec::new();
    for krate in ["core", "core/http", "app", "ui-tui", "ui-desktop"] {
        let c = if krate == "core" {
            core_crates(workspace)
        } else {
            Crate::read(&workspace.join(krate).join("src"))
        };
        let g = c.graph();
        assert!(g.len() > 3, "{krate}: {} modules found", g.len());
        assert!(
            g.values().map(BTreeSet::len).sum::<usize>() > g.len() / 2,
            "{krate}: too few dependencies read; the reader is broken"
        );
        for comp in cycles(&g) {
            found.push(format!(
                "{krate}: a cycle of {} modules: {}\n{}",
                comp.len(),
                names(&comp).join(", "),
                explain(&g, &comp)
            ));
        }
        if krate == "core" {
            let f = folders(&g);
            for pair in mutual(&f) {
                found.push(format!("core: folders import each other: {pair}"));
            }
            for comp in cycles(&f).iter().filter(|c| c.len() > 2) {
                found.push(format!(
                    "core: a cycle of {} folders: {}",
                    comp.len(),
                    names(comp).join(", ")
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn plant(src: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = src.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The check sees a cycle between siblings named through `super::` and a `crate::` group.
#[test]
fn the_check_finds_a_planted_sibling_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    plant(
        src,
        &[
            ("lib.rs", "mod runner;\n"),
            ("runner/mod.rs", "mod plan;\nmod policy;\n"),
            (
                "runner/plan.rs",
                "use super::policy::Choices; // crate::x\npub struct Plan;\n",
            ),
            (
                "runner/policy.rs",
                "use crate::runner::{plan::Plan, mod_free};\npub struct Choices;\n#[cfg(test)]\nmod tests { use super::super::nothing; }\n",
            ),
        ],
    );
    let c = Crate::read(src);
    assert_eq!(
        cycles(&c.graph())
            .iter()
            .map(|c| names(c))
            .collect::<Vec<_>>(),
        [vec![
            "runner::plan".to_string(),
            "runner::policy".to_string()
        ]]
    );
    // Using an ancestor's own item is no edge.
    plant(src, &[("runner/policy.rs", "use super::Choices;\n")]);
    assert!(cycles(&Crate::read(src).graph()).is_empty());
}

/// The check follows re-exports to the file that defines the item: `store` re-exports
/// `Precision` from `store::model`, `runner` re-exports `Plan` from `runner::plan`; two
/// files that name each other only through those front doors are a cycle, and so are
/// their folders. The old check, which stopped at `store`'s `mod.rs`, saw neither.
#[test]
fn the_check_finds_a_cycle_made_through_re_exports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    plant(
        src,
        &[
            ("lib.rs", "pub mod runner;\npub mod store;\n"),
            (
                "store/mod.rs",
                "mod model;\nmod writer;\npub use model::{Precision, Other as Renamed};\npub use writer::*;\n",
            ),
            (
                "store/model.rs",
                "use crate::runner;\npub struct Precision(runner::Plan);\npub struct Other;\n",
            ),
            ("store/writer.rs", "pub fn write() {}\n"),
            ("runner/mod.rs", "mod plan;\npub use self::plan::Plan;\n"),
            (
                "runner/plan.rs",
                "/* crate::store::writer */\npub struct Plan;\nfn f() -> crate::store::Precision { let s = \"crate::store::write\"; todo!() }\n",
            ),
        ],
    );
    let c = Crate::read(src);
    let g = c.graph();
    assert_eq!(
        g[&vec!["runner".to_string(), "plan".to_string()]],
        BTreeSet::from([vec!["store".to_string(), "model".to_string()]]),
        "followed through store's re-export to the defining file; nothing from comments or strings"
    );
    assert_eq!(
        cycles(&g).iter().map(|c| names(c)).collect::<Vec<_>>(),
        [vec!["runner::plan".to_string(), "store::model".to_string()]]
    );
    assert_eq!(mutual(&folders(&g)), ["runner ↔ store"]);
    let layers = documented_layers(
        "<!-- layers -->\n| layer | folders |\n| --- | --- |\n| 1 | `store/` |\n| 2 | `runner/` |\n<!-- /layers -->\n",
    );
    assert_eq!(
        layer_violations(&folders(&g), &layers),
        ["store (layer 1) imports runner (layer 2): only lower layers"]
    );
    // A rename and a glob are followed too: naming `store::Renamed` and `store::write`
    // instead leads to `store::model` and `store::writer`.
    plant(
        src,
        &[(
            "runner/plan.rs",
            "use crate::store::{Renamed, write as w};\npub struct Plan;\n",
        )],
    );
    let g = Crate::read(src).graph();
    assert_eq!(
        g[&vec!["runner".to_string(), "plan".to_string()]],
        BTreeSet::from([
            vec!["store".to_string(), "model".to_string()],
            vec!["store".to_string(), "writer".to_string()]
        ])
    );
    // Cut the back edge and there is no cycle left, at either level.
    plant(
        src,
        &[(
            "store/model.rs",
            "pub struct Precision;\npub struct Other;\n",
        )],
    );
    let g = Crate::read(src).graph();
    assert!(cycles(&g).is_empty());
    assert!(mutual(&folders(&g)).is_empty());
    assert!(layer_violations(&folders(&g), &layers).is_empty());
}

/// The `wasmeter-*` crates a manifest's `[dependencies]` name (dev- and build-dependencies
/// left out: a crate's tests may use itself with test doubles on).
fn wasmeter_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_deps && name.starts_with("wasmeter-") {
            out.insert(name.to_string());
        }
    }
    out
}

/// The crates docs/architecture.md lists between `<!-- crates -->` and `<!-- /crates -->`:
/// crate → (its folder, the `wasmeter-*` crates it may import).
fn documented_crates(doc: &str) -> BTreeMap<String, (String, BTreeSet<String>)> {
    let start = doc
        .find("<!-- crates -->")
        .expect("docs/architecture.md: no <!-- crates -->");
    let end = doc
        .find("<!-- /crates -->")
        .expect("docs/architecture.md: no <!-- /crates -->");
    let ticked = |col: &str| -> Vec<String> {
        col.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut out = BTreeMap::new();
    for line in doc[start..end].lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() < 5 {
            continue;
        }
        let (Some(name), Some(folder)) = (ticked(cols[1]).pop(), ticked(cols[2]).pop()) else {
            continue;
        };
        let may: BTreeSet<String> = ticked(cols[4]).into_iter().collect();
        out.insert(name, (folder, may));
    }
    out
}

/// What breaks the documented crate graph: a crate importing one its row does not name, a
/// row naming one it does not import (the table is the manifests', both ways), a listed
/// crate that is not there, or one of core's crates without a row.
fn crate_violations(workspace: &Path, doc: &str) -> Vec<String> {
    let crates = documented_crates(doc);
    let mut wrong = Vec::new();
    for (name, (folder, may)) in &crates {
        let path = workspace.join(folder).join("Cargo.toml");
        let Ok(manifest) = std::fs::read_to_string(&path) else {
            wrong.push(format!("{name}: {} is not there", path.display()));
            continue;
        };
        if !manifest.contains(&format!("name = \"{name}\"")) {
            wrong.push(format!("{}: is not the manifest of {name}", path.display()));
        }
        let deps = wasmeter_dependencies(&manifest);
        for d in deps.difference(may) {
            wrong.push(format!(
                "{name} imports {d}, which docs/architecture.md does not allow it"
            ));
        }
        for d in may.difference(&deps) {
            wrong.push(format!(
                "docs/architecture.md lets {name} import {d}, which its Cargo.toml does not"
            ));
        }
    }
    for c in CORE_CRATES {
        if !crates
            .values()
            .any(|(folder, _)| folder.trim_end_matches('/') == c)
        {
            wrong.push(format!(
                "{c}: a crate of core without a row in docs/architecture.md"
            ));
        }
    }
    wrong
}

/// Core's crates import only the crates docs/architecture.md lets them, so the arrows of
/// `cargo tree` point one way, as drawn.
#[test]
fn core_crates_import_only_what_architecture_md_allows() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let doc = std::fs::read_to_string(workspace.join("docs/architecture.md")).unwrap();
    assert!(
        documented_crates(&doc).len() >= 6,
        "{:?}",
        documented_crates(&doc)
    );
    let wrong = crate_violations(workspace, &doc);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The crate check fails on an import the table does not allow, and on a row the manifest
/// does not match.
#[test]
fn the_crate_check_finds_an_import_the_table_does_not_allow() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path();
    plant(
        ws,
        &[
            (
                "core/model/Cargo.toml",
                "[package]\nname = \"wasmeter-model\"\n[dependencies]\nserde = \"1\"\n",
            ),
            (
                "core/report/Cargo.toml",
                "[package]\nname = \"wasmeter-report\"\n[dependencies]\nwasmeter-model.workspace = true\nwasmeter-engines = { path = \"../engines\" }\n[dev-dependencies]\nwasmeter-core.workspace = true\n",
            ),
        ],
    );
    let doc = "<!-- crates -->\n| crate | folder | owns | may import |\n| --- | --- | --- | --- |\n\
               | `wasmeter-model` | `core/model/` | words | nothing |\n\
               | `wasmeter-report` | `core/report/` | reading | `wasmeter-model`, `wasmeter-profile` |\n\
               <!-- /crates -->\n";
    let wrong = crate_violations(ws, doc);
    let has = |s: &str| wrong.iter().any(|w| w.contains(s));
    assert!(has("wasmeter-report imports wasmeter-engines"), "{wrong:?}");
    assert!(
        has("lets wasmeter-report import wasmeter-profile"),
        "{wrong:?}"
    );
    assert!(
        !has("wasmeter-core"),
        "dev-dependencies are not imports: {wrong:?}"
    );
    assert!(
        has("core/engines: a crate of core without a row"),
        "{wrong:?}"
    );
    assert!(!has("wasmeter-model"), "{wrong:?}");
}
