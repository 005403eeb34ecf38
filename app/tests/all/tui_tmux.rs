//! End-to-end test of the terminal UI: drives the real binary in tmux (send-keys /
//! capture-pane), runs sha256 on wasmtime and native, sees the results table, the saved run
//! in the list and its detail. Skipped (with a note) when tmux is not installed.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
    session: String,
}

impl Tmux {
    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    fn start(shell_cmd: &str) -> Tmux {
        let t = Tmux {
            socket: format!("wasmeter-test-{}", std::process::id()),
            session: "tui".into(),
        };
        let ok = t
            .tmux()
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                &t.session,
                "-x",
                "120",
                "-y",
                "40",
            ])
            .arg(shell_cmd)
            .status()
            .expect("start tmux");
        assert!(ok.success(), "tmux new-session failed");
        t
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = self
                .tmux()
                .args(["send-keys", "-t", &self.session, k])
                .status()
                .unwrap();
            assert!(ok.success());
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    fn text(&self, s: &str) {
        let ok = self
            .tmux()
            .args(["send-keys", "-l", "-t", &self.session, s])
            .status()
            .unwrap();
        assert!(ok.success());
        std::thread::sleep(Duration::from_millis(100));
    }

    fn capture(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Polls the screen until `pred` holds, up to `secs`; panics with the last screen.
    fn wait(&self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let t0 = Instant::now();
        loop {
            let s = self.capture();
            if pred(&s) {
                return s;
            }
            if t0.elapsed() > Duration::from_secs(secs) {
                panic!("timed out after {secs} s waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn wait_for(&self, needle: &str, secs: u64) -> String {
        self.wait(needle, secs, |s| s.contains(needle))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn tui_runs_sha256_on_wasmtime_and_native() {
    if !have_tmux() {
        eprintln!("skipped: tmux is not installed (apt-get install tmux)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let cmd = format!(
        "cd {} && WASMETER_SUITES={} {} tui --results {}; echo EXITED $?; sleep 60",
        tmp.path().display(),
        crate::common::suites_root().display(),
        env!("CARGO_BIN_EXE_wasmeter"),
        results.display()
    );
    let t = Tmux::start(&cmd);

    // Runtimes detected; include exactly native and wasmtime (the first and third rows:
    // native-dlopen is between them).
    t.wait_for("runtimes included", 60);
    for _ in 0..2 {
        if t.capture().contains("┃0 of ") {
            break;
        }
        t.keys(&["a"]);
    }
    t.wait_for("┃0 of ", 5);
    t.keys(&["g", "Space", "j", "j", "Space"]);
    let s = t.wait_for("┃2 of ", 5);
    assert!(
        s.contains("[x] native") && s.contains("[x] wasmtime "),
        "{s}"
    );

    // Tests: untick the compute suite, filter, tick sha256; 2 measured runs.
    t.keys(&["2", "g"]);
    t.wait_for("compute", 5);
    t.keys(&["Space"]);
    t.wait_for("[ ] compute", 5);
    t.keys(&["/"]);
    t.text("sha256");
    t.keys(&["Enter", "j", "Space"]);
    t.wait_for("[x] sha256", 5);
    t.keys(&["Tab", "j", "j", "Left", "Left", "Left"]);
    t.wait("runs = 2", 5, |s| {
        s.lines().any(|l| l.contains("runs") && l.contains(" 2 "))
    });

    // Run: the live screen fills, the run completes, results show relative times.
    t.keys(&["r"]);
    let s = t.wait_for("complete, 0 failed", 120);
    assert!(s.contains("2/2 cells"), "{s}");
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("sha256") && l.contains('×') && l.contains("ms"))
        .collect();
    assert!(
        rows.iter()
            .any(|l| l.contains("native") && l.contains("1.00×"))
            && rows.iter().any(|l| l.contains("wasmtime")),
        "results table:\n{s}"
    );

    // Saved runs: the run is listed as complete; open its detail.
    t.keys(&["4"]);
    let s = t.wait_for("complete", 10);
    assert!(s.contains("native,wasmtime"), "{s}");
    assert_eq!(wasmeter_core::store::list_runs(&results).unwrap().len(), 1);
    t.keys(&["Enter"]);
    let s = t.wait_for("Matrix", 10);
    assert!(s.contains("sha256") && s.contains("geomean"), "{s}");

    // Quit restores the terminal and exits 0.
    t.keys(&["q"]);
    t.wait_for("EXITED 0", 10);
    assert!(Path::new(&results).is_dir());
}
