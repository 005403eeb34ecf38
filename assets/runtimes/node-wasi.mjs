// wasmeter's WASI preview1 runner for JavaScript runtimes (node 20+, bun).
//
//   node --no-warnings node-wasi.mjs [--env=KEY=VALUE]... <module.wasm> [args...]
//   bun node-wasi.mjs [--env=KEY=VALUE]... <module.wasm> [args...]
//
// The guest sees argv = [argv0, ...args] (argv0: $WASMETER_ARGV0, else the module's file
// name), an environment of the --env variables only, and the working directory preopened
// as ".". Arguments after the module are passed through verbatim (no "--" needed or
// stripped).
//
// Exit status: the guest's exit code (proc_exit or 0 when _start returns); 134 when the
// guest traps; 2 for a usage error; 1 when the module cannot be read, compiled or
// instantiated. Every failure prints one line to stderr, prefixed "node-wasi:".
import { readFileSync } from 'node:fs';
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
  while (rest.length > 0 && rest[0].startsWith('--env=')) {
    const kv = rest.shift().slice('--env='.length);
    const eq = kv.indexOf('=');
    if (eq <= 0) fail(2, `--env needs KEY=VALUE, not '${kv}'`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const [file, ...args] = rest;
  if (!file) fail(2, 'usage: node-wasi.mjs [--env=KEY=VALUE]... <module.wasm> [args...]');

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
      args: [argv0, ...args],
      env,
      preopens: { '.': process.cwd() },
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

main();
