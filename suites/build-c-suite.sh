#!/usr/bin/env bash
# build-c-suite.sh - build a C suite (suite.toml + src/*.c): C sources -> wasm32-wasi guests.
# Each suite has a two-line build.sh that runs this with its own directory.
#
# Usage (from any directory):
#   suites/compute/build.sh             compile every [[test]] of suite.toml to its .wasm
#                                       and write wasm/build.lock
#   suites/compute/build.sh --check     rebuild into a temp dir and cmp with the committed
#                                       .wasm files and build.lock; exit 1 naming each stale file
#   suites/compute/build.sh --expected  compile every test natively (${CC:-cc}), run it with
#                                       `quick` and `full`, and write expected/<name>.<size>.txt
#
# The wasm command, run with cwd = this directory and relative paths only, so that the
# output is byte-identical wherever the repository is checked out:
#   clang-19 --target=wasm32-wasi <suite wasm_cflags> <test wasm_cflags> -Wl,--strip-all \
#       -o <test wasm> <test source>
# (<test wasm> defaults to wasm/<name>.wasm.) Beside it, <name>.names: the same build with
# -Wl,--strip-debug keeps its name section, which is written there with the SHA-256 of the
# code section it names (checked equal): profiles name the functions of the same code.
#
# The native command (what --expected uses; the harness's native runtime does the same):
#   ${CC:-cc} <suite native_cflags> <test native_cflags> -o <binary> <test source> <native_libs>
#
# wasm/build.lock has one line per test, in manifest order:  <name> <inputs_sha256>
# where inputs_sha256 is the SHA-256 (lowercase hex) of the concatenation of
#   1. the test's source file bytes,
#   2. each file of [suite].includes, in the listed order,
#   3. the wasm flags string: the suite's wasm_cflags then the test's, joined by single
#      spaces, with no trailing newline.
# That is, for matmul-simd:
#   (cat src/matmul.c src/common.h; printf '%s' "-O2 -msimd128") | sha256sum
# The Rust side recomputes exactly this to tell whether a committed .wasm is stale.
#
# Needs: python3 >= 3.11 (tomllib) to read suite.toml; for wasm builds the Debian packages
# clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 (installed automatically when run as
# root with apt-get available).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SUITE_DIR="$(cd "${1:?usage: build-c-suite.sh SUITE_DIR [--check|--expected]}" && pwd)"
shift
SUITE_NAME="$(basename "$SUITE_DIR")"
cd "$SUITE_DIR"

CLANG="${CLANG:-clang-19}"
APT_PACKAGES=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32)

die() {
    echo "build.sh: $*" >&2
    exit 1
}

usage() {
    sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# ---- manifest ----------------------------------------------------------------

command -v python3 >/dev/null 2>&1 || die "python3 (3.11 or newer, for tomllib) is required"

# Reads suite.toml, validates it, and prints bash assignments (shell-quoted).
read_manifest() {
    python3 - <<'PY'
import re, shlex, sys
try:
    import tomllib
except ImportError:
    sys.exit("build.sh: python3 >= 3.11 is required (tomllib)")

TAGS = {"overhead", "hashing", "cipher", "mac", "bignum", "memory-hard", "codec", "vector", "simd",
        "branchy", "alloc", "float", "string", "http", "fault"}

def fail(msg):
    sys.exit(f"build.sh: suite.toml: {msg}")

def rel_path(p, what):
    if not isinstance(p, str) or not p or p.startswith("/") or ".." in p.split("/"):
        fail(f"{what} must be a relative path inside the suite: {p!r}")
    return p

def flags(v, what):
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(f, str) and f and not re.search(r"\s", f) for f in v):
        fail(f"{what} must be a list of flags without whitespace")
    return v

with open("suite.toml", "rb") as f:
    m = tomllib.load(f)
suite = m.get("suite") or fail("missing [suite]")
tests = m.get("test") or fail("no [[test]] entries")
includes = [rel_path(p, "includes") for p in suite.get("includes", [])]
out = {
    "INCLUDES": includes,
    "SUITE_WASM_CFLAGS": flags(suite.get("wasm_cflags"), "[suite].wasm_cflags"),
    "SUITE_NATIVE_CFLAGS": flags(suite.get("native_cflags"), "[suite].native_cflags"),
    "NATIVE_LIBS": flags(suite.get("native_libs"), "[suite].native_libs"),
    "T_NAME": [], "T_SOURCE": [], "T_WASM": [], "T_WASM_CFLAGS": [], "T_NATIVE_CFLAGS": [],
}
seen = set()
for t in tests:
    name = t.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        fail(f"bad test name {name!r}")
    if name in seen:
        fail(f"duplicate test name {name!r}")
    seen.add(name)
    for key in ("source", "description", "tags"):
        if key not in t:
            fail(f"test {name!r} has no {key}")
    bad = [tag for tag in t["tags"] if tag not in TAGS]
    if bad:
        fail(f"test {name!r} has unknown tags {bad}")
    out["T_NAME"].append(name)
    out["T_SOURCE"].append(rel_path(t["source"], f"{name}.source"))
    out["T_WASM"].append(rel_path(t.get("wasm", f"wasm/{name}.wasm"), f"{name}.wasm"))
    out["T_WASM_CFLAGS"].append(" ".join(flags(t.get("wasm_cflags"), f"{name}.wasm_cflags")))
    out["T_NATIVE_CFLAGS"].append(" ".join(flags(t.get("native_cflags"), f"{name}.native_cflags")))
for key, values in out.items():
    print(f"{key}=(" + " ".join(shlex.quote(v) for v in values) + ")")
PY
}

manifest="$(read_manifest)" || exit 1
eval "$manifest"

for f in "${INCLUDES[@]}" "${T_SOURCE[@]}"; do
    [[ -f "$f" ]] || die "missing file $f (named in suite.toml)"
done

# ---- helpers -------------------------------------------------------------------

sha256_stdin() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum | cut -d' ' -f1
    else
        shasum -a 256 | cut -d' ' -f1
    fi
}

# wasm flags of test $1 (an index), suite's then test's, one per array element
wasm_flags() {
    local -a extra=()
    read -ra extra <<<"${T_WASM_CFLAGS[$1]}"
    WASM_FLAGS=("${SUITE_WASM_CFLAGS[@]}" "${extra[@]}")
}

native_flags() {
    local -a extra=()
    read -ra extra <<<"${T_NATIVE_CFLAGS[$1]}"
    NATIVE_FLAGS=("${SUITE_NATIVE_CFLAGS[@]}" "${extra[@]}")
}

inputs_sha256() {
    local i=$1
    wasm_flags "$i"
    { cat "${T_SOURCE[$i]}" "${INCLUDES[@]}"; printf '%s' "${WASM_FLAGS[*]}"; } | sha256_stdin
}

write_lock() {
    local lock=$1 i
    : >"$lock"
    for i in "${!T_NAME[@]}"; do
        printf '%s %s\n' "${T_NAME[$i]}" "$(inputs_sha256 "$i")" >>"$lock"
    done
}

ensure_toolchain() {
    local -a missing=()
    command -v "$CLANG" >/dev/null 2>&1 || missing+=(clang-19)
    if ! command -v wasm-ld-19 >/dev/null 2>&1 && [[ ! -x /usr/lib/llvm-19/bin/wasm-ld ]]; then
        missing+=(lld-19)
    fi
    [[ -d /usr/include/wasm32-wasi ]] || missing+=(wasi-libc)
    if command -v "$CLANG" >/dev/null 2>&1; then
        local rt
        rt="$("$CLANG" -print-resource-dir)/lib/wasi/libclang_rt.builtins-wasm32.a"
        [[ -f "$rt" ]] || missing+=(libclang-rt-19-dev-wasm32)
    fi
    ((${#missing[@]} == 0)) && return 0
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "build.sh: installing ${APT_PACKAGES[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}" >&2
        return 0
    fi
    die "missing ${missing[*]}; install the Debian packages: apt-get install ${APT_PACKAGES[*]}"
}

# Build every test's wasm under directory $1 (relative to the suite, or absolute), and
# beside each its names file (the same code's function names, for profiles).
build_all() {
    local dest=$1 i out twins twin
    # The twin is named as the module is: its name section names the module by its file.
    twins="$(mktemp -d)"
    for i in "${!T_NAME[@]}"; do
        wasm_flags "$i"
        if [[ "$dest" == . ]]; then out="${T_WASM[$i]}"; else out="$dest/${T_WASM[$i]}"; fi
        mkdir -p "$(dirname "$out")"
        "$CLANG" --target=wasm32-wasi "${WASM_FLAGS[@]}" -Wl,--strip-all -o "$out" "${T_SOURCE[$i]}"
        twin="$twins/$(basename "$out")"
        "$CLANG" --target=wasm32-wasi "${WASM_FLAGS[@]}" -Wl,--strip-debug -o "$twin" "${T_SOURCE[$i]}"
        names_file "$twin" "$out" "${out%.wasm}.names"
    done
    rm -rf "$twins"
}

# ---- modes ---------------------------------------------------------------------

mode=build
case "${1:-}" in
"") ;;
--check) mode=check ;;
--expected) mode=expected ;;
-h | --help) usage; exit 0 ;;
*) usage >&2; exit 2 ;;
esac

case "$mode" in
build)
    ensure_toolchain
    build_all .
    mkdir -p wasm
    write_lock wasm/build.lock
    echo "built ${#T_NAME[@]} tests; wrote wasm/build.lock"
    ;;

check)
    ensure_toolchain
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    build_all "$tmp"
    mkdir -p "$tmp/wasm"
    write_lock "$tmp/wasm/build.lock"
    stale=0
    for i in "${!T_NAME[@]}"; do
        w="${T_WASM[$i]}"
        if [[ ! -f "$w" ]]; then
            echo "stale: $w (missing)" >&2
            stale=1
        elif ! cmp -s "$w" "$tmp/$w"; then
            echo "stale: $w (differs from a rebuild of ${T_SOURCE[$i]})" >&2
            stale=1
        fi
        n="${w%.wasm}.names"
        if ! cmp -s "$n" "$tmp/$n"; then
            echo "stale: $n (missing, or differs from a rebuild of ${T_SOURCE[$i]})" >&2
            stale=1
        fi
    done
    if ! cmp -s wasm/build.lock "$tmp/wasm/build.lock"; then
        echo "stale: wasm/build.lock" >&2
        stale=1
    fi
    if ((stale)); then
        echo "build.sh --check: run suites/$SUITE_NAME/build.sh and commit the result" >&2
        exit 1
    fi
    echo "ok: ${#T_NAME[@]} wasm files and wasm/build.lock match their sources"
    ;;

expected)
    CC="${CC:-cc}"
    command -v "$CC" >/dev/null 2>&1 || die "no native C compiler ($CC)"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p expected
    for i in "${!T_NAME[@]}"; do
        name="${T_NAME[$i]}"
        native_flags "$i"
        "$CC" "${NATIVE_FLAGS[@]}" -o "$tmp/$name" "${T_SOURCE[$i]}" "${NATIVE_LIBS[@]}"
        for size in quick full; do
            "$tmp/$name" "$size" >"$tmp/$name.$size.out" ||
                die "$name $size exited with status $?"
            grep -q '^wasmeter:time_ns=[0-9][0-9]*$' "$tmp/$name.$size.out" ||
                die "$name $size printed no wasmeter:time_ns line"
            t="$(sed -n 's/^wasmeter:time_ns=//p' "$tmp/$name.$size.out")"
            sed '/^wasmeter:/d' "$tmp/$name.$size.out" >"expected/$name.$size.txt"
            printf '%-12s %-5s %6d ms\n' "$name" "$size" "$((t / 1000000))"
        done
    done
    echo "wrote expected/*.quick.txt and expected/*.full.txt for ${#T_NAME[@]} tests"
    ;;
esac
