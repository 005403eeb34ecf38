//! `native-dlopen`: a C test built as a library and called inside the worker. It moves the
//! process's standard streams and working folder while the test runs, so the cases run in a
//! child of this test binary, alone, where no sibling test can see them.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use wasmeter_core::runtime::{
    Failure, Job, NativeCompiler, NativeForm, NativeLibraryRuntime, Phase, Runtime,
};
use wasmeter_core::suite::{SourceBuild, Suite};

const CHILD: &str = "WASMETER_TEST_DLOPEN_CHILD";

/// A test program that shows what the library sees: a static counter (fresh at each load),
/// its arguments, its stdin, its working folder, and an exit code on request.
const PROBE: &str = r#"
#include <stdio.h>
#include <string.h>
static int calls;
int main(int argc, char **argv) {
    calls++;
    char line[64] = "";
    if (fgets(line, sizeof line, stdin) == NULL) strcpy(line, "(none)\n");
    printf("calls=%d argc=%d arg=%s in=%s", calls, argc, argc > 1 ? argv[1] : "-", line);
    fprintf(stderr, "to stderr\n");
    FILE *f = fopen("made-here", "w");
    if (f) { fputs("x", f); fclose(f); }
    return argc > 1 && strcmp(argv[1], "fail") == 0 ? 3 : 0;
}
"#;

#[test]
fn a_library_build_runs_in_process_with_fresh_statics_and_its_own_streams() {
    if NativeCompiler::detect().is_err() {
        assert!(
            std::env::var("CI").is_err(),
            "CI must have a C compiler for native-dlopen"
        );
        eprintln!("skipped: no C compiler");
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "native_library::cases_in_a_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env("WASMETER_CACHE", cache.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("dlopen cases passed"),
        "child failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The cases; does nothing unless started by the test above.
#[test]
fn cases_in_a_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let compute =
        Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/compute")).unwrap();
    let cc = NativeCompiler::detect().unwrap();
    let build = |name: &str, source: &str| {
        let src = dir.path().join(format!("{name}.c"));
        std::fs::write(&src, source).unwrap();
        let b = SourceBuild {
            source: src,
            wasm_cflags: Vec::new(),
            native_cflags: vec!["-O2".into()],
        };
        cc.build(&compute, name, &b, NativeForm::Library).unwrap()
    };
    let lib = build("probe", PROBE);
    assert!(lib.file_name().unwrap().to_string_lossy().ends_with(".so"));
    let scratch = dir.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "hello\n").unwrap();
    let job = |program: PathBuf, arg: &str| Job {
        program,
        name: "probe".into(),
        args: vec![arg.into()],
        env: Vec::new(),
        scratch: scratch.clone(),
        memory_limit: 1 << 30,
        stdout_limit: 1 << 20,
        stdin: Some(input.clone()),
        dirs: Vec::new(),
        invoke: None,
    };
    let stdout_before = std::fs::metadata("/proc/self/fd/1").unwrap().ino();
    let cwd_before = std::env::current_dir().unwrap();
    let rt = NativeLibraryRuntime;

    for _ in 0..2 {
        let it = rt.run(&job(lib.clone(), "quick")).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&it.stdout),
            "calls=1 argc=2 arg=quick in=hello\n"
        );
        assert_eq!(String::from_utf8_lossy(&it.stderr), "to stderr\n");
        for phase in [
            Phase::Instantiate,
            Phase::Execute,
            Phase::Teardown,
            Phase::Total,
        ] {
            let v = it.values.iter().find(|v| v.phase == phase);
            assert!(v.is_some_and(|v| v.value > 0.0), "{phase:?}: {v:?}");
        }
    }
    assert!(
        scratch.join("made-here").is_file(),
        "ran in the scratch folder"
    );
    assert_eq!(std::env::current_dir().unwrap(), cwd_before);
    assert_eq!(
        std::fs::metadata("/proc/self/fd/1").unwrap().ino(),
        stdout_before
    );

    let failed = rt.run(&job(lib.clone(), "fail")).unwrap_err();
    assert_eq!(failed, Failure::ExitCode(3));

    let no_main = build("nomain", "int not_main(void) { return 1; }\n");
    let e = rt.run(&job(no_main, "quick")).unwrap_err().to_string();
    assert!(e.contains("no wasmeter_main"), "{e}");

    let junk = dir.path().join("junk.so");
    std::fs::write(&junk, b"not an ELF file").unwrap();
    let e = rt.run(&job(junk.clone(), "quick")).unwrap_err().to_string();
    assert!(e.contains("cannot load") && e.contains("junk.so"), "{e}");

    let mut with_env = job(lib, "quick");
    with_env.env.push(("K".into(), "V".into()));
    let e = rt.run(&with_env).unwrap_err().to_string();
    assert!(e.contains("use native"), "{e}");
    println!("dlopen cases passed");
}
