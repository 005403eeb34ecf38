//! The causes beside a function's time, counted rather than guessed: what the program's
//! counting run (`profile::counts`) saw it do in one iteration — its calls to each function
//! it calls (a helper such as compiler-rt's `__multi3`, which native code inlines as one
//! instruction, among them), its loads and stores (each bounds-checked by an engine whose
//! memory has no guard pages), its indirect calls (each checks the callee's signature), its
//! `memory.grow`s and host calls (the engine's own work) — its machine code's size where
//! the build says (an engine's perf map, a native build's symbols), and the checks in that
//! code where the engine shows it (`profile::checks`).

use crate::profile::names::canonical;
use crate::store::{CodeChecks, Counts, FunctionCounts, ProfileRow};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// What one function did in one column's program, per iteration.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Causes {
    /// Times it was entered.
    pub entries: f64,
    /// Wasm instructions it executed.
    pub instructions: f64,
    /// Loads and stores it executed.
    pub memory: f64,
    /// Indirect calls it made.
    pub indirect: f64,
    /// `memory.grow`s it executed.
    pub grows: f64,
    /// The module's functions it called, most calls first.
    pub calls: Vec<Callee>,
    /// The host functions (WASI, the engine's imports) it called, most calls first.
    pub host_calls: Vec<Callee>,
    /// Its machine code in this column's build, bytes, where the build says.
    pub code_bytes: Option<u64>,
    /// The checks in that machine code (its branches to a trap, by what they guard), where
    /// the engine shows its code.
    pub checks: Option<CodeChecks>,
    /// The same in one line, as every front end shows it.
    pub said: String,
}

/// A count in three figures (`64.4M`, `2.00k`, `905`).
pub fn short_count(v: f64) -> String {
    if v < 1000.0 {
        return format!("{v:.0}");
    }
    let (v, unit) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|(scale, _)| v >= *scale)
        .map_or((v, ""), |(scale, unit)| (v / scale, unit));
    let decimals = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.decimals$}{unit}")
}

impl Causes {
    /// The causes in words: its entries, its most-called function (with the time those
    /// calls account for), loads and stores, indirect calls and `memory.grow`s, host calls,
    /// and its code against the baseline's.
    fn words(&self, baseline: &str, baseline_code: Option<u64>) -> String {
        let mut words = Vec::new();
        if self.entries > 0.0 {
            words.push(format!("entered {}×", short_count(self.entries)));
        }
        if let Some(c) = self.calls.first() {
            let mut w = format!("calls {} {}×", c.name, short_count(c.per_iteration));
            if let Some(share) = c.share {
                w.push_str(&format!(" ({:.1} % of the samples)", 100.0 * share));
            }
            if c.inlined_in_baseline {
                w.push_str(&format!(", inlined on {baseline}"));
            }
            words.push(w);
        }
        if self.memory > 0.0 {
            words.push(format!("{} loads and stores", short_count(self.memory)));
        }
        if self.indirect > 0.0 {
            words.push(format!("{} indirect calls", short_count(self.indirect)));
        }
        if self.grows > 0.0 {
            words.push(format!("{} memory.grow", short_count(self.grows)));
        }
        if let Some(h) = self.host_calls.first() {
            words.push(format!(
                "host call {} {}×",
                h.name,
                short_count(h.per_iteration)
            ));
        }
        match (self.code_bytes, baseline_code) {
            (Some(b), Some(n)) => words.push(format!("{b} B of code ({baseline} {n} B)")),
            (Some(b), None) => words.push(format!("{b} B of code")),
            _ => {}
        }
        if let Some(c) = &self.checks {
            words.push(format!("checks in its code: {}", checks_text(c)));
        }
        words.join(" · ")
    }
}

/// A function's checks in a few words, each kind that has any (`1 stack, 3 indirect`;
/// `none` when it has none).
pub fn checks_text(c: &CodeChecks) -> String {
    let kinds = [
        (c.stack, "stack"),
        (c.bounds, "bounds"),
        (c.indirect, "indirect-call"),
        (c.arithmetic, "arithmetic"),
        (c.other, "other"),
    ];
    let said: Vec<String> = kinds
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, kind)| format!("{n} {kind}"))
        .collect();
    if said.is_empty() {
        "none".into()
    } else {
        said.join(", ")
    }
}

/// Each column's causes of one function in words, once the baseline's code is known.
pub(super) fn say(causes: &mut [Option<Causes>], base: Option<usize>, baseline: &str) {
    let base_code = base.and_then(|b| causes[b].as_ref().and_then(|c| c.code_bytes));
    for (k, c) in causes.iter_mut().enumerate() {
        if let Some(c) = c {
            let theirs = base_code.filter(|_| Some(k) != base);
            c.said = c.words(baseline, theirs);
        }
    }
}

/// Calls from one function to another, per iteration.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Callee {
    /// The function called.
    pub name: String,
    /// Calls per iteration.
    pub per_iteration: f64,
    /// The callee's own time these calls account for, as a share of the column's samples:
    /// its share, times this caller's part of its entries; `None` for a host function.
    pub share: Option<f64>,
    /// The baseline's build has no function of this name: its work is done inline there
    /// (a helper native code inlines, as `__multi3`'s one `mul`).
    pub inlined_in_baseline: bool,
}

/// A column's counts by canonical function name, so `main` meets its other names.
pub(super) struct Counted<'a> {
    functions: HashMap<&'a str, &'a FunctionCounts>,
    sizes: HashMap<&'a str, u64>,
    checks: HashMap<&'a str, CodeChecks>,
}

impl<'a> Counted<'a> {
    pub(super) fn new(row: &'a ProfileRow) -> Counted<'a> {
        let functions = row
            .counts
            .iter()
            .flat_map(|c: &'a Counts| c.functions.iter())
            .map(|(name, f)| (canonical(name), f))
            .collect();
        let sizes = row
            .sizes
            .iter()
            .map(|(name, n)| (canonical(name), *n))
            .collect();
        let checks = row
            .checks
            .iter()
            .map(|(name, c)| (canonical(name), *c))
            .collect();
        Counted {
            functions,
            sizes,
            checks,
        }
    }

    /// The causes of `name`'s time in this column. `share`: a function's share of the
    /// column's samples; `baseline`: the functions of the baseline's build, when it is
    /// another column that lists them.
    pub(super) fn causes(
        &self,
        name: &str,
        share: impl Fn(&str) -> Option<f64>,
        baseline: Option<&BTreeSet<String>>,
    ) -> Option<Causes> {
        let code_bytes = self.sizes.get(name).copied();
        let checks = self.checks.get(name).copied();
        let Some(f) = self.functions.get(name) else {
            return (code_bytes.is_some() || checks.is_some()).then(|| Causes {
                entries: 0.0,
                instructions: 0.0,
                memory: 0.0,
                indirect: 0.0,
                grows: 0.0,
                calls: Vec::new(),
                host_calls: Vec::new(),
                code_bytes,
                checks,
                said: String::new(),
            });
        };
        let inlined = |callee: &str| baseline.is_some_and(|b| !b.contains(canonical(callee)));
        let mut calls: Vec<Callee> = f
            .calls
            .iter()
            .map(|(callee, n)| {
                let entries = self
                    .functions
                    .get(canonical(callee))
                    .map_or(0, |c| c.entries);
                let part = if entries > 0 {
                    *n as f64 / entries as f64
                } else {
                    0.0
                };
                Callee {
                    name: canonical(callee).to_string(),
                    per_iteration: *n as f64,
                    share: share(canonical(callee)).map(|s| s * part.min(1.0)),
                    inlined_in_baseline: inlined(callee),
                }
            })
            .collect();
        calls.sort_by(|a, b| {
            b.per_iteration
                .total_cmp(&a.per_iteration)
                .then(a.name.cmp(&b.name))
        });
        let mut host_calls: Vec<Callee> = f
            .host_calls
            .iter()
            .map(|(callee, n)| Callee {
                name: callee.clone(),
                per_iteration: *n as f64,
                share: None,
                inlined_in_baseline: false,
            })
            .collect();
        host_calls.sort_by(|a, b| b.per_iteration.total_cmp(&a.per_iteration));
        Some(Causes {
            entries: f.entries as f64,
            instructions: f.instructions as f64,
            memory: f.memory as f64,
            indirect: f.indirect as f64,
            grows: f.grows as f64,
            calls,
            host_calls,
            code_bytes,
            checks,
            said: String::new(),
        })
    }
}

/// Every column's function names, for [`Counted::causes`]'s baseline.
pub(super) fn listed(functions: &BTreeSet<String>) -> Option<&BTreeSet<String>> {
    (!functions.is_empty()).then_some(functions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A wasm column's row: fe_mul calls __multi3 64 times an iteration, x25519 another
    /// 36; the sampler gave __multi3 half the samples.
    fn row() -> ProfileRow {
        let f = |entries, memory, calls: &[(&str, u64)]| FunctionCounts {
            entries,
            work: 1,
            instructions: 10 * entries,
            memory,
            indirect: 0,
            grows: 0,
            calls: calls.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
            host_calls: BTreeMap::new(),
        };
        let counts = Counts {
            functions: [
                ("__multi3".to_string(), f(100, 0, &[])),
                ("fe_mul".to_string(), f(4, 40, &[("__multi3", 64)])),
                (
                    "x25519".to_string(),
                    f(1, 7, &[("__multi3", 36), ("fe_mul", 4)]),
                ),
            ]
            .into(),
            run_ns: 1,
        };
        ProfileRow {
            runtime: "wasmtime".into(),
            test: "x25519".into(),
            sizes: [("fe_mul".to_string(), 2848)].into(),
            checks: [(
                "fe_mul".to_string(),
                CodeChecks {
                    stack: 1,
                    indirect: 3,
                    ..CodeChecks::default()
                },
            )]
            .into(),
            counts: Some(counts),
            ..ProfileRow::default()
        }
    }

    #[test]
    fn a_helper_call_carries_its_count_its_share_and_whether_native_inlines_it() {
        let row = row();
        let counted = Counted::new(&row);
        let share = |f: &str| (f == "__multi3").then_some(0.5);
        let native: BTreeSet<String> = ["fe_mul", "x25519", "main"].map(String::from).into();
        let c = counted.causes("fe_mul", share, Some(&native)).unwrap();
        assert_eq!((c.entries, c.memory, c.code_bytes), (4.0, 40.0, Some(2848)));
        let multi3 = &c.calls[0];
        assert_eq!(multi3.name, "__multi3");
        assert_eq!(multi3.per_iteration, 64.0);
        // 64 of __multi3's 100 entries: 64 % of its half of the samples.
        assert!((multi3.share.unwrap() - 0.32).abs() < 1e-12);
        assert!(multi3.inlined_in_baseline);
        // x25519 calls __multi3 most; fe_mul, which native has too, is not inlined there.
        let x = counted.causes("x25519", share, Some(&native)).unwrap();
        assert_eq!(x.calls[0].name, "__multi3");
        assert!(!x.calls[1].inlined_in_baseline);
        // In words, with native's code beside its own.
        let mut all = vec![None, Some(c)];
        all[0] = Some(Causes {
            code_bytes: Some(905),
            ..all[1].clone().unwrap()
        });
        say(&mut all, Some(0), "native");
        let said = &all[1].as_ref().unwrap().said;
        assert_eq!(
            said,
            "entered 4× · calls __multi3 64× (32.0 % of the samples), inlined on native · 40 loads and stores · 2848 B of code (native 905 B) · checks in its code: 1 stack, 3 indirect-call"
        );
        assert_eq!(checks_text(&CodeChecks::default()), "none");
        // A function the counting run never saw, and no size: nothing to say.
        assert!(counted.causes("main", share, None).is_none());
    }

    #[test]
    fn counts_read_in_three_figures() {
        assert_eq!(short_count(905.0), "905");
        assert_eq!(short_count(64_447_000.0), "64.4M");
        assert_eq!(short_count(2_003.0), "2.00k");
        assert_eq!(short_count(6.319e9), "6.32G");
    }
}
