//! A guest's stdout: the self-timing lines (`wasmeter:time_ns=`, libsodium's picoseconds)
//! and the answer comparison. Guests are untrusted; nothing they print may panic the host.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wasmeter_core::suite::{OutputCheck, check_output, parse_output};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The first line (if any) stands for the expected answer, the rest for stdout.
    let (expected, stdout) = text.split_once('\n').unwrap_or(("", &text));
    match parse_output(stdout) {
        Ok(out) => {
            assert!(out.answer.len() <= stdout.len());
            assert!(!(out.self_time_ns.is_some() && out.ps_per_iteration.is_some()));
            if let OutputCheck::Mismatch(why) = check_output(&out.answer, expected) {
                assert!(!why.is_empty());
            } else {
                assert_eq!(check_output(expected, &out.answer), OutputCheck::Match);
            }
        }
        Err(why) => assert!(why.contains("wasmeter:time_ns"), "{why}"),
    }
});
