//! Errors as they cross into the page: a stable `code` the page can branch on and a
//! one-line `message` it shows as is.

use serde::Serialize;

/// A failed command, serialised as `{code, message}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandError {
    /// Machine-readable kind: `invalid_input`, `not_found`, `corrupt`, `busy`, `io`.
    pub code: &'static str,
    /// What went wrong, naming the file or value at fault.
    pub message: String,
}

impl CommandError {
    /// An error of kind `code`.
    pub fn new(code: &'static str, message: impl std::fmt::Display) -> CommandError {
        CommandError {
            code,
            message: message.to_string(),
        }
    }
}

impl From<wasmeter_core::store::StoreError> for CommandError {
    fn from(e: wasmeter_core::store::StoreError) -> CommandError {
        use wasmeter_core::store::StoreError;
        let code = match &e {
            StoreError::NotFound { .. } | StoreError::Ambiguous { .. } => "not_found",
            StoreError::Corrupt { .. } => "corrupt",
            _ => "io",
        };
        CommandError::new(code, e)
    }
}

impl From<wasmeter_core::runner::PlanError> for CommandError {
    fn from(e: wasmeter_core::runner::PlanError) -> CommandError {
        CommandError::new("invalid_input", e)
    }
}

impl From<wasmeter_core::suite::SuiteError> for CommandError {
    fn from(e: wasmeter_core::suite::SuiteError) -> CommandError {
        CommandError::new("invalid_input", e)
    }
}

impl From<wasmeter_core::config::ConfigError> for CommandError {
    fn from(e: wasmeter_core::config::ConfigError) -> CommandError {
        CommandError::new("invalid_input", e)
    }
}

/// What every command returns.
pub type CmdResult<T> = Result<T, CommandError>;
