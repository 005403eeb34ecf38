#!/usr/bin/env bash
# build-component.sh - the gateway guest as a wasi:http/proxy component: wasm/gateway-http.wasm
# from src/gateway-http.c and the C bindings in component/, for the variants that serve
# components per request (embedded wasmtime-http, the wasmtime CLI's `serve`).
#
#   suites/gateway/build-component.sh             build wasm/gateway-http.wasm
#   suites/gateway/build-component.sh --check     rebuild into a temp dir; exit 1 when the
#                                                 committed file differs
#   suites/gateway/build-component.sh --bindings  regenerate component/ from wit/ with
#                                                 wit-bindgen-cli (cargo install, ~5 min once)
#
# The commands, run in this folder with relative paths only (byte-identical anywhere):
#   clang-19 --target=wasm32-wasi -O2 -mexec-model=reactor -Wl,--strip-all -o core.wasm \
#       src/gateway-http.c component/gateway_http.c component/gateway_http_component_type.o
#   wasm-tools component new core.wasm -o wasm/gateway-http.wasm
# The guest uses no stdio, so the core module imports wasi:http and wasi:cli/environment
# only and needs no preview 1 adapter. wit/deps/ is wasmtime-wasi-http 48's WIT (wasi 0.2.12).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
WIT_BINDGEN_VERSION=0.63.0
tools="${WASMETER_TOOLS_DIR:-$HOME/.cache/wasmeter/tools}"
wasm_tools=../../scripts/wasm-tools

die() { echo "build-component.sh: $*" >&2; exit 1; }
command -v clang-19 >/dev/null || die "no clang-19 (apt-get install clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32)"

# build OUT: the component at OUT.
build() {
  local tmp
  tmp="$(mktemp -d)"
  clang-19 --target=wasm32-wasi -O2 -mexec-model=reactor -Wl,--strip-all -o "$tmp/core.wasm" \
    src/gateway-http.c component/gateway_http.c component/gateway_http_component_type.o
  "$wasm_tools" component new "$tmp/core.wasm" -o "$1"
  rm -rf "$tmp"
}

case "${1:-}" in
"")
  build wasm/gateway-http.wasm
  echo "built wasm/gateway-http.wasm ($(wc -c <wasm/gateway-http.wasm) bytes)"
  ;;
--check)
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  build "$tmp/gateway-http.wasm"
  if ! cmp -s wasm/gateway-http.wasm "$tmp/gateway-http.wasm"; then
    echo "stale: wasm/gateway-http.wasm (differs from a rebuild of src/gateway-http.c); run suites/gateway/build-component.sh and commit it" >&2
    exit 1
  fi
  echo "ok: wasm/gateway-http.wasm matches its sources"
  ;;
--bindings)
  bin="$tools/wit-bindgen-$WIT_BINDGEN_VERSION/bin/wit-bindgen"
  if [ ! -x "$bin" ]; then
    echo "installing wit-bindgen-cli $WIT_BINDGEN_VERSION (cargo install, a few minutes)" >&2
    cargo install --quiet --locked wit-bindgen-cli --version "=$WIT_BINDGEN_VERSION" \
      --root "$tools/wit-bindgen-$WIT_BINDGEN_VERSION" || die "cargo install wit-bindgen-cli failed"
  fi
  "$bin" c wit --world gateway-http --out-dir component
  ;;
-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' ;;
*) die "unknown option '$1' (--check, --bindings)" ;;
esac
