# Shared by scripts/*: installs what is missing and sets up the shared build cache.
# shellcheck shell=bash

# One target dir outside the clone, shared by every script and CI run, so the heavy crates
# (wasmtime, wasmer, polars) are compiled once and later runs are incremental.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/wasmeter-target}"
# One profile for tests and timed runs.
export WASMETER_PROFILE="${WASMETER_PROFILE:-ci}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

apt_updated=0
# apt_need PKG...: installs the Debian packages that are not installed yet.
apt_need() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing Debian packages: ${missing[*]}" >&2
  if [ "$apt_updated" = 0 ]; then as_root apt-get update -qq >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >&2
}

# need_rust: cargo on PATH (rustup's default location included) and the toolchain that
# rust-toolchain.toml pins: when rustup lacks it by name but its stable toolchain is that
# very version (as on these machines), stable serves under the pinned name; else rustup
# installs it.
need_rust() {
  [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
  if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust 1.95+ with rustup (https://rustup.rs)" >&2
    exit 1
  fi
  command -v rustup >/dev/null || return 0
  local root want toolchains stable
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$root/rust-toolchain.toml")"
  [ -n "$want" ] || return 0
  rustup toolchain list | grep -q "^$want-" && return 0
  toolchains="${RUSTUP_HOME:-$HOME/.rustup}/toolchains"
  stable="$(ls -d "$toolchains"/stable-* 2>/dev/null | head -1)"
  if [ -n "$stable" ] && [ -x "$stable/bin/rustc" ] && "$stable/bin/rustc" -V | grep -q "^rustc $want "; then
    echo "using the stable toolchain (rustc $want) as the pinned $want" >&2
    ln -s "$stable" "$toolchains/$want-${stable##*/stable-}"
  else
    echo "installing Rust $want (rust-toolchain.toml)" >&2
    rustup toolchain install "$want" --profile minimal --component rustfmt,clippy >&2
  fi
}

# need_native_cc: the C compiler of the native baseline and of the vendored wasm3, and
# binutils' nm and objcopy, which rename the symbols of wasm3's marked copy (core's build).
need_native_cc() {
  { command -v cc && command -v nm && command -v objcopy; } >/dev/null || apt_need gcc libc6-dev binutils
}

# need_wasi_toolchain: clang-19 + wasi-libc, to rebuild and check the committed guests.
need_wasi_toolchain() {
  apt_need clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32
}

# need_browser: Debian's Chromium and playwright-core (no browser download) for the HTML check.
need_browser() {
  apt_need chromium
  (cd "$(dirname "${BASH_SOURCE[0]}")/../tests/browser" && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund >&2; })
}

# need_desktop_build: WebKitGTK and friends to build the desktop app, and its page built
# (npm ci + vite) into ui-desktop/web/dist, which the Rust build embeds.
need_desktop_build() {
  apt_need libwebkit2gtk-4.1-dev libxdo-dev libssl-dev librsvg2-dev file
  local web
  web="$(cd "$(dirname "${BASH_SOURCE[0]}")/../ui-desktop/web" && pwd)"
  if [ ! -d "$web/node_modules/.bin" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    # npm ci refuses a lock that lacks optional platform packages the registry here does not
    # serve (Biome's android/darwin/win32/musl builds answer 404): then install from
    # package.json, the lock's pins for everything that exists, and the tree is checked
    # by the build, biome and vitest below.
    if ! (cd "$web" && npm ci --no-audit --no-fund >&2); then
      echo "npm ci refused the lock (optional packages this registry lacks): npm install instead" >&2
      (cd "$web" && npm install --no-audit --no-fund --no-save >&2)
    fi
  fi
  (cd "$web" && npm run --silent build >&2)
}

# need_desktop_e2e: Xvfb, WebKitWebDriver and tauri-driver for the desktop end-to-end test.
need_desktop_e2e() {
  apt_need xvfb webkit2gtk-driver
  local tools="$HOME/.cache/wasmeter/tools"
  if [ ! -x "$tools/bin/tauri-driver" ]; then
    echo "installing tauri-driver 2.1.0 into $tools" >&2
    CARGO_TARGET_DIR="$tools/target" cargo install tauri-driver --version 2.1.0 --locked --root "$tools" >&2
    rm -rf "$tools/target"
  fi
}

# start_desktop_driver: Xvfb on a display of its own and tauri-driver beside it, each in its
# own process group with its pid added to the caller's `pids` (to kill on exit); exports
# DISPLAY and sets `port`, where tauri-driver's WebDriver listens when this returns. The app
# it starts inherits this environment: export WASMETER_RESULTS and friends first.
start_desktop_driver() {
  exec 3< <(setsid Xvfb -displayfd 1 -nolisten tcp -screen 0 1366x900x24 2>/dev/null & echo "pid $!")
  local xpid display
  read -r _ xpid <&3; pids+=("$xpid")
  read -r display <&3
  export DISPLAY=":$display"
  port=$((20000 + RANDOM % 20000))
  setsid "$HOME/.cache/wasmeter/tools/bin/tauri-driver" --port "$port" --native-port $((port + 1)) >/dev/null 2>&1 &
  pids+=("$!")
  for _ in $(seq 100); do (exec 4<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
}

wasmeter_bin() {
  echo "$CARGO_TARGET_DIR/$WASMETER_PROFILE/wasmeter"
}
