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
#   native/bench  the system C compiler, -O3, -DBENCHMARKS -DITERATIONS=$ITERATIONS
#   native/check  the system C compiler, -O3
#
# Output, under ${WASMETER_CACHE:-$HOME/.cache/wasmeter}/libsodium/<version>/:
#   wasm/bench/<test>.wasm  wasm/check/<test>.wasm  native/bench/<test>  native/check/<test>
#   exp/<test>.exp   tests.txt (one name a line)   build-info.txt   logs/
#   (src/<kind>-<mode>/ holds a build tree while it builds; it is removed once collected)
# See suites/README.md, "The libsodium suite", for how the tests are run.
#
# Environment:
#   WASMETER_CACHE         cache root (default $HOME/.cache/wasmeter)
#   LIBSODIUM_ITERATIONS   iterations of a benchmark-mode test (default 200)
#   LIBSODIUM_SYS_STABLE   crate version to take the source from (default 1.24.3)
#   WASMETER_CC / CC       native compiler (default cc)
#   JOBS                   make -j (default: nproc)
#
# Needs: cargo, make, a native cc, and the Debian packages
#   clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 llvm-19
# (installed with apt-get when run as root, otherwise named and the script exits 1).
set -euo pipefail

ITERATIONS="${LIBSODIUM_ITERATIONS:-200}"
CRATE_VERSION="${LIBSODIUM_SYS_STABLE:-1.24.3}"
CACHE_ROOT="${WASMETER_CACHE:-$HOME/.cache/wasmeter}"
NATIVE_CC="${WASMETER_CC:-${CC:-cc}}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
CARGO_HOME_DIR="${CARGO_HOME:-$HOME/.cargo}"
APT_PACKAGES=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 llvm-19)
WASM_TOOLS=(CC=clang-19 AR=llvm-ar-19 RANLIB=llvm-ranlib-19 NM=llvm-nm-19)
COMMON_CONFIGURE=(--disable-pie --disable-ssp --disable-shared --without-pthreads)

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
    [[ -f /usr/include/wasm32-wasi/stdio.h ]] || missing+=("wasi-libc headers")
    compgen -G '/usr/lib/llvm-19/lib/clang/19/lib/wasi*/libclang_rt.builtins-wasm32.a' \
        >/dev/null || missing+=("libclang_rt.builtins-wasm32.a")
    if ((${#missing[@]} > 0)); then
        if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
            log "installing ${APT_PACKAGES[*]} (missing: ${missing[*]})"
            apt-get update -qq >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}" >&2
        else
            die "missing ${missing[*]}; install the Debian packages: apt-get install ${APT_PACKAGES[*]}"
        fi
    fi
    command -v make >/dev/null 2>&1 || die "missing make; install the Debian package: apt-get install make"
    command -v "$NATIVE_CC" >/dev/null 2>&1 ||
        die "missing the native C compiler '$NATIVE_CC'; install the Debian package: apt-get install gcc"
}

# ---- source -----------------------------------------------------------------------------

# Sets TARBALL to the crate's LATEST.tar.gz, fetching the crate with cargo when needed.
find_tarball() {
    local pattern="$CARGO_HOME_DIR/registry/src/*/libsodium-sys-stable-$CRATE_VERSION/LATEST.tar.gz"
    local found
    found=$(compgen -G "$pattern" | head -n 1 || true)
    if [[ -z "$found" ]]; then
        command -v cargo >/dev/null 2>&1 || die "cargo is needed to fetch libsodium-sys-stable"
        log "fetching libsodium-sys-stable $CRATE_VERSION with cargo"
        local tmp
        tmp=$(mktemp -d)
        # shellcheck disable=SC2064
        trap "rm -rf '$tmp'" EXIT
        (
            cd "$tmp"
            run "$tmp/cargo.log" cargo new --quiet --vcs none fetch-libsodium
            cd fetch-libsodium
            printf 'libsodium-sys-stable = "=%s"\n' "$CRATE_VERSION" >>Cargo.toml
            run "$tmp/cargo.log" cargo fetch
        )
        found=$(compgen -G "$pattern" | head -n 1 || true)
        if [[ -z "$found" ]]; then
            # cargo keeps the .crate even when it did not unpack it: take the tarball from it.
            local crate
            crate=$(compgen -G "$CARGO_HOME_DIR/registry/cache/*/libsodium-sys-stable-$CRATE_VERSION.crate" |
                head -n 1 || true)
            [[ -n "$crate" ]] || die "cargo fetch did not bring libsodium-sys-stable $CRATE_VERSION"
            tar -xzf "$crate" -C "$tmp" "libsodium-sys-stable-$CRATE_VERSION/LATEST.tar.gz"
            mkdir -p "$CACHE_ROOT/libsodium"
            cp "$tmp/libsodium-sys-stable-$CRATE_VERSION/LATEST.tar.gz" \
                "$CACHE_ROOT/libsodium/libsodium-sys-stable-$CRATE_VERSION.tar.gz"
            found="$CACHE_ROOT/libsodium/libsodium-sys-stable-$CRATE_VERSION.tar.gz"
        fi
        rm -rf "$tmp"
        trap - EXIT
    fi
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
            "${WASM_TOOLS[@]}" CFLAGS="--target=wasm32-wasi -O3" CPPFLAGS="$cppflags" \
            LDFLAGS="-Wl,--strip-all"
    else
        run "$logs/configure.log" ./configure "${COMMON_CONFIGURE[@]}" \
            CC="$NATIVE_CC" CFLAGS="-O3" CPPFLAGS="$cppflags"
    fi
    run "$logs/make-lib.log" make -j"$JOBS" -C src/libsodium
    # `check` with an empty TESTS builds every test program and runs none.
    run "$logs/make-tests.log" make -j"$JOBS" -C test/default check TESTS=
    local names
    names=$(make -s -C test/default -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS_TARGETS)')
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

# ---- main -------------------------------------------------------------------------------

find_tarball
OUT="$CACHE_ROOT/libsodium/$VERSION"
if ((PRINT_DIR)); then
    echo "$OUT"
    exit 0
fi

STAMP="source_sha256=$TARBALL_SHA iterations=$ITERATIONS native_cc=$NATIVE_CC cflags=-O3"
if ((!FORCE)) && [[ -f "$OUT/build-info.txt" ]] && grep -qxF "stamp: $STAMP" "$OUT/build-info.txt"; then
    log "up to date: $OUT ($(wc -l <"$OUT/tests.txt") tests; --force rebuilds)"
    echo "$OUT"
    exit 0
fi

ensure_toolchain
log "building libsodium $VERSION (libsodium-sys-stable $CRATE_VERSION) into $OUT"
mkdir -p "$OUT"
rm -f "$OUT/build-info.txt"
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
log "done: $(wc -l <"$OUT/tests.txt") tests, 4 builds in $ELAPSED s"
echo "$OUT"
