//! Starting and cancelling a run. The runner works on its own thread; a forwarder drains
//! its events, folds them into core's [`LiveRun`] (the reducer the TUI uses too) and sends
//! the page each batch with the view after it through a `Channel`, so a burst of
//! measurements costs one IPC message, not one per value, and the page decides nothing
//! about progress, statuses or figures.

use crate::workbench::ActiveRun;
use crate::{CmdResult, CommandError, Workbench};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tauri::ipc::Channel;
use wasmeter_core::live::{LiveRun, LiveView};
use wasmeter_core::machine::Machine;
use wasmeter_core::runner::{
    CONFIRM_ABOVE_SECS, Event, Plan, RunChoices, RunRequest, execute, scope,
};
use wasmeter_core::suite::SuiteCatalog;

/// The request of a run of `suite` with the page's choices, against this machine's suites
/// and config.
pub fn request(state: &Workbench, suite: &str, choices: RunChoices) -> CmdResult<RunRequest> {
    let catalog = SuiteCatalog::discover(&state.suites)?;
    let suite = catalog.get(suite)?.clone();
    Ok(RunRequest::from_choices(
        suite,
        choices,
        wasmeter_core::runtime::load_config()?,
    ))
}

/// Checks the choices into a plan, the way `wasmeter run` does.
pub fn plan(state: &Workbench, suite: &str, choices: RunChoices) -> CmdResult<Plan> {
    Ok(Plan::new(request(state, suite, choices)?)?)
}

/// What a run of `suite` with `choices` would do and how long it should take (core's
/// [`scope`], from earlier runs on this machine), in core's words, and whether the page
/// should ask before starting it. Async: planning detects the runtimes.
#[tauri::command(rename_all = "snake_case")]
pub async fn plan_scope(
    state: tauri::State<'_, Workbench>,
    suite: String,
    choices: RunChoices,
) -> CmdResult<serde_json::Value> {
    let plan = plan(&state, &suite, choices)?;
    let s = scope(&plan, &state.results, &Machine::detect().fingerprint);
    Ok(serde_json::json!({
        "text": s.describe(),
        "confirm": s.needs_confirmation(CONFIRM_ABOVE_SECS),
        "scope": s,
    }))
}

/// One message of a run's stream to the page: the runner's events since the last (the
/// page draws its resource graphs from their samples) and core's view of the run after
/// them, with the cells they changed.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct LiveBatch {
    /// The events, in order.
    pub events: Vec<Event>,
    /// The run after them.
    pub view: LiveView,
}

/// Starts a run of `suite` with the page's `choices` (core's own type: what is left out,
/// core's policy decides); its events arrive on `on_event` in batches. Refused while
/// another runs. Async so that planning (runtime detection runs every CLI's `--version`)
/// happens off the window's thread.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_run(
    state: tauri::State<'_, Workbench>,
    suite: String,
    choices: RunChoices,
    on_event: Channel<LiveBatch>,
) -> CmdResult<()> {
    launch(
        &state,
        |s| {
            let plan = match &s.planner {
                Some(planner) => planner(s, &suite, choices)?,
                None => plan(s, &suite, choices)?,
            };
            Ok((plan, ()))
        },
        on_event,
    )
}

/// Plans with `make` and runs the plan on the runner thread, which holds what `make`
/// returns besides the plan (a suite's staging folder) until the run has ended. Refused
/// with `busy` while another run is in flight.
pub(crate) fn launch<K: Send + 'static>(
    state: &Workbench,
    make: impl FnOnce(&Workbench) -> CmdResult<(Plan, K)>,
    on_event: Channel<LiveBatch>,
) -> CmdResult<()> {
    let mut active = state.active.lock().map_err(|_| busy())?;
    if active.as_ref().is_some_and(|r| !r.thread.is_finished()) {
        return Err(busy());
    }
    let (plan, keep) = make(state)?;
    let (tx, rx) = crossbeam_channel::unbounded::<Event>();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let cancel_seen = cancel.clone();
    let (results, worker) = (state.results.clone(), state.worker.clone());
    let thread = std::thread::Builder::new()
        .name("wasmeter-runner".into())
        .spawn(move || {
            let forward = std::thread::spawn(move || {
                // A closed page is no reason to stop the run: it is saved either way.
                forward(&rx, |batch| drop(on_event.send(batch)), &cancel_seen);
            });
            // An error reaches the page as the run's last event, `stopped`.
            let _ = execute(&plan, &results, &worker, &tx, &flag);
            drop(keep);
            drop(tx);
            let _ = forward.join();
        })
        .map_err(|e| CommandError::new("io", format!("cannot start the runner thread: {e}")))?;
    *active = Some(ActiveRun { cancel, thread });
    Ok(())
}

/// The shortest time between two messages to the page: a run of many short cells (hundreds
/// a second) then costs the page a merge and a redraw per frame or two, not one per cell.
const BATCH_GAP: Duration = Duration::from_millis(50);

/// Sends events in batches, each with the run's view after it, until the runner drops its
/// end. The first event after a quiet spell goes at once; while events keep coming, they
/// are gathered until [`BATCH_GAP`] has passed since the last message.
fn forward(
    rx: &crossbeam_channel::Receiver<Event>,
    mut send: impl FnMut(LiveBatch),
    cancel: &AtomicBool,
) {
    let t0 = Instant::now();
    let mut live = LiveRun::new(Duration::ZERO);
    let mut sent: Option<Instant> = None;
    while let Ok(first) = rx.recv() {
        let mut events = vec![first];
        if let Some(at) = sent {
            while let Ok(ev) = rx.recv_deadline(at + BATCH_GAP) {
                events.push(ev);
            }
        }
        events.extend(rx.try_iter());
        let batch = fold(
            &mut live,
            events,
            t0.elapsed(),
            cancel.load(Ordering::SeqCst),
        );
        send(batch);
        sent = Some(Instant::now());
    }
}

/// Folds a batch of events into the run, at `now`, and makes the page's message of it
/// (`cancelling`: a cancel was asked for).
pub fn fold(live: &mut LiveRun, events: Vec<Event>, now: Duration, cancelling: bool) -> LiveBatch {
    for ev in &events {
        live.cancelling = cancelling && live.in_flight();
        live.apply(ev, now);
    }
    LiveBatch {
        events,
        view: live.view(),
    }
}

/// Cancels the run in flight: the cell running is killed, finished cells stay saved.
/// Returns false when nothing was running.
#[tauri::command(rename_all = "snake_case")]
pub fn cancel_run(state: tauri::State<'_, Workbench>) -> CmdResult<bool> {
    let active = state.active.lock().map_err(|_| busy())?;
    Ok(match active.as_ref() {
        Some(r) if !r.thread.is_finished() => {
            r.cancel.store(true, Ordering::SeqCst);
            true
        }
        _ => false,
    })
}

fn busy() -> CommandError {
    CommandError::new("busy", "a run is already in progress; cancel it or wait")
}

#[cfg(test)]
mod tests {
    use super::{BATCH_GAP, Event, forward};
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    /// A stream of events in bursts reaches the page whole and in order, in messages at
    /// least `BATCH_GAP` apart (the last one, sent when the runner ends, aside).
    #[test]
    fn bursts_of_events_go_whole_in_order_in_messages_a_gap_apart() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let producer = std::thread::spawn(move || {
            let t = Instant::now();
            for done in 0..2000u32 {
                tx.send(Event::Progress { index: 0, done }).unwrap();
                if done % 100 == 99 {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            t.elapsed()
        });
        let mut got = Vec::new();
        forward(
            &rx,
            |batch| got.push((Instant::now(), batch.events)),
            &AtomicBool::new(false),
        );
        let took = producer.join().unwrap();
        let done: Vec<u32> = (got.iter().flat_map(|(_, events)| events))
            .map(|e| match e {
                Event::Progress { done, .. } => *done,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(done, (0..2000).collect::<Vec<_>>());
        // 20 bursts 5 ms or more apart: a message each without the gap, a gap's worth with.
        let most = 2 + (took.as_secs_f64() / BATCH_GAP.as_secs_f64()) as usize;
        assert!(got.len() <= most, "{} messages in {took:?}", got.len());
        for pair in got[..got.len() - 1].windows(2) {
            assert!(
                pair[1].0 - pair[0].0 >= BATCH_GAP,
                "{:?}",
                pair[1].0 - pair[0].0
            );
        }
    }
}
