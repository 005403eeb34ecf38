//! Suite manifests (`suite.toml`): any text must parse or fail with an error naming the file
//! and line, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use wasmeter_core::suite::{Size, Suite};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/nonexistent/wasmeter-fuzz/suite.toml");
    match Suite::parse(path, text) {
        Ok(suite) => {
            // What the runner and the UIs ask of a parsed suite.
            for name in suite.test_names() {
                let test = suite.test(&name).expect("a listed test resolves");
                for size in [Size::Quick, Size::Full] {
                    let _ = suite.expected_path(test, size);
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            // One line naming the file: what a user sees of a bad manifest.
            assert!(!message.contains('\n'), "{message}");
            assert!(message.contains("suite.toml"), "{message}");
        }
    }
});
