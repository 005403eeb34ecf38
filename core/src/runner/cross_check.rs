//! Correctness without a known answer: a module given as it is has no answer file, so
//! each runtime keeps the answer its first successful iteration gave (the worker writes it
//! under the run's `answers/`), and when the run ends a runtime whose answer differs from
//! the one a strict majority of the runtimes gave fails its cell, naming the first
//! differing line. No majority (two runtimes that disagree, or a three-way split): no
//! verdict, since nothing says which one is right.

use crate::suite::{OutputCheck, check_output};
use std::path::{Path, PathBuf};

/// The folder of a run that holds the answers.
const ANSWERS: &str = "answers";

/// Where a cell keeps its answer.
pub(super) fn answer_file(run_dir: &Path, test: &str, runtime: &str) -> PathBuf {
    run_dir
        .join(ANSWERS)
        .join(test)
        .join(format!("{runtime}.txt"))
}

/// The runtimes (of `runtimes`, those whose cells succeeded) whose answer to `test` is not
/// the majority's, each with why.
pub(super) fn disagreements(
    run_dir: &Path,
    test: &str,
    runtimes: &[&str],
) -> Vec<(String, String)> {
    let answers: Vec<(&str, String)> = runtimes
        .iter()
        .filter_map(|rt| {
            std::fs::read(answer_file(run_dir, test, rt))
                .ok()
                .map(|b| (*rt, String::from_utf8_lossy(&b).into_owned()))
        })
        .collect();
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (rt, a) in &answers {
        match groups.iter_mut().find(|(g, _)| g == a) {
            Some((_, members)) => members.push(rt),
            None => groups.push((a, vec![rt])),
        }
    }
    let Some((majority, agree)) = groups
        .iter()
        .find(|(_, members)| members.len() * 2 > answers.len())
    else {
        return Vec::new();
    };
    answers
        .iter()
        .filter(|(_, a)| a != majority)
        .map(|(rt, a)| {
            let line = match check_output(a, majority) {
                OutputCheck::Mismatch(why) => why,
                OutputCheck::Match => "differs".into(),
            };
            (
                rt.to_string(),
                format!(
                    "not the answer of the majority ({} of {} runtimes: {}): {line}",
                    agree.len(),
                    answers.len(),
                    agree.join(", ")
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(dir: &Path, test: &str, given: &[(&str, &str)]) {
        for (rt, a) in given {
            let f = answer_file(dir, test, rt);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, a).unwrap();
        }
    }

    #[test]
    fn the_odd_one_out_of_a_majority_fails_and_a_split_says_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        answers(d, "t", &[("a", "x\ny\n"), ("b", "x\ny\n"), ("c", "x\nz\n")]);
        let got = disagreements(d, "t", &["a", "b", "c"]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, "c");
        assert!(
            got[0]
                .1
                .starts_with("not the answer of the majority (2 of 3 runtimes: a, b): line 2"),
            "{}",
            got[0].1
        );
        // A runtime without an answer (its cell failed) takes no part.
        assert_eq!(disagreements(d, "t", &["a", "c", "gone"]), Vec::new());
        answers(d, "u", &[("a", "1"), ("b", "2"), ("c", "3"), ("d", "1")]);
        assert_eq!(disagreements(d, "u", &["a", "b", "c", "d"]), Vec::new());
        answers(d, "v", &[("a", "same"), ("b", "same")]);
        assert_eq!(disagreements(d, "v", &["a", "b"]), Vec::new());
    }
}
