//! Terminal UI of wasmeter (ratatui): pick runtimes and tests, run and watch, browse saved
//! runs, diff them and export reports.
//!
//! Layout follows the gitui / ratatui templates: a [`component::Component`] trait, one file
//! per pane under `panes/`, rendering as a pure function of state (so every screen is
//! snapshot-tested with `TestBackend`), and a terminal guard plus a panic hook that always
//! restore the terminal.

pub mod app;
pub mod component;
pub mod input;
pub mod launch;
pub mod panes;
pub mod tabs;
pub mod terminal;
pub mod ui;

use anyhow::{Context, Result};
use crossterm::event::{self, Event as TermEvent, KeyEventKind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use app::App;

/// Where the UI finds things.
#[derive(Debug, Clone)]
pub struct TuiOptions {
    /// Results directory (saved runs).
    pub results: PathBuf,
    /// Suites root.
    pub suites: PathBuf,
    /// When the process started, to measure the time to the first frame.
    pub started: Instant,
}

/// Frame interval while a run is in flight (20 fps; the runner never blocks drawing).
pub const RUN_FRAME: Duration = Duration::from_millis(50);
/// Input poll timeout when idle: nothing is redrawn unless something changed.
pub const IDLE_POLL: Duration = Duration::from_millis(250);

/// Opens the terminal UI and runs it until the user quits. The terminal is restored on
/// return, on error and on panic.
pub fn run(opts: TuiOptions) -> Result<()> {
    let stats_path = std::env::var_os("WASMETER_TUI_STATS").map(PathBuf::from);
    let started = opts.started;
    let mut app = App::start(opts).context("cannot start the terminal UI")?;
    terminal::install_panic_hook();
    let mut guard = terminal::TerminalGuard::enter().context("cannot set up the terminal")?;
    let mut stats = FrameStats::default();
    let mut last_draw: Option<Instant> = None;
    loop {
        let now = Instant::now();
        app.tick(now);
        let due = app.is_running() && last_draw.is_none_or(|t| now - t >= RUN_FRAME);
        if app.dirty || due {
            guard
                .terminal
                .draw(|f| ui::draw(f, &app))
                .context("cannot draw")?;
            app.dirty = false;
            last_draw = Some(now);
            stats.frame(started, app.is_running());
        }
        if app.should_quit() {
            break;
        }
        let timeout = if app.is_running() {
            RUN_FRAME.saturating_sub(last_draw.map(|t| t.elapsed()).unwrap_or_default())
        } else if app.is_reading_history() {
            // A history being read is looked for at the run's frame rate.
            RUN_FRAME
        } else {
            IDLE_POLL
        };
        if event::poll(timeout).context("cannot read terminal input")? {
            match event::read().context("cannot read terminal input")? {
                TermEvent::Key(k) if k.kind != KeyEventKind::Release => app.on_key(k),
                TermEvent::Mouse(m) => {
                    let width = guard.terminal.size().map_or(u16::MAX, |s| s.width);
                    app.on_mouse(m, width)
                }
                TermEvent::Resize(..) => app.dirty = true,
                _ => {}
            }
        }
    }
    app.shutdown();
    drop(guard);
    if let Some(p) = stats_path {
        std::fs::write(&p, stats.report()).with_context(|| format!("{}", p.display()))?;
    }
    Ok(())
}

/// Frame timing, written to `$WASMETER_TUI_STATS` on exit (used for docs/benchmarks.md).
#[derive(Debug, Default)]
struct FrameStats {
    first_frame: Option<Duration>,
    frames: u64,
    run_frames: u64,
    run_first: Option<Instant>,
    run_last: Option<Instant>,
}

impl FrameStats {
    fn frame(&mut self, started: Instant, running: bool) {
        let now = Instant::now();
        self.frames += 1;
        self.first_frame.get_or_insert(now - started);
        if running {
            self.run_frames += 1;
            self.run_first.get_or_insert(now);
            self.run_last = Some(now);
        }
    }

    fn report(&self) -> String {
        let run_secs = match (self.run_first, self.run_last) {
            (Some(a), Some(b)) => (b - a).as_secs_f64(),
            _ => 0.0,
        };
        let fps = if run_secs > 0.0 {
            (self.run_frames.saturating_sub(1)) as f64 / run_secs
        } else {
            0.0
        };
        format!(
            "first_frame_ms {:.1}\nframes {}\nrun_frames {}\nrun_secs {:.2}\nrun_fps {:.1}\n",
            self.first_frame.unwrap_or_default().as_secs_f64() * 1e3,
            self.frames,
            self.run_frames,
            run_secs,
            fps
        )
    }
}
