#!/usr/bin/env bash
# suites/lib.sh — what the suites' build scripts share (sourced by suites/*/build.sh):
# installing missing Debian packages or naming them, fetching a crate's sources, and the
# names file that lets profiles name a stripped module's functions.
# Uses the caller's `log` for progress.

# install_or_name PACKAGES_ARRAY MISSING...: nothing when nothing is missing; else, as root
# with apt-get and without WASMETER_NO_INSTALL, installs the packages; otherwise names them
# and exits 1 (`build.sh: missing …; install the Debian packages: apt-get install …`).
install_or_name() {
    local -n packages=$1
    shift
    (($# > 0)) || return 0
    if [[ "$(id -u)" == 0 && -z "${WASMETER_NO_INSTALL:-}" ]] && command -v apt-get >/dev/null 2>&1; then
        log "installing ${packages[*]} (missing: $*)"
        apt-get update -qq >&2 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >&2
    else
        echo "build.sh: missing $*; install the Debian packages: apt-get install ${packages[*]}" >&2
        exit 1
    fi
}

# fetch_crate NAME VERSION FALLBACK_DIR: prints the folder of the crate's sources, fetching
# it with cargo in a throwaway project when cargo's registry does not hold it unpacked
# (cargo keeps the .crate even when it did not unpack it: then it is unpacked under
# FALLBACK_DIR). On failure prints one line to stderr and returns 1.
fetch_crate() {
    local name=$1 version=$2 fallback=$3 home="${CARGO_HOME:-$HOME/.cargo}" found
    found=$(compgen -G "$home/registry/src/*/$name-$version" | head -n 1 || true)
    if [[ -z "$found" && -d "$fallback/$name-$version" ]]; then
        found="$fallback/$name-$version"
    fi
    if [[ -z "$found" ]]; then
        command -v cargo >/dev/null 2>&1 || {
            echo "cargo is needed to fetch the crate $name $version" >&2
            return 1
        }
        log "fetching the crate $name $version with cargo"
        local tmp
        tmp=$(mktemp -d)
        if ! (cd "$tmp" && cargo new --quiet --vcs none fetch >/dev/null 2>&1 &&
            cd fetch && printf '%s = "=%s"\n' "$name" "$version" >>Cargo.toml &&
            cargo fetch >"$tmp/fetch.log" 2>&1); then
            echo "cargo could not fetch the crate $name $version: $(grep -v '^\s*$' "$tmp/fetch.log" | tail -n 1)" >&2
            rm -rf "$tmp"
            return 1
        fi
        rm -rf "$tmp"
        found=$(compgen -G "$home/registry/src/*/$name-$version" | head -n 1 || true)
        if [[ -z "$found" ]]; then
            local crate
            crate=$(compgen -G "$home/registry/cache/*/$name-$version.crate" | head -n 1 || true)
            [[ -n "$crate" ]] || {
                echo "cargo fetch did not bring the crate $name $version" >&2
                return 1
            }
            mkdir -p "$fallback"
            tar -xzf "$crate" -C "$fallback"
            found="$fallback/$name-$version"
        fi
    fi
    echo "$found"
}

# names_file TWIN STRIPPED OUT: the name section of TWIN (built with --strip-debug) for the
# code of STRIPPED (built with --strip-all), as wasmeter's profiles read it
# (core/profile/src/profile/names.rs): a custom section `wasmeter.code-sha256` holding the SHA-256
# of the code section, then TWIN's `name` section. Fails when the two code sections differ.
names_file() {
    python3 - "$@" <<'PY'
import hashlib, sys
twin, stripped, out = sys.argv[1:4]

def leb(b, i):
    v = shift = 0
    while True:
        x = b[i]; i += 1
        v |= (x & 0x7f) << shift; shift += 7
        if x < 0x80:
            return v, i

def sections(path):
    b = open(path, "rb").read()
    assert b[:4] == b"\0asm", f"{path}: not a wasm module"
    i, found = 8, {}
    while i < len(b):
        start, sid = i, b[i]
        size, j = leb(b, i + 1)
        body = b[j:j + size]
        if sid == 10:
            found["code"] = body
        elif sid == 0:
            n, k = leb(body, 0)
            if body[k:k + n] == b"name":
                found["name"] = b[start:j + size]
        i = j + size
    return found

def uleb(n):
    out = bytearray()
    while True:
        x = n & 0x7f; n >>= 7
        out.append(x | (0x80 if n else 0))
        if not n:
            return bytes(out)

t, s = sections(twin), sections(stripped)
if t.get("code") != s.get("code"):
    sys.exit(f"build.sh: {stripped}: its --strip-debug twin has other code: no names file")
if "name" not in t:
    sys.exit(f"build.sh: {twin}: no name section")
tag = b"wasmeter.code-sha256"
body = uleb(len(tag)) + tag + hashlib.sha256(s["code"]).digest()
open(out, "wb").write(b"\0" + uleb(len(body)) + body + t["name"])
PY
}
