//! Plain threads that run guests for a server's async threads. Engines whose WASI layer
//! blocks on tokio internally (wasmtime-wasi's synchronous mode, wasmer-wasix) may not run
//! on a thread that drives a runtime; a request is handed to one of these instead.

use crossbeam_channel::{Sender, bounded, unbounded};
use wasmeter_http::guest::{GuestCall, GuestReply};

type Job = (GuestCall, Sender<Result<GuestReply, String>>);

/// A fixed set of guest threads fed from one queue.
pub struct GuestPool {
    jobs: Sender<Job>,
}

impl GuestPool {
    /// Starts `threads` threads; each first runs `setup` (e.g. entering a runtime) and then
    /// answers calls with the function it returns.
    pub fn new<S, F>(threads: usize, setup: S) -> GuestPool
    where
        S: Fn() -> F + Send + Sync + Clone + 'static,
        F: FnMut(&GuestCall) -> Result<GuestReply, String>,
    {
        let (tx, rx) = unbounded::<Job>();
        for _ in 0..threads.max(1) {
            let (rx, setup) = (rx.clone(), setup.clone());
            std::thread::spawn(move || {
                let mut run = setup();
                for (call, reply) in rx {
                    let _ = reply.send(run(&call));
                }
            });
        }
        GuestPool { jobs: tx }
    }

    /// Runs one call on a guest thread and waits for its reply.
    pub fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        let (tx, rx) = bounded(1);
        self.jobs
            .send((call.clone(), tx))
            .map_err(|_| "guest threads are gone".to_string())?;
        rx.recv().map_err(|_| "guest thread died".to_string())?
    }
}
