//! One lifecycle cell: an engine configuration and a module (generated, or a file), taken through every
//! measurement once per iteration (interleaved, so slow drift of the machine touches every
//! measurement alike). Batch sizes are calibrated once, before the first iteration.

use super::harness::{SAMPLE_TARGET, calibrate, per_op_ns, resident_bytes, trim_heap};
use super::{Engine, LIVE_MAX, LifecycleModule, ModuleSpec, Source, engine, modules::HOST_PAGE};
use crate::runtime::{Failure, Metric, Phase, PhaseValue};
use std::path::{Path, PathBuf};

/// Memory a batch of live instances (or of compiled modules) may take if every page of
/// their heaps became resident, as without copy-on-write: 16 MiB heaps are measured 32 at a
/// time, not 1,000 (16 GiB). Never more than a quarter of the cell's memory cap.
pub const LIVE_BUDGET: u64 = 512 << 20;

/// Operations per sample of each measurement.
#[derive(Debug, Clone, Copy)]
struct Batches {
    compile: u64,
    load: u64,
    instantiate: u64,
    call: u64,
    cycle: u64,
}

/// A lifecycle cell being measured.
pub struct Driver {
    engine: Box<dyn Engine>,
    wasm: Vec<u8>,
    /// The generated module (with a trivial export to call), or none for a module file.
    generated: Option<ModuleSpec>,
    /// What a fresh process starts from: the precompiled module, or for an engine without
    /// that format the module itself.
    start_from: PathBuf,
    batches: Batches,
    live: u64,
}

impl Driver {
    /// Builds the engine of `runtime_id`, reads or generates the module, writes its
    /// precompiled form (or the module, for an interpreter) into `scratch`, checks that an
    /// instance is made (and, for a generated module, answers and holds the right heap), and
    /// sizes the batches so that they fit a quarter of `memory_cap` (bytes).
    pub fn new(
        runtime_id: &str,
        module: &LifecycleModule,
        scratch: &Path,
        memory_cap: u64,
    ) -> Result<Driver, Failure> {
        let (name, wasm, heap_bytes, generated) = match module {
            LifecycleModule::Generated(spec) => {
                (spec.name(), spec.wasm(), spec.heap_bytes(), Some(*spec))
            }
            LifecycleModule::File {
                build_error: Some(e),
                ..
            } => return Err(Failure::Other(format!("not built: {e}"))),
            LifecycleModule::File { wasm, .. } => {
                let f = super::file::read(wasm)?;
                let stem = wasm.file_stem().unwrap_or_default().to_string_lossy();
                (stem.into_owned(), f.wasm, f.heap_bytes, None)
            }
        };
        let mut engine = engine(runtime_id)?;
        let start_from = if engine.precompiles() {
            let path = scratch.join(format!("{name}.{runtime_id}.cwasm"));
            engine.precompile(&wasm, &path)?;
            path
        } else {
            let path = scratch.join(format!("{name}.wasm"));
            std::fs::write(&path, &wasm)
                .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))?;
            path
        };
        engine.prepare(Source::Wasm(&wasm))?;
        engine.instantiate(1)?;
        if let Some(spec) = generated {
            engine.call(1)?;
            check_heap(engine.as_mut(), spec)?;
        }
        engine.teardown();

        let budget = LIVE_BUDGET.min(memory_cap / 4);
        let live = (budget / heap_bytes.max(1)).clamp(1, LIVE_MAX);
        let modules = (budget / (2 * wasm.len() as u64 + (64 << 10))).clamp(1, 10_000);
        let e = engine.as_mut();
        let compile = calibrate(SAMPLE_TARGET, modules, |n| e.compile(&wasm, n))?;
        let load = if e.precompiles() {
            calibrate(SAMPLE_TARGET, modules, |n| e.load(&start_from, n))?
        } else {
            0
        };
        let instantiate = calibrate(SAMPLE_TARGET, live, |n| {
            let d = e.instantiate(n)?;
            e.teardown();
            Ok(d)
        })?;
        let call = if generated.is_some() {
            e.instantiate(1)?;
            let call = calibrate(SAMPLE_TARGET, u64::MAX >> 8, |n| e.call(n));
            e.teardown();
            call?
        } else {
            0
        };
        let cycle = calibrate(SAMPLE_TARGET, u64::MAX >> 8, |n| e.cycle(n))?;
        Ok(Driver {
            engine,
            wasm,
            generated,
            start_from,
            batches: Batches {
                compile,
                load,
                instantiate,
                call,
                cycle,
            },
            live,
        })
    }

    /// What a fresh process starts from (the precompiled module, or the module for an
    /// engine without that format).
    pub fn start_from(&self) -> &Path {
        &self.start_from
    }

    /// One sample of every measurement this process can take: per-operation wall time of
    /// compile, load (engines with a precompiled format), instantiate, teardown and call
    /// (generated modules); instantiate-and-drop round trips per second; resident memory
    /// per live instance.
    pub fn sample(&mut self) -> Result<Vec<PhaseValue>, Failure> {
        let b = self.batches;
        let e = self.engine.as_mut();
        let mut v = Vec::with_capacity(7);

        let d = e.compile(&self.wasm, b.compile)?;
        v.push(PhaseValue::new(
            Phase::Compile,
            Metric::WallNs,
            per_op_ns(d, b.compile),
        ));

        if e.precompiles() {
            let d = e.load(&self.start_from, b.load)?;
            v.push(PhaseValue::new(
                Phase::Load,
                Metric::WallNs,
                per_op_ns(d, b.load),
            ));
        }

        let d = e.instantiate(b.instantiate)?;
        let (td, n) = e.teardown();
        v.push(PhaseValue::new(
            Phase::Instantiate,
            Metric::WallNs,
            per_op_ns(d, b.instantiate),
        ));
        v.push(PhaseValue::new(
            Phase::Teardown,
            Metric::WallNs,
            per_op_ns(td, n),
        ));

        if self.generated.is_some() {
            e.instantiate(1)?;
            let d = e.call(b.call);
            e.teardown();
            v.push(PhaseValue::new(
                Phase::Call,
                Metric::WallNs,
                per_op_ns(d?, b.call),
            ));
        }

        let d = e.cycle(b.cycle)?;
        v.push(PhaseValue::new(
            Phase::Instantiate,
            Metric::InstancesPerSec,
            b.cycle as f64 / d.as_secs_f64().max(1e-12),
        ));

        trim_heap();
        let before = resident_bytes();
        let made = e.instantiate(self.live);
        let after = resident_bytes();
        e.teardown();
        made?;
        if let (Some(a), Some(b)) = (before, after) {
            v.push(PhaseValue::new(
                Phase::Instantiate,
                Metric::RssPerInstanceBytes,
                (b as f64 - a as f64) / self.live as f64,
            ));
        }
        Ok(v)
    }
}

/// Reads the first and last byte of every host page of a heap module's memory through the
/// guest and compares them with what the module's data segments put there.
fn check_heap(engine: &mut dyn Engine, module: ModuleSpec) -> Result<(), Failure> {
    let bytes = module.heap_bytes();
    let mut page = 0;
    while page * HOST_PAGE < bytes {
        for addr in [page * HOST_PAGE, page * HOST_PAGE + HOST_PAGE - 1] {
            let (got, want) = (engine.peek(addr as u32)?, module.expected_byte(addr));
            if got != want {
                return Err(Failure::WrongOutput(format!(
                    "{}: memory byte {addr} is {got} after instantiation, expected {want}",
                    module.name()
                )));
            }
        }
        page += 1;
    }
    Ok(())
}

/// The first instantiation and (for a generated module, `call`) the first call of this
/// process, on the module at `path` (precompiled, or the module itself for an engine
/// without that format): what a fresh process pays once (lazy set-up of the runtime, a
/// module's memory image made on first use) on top of the steady state.
pub fn first_in_process(
    runtime_id: &str,
    path: &Path,
    call: bool,
) -> Result<Vec<PhaseValue>, Failure> {
    let mut e = engine(runtime_id)?;
    if e.precompiles() {
        e.prepare(Source::Precompiled(path))?;
    } else {
        e.prepare(Source::Wasm(&super::file::read(path)?.wasm))?;
    }
    let inst = e.instantiate(1)?;
    let mut v = vec![PhaseValue::new(
        Phase::FirstInstantiate,
        Metric::WallNs,
        per_op_ns(inst, 1),
    )];
    if call {
        let d = e.call(1);
        e.teardown();
        v.push(PhaseValue::new(
            Phase::FirstCall,
            Metric::WallNs,
            per_op_ns(d?, 1),
        ));
    }
    Ok(v)
}
