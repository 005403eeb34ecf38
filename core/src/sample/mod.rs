//! Live CPU and memory sampling of a worker's process tree (sysinfo).

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Instant;
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

/// One reading of a process tree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// CPU use of the whole tree since the previous reading, percent of one core.
    pub cpu_pct: f32,
    /// Resident memory of the whole tree, bytes.
    pub rss_bytes: u64,
}

/// Samples one process and its descendants. Only the tree is refreshed, not every process
/// on the machine, so sampling stays cheap at 100 ms intervals.
pub struct TreeSampler {
    root: u32,
    sys: System,
    /// CPU-ms each process had used at the previous reading.
    cpu_ms: HashMap<u32, u64>,
    at: Instant,
}

impl TreeSampler {
    /// Starts sampling the tree rooted at `root`.
    pub fn new(root: u32) -> TreeSampler {
        let mut s = TreeSampler {
            root,
            sys: System::new(),
            cpu_ms: HashMap::new(),
            at: Instant::now(),
        };
        let _ = s.sample();
        s
    }

    /// Reads CPU and RSS of the tree now. CPU is the tree's CPU time since the previous
    /// reading over the wall time between them (a process born in between counts whole).
    pub fn sample(&mut self) -> Reading {
        let pids: Vec<Pid> = descendants(self.root)
            .into_iter()
            .map(Pid::from_u32)
            .collect();
        self.sys.refresh_processes_specifics(
            ProcessesToUpdate::Some(&pids),
            true,
            ProcessRefreshKind::nothing().with_cpu().with_memory(),
        );
        let mut r = Reading {
            cpu_pct: 0.0,
            rss_bytes: 0,
        };
        let now = Instant::now();
        let wall_ms = now.duration_since(self.at).as_secs_f64() * 1e3;
        self.at = now;
        let mut used_ms = 0u64;
        let mut seen = HashMap::with_capacity(pids.len());
        for pid in &pids {
            if let Some(p) = self.sys.process(*pid) {
                let acc = p.accumulated_cpu_time();
                used_ms += acc.saturating_sub(self.cpu_ms.get(&pid.as_u32()).copied().unwrap_or(0));
                seen.insert(pid.as_u32(), acc);
                r.rss_bytes += p.memory();
            }
        }
        self.cpu_ms = seen;
        if wall_ms > 0.0 {
            r.cpu_pct = (used_ms as f64 / wall_ms * 100.0) as f32;
        }
        r
    }
}

/// The process and all its descendants, from /proc's children lists.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let pid = out[i];
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for t in tasks.flatten() {
                if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                    out.extend(s.split_whitespace().filter_map(|x| x.parse::<u32>().ok()));
                }
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPU seconds a process has used, from the kernel (clock ticks of 1/100 s).
    fn cpu_secs(pid: u32) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        let f: Vec<f64> = after_name
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        (f[11] + f[12]) / 100.0
    }

    #[test]
    fn agrees_with_the_kernel_on_a_busy_child() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        let mut s = TreeSampler::new(child.id());
        let (c0, t0) = (cpu_secs(child.id()), Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(600));
        let r = s.sample();
        let (c1, t1) = (cpu_secs(child.id()), Instant::now());
        let tree = descendants(std::process::id());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(tree.contains(&child.id()), "{tree:?}");
        let kernel_pct = (c1 - c0) / (t1 - t0).as_secs_f64() * 100.0;
        assert!(r.cpu_pct > 0.0, "a busy child shows no CPU");
        assert!(
            (f64::from(r.cpu_pct) - kernel_pct).abs() < 10.0,
            "sampler says {} %, kernel says {kernel_pct:.1} %",
            r.cpu_pct
        );
        assert!(r.rss_bytes > 100 << 10, "rss {}", r.rss_bytes);
    }
}
