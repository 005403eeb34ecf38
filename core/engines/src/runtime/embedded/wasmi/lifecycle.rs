//! wasmi through the life cycle: one `Engine` translating eagerly or lazily, the module
//! linked once (a module file's function imports as stubs that trap), a fresh `Store` per
//! instance. wasmi has no precompiled module format, so there is nothing to load: a fresh
//! process starts from the WebAssembly bytes.

use super::{WasmiTranslation, engine, other};
use crate::runtime::Failure;
use crate::runtime::suite_api::lifecycle::{
    CALL_EXPORT, Engine, Live, PEEK_EXPORT, Source, timed_batch, timed_calls,
};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use wasmi::{Error, ExternType, Instance, Linker, Module, Store};

/// A wasmi engine with the module it instantiates.
pub struct WasmiEngine {
    engine: wasmi::Engine,
    prepared: Option<(Module, Linker<()>)>,
    live: Live<(Store<()>, Instance)>,
}

impl WasmiEngine {
    /// The engine translating as `translation` says.
    pub fn new(translation: WasmiTranslation) -> WasmiEngine {
        WasmiEngine {
            engine: engine(translation),
            prepared: None,
            live: Live::new(),
        }
    }
}

/// The prepared module and its linker, or why there is none.
fn prepared(p: &Option<(Module, Linker<()>)>) -> Result<&(Module, Linker<()>), Failure> {
    p.as_ref()
        .ok_or_else(|| Failure::Other("no module prepared".into()))
}

/// A fresh store and an instance of `module` in it.
fn new_instance(
    engine: &wasmi::Engine,
    (module, linker): &(Module, Linker<()>),
) -> Result<(Store<()>, Instance), Failure> {
    let mut store = Store::new(engine, ());
    let instance = linker
        .instantiate_and_start(&mut store, module)
        .map_err(other)?;
    Ok((store, instance))
}

/// No precompiled module format.
fn no_format() -> Failure {
    Failure::Unavailable("wasmi has no precompiled module format".into())
}

/// A linker whose functions are the module's function imports, each a stub that traps.
fn stub_linker(engine: &wasmi::Engine, module: &Module) -> Result<Linker<()>, Failure> {
    let mut linker = Linker::new(engine);
    for import in module.imports() {
        let (from, name) = (import.module(), import.name());
        let ExternType::Func(ty) = import.ty() else {
            return Err(Failure::Other(format!(
                "cannot link: import `{from}::{name}` is not a function, and only functions are stubbed"
            )));
        };
        let what = format!("stub import `{from}::{name}` called");
        linker
            .func_new(from, name, ty.clone(), move |_, _, _| {
                Err(Error::new(what.clone()))
            })
            .map_err(|e| Failure::Other(format!("cannot link: {e}")))?;
    }
    Ok(linker)
}

impl Engine for WasmiEngine {
    fn precompiles(&self) -> bool {
        false
    }

    fn compile(&mut self, wasm: &[u8], n: u64) -> Result<Duration, Failure> {
        timed_batch(n, || Module::new(&self.engine, wasm).map_err(other))
    }

    fn precompile(&mut self, _: &[u8], _: &Path) -> Result<(), Failure> {
        Err(no_format())
    }

    fn load(&mut self, _: &Path, _: u64) -> Result<Duration, Failure> {
        Err(no_format())
    }

    fn prepare(&mut self, source: Source) -> Result<(), Failure> {
        let Source::Wasm(bytes) = source else {
            return Err(no_format());
        };
        let module = Module::new(&self.engine, bytes).map_err(other)?;
        let linker = stub_linker(&self.engine, &module)?;
        self.live.teardown();
        self.prepared = Some((module, linker));
        Ok(())
    }

    fn instantiate(&mut self, n: u64) -> Result<Duration, Failure> {
        let prepared = prepared(&self.prepared)?;
        let engine = &self.engine;
        self.live.make(n, || new_instance(engine, prepared))
    }

    fn teardown(&mut self) -> (Duration, u64) {
        self.live.teardown()
    }

    fn call(&mut self, n: u64) -> Result<Duration, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f = instance
            .get_typed_func::<(), i32>(&*store, CALL_EXPORT)
            .map_err(other)?;
        timed_calls(n, || f.call(&mut *store, ()).map_err(other))
    }

    fn cycle(&mut self, n: u64) -> Result<Duration, Failure> {
        let prepared = prepared(&self.prepared)?;
        let t = Instant::now();
        for _ in 0..n {
            drop(black_box(new_instance(&self.engine, prepared)?));
        }
        Ok(t.elapsed())
    }

    fn peek(&mut self, addr: u32) -> Result<u8, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f = instance
            .get_typed_func::<i32, i32>(&*store, PEEK_EXPORT)
            .map_err(other)?;
        let v = f.call(&mut *store, addr as i32).map_err(other)?;
        Ok(v as u8)
    }
}
