//! The contract every pane follows: render from state, react to keys, name its keys.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::path::PathBuf;
use wasmeter_core::analysis::CompareOptions;
use wasmeter_core::history::HistoryQuery;

/// What a pane asks the application to do after a key.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Nothing beyond the pane's own state change.
    None,
    /// The key was not for this pane; the application may use it.
    Ignored,
    /// Start a run with the current selection.
    StartRun,
    /// Ask to cancel the run in flight (the app confirms first).
    CancelRun,
    /// Open a saved run in the detail screen.
    OpenRun(PathBuf),
    /// Ask to delete a saved run (the app confirms first).
    DeleteRun(PathBuf),
    /// Diff two saved runs (A, B).
    Diff(PathBuf, PathBuf),
    /// Diff two runtimes, or two tests, of one saved run (A, B), paired by round.
    DiffInRun(PathBuf, InRun, String, String),
    /// Put two or more saved runs side by side, in this order.
    Compare(Vec<PathBuf>),
    /// Open the export dialog for one run or two (their diff too); more than two are
    /// exported compared, as `wasmeter export RUN RUN RUN…` does.
    Export(Vec<PathBuf>),
    /// Open the export dialog for runs compared this way.
    ExportCompared(Vec<PathBuf>, CompareOptions),
    /// Open the history of a cell over every saved run.
    History(HistoryQuery),
    /// Reload the saved runs.
    Reload,
    /// Show a message in the status line.
    Message(String),
    /// Show a message in the status line that reports success, not a problem.
    Info(String),
    /// Close the dialog that returned it.
    Close,
}

/// What the two arms of a diff inside one run are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InRun {
    /// Two runtime columns of the matrix.
    Runtimes,
    /// Two test rows.
    Tests,
}

/// A pane: a pure rendering of its state plus key handling.
pub trait Component {
    /// Draws the pane into `area`. Must depend on state only (no clock, no I/O).
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool);
    /// Handles a key while the pane has focus.
    fn on_key(&mut self, key: KeyEvent) -> Action;
    /// Key hints for the hint bar and the help overlay: (keys, what).
    fn hints(&self) -> Vec<(&'static str, &'static str)>;
    /// True while the pane takes text (filter, field edit): global keys are suspended.
    fn captures_input(&self) -> bool {
        false
    }
}

/// A key while a filter is typed: characters and Backspace edit it, Enter keeps it and
/// ends the typing, Esc clears it and ends the typing.
pub fn edit_filter(filter: &mut String, editing: &mut bool, key: &KeyEvent) {
    match key.code {
        KeyCode::Esc => {
            filter.clear();
            *editing = false;
        }
        KeyCode::Enter => *editing = false,
        KeyCode::Backspace => {
            filter.pop();
        }
        KeyCode::Char(c) => filter.push(c),
        _ => {}
    }
}

/// Whether `hay` holds every word of a typed filter, in any case (an empty filter keeps
/// everything): the one rule of every pane's `/`.
pub fn filter_keeps(filter: &str, hay: &str) -> bool {
    let hay = hay.to_lowercase();
    filter
        .to_lowercase()
        .split_whitespace()
        .all(|w| hay.contains(w))
}

/// How a pane says its filter (`filter: WORDS`, with a cursor while typed); `None` when
/// there is none to say.
pub fn filter_label(filter: &str, editing: bool) -> Option<String> {
    (editing || !filter.is_empty())
        .then(|| format!("filter: {filter}{}", if editing { "▏" } else { "" }))
}

/// Moves a cursor up or down within `len` items, clamped.
pub fn step(cursor: usize, len: usize, down: bool, by: usize) -> usize {
    if len == 0 {
        0
    } else if down {
        (cursor + by).min(len - 1)
    } else {
        cursor.saturating_sub(by)
    }
}

/// Up/down movement of a key: arrows, vim keys, page keys, home/end. `Some((down, by))`.
pub fn movement(key: &KeyEvent) -> Option<(bool, usize)> {
    use crossterm::event::KeyCode::*;
    match key.code {
        Up | Char('k') => Some((false, 1)),
        Down | Char('j') => Some((true, 1)),
        PageUp => Some((false, 10)),
        PageDown => Some((true, 10)),
        Home | Char('g') => Some((false, usize::MAX / 2)),
        End | Char('G') => Some((true, usize::MAX / 2)),
        _ => None,
    }
}

/// The first `start` offset that keeps `cursor` visible in `height` rows.
pub fn scroll_offset(cursor: usize, height: usize) -> usize {
    if height == 0 {
        0
    } else {
        cursor.saturating_sub(height - 1)
    }
}
