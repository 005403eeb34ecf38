//! A run's tables as its kind's views list them ([`crate::model::SuiteShape::views`]): the
//! CLI's `run` and `show` and the Markdown export call [`run_tables`], so no front end
//! decides per kind which tables a run has.

use super::{
    Table, heap_tables, http_tables, operations_tables, phases_table, sizes_tables,
    startup_corrected_table, summary_table,
};
use crate::analysis::{CellSizes, HttpCell, RunSummary};
use crate::model::{Depth, SuiteShape, View};
use crate::store::TestRecord;

/// What a run's tables are made from. `http` and `sizes` may be left empty for a kind
/// without [`View::Requests`] or [`View::Sizes`].
#[derive(Debug, Clone, Copy)]
pub struct RunTables<'a> {
    /// The run's summary.
    pub summary: &'a RunSummary,
    /// Its tests as saved.
    pub tests: &'a [TestRecord],
    /// Its HTTP cells (HTTP kinds).
    pub http: &'a [HttpCell],
    /// Its cells' sizes.
    pub sizes: &'a [CellSizes],
}

/// The text tables of one view; none for the views only interactive front ends draw
/// (paired diffs, distributions, resources) and for a view the run has no data for.
pub fn view_tables(view: View, d: &RunTables<'_>, depth: Depth) -> Vec<Table> {
    let s = d.summary;
    match view {
        View::Matrix => vec![summary_table(s)],
        View::StartupCorrected => startup_corrected_table(s).into_iter().collect(),
        View::Phases => vec![phases_table(s, None)],
        View::Sizes => sizes_tables(d.tests, &s.runtimes, d.sizes),
        View::Operations => operations_tables(s, d.tests),
        View::Heap => heap_tables(s, depth == Depth::All),
        View::Requests => http_tables(d.http, &s.baseline),
        View::Paired | View::Distribution | View::Resources => Vec::new(),
    }
}

/// Every table a run of this shape shows at `depth`, in its views' order.
pub fn run_tables(shape: &SuiteShape, d: &RunTables<'_>, depth: Depth) -> Vec<Table> {
    shape
        .views_at(depth)
        .flat_map(|v| view_tables(v, d, depth))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SuiteKind;

    /// Each kind's text tables follow its views at each depth: a command run's phases only
    /// with everything, a lifecycle run's `hello` operations at every depth, HTTP's
    /// nothing without cells.
    #[test]
    fn tables_follow_the_kinds_views() {
        let summary = RunSummary {
            run_id: "r".into(),
            baseline: "native".into(),
            tests: vec!["hello".into()],
            runtimes: vec!["native".into()],
            cells: Vec::new(),
            per_runtime: Vec::new(),
            load: None,
        };
        let d = RunTables {
            summary: &summary,
            tests: &[],
            http: &[],
            sizes: &[],
        };
        let heads = |kind: SuiteKind, depth| -> Vec<String> {
            run_tables(&kind.shape(), &d, depth)
                .into_iter()
                .map(|t| t.columns[0].title.clone())
                .collect()
        };
        assert_eq!(heads(SuiteKind::Command, Depth::Brief), ["test"]);
        assert_eq!(heads(SuiteKind::Command, Depth::Shown), ["test"]);
        assert_eq!(heads(SuiteKind::Command, Depth::All), ["test", "runtime"]);
        assert_eq!(heads(SuiteKind::Lifecycle, Depth::Brief), ["hello"]);
        assert!(heads(SuiteKind::Gateway, Depth::All).is_empty());
    }
}
