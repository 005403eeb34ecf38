//! Calling an export other than `_start` (`--invoke NAME`): the arguments parsed by the
//! function's parameter types and its results printed one a line, the same on every
//! engine and as the wasmtime CLI prints them, so that the answers cross-check.

use crate::runtime::Failure;

/// A parameter or result type `--invoke` can give or print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    I32,
    I64,
    F32,
    F64,
}

/// A value of a [`Scalar`] type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
}

/// The export's arguments from the job's: one per parameter, integers in decimal or `0x`
/// hex, floats as Rust reads them. `params` holds, for a type no argument can give (v128,
/// references), its name as the error.
pub fn parse_args(
    name: &str,
    params: &[Result<Scalar, String>],
    args: &[String],
) -> Result<Vec<Value>, Failure> {
    if params.len() != args.len() {
        return Err(Failure::Other(format!(
            "'{name}' takes {} argument(s), {} given",
            params.len(),
            args.len()
        )));
    }
    params
        .iter()
        .zip(args)
        .map(|(ty, a)| {
            let bad = |why: String| Failure::Other(format!("argument '{a}' of '{name}': {why}"));
            let int = |a: &str| -> Result<i128, String> {
                match a.strip_prefix("0x") {
                    Some(hex) => i128::from_str_radix(hex, 16).map_err(|e| e.to_string()),
                    None => a.parse::<i128>().map_err(|e| e.to_string()),
                }
            };
            Ok(
                match ty.as_ref().map_err(|t| bad(format!("a {t} parameter")))? {
                    Scalar::I32 => {
                        let v = int(a).map_err(bad)?;
                        // Unsigned spellings wrap as the wasmtime CLI's hex does.
                        Value::I32(
                            i32::try_from(v)
                                .or_else(|_| u32::try_from(v).map(|u| u as i32))
                                .map_err(|e| bad(e.to_string()))?,
                        )
                    }
                    Scalar::I64 => {
                        let v = int(a).map_err(bad)?;
                        Value::I64(
                            i64::try_from(v)
                                .or_else(|_| u64::try_from(v).map(|u| u as i64))
                                .map_err(|e| bad(e.to_string()))?,
                        )
                    }
                    Scalar::F32 => Value::F32(
                        a.parse()
                            .map_err(|e: std::num::ParseFloatError| bad(e.to_string()))?,
                    ),
                    Scalar::F64 => Value::F64(
                        a.parse()
                            .map_err(|e: std::num::ParseFloatError| bad(e.to_string()))?,
                    ),
                },
            )
        })
        .collect()
}

/// The results as the guest's stdout: one a line.
pub fn print_results(results: &[Value]) -> Vec<u8> {
    let mut out = String::new();
    for r in results {
        let line = match r {
            Value::I32(v) => v.to_string(),
            Value::I64(v) => v.to_string(),
            Value::F32(v) => v.to_string(),
            Value::F64(v) => v.to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

/// The failure for a module without the export `--invoke` names.
pub fn no_export(name: &str) -> Failure {
    Failure::Other(format!("no exported function '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_follow_the_parameter_types() {
        let params = [Ok(Scalar::I32), Ok(Scalar::I64), Ok(Scalar::F64)];
        let args: Vec<String> = ["0xffffffff", "-5", "2.5"].map(String::from).to_vec();
        assert_eq!(
            parse_args("f", &params, &args).unwrap(),
            [Value::I32(-1), Value::I64(-5), Value::F64(2.5)]
        );
        let e = parse_args("f", &params[..1], &args)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'f' takes 1 argument(s), 3 given"), "{e}");
        let e = parse_args("f", &[Ok(Scalar::I32)], &["x".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("argument 'x' of 'f'"), "{e}");
        let e = parse_args("f", &[Err("v128".into())], &["1".into()])
            .unwrap_err()
            .to_string();
        assert!(e.contains("a v128 parameter"), "{e}");
        assert_eq!(
            print_results(&[Value::I32(42), Value::F32(0.5), Value::I64(-1)]),
            b"42\n0.5\n-1\n"
        );
    }
}
