//! Text typed into the UI's fields that is more than one value: file-system paths completed
//! with Tab as a shell completes them, and lists of words quoted as a shell quotes them (so
//! a module's arguments, `--env` and `--dir` read in a field as they do on the command
//! line). Pure functions of their input and the file system, so the panes stay a function
//! of their state.

use std::path::{Path, PathBuf};

/// What Tab made of a path: the text to show, and the names that still match when more
/// than one does (for the UI to list).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// The completed text: the common prefix of the matches (a lone folder with `/`).
    pub text: String,
    /// The matching names (folders with `/`), in name order, when more than one matched.
    pub matches: Vec<String>,
}

/// Which entries a path completion offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// Folders and `.wasm` files: a module's path.
    Modules,
    /// Folders and any file.
    Files,
    /// Folders only.
    Folders,
}

/// `~` or `~/…` with the home folder, as a shell reads it; other text as it is.
pub fn expand_home(text: &str) -> PathBuf {
    let home = || std::env::var_os("HOME").map(PathBuf::from);
    match text.strip_prefix('~') {
        Some("") => home().unwrap_or_else(|| PathBuf::from(text)),
        Some(rest) if rest.starts_with('/') => match home() {
            Some(h) => h.join(&rest[1..]),
            None => PathBuf::from(text),
        },
        _ => PathBuf::from(text),
    }
}

/// Completes the path being typed as far as it is unambiguous: to the common prefix of the
/// entries of its folder whose names start with its last part, a lone folder with a
/// trailing `/`. Hidden entries are offered only when the part starts with `.`. Text that
/// nothing matches comes back as it is.
pub fn complete_path(text: &str, offer: Offer) -> Completion {
    let (folder, part) = match text.rfind('/') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text),
    };
    let lookup = if folder.is_empty() {
        PathBuf::from(".")
    } else {
        expand_home(folder)
    };
    let mut matches: Vec<String> = std::fs::read_dir(&lookup)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if !name.starts_with(part) || (name.starts_with('.') && !part.starts_with('.')) {
                return None;
            }
            // Through symbolic links: a link to a folder completes as a folder.
            let is_dir = std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir());
            let offered = is_dir
                || match offer {
                    Offer::Modules => Path::new(&name).extension().is_some_and(|x| x == "wasm"),
                    Offer::Files => true,
                    Offer::Folders => false,
                };
            offered.then(|| if is_dir { format!("{name}/") } else { name })
        })
        .collect();
    matches.sort();
    let text = match matches.as_slice() {
        [] => text.to_string(),
        [one] => format!("{folder}{one}"),
        [first, rest @ ..] => {
            let common = rest.iter().fold(first.as_str(), |c, m| common_prefix(c, m));
            format!("{folder}{common}")
        }
    };
    Completion {
        text,
        matches: if matches.len() > 1 {
            matches
        } else {
            Vec::new()
        },
    }
}

/// The longest common prefix of two strings, on character boundaries.
fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
    let end = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| a.len().min(b.len()));
    &a[..end]
}

/// Splits text into words as a shell does: blanks separate, `'…'` and `"…"` group (a
/// backslash escapes inside double quotes and outside quotes). The error says what is
/// unclosed.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => w.push(c),
                            None => return Err("a \" is not closed".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a \\ ends the text".into()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Words written back so that [`split_words`] reads them again: plain when they can be,
/// else in single quotes.
pub fn join_words<S: AsRef<str>>(words: &[S]) -> String {
    words
        .iter()
        .map(|w| {
            let w = w.as_ref();
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_alphanumeric() || "-_=+/.,:@%^".contains(c));
            if plain {
                w.to_string()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_and_join_as_a_shell_reads_them() {
        let words = split_words(r#"-n 'say "hi"' "a \"b\"" c\ d  e=f"#).unwrap();
        assert_eq!(words, ["-n", r#"say "hi""#, r#"a "b""#, "c d", "e=f"]);
        assert_eq!(split_words(&join_words(&words)).unwrap(), words);
        assert_eq!(join_words(&["it's", "", "x"]), r"'it'\''s' '' x");
        assert_eq!(split_words(r"'it'\''s' '' x").unwrap(), ["it's", "", "x"]);
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_words("'open").unwrap_err(), "a ' is not closed");
        assert_eq!(split_words("\"open").unwrap_err(), "a \" is not closed");
    }

    #[test]
    fn paths_complete_to_the_common_prefix_of_folders_and_modules() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join("mods")).unwrap();
        std::fs::write(root.join("mods/crc32.wasm"), b"").unwrap();
        std::fs::write(root.join("mods/crc64.wasm"), b"").unwrap();
        std::fs::write(root.join("mods/crc.txt"), b"").unwrap();
        std::fs::write(root.join("mods/.hidden.wasm"), b"").unwrap();
        std::fs::create_dir(root.join("mods/crcdir")).unwrap();
        let base = format!("{}/", root.display());
        let c = complete_path(&format!("{base}mo"), Offer::Modules);
        assert_eq!(c.text, format!("{base}mods/"));
        assert!(c.matches.is_empty());
        let c = complete_path(&format!("{base}mods/c"), Offer::Modules);
        assert_eq!(c.text, format!("{base}mods/crc"));
        assert_eq!(c.matches, ["crc32.wasm", "crc64.wasm", "crcdir/"]);
        let c = complete_path(&format!("{base}mods/crc3"), Offer::Modules);
        assert_eq!(c.text, format!("{base}mods/crc32.wasm"));
        let c = complete_path(&format!("{base}mods/crc."), Offer::Files);
        assert_eq!(c.text, format!("{base}mods/crc.txt"));
        assert_eq!(
            complete_path(&format!("{base}mods/crc."), Offer::Modules).text,
            format!("{base}mods/crc."),
            "only folders and modules are offered"
        );
        assert_eq!(
            complete_path(&format!("{base}mods/c"), Offer::Folders).text,
            format!("{base}mods/crcdir/")
        );
        assert_eq!(
            complete_path(&format!("{base}mods/.h"), Offer::Modules).text,
            format!("{base}mods/.hidden.wasm")
        );
        assert_eq!(
            complete_path(&format!("{base}nothing"), Offer::Modules).text,
            format!("{base}nothing")
        );
    }
}
