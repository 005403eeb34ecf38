//! A `wasi:http/proxy` component given to the wasmtime CLI as a command job. `wasmtime run`
//! runs `wasi:cli/run` only, so the job's run line becomes `wasmtime serve` with the same
//! options on a free loopback port, one `GET /` is sent, and the response body is the job's
//! output: the same answer the embedded engine gives (`gateway_http::answer_once`).

use super::{Failure, Iteration, Job, Phase};
use crate::runtime::launch::{ServerProcess, free_port};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use wasmeter_http::client::request_once;

/// Longest wait for `wasmtime serve` to listen: it compiles the component first.
const START: Duration = Duration::from_secs(60);

/// The `wasmtime serve` line of a `wasmtime run` line (its options, `--addr`, wasi:cli on,
/// and the component without the guest's arguments, which a server takes none of); `None`
/// for any other runtime's line.
fn serve_line(run: &[String], port: u16) -> Option<Vec<String>> {
    let program = run.first()?;
    if Path::new(program).file_name()? != "wasmtime" || run.get(1)? != "run" {
        return None;
    }
    let mut options = run[2..].to_vec();
    let component = options.iter().position(|w| w == "--")? + 2;
    options.truncate(component.min(options.len()));
    let mut line = vec![
        program.clone(),
        "serve".into(),
        "--addr".into(),
        format!("127.0.0.1:{port}"),
        // wasi:cli's interfaces too (environment, stdout), as the gateway's
        // `wasmtime-serve` gives them: `serve` links only wasi:http's world without it.
        "-S".into(),
        "cli=y".into(),
    ];
    line.extend(options);
    Some(line)
}

/// Serves the job's component with the `wasmtime serve` line of `run` on a free port, sends
/// `GET /` once it listens, and stops the server; `None` when `run` is not a `wasmtime run`
/// line. A status other than 200 fails the job with the body's start; a server that exits
/// first, with its last words.
pub fn answer_once(
    run: &[String],
    job: &Job,
    env: &[(String, String)],
) -> Option<Result<Iteration, Failure>> {
    let port = match free_port() {
        Ok(p) => p,
        Err(e) => return Some(Err(Failure::Other(format!("a free port: {e}")))),
    };
    let line = serve_line(run, port)?;
    Some(serve(&line, port, job, env))
}

fn serve(
    line: &[String],
    port: u16,
    job: &Job,
    env: &[(String, String)],
) -> Result<Iteration, Failure> {
    let mut cmd = Command::new(&line[0]);
    cmd.args(&line[1..])
        .current_dir(&job.scratch)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)));
    let whole = Instant::now();
    let mut server = ServerProcess::spawn(cmd, None, port).map_err(Failure::Other)?;
    loop {
        if let Some(status) = server.exited() {
            return Err(Failure::Other(format!(
                "wasmtime serve exited ({status}) before it listened{}",
                server.stderr_suffix(": ")
            )));
        }
        if TcpStream::connect_timeout(&server.addr, Duration::from_secs(1)).is_ok() {
            break;
        }
        if whole.elapsed() > START {
            return Err(Failure::Other(format!(
                "wasmtime serve did not listen on {} within {} s{}",
                server.addr,
                START.as_secs(),
                server.stderr_suffix(": ")
            )));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let mut it = Iteration::default();
    it.wall(Phase::Compile, whole.elapsed());
    let t = Instant::now();
    let (status, body) = request_once(server.addr, "GET", "/", b"", Duration::from_secs(30))
        .map_err(|e| {
            Failure::Other(format!(
                "GET / from wasmtime serve: {e}{}",
                server.stderr_suffix("; stderr: ")
            ))
        })?;
    it.wall(Phase::Execute, t.elapsed());
    it.wall(Phase::Total, whole.elapsed());
    drop(server);
    it.answered(status, body, job.stdout_limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn a_wasmtime_run_line_becomes_serve_with_its_options_and_no_guest_arguments() {
        let run =
            words("/x/wasmtime run -C cache=n -W max-memory-size=9 --dir /s::. -- /p.wasm a b");
        assert_eq!(
            serve_line(&run, 8080).unwrap(),
            words(
                "/x/wasmtime serve --addr 127.0.0.1:8080 -S cli=y -C cache=n -W max-memory-size=9 --dir /s::. -- /p.wasm"
            )
        );
        assert_eq!(serve_line(&words("/x/node wrapper.js -- /p.wasm"), 1), None);
        assert_eq!(serve_line(&words("/x/wasmtime compile /p.wasm"), 1), None);
    }
}
