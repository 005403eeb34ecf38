//! HTTP suites: a load generator ([`load`]) over a small HTTP/1.1 codec ([`codec`]) and
//! server ([`server`]); the wasm-vs-native [`gateway`] and the guest protocol it speaks
//! ([`guest`]); and the [`driver`] that takes one cell (a server variant × a request)
//! through cold start, warm latency and throughput at each concurrency level.

pub mod codec;
pub mod container;
pub mod driver;
pub mod gateway;
pub mod guest;
pub mod launch;
pub mod load;
pub mod server;
mod upstream;

use serde::{Deserialize, Serialize};

/// How an HTTP suite loads each server, recorded with the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpSettings {
    /// Concurrency levels (connections) of the throughput phases.
    pub levels: Vec<u32>,
    /// Load per level, ms (a fifth of it, at most 500 ms, is warm-up).
    pub duration_ms: u64,
    /// Warm latency over one connection, ms.
    pub latency_ms: u64,
    /// Server threads of the gateway.
    pub server_threads: usize,
    /// Load generator threads.
    pub client_threads: usize,
    /// Most guest processes a CLI gateway runs at once.
    pub cli_inflight: usize,
    /// Longest a server may take to answer its first 200 OK, ms.
    pub ready_timeout_ms: u64,
}

impl Default for HttpSettings {
    fn default() -> HttpSettings {
        HttpSettings {
            levels: vec![1, 10, 50, 100, 200, 400],
            duration_ms: 2000,
            latency_ms: 1000,
            server_threads: 2,
            client_threads: 2,
            cli_inflight: 8,
            ready_timeout_ms: 20_000,
        }
    }
}

impl HttpSettings {
    /// Longest one iteration of a cell can take when every server behaves: what the
    /// runner's per-iteration timeout is extended by.
    pub fn iteration_budget(&self) -> std::time::Duration {
        let levels = self.levels.len() as u64;
        std::time::Duration::from_millis(
            self.ready_timeout_ms + self.latency_ms + levels * (self.duration_ms + 3000) + 5000,
        )
    }
}
