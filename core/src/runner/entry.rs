//! The one entry point of the programs the runner starts. A cell runs as `<worker program>
//! worker`, a gateway cell's server as `<worker program> serve-gateway`; the worker program
//! is whichever binary runs the run (`wasmeter`, or `wasmeter-desktop` in the desktop
//! app), so each binary hands these subcommands to [`worker_entry`] before anything else.
//! A host-driven cell added later gets its subcommand here, and both binaries serve it.

use std::io::{Read, Write};
use std::process::ExitCode;

use crate::runtime::{SERVE_ECHO, SERVE_GATEWAY, WORKER};

/// Runs the host-driven subcommand this process was started with (`worker`,
/// `serve-gateway`, `serve-echo`: the program's only argument), its spec on stdin; `None` when started
/// any other way, for the binary to go on as itself.
pub fn worker_entry() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let first = args.next()?;
    if args.next().is_some() {
        return None;
    }
    let code = run_host_command(
        first.to_str()?,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )?;
    Some(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

/// Runs host-driven subcommand `name` on these streams and returns its exit code; `None`
/// when `name` is not one of [`HOST_COMMANDS`].
pub fn run_host_command(name: &str, input: impl Read, output: impl Write) -> Option<i32> {
    match name {
        WORKER => Some(super::worker_main(input, output)),
        SERVE_GATEWAY => Some(crate::http_suites::gateway::serve_main(input)),
        SERVE_ECHO => Some(crate::http_suites::upstream::echo_main(input)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_command_reads_its_spec_and_others_are_not_taken() {
        // A spec that is not JSON: each subcommand is reached and refuses it with exit 2.
        for name in crate::runtime::HOST_COMMANDS {
            let mut out = Vec::<u8>::new();
            assert_eq!(
                run_host_command(name, &b"not json"[..], &mut out),
                Some(2),
                "{name}"
            );
        }
        for other in ["run", "tui", "", "Worker", "serve_gateway"] {
            assert_eq!(
                run_host_command(other, &b""[..], Vec::<u8>::new()),
                None,
                "{other}"
            );
        }
    }
}
