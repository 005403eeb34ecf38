//! The cases every front end's plan test checks against core (test double, `testing`
//! feature): the suite timeouts a front end must keep or override exactly as core does.

use super::{Plan, RunChoices, RunRequest};
use crate::config::Config;
use crate::store::RunSettings;
use crate::suite::{Suite, SuiteCatalog};

/// One case: a suite, the timeout the user typed (if any) and the timeout the plan must get.
pub struct TimeoutCase {
    /// The suite run.
    pub suite: Suite,
    /// `--timeout` or its equivalent in a UI.
    pub timeout: Option<u64>,
    /// The plan's timeout, seconds.
    pub want: u64,
}

impl TimeoutCase {
    /// Core's own plan for wasmtime alone with this case's timeout, seed left out.
    pub fn core_settings(&self) -> RunSettings {
        planned(RunRequest::from_choices(
            self.suite.clone(),
            RunChoices {
                runtimes: vec!["wasmtime".into()],
                timeout_secs: self.timeout,
                ..RunChoices::default()
            },
            Config::default(),
        ))
    }
}

/// faults keeps its 10 s, libsodium its 600 s, compute gets the 60 s default, a typed
/// timeout wins; from the repository's suites in `catalog`.
pub fn timeout_cases(catalog: &SuiteCatalog) -> Vec<TimeoutCase> {
    let faults = catalog.get("faults").expect("faults suite").clone();
    let compute = catalog.get("compute").expect("compute suite").clone();
    // libsodium's manifest is written by its build script; its timeout is what matters.
    let libsodium = Suite {
        name: "libsodium".into(),
        timeout_secs: Some(600),
        ..compute.clone()
    };
    [
        (&faults, None, 10),
        (&libsodium, None, 600),
        (&compute, None, 60),
        (&faults, Some(30), 30),
        (&libsodium, Some(30), 30),
    ]
    .into_iter()
    .map(|(suite, timeout, want)| TimeoutCase {
        suite: suite.clone(),
        timeout,
        want,
    })
    .collect()
}

/// The settings of a plan, its seed left out (drawn when none is given).
pub fn planned(req: RunRequest) -> RunSettings {
    let mut s = Plan::new(req).expect("a valid plan").settings;
    s.seed = 0;
    s
}
