//! Naming the feature a failed cell's runtime lacks: the proposals the test's module uses,
//! against the newest feature matrix saved beside the run (`wasmeter features`), so
//! `unknown value_type` reads as a missing SIMD.

use crate::features::{Matrix, SUITE, latest, used_by};
use crate::runtime::{Failure, RuntimeInfo, RuntimeKind};
use crate::suite::TestCase;
use std::collections::HashMap;
use std::path::PathBuf;

/// Looked up once per run, and only when a cell fails.
pub(super) struct MissingFeatures {
    results: PathBuf,
    skip: bool,
    matrix: Option<Option<Matrix>>,
    uses: HashMap<String, Vec<&'static str>>,
}

impl MissingFeatures {
    /// For a run saved in `results`; a run of the features suite itself names nothing.
    pub(super) fn new(results: PathBuf, suite: &str) -> MissingFeatures {
        MissingFeatures {
            results,
            skip: suite == SUITE,
            matrix: None,
            uses: HashMap::new(),
        }
    }

    /// The failure, with the features its runtime lacks named when the matrix knows them.
    pub(super) fn name_missing(
        &mut self,
        f: Failure,
        rt: &RuntimeInfo,
        test: &TestCase,
    ) -> Failure {
        let kinds_that_may = matches!(
            f,
            Failure::Trap(_)
                | Failure::Crash(_)
                | Failure::WrongOutput(_)
                | Failure::InvalidModule(_)
                | Failure::Other(_)
        );
        if self.skip || !kinds_that_may || rt.kind == RuntimeKind::Native {
            return f;
        }
        let Some(wasm) = test.wasm() else { return f };
        let results = &self.results;
        let Some(matrix) = self.matrix.get_or_insert_with(|| latest(results)) else {
            return f;
        };
        let used = self
            .uses
            .entry(test.name.clone())
            .or_insert_with(|| std::fs::read(wasm).map(|b| used_by(&b)).unwrap_or_default());
        match matrix.explain(&rt.id, used) {
            Some(clause) => f.with_context(&clause),
            None => f,
        }
    }
}
