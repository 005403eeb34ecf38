/**
 * The user's own modules, as `wasmeter run FILE.wasm|DIR… [--env K=V] [--stdin FILE]
 * [--expect FILE] [--dir HOST[::GUEST]] [--invoke NAME] [--native PROGRAM] [-- ARGS]`
 * takes them: the options as typed in the setup, checked for their form here (one line
 * saying what is wrong, which keeps the run from starting) and sent to the backend, which
 * checks what only the machine knows (files exist, programs run) and says so in one line.
 */
import type { ModulesRequest } from './api';

/** The name of the suite modules given by path make (core's `MODULES_SUITE`). */
export const MODULES_SUITE = 'modules';

/** The module options as the fields hold them. */
export interface ModuleOptionsText {
  /** Arguments after the program name, split as a shell would ('…', "…", \ escapes). */
  args: string;
  /** KEY=VALUE, one a line. */
  env: string;
  /** A file every module reads as its stdin. */
  stdin: string;
  /** The output every runtime must print. */
  expect: string;
  /** HOST[::GUEST], one a line. */
  dirs: string;
  /** An exported function called instead of `_start`. */
  invoke: string;
  /** A native build: PROGRAM, or TEST=PROGRAM one a line for several modules. */
  native: string;
}

export const NO_OPTIONS: ModuleOptionsText = { args: '', env: '', stdin: '', expect: '', dirs: '', invoke: '', native: '' };

/** Words of a command line as a POSIX shell splits them (no expansion); an error for an open quote. */
export function splitArgs(text: string): string[] | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\') {
      if (i + 1 === text.length) return { error: 'Arguments end with a lone backslash.' };
      word = (word ?? '') + text[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) return { error: `Arguments: a ${quote === "'" ? 'single' : 'double'} quote is not closed.` };
  if (word !== null) words.push(word);
  return words;
}

/** Non-blank lines, trimmed. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

const absolute = (p: string) => p.startsWith('/');

/**
 * What the backend is sent for `paths` with these options, or the first problem in one
 * line. Paths typed must be absolute: the app's working folder means nothing to its user.
 */
export function modulesRequest(paths: readonly string[], o: ModuleOptionsText): { request: ModulesRequest } | { error: string } {
  if (paths.length === 0) return { error: 'Add a .wasm module or a folder of them.' };
  const args = splitArgs(o.args);
  if (!Array.isArray(args)) return args;
  const env = lines(o.env);
  const badEnv = env.find((kv) => !/^[^=\s]+=/.test(kv));
  if (badEnv !== undefined) return { error: `Environment: '${badEnv}' is not KEY=VALUE.` };
  const dirs = lines(o.dirs);
  for (const d of dirs) {
    const [host, guest] = d.includes('::') ? [d.slice(0, d.indexOf('::')), d.slice(d.indexOf('::') + 2)] : [d, d];
    if (!absolute(host) || guest === '') return { error: `Folders: '${d}' is not HOST[::GUEST] with an absolute HOST.` };
  }
  for (const [what, file] of [
    ['Stdin', o.stdin],
    ['Expected output', o.expect],
  ] as const) {
    if (file.trim() !== '' && !absolute(file.trim())) return { error: `${what}: '${file.trim()}' is not an absolute path.` };
  }
  const invoke = o.invoke.trim();
  if (invoke !== '' && /\s/.test(invoke)) return { error: `Invoke: '${invoke}' is not a function name (no spaces).` };
  const native = lines(o.native);
  if (native.length > 1 && native.some((n) => !/^[^=/]+=/.test(n))) {
    return { error: 'Native: several builds are TEST=PROGRAM, one a line.' };
  }
  const request: ModulesRequest = { paths: [...paths], args, env, dirs, native };
  if (o.stdin.trim()) request.stdin = o.stdin.trim();
  if (o.expect.trim()) request.expect = o.expect.trim();
  if (invoke) request.invoke = invoke;
  return { request };
}

/** Paths added to those there, each once, in the order given. */
export function addPaths(there: readonly string[], added: readonly string[]): string[] {
  const out = [...there];
  for (const p of added) if (!out.includes(p)) out.push(p);
  return out;
}

/** The last part of a path, for a compact list. */
export function baseName(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
