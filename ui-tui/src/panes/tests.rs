//! Suites & tests pane: a tree of suites and their tests with checkboxes, filtered by
//! typing after `/`. A run covers one suite. Suites whose manifest does not load are listed
//! last with their error, and cannot be ticked. Modules the user adds by path (`a`, with
//! Tab completing the path) are listed as the pseudo-suite `modules`, one test a module,
//! as `wasmeter run FILE.wasm|DIR` takes them; `x` removes them again.

use super::{clip, pane_block, selected};
use crate::component::{Action, Component, edit_filter, movement, scroll_offset, step};
use crate::input::{Offer, complete_path};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use std::path::PathBuf;
use wasmeter_core::suite::{
    BrokenSuite, Build, CommandTest, Guest, MODULES_SUITE, ModuleRun, Suite, TestCase, TestKind,
    find_modules,
};

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
    /// Modules added by path (absolute, in the order added), shown as the last suite of
    /// `suites`, the pseudo-suite [`MODULES_SUITE`], while there are any.
    pub modules: Vec<PathBuf>,
    /// The module path being typed, while adding one.
    pub adding: Option<String>,
    /// The names Tab left to choose from, listed under the path being typed.
    pub add_matches: Vec<String>,
    /// Why the last path typed was not added (one line).
    pub add_error: Option<String>,
}

impl TestsPane {
    /// Sets the suites: every test of the first suite ticked, no modules added.
    pub fn set(&mut self, suites: Vec<Suite>) {
        self.checked = suites
            .iter()
            .enumerate()
            .map(|(i, s)| vec![i == 0; s.tests.len()])
            .collect();
        self.collapsed = vec![false; suites.len()];
        self.suites = suites;
        self.modules.clear();
        self.cursor = 0;
    }

    /// Index in `suites` of the pseudo-suite of modules added by path, while there is one.
    pub fn modules_index(&self) -> Option<usize> {
        (!self.modules.is_empty()).then(|| self.suites.len() - 1)
    }

    /// The modules added by path whose tests are ticked, when the ticked suite is theirs:
    /// what a run of modules stages.
    pub fn ticked_modules(&self) -> Option<Vec<PathBuf>> {
        let m = self.modules_index()?;
        (self.ticked_index()? == m).then(|| {
            self.modules
                .iter()
                .zip(&self.checked[m])
                .filter(|(_, c)| **c)
                .map(|(p, _)| p.clone())
                .collect()
        })
    }

    /// Adds the modules a path names (a `.wasm` file, or a folder's `.wasm` files) as
    /// [`find_modules`] finds them, ticked, and ticks nothing else (a run covers one
    /// suite). The error is find_modules' one line (missing, not wasm, a component, no
    /// modules in a folder, a second module of one name); nothing is added then.
    pub fn add_modules(&mut self, path: &str) -> Result<usize, String> {
        let path = path.trim();
        if path.is_empty() {
            return Err("type the path of a .wasm module or of a folder of them".into());
        }
        let found = find_modules(&[crate::input::expand_home(path)])?;
        let found: Vec<PathBuf> = found
            .into_iter()
            .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
            .filter(|p| !self.modules.contains(p))
            .collect();
        if found.is_empty() {
            return Err(format!("{path}: added already"));
        }
        let mut all = self.modules.clone();
        all.extend(found.iter().cloned());
        // Tests are named after files: two modules of one name cannot run together.
        find_modules(&all)?;
        let kept: Vec<bool> = match self.modules_index() {
            Some(m) => self.checked[m].clone(),
            None => Vec::new(),
        };
        let ticked: Vec<bool> = kept.into_iter().chain(found.iter().map(|_| true)).collect();
        for c in self.checked.iter_mut() {
            c.iter_mut().for_each(|t| *t = false);
        }
        self.set_modules(all, ticked);
        Ok(found.len())
    }

    /// Removes module `i` of those added by path.
    pub fn remove_module(&mut self, i: usize) {
        let Some(m) = self.modules_index() else {
            return;
        };
        if i >= self.modules.len() {
            return;
        }
        let mut modules = self.modules.clone();
        let mut ticked = self.checked[m].clone();
        modules.remove(i);
        ticked.remove(i);
        self.set_modules(modules, ticked);
    }

    /// Removes every module added by path.
    pub fn remove_modules(&mut self) {
        self.set_modules(Vec::new(), Vec::new());
    }

    /// Replaces the pseudo-suite of modules (the last of `suites`) with one of `modules`,
    /// ticked as `ticked` says.
    fn set_modules(&mut self, modules: Vec<PathBuf>, ticked: Vec<bool>) {
        let collapsed = match self.modules_index() {
            Some(_) => {
                self.suites.pop();
                self.checked.pop();
                self.collapsed.pop().unwrap_or(false)
            }
            None => false,
        };
        self.modules = modules;
        if !self.modules.is_empty() {
            self.suites.push(modules_pseudo_suite(&self.modules));
            self.checked.push(ticked);
            self.collapsed.push(collapsed);
        }
        self.cursor = step(self.cursor, self.visible().len(), false, 0);
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
        self.ticked_index().map(|s| &self.suites[s])
    }

    /// Index of the suite with ticked tests, when exactly one has some.
    fn ticked_index(&self) -> Option<usize> {
        let mut with = (0..self.suites.len()).filter(|&s| self.checked[s].iter().any(|c| *c));
        match (with.next(), with.next()) {
            (Some(s), None) => Some(s),
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

/// The pseudo-suite that lists modules added by path: one command test a module, named
/// after its file as the staged suite names it ([`wasmeter_core::suite::ModuleStaging`]),
/// its path as its description. Only listed and ticked: a run stages the ticked modules.
fn modules_pseudo_suite(modules: &[PathBuf]) -> Suite {
    let tests = modules
        .iter()
        .map(|p| {
            let name = wasmeter_core::suite::test_name(p);
            let guest = Guest {
                wasm: p.clone(),
                build: Build::Module(ModuleRun::default()),
            };
            TestCase {
                description: p.display().to_string(),
                ..TestCase::new(name, TestKind::Command(CommandTest { guest, check: None }))
            }
        })
        .collect();
    Suite {
        name: MODULES_SUITE.into(),
        description: "modules added by path".into(),
        tests,
        ..Suite::default()
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
        // The module path being typed, and under it why it was refused or what Tab left.
        let add_rows = match (&self.adding, &self.add_error, self.add_matches.is_empty()) {
            (None, _, _) => 0,
            (Some(_), None, true) => 1,
            _ => 2,
        };
        let [filter, tree, add] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(1),
            Constraint::Length(add_rows),
        ])
        .areas(inner);
        if let Some(text) = &self.adding {
            let mut lines = vec![Line::from(vec![
                Span::styled("add module: ", Style::default().fg(Color::Cyan)),
                Span::raw(text.clone()),
                Span::styled("▏", Style::default().fg(Color::Cyan)),
            ])];
            if let Some(e) = &self.add_error {
                lines.push(Line::styled(
                    clip(e, add.width as usize),
                    Style::default().fg(Color::Red),
                ));
            } else if !self.add_matches.is_empty() {
                lines.push(Line::styled(
                    clip(&self.add_matches.join("  "), add.width as usize),
                    Style::default().fg(Color::DarkGray),
                ));
            }
            Paragraph::new(lines).render(add, buf);
        }
        let ftext = if self.editing {
            Line::from(vec![
                Span::styled("filter: ", Style::default().fg(Color::Cyan)),
                Span::raw(self.filter.clone()),
                Span::styled("▏", Style::default().fg(Color::Cyan)),
            ])
        } else if self.filter.is_empty() {
            Line::styled(
                "/ to filter · a to add .wasm modules by path",
                Style::default().fg(Color::DarkGray),
            )
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
                        let name = if Some(s) == self.modules_index() {
                            format!("{} ({})", su.name, self.modules.len())
                        } else {
                            su.name.clone()
                        };
                        Line::from(vec![
                            Span::raw(format!("{arrow} {mark} ")),
                            Span::styled(name, Style::default().add_modifier(Modifier::BOLD)),
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
        if let Some(text) = &mut self.adding {
            match key.code {
                KeyCode::Esc => {
                    self.adding = None;
                    self.add_error = None;
                    self.add_matches.clear();
                }
                KeyCode::Tab => {
                    let c = complete_path(text, Offer::Modules);
                    *text = c.text;
                    self.add_matches = c.matches;
                    self.add_error = None;
                }
                KeyCode::Enter => {
                    let path = text.clone();
                    self.add_matches.clear();
                    match self.add_modules(&path) {
                        Ok(n) => {
                            self.adding = None;
                            self.add_error = None;
                            // The cursor on the modules' suite, its tests below it.
                            let m = self.modules_index();
                            if let Some(i) = self
                                .visible()
                                .iter()
                                .position(|n| matches!(n, Node::Suite(s) if Some(*s) == m))
                            {
                                self.cursor = i;
                            }
                            return Action::Info(format!(
                                "added {n} module{} from {path}; the modules suite is ticked",
                                if n == 1 { "" } else { "s" }
                            ));
                        }
                        Err(e) => {
                            // In full on the status line too: the pane may be too narrow.
                            self.add_error = Some(e.clone());
                            return Action::Message(e);
                        }
                    }
                }
                KeyCode::Backspace => {
                    text.pop();
                    self.add_error = None;
                    self.add_matches.clear();
                }
                KeyCode::Char(c) => {
                    text.push(c);
                    self.add_error = None;
                    self.add_matches.clear();
                }
                _ => {}
            }
            return Action::None;
        }
        if self.editing {
            edit_filter(&mut self.filter, &mut self.editing, &key);
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
            KeyCode::Char('a') => {
                self.adding = Some(String::new());
                self.add_error = None;
                self.add_matches.clear();
                Action::None
            }
            KeyCode::Char('x') | KeyCode::Delete => {
                let m = self.modules_index();
                match rows.get(self.cursor) {
                    Some(Node::Test(s, t)) if Some(*s) == m => self.remove_module(*t),
                    Some(Node::Suite(s)) if Some(*s) == m => self.remove_modules(),
                    _ => return Action::Ignored,
                }
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
        if self.adding.is_some() {
            vec![
                ("type", "path"),
                ("tab", "complete"),
                ("enter", "add"),
                ("esc", "cancel"),
            ]
        } else if self.editing {
            vec![("type", "filter"), ("enter", "keep"), ("esc", "clear")]
        } else {
            let mut h = vec![
                ("space", "tick"),
                ("/", "filter"),
                ("←/→", "fold"),
                ("a", "add .wasm"),
            ];
            if self.modules_index().is_some() {
                h.push(("x", "remove module"));
            }
            h.push(("r", "run"));
            h
        }
    }

    fn captures_input(&self) -> bool {
        self.editing || self.adding.is_some()
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use wasmeter_core::lifecycle::{LifecycleModule, ModuleSpec};
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
                TestKind::Lifecycle(LifecycleModule::Generated(ModuleSpec::Hello)),
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
