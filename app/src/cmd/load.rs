//! `wasmeter load URL`: core's load generator on its own, wrk-style, for loading any
//! server on loopback (and for checking the generator against wrk).

use crate::InputError;
use crate::args::LoadArgs;
use anyhow::Result;
use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;
use wasmeter_core::http::load::{self, LoadSpec, Stop};

/// Splits `http://host:port/path` into a loopback address and the request target.
fn parse_url(url: &str) -> Result<(SocketAddr, String)> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| InputError(format!("'{url}': only http:// URLs are supported")))?;
    let (hostport, path) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    let hostport = if hostport.contains(':') && !hostport.ends_with(']') {
        hostport.to_string()
    } else {
        format!("{hostport}:80")
    };
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| InputError(format!("'{url}': {e}")))?
        .find(|a| a.ip().is_loopback())
        .ok_or_else(|| {
            InputError(format!(
                "'{url}': not a loopback address (wasmeter loads only servers on this machine)"
            ))
        })?;
    Ok((addr, path))
}

fn secs(flag: &str, v: f64) -> Result<Duration> {
    if v.is_finite() && (0.0..=86_400.0).contains(&v) {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(InputError(format!("--{flag} must be between 0 and 86400 seconds")).into())
    }
}

pub fn main(args: &LoadArgs) -> Result<ExitCode> {
    let (addr, path) = parse_url(&args.url)?;
    let duration = secs("duration", args.duration)?;
    let spec = LoadSpec {
        path,
        method: args.method.clone(),
        body: args.body.clone().into_bytes(),
        connections: args.connections,
        stop: match args.requests {
            Some(n) => Stop::Requests(n),
            None => Stop::Duration(duration),
        },
        warmup: secs("warmup", args.warmup)?,
        rate: args.rate,
        request_timeout: secs("timeout", args.timeout)?,
        threads: args.threads,
        ..LoadSpec::new(addr)
    };
    let r = load::run(&spec).map_err(|e| InputError(e.to_string()))?;
    let ms = |ns: u64| ns as f64 / 1e6;
    if args.json {
        let v = serde_json::json!({
            "url": args.url,
            "connections": args.connections,
            "threads": args.threads,
            "requests": r.requests,
            "elapsed_s": r.elapsed.as_secs_f64(),
            "rps": r.rps,
            "latency_ns": {
                "min": r.latency.min, "mean": r.latency.mean, "p50": r.latency.p50,
                "p90": r.latency.p90, "p99": r.latency.p99, "p999": r.latency.p999,
                "max": r.latency.max,
            },
            "errors": r.errors,
            "statuses": r.statuses,
            "bytes_read": r.bytes_read,
            "sent": r.sent,
            "unsent": r.unsent,
        });
        super::print_json(&v)?;
    } else {
        println!(
            "{} requests in {:.2} s over {} connections ({} threads)",
            r.requests,
            r.elapsed.as_secs_f64(),
            args.connections,
            args.threads
        );
        println!("requests/s  {:.1}", r.rps);
        println!(
            "latency ms  p50 {:.3}  p90 {:.3}  p99 {:.3}  p99.9 {:.3}  max {:.3}  mean {:.3}",
            ms(r.latency.p50),
            ms(r.latency.p90),
            ms(r.latency.p99),
            ms(r.latency.p999),
            ms(r.latency.max),
            r.latency.mean / 1e6
        );
        if !r.errors.is_empty() {
            let e: Vec<String> = r.errors.iter().map(|(k, n)| format!("{k} {n}")).collect();
            println!("errors      {}", e.join(", "));
        }
        if r.unsent > 0 {
            println!(
                "unsent      {} requests were due but never started: every connection was still waiting on the server",
                r.unsent
            );
        }
    }
    Ok(if r.errors.is_empty() && r.requests > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
