//! `--pair` as a person types it, checked by the one rule every front end calls: the CLI
//! (through the plan), the TUI's settings and the desktop's setup (through `plan_scope`)
//! say the same line for the same bad value.

use crate::runtime::{RuntimeInfo, RuntimeKind};

/// Groups `--pair` takes for "every runtime of the run of this kind": each expands to two
/// or more arms when the run has them.
pub const PAIR_GROUPS: [&str; 3] = ["all", "embedded", "cli"];

/// Which runtimes each of [`PAIR_GROUPS`] names (`None`: every kind).
const GROUP_KINDS: [Option<RuntimeKind>; 3] =
    [None, Some(RuntimeKind::Embedded), Some(RuntimeKind::Cli)];

/// The arms of `--pair` with its groups expanded to the run's runtimes of that kind, in the
/// run's order (a runtime a group adds again is left out; a name given twice stays, for the
/// plan to refuse).
pub(crate) fn expand(arms: &[String], runtimes: &[RuntimeInfo]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in arms {
        let Some(g) = PAIR_GROUPS.iter().position(|g| g == a) else {
            out.push(a.clone());
            continue;
        };
        let kind = GROUP_KINDS[g];
        for r in runtimes.iter().filter(|r| kind.is_none_or(|k| r.kind == k)) {
            if !out.contains(&r.id) {
                out.push(r.id.clone());
            }
        }
    }
    out
}

/// The arms' own rule, whatever the run: two or more (or one group), none twice.
pub fn check_pair_arms(arms: &[String]) -> Result<(), String> {
    let group = matches!(arms, [g] if PAIR_GROUPS.contains(&g.as_str()));
    if arms.len() < 2 && !group {
        return Err(format!(
            "--pair needs two or more arms, got '{}'",
            arms.join(",")
        ));
    }
    if let Some((_, a)) = arms
        .iter()
        .enumerate()
        .find(|(i, a)| arms[..*i].contains(a))
    {
        return Err(format!("--pair needs different arms, got '{a}' twice"));
    }
    Ok(())
}

/// `A,B[,C…]` as typed: `None` when empty, else its arms (trimmed, empty ones left out),
/// checked by [`check_pair_arms`].
pub fn parse_pair(text: &str) -> Result<Option<Vec<String>>, String> {
    let arms: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(String::from)
        .collect();
    if arms.is_empty() {
        return Ok(None);
    }
    check_pair_arms(&arms)?;
    Ok(Some(arms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_two_or_more_different_arms_or_one_group() {
        assert_eq!(parse_pair("  "), Ok(None));
        assert_eq!(
            parse_pair(" wasmtime , native,"),
            Ok(Some(vec!["wasmtime".into(), "native".into()]))
        );
        assert_eq!(parse_pair("embedded"), Ok(Some(vec!["embedded".into()])));
        assert_eq!(
            parse_pair("wasmtime"),
            Err("--pair needs two or more arms, got 'wasmtime'".into())
        );
        assert_eq!(
            parse_pair("wasmtime, native, wasmtime"),
            Err("--pair needs different arms, got 'wasmtime' twice".into())
        );
    }
}
