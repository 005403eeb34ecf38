//! Where runs are kept when a front end is given no folder: one rule for all of them.

use std::path::PathBuf;

/// Where a front end starts from, which decides its last resort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launched {
    /// A terminal (the CLI, the TUI): the working folder's `results`, made when needed.
    FromTerminal,
    /// A desktop menu, whose working folder is nobody's choice: the user's data folder.
    FromDesktop,
}

/// The results folder: env `WASMETER_RESULTS`, else `./results` when it exists (a checkout
/// or a folder the CLI used), else where `launched` keeps them: `./results` for a terminal,
/// `$XDG_DATA_HOME/wasmeter/results` (default `~/.local/share/…`) for the desktop app.
pub fn default_results_dir(launched: Launched) -> PathBuf {
    if let Some(p) = std::env::var_os("WASMETER_RESULTS") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("results");
    match launched {
        Launched::FromTerminal => local,
        Launched::FromDesktop if local.is_dir() => local,
        Launched::FromDesktop => std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
            .unwrap_or_else(|| PathBuf::from("."))
            .join("wasmeter/results"),
    }
}
