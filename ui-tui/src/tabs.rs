//! The screens' tab titles and where they sit on the first row: shared by the drawing
//! (`ui`) and the mouse (`app`), so neither imports the other for them.

/// Screen titles, in number-key order.
pub const SCREENS: [&str; 7] = [
    "Runtimes",
    "Suites & tests",
    "Live run",
    "Saved runs",
    "Run detail",
    "Diff",
    "Compare",
];

/// Screen titles in one word each, for terminals too narrow for [`SCREENS`] (the words the
/// help uses for the number keys).
const SHORT_SCREENS: [&str; 7] = [
    "Runtimes", "Suites", "Live", "Saved", "Detail", "Diff", "Compare",
];

/// The tab titles that fit a terminal `width` wide: the full ones, or the short ones.
pub(crate) fn tab_titles(width: u16) -> Vec<String> {
    let titles = |names: [&str; 7]| {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| format!(" {} {n} ", i + 1))
            .collect::<Vec<_>>()
    };
    let full = titles(SCREENS);
    if full.iter().map(|t| t.chars().count()).sum::<usize>() <= width as usize {
        full
    } else {
        titles(SHORT_SCREENS)
    }
}

/// The screen whose tab title is at column `x` of the first row of a terminal `width`
/// wide.
pub fn tab_at(x: u16, width: u16) -> Option<usize> {
    let mut start = 0u16;
    for (i, t) in tab_titles(width).iter().enumerate() {
        let w = t.chars().count() as u16;
        if x >= start && x < start + w {
            return Some(i);
        }
        start += w;
    }
    None
}
