//! wasmeter's HTTP/1.1 kit: the [`codec`] both sides speak, the small [`server`] (and [`client`]) the
//! gateways and test servers run on, the [`load`] generator that measures them, and the
//! gateway [`guest`] protocol (a request as a guest's argv and stdin, its stdout as the reply).
//!
//! Its own crate, with no WebAssembly in it: an engine change does not recompile it, and
//! it can be fuzzed and tested without building one.

pub mod client;
pub mod codec;
pub mod cpu;
pub mod guest;
pub mod load;
pub mod server;
