//! wasmeter's HTTP/1.1 kit: the [`codec`] both sides speak, the small [`server`] the
//! gateways and test servers run on, and the [`load`] generator that measures them.
//!
//! Its own crate, with no WebAssembly in it: an engine change does not recompile it, and
//! it can be fuzzed and tested without building one.

pub mod codec;
pub mod cpu;
pub mod load;
pub mod server;
