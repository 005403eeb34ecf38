//! wasm3's C API made safe: a parsed module, a loaded instance, its WASI linked.

use super::ffi;
use super::wasi::{self, Host};
use std::ffi::CStr;
use std::sync::Arc;
use wasmi_wasi::WasiCtx;

/// Bytes of wasm3's value stack per guest: upstream's CLI default, as `wasm3-cli` has.
const STACK_BYTES: u32 = 64 << 10;

/// A parsed module in its own environment, not yet in a runtime.
pub struct Parsed {
    /// The copy of wasm3 it was parsed by, which every later call must use.
    api: &'static ffi::Api,
    env: ffi::Env,
    module: ffi::Module,
    /// wasm3 reads the module's bytes for as long as the module lives.
    bytes: Arc<[u8]>,
}

impl Parsed {
    /// Parses `bytes`, which the caller has validated ([`validate`]): wasm3 does not
    /// validate, and an invalid module can crash it.
    pub fn new(bytes: Arc<[u8]>) -> Result<Parsed, String> {
        let len = u32::try_from(bytes.len()).map_err(|_| "module over 4 GiB".to_string())?;
        let api = ffi::api();
        // SAFETY: plain constructors; NULL is checked.
        let env = unsafe { (api.new_environment)() };
        if env.is_null() {
            return Err("wasm3: cannot create an environment".into());
        }
        let mut module = std::ptr::null_mut();
        // SAFETY: `bytes` outlives the module (kept in `Parsed`, then in `Instance`).
        let r = unsafe { (api.parse_module)(env, &mut module, bytes.as_ptr(), len) };
        if let Some(why) = said(r) {
            // SAFETY: `env` is ours and holds nothing yet.
            unsafe { (api.free_environment)(env) };
            return Err(why);
        }
        Ok(Parsed {
            api,
            env,
            module,
            bytes,
        })
    }

    /// Loads the module into a new runtime with `wasi` linked and its memory capped at
    /// `cap_pages`, and finds `_start` (which compiles it).
    pub fn instantiate(mut self, wasi: WasiCtx, cap_pages: u32) -> Result<Instance, Loaded> {
        // SAFETY: `env` is live; NULL is checked.
        let api = self.api;
        let rt = unsafe { (api.new_runtime)(self.env, STACK_BYTES, std::ptr::null_mut()) };
        if rt.is_null() {
            return Err(Loaded::Error("wasm3: cannot create a runtime".into()));
        }
        let module = std::mem::replace(&mut self.module, std::ptr::null_mut());
        let mut instance = Instance {
            api,
            env: std::mem::replace(&mut self.env, std::ptr::null_mut()),
            rt,
            start: std::ptr::null_mut(),
            host: Box::new(Host {
                api,
                wasi,
                exit: None,
                error: None,
            }),
            cap_pages,
            _bytes: self.bytes.clone(),
        };
        // SAFETY: `rt` and `module` are live; on success the runtime owns the module.
        if let Some(why) = said(unsafe { (api.load_module)(rt, module) }) {
            // SAFETY: not loaded, so still ours to free.
            unsafe { (api.free_module)(module) };
            return Err(Loaded::Error(why));
        }
        if instance.memory_bytes() > u64::from(cap_pages) << 16 {
            return Err(Loaded::OverCap(instance.memory_bytes()));
        }
        // SAFETY: `rt` is live and has loaded the module.
        unsafe { (api.cap_pages)(rt, cap_pages) };
        let cookie: *mut Host = &mut *instance.host;
        for (name, sig, f) in wasi::FUNCTIONS {
            // SAFETY: the strings are NUL-terminated statics; the cookie is the boxed
            // Host, which the instance drops only after freeing the runtime.
            let r = unsafe {
                (api.link_raw_function)(
                    module,
                    wasi::MODULE.as_ptr(),
                    name.as_ptr(),
                    sig.as_ptr(),
                    *f,
                    cookie.cast(),
                )
            };
            if !r.is_null() && r != (api.lookup_failed)() {
                return Err(Loaded::Error(format!(
                    "cannot link {}::{}: {}",
                    wasi::MODULE.to_string_lossy(),
                    name.to_string_lossy(),
                    said(r).unwrap_or_default()
                )));
            }
        }
        // SAFETY: `rt` is live; the name is a NUL-terminated static.
        let r = unsafe { (api.find_function)(&mut instance.start, rt, c"_start".as_ptr()) };
        if let Some(why) = said(r) {
            return Err(Loaded::Error(format!("no _start export: {why}")));
        }
        Ok(instance)
    }
}

impl Drop for Parsed {
    fn drop(&mut self) {
        // SAFETY: whatever was not handed on to an `Instance` is still ours.
        unsafe {
            if !self.module.is_null() {
                (self.api.free_module)(self.module);
            }
            if !self.env.is_null() {
                (self.api.free_environment)(self.env);
            }
        }
    }
}

/// Why a module did not become an instance.
pub enum Loaded {
    /// Its initial memory (bytes) is over the cap.
    OverCap(u64),
    /// Anything else, in wasm3's words.
    Error(String),
}

/// A guest loaded in its own runtime, ready to run `_start` once.
pub struct Instance {
    api: &'static ffi::Api,
    env: ffi::Env,
    rt: ffi::Rt,
    start: ffi::Function,
    host: Box<Host>,
    cap_pages: u32,
    _bytes: Arc<[u8]>,
}

/// How a guest's `_start` ended.
pub enum Ended {
    /// Returned, or exited with code 0.
    Done,
    /// `proc_exit` with a non-zero code.
    Exit(i32),
    /// A wasm trap, in wasm3's words ("[trap] …").
    Trap(String),
    /// A host function failed, or wasm3 did (a missing import, a parse error found late).
    Error(String),
}

impl Instance {
    /// Runs `_start`.
    pub fn start(&mut self) -> Ended {
        let marking = self
            .api
            .marks
            .and_then(|marks| Some((marks, crate::profile::marks::start(mark_reader(marks))?)));
        // SAFETY: `start` was found in this live runtime.
        let r = unsafe { (self.api.call)(self.start) };
        if let Some((marks, m)) = marking {
            // SAFETY: every mark read is a function of this runtime, still loaded.
            m.stop(|f| u32::try_from(unsafe { (marks.function_index)(f as ffi::Function) }).ok());
        }
        if r.is_null() {
            return Ended::Done;
        }
        if r == (self.api.trap_exit)() {
            return match self.host.exit {
                Some(0) | None => Ended::Done,
                Some(code) => Ended::Exit(code),
            };
        }
        if let Some(e) = &self.host.error
            && std::ptr::eq(e.as_ptr(), r)
        {
            return Ended::Error(e.to_string_lossy().into_owned());
        }
        let why = said(r).unwrap_or_default();
        if why.starts_with("[trap]") {
            Ended::Trap(why)
        } else {
            Ended::Error(why)
        }
    }

    /// The guest's linear memory now, in bytes.
    pub fn memory_bytes(&self) -> u64 {
        let mut size = 0u32;
        // SAFETY: `rt` is live.
        unsafe { (self.api.get_memory)(self.rt, &mut size, 0) };
        u64::from(size)
    }

    /// Whether a failure came with memory at the cap: wasm3 refuses a `memory.grow` past
    /// the cap with -1, as the module's own maximum, so a guest meets the cap as its
    /// allocator failing and ends however its program does then. Memory within an eighth
    /// of the cap when it failed is taken as that.
    pub fn at_cap(&self) -> bool {
        let cap = u64::from(self.cap_pages) << 16;
        self.memory_bytes() + cap / 8 >= cap
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the runtime (and the module it owns) goes first, the environment last;
        // the host functions' cookie (`host`) is dropped after both, with the fields.
        unsafe {
            (self.api.free_runtime)(self.rt);
            (self.api.free_environment)(self.env);
        }
    }
}

/// wasm3's result as text, `None` for success.
fn said(r: ffi::M3Result) -> Option<String> {
    if r.is_null() {
        None
    } else {
        // SAFETY: wasm3's results are NUL-terminated strings that live as long as the
        // library (or our Host, for a host function's error, which outlives the call).
        Some(unsafe { CStr::from_ptr(r) }.to_string_lossy().into_owned())
    }
}

/// The pages a memory cap in bytes allows.
pub fn cap_pages(memory_limit: u64) -> u32 {
    u32::try_from(memory_limit >> 16).unwrap_or(u32::MAX)
}

/// The first import that is not a WASI preview 1 function this host provides, said as
/// wasmtime says it; `None` for a module whose imports are all provided. Reads the import
/// section itself (wasm3 finds a missing import only when it compiles a call to it).
pub fn unknown_import(bytes: &[u8]) -> Option<String> {
    let provided = |m: &str, n: &str| {
        m == "wasi_snapshot_preview1"
            && wasi::FUNCTIONS
                .iter()
                .any(|f| f.0.to_bytes() == n.as_bytes())
    };
    imports(bytes)
        .into_iter()
        .find(|(m, n)| !provided(m, n))
        .map(|(m, n)| format!("unknown import: `{m}::{n}` has not been defined"))
}

/// The (module, name) of every import of a valid module.
fn imports(bytes: &[u8]) -> Vec<(String, String)> {
    fn leb(b: &[u8], i: &mut usize) -> Option<u32> {
        let (mut v, mut shift) = (0u32, 0);
        loop {
            let x = *b.get(*i)?;
            *i += 1;
            v |= u32::from(x & 0x7f).checked_shl(shift)?;
            if x & 0x80 == 0 {
                return Some(v);
            }
            shift += 7;
        }
    }
    fn name(b: &[u8], i: &mut usize) -> Option<String> {
        let n = leb(b, i)? as usize;
        let s = b.get(*i..*i + n)?;
        *i += n;
        Some(String::from_utf8_lossy(s).into_owned())
    }
    fn section(b: &[u8]) -> Option<Vec<(String, String)>> {
        let mut i = 8;
        while i < b.len() {
            let id = b[i];
            i += 1;
            let size = leb(b, &mut i)? as usize;
            let end = i + size;
            if id == 2 {
                let mut out = Vec::new();
                for _ in 0..leb(b, &mut i)? {
                    let m = name(b, &mut i)?;
                    let n = name(b, &mut i)?;
                    let kind = *b.get(i)?;
                    i += 1;
                    match kind {
                        0 => {
                            leb(b, &mut i)?;
                            out.push((m, n));
                        }
                        // Tables, memories and globals are not functions this host
                        // could give: they count as unknown too.
                        _ => {
                            out.push((m, n));
                            return Some(out);
                        }
                    }
                }
                return Some(out);
            }
            i = end;
        }
        Some(Vec::new())
    }
    section(bytes).unwrap_or_default()
}

/// Validates a module as the other engines do (wasmparser, through wasmi).
pub fn validate(bytes: &[u8]) -> Result<(), String> {
    wasmi::Module::validate(&wasmi::Engine::default(), bytes).map_err(|e| e.to_string())
}

/// What reads this thread's mark of the guest function the marked wasm3 runs (its
/// `op_Entry` keeps it in mark.c's thread-local), from the profiler's thread.
fn mark_reader(marks: ffi::Marks) -> impl Fn() -> usize + Send + 'static {
    /// The mark's address: this thread's, valid while it lives, which outlasts the reader
    /// ([`crate::profile::marks::Marking::stop`] joins it before `start` returns).
    struct Mark(*const std::sync::atomic::AtomicUsize);
    // SAFETY: the address is only read through an atomic load, and only while this
    // thread runs (above).
    unsafe impl Send for Mark {}
    // SAFETY: mark.c's function returns this thread's thread-local's address.
    let mark = Mark(unsafe { (marks.mark)() });
    move || {
        let m = &mark;
        // SAFETY: above; a pointer-sized aligned word, stored whole by the C side.
        unsafe { &*m.0 }.load(std::sync::atomic::Ordering::Relaxed)
    }
}
