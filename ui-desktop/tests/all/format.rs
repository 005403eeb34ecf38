//! One rule set for numbers and units (and a features cell's mark and message): the page's
//! formatter is checked against core's on a shared table of cases, written from core's
//! functions into the page's fixtures (`web/src/test/fixtures/format-cases.json`;
//! `format.test.ts` runs the page's side).

use serde_json::{Value, json};
use std::path::Path;
use wasmeter_core::analysis::{DiffRow, RuntimeSummary, Unit};
use wasmeter_core::features::Support;
use wasmeter_core::format::colour::ratio_colours;
use wasmeter_core::format::{
    MISSING, format_bytes, format_ns, format_ns_within, format_rate, format_size, format_value,
};
use wasmeter_core::table::{format_geomean, format_ratio};

/// Values across every unit boundary, with exact ties where core rounds half to even.
const VALUES: [f64; 26] = [
    0.0,
    0.4,
    0.5,
    2.5,
    9.994,
    12.25,
    99.9,
    250.4,
    250.5,
    408.0,
    999.0,
    999.6,
    1_000.0,
    1_536.0,
    4_198.4,
    12_345.0,
    679_500.0,
    1_048_576.0,
    1_234_567.0,
    1_630_000.0,
    2_500_000.0,
    12_582_912.0,
    999_999_999.0,
    2_500_000_000.0,
    3_221_225_472.0,
    -300.0,
];

fn cases(f: impl Fn(f64) -> String) -> Value {
    VALUES.iter().map(|&v| json!([v, f(v)])).collect()
}

fn table() -> Value {
    let rows = [
        json!({ "ratio": 1.0344, "ci_low": 1.0121, "ci_high": 1.0573, "halfwidth_pct": 2.25 }),
        json!({ "ratio": 0.45, "ci_low": 0.35, "ci_high": 0.63, "halfwidth_pct": 31.1, "level": 0.96875 }),
        json!({ "ratio": 1.0, "ci_low": 0.99, "ci_high": 1.01, "halfwidth_pct": 1.0, "level": 0.95 }),
        json!({ "ratio": 0.5, "ci_low": null, "ci_high": null, "halfwidth_pct": null }),
        json!({ "ratio": null, "ci_low": null, "ci_high": null, "halfwidth_pct": null }),
    ];
    let ratio_text: Vec<Value> = rows
        .into_iter()
        .map(|r| {
            let mut row = json!({
                "runtime": "wasmtime", "test": "sha256", "phase": "execute",
                "a_median": 1.0, "b_median": 1.0, "p_adjusted": null, "verdict": "no change",
                "n": [6, 6], "invocations": [6, 6]
            });
            for (k, v) in r.as_object().unwrap() {
                row[k] = v.clone();
            }
            let d: DiffRow = serde_json::from_value(row).unwrap();
            json!([r, format_ratio(&d)])
        })
        .collect();
    let geomean: Vec<Value> = [(Some(1.2345), 15, 15), (Some(0.876), 12, 15), (None, 0, 15)]
        .into_iter()
        .map(|(g, compared, total)| {
            let r = RuntimeSummary {
                runtime: "wasmtime".into(),
                geomean_relative: g,
                tests_compared: compared,
                tests_total: total,
                failed: 0,
            };
            let input =
                json!({ "geomean_relative": g, "tests_compared": compared, "tests_total": total });
            json!([input, format_geomean(&r)])
        })
        .collect();
    let sizes: Value = [
        0u64,
        1000,
        1024,
        1536,
        65_536,
        16 << 20,
        (16 << 20) + 1024,
        3 << 30,
    ]
    .iter()
    .map(|&b| json!([b, format_size(b)]))
    .collect();
    // A features run's cell: the grid's mark and the message beside it.
    let support: Value = [
        Support::Yes,
        Support::No {
            message: "unknown value_type".into(),
        },
        Support::NeedsFlag {
            flag: "-W shared-memory=y".into(),
            message: "threads support is not enabled".into(),
        },
        Support::NotApplicable {
            reason: "a JS runtime for the servers suite only".into(),
        },
        Support::NotRun,
    ]
    .iter()
    .map(|s| json!([s, s.mark(), s.detail()]))
    .collect();
    // A ratio's cell colours (background, text) on core's shared scale; none for a ratio
    // that is not a positive number.
    let ratio_colour: Value = [
        0.001, 0.125, 0.2, 0.5, 0.84, 0.917, 0.95, 1.0, 1.05, 1.09, 1.1, 1.19, 1.5, 1.8, 2.0, 3.0,
        7.9, 8.0, 100.0, 0.0, -1.0,
    ]
    .iter()
    .map(|&r| match ratio_colours(r) {
        Some((bg, text)) => json!([r, bg, text]),
        None => json!([r, null, null]),
    })
    .collect();
    // A time to the digits its interval supports, at several half-widths.
    let ns_within: Value = VALUES
        .iter()
        .flat_map(|&v| {
            [
                None,
                Some(0.05),
                Some(0.97),
                Some(1.23),
                Some(4.0),
                Some(79.6),
                Some(2165.8),
            ]
            .map(|h| json!([v, h, format_ns_within(v, h)]))
        })
        .collect();
    json!({
        "missing": MISSING,
        "ns_within": ns_within,
        "feature_support": support,
        "ns": cases(format_ns),
        "bytes": cases(format_bytes),
        "rate": cases(format_rate),
        "size": sizes,
        "value_ns": cases(|v| format_value(Unit::Ns, v)),
        "value_bytes": cases(|v| format_value(Unit::Bytes, v)),
        "value_per_sec": cases(|v| format_value(Unit::PerSec, v)),
        "ratio_text": ratio_text,
        "ratio_colour": ratio_colour,
        "geomean": geomean,
    })
}

/// The checked-in table is what core's functions write today; a change to core's rules
/// fails here until the table is rewritten (`WASMETER_BLESS=1`), and then the page's test
/// until its formatter follows.
#[test]
fn the_page_formats_numbers_by_cores_rules() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/test/fixtures/format-cases.json");
    let fresh = serde_json::to_string_pretty(&table()).unwrap() + "\n";
    if std::env::var_os("WASMETER_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == fresh,
        "{} is not what core's formatters write; rerun with WASMETER_BLESS=1 and make the \
         page's format.ts follow",
        path.display()
    );
}
