//! The native variant: the gateway's workloads written in Rust, no wasm at all — the
//! baseline every wasm variant is compared against.

use super::Backend;
use wasmeter_http::guest::{GuestCall, GuestReply, MAX_COMPUTE, compute_digest};

/// The workloads in Rust, answering exactly what the guest answers.
pub struct NativeBackend;

impl Backend for NativeBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        let arg = call.args.first().map(String::as_str);
        Ok(match call.workload.as_str() {
            "hello" => GuestReply::text(200, "hello, world\n"),
            "compute" => match arg.and_then(|a| a.parse::<u64>().ok()) {
                Some(n) if (1..=MAX_COMPUTE).contains(&n) => {
                    GuestReply::text(200, format!("{}\n", compute_digest(n)))
                }
                _ => GuestReply::text(400, "compute: N must be 1..10000000\n"),
            },
            "state" => match arg.and_then(|a| a.parse::<u64>().ok()) {
                Some(c) => {
                    let mut r = GuestReply::text(200, format!("{}\n", c + 1));
                    r.headers.push(("X-Counter".into(), (c + 1).to_string()));
                    r
                }
                None => GuestReply::text(400, "state: bad counter\n"),
            },
            "proxy" => {
                let mut r = GuestReply::text(200, call.stdin.clone());
                r.headers.push(("X-Forward".into(), "/echo".into()));
                r
            }
            "" => GuestReply::text(400, "no workload\n"),
            w => GuestReply::text(404, format!("unknown workload '{w}'\n")),
        })
    }
}
