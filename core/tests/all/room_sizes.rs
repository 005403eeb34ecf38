//! Rooms a person can hold (issue 61): no product function in core's runner or analysis is
//! over 150 lines, and the files of the run path (the runner's loop, its worker, the diff)
//! stay under 600. Counted from the source, braces
//! matched from each `fn` to its end, strings and comments left out; test modules too.

use std::path::{Path, PathBuf};

/// Longest a product function in the checked folders may be, lines.
const MAX_FN_LINES: usize = 150;
/// Longest a file of the run path may be, lines.
const MAX_FILE_LINES: usize = 600;
/// The folders of the run path (once execute.rs, worker.rs and diff.rs).
const RUN_PATH: [&str; 3] = [
    "src/runner/execute",
    "src/runner/worker",
    "report/src/analysis/diff",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A line without its comment and string contents (enough to count braces).
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_str => {
                chars.next();
            }
            '"' => in_str = !in_str,
            '/' if !in_str && chars.peek() == Some(&'/') => break,
            // A char literal of a brace or quote.
            '\'' if !in_str => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("{'") || rest.starts_with("}'") || rest.starts_with("\"'") {
                    chars.next();
                    chars.next();
                }
            }
            _ if in_str => {}
            c => out.push(c),
        }
    }
    out
}

/// Each function of a file before its test module: (name, first line, lines).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        let Some(at) = t.find("fn ") else { continue };
        let head = &t[..at];
        let is_fn = head
            .split_whitespace()
            .all(|w| ["pub", "const", "async", "unsafe"].contains(&w) || w.starts_with("pub("));
        if !is_fn {
            continue;
        }
        let name: String = t[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut opened) = (0i64, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            let code = code_of(l);
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                out.push((name.clone(), i + 1, j - i + 1));
                break;
            }
            if !opened && code.trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

#[test]
fn no_function_of_the_run_path_is_over_150_lines_and_no_file_over_600() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/runner", "report/src/analysis"] {
        rust_files(&core.join(dir), &mut files);
    }
    assert!(files.len() > 20, "found {} files", files.len());
    let mut over = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.strip_prefix(core).unwrap().display().to_string();
        let file_lines = text.lines().count();
        if RUN_PATH.iter().any(|d| f.starts_with(core.join(d))) && file_lines > MAX_FILE_LINES {
            over.push(format!("{name}: {file_lines} lines"));
        }
        for (fun, line, n) in functions(&text) {
            if n > MAX_FN_LINES {
                over.push(format!("{name}:{line}: fn {fun} is {n} lines"));
            }
        }
    }
    assert!(over.is_empty(), "over the limits:\n{}", over.join("\n"));
}

#[test]
fn the_counter_measures_a_function_to_its_closing_brace() {
    let text = "fn a() {\n    let s = \"}\";\n    // }\n    if x { y('{') }\n}\nfn b();\n#[cfg(test)]\nfn c() {}\n";
    assert_eq!(functions(text), vec![("a".to_string(), 1, 5)]);
}
