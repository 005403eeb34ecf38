// wasmeter's WASI preview1 runner for JavaScript runtimes (node 20+, bun).
//
//   node --no-warnings node-wasi.mjs [OPTION]... <module.wasm> [args...]
//   bun node-wasi.mjs [OPTION]... <module.wasm> [args...]
//
// Options: --env=KEY=VALUE (a variable the guest gets), --dir=HOST::GUEST (a host folder
// the guest sees as GUEST), --invoke=NAME (call that export instead of _start, the args
// as its parameters, and print its results one a line).
//
// The guest sees argv = [argv0, ...args] (argv0: $WASMETER_ARGV0, else the module's file
// name), an environment of the --env variables only, and the working directory preopened
// as "." besides the --dir folders. Arguments after the module are passed through
// verbatim (no "--" needed or stripped).
//
// Exit status: the guest's exit code (proc_exit or 0 when _start returns); 134 when the
// guest traps; 2 for a usage error; 1 when the module cannot be read, compiled or
// instantiated. Every failure prints one line to stderr, prefixed "node-wasi:".
import { openSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import process from 'node:process';
import { WASI } from 'node:wasi';

function oneLine(e) {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return text.replace(/\s+/g, ' ').trim();
}

function fail(code, message) {
  process.stderr.write(`node-wasi: ${message}\n`);
  process.exit(code);
}

function main() {
  const rest = process.argv.slice(2);
  const env = {};
  const preopens = { '.': process.cwd() };
  let invoke = null;
  for (;;) {
    const opt = rest[0] ?? '';
    if (opt.startsWith('--env=')) {
      const kv = rest.shift().slice('--env='.length);
      const eq = kv.indexOf('=');
      if (eq <= 0) fail(2, `--env needs KEY=VALUE, not '${kv}'`);
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (opt.startsWith('--dir=')) {
      const spec = rest.shift().slice('--dir='.length);
      const at = spec.indexOf('::');
      if (at <= 0 || at + 2 >= spec.length) fail(2, `--dir needs HOST::GUEST, not '${spec}'`);
      preopens[spec.slice(at + 2)] = spec.slice(0, at);
    } else if (opt.startsWith('--invoke=')) {
      invoke = rest.shift().slice('--invoke='.length);
      if (!invoke) fail(2, '--invoke needs a function name');
    } else {
      break;
    }
  }
  const [file, ...args] = rest;
  if (!file) fail(2, 'usage: node-wasi.mjs [--env=KEY=VALUE|--dir=HOST::GUEST|--invoke=NAME]... <module.wasm> [args...]');

  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    fail(1, `cannot read ${file}: ${oneLine(e.message ?? e)}`);
  }

  let module;
  try {
    module = new WebAssembly.Module(bytes);
  } catch (e) {
    fail(1, `invalid module ${file}: ${oneLine(e)}`);
  }

  const argv0 = process.env.WASMETER_ARGV0 || basename(file);
  let wasi;
  try {
    wasi = new WASI({
      version: 'preview1',
      args: invoke === null ? [argv0, ...args] : [argv0],
      env,
      preopens,
      stdout: blockingStdout(),
      returnOnExit: true,
    });
  } catch (e) {
    fail(1, `cannot set up WASI: ${oneLine(e)}`);
  }

  let instance;
  try {
    instance = new WebAssembly.Instance(module, {
      wasi_snapshot_preview1: wasi.wasiImport,
    });
  } catch (e) {
    fail(1, `cannot instantiate ${file}: ${oneLine(e)}`);
  }

  if (invoke !== null) callExport(wasi, instance, invoke, args, file);

  let code;
  try {
    code = wasi.start(instance);
  } catch (e) {
    // WebAssembly.RuntimeError: unreachable, out-of-bounds access, division by zero...;
    // RangeError: the guest exhausted the call stack. Both are guest traps.
    if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) {
      fail(134, `trap: ${oneLine(e)}`);
    }
    fail(1, `error running ${file}: ${oneLine(e)}`);
  }
  // Guest output went straight to fds 1 and 2; nothing of ours is buffered.
  process.exit(typeof code === 'number' ? code : 0);
}

// A blocking descriptor of stdout for the guest. node makes its own stdout pipe
// non-blocking, so a guest writing faster than the reader gets EAGAIN, which WASI hands on
// as an error and wasi-libc drops the rest of the buffer: output is lost (seen with 5 MB
// through a pipe). Opening the pipe anew gives a descriptor of its own, blocking; append,
// so that a file is never truncated.
function blockingStdout() {
  try {
    return openSync('/dev/stdout', 'a');
  } catch {
    return 1;
  }
}

// Calls an export with the arguments as numbers, or as BigInts where the function takes
// i64 (JavaScript cannot read a function's parameter types: each mix of the two is tried
// until the arguments convert; a refused conversion throws before the body runs), prints
// each result on a line and exits 0.
function callExport(wasi, instance, name, args, file) {
  const fn = instance.exports[name];
  if (typeof fn !== 'function') fail(1, `${file} exports no function '${name}'`);
  for (const a of args) {
    if (a.trim() === '' || Number.isNaN(Number(a))) fail(2, `argument '${a}' of ${name} is not a number`);
  }
  if (args.length > 12) fail(2, `${name}: at most 12 arguments`);
  const isConversion = (e) => e instanceof TypeError && /BigInt/.test(String(e));
  try {
    // A reactor sets itself up in _initialize. A command's export runs without _start, but
    // WASI needs its memory: node's initialize() refuses an instance exporting _start, so
    // it is given the memory alone; bun's WASI has setMemory() instead.
    const { memory, _initialize } = instance.exports;
    if (typeof wasi.initialize !== 'function') {
      if (memory instanceof WebAssembly.Memory) wasi.setMemory(memory);
      if (typeof _initialize === 'function') _initialize();
    } else if (typeof _initialize === 'function') wasi.initialize(instance);
    else if (memory instanceof WebAssembly.Memory) wasi.initialize({ exports: { memory } });
    let out;
    let done = false;
    for (let mask = 0; !done && mask < 1 << args.length; mask++) {
      const values = args.map((a, i) => (mask & (1 << i) ? BigInt(a) : Number(a)));
      try {
        out = fn(...values);
        done = true;
      } catch (e) {
        if (!isConversion(e)) throw e;
      }
    }
    if (!done) fail(2, `the arguments of ${name} convert to none of its parameter types`);
    const results = out === undefined ? [] : Array.isArray(out) ? out : [out];
    process.stdout.write(results.map((r) => `${r}\n`).join(''));
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) {
      fail(134, `trap: ${oneLine(e)}`);
    }
    fail(1, `error calling ${name} of ${file}: ${oneLine(e)}`);
  }
  process.exit(0);
}

main();
