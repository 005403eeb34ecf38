//! The config file (`wasmeter.toml`): any text must parse or fail with an error naming the
//! file, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use wasmeter_core::config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/nonexistent/wasmeter-fuzz/wasmeter.toml");
    if let Err(e) = Config::parse(path, text) {
        let message = e.to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains("wasmeter.toml"), "{message}");
    }
});
