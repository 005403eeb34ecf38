//! wasmi through the life cycle: one `Engine` translating eagerly or lazily, the module
//! linked once (a module file's function imports as stubs that trap), a fresh `Store` per
//! instance. wasmi has no precompiled module format, so there is nothing to load: a fresh
//! process starts from the WebAssembly bytes.

use super::{WasmiTranslation, engine, other};
use crate::lifecycle::{Engine, Source, check_answer, modules, timed_batch};
use crate::runtime::Failure;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use wasmi::{Error, ExternType, Instance, Linker, Module, Store};

/// A wasmi engine with the module it instantiates.
pub struct WasmiEngine {
    engine: wasmi::Engine,
    prepared: Option<(Module, Linker<()>)>,
    live: Vec<(Store<()>, Instance)>,
}

impl WasmiEngine {
    /// The engine translating as `translation` says.
    pub fn new(translation: WasmiTranslation) -> WasmiEngine {
        WasmiEngine {
            engine: engine(translation),
            prepared: None,
            live: Vec::new(),
        }
    }

    fn new_instance(&self) -> Result<(Store<()>, Instance), Failure> {
        let (module, linker) = self
            .prepared
            .as_ref()
            .ok_or_else(|| Failure::Other("no module prepared".into()))?;
        let mut store = Store::new(&self.engine, ());
        let instance = linker
            .instantiate_and_start(&mut store, module)
            .map_err(other)?;
        Ok((store, instance))
    }

    fn oldest(&mut self) -> Result<&mut (Store<()>, Instance), Failure> {
        self.live
            .first_mut()
            .ok_or_else(|| Failure::Other("no live instance".into()))
    }
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
        self.live.clear();
        self.prepared = Some((module, linker));
        Ok(())
    }

    fn instantiate(&mut self, n: u64) -> Result<Duration, Failure> {
        self.live.reserve(n as usize);
        let t = Instant::now();
        for _ in 0..n {
            let pair = self.new_instance()?;
            self.live.push(pair);
        }
        Ok(t.elapsed())
    }

    fn teardown(&mut self) -> (Duration, u64) {
        let n = self.live.len() as u64;
        let t = Instant::now();
        self.live.clear();
        (t.elapsed(), n)
    }

    fn call(&mut self, n: u64) -> Result<Duration, Failure> {
        let (store, instance) = self.oldest()?;
        let f = instance
            .get_typed_func::<(), i32>(&*store, modules::CALL_EXPORT)
            .map_err(other)?;
        let mut last = 0;
        let t = Instant::now();
        for _ in 0..n {
            last = black_box(f.call(&mut *store, ()).map_err(other)?);
        }
        let d = t.elapsed();
        check_answer(last)?;
        Ok(d)
    }

    fn cycle(&mut self, n: u64) -> Result<Duration, Failure> {
        let t = Instant::now();
        for _ in 0..n {
            drop(black_box(self.new_instance()?));
        }
        Ok(t.elapsed())
    }

    fn peek(&mut self, addr: u32) -> Result<u8, Failure> {
        let (store, instance) = self.oldest()?;
        let f = instance
            .get_typed_func::<i32, i32>(&*store, modules::PEEK_EXPORT)
            .map_err(other)?;
        let v = f.call(&mut *store, addr as i32).map_err(other)?;
        Ok(v as u8)
    }
}
