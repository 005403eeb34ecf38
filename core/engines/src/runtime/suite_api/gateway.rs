//! What the gateway asks of an engine: a [`Backend`] that answers one request by running
//! the guest, built from a [`GatewaySpec`]; [`GuestPool`] serves engines that must not
//! block the server's threads. Below both the gateway (`crate::http::gateway`) and the
//! engines (`runtime/embedded`), so neither imports the other.

use crate::model::RuntimeInfo;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::path::PathBuf;
use wasmeter_http::guest::{GuestCall, GuestReply};

#[cfg(feature = "embedded")]
pub use super::pool::GuestPool;

/// One way of running the gateway guest for a request.
pub trait Backend: Send + Sync {
    /// Runs the guest (or its native equivalent) once and returns its reply.
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String>;
}

/// What a gateway server process is started with (`wasmeter serve-gateway`, JSON on stdin).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GatewaySpec {
    /// The variant: native, an embedded runtime, or a CLI runtime.
    pub runtime: RuntimeInfo,
    /// The guest module.
    pub wasm: PathBuf,
    /// Loopback port to listen on.
    pub port: u16,
    /// The upstream echo server of the `proxy` workload.
    pub upstream: Option<SocketAddr>,
    /// Server worker threads.
    pub threads: usize,
    /// Most guest processes a CLI variant runs at once.
    pub cli_inflight: usize,
    /// Linear-memory cap of an embedded guest, bytes.
    pub memory_limit: u64,
    /// Private directory for CLI guests and precompiled artifacts.
    pub scratch: PathBuf,
    /// Listen on every address of the network namespace, not only loopback: inside a
    /// container, whose published port arrives on its own interface.
    #[serde(default)]
    pub listen_any: bool,
}
