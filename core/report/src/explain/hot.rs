//! Hot code: the machine code an engine made of a profiled cell's hottest function, beside
//! the wasm it came from, with the samples that fell on each instruction — as `wasmtime
//! explore` shows code, with the run's own samples on it. The engine compiles the module
//! again ([`Compiler`]: only an engine that gives its code per function and maps it back to
//! wasm offsets can); that is the code the run measured only when the engine, its settings
//! and the module's code section are the same, which is checked, not assumed.

use super::functions::{ExplainError, ExplainOptions, explain_rows};
use crate::profile::code::Compiler;
use crate::profile::names::{Named, canonical, names_for, sections};
use crate::store::{ProfileRow, read_profiles};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

/// A profiled cell's hottest function, wasm and machine code side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HotCode {
    /// Test name.
    pub test: String,
    /// Runtime id.
    pub runtime: String,
    /// The function (as profiles name it).
    pub function: String,
    /// Its share of the cell's samples (innermost frame), 0–1.
    pub share: f64,
    /// The cell's samples.
    pub cell_samples: u64,
    /// Samples placed on its instructions.
    pub samples: u64,
    /// The module whose code it is.
    pub module: String,
    /// The engine that compiled it, and how.
    pub engine: String,
    /// Architecture of the machine code.
    pub arch: String,
    /// Bytes of machine code.
    pub code_bytes: u32,
    /// The function's wasm, each line with the machine code made of it; machine code of
    /// no wasm instruction (prologue, epilogue, stubs) comes first.
    pub lines: Vec<HotLine>,
    /// What a reader should know (samples that fall on no instruction, skid).
    pub notes: Vec<String>,
}

/// A line of the function's wasm text and the machine code of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HotLine {
    /// Byte offset of its instruction in the module; `None` for the function's header
    /// and for machine code of no instruction.
    pub wasm_offset: Option<u32>,
    /// The wasm text (`wasmprinter`'s), indented as printed.
    pub wasm: String,
    /// Its machine instructions, by address.
    pub machine: Vec<Instruction>,
    /// Samples on them.
    pub samples: u64,
}

/// One machine instruction.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Instruction {
    /// Byte offset in the function's code.
    pub offset: u32,
    /// Its text (Intel syntax on x86-64).
    pub text: String,
    /// Samples whose instruction pointer was here.
    pub samples: u64,
}

/// What to show.
#[derive(Debug, Clone, Default)]
pub struct HotOptions {
    /// Tests; empty: every profiled one.
    pub tests: Vec<String>,
    /// Runtimes; empty: every profiled one whose code can be shown.
    pub runtimes: Vec<String>,
    /// The function; `None`: each cell's hottest.
    pub function: Option<String>,
}

/// Why hot code cannot be shown as asked: one line each, naming what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HotError {
    /// The run's profiles cannot be explained as asked.
    #[error(transparent)]
    Explain(#[from] ExplainError),
    /// A runtime whose code cannot be shown.
    #[error("hot code: {0}")]
    NotShown(String),
    /// No profiled cell of an engine that shows its code.
    #[error(
        "run {run} has no profiled cell whose machine code can be shown (profiled: {profiled}): hot code needs wasmtime or one of its variants, run with --profile"
    )]
    NoEngine {
        /// Run id.
        run: String,
        /// The profiled runtimes.
        profiled: String,
    },
    /// The profiles do not say which module ran.
    #[error(
        "run {0}: its profiles do not record the module they measured (profiled before hot code existed): run again with --profile"
    )]
    NoModule(String),
    /// The module cannot be read.
    #[error("{path}: {message}")]
    Module {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The engine would not compile the code the run measured.
    #[error("{0}")]
    Compile(String),
}

/// The hot code of every profiled cell asked for: per test, per runtime.
pub fn hot_code(
    run: &crate::store::SavedRun,
    options: &HotOptions,
    compiler: &dyn Compiler,
) -> Result<Vec<HotCode>, HotError> {
    let profiles = read_profiles(&run.dir)
        .map_err(|e| HotError::Explain(ExplainError::Unreadable(e.to_string())))?;
    let explained = explain_rows(
        run,
        &profiles,
        &ExplainOptions {
            tests: options.tests.clone(),
            runtimes: options.runtimes.clone(),
            baseline: None,
        },
    )?;
    for r in &options.runtimes {
        if let Some(why) = compiler.cannot_show(r) {
            return Err(HotError::NotShown(why));
        }
    }
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for test in &explained.tests {
        for (k, column) in test.runtimes.iter().enumerate() {
            seen.insert(column.runtime.clone());
            if compiler.cannot_show(&column.runtime).is_some() || column.unattributed.is_some() {
                continue;
            }
            let function = match &options.function {
                Some(f) => f.clone(),
                None => match hottest(test, k) {
                    Some(f) => f,
                    None => continue,
                },
            };
            let share = test
                .functions
                .iter()
                .find(|r| r.name == function)
                .and_then(|r| r.cells[k])
                .map_or(0.0, |c| c.share);
            let rows: Vec<&ProfileRow> = profiles
                .iter()
                .filter(|p| p.test == test.test && p.runtime == column.runtime)
                .collect();
            let recorded = run
                .meta
                .runtimes
                .iter()
                .find(|r| r.id == column.runtime)
                .map(|r| r.version.clone());
            out.push(cell(
                &run.meta.id,
                (test.test.as_str(), column.runtime.as_str()),
                &function,
                (share, column.samples),
                &rows,
                recorded.as_deref(),
                compiler,
            )?);
        }
    }
    if out.is_empty() {
        return Err(HotError::NoEngine {
            run: explained.run,
            profiled: seen.into_iter().collect::<Vec<_>>().join(", "),
        });
    }
    Ok(out)
}

/// The function with the most samples in column `k`.
fn hottest(test: &super::functions::TestExplained, k: usize) -> Option<String> {
    test.functions
        .iter()
        .filter_map(|r| Some((r.cells[k]?.samples, &r.name)))
        .max_by_key(|(n, _)| *n)
        .map(|(_, name)| name.clone())
}

/// One cell's hot code.
fn cell(
    run: &str,
    (test, runtime): (&str, &str),
    function: &str,
    (share, cell_samples): (f64, u64),
    rows: &[&ProfileRow],
    recorded_version: Option<&str>,
    compiler: &dyn Compiler,
) -> Result<HotCode, HotError> {
    let first = rows
        .iter()
        .find(|r| r.module.is_some())
        .ok_or_else(|| HotError::NoModule(run.to_string()))?;
    let path = first.module.clone().unwrap_or_default();
    let module_error = |message: String| HotError::Module {
        path: path.clone(),
        message,
    };
    let bytes = std::fs::read(&path).map_err(|e| module_error(format!("cannot read it: {e}")))?;
    let code = sections(&bytes).map_err(|e| module_error(format!("not a wasm module: {e}")))?;
    if first.code_sha256.is_some() && code.code_sha256 != first.code_sha256 {
        return Err(module_error(format!(
            "its code changed since run {run} (code section SHA-256 differs): the code the run measured is gone; run again with --profile"
        )));
    }
    let named = match names_for(Path::new(&path), &bytes) {
        Named::Appended(b, _) => b,
        Named::Own | Named::Without(_) => bytes,
    };
    let compiled = compiler
        .compile(runtime, &named, function)
        .map_err(|e| HotError::Compile(format!("{test} on {runtime}: {e}")))?;
    if let Some(v) = recorded_version
        && v != compiled.version
    {
        return Err(HotError::Compile(format!(
            "{runtime}: run {run} measured version {v}, this wasmeter links {}: the code it would show is not the code measured",
            compiled.version
        )));
    }
    let mut offsets: BTreeMap<u32, u64> = BTreeMap::new();
    for r in rows {
        for (name, counts) in &r.offsets {
            if canonical(name) == canonical(function) {
                for &(o, n) in counts {
                    *offsets.entry(o).or_insert(0) += n;
                }
            }
        }
    }
    let body = body_range(&named, compiled.index).ok_or_else(|| {
        HotError::Compile(format!(
            "{test}: the module has no body for function {}",
            compiled.index
        ))
    })?;
    let wasm = wasm_lines(&named, &body).map_err(module_error)?;
    let (machine, pool) = disassemble(compiled.arch, &compiled.code);
    let (lines, placed, stray) = join(
        &wasm,
        (&machine, compiled.code.len() as u32, pool),
        &compiled.address_map,
        &offsets,
    );
    let mut notes = vec![
        "a sample lands on the instruction the timer interrupted at: often the one after the instruction that took the time (skid)".to_string(),
    ];
    if stray > 0 {
        notes.push(format!(
            "{stray} samples fall outside the function's {} bytes of code: the code compiled now differs from the code measured there",
            compiled.code.len()
        ));
    }
    if placed == 0 {
        notes.push(format!(
            "no sample fell in {function} on {runtime}: its code is shown without counts"
        ));
    }
    Ok(HotCode {
        test: test.to_string(),
        runtime: runtime.to_string(),
        function: function.to_string(),
        share,
        cell_samples,
        samples: placed,
        module: path.clone(),
        engine: compiled.engine,
        arch: compiled.arch.to_string(),
        code_bytes: compiled.code.len() as u32,
        lines,
        notes,
    })
}

/// The byte range of function `index`'s body (its locals and code) in the module.
fn body_range(bytes: &[u8], index: u32) -> Option<Range<usize>> {
    crate::profile::code::function_bodies(bytes)
        .remove(&index)
        .map(|(range, _)| range)
}

/// The wasm text of one function body: each printed line with the byte offset of its
/// instruction, from the function's header to its last instruction.
fn wasm_lines(bytes: &[u8], body: &Range<usize>) -> Result<Vec<(Option<u32>, String)>, String> {
    let mut storage = String::new();
    let lines = wasmprinter::Config::new()
        .offsets_and_lines(bytes, &mut storage)
        .map_err(|e| format!("wasmprinter cannot print it: {e:#}"))?;
    let mut out: Vec<(Option<u32>, String)> = Vec::new();
    let mut header: Option<String> = None;
    let mut inside = false;
    for (offset, line) in lines {
        let line = line.trim_end_matches('\n').to_string();
        match offset {
            Some(o) if body.contains(&o) => {
                if !inside {
                    inside = true;
                    if let Some(h) = header.take() {
                        out.push((None, h));
                    }
                }
                out.push((Some(o as u32), line));
            }
            Some(o) if o >= body.end && inside => break,
            Some(_) => header = line.trim_start().starts_with("(func").then_some(line),
            None if inside => out.push((None, line)),
            None => {
                if line.trim_start().starts_with("(func") {
                    header = Some(line);
                }
            }
        }
    }
    Ok(out)
}

/// The function's machine instructions: (offset, text), and where its code ends when data
/// follows it in the same bytes (Cranelift puts a function's constant pool after its last
/// instruction: what the instructions read by address there is data, shown as `.quad`
/// words, not decoded as instructions).
fn disassemble(arch: &str, code: &[u8]) -> (Vec<(u32, String)>, Option<u32>) {
    if arch != "x86_64" {
        // No disassembler for it in this build: the code as words, so offsets still join.
        let words = code
            .chunks(4)
            .enumerate()
            .map(|(i, w)| {
                let hex: String = w.iter().rev().map(|b| format!("{b:02x}")).collect();
                ((i * 4) as u32, format!(".word 0x{hex}"))
            })
            .collect();
        return (words, None);
    }
    use iced_x86::{Decoder, DecoderOptions, Formatter, IntelFormatter};
    let decoded: Vec<iced_x86::Instruction> = Decoder::with_ip(64, code, 0, DecoderOptions::NONE)
        .into_iter()
        .collect();
    // The first byte an instruction reads by its own address that lies after it, in the
    // function: where the data begins.
    let pool = decoded
        .iter()
        .filter(|i| i.is_ip_rel_memory_operand())
        .map(|i| i.ip_rel_memory_address())
        .filter(|a| *a < code.len() as u64)
        .filter(|a| decoded.iter().any(|i| i.ip() < *a))
        .min()
        .map(|a| a as u32);
    let mut formatter = IntelFormatter::new();
    formatter.options_mut().set_first_operand_char_index(8);
    let mut out = Vec::new();
    let mut text = String::new();
    for instruction in decoded
        .iter()
        .take_while(|i| pool.is_none_or(|p| (i.ip() as u32) < p))
    {
        text.clear();
        formatter.format(instruction, &mut text);
        out.push((instruction.ip() as u32, text.clone()));
    }
    if let Some(p) = pool {
        for (k, w) in code[p as usize..].chunks(8).enumerate() {
            let hex: String = w.iter().rev().map(|b| format!("{b:02x}")).collect();
            out.push((p + 8 * k as u32, format!(".quad 0x{hex}")));
        }
    }
    (out, pool)
}

/// Puts each machine instruction under the wasm line its code came from, and each sample on
/// its instruction. Returns the lines (code of no instruction first, when there is some),
/// the samples placed and those outside the code.
fn join(
    wasm: &[(Option<u32>, String)],
    (machine, code_len, pool): (&[(u32, String)], u32, Option<u32>),
    address_map: &[(u32, Option<u32>)],
    offsets: &BTreeMap<u32, u64>,
) -> (Vec<HotLine>, u64, u64) {
    let mut lines: Vec<HotLine> = wasm
        .iter()
        .map(|(o, text)| HotLine {
            wasm_offset: *o,
            wasm: text.clone(),
            machine: Vec::new(),
            samples: 0,
        })
        .collect();
    let mut unmapped = HotLine {
        wasm_offset: None,
        wasm: "(code of no wasm instruction: prologue, epilogue, stubs)".into(),
        machine: Vec::new(),
        samples: 0,
    };
    let mut data = HotLine {
        wasm_offset: None,
        wasm: "(end of the function's code: its constant pool follows, data, not instructions)"
            .into(),
        machine: Vec::new(),
        samples: 0,
    };
    let ends: Vec<u32> = machine
        .iter()
        .skip(1)
        .map(|(o, _)| *o)
        .chain(std::iter::once(code_len))
        .collect();
    // The lines of instructions, by offset (the printer's order).
    let keyed: Vec<(u32, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| Some((l.wasm_offset?, i)))
        .collect();
    let mut placed = 0;
    for ((start, text), end) in machine.iter().zip(ends) {
        let samples: u64 = offsets.range(*start..end).map(|(_, n)| n).sum();
        placed += samples;
        // The wasm instruction whose code this is: the last map entry at or before it.
        let at = address_map.partition_point(|(o, _)| o <= start);
        let wasm_offset = at.checked_sub(1).and_then(|i| address_map[i].1);
        // Its line: the one of that instruction, else the last line before it.
        let line = wasm_offset.and_then(|w| {
            let i = keyed.partition_point(|(o, _)| *o <= w);
            i.checked_sub(1).map(|i| keyed[i].1)
        });
        let target = match line {
            _ if pool.is_some_and(|p| *start >= p) => &mut data,
            Some(i) => &mut lines[i],
            None => &mut unmapped,
        };
        target.samples += samples;
        target.machine.push(Instruction {
            offset: *start,
            text: text.clone(),
            samples,
        });
    }
    let total: u64 = offsets.values().sum();
    if !unmapped.machine.is_empty() {
        lines.insert(0, unmapped);
    }
    if !data.machine.is_empty() {
        lines.push(data);
    }
    (lines, placed, total - placed)
}

impl HotCode {
    /// The listing as text: a header, then each wasm line with its machine code beside
    /// it and each instruction's share of the function's samples.
    pub fn listing(&self) -> String {
        use std::fmt::Write as _;
        const WASM: usize = 44;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} · {} · {}: {:.1} % of the cell's {} samples, {} on its instructions",
            self.test,
            self.runtime,
            self.function,
            self.share * 100.0,
            self.cell_samples,
            self.samples
        );
        let _ = writeln!(s, "  {}", self.engine);
        let _ = writeln!(
            s,
            "  {} bytes of {} machine code from {}",
            self.code_bytes, self.arch, self.module
        );
        let _ = writeln!(
            s,
            "  {:<WASM$} │ {:<46} {:>7}",
            "wasm", "machine code", "samples"
        );
        let cut = |t: &str, n: usize| -> String {
            let t = t.trim_end();
            if t.chars().count() <= n {
                t.to_string()
            } else {
                t.chars().take(n - 1).chain(std::iter::once('…')).collect()
            }
        };
        for line in &self.lines {
            let wasm = match line.wasm_offset {
                Some(o) => format!("{o:06x} {}", line.wasm.trim_start()),
                None => line.wasm.trim().to_string(),
            };
            if line.machine.is_empty() {
                let _ = writeln!(s, "  {}", cut(&wasm, WASM));
                continue;
            }
            for (i, m) in line.machine.iter().enumerate() {
                let left = if i == 0 {
                    cut(&wasm, WASM)
                } else {
                    String::new()
                };
                let pct = m.samples as f64 * 100.0 / self.samples.max(1) as f64;
                let share = match m.samples {
                    0 => String::new(),
                    _ if pct < 0.05 => "<0.1 %".to_string(),
                    _ => format!("{pct:.1} %"),
                };
                let _ = writeln!(
                    s,
                    "  {left:<WASM$} │ {:04x}  {:<40} {share:>7}",
                    m.offset,
                    cut(&m.text, 40)
                );
            }
        }
        for n in &self.notes {
            let _ = writeln!(s, "  note: {n}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x86_code_is_disassembled_at_its_offsets() {
        // push rbp; mov rbp,rsp; imul rax,rcx; pop rbp; ret
        let code = [0x55, 0x48, 0x89, 0xe5, 0x48, 0x0f, 0xaf, 0xc1, 0x5d, 0xc3];
        let (got, pool) = disassemble("x86_64", &code);
        assert_eq!(pool, None);
        let offsets: Vec<u32> = got.iter().map(|(o, _)| *o).collect();
        assert_eq!(offsets, [0, 1, 4, 8, 9]);
        assert!(
            got[0].1.starts_with("push") && got[0].1.contains("rbp"),
            "{got:?}"
        );
        assert!(
            got[2].1.starts_with("imul") && got[2].1.contains("rax,rcx"),
            "{got:?}"
        );
        assert!(got[4].1.starts_with("ret"), "{got:?}");
        // Another architecture: words, still at their offsets.
        let (words, _) = disassemble("aarch64", &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(words[1], (4, ".word 0x08070605".to_string()));
    }

    #[test]
    fn the_constant_pool_after_the_last_instruction_is_data_under_an_end_mark() {
        // and rcx,[rip+1] (the pool's first word); ret; then the pool: 0xffffffff.
        let code = [
            0x48, 0x23, 0x0d, 0x01, 0, 0, 0, 0xc3, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
        ];
        let (got, pool) = disassemble("x86_64", &code);
        assert_eq!(pool, Some(8));
        assert!(
            got[0].1.starts_with("and") && got[0].1.contains("[8]"),
            "{got:?}"
        );
        assert!(got[1].1.starts_with("ret"), "{got:?}");
        assert_eq!(got[2], (8, ".quad 0x00000000ffffffff".to_string()));
        assert_eq!(got.len(), 3, "no (bad) instructions: {got:?}");
        let wasm = vec![(Some(10), "  i64.and".to_string())];
        let (lines, _, _) = join(&wasm, (&got, 16, pool), &[(0, Some(10))], &BTreeMap::new());
        let last = lines.last().unwrap();
        assert!(
            last.wasm.starts_with("(end of the function's code"),
            "{lines:?}"
        );
        assert_eq!(last.machine.len(), 1);
        assert_eq!(lines[0].machine.len(), 2);
    }

    #[test]
    fn machine_code_goes_under_its_wasm_line_and_samples_on_their_instruction() {
        let wasm = vec![
            (None, "(func $f (type 0) (result i64)".to_string()),
            (Some(100), "  local.get 0".to_string()),
            (Some(102), "  local.get 1".to_string()),
            (Some(104), "  i64.mul".to_string()),
            (None, ")".to_string()),
        ];
        let machine = vec![
            (0, "push rbp".to_string()),
            (1, "mov rbp,rsp".to_string()),
            (4, "imul rax,rcx".to_string()),
            (8, "pop rbp".to_string()),
            (9, "ret".to_string()),
        ];
        // The prologue maps to no instruction, the multiply to i64.mul, the epilogue back
        // to none; the second local.get made no code.
        let map = vec![(0, None), (4, Some(104)), (8, None)];
        let offsets: BTreeMap<u32, u64> = [(1, 2), (4, 7), (6, 1), (9, 1), (500, 3)].into();
        let (lines, placed, stray) = join(&wasm, (&machine, 10, None), &map, &offsets);
        assert_eq!((placed, stray), (11, 3));
        assert_eq!(lines[0].wasm_offset, None);
        assert!(lines[0].wasm.contains("no wasm instruction"));
        let texts = |l: &HotLine| l.machine.iter().map(|m| m.offset).collect::<Vec<_>>();
        assert_eq!(texts(&lines[0]), [0, 1, 8, 9]);
        assert_eq!(lines[0].samples, 3);
        let mul = lines.iter().find(|l| l.wasm_offset == Some(104)).unwrap();
        assert_eq!(texts(mul), [4]);
        // Samples inside an instruction's bytes count for it.
        assert_eq!((mul.samples, mul.machine[0].samples), (8, 8));
        let get = lines.iter().find(|l| l.wasm_offset == Some(102)).unwrap();
        assert!(get.machine.is_empty());
        // A map entry between two lines goes to the line before it.
        let (lines, _, _) = join(
            &wasm,
            (&machine, 10, None),
            &[(0, Some(103))],
            &BTreeMap::new(),
        );
        let get = lines.iter().find(|l| l.wasm_offset == Some(102)).unwrap();
        assert_eq!(get.machine.len(), 5);
    }

    #[test]
    fn one_function_body_is_printed_with_its_offsets() {
        let bytes = wat::parse_str(
            "(module (func $a (result i32) i32.const 1) \
             (func $b (param i64 i64) (result i64) local.get 0 local.get 1 i64.mul))",
        )
        .unwrap();
        let body = body_range(&bytes, 1).unwrap();
        let lines = wasm_lines(&bytes, &body).unwrap();
        let text: Vec<&str> = lines.iter().map(|(_, l)| l.trim()).collect();
        assert!(text[0].starts_with("(func $b"), "{text:?}");
        assert_eq!(
            &text[1..4],
            ["local.get 0", "local.get 1", "i64.mul"],
            "{text:?}"
        );
        assert!(
            lines[1..4]
                .iter()
                .all(|(o, _)| o.is_some_and(|o| body.contains(&(o as usize))))
        );
        assert!(!text.iter().any(|l| l.contains("i32.const")), "{text:?}");
        assert_eq!(body_range(&bytes, 2), None);
    }
}
