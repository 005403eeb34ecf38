#!/usr/bin/env bash
# suites/apps/build.sh — build the `apps` suite: real programs from their upstream sources.
#
# Usage: suites/apps/build.sh [--force] [--expected] [--print-dir] [--help]
#
#   (no option)   build what is missing or changed, register the suite, report each app
#   --force       rebuild every app even when its cache is complete
#   --expected    also run each native build at both sizes and write suites/apps/expected/
#                 (after changing a driver, a script or a source version; commit the result)
#   --print-dir   print the suite's directory and exit
#
# Each app is a driver written here (src/<app>.c or .cpp) around a library whose sources a
# package registry ships; nothing of them is kept in this repository:
#
#   sqlite    SQLite amalgamation          crates.io libsqlite3-sys  (sqlite3/)
#   lua       Lua 5.4                      crates.io lua-src         (lua-5.4.*/)
#   quickjs   QuickJS-ng                   crates.io rquickjs-sys    (quickjs/)
#   zstd      zstd                         crates.io zstd-sys        (zstd/lib/)
#   bzip2     bzip2 1.0.8                  crates.io bzip2-sys       (bzip2-1.0.8/)
#   pcre2     PCRE2 (no JIT)               crates.io pcre2-sys       (upstream/)
#   simdjson  simdjson (C++17, libc++)     npm simdjson              (simdjson/src/)
#
# Crates are fetched with cargo in a throwaway project, the npm package with `npm pack`.
# Both builds of an app use the same sources, compiler (clang-19) and flags; the wasm build
# targets wasm32-wasi with Debian's wasi-libc (and libc++ for C++).
#
# Output, under the cache (${WASMETER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wasmeter}):
#   apps/build/<app>-<inputs hash>/{<app>.wasm,<app>,build-*.log}   one app's builds, kept,
#                 each with what names its functions for profiles: <app>.names beside the
#                 module (suites/lib.sh's names_file), <app>.debug beside the native build
#   apps/suite/{suite.toml,wasm/,native/,expected/,build-report.txt}   the suite, linked
#                 from <cache>/suites/apps so that wasmeter finds it
#   apps/lifecycle/{suite.toml,wasm/}   `apps-lifecycle`: the lifecycle suite's compile,
#                 load and instantiate phases on the same modules (hard links), linked
#                 from <cache>/suites/apps-lifecycle
# An app that fails to fetch or build for one target stays in the suite with the reason:
# its cells on that target fail with it, the rest run. The script then exits 1.
#
# Environment:
#   WASMETER_CACHE         cache root
#   APPS                   build only these apps (space-separated; default all); the
#                          suite then holds only them
#   APPS_WASM_CFLAGS       extra flags of the wasm builds
#   JOBS                   parallel compilations (default: nproc)
#   WASMETER_NO_INSTALL=1  never install packages, only name them
#
# Needs: cargo, npm, and the Debian packages
#   clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 libc++-19-dev-wasm32
#   libc++abi-19-dev-wasm32 libc++-19-dev libc++abi-19-dev
# (installed with apt-get when run as root, otherwise named and the script exits 1).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE_ROOT="${WASMETER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wasmeter}"
ROOT="$CACHE_ROOT/apps"
SUITE="$ROOT/suite"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
ALL_APPS=(sqlite lua quickjs zstd bzip2 pcre2 simdjson)
APT_PACKAGES=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 libc++-19-dev-wasm32
    libc++abi-19-dev-wasm32 libc++-19-dev libc++abi-19-dev)

# Where each app's sources come from: "crate NAME VERSION" or "npm NAME VERSION".
declare -A PACKAGE=(
    [sqlite]="crate libsqlite3-sys 0.40.0"
    [lua]="crate lua-src 551.1.0"
    [quickjs]="crate rquickjs-sys 0.14.0"
    [zstd]="crate zstd-sys 2.1.3+zstd.1.5.7"
    [bzip2]="crate bzip2-sys 0.1.13+1.0.8"
    [pcre2]="crate pcre2-sys 0.2.10"
    [simdjson]="npm simdjson 0.9.2"
)
declare -A DESCRIPTION=(
    [sqlite]="SQLite: inserts, indexed lookups, joins, an update and GROUP BYs on an in-memory database: 12k users quick, 200k full"
    [lua]="Lua 5.4 running four scripts written here (objects, strings, numeric, a Richards-style scheduler): scale 1 quick, 16 full"
    [quickjs]="QuickJS-ng running the same four scripts in JavaScript: scale 1 quick, 16 full"
    [zstd]="zstd compressing and decompressing generated text at levels 3 and 12: 3 MiB quick, 48 MiB full"
    [bzip2]="bzip2 compressing and decompressing generated text, 900 kB blocks: 1 MiB quick, 20 MiB full"
    [pcre2]="PCRE2 (interpreter, no JIT) matching six patterns over generated log text: 512 KiB quick, 12 MiB full"
    [simdjson]="simdjson (C++17, portable kernel) parsing and walking a 2.4 MB JSON document: 8 rounds quick, 160 full"
)
declare -A TAGS=(
    [sqlite]='"database"' [lua]='"interpreter"' [quickjs]='"interpreter"'
    [zstd]='"compression"' [bzip2]='"compression"' [pcre2]='"regex", "string"'
    [simdjson]='"parser", "string"'
)

FORCE=0
EXPECTED=0
PRINT_DIR=0
for arg in "$@"; do
    case "$arg" in
        --force) FORCE=1 ;;
        --expected) EXPECTED=1 ;;
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
if ((PRINT_DIR)); then
    echo "$SUITE"
    exit 0
fi
read -r -a APPS_WANTED <<<"${APPS:-${ALL_APPS[*]}}"
for app in "${APPS_WANTED[@]}"; do
    [[ -n "${PACKAGE[$app]:-}" ]] || {
        echo "build.sh: unknown app '$app' (apps: ${ALL_APPS[*]})" >&2
        exit 2
    }
done

log() { echo "apps: $*" >&2; }
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

# ---- toolchain --------------------------------------------------------------------------

ensure_toolchain() {
    local missing=() t
    for t in clang-19 clang++-19 wasm-ld-19; do
        command -v "$t" >/dev/null 2>&1 || missing+=("$t")
    done
    [[ -f /usr/include/wasm32-wasi/stdio.h ]] || missing+=("wasi-libc headers")
    # libc++ only for the C++ program.
    if [[ " ${APPS_WANTED[*]} " == *" simdjson "* ]]; then
        [[ -d /usr/include/wasm32-wasi/c++/v1 ]] || missing+=("libc++ for wasm32-wasi")
        [[ -d /usr/lib/llvm-19/include/c++/v1 ]] || missing+=("libc++ for the native build")
    fi
    compgen -G '/usr/lib/llvm-19/lib/clang/19/lib/wasi*/libclang_rt.builtins-wasm32.a' \
        >/dev/null || missing+=("libclang_rt.builtins-wasm32.a")
    install_or_name APT_PACKAGES "${missing[@]}"
}

# ---- sources ----------------------------------------------------------------------------

# fetch_npm NAME VERSION: prints the package's unpacked folder under the cache.
fetch_npm() {
    local name=$1 version=$2 dir="$ROOT/sources/npm-$1-$2"
    if [[ ! -f "$dir/package/package.json" ]]; then
        command -v npm >/dev/null 2>&1 || {
            echo "npm is needed to fetch the package $name@$version" >&2
            return 1
        }
        local tmp
        tmp=$(mktemp -d)
        if ! (cd "$tmp" && npm pack --silent "$name@$version" >"$tmp/pack.log" 2>&1); then
            echo "npm could not fetch the package $name@$version: $(grep -v '^\s*$' "$tmp/pack.log" | tail -n 1)" >&2
            rm -rf "$tmp"
            return 1
        fi
        rm -rf "$dir"
        mkdir -p "$dir"
        tar -xzf "$tmp"/*.tgz -C "$dir"
        rm -rf "$tmp"
    fi
    echo "$dir"
}

# fetch APP: prints the app's source root.
fetch() {
    local kind name version
    read -r kind name version <<<"${PACKAGE[$1]}"
    case "$kind" in
        crate) fetch_crate "$name" "$version" "$ROOT/sources" ;;
        npm) fetch_npm "$name" "$version" ;;
    esac
}

# ---- what each app compiles -------------------------------------------------------------

# Sets, for app $1 with sources at $2: SOURCES (library files), CFLAGS_BOTH (both
# targets), CFLAGS_WASM, CFLAGS_NATIVE, LIBS_WASM, LIBS_NATIVE and CXX (1 for a C++ driver).
configure() {
    local app=$1 src=$2 d
    SOURCES=()
    CFLAGS_BOTH=(-O2 -w "-I$HERE/src" "-I$REPO/suites/compute/src")
    # Reference types (on by default since LLVM 19) change call_indirect's encoding in a
    # way wasm3 cannot read; nothing here needs them.
    CFLAGS_WASM=(-mno-reference-types)
    read -r -a extra <<<"${APPS_WASM_CFLAGS:-}"
    CFLAGS_WASM+=("${extra[@]}")
    LIBS_WASM=()
    LIBS_NATIVE=(-lm)
    CFLAGS_NATIVE=()
    CXX=0
    case "$app" in
        sqlite)
            d="$src/sqlite3"
            SOURCES=("$d/sqlite3.c" "$d/wasm32-wasi-vfs.c")
            # One VFS on both sides: the crate's small POSIX one (the database is in memory).
            CFLAGS_BOTH+=("-I$d" -DSQLITE_OS_OTHER=1 -DSQLITE_THREADSAFE=0 -DSQLITE_TEMP_STORE=3
                -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0 -DLONGDOUBLE_TYPE=double)
            ;;
        lua)
            d=$(compgen -G "$src/lua-5.4.*" | sort -V | tail -n 1)
            mapfile -t SOURCES < <(ls "$d"/*.c | grep -v -e '/lua\.c$' -e '/luac\.c$')
            CFLAGS_BOTH+=("-I$d" -include "$HERE/src/lua_nosjlj.h")
            CFLAGS_WASM+=(-isystem "$HERE/src/wasi" -D_WASI_EMULATED_SIGNAL
                -D_WASI_EMULATED_PROCESS_CLOCKS)
            LIBS_WASM+=(-lwasi-emulated-signal -lwasi-emulated-process-clocks)
            ;;
        quickjs)
            d="$src/quickjs"
            SOURCES=("$d/quickjs.c" "$d/libregexp.c" "$d/libunicode.c" "$d/dtoa.c")
            CFLAGS_BOTH+=("-I$d" -D_GNU_SOURCE)
            # As rquickjs-sys builds it for WASI.
            CFLAGS_WASM+=(-DEMSCRIPTEN=1 -DFE_DOWNWARD=0 -DFE_UPWARD=0)
            ;;
        zstd)
            d="$src/zstd/lib"
            mapfile -t SOURCES < <(ls "$d"/common/*.c "$d"/compress/*.c "$d"/decompress/*.c)
            CFLAGS_BOTH+=("-I$d" "-I$d/common" -DZSTD_DISABLE_ASM)
            ;;
        bzip2)
            d="$src/bzip2-1.0.8"
            for f in blocksort huffman crctable randtable compress decompress bzlib; do
                SOURCES+=("$d/$f.c")
            done
            CFLAGS_BOTH+=("-I$d")
            ;;
        pcre2)
            d="$src/upstream"
            mapfile -t SOURCES < <(ls "$d"/src/*.c | grep -v -e jit_match -e jit_misc -e ucptables)
            CFLAGS_BOTH+=("-I$d/src" "-I$d/include" "-I$d/deps" -DPCRE2_CODE_UNIT_WIDTH=8
                -DHAVE_STDLIB_H=1 -DHAVE_MEMMOVE=1 -DHAVE_CONFIG_H=1 -DPCRE2_STATIC=1
                -DSTDC_HEADERS=1 -DSUPPORT_PCRE2_8=1 -DSUPPORT_UNICODE=1)
            ;;
        simdjson)
            d="$src/package/simdjson/src"
            SOURCES=("$d/simdjson.cpp")
            CXX=1
            # The portable kernel on both sides: the same code natively as in wasm.
            CFLAGS_BOTH+=("-I$d" -std=c++17 -fno-exceptions -DSIMDJSON_EXCEPTIONS=0
                -DSIMDJSON_IMPLEMENTATION_HASWELL=0 -DSIMDJSON_IMPLEMENTATION_WESTMERE=0
                -DSIMDJSON_IMPLEMENTATION_ARM64=0 -DSIMDJSON_IMPLEMENTATION_PPC64=0)
            CFLAGS_NATIVE=(-stdlib=libc++)
            ;;
    esac
}

# The driver of an app: src/<app>.c or src/<app>.cpp.
driver() {
    if [[ -f "$HERE/src/$1.cpp" ]]; then echo "$HERE/src/$1.cpp"; else echo "$HERE/src/$1.c"; fi
}

# scripts_header EXT OUT: every src/scripts/*.EXT as a C array of {name, source}.
scripts_header() {
    local ext=$1 out=$2 f
    {
        echo "/* Generated by suites/apps/build.sh from src/scripts/*.$ext. */"
        echo 'static const struct { const char *name; const char *source; } SCRIPTS[] = {'
        for f in "$HERE"/src/scripts/*."$ext"; do
            printf '{"%s",\n' "$(basename "$f" ".$ext")"
            sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/\\n"/' "$f"
            echo '},'
        done
        echo '};'
    } >"$out"
}

# inputs_hash APP SRC: what one app's builds are made from.
inputs_hash() {
    local app=$1
    {
        echo "${PACKAGE[$app]} ${APPS_WASM_CFLAGS:-}"
        cat "$HERE/build.sh" "$(driver "$app")" "$HERE"/src/*.h "$HERE"/src/wasi/*.h \
            "$REPO/suites/compute/src/common.h"
        case "$app" in
            lua) cat "$HERE"/src/scripts/*.lua ;;
            quickjs) cat "$HERE"/src/scripts/*.js ;;
        esac
        clang-19 --version | head -n 1
        dpkg-query -W -f '${Version}\n' wasi-libc 2>/dev/null || true
    } | sha256sum | cut -c1-16
}

# compile TARGET OUTFILE LOGFILE: compiles the library sources in parallel, then links them
# with the driver. TARGET wasm|native. Returns non-zero with the log's tail on stderr.
compile() {
    local target=$1 out=$2 logf=$3 objdir="$WORK/obj-$1" cc=clang-19
    ((CXX)) && cc=clang++-19
    local flags=("${CFLAGS_BOTH[@]}")
    if [[ "$target" == wasm ]]; then
        flags=(--target=wasm32-wasi "${flags[@]}" "${CFLAGS_WASM[@]}")
    else
        flags+=("${CFLAGS_NATIVE[@]}")
    fi
    mkdir -p "$objdir"
    # One compiler command per source, run JOBS at a time.
    {
        echo '#!/usr/bin/env bash'
        printf 'exec'
        printf ' %q' "$cc" "${flags[@]}"
        echo ' -c "$1" -o "$2"'
    } >"$objdir/cc.sh"
    chmod +x "$objdir/cc.sh"
    local objs=() i
    for i in "${!SOURCES[@]}"; do objs+=("$objdir/$i.o"); done
    for i in "${!SOURCES[@]}"; do
        printf '%s\0%s\0' "${SOURCES[$i]}" "${objs[$i]}"
    done | xargs -0 -n 2 -P "$JOBS" "$objdir/cc.sh" >>"$logf" 2>&1 || {
        echo "compiling for $target failed: $(grep -m1 -E 'error' "$logf" || tail -n 1 "$logf")" >&2
        return 1
    }
    # Both builds ship stripped, so that their sizes compare; beside each, what names its
    # functions for profiles (`run --profile`): the module's names file, from a twin
    # linked with --strip-debug (the same code), and the native build's symbols split off
    # into APP.debug (objcopy, the build id kept).
    local link=("$cc" "${flags[@]}" -I"$WORK" "$(driver "$APP")" "${objs[@]}")
    if [[ "$target" == wasm ]]; then
        # The twin is named as the module is (its name section names the module by its
        # file), in this target's own folder: the native build runs beside it.
        local twin
        twin="$objdir/twin/$(basename "$out")"
        mkdir -p "$objdir/twin"
        "${link[@]}" -o "$out" -Wl,--strip-all "${LIBS_WASM[@]}" >>"$logf" 2>&1 &&
            "${link[@]}" -o "$twin" -Wl,--strip-debug "${LIBS_WASM[@]}" >>"$logf" 2>&1 &&
            names_file "$twin" "$out" "${out%.wasm}.names" >>"$logf" 2>&1
    else
        "${link[@]}" -o "$out" -Wl,--build-id=sha1 "${LIBS_NATIVE[@]}" >>"$logf" 2>&1 &&
            objcopy --only-keep-debug "$out" "$out.debug" >>"$logf" 2>&1 &&
            objcopy --strip-all "$out" >>"$logf" 2>&1
    fi || {
        echo "linking for $target failed: $(grep -m1 -E 'error' "$logf" || tail -n 1 "$logf")" >&2
        return 1
    }
}

# ---- one app ------------------------------------------------------------------------------

# build_app APP: builds into $ROOT/build/<app>-<hash>/ unless already there; sets
# RESULT_DIR, WASM_ERROR and NATIVE_ERROR (empty when that build exists).
build_app() {
    APP=$1
    WASM_ERROR=""
    NATIVE_ERROR=""
    local src err
    if ! src=$(fetch "$APP" 2>"$ROOT/fetch-$APP.err"); then
        err="source: $(tail -n 1 "$ROOT/fetch-$APP.err")"
        WASM_ERROR=$err
        NATIVE_ERROR=$err
        RESULT_DIR=""
        return
    fi
    configure "$APP" "$src"
    RESULT_DIR="$ROOT/build/$APP-$(inputs_hash "$APP")"
    if ((!FORCE)) && [[ -f "$RESULT_DIR/$APP.wasm" && -f "$RESULT_DIR/$APP.names" && -f "$RESULT_DIR/$APP" && -f "$RESULT_DIR/$APP.debug" ]]; then
        return
    fi
    WORK="$RESULT_DIR.tmp"
    rm -rf "$WORK"
    mkdir -p "$WORK"
    case "$APP" in
        lua) scripts_header lua "$WORK/scripts_lua.h" ;;
        quickjs) scripts_header js "$WORK/scripts_js.h" ;;
    esac
    # Both targets at once: an app of one big file (SQLite) keeps both cores busy.
    compile wasm "$WORK/$APP.wasm" "$WORK/build-wasm.log" 2>"$WORK/wasm.err" &
    local wasm_pid=$!
    compile native "$WORK/$APP" "$WORK/build-native.log" 2>"$WORK/native.err" ||
        NATIVE_ERROR="native build: $(tail -n 1 "$WORK/native.err")"
    wait "$wasm_pid" || WASM_ERROR="wasm32-wasi build: $(tail -n 1 "$WORK/wasm.err")"
    rm -rf "$WORK"/obj-*
    rm -rf "$RESULT_DIR"
    mv "$WORK" "$RESULT_DIR"
}

# ---- the suite ----------------------------------------------------------------------------

# toml_string S: S as a TOML basic string.
toml_string() {
    local s=${1//\\/\\\\}
    s=${s//\"/\\\"}
    printf '"%s"' "$s"
}

ensure_toolchain
mkdir -p "$ROOT/build"
rm -rf "$SUITE.tmp"
mkdir -p "$SUITE.tmp/wasm" "$SUITE.tmp/native" "$SUITE.tmp/expected"
cp "$HERE"/expected/*.txt "$SUITE.tmp/expected/" 2>/dev/null || true
REPORT=()
FAILED=0
declare -A WASM_ERRORS=()
{
    echo "# Generated by suites/apps/build.sh; rebuilt with it (wasmeter suite build apps)."
    echo "[suite]"
    echo 'name = "apps"'
    echo 'description = "real programs from their upstream sources: a database, two interpreters, two compressors, a regex engine and a C++ JSON parser"'
    echo "timeout_secs = 300"
} >"$SUITE.tmp/suite.toml"
for app in "${APPS_WANTED[@]}"; do
    t0=$SECONDS
    build_app "$app"
    secs=$((SECONDS - t0))
    if [[ -n "$RESULT_DIR" ]]; then
        [[ -z "$WASM_ERROR" ]] && cp "$RESULT_DIR/$app.wasm" "$RESULT_DIR/$app.names" "$SUITE.tmp/wasm/"
        [[ -z "$NATIVE_ERROR" ]] && cp "$RESULT_DIR/$app" "$RESULT_DIR/$app.debug" "$SUITE.tmp/native/"
    fi
    {
        echo
        echo "[[test]]"
        echo "name = \"$app\""
        echo "description = $(toml_string "${DESCRIPTION[$app]} (${PACKAGE[$app]})")"
        echo "tags = [${TAGS[$app]}]"
        echo "wasm = \"wasm/$app.wasm\""
        echo "native = \"native/$app\""
        echo "sized = true"
        [[ -n "$WASM_ERROR" ]] && echo "wasm_build_error = $(toml_string "$WASM_ERROR")"
        [[ -n "$NATIVE_ERROR" ]] && echo "native_build_error = $(toml_string "$NATIVE_ERROR")"
    } >>"$SUITE.tmp/suite.toml"
    WASM_ERRORS[$app]=$WASM_ERROR
    if [[ -z "$WASM_ERROR$NATIVE_ERROR" ]]; then
        line="$app: ok in $secs s (wasm $(stat -c %s "$SUITE.tmp/wasm/$app.wasm") bytes, native $(stat -c %s "$SUITE.tmp/native/$app") bytes)"
    else
        FAILED=1
        line="$app: FAILED in $secs s: ${WASM_ERROR:-wasm ok}; ${NATIVE_ERROR:-native ok}${RESULT_DIR:+ (logs: $RESULT_DIR/build-*.log)}"
    fi
    log "$line"
    REPORT+=("$line")
done
printf '%s\n' "${REPORT[@]}" >"$SUITE.tmp/build-report.txt"
rm -rf "$SUITE"
mv "$SUITE.tmp" "$SUITE"
mkdir -p "$CACHE_ROOT/suites"
ln -sfn "$SUITE" "$CACHE_ROOT/suites/apps"

# apps-lifecycle: the same modules through the lifecycle suite's compile, load and
# instantiate phases (a suite's files stay inside its folder, so it holds hard links).
LIFECYCLE="$ROOT/lifecycle"
rm -rf "$LIFECYCLE.tmp"
mkdir -p "$LIFECYCLE.tmp/wasm"
{
    echo "# Generated by suites/apps/build.sh; rebuilt with it (wasmeter suite build apps)."
    echo "[suite]"
    echo 'name = "apps-lifecycle"'
    echo 'kind = "lifecycle"'
    echo 'description = "the apps suite'"'"'s modules through an instance'"'"'s life: compile (MB/s), load of the precompiled module, instantiate with the imports as stubs, memory"'
    echo "timeout_secs = 600"
} >"$LIFECYCLE.tmp/suite.toml"
for app in "${APPS_WANTED[@]}"; do
    [[ -f "$SUITE/wasm/$app.wasm" ]] &&
        { ln "$SUITE/wasm/$app.wasm" "$LIFECYCLE.tmp/wasm/" 2>/dev/null ||
            cp "$SUITE/wasm/$app.wasm" "$LIFECYCLE.tmp/wasm/"; }
    {
        echo
        echo "[[test]]"
        echo "name = \"$app\""
        echo "description = $(toml_string "${DESCRIPTION[$app]} (${PACKAGE[$app]}): its module's life cycle")"
        echo "tags = [\"lifecycle\", ${TAGS[$app]}]"
        echo "wasm = \"wasm/$app.wasm\""
        [[ -n "${WASM_ERRORS[$app]}" ]] && echo "wasm_build_error = $(toml_string "${WASM_ERRORS[$app]}")"
    } >>"$LIFECYCLE.tmp/suite.toml"
done
rm -rf "$LIFECYCLE"
mv "$LIFECYCLE.tmp" "$LIFECYCLE"
ln -sfn "$LIFECYCLE" "$CACHE_ROOT/suites/apps-lifecycle"

if ((EXPECTED)); then
    mkdir -p "$HERE/expected"
    for app in "${APPS_WANTED[@]}"; do
        [[ -x "$SUITE/native/$app" ]] || continue
        for size in quick full; do
            "$SUITE/native/$app" "$size" | grep -v '^wasmeter:' >"$HERE/expected/$app.$size.txt"
        done
        log "$app: expected answers written"
    done
    cp "$HERE"/expected/*.txt "$SUITE/expected/"
fi
if ((FAILED)); then
    log "$(grep -c FAILED "$SUITE/build-report.txt") of ${#APPS_WANTED[@]} programs did not build; the suite holds them all, and their cells fail with the reason"
fi
echo "$SUITE"
exit "$FAILED"
