//! WASI preview 1 for wasm3 from wasi-common (the implementation wasmi uses), in place of
//! wasm3's own `m3_api_wasi.c`, which writes to the process's real descriptors, preopens
//! its working directory and passes no environment. Each import is a raw wasm3 host
//! function that reads its arguments from wasm3's slots and calls wasi-common's function
//! of the same name on the guest's memory.
#![allow(unsafe_code)]

use super::ffi;
use std::ffi::{CStr, CString, c_void};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use wasmi_wasi::wasi_common::I32Exit;
use wasmi_wasi::wasi_common::snapshots::preview_1::wasi_snapshot_preview1 as p1;
use wasmi_wasi::{WasiCtx, WasmiGuestMemory as GuestMemory};

/// The namespace every function here is linked in.
pub(super) const MODULE: &CStr = c"wasi_snapshot_preview1";

/// What a guest's host functions share: its WASI context and how it ended, if it ended
/// from inside one of them.
pub(super) struct Host {
    /// The copy of wasm3 the guest runs on: its memory and its exit's address are that
    /// copy's.
    pub api: &'static ffi::Api,
    pub wasi: WasiCtx,
    /// The code the guest gave `proc_exit`.
    pub exit: Option<i32>,
    /// Why a host function failed other than by exiting; its pointer is what the function
    /// returned to wasm3, which hands it back from `m3_Call`.
    pub error: Option<CString>,
}

impl Host {
    fn fail(&mut self, why: String) -> *const c_void {
        let msg = CString::new(why.replace('\0', " ")).unwrap_or_default();
        let ptr = msg.as_ptr().cast();
        self.error = Some(msg);
        ptr
    }
}

/// wasi-common's functions are `async` but never wait: polled once, they are ready.
fn now<F: Future>(f: F) -> Option<F::Output> {
    match pin!(f).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

/// An argument read from its 64-bit slot.
trait Slot {
    /// Safety: `sp` points at wasm3's slots for this call, holding at least `k + 1`.
    unsafe fn read(sp: *const u64, k: usize) -> Self;
}

impl Slot for i32 {
    unsafe fn read(sp: *const u64, k: usize) -> i32 {
        // SAFETY: the caller's promise; a slot holds an i32 in its low half.
        unsafe { sp.add(k).cast::<i32>().read() }
    }
}

impl Slot for i64 {
    unsafe fn read(sp: *const u64, k: usize) -> i64 {
        // SAFETY: the caller's promise.
        unsafe { sp.add(k).cast::<i64>().read() }
    }
}

/// A result written back to the first slot.
trait Ret {
    /// Safety: `sp` points at wasm3's slots for this call.
    unsafe fn put(self, sp: *mut u64);
}

impl Ret for i32 {
    unsafe fn put(self, sp: *mut u64) {
        // SAFETY: the caller's promise.
        unsafe { sp.cast::<i32>().write(self) }
    }
}

impl Ret for () {
    unsafe fn put(self, _: *mut u64) {}
}

/// The guest's linear memory, empty when it has none.
///
/// Safety: `rt` is the runtime of the host call in progress; the slice lives only as long
/// as that call, during which wasm3 does not move the memory.
unsafe fn memory<'a>(api: &ffi::Api, rt: ffi::Rt) -> &'a mut [u8] {
    let mut size = 0u32;
    // SAFETY: `rt` is a live runtime of `api`'s copy (the caller's promise).
    let base = unsafe { (api.get_memory)(rt, &mut size, 0) };
    if base.is_null() || size == 0 {
        return &mut [];
    }
    // SAFETY: wasm3 says `size` bytes start at `base`, and nothing else touches them
    // while the host function runs.
    unsafe { std::slice::from_raw_parts_mut(base, size as usize) }
}

macro_rules! preview1 {
    ($( $name:ident $sig:literal ( $($arg:ident : $ty:ident),* ) -> $ret:ty; )*) => {
        $(
            unsafe extern "C" fn $name(
                rt: ffi::Rt,
                sp: *mut u64,
                _mem: *mut c_void,
                cookie: *mut c_void,
            ) -> *const c_void {
                let mut _k = 0usize;
                $(
                    // SAFETY: wasm3 passes as many slots as the signature it checked
                    // against the import when linking.
                    let $arg = unsafe { <$ty as Slot>::read(sp, _k) };
                    _k += 1;
                )*
                // SAFETY: the cookie is the instance's boxed Host, which outlives its
                // runtime; wasm3 runs one call at a time on one thread.
                let host = unsafe { &mut *cookie.cast::<Host>() };
                // SAFETY: called by wasm3 for `rt`, during this host call.
                let mut memory = GuestMemory::Unshared(unsafe { memory(host.api, rt) });
                match now(p1::$name(&mut host.wasi, &mut memory, $($arg),*)) {
                    Some(Ok(r)) => {
                        let r: $ret = r.into();
                        // SAFETY: as above.
                        unsafe { Ret::put(r, sp) };
                        std::ptr::null()
                    }
                    Some(Err(e)) => match e.downcast_ref::<I32Exit>() {
                        Some(I32Exit(code)) => {
                            host.exit = Some(*code);
                            (host.api.trap_exit)().cast()
                        }
                        None => host.fail(format!("{}: {e}", stringify!($name))),
                    },
                    None => host.fail(format!("{}: did not complete", stringify!($name))),
                }
            }
        )*

        /// Every preview 1 function: its name, wasm3 signature and host function.
        pub(super) const FUNCTIONS: &[(&CStr, &CStr, ffi::RawCallEx)] = &[
            $( (
                match CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()) {
                    Ok(s) => s,
                    Err(_) => panic!("a name without NUL"),
                },
                $sig,
                $name,
            ), )*
        ];
    };
}

preview1! {
    args_get c"i(ii)" (argv: i32, argv_buf: i32) -> i32;
    args_sizes_get c"i(ii)" (a: i32, b: i32) -> i32;
    environ_get c"i(ii)" (environ: i32, environ_buf: i32) -> i32;
    environ_sizes_get c"i(ii)" (a: i32, b: i32) -> i32;
    clock_res_get c"i(ii)" (id: i32, out: i32) -> i32;
    clock_time_get c"i(iIi)" (id: i32, precision: i64, out: i32) -> i32;
    fd_advise c"i(iIIi)" (fd: i32, offset: i64, len: i64, advice: i32) -> i32;
    fd_allocate c"i(iII)" (fd: i32, offset: i64, len: i64) -> i32;
    fd_close c"i(i)" (fd: i32) -> i32;
    fd_datasync c"i(i)" (fd: i32) -> i32;
    fd_fdstat_get c"i(ii)" (fd: i32, out: i32) -> i32;
    fd_fdstat_set_flags c"i(ii)" (fd: i32, flags: i32) -> i32;
    fd_fdstat_set_rights c"i(iII)" (fd: i32, base: i64, inheriting: i64) -> i32;
    fd_filestat_get c"i(ii)" (fd: i32, out: i32) -> i32;
    fd_filestat_set_size c"i(iI)" (fd: i32, size: i64) -> i32;
    fd_filestat_set_times c"i(iIIi)" (fd: i32, atim: i64, mtim: i64, flags: i32) -> i32;
    fd_pread c"i(iiiIi)" (fd: i32, iovs: i32, n: i32, offset: i64, out: i32) -> i32;
    fd_prestat_get c"i(ii)" (fd: i32, out: i32) -> i32;
    fd_prestat_dir_name c"i(iii)" (fd: i32, path: i32, len: i32) -> i32;
    fd_pwrite c"i(iiiIi)" (fd: i32, iovs: i32, n: i32, offset: i64, out: i32) -> i32;
    fd_read c"i(iiii)" (fd: i32, iovs: i32, n: i32, out: i32) -> i32;
    fd_readdir c"i(iiiIi)" (fd: i32, buf: i32, len: i32, cookie: i64, out: i32) -> i32;
    fd_renumber c"i(ii)" (fd: i32, to: i32) -> i32;
    fd_seek c"i(iIii)" (fd: i32, offset: i64, whence: i32, out: i32) -> i32;
    fd_sync c"i(i)" (fd: i32) -> i32;
    fd_tell c"i(ii)" (fd: i32, out: i32) -> i32;
    fd_write c"i(iiii)" (fd: i32, iovs: i32, n: i32, out: i32) -> i32;
    path_create_directory c"i(iii)" (fd: i32, path: i32, len: i32) -> i32;
    path_filestat_get c"i(iiiii)" (fd: i32, flags: i32, path: i32, len: i32, out: i32) -> i32;
    path_filestat_set_times c"i(iiiiIIi)"
        (fd: i32, flags: i32, path: i32, len: i32, atim: i64, mtim: i64, fst: i32) -> i32;
    path_link c"i(iiiiiii)"
        (fd: i32, flags: i32, path: i32, len: i32, to_fd: i32, to: i32, to_len: i32) -> i32;
    path_open c"i(iiiiiIIii)"
        (fd: i32, dirflags: i32, path: i32, len: i32, oflags: i32, base: i64, inheriting: i64,
         fdflags: i32, out: i32) -> i32;
    path_readlink c"i(iiiiii)"
        (fd: i32, path: i32, len: i32, buf: i32, buf_len: i32, out: i32) -> i32;
    path_remove_directory c"i(iii)" (fd: i32, path: i32, len: i32) -> i32;
    path_rename c"i(iiiiii)"
        (fd: i32, path: i32, len: i32, to_fd: i32, to: i32, to_len: i32) -> i32;
    path_symlink c"i(iiiii)" (old: i32, old_len: i32, fd: i32, path: i32, len: i32) -> i32;
    path_unlink_file c"i(iii)" (fd: i32, path: i32, len: i32) -> i32;
    poll_oneoff c"i(iiii)" (subs: i32, events: i32, n: i32, out: i32) -> i32;
    proc_exit c"v(i)" (code: i32) -> ();
    proc_raise c"i(i)" (sig: i32) -> i32;
    sched_yield c"i()" () -> i32;
    random_get c"i(ii)" (buf: i32, len: i32) -> i32;
    sock_accept c"i(iii)" (fd: i32, flags: i32, out: i32) -> i32;
    sock_recv c"i(iiiiii)" (fd: i32, iovs: i32, n: i32, flags: i32, out: i32, out2: i32) -> i32;
    sock_send c"i(iiiii)" (fd: i32, iovs: i32, n: i32, flags: i32, out: i32) -> i32;
    sock_shutdown c"i(ii)" (fd: i32, how: i32) -> i32;
}
