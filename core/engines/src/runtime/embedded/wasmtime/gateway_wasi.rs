//! The WASI preview1 the gateway gives its guest, and nothing more: arguments, the request
//! body on stdin, the reply on stdout, stderr discarded, exit. No files, environment,
//! clocks, randomness or sockets exist for the guest, so each request is isolated by
//! construction; a guest that imports anything else fails to link at start-up, naming the
//! import. Hostcalls touch linear memory directly and never block, which makes a
//! per-request instance cheap (wasmtime-wasi's general adapter routes every call through
//! an async runtime: docs/http.md has both costs).

use wasmtime::{Caller, Extern, Linker, Memory, StoreLimits};

const MODULE: &str = "wasi_snapshot_preview1";
const SUCCESS: i32 = 0;
const EBADF: i32 = 8;
const EFAULT: i32 = 21;
const EFBIG: i32 = 22;
const ESPIPE: i32 = 70;

/// Per-request state of the guest's WASI.
pub struct Ctx {
    /// argv, each NUL-terminated.
    args: Vec<Vec<u8>>,
    stdin: Vec<u8>,
    read: usize,
    /// What the guest wrote to stdout.
    pub stdout: Vec<u8>,
    stdout_limit: usize,
    /// Linear-memory cap.
    pub limits: StoreLimits,
    /// The guest's exported memory, set once it is instantiated (a lookup by name in
    /// every hostcall would cost more than the call).
    pub memory: Option<Memory>,
}

impl Ctx {
    /// A context for one request.
    pub fn new(argv: &[String], stdin: Vec<u8>, stdout_limit: usize, limits: StoreLimits) -> Ctx {
        Ctx {
            args: argv
                .iter()
                .map(|a| {
                    let mut v = a.as_bytes().to_vec();
                    v.push(0);
                    v
                })
                .collect(),
            stdin,
            read: 0,
            stdout: Vec::new(),
            stdout_limit,
            limits,
            memory: None,
        }
    }
}

/// `proc_exit`: ends the guest with a status.
#[derive(Debug, thiserror::Error)]
#[error("guest exited {0}")]
pub struct Exit(pub i32);

fn memory(caller: &mut Caller<'_, Ctx>) -> Option<Memory> {
    if let Some(m) = caller.data().memory {
        return Some(m);
    }
    match caller.get_export("memory") {
        Some(Extern::Memory(m)) => Some(m),
        _ => None,
    }
}

/// A guest range `[ptr, ptr + len)` of `mem`, or None when it is out of bounds.
fn range(mem: &[u8], ptr: i32, len: usize) -> Option<std::ops::Range<usize>> {
    let start = ptr as u32 as usize;
    let end = start.checked_add(len)?;
    (end <= mem.len()).then_some(start..end)
}

fn put_u32(mem: &mut [u8], ptr: i32, v: u32) -> bool {
    match range(mem, ptr, 4) {
        Some(r) => {
            mem[r].copy_from_slice(&v.to_le_bytes());
            true
        }
        None => false,
    }
}

fn get_u32(mem: &[u8], ptr: u32) -> Option<u32> {
    let r = range(mem, ptr as i32, 4)?;
    Some(u32::from_le_bytes(mem[r].try_into().ok()?))
}

/// The (buffer, length) pairs of an iovec array.
fn iovecs(mem: &[u8], iovs: i32, n: i32) -> Option<Vec<(u32, u32)>> {
    (0..n as u32)
        .map(|i| {
            let at = (iovs as u32).checked_add(i.checked_mul(8)?)?;
            Some((get_u32(mem, at)?, get_u32(mem, at.checked_add(4)?)?))
        })
        .collect()
}

/// Adds the eight functions to a linker.
pub fn add_to_linker(linker: &mut Linker<Ctx>) -> wasmtime::Result<()> {
    linker.func_wrap(
        MODULE,
        "args_sizes_get",
        |mut c: Caller<'_, Ctx>, argc: i32, size: i32| -> i32 {
            let n = c.data().args.len() as u32;
            let bytes = c.data().args.iter().map(|a| a.len() as u32).sum();
            let Some(m) = memory(&mut c) else {
                return EFAULT;
            };
            let mem = m.data_mut(&mut c);
            if put_u32(mem, argc, n) && put_u32(mem, size, bytes) {
                SUCCESS
            } else {
                EFAULT
            }
        },
    )?;
    linker.func_wrap(
        MODULE,
        "args_get",
        |mut c: Caller<'_, Ctx>, argv: i32, buf: i32| -> i32 {
            let Some(m) = memory(&mut c) else {
                return EFAULT;
            };
            let (mem, ctx) = m.data_and_store_mut(&mut c);
            let mut at = buf as u32;
            for (i, a) in ctx.args.iter().enumerate() {
                let Some(r) = range(mem, at as i32, a.len()) else {
                    return EFAULT;
                };
                mem[r].copy_from_slice(a);
                if !put_u32(mem, argv.wrapping_add(4 * i as i32), at) {
                    return EFAULT;
                }
                at = at.wrapping_add(a.len() as u32);
            }
            SUCCESS
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_fdstat_get",
        |mut c: Caller<'_, Ctx>, fd: i32, out: i32| -> i32 {
            if !(0..=2).contains(&fd) {
                return EBADF;
            }
            let Some(m) = memory(&mut c) else {
                return EFAULT;
            };
            let mem = m.data_mut(&mut c);
            let Some(r) = range(mem, out, 24) else {
                return EFAULT;
            };
            // Filetype unknown (not a terminal: stdio is fully buffered), no flags; the
            // rights to read (stdin) or write (stdout, stderr).
            let rights: u64 = if fd == 0 { 1 << 1 } else { 1 << 6 };
            let st = &mut mem[r];
            st.fill(0);
            st[8..16].copy_from_slice(&rights.to_le_bytes());
            SUCCESS
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_read",
        |mut c: Caller<'_, Ctx>, fd: i32, iovs: i32, n: i32, nread: i32| -> i32 {
            if fd != 0 {
                return EBADF;
            }
            let Some(m) = memory(&mut c) else {
                return EFAULT;
            };
            let (mem, ctx) = m.data_and_store_mut(&mut c);
            let Some(list) = iovecs(mem, iovs, n) else {
                return EFAULT;
            };
            let mut total = 0u32;
            for (buf, len) in list {
                let left = &ctx.stdin[ctx.read..];
                let take = left.len().min(len as usize);
                let Some(r) = range(mem, buf as i32, take) else {
                    return EFAULT;
                };
                mem[r].copy_from_slice(&left[..take]);
                ctx.read += take;
                total += take as u32;
            }
            if put_u32(mem, nread, total) {
                SUCCESS
            } else {
                EFAULT
            }
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_write",
        |mut c: Caller<'_, Ctx>, fd: i32, iovs: i32, n: i32, nwritten: i32| -> i32 {
            if !(1..=2).contains(&fd) {
                return EBADF;
            }
            let Some(m) = memory(&mut c) else {
                return EFAULT;
            };
            let (mem, ctx) = m.data_and_store_mut(&mut c);
            let Some(list) = iovecs(mem, iovs, n) else {
                return EFAULT;
            };
            let mut total = 0u32;
            for (buf, len) in list {
                let Some(r) = range(mem, buf as i32, len as usize) else {
                    return EFAULT;
                };
                if fd == 1 {
                    if ctx.stdout.len() + r.len() > ctx.stdout_limit {
                        return EFBIG;
                    }
                    ctx.stdout.extend_from_slice(&mem[r]);
                }
                total += len;
            }
            if put_u32(mem, nwritten, total) {
                SUCCESS
            } else {
                EFAULT
            }
        },
    )?;
    linker.func_wrap(
        MODULE,
        "fd_seek",
        |_: Caller<'_, Ctx>, fd: i32, _off: i64, _whence: i32, _out: i32| -> i32 {
            if (0..=2).contains(&fd) { ESPIPE } else { EBADF }
        },
    )?;
    linker.func_wrap(MODULE, "fd_close", |_: Caller<'_, Ctx>, fd: i32| -> i32 {
        if (0..=2).contains(&fd) {
            SUCCESS
        } else {
            EBADF
        }
    })?;
    linker.func_wrap(
        MODULE,
        "proc_exit",
        |_: Caller<'_, Ctx>, code: i32| -> wasmtime::Result<()> {
            Err(wasmtime::Error::new(Exit(code)))
        },
    )?;
    Ok(())
}
