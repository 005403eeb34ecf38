//! Suites & tests pane: a tree of suites and their tests with checkboxes, filtered by
//! typing after `/`. A run covers one suite. Suites whose manifest does not load are listed
//! last with their error, and cannot be ticked.

use super::{clip, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use wasmeter_core::suite::{BrokenSuite, Suite};

/// A visible row of the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// A suite (index).
    Suite(usize),
    /// A test (suite index, test index).
    Test(usize, usize),
    /// A suite that does not load (index in `broken`).
    Broken(usize),
}

/// State of the tests pane.
#[derive(Debug, Default)]
pub struct TestsPane {
    /// Suites found.
    pub suites: Vec<Suite>,
    /// Why suites could not be loaded, if they could not.
    pub error: Option<String>,
    /// Suites whose manifest does not load, with why.
    pub broken: Vec<BrokenSuite>,
    /// Ticked tests, per suite.
    pub checked: Vec<Vec<bool>>,
    /// Collapsed suites.
    pub collapsed: Vec<bool>,
    /// Filter text (case-insensitive substring of test name or tag).
    pub filter: String,
    /// True while typing the filter.
    pub editing: bool,
    /// Selected visible row.
    pub cursor: usize,
}

impl TestsPane {
    /// Sets the suites: every test of the first suite ticked.
    pub fn set(&mut self, suites: Vec<Suite>) {
        self.checked = suites
            .iter()
            .enumerate()
            .map(|(i, s)| vec![i == 0; s.tests.len()])
            .collect();
        self.collapsed = vec![false; suites.len()];
        self.suites = suites;
        self.cursor = 0;
    }

    fn matches(&self, s: usize, t: usize) -> bool {
        if self.filter.is_empty() {
            return true;
        }
        let f = self.filter.to_lowercase();
        let tc = &self.suites[s].tests[t];
        tc.name.to_lowercase().contains(&f) || tc.tags.iter().any(|g| g.to_lowercase().contains(&f))
    }

    /// Rows shown, in order.
    pub fn visible(&self) -> Vec<Node> {
        let mut v = Vec::new();
        for (s, suite) in self.suites.iter().enumerate() {
            let tests: Vec<usize> = (0..suite.tests.len())
                .filter(|&t| self.matches(s, t))
                .collect();
            if !self.filter.is_empty() && tests.is_empty() {
                continue;
            }
            v.push(Node::Suite(s));
            if !self.collapsed[s] {
                v.extend(tests.into_iter().map(|t| Node::Test(s, t)));
            }
        }
        let f = self.filter.to_lowercase();
        v.extend(
            self.broken
                .iter()
                .enumerate()
                .filter(|(_, b)| b.name.to_lowercase().contains(&f))
                .map(|(i, _)| Node::Broken(i)),
        );
        v
    }

    /// The suite and tests to run: the one suite with ticked tests.
    pub fn selection(&self) -> Result<(Suite, Vec<String>), String> {
        let with: Vec<usize> = (0..self.suites.len())
            .filter(|&s| self.checked[s].iter().any(|c| *c))
            .collect();
        match with.as_slice() {
            [] => Err("no test ticked: tick tests in Suites & tests (space)".into()),
            [s] => {
                let suite = &self.suites[*s];
                let tests = suite
                    .tests
                    .iter()
                    .zip(&self.checked[*s])
                    .filter(|(_, c)| **c)
                    .map(|(t, _)| t.name.clone())
                    .collect();
                Ok((suite.clone(), tests))
            }
            _ => Err("a run covers one suite: untick the tests of the other suites".into()),
        }
    }

    /// The suite with ticked tests, when exactly one has some.
    pub fn ticked_suite(&self) -> Option<&Suite> {
        let mut with = (0..self.suites.len()).filter(|&s| self.checked[s].iter().any(|c| *c));
        match (with.next(), with.next()) {
            (Some(s), None) => Some(&self.suites[s]),
            _ => None,
        }
    }

    /// Ticks exactly these tests of suite `suite` (and nothing elsewhere).
    pub fn select_only(&mut self, suite: &str, tests: &[&str]) {
        for (s, su) in self.suites.iter().enumerate() {
            for (t, tc) in su.tests.iter().enumerate() {
                self.checked[s][t] = su.name == suite && tests.contains(&tc.name.as_str());
            }
        }
    }

    fn toggle(&mut self, node: Node) {
        match node {
            Node::Test(s, t) => self.checked[s][t] = !self.checked[s][t],
            Node::Suite(s) => {
                let shown: Vec<usize> = (0..self.suites[s].tests.len())
                    .filter(|&t| self.matches(s, t))
                    .collect();
                let all = shown.iter().all(|&t| self.checked[s][t]);
                for t in shown {
                    self.checked[s][t] = !all;
                }
            }
            Node::Broken(_) => {}
        }
    }
}

impl Component for TestsPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Suites & tests", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        if let Some(e) = &self.error {
            Paragraph::new(format!("cannot load suites: {e}"))
                .style(Style::default().fg(Color::Red))
                .render(inner, buf);
            return;
        }
        let [filter, tree] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
        let ftext = if self.editing {
            Line::from(vec![
                Span::styled("filter: ", Style::default().fg(Color::Cyan)),
                Span::raw(self.filter.clone()),
                Span::styled("▏", Style::default().fg(Color::Cyan)),
            ])
        } else if self.filter.is_empty() {
            Line::styled("/ to filter", Style::default().fg(Color::DarkGray))
        } else {
            Line::from(vec![
                Span::styled("filter: ", Style::default().fg(Color::DarkGray)),
                Span::raw(self.filter.clone()),
            ])
        };
        Paragraph::new(ftext).render(filter, buf);
        let rows = self.visible();
        let height = tree.height as usize;
        let off = scroll_offset(self.cursor, height);
        let width = tree.width as usize;
        let lines: Vec<Line> = rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, node)| {
                let line = match *node {
                    Node::Suite(s) => {
                        let su = &self.suites[s];
                        let n = self.checked[s].iter().filter(|c| **c).count();
                        let mark = if n == 0 {
                            "[ ]"
                        } else if n == su.tests.len() {
                            "[x]"
                        } else {
                            "[-]"
                        };
                        let arrow = if self.collapsed[s] { "▸" } else { "▾" };
                        Line::from(vec![
                            Span::raw(format!("{arrow} {mark} ")),
                            Span::styled(
                                su.name.clone(),
                                Style::default().add_modifier(Modifier::BOLD),
                            ),
                            Span::styled(
                                format!("  {n}/{} tests", su.tests.len()),
                                Style::default().fg(Color::DarkGray),
                            ),
                        ])
                    }
                    Node::Test(s, t) => {
                        let tc = &self.suites[s].tests[t];
                        let mark = if self.checked[s][t] { "[x]" } else { "[ ]" };
                        let name = format!("    {mark} {:<16}", tc.name);
                        let desc = clip(
                            &tc.description,
                            width.saturating_sub(name.chars().count() + 1),
                        );
                        Line::from(vec![
                            Span::raw(name),
                            Span::styled(format!(" {desc}"), Style::default().fg(Color::DarkGray)),
                        ])
                    }
                    Node::Broken(b) => {
                        let b = &self.broken[b];
                        let head = format!("  ✗ {}  ", b.name);
                        let why = clip(
                            &format!("broken: {}", b.error),
                            width.saturating_sub(head.chars().count()),
                        );
                        Line::from(vec![
                            Span::styled(head, Style::default().fg(Color::Red)),
                            Span::styled(why, Style::default().fg(Color::Red)),
                        ])
                    }
                };
                if i == self.cursor && focused {
                    line.style(selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(tree, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if self.editing {
            match key.code {
                KeyCode::Esc => {
                    self.filter.clear();
                    self.editing = false;
                }
                KeyCode::Enter => self.editing = false,
                KeyCode::Backspace => {
                    self.filter.pop();
                }
                KeyCode::Char(c) => self.filter.push(c),
                _ => {}
            }
            self.cursor = step(self.cursor, self.visible().len(), false, 0);
            return Action::None;
        }
        let rows = self.visible();
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, rows.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('/') => {
                self.editing = true;
                Action::None
            }
            KeyCode::Esc if !self.filter.is_empty() => {
                self.filter.clear();
                Action::None
            }
            KeyCode::Char(' ') => {
                if let Some(n) = rows.get(self.cursor) {
                    self.toggle(*n);
                }
                Action::None
            }
            KeyCode::Left
            | KeyCode::Char('h')
            | KeyCode::Right
            | KeyCode::Char('l')
            | KeyCode::Enter => {
                if let Some(Node::Suite(s)) = rows.get(self.cursor) {
                    self.collapsed[*s] = match key.code {
                        KeyCode::Left | KeyCode::Char('h') => true,
                        KeyCode::Right | KeyCode::Char('l') => false,
                        _ => !self.collapsed[*s],
                    };
                    Action::None
                } else {
                    Action::Ignored
                }
            }
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.editing {
            vec![("type", "filter"), ("enter", "keep"), ("esc", "clear")]
        } else {
            vec![
                ("space", "tick"),
                ("/", "filter"),
                ("←/→", "fold"),
                ("r", "run"),
            ]
        }
    }

    fn captures_input(&self) -> bool {
        self.editing
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use wasmeter_core::lifecycle::ModuleSpec;
    use wasmeter_core::suite::{TestCase, TestKind};

    fn text(pane: &TestsPane, width: u16) -> Vec<String> {
        let area = Rect::new(0, 0, width, 7);
        let mut buf = Buffer::empty(area);
        pane.render(area, &mut buf, true);
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn broken_suites_are_listed_with_their_error_and_cannot_be_ticked() {
        let mut pane = TestsPane::default();
        pane.set(vec![Suite {
            name: "good".into(),
            tests: vec![TestCase::new(
                "hello",
                TestKind::Lifecycle(ModuleSpec::Hello),
            )],
            ..Suite::default()
        }]);
        pane.broken = vec![BrokenSuite {
            name: "evil".into(),
            manifest: "/s/evil/suite.toml".into(),
            error: "/s/evil/suite.toml:6: 'source' path '../x' leaves the suite folder".into(),
        }];
        assert_eq!(
            pane.visible(),
            [Node::Suite(0), Node::Test(0, 0), Node::Broken(0)]
        );
        let lines = text(&pane, 100);
        assert!(
            lines[4].starts_with(
                "┃  ✗ evil  broken: /s/evil/suite.toml:6: 'source' path '../x' leaves the suite folder"
            ),
            "{lines:#?}"
        );
        // Space on the broken row ticks nothing: the good suite is still the selection.
        pane.cursor = 2;
        assert_eq!(
            pane.on_key(KeyEvent::from(KeyCode::Char(' '))),
            Action::None
        );
        assert_eq!(pane.selection().unwrap().1, ["hello"]);
        // The filter matches a broken suite by name.
        pane.filter = "ev".into();
        assert_eq!(pane.visible(), [Node::Broken(0)]);
    }
}
