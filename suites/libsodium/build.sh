#!/usr/bin/env bash
# suites/libsodium/build.sh — build libsodium's own test suite for wasmeter.
#
# Usage: suites/libsodium/build.sh [--force] [--print-dir] [--help]
#
#   (no option)   build, or reuse when already built with the same source and flags
#   --force       rebuild even when the cache is complete
#   --print-dir   print the cache directory this build uses (fetching the source if
#                 needed, to learn its version) and exit without building
#
# The libsodium source is the LATEST.tar.gz that the crates.io package
# `libsodium-sys-stable` ships (fetched with cargo in a throwaway project; nothing of
# libsodium is kept in this repository). Four builds, each configured in its own extracted
# source tree (out-of-tree builds embed ../ paths that WASI refuses):
#
#   wasm/bench    clang-19 --target=wasm32-wasi -O3, -DBENCHMARKS -DITERATIONS=$ITERATIONS
#   wasm/check    clang-19 --target=wasm32-wasi -O3 (the tests compare with their .exp)
#   native/bench  clang-19 (or $CC), -O3, -DBENCHMARKS -DITERATIONS=$ITERATIONS
#   native/check  clang-19 (or $CC), -O3
#
# Output, under the cache (${WASMETER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wasmeter})
# in libsodium/<version>/:
#   wasm/bench/<test>.wasm  wasm/check/<test>.wasm  native/bench/<test>  native/check/<test>
#   exp/<test>.exp   tests.txt (one name a line)   build-info.txt   logs/
#   suite.toml       the `libsodium` suite's manifest, registered for wasmeter by the link
#                    <cache>/suites/libsodium -> this directory
#   (src/<kind>-<mode>/ holds a build tree while it builds; it is removed once collected)
# See suites/README.md, "The libsodium suite", for how the tests are run.
#
# Environment:
#   WASMETER_CACHE         cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/wasmeter)
#   LIBSODIUM_ITERATIONS   iterations of a benchmark-mode test (default 5: each
#                          process times 5 runs of the test; wasmeter runs it --runs times)
#   LIBSODIUM_SYS_STABLE   crate version to take the source from (default 1.24.3)
#   LIBSODIUM_TESTS        build only these tests (space-separated; default all)
#   LIBSODIUM_WASM_CFLAGS  extra compiler flags of the wasm builds
#   WASI_SYSROOT           a WASI sysroot (e.g. wasi-sdk's) instead of Debian's wasi-libc
#   WASMETER_NO_INSTALL=1  never install packages, only name them
#   WASMETER_CC / CC       native compiler (default clang-19, the wasm side's compiler,
#                          so both get the same optimiser; cc when it is missing)
#   JOBS                   make -j (default: nproc)
#
# Needs: cargo, make, a native cc, and the Debian packages
#   clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 llvm-19
# (installed with apt-get when run as root, otherwise named and the script exits 1).
set -euo pipefail

ITERATIONS="${LIBSODIUM_ITERATIONS:-5}"
CRATE_VERSION="${LIBSODIUM_SYS_STABLE:-1.24.3}"
CACHE_ROOT="${WASMETER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wasmeter}"
if command -v clang-19 >/dev/null 2>&1; then DEFAULT_CC=clang-19; else DEFAULT_CC=cc; fi
NATIVE_CC="${WASMETER_CC:-${CC:-$DEFAULT_CC}}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
APT_PACKAGES=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 llvm-19)
WASM_TOOLS=(CC=clang-19 AR=llvm-ar-19 RANLIB=llvm-ranlib-19 NM=llvm-nm-19)
COMMON_CONFIGURE=(--disable-pie --disable-ssp --disable-shared --without-pthreads)

ONLY_TESTS="${LIBSODIUM_TESTS:-}"
EXTRA_WASM_CFLAGS="${LIBSODIUM_WASM_CFLAGS:-}"
SYSROOT="${WASI_SYSROOT:-}"
# Tests that run in checking mode but measure nothing comparable in benchmark mode: the
# suite checks them and leaves them out of the timings (see docs/libsodium.md).
declare -A UNTIMED=(
    [aead_aes256gcm]="AES-256-GCM needs the CPU's AES instructions: natively it runs, in wasm it is unavailable and the test returns at once"
    [aead_aes256gcm2]="AES-256-GCM needs the CPU's AES instructions: natively it runs, in wasm it is unavailable and the test returns at once"
    [misuse]="aborts on purpose through a misuse handler; prints no timing"
    [onetimeauth2]="too short to time: natively it reports 0 ps per iteration"
    [sodium_utils2]="too short to time: natively it reports 0 ps per iteration"
    [sodium_utils3]="too short to time: natively it reports 0 ps per iteration"
    [sodium_version]="too short to time: natively it reports 0 ps per iteration"
)

FORCE=0
PRINT_DIR=0
for arg in "$@"; do
    case "$arg" in
        --force) FORCE=1 ;;
        --print-dir) PRINT_DIR=1 ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "build.sh: unknown option '$arg' (try --help)" >&2
            exit 2
            ;;
    esac
done

# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

die() {
    echo "build.sh: $*" >&2
    exit 1
}
log() { echo "libsodium: $*" >&2; }

# run LOGFILE CMD...: run a step with its output in LOGFILE; on failure print the command
# and the tail of the log, and exit non-zero.
run() {
    local logfile=$1
    shift
    if ! "$@" >"$logfile" 2>&1; then
        echo "build.sh: failed: $*" >&2
        echo "build.sh: (in $(pwd); last lines of $logfile)" >&2
        tail -n 40 "$logfile" >&2
        exit 1
    fi
}

# ---- toolchain --------------------------------------------------------------------------

ensure_toolchain() {
    local missing=() t
    for t in clang-19 wasm-ld-19 llvm-ar-19 llvm-ranlib-19 llvm-nm-19; do
        command -v "$t" >/dev/null 2>&1 || missing+=("$t")
    done
    if [[ -n "$SYSROOT" ]]; then
        [[ -f "$SYSROOT/include/wasm32-wasi/stdio.h" || -f "$SYSROOT/include/stdio.h" ]] ||
            missing+=("wasi-libc headers in WASI_SYSROOT=$SYSROOT")
    else
        [[ -f /usr/include/wasm32-wasi/stdio.h ]] || missing+=("wasi-libc headers")
    fi
    compgen -G '/usr/lib/llvm-19/lib/clang/19/lib/wasi*/libclang_rt.builtins-wasm32.a' \
        >/dev/null || missing+=("libclang_rt.builtins-wasm32.a")
    # With a sysroot of the user's, nothing is installed: what is missing is named.
    WASMETER_NO_INSTALL="${WASMETER_NO_INSTALL:-$SYSROOT}" install_or_name APT_PACKAGES "${missing[@]}"
    command -v make >/dev/null 2>&1 || die "missing make; install the Debian package: apt-get install make"
    command -v "$NATIVE_CC" >/dev/null 2>&1 ||
        die "missing the native C compiler '$NATIVE_CC'; install the Debian package: apt-get install gcc"
}

# ---- source -----------------------------------------------------------------------------

# Sets TARBALL to the crate's LATEST.tar.gz, fetching the crate with cargo when needed.
find_tarball() {
    local dir
    dir=$(fetch_crate libsodium-sys-stable "$CRATE_VERSION" "$CACHE_ROOT/libsodium/crates") || exit 1
    local found="$dir/LATEST.tar.gz"
    [[ -f "$found" ]] || die "the crate libsodium-sys-stable $CRATE_VERSION has no LATEST.tar.gz ($dir)"
    TARBALL="$found"
    TARBALL_SHA=$(sha256sum "$TARBALL" | cut -d' ' -f1)
    # The version, from the tarball's configure (PACKAGE_VERSION='1.0.22').
    VERSION=$(tar -xzOf "$TARBALL" libsodium-stable/configure |
        sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" | head -n 1)
    [[ -n "$VERSION" ]] || die "cannot read libsodium's version from $TARBALL"
}

# ---- builds -----------------------------------------------------------------------------

# build_mode KIND MODE: KIND wasm|native, MODE bench|check.
build_mode() {
    local kind=$1 mode=$2
    local tree="$OUT/src/$kind-$mode"
    local logs="$OUT/logs/$kind-$mode"
    local cppflags=""
    [[ "$mode" == bench ]] && cppflags="-DBENCHMARKS -DITERATIONS=$ITERATIONS"
    local t0=$SECONDS
    rm -rf "$tree" "$logs"
    mkdir -p "$tree" "$logs"
    tar -xzf "$TARBALL" -C "$tree"
    cd "$tree/libsodium-stable"
    if [[ "$kind" == wasm ]]; then
        run "$logs/configure.log" ./configure --host=wasm32-wasi "${COMMON_CONFIGURE[@]}" \
            "${WASM_TOOLS[@]}" CFLAGS="--target=wasm32-wasi -O3${SYSROOT:+ --sysroot=$SYSROOT}${EXTRA_WASM_CFLAGS:+ $EXTRA_WASM_CFLAGS}" CPPFLAGS="$cppflags" \
            LDFLAGS="-Wl,--strip-all"
    else
        run "$logs/configure.log" ./configure "${COMMON_CONFIGURE[@]}" \
            CC="$NATIVE_CC" CFLAGS="-O3" CPPFLAGS="$cppflags"
    fi
    run "$logs/make-lib.log" make -j"$JOBS" -C src/libsodium
    local names
    if [[ -n "$ONLY_TESTS" ]]; then
        names=$ONLY_TESTS
        # shellcheck disable=SC2086
        run "$logs/make-tests.log" make -j"$JOBS" -C test/default $names
    else
        # `check` with an empty TESTS builds every test program and runs none.
        run "$logs/make-tests.log" make -j"$JOBS" -C test/default check TESTS=
        names=$(make -s -C test/default -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS_TARGETS)')
    fi
    local dest="$OUT/$kind/$mode" name exe
    rm -rf "$dest"
    mkdir -p "$dest"
    : >"$OUT/tests.$kind-$mode.txt"
    for name in $names; do
        exe="test/default/$name"
        [[ -x "$exe" ]] || die "$kind/$mode: test program $exe was not built"
        if [[ "$kind" == wasm ]]; then
            cp "$exe" "$dest/$name.wasm"
        else
            cp "$exe" "$dest/$name"
        fi
        echo "$name" >>"$OUT/tests.$kind-$mode.txt"
        if [[ "$mode" == check ]]; then
            mkdir -p "$OUT/exp"
            cp "test/default/$name.exp" "$OUT/exp/$name.exp"
        fi
    done
    cd "$OUT"
    rm -rf "$tree" # only its logs are kept: a failed build leaves its tree for a look
    log "$kind/$mode: $(wc -l <"$OUT/tests.$kind-$mode.txt") tests in $((SECONDS - t0)) s"
}

# ---- the suite's manifest -------------------------------------------------------------

# A test's category: its name up to the first '_', without trailing digits (box_easy2 -> box).
category() {
    local c=${1%%_*}
    c=${c%%[0-9]*}
    echo "${c:-$1}"
}

# Writes $OUT/suite.toml from tests.txt and links it where wasmeter finds generated suites.
write_manifest() {
    local tmp="$OUT/suite.toml.tmp" name
    {
        echo "# Generated by suites/libsodium/build.sh for libsodium $VERSION; rebuilt with it."
        echo "[suite]"
        echo 'name = "libsodium"'
        echo "description = \"libsodium $VERSION's own tests (test/default): benchmark mode, $ITERATIONS iterations each; checked against their .exp first\""
        echo "self_timed_iterations = $ITERATIONS"
        echo "timeout_secs = 600"
        while read -r name; do
            echo
            echo "[[test]]"
            echo "name = \"$name\""
            echo "description = \"test/default/$name.c\""
            echo "tags = [\"$(category "$name")\"]"
            echo "wasm = \"wasm/bench/$name.wasm\""
            echo "native = \"native/bench/$name\""
            echo "check = { wasm = \"wasm/check/$name.wasm\", native = \"native/check/$name\", expected = \"exp/$name.exp\", result = \"$name.res\" }"
            if [[ -n "${UNTIMED[$name]:-}" ]]; then
                echo "untimed = \"${UNTIMED[$name]}\""
            fi
        done <"$OUT/tests.txt"
    } >"$tmp"
    mv "$tmp" "$OUT/suite.toml"
    mkdir -p "$CACHE_ROOT/suites"
    ln -sfn "$OUT" "$CACHE_ROOT/suites/libsodium"
}

# ---- main -------------------------------------------------------------------------------

find_tarball
OUT="$CACHE_ROOT/libsodium/$VERSION"
if ((PRINT_DIR)); then
    echo "$OUT"
    exit 0
fi

STAMP="source_sha256=$TARBALL_SHA iterations=$ITERATIONS native_cc=$NATIVE_CC cflags=-O3 wasm_extra=$EXTRA_WASM_CFLAGS sysroot=$SYSROOT tests=${ONLY_TESTS:-all}"
if ((!FORCE)) && [[ -f "$OUT/build-info.txt" ]] && grep -qxF "stamp: $STAMP" "$OUT/build-info.txt"; then
    write_manifest
    log "up to date: $OUT ($(wc -l <"$OUT/tests.txt") tests; --force rebuilds)"
    echo "$OUT"
    exit 0
fi

ensure_toolchain
log "building libsodium $VERSION (libsodium-sys-stable $CRATE_VERSION) into $OUT"
mkdir -p "$OUT"
# Unregistered until it is whole again: a failed build never leaves a half-built suite.
rm -f "$OUT/build-info.txt" "$OUT/suite.toml" "$CACHE_ROOT/suites/libsodium"
START=$SECONDS
for kind in wasm native; do
    for mode in bench check; do
        build_mode "$kind" "$mode"
    done
done
for f in wasm-check native-bench native-check; do
    cmp -s "$OUT/tests.wasm-bench.txt" "$OUT/tests.$f.txt" ||
        die "the test lists differ between wasm-bench and $f (see $OUT/tests.*.txt)"
done
mv "$OUT/tests.wasm-bench.txt" "$OUT/tests.txt"
rm -f "$OUT"/tests.*-*.txt
rmdir "$OUT/src" 2>/dev/null || true
ELAPSED=$((SECONDS - START))

{
    echo "stamp: $STAMP"
    echo "libsodium: $VERSION"
    echo "crate: libsodium-sys-stable $CRATE_VERSION"
    echo "source: $TARBALL"
    echo "source_sha256: $TARBALL_SHA"
    echo "iterations: $ITERATIONS"
    echo "tests: $(wc -l <"$OUT/tests.txt")"
    echo "wasm_cc: $(clang-19 --version | head -n 1)"
    echo "native_cc: $("$NATIVE_CC" --version | head -n 1)"
    echo "build_seconds: $ELAPSED"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$OUT/build-info.txt.tmp"
mv "$OUT/build-info.txt.tmp" "$OUT/build-info.txt"
write_manifest
log "done: $(wc -l <"$OUT/tests.txt") tests, 4 builds in $ELAPSED s"
echo "$OUT"
