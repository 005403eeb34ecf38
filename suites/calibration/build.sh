#!/usr/bin/env bash
# Rebuilds this suite's wasm (and with --check / --expected, see ../build-c-suite.sh).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../build-c-suite.sh" "$(dirname "${BASH_SOURCE[0]}")" "$@"
