//! The CPU a cgroup lets this process use: a quota (cgroup v2 `cpu.max`, v1
//! `cpu.cfs_quota_us` over `cpu.cfs_period_us`) makes a machine of N CPUs one of fewer
//! cores' worth, and a group that reaches its quota is throttled — stopped until the next
//! period — which slows a cell as much as another process on its CPU would. `/proc/stat`
//! sees neither, so the busy rule reads both here.

use std::path::{Path, PathBuf};

/// This process's CPU cgroup: its folder and those above it, leaf first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuGroup {
    dirs: Vec<PathBuf>,
    v2: bool,
}

impl CpuGroup {
    /// This process's CPU cgroup; `None` where there is no CPU controller to read.
    pub fn find() -> Option<CpuGroup> {
        let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let (v1, v2) = parse_membership(&text);
        // v1's cpu controller, where it is mounted (hybrid hosts mount v2 beside it).
        if let Some((controllers, path)) = v1 {
            for mount in [
                format!("/sys/fs/cgroup/{controllers}"),
                "/sys/fs/cgroup/cpu".into(),
            ] {
                let leaf = Path::new(&mount).join(path.trim_start_matches('/'));
                if leaf.join("cpu.cfs_quota_us").exists() {
                    return Some(CpuGroup {
                        dirs: up_to(&leaf, Path::new(&mount)),
                        v2: false,
                    });
                }
            }
        }
        let path = v2?;
        for mount in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
            let leaf = Path::new(mount).join(path.trim_start_matches('/'));
            if leaf.join("cpu.stat").exists() {
                return Some(CpuGroup {
                    dirs: up_to(&leaf, Path::new(mount)),
                    v2: true,
                });
            }
        }
        None
    }

    /// Cores' worth of CPU the tightest quota on the way to the root allows; `None`
    /// without one.
    pub fn quota(&self) -> Option<f64> {
        let read = |p: PathBuf| std::fs::read_to_string(p).ok();
        self.dirs
            .iter()
            .filter_map(|d| {
                if self.v2 {
                    parse_cpu_max(&read(d.join("cpu.max"))?)
                } else {
                    parse_cfs(
                        &read(d.join("cpu.cfs_quota_us"))?,
                        &read(d.join("cpu.cfs_period_us"))?,
                    )
                }
            })
            .reduce(f64::min)
    }

    /// How long the group has been throttled in all, ns (`throttled_usec` of v2's
    /// `cpu.stat`, `throttled_time` of v1's).
    pub fn throttled_ns(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(self.dirs.first()?.join("cpu.stat")).ok()?;
        parse_throttled(&stat, self.v2)
    }
}

/// Cores' worth of CPU that `cpus` CPUs give under a quota of `quota` cores (none: all).
pub fn capacity(cpus: usize, quota: Option<f64>) -> f64 {
    let cpus = cpus.max(1) as f64;
    quota.map_or(cpus, |q| q.min(cpus))
}

/// The leaf folder and its parents up to and including `mount`.
fn up_to(leaf: &Path, mount: &Path) -> Vec<PathBuf> {
    leaf.ancestors()
        .take_while(|d| d.starts_with(mount))
        .map(Path::to_path_buf)
        .collect()
}

/// The v1 `cpu` controller's line (its controllers, its path) and the v2 path of
/// `/proc/self/cgroup`.
fn parse_membership(text: &str) -> (Option<(String, String)>, Option<String>) {
    let (mut v1, mut v2) = (None, None);
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if id == "0" && controllers.is_empty() {
            v2 = Some(path.to_string());
        } else if controllers.split(',').any(|c| c == "cpu") {
            v1 = Some((controllers.to_string(), path.to_string()));
        }
    }
    (v1, v2)
}

/// v2's `cpu.max`: `QUOTA PERIOD` in µs, or `max PERIOD` for none.
fn parse_cpu_max(text: &str) -> Option<f64> {
    let mut parts = text.split_whitespace();
    let quota: f64 = parts.next()?.parse().ok()?;
    let period: f64 = parts.next().unwrap_or("100000").parse().ok()?;
    (quota > 0.0 && period > 0.0).then(|| quota / period)
}

/// v1's quota and period, µs; a quota of -1 is none.
fn parse_cfs(quota: &str, period: &str) -> Option<f64> {
    let quota: f64 = quota.trim().parse().ok()?;
    let period: f64 = period.trim().parse().ok()?;
    (quota > 0.0 && period > 0.0).then(|| quota / period)
}

/// Throttled time of a `cpu.stat`, ns.
fn parse_throttled(stat: &str, v2: bool) -> Option<u64> {
    let key = if v2 {
        "throttled_usec"
    } else {
        "throttled_time"
    };
    let value: u64 = stat
        .lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())?;
    Some(if v2 { value * 1000 } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_names_the_v1_cpu_controller_and_the_v2_path() {
        let hybrid = "9:name=systemd:/\n4:memory:/x\n2:cpu,cpuacct:/docker/abc\n0::/user.slice\n";
        let (v1, v2) = parse_membership(hybrid);
        assert_eq!(v1, Some(("cpu,cpuacct".into(), "/docker/abc".into())));
        assert_eq!(v2.as_deref(), Some("/user.slice"));
        // cpuacct alone is not the cpu controller.
        let (v1, _) = parse_membership("2:cpuacct:/\n1:cpu:/\n");
        assert_eq!(v1, Some(("cpu".into(), "/".into())));
        assert_eq!(parse_membership("0::/a/b\n"), (None, Some("/a/b".into())));
    }

    #[test]
    fn quotas_are_cores_and_none_is_none() {
        assert_eq!(parse_cpu_max("50000 100000\n"), Some(0.5));
        assert_eq!(parse_cpu_max("150000 100000"), Some(1.5));
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cfs("-1\n", "100000\n"), None);
        assert_eq!(parse_cfs("200000", "100000"), Some(2.0));
        assert_eq!(
            parse_throttled("usage_usec 10\nnr_throttled 3\nthrottled_usec 42\n", true),
            Some(42_000)
        );
        assert_eq!(
            parse_throttled("nr_periods 0\nnr_throttled 0\nthrottled_time 7\n", false),
            Some(7)
        );
        assert_eq!(parse_throttled("nr_periods 0\n", false), None);
    }

    #[test]
    fn the_tightest_quota_up_the_tree_wins() {
        let root = tempfile::tempdir().unwrap();
        let leaf = root.path().join("a/b");
        std::fs::create_dir_all(&leaf).unwrap();
        std::fs::write(root.path().join("cpu.max"), "max 100000\n").unwrap();
        std::fs::write(root.path().join("a/cpu.max"), "50000 100000\n").unwrap();
        std::fs::write(leaf.join("cpu.max"), "150000 100000\n").unwrap();
        std::fs::write(leaf.join("cpu.stat"), "throttled_usec 5\n").unwrap();
        let g = CpuGroup {
            dirs: up_to(&leaf, root.path()),
            v2: true,
        };
        assert_eq!(g.dirs.len(), 3);
        assert_eq!(g.quota(), Some(0.5));
        assert_eq!(g.throttled_ns(), Some(5000));
    }

    #[test]
    fn this_process_group_reads_where_the_host_has_one() {
        // On these VMs: a v1 cpu controller without a quota, never throttled so far.
        if let Some(g) = CpuGroup::find() {
            assert!(g.throttled_ns().is_some(), "{g:?}");
            if let Some(q) = g.quota() {
                assert!(q > 0.0);
            }
        } else {
            assert!(
                std::env::var_os("CI").is_none()
                    || !Path::new("/sys/fs/cgroup/cpu/cpu.stat").exists(),
                "a CPU cgroup exists but was not found"
            );
        }
    }
}
