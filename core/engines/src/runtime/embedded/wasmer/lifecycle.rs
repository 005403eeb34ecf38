//! wasmer through the life cycle: one `Engine`, the module compiled once, a fresh `Store`
//! and `Instance::new` per instance (wasmer has no pre-linked instance: a module file's
//! function imports are made anew in each store, as stubs that trap; the generated modules
//! import nothing).

use super::WasmerCompiler;
use super::other;
use crate::runtime::Failure;
use crate::runtime::suite_api::lifecycle::{
    CALL_EXPORT, Engine, Live, PEEK_EXPORT, Source, timed_batch, timed_calls,
};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use wasmer::{
    ExternType, Function, FunctionType, Imports, Instance, Module, RuntimeError, Store,
    TypedFunction,
};

/// A wasmer engine with one compiler and the module it instantiates.
pub struct WasmerEngine {
    engine: wasmer::Engine,
    module: Option<Module>,
    /// The module's function imports: module, name and type.
    stubs: Vec<(String, String, FunctionType)>,
    live: Live<(Store, Instance)>,
}

impl WasmerEngine {
    /// The engine of a compiler.
    pub fn new(compiler: WasmerCompiler) -> WasmerEngine {
        let engine = compiler.engine();
        WasmerEngine {
            engine,
            module: None,
            stubs: Vec::new(),
            live: Live::new(),
        }
    }

    fn module(&self) -> Result<Module, Failure> {
        self.module
            .clone()
            .ok_or_else(|| Failure::Other("no module prepared".into()))
    }
}

/// A fresh store with the module's function imports as stubs, and an instance in it.
fn new_instance(
    engine: &wasmer::Engine,
    stubs: &[(String, String, FunctionType)],
    module: &Module,
) -> Result<(Store, Instance), Failure> {
    let mut store = Store::new(engine.clone());
    let mut imports = Imports::new();
    for (from, name, ty) in stubs {
        let what = format!("stub import `{from}::{name}` called");
        let f = Function::new(&mut store, ty, move |_| Err(RuntimeError::new(&what)));
        imports.define(from, name, f);
    }
    let instance = Instance::new(&mut store, module, &imports).map_err(other)?;
    Ok((store, instance))
}

#[allow(unsafe_code)]
fn deserialize(engine: &wasmer::Engine, path: &Path) -> Result<Module, Failure> {
    // SAFETY: the file was written by `Module::serialize_to_file` of an engine with this
    // very compiler, in this cell's private scratch directory; wasmer checks its header.
    unsafe { Module::deserialize_from_file(engine, path) }
        .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))
}

impl Engine for WasmerEngine {
    fn compile(&mut self, wasm: &[u8], n: u64) -> Result<Duration, Failure> {
        timed_batch(n, || Module::new(&self.engine, wasm).map_err(other))
    }

    fn precompile(&mut self, wasm: &[u8], path: &Path) -> Result<(), Failure> {
        Module::new(&self.engine, wasm)
            .map_err(other)?
            .serialize_to_file(path)
            .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))
    }

    fn load(&mut self, path: &Path, n: u64) -> Result<Duration, Failure> {
        timed_batch(n, || deserialize(&self.engine, path))
    }

    fn prepare(&mut self, source: Source) -> Result<(), Failure> {
        let module = match source {
            Source::Wasm(bytes) => Module::new(&self.engine, bytes).map_err(other)?,
            Source::Precompiled(path) => deserialize(&self.engine, path)?,
        };
        self.stubs = module
            .imports()
            .map(|i| match i.ty() {
                ExternType::Function(ty) => {
                    Ok((i.module().to_string(), i.name().to_string(), ty.clone()))
                }
                _ => Err(Failure::Other(format!(
                    "cannot link: import `{}::{}` is not a function, and only functions are stubbed",
                    i.module(),
                    i.name()
                ))),
            })
            .collect::<Result<_, _>>()?;
        self.live.teardown();
        self.module = Some(module);
        Ok(())
    }

    fn instantiate(&mut self, n: u64) -> Result<Duration, Failure> {
        let module = self.module()?;
        let (engine, stubs) = (&self.engine, &self.stubs);
        self.live.make(n, || new_instance(engine, stubs, &module))
    }

    fn teardown(&mut self) -> (Duration, u64) {
        self.live.teardown()
    }

    fn call(&mut self, n: u64) -> Result<Duration, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f: TypedFunction<(), i32> = instance
            .exports
            .get_typed_function(&*store, CALL_EXPORT)
            .map_err(other)?;
        timed_calls(n, || f.call(&mut *store).map_err(other))
    }

    fn cycle(&mut self, n: u64) -> Result<Duration, Failure> {
        let module = self.module()?;
        let t = Instant::now();
        for _ in 0..n {
            drop(black_box(new_instance(&self.engine, &self.stubs, &module)?));
        }
        Ok(t.elapsed())
    }

    fn peek(&mut self, addr: u32) -> Result<u8, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f: TypedFunction<i32, i32> = instance
            .exports
            .get_typed_function(&*store, PEEK_EXPORT)
            .map_err(other)?;
        let v = f.call(&mut *store, addr as i32).map_err(other)?;
        Ok(v as u8)
    }
}
