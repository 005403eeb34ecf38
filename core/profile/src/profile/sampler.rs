//! Samples where a thread or a process spends its CPU time: the kernel's software CPU clock
//! (`perf_event_open`, `PERF_COUNT_SW_CPU_CLOCK`) interrupts it every period and writes the
//! instruction pointer and the frame-pointer call chain into a ring buffer, read when the
//! sampler stops. It needs no hardware counters (these VMs have none) and changes no code:
//! the engines compile what they always compile.
//!
//! Kernel samples are kept when the kernel allows it (root, or `perf_event_paranoid` ≤ 1);
//! else only user space is sampled, and the profile says so.

use perf_event_open_sys as sys;
use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{Ordering, fence};
use std::time::Duration;

/// What to sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The calling thread (an embedded engine's guest runs on it).
    ThisThread,
    /// A child process's main thread (a native program: the C tests run on one).
    Process(u32),
}

/// Why sampling could not start: the profile fails, the run's timings do not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SamplerError(pub String);

/// An executable mapping of the sampled process, to name addresses in files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    /// First address.
    pub start: u64,
    /// One past the last address.
    pub end: u64,
    /// Offset in the file of `start`.
    pub offset: u64,
    /// The file, or a pseudo-name (`[vdso]`, `//anon`).
    pub path: String,
}

/// What a sampler collected.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// Call chains, innermost first (the sampled instruction, then return addresses),
    /// with how many samples each had.
    pub stacks: HashMap<Vec<u64>, u64>,
    /// Executable mappings made while sampling (a process target).
    pub mappings: Vec<Mapping>,
    /// Samples the kernel dropped because the buffer was full.
    pub lost: u64,
    /// Whether kernel code was sampled (else only user space).
    pub kernel: bool,
}

impl Capture {
    /// Samples collected.
    pub fn samples(&self) -> u64 {
        self.stacks.values().sum()
    }
}

/// A running sampler; [`Sampler::stop`] ends it and returns what it collected. No thread
/// reads it meanwhile: a second thread would turn a sampled process's glibc malloc from its
/// single-thread path to atomic operations (a malloc-heavy test loaded into the worker ran
/// 2.1× slower so), so the kernel's buffer holds the whole phase and is read at the end.
pub struct Sampler {
    fd: OwnedFd,
    ring: Ring,
    kernel: bool,
}

/// Data pages of the ring buffer (16 MiB, resident only as far as written): at 1 kHz and
/// 64 frames a sample, over half a minute of CPU time; samples beyond are counted as lost.
const DATA_PAGES: usize = 4096;
/// Deepest call chain kept.
const MAX_STACK: u16 = 127;

impl Sampler {
    /// Starts sampling `target` every `period` of its CPU time.
    pub fn start(target: Target, period: Duration) -> Result<Sampler, SamplerError> {
        let (fd, kernel) = open(target, period)?;
        let ring = Ring::map(&fd)?;
        enable(&fd, true)?;
        Ok(Sampler { fd, ring, kernel })
    }

    /// Stops sampling and returns every sample taken.
    pub fn stop(mut self) -> Capture {
        let _ = enable(&self.fd, false);
        let mut capture = Capture {
            kernel: self.kernel,
            ..Capture::default()
        };
        self.ring.drain(&mut capture);
        capture
    }
}

/// Opens the event, disabled: with kernel samples where allowed, else user space only.
#[allow(unsafe_code)]
fn open(target: Target, period: Duration) -> Result<(OwnedFd, bool), SamplerError> {
    let (pid, process) = match target {
        Target::ThisThread => (0, false),
        Target::Process(pid) => (pid as libc::pid_t, true),
    };
    let mut last = std::io::Error::from_raw_os_error(libc::EINVAL);
    for kernel in [true, false] {
        // SAFETY: a zeroed perf_event_attr is the documented starting point; every field
        // set below is a plain value.
        let mut attr: sys::bindings::perf_event_attr = unsafe { std::mem::zeroed() };
        attr.type_ = sys::bindings::PERF_TYPE_SOFTWARE;
        attr.size = std::mem::size_of::<sys::bindings::perf_event_attr>() as u32;
        attr.config = u64::from(sys::bindings::PERF_COUNT_SW_CPU_CLOCK);
        attr.__bindgen_anon_1.sample_period = (period.as_nanos() as u64).max(10_000);
        attr.sample_type = sys::bindings::PERF_SAMPLE_IP
            | sys::bindings::PERF_SAMPLE_TID
            | sys::bindings::PERF_SAMPLE_CALLCHAIN;
        attr.set_disabled(1);
        attr.set_exclude_kernel(u64::from(!kernel));
        attr.set_exclude_hv(1);
        attr.set_exclude_callchain_kernel(1);
        // A process's later mappings (its libraries, loaded after exec) are recorded.
        attr.set_mmap2(u64::from(process));
        attr.sample_max_stack = MAX_STACK;
        // SAFETY: attr is initialised above; the returned descriptor is checked.
        let fd = unsafe {
            sys::perf_event_open(
                &mut attr,
                pid,
                -1,
                -1,
                u64::from(sys::bindings::PERF_FLAG_FD_CLOEXEC) as _,
            )
        };
        if fd >= 0 {
            // SAFETY: a fresh descriptor this function owns.
            return Ok((unsafe { OwnedFd::from_raw_fd(fd) }, kernel));
        }
        last = std::io::Error::last_os_error();
        if !matches!(last.raw_os_error(), Some(libc::EACCES | libc::EPERM)) {
            break;
        }
    }
    Err(SamplerError(refusal(&last)))
}

/// Why `perf_event_open` refused, with the fix.
fn refusal(e: &std::io::Error) -> String {
    let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    match e.raw_os_error() {
        Some(libc::EACCES | libc::EPERM) => format!(
            "perf_event_open refused ({e}; kernel.perf_event_paranoid = {paranoid}): run as root, or allow user-space sampling with `sysctl kernel.perf_event_paranoid=2`"
        ),
        Some(libc::ENOENT | libc::ENODEV | libc::EOPNOTSUPP) => {
            format!("this kernel has no software CPU clock event for perf_event_open ({e})")
        }
        Some(libc::ENOSYS) => "this kernel has no perf_event_open".to_string(),
        _ => format!("perf_event_open failed: {e}"),
    }
}

#[allow(unsafe_code)]
fn enable(fd: &OwnedFd, on: bool) -> Result<(), SamplerError> {
    // SAFETY: an ioctl on a perf event descriptor this sampler owns.
    let r = unsafe {
        if on {
            sys::ioctls::ENABLE(fd.as_raw_fd(), 0)
        } else {
            sys::ioctls::DISABLE(fd.as_raw_fd(), 0)
        }
    };
    if r < 0 {
        return Err(SamplerError(format!(
            "cannot {} the sampler: {}",
            if on { "enable" } else { "disable" },
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// The kernel's ring buffer, mapped: a metadata page, then the data pages.
struct Ring {
    base: *mut u8,
    len: usize,
    data: *const u8,
    size: u64,
    /// Holds the mapping's descriptor open as long as the mapping.
    _fd: OwnedFd,
}

#[allow(unsafe_code)]
impl Ring {
    fn map(fd: &OwnedFd) -> Result<Ring, SamplerError> {
        let page = page_size();
        let len = page * (1 + DATA_PAGES);
        // SAFETY: maps the event's ring buffer as perf_event_open(2) describes; checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(SamplerError(format!(
                "cannot map the sampler's buffer: {}",
                std::io::Error::last_os_error()
            )));
        }
        let dup = fd
            .try_clone()
            .map_err(|e| SamplerError(format!("cannot keep the sampler's buffer: {e}")))?;
        Ok(Ring {
            base: base.cast(),
            len,
            // SAFETY: the data pages follow the metadata page in the same mapping.
            data: unsafe { base.cast::<u8>().add(page) },
            size: (page * DATA_PAGES) as u64,
            _fd: dup,
        })
    }

    fn meta(&self) -> *mut sys::bindings::perf_event_mmap_page {
        self.base.cast()
    }

    /// Reads every record the kernel has written since the last call.
    fn drain(&mut self, capture: &mut Capture) {
        let meta = self.meta();
        // SAFETY: data_head is written by the kernel; read it volatile, then fence so the
        // records before it are visible (perf_event_open(2), "data_head").
        let head = unsafe { std::ptr::read_volatile(&raw const (*meta).data_head) };
        fence(Ordering::Acquire);
        // SAFETY: data_tail is ours to write; the kernel only reads it.
        let mut tail = unsafe { std::ptr::read_volatile(&raw const (*meta).data_tail) };
        let mut record = Vec::new();
        while tail < head {
            let header = self.copy(tail, 8);
            let kind = u32::from_ne_bytes(header[0..4].try_into().expect("4 bytes"));
            let size = u16::from_ne_bytes(header[6..8].try_into().expect("2 bytes")) as u64;
            if size < 8 {
                break;
            }
            record.clear();
            record.extend_from_slice(&self.copy(tail + 8, size - 8));
            parse(kind, &record, capture);
            tail += size;
        }
        fence(Ordering::Release);
        // SAFETY: hands the space back to the kernel (see above).
        unsafe { std::ptr::write_volatile(&raw mut (*meta).data_tail, tail) };
    }

    /// `n` bytes of the data area from position `at`, across its wrap.
    fn copy(&self, at: u64, n: u64) -> Vec<u8> {
        let mut out = Vec::with_capacity(n as usize);
        let mut pos = at % self.size;
        let mut left = n;
        while left > 0 {
            let chunk = left.min(self.size - pos);
            // SAFETY: pos + chunk stays within the data area.
            let bytes =
                unsafe { std::slice::from_raw_parts(self.data.add(pos as usize), chunk as usize) };
            out.extend_from_slice(bytes);
            left -= chunk;
            pos = 0;
        }
        out
    }
}

#[allow(unsafe_code)]
impl Drop for Ring {
    fn drop(&mut self) {
        // SAFETY: unmaps what `map` mapped, once.
        unsafe {
            libc::munmap(self.base.cast(), self.len);
        }
    }
}

#[allow(unsafe_code)]
fn page_size() -> usize {
    // SAFETY: sysconf only reads a system constant.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

/// Reads one record's body into the capture.
fn parse(kind: u32, body: &[u8], capture: &mut Capture) {
    let u64_at = |i: usize| -> Option<u64> {
        body.get(i..i + 8)
            .map(|b| u64::from_ne_bytes(b.try_into().expect("8 bytes")))
    };
    match kind {
        sys::bindings::PERF_RECORD_SAMPLE => {
            // ip, pid/tid, nr, ips[nr]
            let (Some(ip), Some(nr)) = (u64_at(0), u64_at(16)) else {
                return;
            };
            let mut stack = vec![ip];
            for k in 0..nr as usize {
                let Some(addr) = u64_at(24 + 8 * k) else {
                    break;
                };
                // Context markers (user, kernel) are not addresses; the first user entry
                // repeats the sampled instruction.
                if addr >= sys::bindings::PERF_CONTEXT_MAX || (stack.len() == 1 && addr == ip) {
                    continue;
                }
                stack.push(addr);
            }
            *capture.stacks.entry(stack).or_insert(0) += 1;
        }
        sys::bindings::PERF_RECORD_MMAP2 => {
            // pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, name
            let (Some(addr), Some(len), Some(pgoff)) = (u64_at(8), u64_at(16), u64_at(24)) else {
                return;
            };
            let prot = body
                .get(56..60)
                .map(|b| u32::from_ne_bytes(b.try_into().expect("4 bytes")))
                .unwrap_or(0);
            if prot & libc::PROT_EXEC as u32 == 0 {
                return;
            }
            let name = body.get(64..).unwrap_or_default();
            let end = name.iter().position(|b| *b == 0).unwrap_or(name.len());
            capture.mappings.push(Mapping {
                start: addr,
                end: addr + len,
                offset: pgoff,
                path: String::from_utf8_lossy(&name[..end]).into_owned(),
            });
        }
        sys::bindings::PERF_RECORD_LOST => {
            capture.lost += u64_at(8).unwrap_or(0);
        }
        _ => {}
    }
}

/// Executable mappings of a live process, from `/proc/PID/maps`.
pub fn process_mappings(pid: Option<u32>) -> Vec<Mapping> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/maps"),
        None => "/proc/self/maps".into(),
    };
    std::fs::read_to_string(path)
        .map(|text| parse_maps(&text))
        .unwrap_or_default()
}

/// Parses `/proc/PID/maps` text: executable mappings only.
pub fn parse_maps(text: &str) -> Vec<Mapping> {
    text.lines()
        .filter_map(|line| {
            let mut w = line.split_whitespace();
            let (range, perms, offset) = (w.next()?, w.next()?, w.next()?);
            if !perms.contains('x') {
                return None;
            }
            let (_dev, _inode) = (w.next()?, w.next()?);
            let path = w.collect::<Vec<_>>().join(" ");
            let (start, end) = range.split_once('-')?;
            Some(Mapping {
                start: u64::from_str_radix(start, 16).ok()?,
                end: u64::from_str_radix(end, 16).ok()?,
                offset: u64::from_str_radix(offset, 16).ok()?,
                path,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lines_give_the_executable_mappings() {
        let text = "55d0c0a00000-55d0c0a21000 r--p 00000000 fe:01 1234 /usr/bin/x\n\
                    55d0c0a21000-55d0c0b00000 r-xp 00021000 fe:01 1234 /usr/bin/x\n\
                    7f00aa000000-7f00aa001000 r-xp 00000000 00:00 0 \n\
                    7ffd1e5f1000-7ffd1e5f3000 r-xp 00000000 00:00 0 [vdso]\n";
        let m = parse_maps(text);
        assert_eq!(m.len(), 3, "{m:?}");
        assert_eq!(
            m[0],
            Mapping {
                start: 0x55d0c0a21000,
                end: 0x55d0c0b00000,
                offset: 0x21000,
                path: "/usr/bin/x".into()
            }
        );
        assert_eq!(m[1].path, "");
        assert_eq!(m[2].path, "[vdso]");
    }

    #[test]
    fn a_busy_thread_is_sampled_where_it_spins() {
        let sampler = match Sampler::start(Target::ThisThread, Duration::from_micros(250)) {
            Ok(s) => s,
            Err(e) => {
                assert!(std::env::var("CI").is_err(), "CI must allow sampling: {e}");
                eprintln!("skipping: {e}");
                return;
            }
        };
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while t.elapsed() < Duration::from_millis(200) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        let capture = sampler.stop();
        // 200 ms of CPU at 4 kHz: hundreds of samples, however busy the machine (the clock
        // counts this thread's CPU time, not wall time).
        assert!(capture.samples() > 100, "{} samples", capture.samples());
        let here = a_busy_thread_is_sampled_where_it_spins as *const () as usize as u64;
        let own = process_mappings(None);
        let exe = own
            .iter()
            .find(|m| m.start <= here && here < m.end)
            .expect("this test's code is mapped");
        let inside: u64 = capture
            .stacks
            .iter()
            .filter(|(s, _)| exe.start <= s[0] && s[0] < exe.end)
            .map(|(_, n)| n)
            .sum();
        assert!(
            inside * 2 > capture.samples(),
            "{inside} of {} samples in the test binary",
            capture.samples()
        );
    }
}
