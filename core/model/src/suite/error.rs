//! What can be wrong with a suite: its manifest, its name, or a test asked of it.

use std::path::PathBuf;

/// Errors in a suite manifest; every one names the file, and the line where one is known.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The manifest could not be read.
    #[error("{path}: cannot read suite manifest: {source}")]
    Io {
        /// Manifest path.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The manifest is not valid TOML or does not have the expected shape.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// Manifest path.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No suite with that name was found.
    #[error("unknown suite '{name}' (known: {known})")]
    UnknownSuite {
        /// Requested name.
        name: String,
        /// Comma-separated known names.
        known: String,
    },
    /// The suite's manifest is there but does not load: the catalogue lists it as broken
    /// (so the other suites still list and run) and refuses to run it.
    #[error("suite '{name}' is broken: {error}")]
    Broken {
        /// Suite name (from the manifest when it says, else its folder's).
        name: String,
        /// Why it does not load, one line naming the manifest and line.
        error: String,
    },
    /// A suite that a build script makes has not been built yet.
    #[error("suite '{name}' is not built yet: run `wasmeter suite build {by}` (runs {script})")]
    NotBuilt {
        /// Suite name.
        name: String,
        /// The suite whose build script makes it (itself, or `apps` for `apps-lifecycle`).
        by: String,
        /// Its build script.
        script: PathBuf,
    },
    /// A test name that the suite does not have.
    #[error("unknown test '{name}' in suite '{suite}' (known: {known})")]
    UnknownTest {
        /// Suite name.
        suite: String,
        /// Requested test.
        name: String,
        /// Comma-separated known tests.
        known: String,
    },
}
