//! The lifecycle suite in core: its manifest, the generated modules as real engines see
//! them, the engines' life-cycle operations, the cell driver, and plans that leave out the
//! runtimes it does not apply to.

use std::path::Path;
use wasmeter_core::config::Config;
use wasmeter_core::lifecycle::modules::{ANSWER, HOST_PAGE, WASM_PAGE};
use wasmeter_core::lifecycle::{Driver, Fill, LifecycleModule, ModuleSpec, Source, engine};
use wasmeter_core::runner::{Plan, RunRequest};
use wasmeter_core::runtime::{Failure, Metric, Phase, PhaseValue};
use wasmeter_core::suite::{Suite, SuiteKind};

fn suite(name: &str) -> Suite {
    Suite::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../suites")
            .join(name),
    )
    .unwrap()
}

#[test]
fn the_suite_lists_hello_and_every_heap_dense_and_sparse() {
    let s = suite("lifecycle");
    assert_eq!(s.kind, SuiteKind::Lifecycle);
    let names = s.test_names();
    assert_eq!(names[0], "hello");
    for size in ["64k", "256k", "1m", "4m", "16m"] {
        for fill in ["dense", "sparse"] {
            let name = format!("heap-{size}-{fill}");
            let t = s.test(&name).unwrap();
            let m = t.module().unwrap();
            assert_eq!(m.name(), name);
            assert_eq!((t.wasm(), t.http()), (None, None));
        }
    }
    assert_eq!(names.len(), 11);
    assert!(s.tests.iter().all(|t| !t.description.is_empty()));
}

/// Every generated module validates, and an instance's memory holds exactly the pattern:
/// the right size, every host page non-zero when dense, one in eight when sparse.
#[test]
fn generated_modules_are_valid_and_hold_their_heaps() {
    // No copy-on-write image: wasmtime writes it to a memfd and seals it, and the sealing
    // failed once in CI ("cannot add seals to the memfd": the kernel refuses a write seal
    // while it finds the pages still referenced, here with other tests loading both cores).
    // What is checked here is the heap's content, the same either way.
    let mut config = wasmtime::Config::new();
    config.memory_init_cow(false);
    let engine = wasmtime::Engine::new(&config).unwrap();
    for t in &suite("lifecycle").tests {
        let spec = t.module().unwrap();
        let wasm = spec.wasm();
        wasmtime::Module::validate(&engine, &wasm).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let module = wasmtime::Module::new(&engine, &wasm).unwrap();
        assert!(
            module.imports().next().is_none(),
            "{}: imports nothing",
            t.name
        );
        let mut store = wasmtime::Store::new(&engine, ());
        let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        let hello = instance
            .get_typed_func::<(), i32>(&mut store, "hello")
            .unwrap();
        assert_eq!(hello.call(&mut store, ()).unwrap(), ANSWER);
        let Some(memory) = instance.get_memory(&mut store, "memory") else {
            assert_eq!(spec, ModuleSpec::Hello);
            continue;
        };
        let data = memory.data(&store);
        assert_eq!(data.len() as u64, spec.heap_bytes(), "{}", t.name);
        assert_eq!(data.len() as u64 % WASM_PAGE, 0);
        let mut nonzero_pages = 0;
        for (i, page) in data.chunks(HOST_PAGE as usize).enumerate() {
            let nonzero = page.iter().all(|b| *b != 0);
            let zero = page.iter().all(|b| *b == 0);
            match spec.fill() {
                Some(Fill::Dense) => assert!(nonzero, "{}: page {i} has zero bytes", t.name),
                Some(Fill::Sparse) if i % 8 == 0 => assert!(nonzero, "{}: page {i}", t.name),
                _ => assert!(zero, "{}: page {i} should be zero", t.name),
            }
            nonzero_pages += usize::from(nonzero);
            let addr = i as u64 * HOST_PAGE + 17;
            assert_eq!(data[addr as usize], spec.expected_byte(addr));
        }
        let pages = (spec.heap_bytes() / HOST_PAGE) as usize;
        let want = match spec.fill() {
            Some(Fill::Sparse) => pages.div_ceil(8),
            _ => pages,
        };
        assert_eq!(nonzero_pages, want, "{}", t.name);
    }
}

/// The engine operations on both engines: batches create, call, and drop what they say.
#[test]
fn engines_go_through_the_life_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let heap = ModuleSpec::parse("heap-256k-sparse").unwrap();
    for id in [
        "wasmtime-pooling",
        "wasmtime-pooling-nocow",
        "wasmtime",
        "wasmer-singlepass",
    ] {
        let mut e = engine(id).unwrap();
        let wasm = heap.wasm();
        let path = dir.path().join(format!("{id}.cwasm"));
        e.precompile(&wasm, &path).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 0);
        assert!(e.load(&path, 3).unwrap().as_nanos() > 0);
        assert!(e.compile(&wasm, 2).unwrap().as_nanos() > 0);
        e.prepare(Source::Precompiled(&path)).unwrap();
        e.instantiate(5).unwrap();
        assert_eq!(e.peek(0).unwrap(), heap.expected_byte(0));
        assert_ne!(e.peek(0).unwrap(), 0);
        assert_eq!(
            e.peek(HOST_PAGE as u32).unwrap(),
            0,
            "{id}: page 1 of a sparse heap"
        );
        assert_eq!(
            e.peek(8 * HOST_PAGE as u32 + 5).unwrap(),
            heap.expected_byte(8 * HOST_PAGE + 5)
        );
        e.call(1000).unwrap();
        assert_eq!(e.teardown().1, 5, "{id}");
        assert_eq!(e.teardown().1, 0, "{id}");
        assert!(e.call(1).is_err(), "{id}: no live instance to call");
        e.cycle(10).unwrap();

        e.prepare(Source::Wasm(&ModuleSpec::Hello.wasm())).unwrap();
        e.instantiate(1).unwrap();
        assert!(e.peek(0).is_err(), "{id}: hello has no memory");
        e.teardown();
    }
    assert!(matches!(engine("native"), Err(Failure::Unavailable(_))));

    // The interpreter: everything but a precompiled format.
    for id in ["wasmi", "wasmi-lazy"] {
        let mut e = engine(id).unwrap();
        assert!(!e.precompiles());
        let path = dir.path().join(format!("{id}.cwasm"));
        let wasm = heap.wasm();
        let e2 = e.precompile(&wasm, &path).unwrap_err();
        assert!(
            e2.to_string().contains("no precompiled module format"),
            "{e2}"
        );
        assert!(e.compile(&wasm, 2).unwrap().as_nanos() > 0);
        e.prepare(Source::Wasm(&wasm)).unwrap();
        e.instantiate(3).unwrap();
        assert_eq!(e.peek(0).unwrap(), heap.expected_byte(0), "{id}");
        assert_eq!(e.peek(HOST_PAGE as u32).unwrap(), 0, "{id}");
        e.call(100).unwrap();
        assert_eq!(e.teardown().1, 3, "{id}");
        e.cycle(10).unwrap();
    }
    assert!(matches!(engine("wasm3"), Err(Failure::Unavailable(_))));
}

/// A module file as a real program is: `n` functions with bodies worth compiling, WASI
/// function imports, a 2-page memory with data, a `_start` that calls the imports.
fn program_module(n: u32) -> Vec<u8> {
    use wasm_encoder::{
        CodeSection, ConstExpr, DataSection, EntityType, ExportKind, ExportSection, Function,
        FunctionSection, ImportSection, MemorySection, MemoryType, Module, TypeSection, ValType,
    };
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], [ValType::I32]); // 0: proc_exit-like / worker
    types.ty().function([], []); // 1: _start
    let mut imports = ImportSection::new();
    imports.import(
        "wasi_snapshot_preview1",
        "sched_yield",
        EntityType::Function(0),
    );
    imports.import(
        "wasi_snapshot_preview1",
        "proc_exit",
        EntityType::Function(0),
    );
    let mut functions = FunctionSection::new();
    let mut code = CodeSection::new();
    for i in 0..n {
        functions.function(0);
        let mut f = Function::new([(2, ValType::I32)]);
        let mut ins = f.instructions();
        for k in 0..24 {
            ins.local_get(0)
                .i32_const(i as i32 * 31 + k)
                .i32_mul()
                .local_get(1)
                .i32_xor()
                .local_set(1);
        }
        ins.local_get(1).end();
        code.function(&f);
    }
    functions.function(1);
    let mut start = Function::new([]);
    start
        .instructions()
        .i32_const(0)
        .call(0)
        .call(1)
        .drop()
        .end();
    code.function(&start);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType {
        minimum: 2,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    let mut exports = ExportSection::new();
    exports.export("_start", ExportKind::Func, n + 2);
    exports.export("memory", ExportKind::Memory, 0);
    let mut data = DataSection::new();
    data.active(
        0,
        &ConstExpr::i32_const(1024),
        b"hello from a data segment".to_vec(),
    );
    let mut module = Module::new();
    module
        .section(&types)
        .section(&imports)
        .section(&functions)
        .section(&memories)
        .section(&exports)
        .section(&code)
        .section(&data);
    module.finish()
}

/// A module file with WASI imports through the driver on every kind of lifecycle engine:
/// compile, load where there is a precompiled format, instantiate with the imports as
/// stubs, no call; lazy translation starts sooner than eager, and a fresh process's first
/// instantiation starts from the module for the interpreter.
#[test]
fn module_files_go_through_compile_load_and_instantiate() {
    let dir = tempfile::tempdir().unwrap();
    let wasm = dir.path().join("program.wasm");
    std::fs::write(&wasm, program_module(2000)).unwrap();
    let module = LifecycleModule::File {
        wasm: wasm.clone(),
        build_error: None,
    };
    let mut compile = std::collections::HashMap::new();
    for id in [
        "wasmtime",
        "wasmtime-serial",
        "wasmtime-pooling",
        "wasmer-singlepass",
        "wasmi",
        "wasmi-lazy",
    ] {
        let scratch = dir.path().join(id);
        std::fs::create_dir(&scratch).unwrap();
        let mut d =
            Driver::new(id, &module, &scratch, 4 << 30).unwrap_or_else(|e| panic!("{id}: {e}"));
        let v = d.sample().unwrap();
        let interpreter = id.starts_with("wasmi");
        assert!(
            v.iter().all(|v| v.phase != Phase::Call),
            "{id}: nothing is called: {v:?}"
        );
        assert_eq!(
            v.iter().any(|v| v.phase == Phase::Load),
            !interpreter,
            "{id}: {v:?}"
        );
        assert_eq!(v.len(), if interpreter { 5 } else { 6 }, "{id}: {v:?}");
        assert!(get(&v, Phase::Instantiate, Metric::WallNs) > 0.0);
        assert!(get(&v, Phase::Instantiate, Metric::InstancesPerSec) > 0.0);
        compile.insert(id, get(&v, Phase::Compile, Metric::WallNs));
        let start = d.start_from();
        assert_eq!(
            start.extension().unwrap(),
            if interpreter { "wasm" } else { "cwasm" },
            "{id}"
        );
        let first = wasmeter_core::lifecycle::first_in_process(id, start, false).unwrap();
        assert_eq!(first.len(), 1, "{id}: {first:?}");
        assert!(get(&first, Phase::FirstInstantiate, Metric::WallNs) > 0.0);
    }
    // 2,000 functions: eager translation does them all, lazy none.
    assert!(
        compile["wasmi-lazy"] * 3.0 < compile["wasmi"],
        "lazy {} ns vs eager {} ns",
        compile["wasmi-lazy"],
        compile["wasmi"]
    );

    // A module the build script could not make, a missing file, a malformed one: each
    // fails its own cell, naming it.
    let unbuilt = LifecycleModule::File {
        wasm: wasm.clone(),
        build_error: Some("clang: no setjmp.h".into()),
    };
    let e = Driver::new("wasmtime", &unbuilt, dir.path(), 4 << 30)
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "error: not built: clang: no setjmp.h");
    let gone = LifecycleModule::File {
        wasm: dir.path().join("gone.wasm"),
        build_error: None,
    };
    let e = Driver::new("wasmi", &gone, dir.path(), 4 << 30)
        .err()
        .unwrap();
    assert!(
        matches!(&e, Failure::MissingFile(f) if f.ends_with("gone.wasm")),
        "{e}"
    );
    std::fs::write(&wasm, b"\0asm\x01\0\0\0\x01\xff").unwrap();
    let e = Driver::new("wasmtime", &module, dir.path(), 4 << 30)
        .err()
        .unwrap();
    assert!(e.to_string().contains("program.wasm"), "{e}");
}

fn get(values: &[PhaseValue], phase: Phase, metric: Metric) -> f64 {
    values
        .iter()
        .find(|v| v.phase == phase && v.metric == metric)
        .unwrap_or_else(|| panic!("no {phase:?} {metric:?} in {values:?}"))
        .value
}

/// The driver's samples: every in-process measurement, with values that make sense
/// against each other (copying 4 MiB of data costs more than an empty instance).
#[test]
fn driver_samples_every_measurement() {
    let dir = tempfile::tempdir().unwrap();
    let id = "wasmtime-pooling-nocow";
    let cap = 4 << 30;
    let hello = LifecycleModule::Generated(ModuleSpec::Hello);
    let mut hello = Driver::new(id, &hello, dir.path(), cap).unwrap();
    let dense = LifecycleModule::Generated(ModuleSpec::parse("heap-4m-dense").unwrap());
    let mut heap = Driver::new(id, &dense, dir.path(), cap).unwrap();
    let (h, d) = (hello.sample().unwrap(), heap.sample().unwrap());
    for v in [&h, &d] {
        assert_eq!(v.len(), 7, "{v:?}");
        let inst = get(v, Phase::Instantiate, Metric::WallNs);
        let call = get(v, Phase::Call, Metric::WallNs);
        assert!(
            call > 0.0 && call < inst,
            "call {call} ns, instantiate {inst} ns"
        );
        assert!(get(v, Phase::Compile, Metric::WallNs) > 0.0);
        assert!(get(v, Phase::Load, Metric::WallNs) > 0.0);
        assert!(get(v, Phase::Teardown, Metric::WallNs) > 0.0);
        assert!(get(v, Phase::Instantiate, Metric::InstancesPerSec) > 0.0);
    }
    let copy = get(&d, Phase::Instantiate, Metric::WallNs);
    let empty = get(&h, Phase::Instantiate, Metric::WallNs);
    assert!(
        copy > 10.0 * empty,
        "4 MiB copied: {copy} ns vs hello {empty} ns"
    );
    // Without copy-on-write every data page becomes resident in every instance.
    let rss = get(&d, Phase::Instantiate, Metric::RssPerInstanceBytes);
    assert!(
        rss > 3.5 * (1 << 20) as f64,
        "{rss} bytes per 4 MiB instance"
    );

    let first = wasmeter_core::lifecycle::first_in_process(id, heap.start_from(), true).unwrap();
    assert!(get(&first, Phase::FirstInstantiate, Metric::WallNs) > 0.0);
    assert!(get(&first, Phase::FirstCall, Metric::WallNs) > 0.0);
}

fn plan(suite_name: &str, runtimes: &[&str]) -> Result<Plan, String> {
    let mut req = RunRequest::new(suite(suite_name));
    req.runtimes = runtimes.iter().map(|s| s.to_string()).collect();
    req.config = Config::default();
    req.skip_missing = true;
    Plan::new(req).map_err(|e| e.to_string())
}

#[test]
fn plans_leave_out_what_a_suite_does_not_apply_to() {
    // Lifecycle: native and CLIs are noted as not applicable, never planned.
    let p = plan("lifecycle", &[]).unwrap();
    assert!(
        p.runtimes
            .iter()
            .all(|r| r.kind == wasmeter_core::runtime::RuntimeKind::Embedded)
    );
    assert!(p.runtimes.iter().any(|r| r.id == "wasmtime-pooling-nocow"));
    assert!(
        p.not_applicable
            .iter()
            .any(|n| n.runtime == "native" && n.test.is_none() && n.why.contains("in-process"))
    );
    let p = plan("lifecycle", &["native", "wasmtime-pooling"]).unwrap();
    assert_eq!(p.runtimes.len(), 1);
    assert_eq!(p.not_applicable.len(), 1);
    let e = plan("lifecycle", &["native"]).unwrap_err();
    assert!(
        e.contains("no selected runtime can run the lifecycle suite"),
        "{e}"
    );
    // Every embedded engine but wasm3, whose module belongs to one runtime, and the
    // wasi:http host, which serves requests; each says so.
    let p = plan("lifecycle", &["embedded"]).unwrap();
    assert!(p.runtimes.len() >= 10);
    assert!(p.runtimes.iter().any(|r| r.id == "wasmi-lazy"));
    let skipped: Vec<&str> = p
        .not_applicable
        .iter()
        .map(|n| n.runtime.as_str())
        .collect();
    assert_eq!(
        skipped,
        ["wasmtime-http", "wasm3"],
        "{:?}",
        p.not_applicable
    );
    assert!(
        p.not_applicable
            .iter()
            .all(|n| if n.runtime == "wasmtime-http" {
                n.why.contains("gateway and servers suites only")
            } else {
                n.why.contains("belongs to the one runtime")
            })
    );

    // Compute: the lifecycle-only configuration is not offered by default or by a group,
    // and is noted when named.
    for sel in [&[][..], &["embedded"][..]] {
        let p = plan("compute", sel).unwrap();
        assert!(!p.runtimes.iter().any(|r| {
            ["wasmtime-pooling-nocow", "wasmtime-serial", "wasmi-lazy"].contains(&r.id.as_str())
        }));
        assert!(p.not_applicable.is_empty(), "{:?}", p.not_applicable);
    }
    let p = plan("compute", &["wasmtime", "wasmtime-pooling-nocow"]).unwrap();
    assert_eq!(p.runtimes.len(), 1);
    assert_eq!(p.not_applicable[0].runtime, "wasmtime-pooling-nocow");
}
