//! Command tests: a WASI command built from one C source, or prebuilt by the suite's build
//! script (then with an optional check step). A gateway's guest is read the same way.

use super::{Manifest, RawSuite, RawTest, valid_name};
use crate::suite::{
    Build, CheckStep, CommandTest, Guest, ModuleRun, Preopen, SourceBuild, SuiteError, TestKind,
};
use toml::Spanned;

/// The fields a command test may set.
const FIELDS: [&str; 17] = [
    "source",
    "wasm",
    "native",
    "check",
    "untimed",
    "sized",
    "wasm_build_error",
    "native_build_error",
    "wasm_cflags",
    "native_cflags",
    "args",
    "expect",
    "env",
    "stdin",
    "dirs",
    "invoke",
    "native_program",
];

/// A command test.
pub(super) fn test(
    m: &Manifest,
    suite: &RawSuite,
    t: &RawTest,
    name: &str,
) -> Result<TestKind, SuiteError> {
    m.only(t, &FIELDS, |field| match field {
        "[[test.server]]" => {
            "[[test.server]] applies only to a servers suite (kind = \"servers\")".into()
        }
        _ => format!("{field} applies only to HTTP suites, not a command suite"),
    })?;
    let guest = guest(m, suite, t, name)?;
    let check = check_step(m, t, name)?;
    Ok(TestKind::Command(CommandTest { guest, check }))
}

/// A test's module and what it is built from: `source` (with flags, `wasm` defaulting to
/// `wasm/<name>.wasm`), or a prebuilt `native` beside an existing `wasm`.
pub(super) fn guest(
    m: &Manifest,
    suite: &RawSuite,
    t: &RawTest,
    name: &str,
) -> Result<Guest, SuiteError> {
    let text = |f: &Option<Spanned<String>>| f.as_ref().map(|e| e.get_ref().trim().to_string());
    let (wasm_error, native_error) = (text(&t.wasm_build_error), text(&t.native_build_error));
    // A build the script could not make need not exist: its cells fail with the reason.
    let native = t
        .native
        .as_ref()
        .map(|n| match native_error {
            Some(_) => m.inside("native", n),
            None => m.existing("native", n, "file"),
        })
        .transpose()?;
    if native.is_none()
        && let Some((field, at)) = t.first_set(&["sized", "wasm_build_error", "native_build_error"])
    {
        return Err(m.err(
            at,
            format!("'{field}' applies only to a prebuilt test (with 'native' and 'wasm'); test '{name}' is not one"),
        ));
    }
    let build = match (&t.source, native) {
        (Some(src), None) => Build::Source(SourceBuild {
            source: m.existing("source", src, "source file")?,
            wasm_cflags: concat(&suite.wasm_cflags, t.wasm_cflags.as_ref()),
            native_cflags: concat(&suite.native_cflags, t.native_cflags.as_ref()),
        }),
        (None, Some(native)) if t.wasm.is_some() => {
            let flags = [
                ("wasm_cflags", &t.wasm_cflags),
                ("native_cflags", &t.native_cflags),
            ];
            if let Some((field, Some(f))) = flags.iter().find(|(_, f)| f.is_some()) {
                return Err(m.err(
                    f.span().start,
                    format!(
                        "'{field}' does not apply to prebuilt test '{name}': the suite's build script makes it"
                    ),
                ));
            }
            Build::Prebuilt {
                native,
                sized: t.sized.as_ref().is_some_and(|s| *s.get_ref()),
                wasm_error: wasm_error.clone(),
                native_error,
            }
        }
        (None, Some(_)) => {
            return Err(m.err(
                t.name.span().start,
                format!("prebuilt test '{name}' needs 'wasm' beside 'native'"),
            ));
        }
        (Some(src), Some(_)) => {
            return Err(m.err(
                src.span().start,
                format!("test '{name}' has both 'source' and a prebuilt 'native': give one"),
            ));
        }
        // A module as given: no native build, no known answer.
        (None, None) if t.wasm.is_some() => {
            if let Some(f) = [&t.wasm_cflags, &t.native_cflags]
                .into_iter()
                .flatten()
                .next()
            {
                return Err(m.err(
                    f.span().start,
                    format!(
                        "compiler flags do not apply to test '{name}': its module is given as it is"
                    ),
                ));
            }
            Build::Module(module_run(m, t)?)
        }
        (None, None) => {
            return Err(m.err(
                t.name.span().start,
                format!(
                    "test '{name}' has no 'source' (the C file its wasm is built from), no prebuilt 'native' and no 'wasm'"
                ),
            ));
        }
    };
    if !matches!(build, Build::Module(_)) {
        let given = [
            "args",
            "expect",
            "env",
            "stdin",
            "dirs",
            "invoke",
            "native_program",
        ];
        if let Some((field, at)) = t.first_set(&given) {
            return Err(m.err(
                at,
                format!("'{field}' applies only to a test that is a module as given (only 'wasm'); test '{name}' is built"),
            ));
        }
    }
    let wasm = match (&t.wasm, &build) {
        (Some(w), Build::Prebuilt { .. }) if wasm_error.is_some() => m.inside("wasm", w)?,
        (Some(w), Build::Prebuilt { .. } | Build::Module(_)) => m.existing("wasm", w, "file")?,
        // Built from its source by the suite's build script: need not exist yet.
        (Some(w), Build::Source(_)) => m.inside("wasm", w)?,
        (None, _) => m.dir.join("wasm").join(format!("{name}.wasm")),
    };
    Ok(Guest { wasm, build })
}

/// How a module as given runs: its arguments, environment, stdin, answer, host folders,
/// exported function and native build, as the test says.
fn module_run(m: &Manifest, t: &RawTest) -> Result<ModuleRun, SuiteError> {
    let file = |key: &str, f: &Option<Spanned<String>>| {
        f.as_ref().map(|f| m.existing(key, f, "file")).transpose()
    };
    /// Each item of a list field parsed, or an error at the field naming the item.
    fn each<T>(
        m: &Manifest,
        key: &str,
        items: &Option<Spanned<Vec<String>>>,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Vec<T>, SuiteError> {
        let Some(items) = items else {
            return Ok(Vec::new());
        };
        items
            .get_ref()
            .iter()
            .map(|item| parse(item).map_err(|e| m.err(items.span().start, format!("'{key}': {e}"))))
            .collect()
    }
    let invoke = match &t.invoke {
        Some(f) if f.get_ref().is_empty() => {
            return Err(m.err(f.span().start, "'invoke' names an exported function".into()));
        }
        f => f.as_ref().map(|f| f.get_ref().clone()),
    };
    Ok(ModuleRun {
        args: t
            .args
            .as_ref()
            .map(|a| a.get_ref().clone())
            .unwrap_or_default(),
        expect: file("expect", &t.expect)?,
        env: each(m, "env", &t.env, |kv| {
            crate::suite::env_var(kv).ok_or_else(|| format!("takes KEY=VALUE, not '{kv}'"))
        })?,
        stdin: file("stdin", &t.stdin)?,
        dirs: each(m, "dirs", &t.dirs, Preopen::parse)?,
        invoke,
        native: file("native_program", &t.native_program)?,
    })
}

/// The check step, and `untimed`, which needs one.
fn check_step(m: &Manifest, t: &RawTest, name: &str) -> Result<Option<CheckStep>, SuiteError> {
    let Some(c) = &t.check else {
        return match &t.untimed {
            Some(u) => Err(m.err(
                u.span().start,
                format!("'untimed' needs a 'check': test '{name}' would do nothing"),
            )),
            None => Ok(None),
        };
    };
    let c = c.get_ref();
    let result = c.result.get_ref().trim();
    if !valid_name(&result.replace('.', "_")) {
        return Err(m.err(
            c.result.span().start,
            format!("'result' must be a plain file name, not '{result}'"),
        ));
    }
    Ok(Some(CheckStep {
        wasm: m.existing("check.wasm", &c.wasm, "file")?,
        native: m.existing("check.native", &c.native, "file")?,
        expected: m.existing("check.expected", &c.expected, "file")?,
        result: result.to_string(),
        untimed: t.untimed.as_ref().map(|u| u.get_ref().trim().to_string()),
    }))
}

/// The suite's flags, then the test's.
fn concat(suite: &[String], test: Option<&Spanned<Vec<String>>>) -> Vec<String> {
    suite
        .iter()
        .chain(test.map(|t| t.get_ref().as_slice()).unwrap_or_default())
        .cloned()
        .collect()
}
