//! wasmeter-profile: where a guest's time goes. Samples a worker with the kernel's CPU clock
//! and names each sample's function: the module's own, the engine's, the host's or native
//! code's. Above the model (it saves into the store), below the engines (which start it) and
//! the reports (which explain what it saved).

pub mod profile;

// The model's modules this crate builds on, under the paths its code names them by.
use wasmeter_model::{store, text};
