//! What the lifecycle suite asks of an engine ([`Engine`]) and what every engine's
//! implementation shares (batches, the live instances, the checked trivial call): below
//! both the suite (`crate::lifecycle`) and the engines (`runtime/embedded`), so neither
//! imports the other.

use crate::model::Failure;
use std::path::Path;
use std::time::Duration;

/// Most instances alive at once: memory per instance is measured over this many.
pub const LIVE_MAX: u64 = 1000;
pub use crate::suite::{ANSWER, CALL_EXPORT, PEEK_EXPORT};

/// Where the module an engine instantiates comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// WebAssembly bytes, compiled now.
    Wasm(&'a [u8]),
    /// A file written by [`Engine::precompile`], loaded without compiling.
    Precompiled(&'a Path),
}

/// One engine configuration taken through an instance's life cycle.
///
/// Methods that take `n` do their operation `n` times back to back and return the time of
/// the whole batch, so that fast operations are timed in batches; whatever they create is
/// released after the clock stops unless they say otherwise.
pub trait Engine {
    /// Whether the engine has a precompiled module format ([`Engine::precompile`],
    /// [`Engine::load`]); an interpreter has none, so its cells have no load phase and a
    /// fresh process starts from the WebAssembly bytes.
    fn precompiles(&self) -> bool {
        true
    }
    /// Compiles `wasm` `n` times.
    fn compile(&mut self, wasm: &[u8], n: u64) -> Result<Duration, Failure>;
    /// Compiles `wasm` and writes it to `path` in the engine's precompiled format.
    fn precompile(&mut self, wasm: &[u8], path: &Path) -> Result<(), Failure>;
    /// Loads (deserialises) the precompiled module at `path` `n` times.
    fn load(&mut self, path: &Path, n: u64) -> Result<Duration, Failure>;
    /// Makes the module from `source` the one instantiated from now on, linked once
    /// (wasmtime: an `InstancePre`); its function imports, if any, are stubs that trap.
    fn prepare(&mut self, source: Source) -> Result<(), Failure>;
    /// Creates `n` instances of the prepared module, each in its own store, and keeps them
    /// alive until [`Engine::teardown`].
    fn instantiate(&mut self, n: u64) -> Result<Duration, Failure>;
    /// Drops every live instance with its store (a pooling slot goes back to its pool);
    /// returns the time that took and how many there were.
    fn teardown(&mut self) -> (Duration, u64);
    /// Calls the trivial export `n` times on the oldest live instance, host → wasm → host;
    /// checks what it returns.
    fn call(&mut self, n: u64) -> Result<Duration, Failure>;
    /// `n` round trips of instantiate then drop, one instance at a time.
    fn cycle(&mut self, n: u64) -> Result<Duration, Failure>;
    /// One byte of the oldest live instance's memory, read by the guest (`peek` export).
    fn peek(&mut self, addr: u32) -> Result<u8, Failure>;
}

/// Does `make` `n` times back to back and returns the time of the batch; what it made is
/// dropped after the clock stops, so releasing it is never timed as part of making it.
#[cfg(feature = "embedded")]
pub fn timed_batch<T>(
    n: u64,
    mut make: impl FnMut() -> Result<T, Failure>,
) -> Result<Duration, Failure> {
    let mut keep = Vec::with_capacity(n as usize);
    let t = std::time::Instant::now();
    for _ in 0..n {
        keep.push(make()?);
    }
    let d = t.elapsed();
    drop(keep);
    Ok(d)
}

/// The instances an engine keeps alive between [`Engine::instantiate`] and
/// [`Engine::teardown`]: every engine batches, drops and calls them the same way.
#[cfg(feature = "embedded")]
pub struct Live<T>(Vec<T>);

#[cfg(feature = "embedded")]
impl<T> Default for Live<T> {
    fn default() -> Live<T> {
        Live::new()
    }
}

#[cfg(feature = "embedded")]
impl<T> Live<T> {
    /// None alive.
    pub fn new() -> Live<T> {
        Live(Vec::new())
    }

    /// Makes `n` instances with `make` and keeps them; returns the time of the batch.
    pub fn make(
        &mut self,
        n: u64,
        mut make: impl FnMut() -> Result<T, Failure>,
    ) -> Result<Duration, Failure> {
        self.0.reserve(n as usize);
        let t = std::time::Instant::now();
        for _ in 0..n {
            self.0.push(make()?);
        }
        Ok(t.elapsed())
    }

    /// Drops every instance; the time that took and how many there were.
    pub fn teardown(&mut self) -> (Duration, u64) {
        let n = self.0.len() as u64;
        let t = std::time::Instant::now();
        self.0.clear();
        (t.elapsed(), n)
    }

    /// The oldest instance alive: the one calls go to.
    pub fn oldest(&mut self) -> Result<&mut T, Failure> {
        self.0
            .first_mut()
            .ok_or_else(|| Failure::Other("no live instance".into()))
    }
}

/// Makes `n` calls of the trivial export back to back and returns their time; the last
/// answer is checked after the clock stops.
#[cfg(feature = "embedded")]
pub fn timed_calls(
    n: u64,
    mut call: impl FnMut() -> Result<i32, Failure>,
) -> Result<Duration, Failure> {
    let mut last = 0;
    let t = std::time::Instant::now();
    for _ in 0..n {
        last = std::hint::black_box(call()?);
    }
    let d = t.elapsed();
    check_answer(last)?;
    Ok(d)
}

/// Checks the trivial export's answer.
#[cfg(feature = "embedded")]
fn check_answer(got: i32) -> Result<(), Failure> {
    if got == ANSWER {
        Ok(())
    } else {
        Err(Failure::WrongOutput(format!(
            "export '{}' returned {got}, expected {}",
            CALL_EXPORT, ANSWER
        )))
    }
}
