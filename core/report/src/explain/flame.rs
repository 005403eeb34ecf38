//! Flame graphs of folded stacks as standalone SVG (no script: each frame's `<title>` is its
//! tooltip), as inferno and Brendan Gregg's flamegraph.pl draw them: the outermost frame at
//! the bottom, each frame as wide as its share of the samples. A differential graph colours
//! each function of one runtime by how its share differs from the baseline's share of the
//! same name: red where it takes more of this runtime's time, blue where less.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// How to draw a flame graph.
#[derive(Debug, Clone)]
pub struct FlameOptions<'a> {
    /// The heading above the graph.
    pub title: String,
    /// Width, pixels.
    pub width: f64,
    /// Colour functions by their share against this profile's (a differential graph), with
    /// its runtime's name.
    pub against: Option<(&'a str, &'a BTreeMap<String, u64>)>,
}

#[derive(Default)]
struct Node {
    total: u64,
    children: BTreeMap<String, Node>,
}

const ROW: f64 = 17.0;
const PAD_TOP: f64 = 30.0;
const PAD_SIDE: f64 = 10.0;

/// Draws `stacks` (outermost frame first, `;`-joined, with sample counts) as an SVG.
pub fn flame_graph(stacks: &BTreeMap<String, u64>, options: &FlameOptions<'_>) -> String {
    let mut root = Node::default();
    for (stack, n) in stacks {
        root.total += n;
        let mut node = &mut root;
        for frame in stack.split(';').filter(|f| !f.is_empty()) {
            node = node.children.entry(frame.to_string()).or_default();
            node.total += n;
        }
    }
    let depth = max_depth(&root);
    let height = PAD_TOP + ROW * (depth as f64 + 1.0) + 24.0;
    let self_share = |stacks: &BTreeMap<String, u64>| -> HashMap<String, f64> {
        let total = stacks.values().sum::<u64>().max(1) as f64;
        let mut m: HashMap<String, f64> = HashMap::new();
        for (s, n) in stacks {
            if let Some(leaf) = s.rsplit(';').next() {
                *m.entry(leaf.to_string()).or_insert(0.0) += *n as f64 / total;
            }
        }
        m
    };
    let here = self_share(stacks);
    let there = options.against.map(|(name, s)| (name, self_share(s)));
    let mut svg = String::new();
    let w = options.width;
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="flame" width="{w}" height="{height}" viewBox="0 0 {w} {height}" font-family="Verdana, sans-serif" font-size="12">"#
    );
    let _ = write!(
        svg,
        r##"<rect x="0" y="0" width="{w}" height="{height}" fill="#f8f8f8"/><text x="{}" y="20" text-anchor="middle" font-size="15">{}</text>"##,
        w / 2.0,
        escape(&options.title)
    );
    if root.total == 0 {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="middle" fill="#555">no samples</text></svg>"##,
            w / 2.0,
            PAD_TOP + 20.0
        );
        return svg;
    }
    let scale = (w - 2.0 * PAD_SIDE) / root.total as f64;
    let ctx = Draw {
        scale,
        bottom: height - 24.0,
        total: root.total,
        here: &here,
        there: there.as_ref().map(|(n, m)| (*n, m)),
    };
    ctx.frame(&mut svg, "all", &root, PAD_SIDE, 0);
    let legend = match options.against {
        Some((name, _)) => format!(
            "width: share of samples; colour: share against {name} (red: more, blue: less); hover for figures"
        ),
        None => "width: share of samples; hover for figures".to_string(),
    };
    let _ = write!(
        svg,
        r##"<text x="{PAD_SIDE}" y="{}" fill="#555" font-size="11">{}</text></svg>"##,
        height - 6.0,
        escape(&legend)
    );
    svg
}

struct Draw<'a> {
    scale: f64,
    bottom: f64,
    total: u64,
    here: &'a HashMap<String, f64>,
    there: Option<(&'a str, &'a HashMap<String, f64>)>,
}

impl Draw<'_> {
    fn frame(&self, svg: &mut String, name: &str, node: &Node, x: f64, depth: usize) {
        let width = node.total as f64 * self.scale;
        if width < 0.3 {
            return;
        }
        let y = self.bottom - ROW * (depth as f64 + 1.0);
        let share = node.total as f64 / self.total as f64;
        let own = self.here.get(name).copied().unwrap_or(0.0);
        let (fill, tip) = match (self.there, depth) {
            (_, 0) => ("#cccccc".to_string(), String::new()),
            (Some((other, shares)), _) => {
                let theirs = shares.get(name).copied();
                let delta = own - theirs.unwrap_or(0.0);
                let tip = match theirs {
                    Some(t) => format!(
                        "; {:.1} % of {other}'s ({:+.1} points)",
                        100.0 * t,
                        100.0 * delta
                    ),
                    None => format!("; not in {other}'s profile"),
                };
                (diff_colour(delta, theirs.is_none() && own > 0.0), tip)
            }
            (None, _) => (warm_colour(name), String::new()),
        };
        let _ = write!(
            svg,
            r#"<g><title>{} — {} samples, {:.1} % (innermost: {:.1} %){}</title><rect x="{x:.2}" y="{y:.2}" width="{width:.2}" height="{:.1}" fill="{fill}" rx="2"/>"#,
            escape(name),
            node.total,
            100.0 * share,
            100.0 * own,
            escape(&tip),
            ROW - 1.0
        );
        let fits = ((width - 6.0) / 7.0).floor() as usize;
        if fits >= 3 {
            let label: String = if name.chars().count() > fits {
                name.chars()
                    .take(fits.saturating_sub(2))
                    .collect::<String>()
                    + ".."
            } else {
                name.to_string()
            };
            let _ = write!(
                svg,
                r#"<text x="{:.2}" y="{:.2}">{}</text>"#,
                x + 3.0,
                y + ROW - 5.0,
                escape(&label)
            );
        }
        svg.push_str("</g>");
        let mut at = x;
        for (child, n) in &node.children {
            self.frame(svg, child, n, at, depth + 1);
            at += n.total as f64 * self.scale;
        }
    }
}

fn max_depth(node: &Node) -> usize {
    node.children
        .values()
        .map(|c| 1 + max_depth(c))
        .max()
        .unwrap_or(0)
}

/// flamegraph.pl's "hot" palette, fixed per name so a function keeps its colour.
fn warm_colour(name: &str) -> String {
    if name.starts_with('[') {
        return "#b8b8c8".into();
    }
    let h = name.bytes().fold(2166136261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16777619)
    });
    let r = 205 + (h % 50);
    let g = (h >> 8) % 190;
    let b = (h >> 16) % 55;
    format!("rgb({r},{g},{b})")
}

/// Red for a larger share than the baseline's, blue for a smaller, white for the same;
/// full colour at 10 points of difference. Purple for a function the baseline lacks.
fn diff_colour(delta: f64, only_here: bool) -> String {
    if only_here {
        return "rgb(190,120,220)".into();
    }
    let k = (delta.abs() / 0.10).min(1.0);
    let fade = (255.0 - 155.0 * k).round() as u8;
    if delta >= 0.0 {
        format!("rgb(255,{fade},{fade})")
    } else {
        format!("rgb({fade},{fade},255)")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stacks(v: &[(&str, u64)]) -> BTreeMap<String, u64> {
        v.iter().map(|(s, n)| (s.to_string(), *n)).collect()
    }

    #[test]
    fn frames_are_as_wide_as_their_samples() {
        let s = stacks(&[("main;hash", 75), ("main;copy<x>", 25)]);
        let svg = flame_graph(
            &s,
            &FlameOptions {
                title: "sha256 × wasmtime".into(),
                width: 1020.0,
                against: None,
            },
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        // 1000 px for 100 samples: hash 750 px, copy 250 px, names escaped.
        assert!(svg.contains(r#"width="750.00""#), "{svg}");
        assert!(svg.contains(r#"width="250.00""#), "{svg}");
        assert!(svg.contains("copy&lt;x&gt; — 25 samples, 25.0 %"), "{svg}");
        assert!(svg.contains("sha256 × wasmtime"));
    }

    #[test]
    fn a_differential_graph_colours_by_the_change_in_share() {
        let here = stacks(&[("main;hash", 80), ("main;copy", 20)]);
        let base = stacks(&[("hash", 50), ("copy", 50)]);
        let svg = flame_graph(
            &here,
            &FlameOptions {
                title: "t".into(),
                width: 500.0,
                against: Some(("native", &base)),
            },
        );
        // hash: 80 % against 50 %: +30 points, full red; copy: −30, full blue.
        assert!(svg.contains("50.0 % of native's (+30.0 points)"), "{svg}");
        assert!(svg.contains("rgb(255,100,100)"), "{svg}");
        assert!(svg.contains("rgb(100,100,255)"), "{svg}");
        // main has no samples of its own here nor a baseline share: not in its profile.
        assert!(
            svg.contains("main — 100 samples, 100.0 % (innermost: 0.0 %); not in native's profile"),
            "{svg}"
        );
    }

    #[test]
    fn no_samples_says_so() {
        let svg = flame_graph(
            &BTreeMap::new(),
            &FlameOptions {
                title: "t".into(),
                width: 300.0,
                against: None,
            },
        );
        assert!(svg.contains("no samples"));
    }
}
