//! The desktop app at 10,000 cells, live (issue 10): the real app and page, whose "Start run"
//! starts a stand-in plan of 100 runtimes × 100 tests (`runner::stand_in_run`: real runner,
//! real worker processes, a script reporting one measurement per cell) whatever the page
//! picked. Only `scripts/bench-desktop` starts it; it is never offered as a runtime.

use std::path::PathBuf;
use wasmeter_core::runner::stand_in_run;
use wasmeter_desktop::{CommandError, Workbench};

const RUNTIMES: usize = 100;
const TESTS: usize = 100;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let scripts: PathBuf = dir.path().to_path_buf();
    let mut wb = Workbench::from_env()?;
    wb.worker = stand_in_run(&scripts, RUNTIMES, TESTS)?.1;
    let wb = wb.with_planner(Box::new(move |_, _, _| {
        stand_in_run(&scripts, RUNTIMES, TESTS)
            .map(|(plan, _)| plan)
            .map_err(|e| CommandError::new("io", format!("stand-in plan: {e}")))
    }));
    wasmeter_desktop::run(wb)?;
    Ok(())
}
