#!/usr/bin/env bash
# build.sh OUT - componentizes hello.js into OUT/hello-js.wasm, a wasi:http/proxy component
# running SpiderMonkey compiled to wasm (StarlingMonkey), with componentize-js from npm
# (installed once under OUT/componentize-js-$VERSION, ~40 s and ~400 MB). Rebuilt only when
# hello.js, the WIT or the version changes (~15 s). The servers suite's `build` step for
# wasmtime-serve and wasmtime-http; needs Node 18+ and npm.
set -euo pipefail
VERSION=0.23.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(mkdir -p "${1:?usage: build.sh OUT}" && cd "$1" && pwd)"
pkg="$out/componentize-js-$VERSION"
key="$(cat "$here/hello.js" "$here"/wit/*.wit "$here"/wit/deps/*.wit | sha256sum | cut -c1-16)-$VERSION"
if [ -f "$out/hello-js.wasm" ] && [ "$(cat "$out/hello-js.key" 2>/dev/null)" = "$key" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "build.sh: npm not found (Node 18+ with npm builds the JS component)" >&2; exit 1; }
if [ ! -x "$pkg/node_modules/.bin/componentize-js" ]; then
  rm -rf "$pkg.tmp"; mkdir -p "$pkg.tmp"
  if ! npm install --prefix "$pkg.tmp" --no-audit --no-fund --loglevel=error \
      "@bytecodealliance/componentize-js@$VERSION" >&2; then
    rm -rf "$pkg.tmp"
    echo "build.sh: npm install @bytecodealliance/componentize-js@$VERSION failed" >&2
    exit 1
  fi
  rm -rf "$pkg"; mv "$pkg.tmp" "$pkg"
fi
cd "$here"
"$pkg/node_modules/.bin/componentize-js" --wit wit --world-name hello -o "$out/hello-js.wasm.tmp" hello.js >&2
mv "$out/hello-js.wasm.tmp" "$out/hello-js.wasm"
echo "$key" >"$out/hello-js.key"
