//! Saved runs load back exactly as written, recover when unfinished, and name broken files.

use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Failure, Metric, Phase, known_runtimes};
use wasmeter_core::store::*;
use wasmeter_core::suite::Size;

fn meta(id: &str, pid: u32) -> RunMeta {
    RunMeta {
        schema_version: SCHEMA_VERSION,
        id: id.into(),
        label: Some("round trip".into()),
        suite: "compute".into(),
        suite_kind: Default::default(),
        tests: vec![TestRecord {
            name: "sha256".into(),
            source_hash: "ab".repeat(32),
            module_bytes: None,
            native_bytes: None,
            as_given: None,
        }],
        not_applicable: Vec::new(),
        runtimes: known_runtimes(&wasmeter_core::config::Config::default())
            .into_iter()
            .take(2)
            .collect(),
        settings: RunSettings {
            warmup: 1,
            ..RunSettings::new(3, 1)
        },
        machine: Machine::detect(),
        wasmeter_version: "test".into(),
        started_unix: 1_795_308_245.5,
        finished_unix: None,
        status: RunStatus::Running,
        pid,
        files: Default::default(),
    }
}

fn rows() -> Vec<MeasurementRow> {
    (0..4)
        .flat_map(|i| {
            [
                (Phase::Compile, Metric::WallNs),
                (Phase::Execute, Metric::SelfNs),
            ]
            .map(|(phase, metric)| MeasurementRow {
                runtime: "wasmtime".into(),
                test: "sha256".into(),
                phase,
                invocation: 0,
                iteration: i,
                warmup: i == 0,
                metric,
                value: 1234.5 * f64::from(i + 1),
            })
        })
        .collect()
}

fn fill(w: &mut RunWriter) {
    w.measurements(&rows()).unwrap();
    w.sample(&SampleRow {
        t_ms: 100.0,
        runtime: "wasmtime".into(),
        test: "sha256".into(),
        cpu_pct: 99.5,
        rss_bytes: 12 << 20,
    })
    .unwrap();
    w.cell(&CellRecord {
        runtime: "wasmtime".into(),
        test: "sha256".into(),
        invocation: 0,
        failure: None,
        wall_ms: 12.5,
        other_cores: None,
        notes: Vec::new(),
        host: None,
        started_ms: None,
    })
    .unwrap();
    w.cell(&CellRecord {
        runtime: "native".into(),
        test: "sha256".into(),
        invocation: 0,
        failure: Some(Failure::WrongOutput("line 1: expected 'a', got 'b'".into())),
        wall_ms: 3.0,
        other_cores: None,
        notes: Vec::new(),
        host: None,
        started_ms: None,
    })
    .unwrap();
}

#[test]
fn finished_run_round_trips_through_parquet() {
    let tmp = tempfile::tempdir().unwrap();
    let m = meta("20261122-004405-compute-0001", std::process::id());
    let mut w = RunWriter::create(tmp.path(), m.clone()).unwrap();
    fill(&mut w);
    let dir = w.finish(RunStatus::Complete).unwrap();
    assert!(dir.join("measurements.parquet").is_file());
    assert!(!dir.join("measurements.jsonl").exists());
    let run = load_run(&dir).unwrap();
    assert_eq!(run.measurements, rows());
    assert_eq!(run.samples.len(), 1);
    assert_eq!(run.samples[0].cpu_pct, 99.5);
    assert_eq!(run.cells.len(), 2);
    assert_eq!(
        run.cells[1].failure,
        Some(Failure::WrongOutput("line 1: expected 'a', got 'b'".into()))
    );
    assert_eq!(run.meta.status, RunStatus::Complete);
    assert!(run.meta.finished_unix.is_some());
    let mut expected_meta = m;
    expected_meta.status = RunStatus::Complete;
    expected_meta.finished_unix = run.meta.finished_unix;
    // Each Parquet file's digest, as on disk.
    for name in ["measurements.parquet", "samples.parquet"] {
        let d = digest(&dir.join(name)).unwrap();
        assert_eq!(d.sha256.len(), 64);
        expected_meta.files.insert(name.to_string(), d);
    }
    assert_eq!(run.meta, expected_meta);
    // Loading twice gives the same thing.
    assert_eq!(load_run(&dir).unwrap(), run);
}

#[test]
fn a_run_whose_writer_died_is_recovered_as_interrupted() {
    let tmp = tempfile::tempdir().unwrap();
    let dead_pid = 0x3fff_fff0;
    let mut w =
        RunWriter::create(tmp.path(), meta("20261122-004405-compute-0002", dead_pid)).unwrap();
    fill(&mut w);
    drop(w);
    // A crash mid-write leaves half a line at the end: dropped, the rest kept.
    let mj = tmp
        .path()
        .join("20261122-004405-compute-0002/measurements.jsonl");
    let mut text = std::fs::read_to_string(&mj).unwrap();
    text.push_str("{\"runtime\":\"wasm");
    std::fs::write(&mj, text).unwrap();
    let run = load_run(&tmp.path().join("20261122-004405-compute-0002")).unwrap();
    assert_eq!(run.meta.status, RunStatus::Interrupted);
    assert_eq!(run.measurements, rows());
    let listed = list_runs(tmp.path()).unwrap();
    assert_eq!(
        listed[0].meta.as_ref().unwrap().status,
        RunStatus::Interrupted
    );
}

#[test]
fn corrupt_files_are_named_and_other_runs_still_list() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, id) in [
        "20261122-000001-compute-aaaa",
        "20261122-000002-compute-bbbb",
    ]
    .iter()
    .enumerate()
    {
        let mut w = RunWriter::create(tmp.path(), meta(id, std::process::id())).unwrap();
        fill(&mut w);
        w.finish(RunStatus::Complete).unwrap();
        let _ = i;
    }
    let bad = tmp.path().join("20261122-000001-compute-aaaa");
    std::fs::write(bad.join("meta.json"), "{ not json").unwrap();
    let e = load_run(&bad).unwrap_err().to_string();
    assert!(
        e.contains("20261122-000001-compute-aaaa/meta.json: not valid run metadata"),
        "{e}"
    );
    let listed = list_runs(tmp.path()).unwrap();
    assert_eq!(listed.len(), 2);
    assert!(listed[0].meta.is_err());
    assert!(listed[1].meta.is_ok());

    let other = tmp.path().join("20261122-000002-compute-bbbb");
    let pq = other.join("measurements.parquet");
    let bytes = std::fs::read(&pq).unwrap();
    std::fs::write(&pq, &bytes[..bytes.len() / 2]).unwrap();
    let e = load_run(&other).unwrap_err().to_string();
    assert!(e.contains("measurements.parquet"), "{e}");

    assert!(
        e.contains(" bytes, ") && e.contains("when it was saved"),
        "{e}"
    );

    // Same size, one byte changed: refused by its digest before polars reads it.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    std::fs::write(&pq, &flipped).unwrap();
    let e = load_run(&other).unwrap_err().to_string();
    assert!(
        e.contains("20261122-000002-compute-bbbb/measurements.parquet: damaged: its SHA-256"),
        "{e}"
    );

    // A run saved before digests: a file on which polars' reader panics rather than
    // failing (found by the saved_run fuzz target) is an error naming the file, and the
    // process goes on.
    let meta_path = other.join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&meta_path).unwrap()).unwrap();
    assert!(
        meta["files"]["samples.parquet"]["sha256"].is_string(),
        "{meta}"
    );
    meta.as_object_mut().unwrap().remove("files");
    std::fs::write(&meta_path, serde_json::to_vec(&meta).unwrap()).unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/polars-panics.parquet"
        ),
        &pq,
    )
    .unwrap();
    let e = load_run(&other).unwrap_err().to_string();
    assert!(
        e.contains("20261122-000002-compute-bbbb/measurements.parquet: ")
            && e.contains("unreadable Parquet"),
        "{e}"
    );

    std::fs::write(&pq, &bytes).unwrap();
    assert!(
        load_run(&other).is_ok(),
        "the original bytes load without digests too"
    );
    assert_eq!(resolve_run(tmp.path(), "20261122-000002").unwrap(), other);
    assert!(matches!(
        resolve_run(tmp.path(), "20261122"),
        Err(StoreError::Ambiguous { .. })
    ));
    assert_eq!(resolve_run(tmp.path(), "latest").unwrap(), other);
}

#[test]
fn resume_keeps_ended_cells_and_drops_the_one_in_flight() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "20261122-004405-compute-0003";
    let mut w = RunWriter::create(tmp.path(), meta(id, 0x3fff_fff0)).unwrap();
    fill(&mut w); // wasmtime × sha256 ended ok, native × sha256 ended failed
    // A cell in flight when the process died: rows but no cell record.
    w.measurements(&[MeasurementRow {
        runtime: "wasmer-cranelift".into(),
        test: "sha256".into(),
        phase: wasmeter_core::runtime::Phase::Execute,
        invocation: 0,
        iteration: 0,
        warmup: false,
        metric: Metric::SelfNs,
        value: 1.0,
    }])
    .unwrap();
    drop(w);
    let dir = tmp.path().join(id);
    assert!(RunWriter::resume(&tmp.path().join("nope")).is_err());
    let (w, done) = RunWriter::resume(&dir).unwrap();
    assert_eq!(done.invocations.len(), 2);
    assert!(
        done.invocations
            .contains(&("wasmtime".to_string(), "sha256".to_string(), 0))
    );
    // The failed cell runs no more invocations.
    assert_eq!(
        done.failed,
        std::collections::HashSet::from([("native".to_string(), "sha256".to_string())])
    );
    assert_eq!(w.meta().status, RunStatus::Running);
    w.finish(RunStatus::Complete).unwrap();
    let run = load_run(&dir).unwrap();
    assert_eq!(
        run.measurements,
        rows(),
        "ended cells intact, the cell in flight dropped"
    );
    assert_eq!(run.cells.len(), 2);
    assert_eq!(run.meta.status, RunStatus::Complete);
    // A complete run has nothing to resume.
    let e = RunWriter::resume(&dir).err().unwrap().to_string();
    assert!(e.contains("nothing to resume"), "{e}");
}

#[test]
fn resume_keeps_ended_invocations_of_a_cell_and_drops_the_one_in_flight() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "20261122-004405-compute-0004";
    let mut w = RunWriter::create(tmp.path(), meta(id, 0x3fff_fff0)).unwrap();
    let row = |invocation, value| MeasurementRow {
        runtime: "wasmtime".into(),
        test: "sha256".into(),
        phase: wasmeter_core::runtime::Phase::Execute,
        invocation,
        iteration: 0,
        warmup: false,
        metric: Metric::SelfNs,
        value,
    };
    // Invocation 0 ended, invocation 1 was in flight (rows, no record).
    w.measurements(&[row(0, 1.0)]).unwrap();
    w.cell(&CellRecord {
        runtime: "wasmtime".into(),
        test: "sha256".into(),
        invocation: 0,
        failure: None,
        wall_ms: 1.0,
        other_cores: None,
        notes: Vec::new(),
        host: None,
        started_ms: None,
    })
    .unwrap();
    w.measurements(&[row(1, 2.0)]).unwrap();
    drop(w);
    let dir = tmp.path().join(id);
    let (w, done) = RunWriter::resume(&dir).unwrap();
    assert_eq!(
        done.invocations,
        std::collections::HashSet::from([("wasmtime".to_string(), "sha256".to_string(), 0u32)])
    );
    assert!(done.failed.is_empty());
    w.finish(RunStatus::Complete).unwrap();
    let run = load_run(&dir).unwrap();
    assert_eq!(run.measurements, vec![row(0, 1.0)]);
}

/// A run's pair is saved as its plan decided it, and a run saved before `pair_of` was
/// recorded reads the same through `RunMeta::pair` (issue 61: four readers worked it out).
#[test]
fn the_pair_is_read_as_the_plan_decided_it() {
    let mut m = meta("20261206-000000-compute-pair", std::process::id());
    let ids: Vec<String> = m.runtimes.iter().map(|r| r.id.clone()).collect();
    assert!(m.pair().is_none());
    m.settings.pair = Some(ids.clone());
    m.settings.pair_of = Some(PairOf::Runtimes);
    m.settings.pair_mode = Some(PairMode::Alternate);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["settings"]["pair_of"], "runtimes");
    let back: RunMeta = serde_json::from_value(json.clone()).unwrap();
    let p = back.pair().unwrap();
    assert_eq!(
        (p.of, p.arms, p.mode),
        (PairOf::Runtimes, &ids[..], Some(PairMode::Alternate))
    );
    assert_eq!(p.cell(&ids[0], "sha256"), (ids[0].as_str(), "sha256"));
    assert!(p.both(&ids[0], &ids[1]) && !p.both(&ids[0], &ids[0]));
    // Saved before pair_of: the arms are runtimes because the run's runtimes name them all.
    let mut old = json;
    old["settings"].as_object_mut().unwrap().remove("pair_of");
    let old: RunMeta = serde_json::from_value(old).unwrap();
    assert_eq!(old.pair().unwrap().of, PairOf::Runtimes);
    // Test arms, saved before: tests.
    let mut t = old.clone();
    t.settings.pair = Some(vec!["sha256".into(), "crc32".into()]);
    let p = t.pair().unwrap();
    assert_eq!(p.of, PairOf::Tests);
    assert_eq!(p.cell("crc32", &ids[0]), (ids[0].as_str(), "crc32"));
    assert_eq!(p.arm_of(&ids[0], "crc32"), ("crc32", ids[0].as_str()));
}

/// Runs saved before the lifecycle suite existed load as command runs, their files are
/// byte-for-byte what a command run still writes, and every phase and metric name (old and
/// new) reads back as itself through Parquet.
#[test]
fn old_runs_load_and_lifecycle_rows_round_trip() {
    let m = meta("20261101-000000-compute-old1", std::process::id());
    let json = serde_json::to_value(&m).unwrap();
    assert!(json.get("suite_kind").is_none() && json.get("not_applicable").is_none());
    let mut old = json.clone();
    old.as_object_mut().unwrap().remove("suite_kind");
    let back: RunMeta = serde_json::from_value(old).unwrap();
    assert_eq!(back.suite_kind, wasmeter_core::suite::SuiteKind::Command);
    assert!(back.not_applicable.is_empty());

    let dir = tempfile::tempdir().unwrap();
    let mut lm = meta("20261122-000000-lifecycle-new1", std::process::id());
    lm.suite = "lifecycle".into();
    lm.suite_kind = wasmeter_core::suite::SuiteKind::Lifecycle;
    lm.not_applicable = vec![NotApplicable {
        runtime: "native".into(),
        test: None,
        why: "no engine".into(),
    }];
    let mut w = RunWriter::create(dir.path(), lm.clone()).unwrap();
    let rows: Vec<MeasurementRow> = Phase::ALL
        .iter()
        .chain(&[Phase::Throughput(1), Phase::Throughput(400)])
        .flat_map(|p| Metric::ALL.iter().map(move |m| (*p, *m)))
        .enumerate()
        .map(|(i, (phase, metric))| MeasurementRow {
            runtime: "wasmtime-pooling".into(),
            test: "heap-64k-sparse".into(),
            phase,
            invocation: 0,
            iteration: i as u32,
            warmup: false,
            metric,
            value: 12.375 + i as f64,
        })
        .collect();
    w.measurements(&rows).unwrap();
    let out = w.finish(RunStatus::Complete).unwrap();
    let run = load_run(&out).unwrap();
    assert_eq!(run.measurements, rows);
    assert_eq!(run.meta.suite_kind, lm.suite_kind);
    assert_eq!(run.meta.not_applicable, lm.not_applicable);
    for p in Phase::ALL.into_iter().chain([Phase::Throughput(50)]) {
        assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        assert_eq!(Phase::parse(p.as_str()), Some(p));
    }
    assert_eq!(Phase::Throughput(50).as_str(), "throughput_c50");
    // Only the canonical spelling parses, so names round-trip exactly.
    for bad in [
        "throughput_c0",
        "throughput_c050",
        "throughput_c",
        "throughput_cx",
    ] {
        assert_eq!(Phase::parse(bad), None, "{bad}");
    }
    for m in Metric::ALL {
        assert_eq!(serde_json::to_value(m).unwrap(), m.as_str());
        assert_eq!(Metric::parse(m.as_str()), Some(m));
    }
}

#[test]
fn errors_quoting_a_damaged_line_stay_on_one_line() {
    // Found by the saved_run fuzz target: a JSON string with a newline escape in it was
    // quoted back by the parser, and the error spilled over two lines.
    let tmp = tempfile::tempdir().unwrap();
    let w = RunWriter::create(tmp.path(), meta("20261122-000003-compute-cccc", 0)).unwrap();
    let dir = w.dir().to_path_buf();
    drop(w);
    std::fs::write(
        dir.join("measurements.jsonl"),
        "{\"runtime\":\"native\",\"test\":\"sha256\",\"phase\":\"execute\",\"iteration\":0,\
         \"warmup\":false,\"metric\":\"wall\\ns\",\"value\":1}\n{}\n",
    )
    .unwrap();
    let e = load_run(&dir).unwrap_err().to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("measurements.jsonl: line 1: unknown variant `wall\\ns`"),
        "{e}"
    );
}

/// A run's scope before it starts: its time from each cell's newest earlier run of the
/// suite on this machine (per iteration, scaled to the iterations planned); a cell never
/// run takes the median of those that were; runs of another machine or size are not used.
#[test]
fn a_run_is_estimated_from_earlier_runs_on_this_machine() {
    use wasmeter_core::runner::{Plan, RunChoices, RunRequest, scope};
    let tmp = tempfile::tempdir().unwrap();
    let suites = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites");
    let suite = wasmeter_core::suite::SuiteCatalog::discover(&suites)
        .unwrap()
        .get("compute")
        .unwrap()
        .clone();
    let choices: RunChoices = serde_json::from_value(serde_json::json!({
        "tests": ["sha256", "nbody"], "runtimes": ["native", "wasmtime"],
        "warmup": 1, "runs": 3, "invocations": 2, "order": "sequential"
    }))
    .unwrap();
    let plan = Plan::new(RunRequest::from_choices(suite, choices, Default::default())).unwrap();
    let here = Machine::detect().fingerprint;
    let none = scope(&plan, tmp.path(), &here);
    assert_eq!((none.cells, none.invocations, none.iterations), (4, 2, 4));
    assert_eq!((none.estimate_secs, none.known), (None, 0));
    assert!(
        none.describe().contains("no earlier run"),
        "{}",
        none.describe()
    );

    // An earlier run of 1 warm-up + 3 runs: native × sha256 took 0.4 s an invocation,
    // wasmtime × sha256 0.8 s, so 0.1 and 0.2 s an iteration.
    let save = |id: &str, cells: &[(&str, f64)], machine: Option<&str>, size: Size| {
        let mut m = meta(id, std::process::id());
        m.settings.size = size;
        if let Some(fp) = machine {
            m.machine.fingerprint = fp.into();
        }
        let mut w = RunWriter::create(tmp.path(), m).unwrap();
        for (rt, wall_ms) in cells {
            w.cell(&CellRecord {
                runtime: (*rt).into(),
                test: "sha256".into(),
                invocation: 0,
                failure: None,
                wall_ms: *wall_ms,
                other_cores: None,
                notes: Vec::new(),
                host: None,
                started_ms: None,
            })
            .unwrap();
        }
        w.finish(RunStatus::Complete).unwrap();
    };
    save(
        "20261122-004405-compute-0101",
        &[("native", 400.0), ("wasmtime", 800.0)],
        None,
        Size::Quick,
    );
    // Another machine's, and another size's, much slower: not used.
    save(
        "20261122-004406-compute-0102",
        &[("native", 9e6)],
        Some("elsewhere"),
        Size::Quick,
    );
    save(
        "20261122-004407-compute-0103",
        &[("native", 9e6)],
        None,
        Size::Full,
    );
    let s = scope(&plan, tmp.path(), &here);
    assert_eq!(s.known, 2);
    // sha256: 0.1 + 0.2; nbody never ran: the median of those, 0.2 each; × 4 iterations
    // × 2 invocations.
    let want = (0.1 + 0.2 + 0.2 + 0.2) * 4.0 * 2.0;
    assert!((s.estimate_secs.unwrap() - want).abs() < 1e-9, "{s:?}");
    assert!(
        s.describe()
            .ends_with("about 6 s (from earlier runs of 2 of them on this machine)"),
        "{}",
        s.describe()
    );
}
