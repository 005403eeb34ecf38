//! The host probe: a fixed piece of work timed in wasmeter's own process right before each
//! worker starts. Its code and data never change from one invocation to the next, so what
//! moves its time is the host at that moment (a slow phase of the machine, another
//! tenant on the memory bus), not any runtime or test. `show --noise` sets each cell's
//! spread between processes beside it: a cell that moves with the probe moves with the
//! host (docs/statistics.md §6c).

use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Instant;

/// Steps of the arithmetic loop: about 1 ms here (1.67 ms at 1,000,000 on this project's
/// VM, 2026-12-06).
const CPU_STEPS: u64 = 600_000;
/// Entries of the pointer chase's table: 32 MiB, past the caches of the machines here.
const MEM_ENTRIES: usize = 4 << 20;
/// Dependent loads of the chase: about 4 ms here (6.65 ms at 40,000 on this project's VM,
/// 2026-12-06: the probe took 1.2 % of a default run, 8.6 s of 733 s).
const MEM_STEPS: usize = 25_000;

/// One reading of the probe, ns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HostProbe {
    /// A register-only loop ([`CPU_STEPS`] steps of xorshift): the core's speed.
    pub cpu_ns: f64,
    /// A chase of dependent loads through 32 MiB: the memory system's latency.
    pub mem_ns: f64,
}

/// The chase's table: one cycle through every entry (Sattolo), made and touched once per
/// process so that no reading pays for its pages.
fn table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut next: Vec<u32> = (0..MEM_ENTRIES as u32).collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in (1..MEM_ENTRIES).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = (state % i as u64) as usize;
            next.swap(i, j);
        }
        next
    })
}

/// Times the probe now (about 5 ms); the first call also builds its table.
pub fn probe() -> HostProbe {
    let t = table();
    let start = Instant::now();
    let mut x = black_box(0x2545_f491_4f6c_dd1du64);
    for _ in 0..CPU_STEPS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x);
    let cpu_ns = start.elapsed().as_nanos() as f64;
    let start = Instant::now();
    let mut at = black_box(0usize);
    for _ in 0..MEM_STEPS {
        at = t[at] as usize;
    }
    black_box(at);
    let mem_ns = start.elapsed().as_nanos() as f64;
    HostProbe { cpu_ns, mem_ns }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chase_visits_every_entry_once_and_the_probe_times_both_parts() {
        let t = table();
        let (mut at, mut steps) = (0usize, 0usize);
        loop {
            at = t[at] as usize;
            steps += 1;
            if at == 0 {
                break;
            }
        }
        assert_eq!(steps, MEM_ENTRIES, "one cycle through the whole table");
        let p = probe();
        assert!(p.cpu_ns > 0.0 && p.mem_ns > 0.0, "{p:?}");
    }
}
