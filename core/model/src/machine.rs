//! The machine a run was measured on, and a fingerprint to tell machines apart.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Facts about the host that change benchmark results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Machine {
    /// CPU model name.
    pub cpu_model: String,
    /// Logical CPUs.
    pub cores: usize,
    /// Operating system name and version.
    pub os: String,
    /// Kernel release.
    pub kernel: String,
    /// CPU frequency governor, where readable.
    pub governor: Option<String>,
    /// Total memory, bytes.
    pub memory_bytes: u64,
    /// Architecture (x86_64, aarch64, ...).
    pub arch: String,
    /// Hash of the fields above: equal fingerprints mean comparable machines.
    pub fingerprint: String,
    /// The CPUs the run could use (its affinity, narrowed by a cgroup CPU set), which the
    /// load of other processes is read over and judged against; `cores` can be fewer under
    /// a CPU quota. `None` in runs saved before it was recorded (then `cores`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus_allowed: Option<usize>,
    /// Cores' worth of CPU the run's cgroup quota allows (`cpu.max`), where one limits it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cpu_quota: Option<f64>,
    /// Why the load of other processes could not be measured, if it could not: every
    /// invocation then counts as busy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub load_unreadable: Option<String>,
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

impl Machine {
    /// Describes this machine.
    pub fn detect() -> Machine {
        let cpu_model = read("/proc/cpuinfo")
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let os = read("/etc/os-release")
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                    .map(|v| v.trim_matches('"').to_string())
            })
            .unwrap_or_else(|| std::env::consts::OS.to_string());
        let kernel = read("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into());
        let governor = read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
        let memory_bytes = read("/proc/meminfo")
            .and_then(|s| {
                s.lines().find_map(|l| {
                    l.strip_prefix("MemTotal:")
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                })
            })
            .map(|kib| kib * 1024)
            .unwrap_or(0);
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let mut m = Machine {
            cpu_model,
            cores,
            os,
            kernel,
            governor,
            memory_bytes,
            arch: std::env::consts::ARCH.to_string(),
            fingerprint: String::new(),
            cpus_allowed: crate::sample::allowed_cpus().map(|c| c.len()),
            cpu_quota: crate::sample::CpuGroup::find().and_then(|g| g.quota()),
            load_unreadable: crate::sample::unreadable(),
        };
        m.fingerprint = m.compute_fingerprint();
        m
    }

    /// Cores' worth of CPU a run could use: its CPUs, or fewer under a cgroup quota. The
    /// load of other processes is judged against it.
    pub fn capacity(&self) -> f64 {
        crate::sample::capacity(self.cpus_allowed.unwrap_or(self.cores), self.cpu_quota)
    }

    fn compute_fingerprint(&self) -> String {
        let mut h = Sha256::new();
        for part in [
            self.cpu_model.as_str(),
            &self.cores.to_string(),
            &self.os,
            &self.kernel,
            self.governor.as_deref().unwrap_or("-"),
            &(self.memory_bytes >> 26).to_string(),
            &self.arch,
        ] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        crate::text::hex(&h.finalize())[..16].to_string()
    }
}
