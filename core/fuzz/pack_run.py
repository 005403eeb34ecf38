#!/usr/bin/env python3
"""Packs a saved run directory into one saved_run fuzz input (see fuzz_targets/saved_run.rs).

usage: pack_run.py RUN_DIR OUT_FILE
"""
import pathlib
import sys

SEPARATOR = b"\n\x00wasmeter-fuzz-file\x00\n"


def main() -> None:
    run, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    flags = 0
    parts = [(run / "meta.json").read_bytes()]
    cells = run / "cells.jsonl"
    if cells.exists():
        flags |= 4
    parts.append(cells.read_bytes() if cells.exists() else b"")
    for stem, parquet_bit, present_bit in (("measurements", 1, 8), ("samples", 2, 16)):
        pq, jl = run / f"{stem}.parquet", run / f"{stem}.jsonl"
        if pq.exists():
            flags |= parquet_bit | present_bit
            parts.append(pq.read_bytes())
        elif jl.exists():
            flags |= present_bit
            parts.append(jl.read_bytes())
        else:
            parts.append(b"")
    out.write_bytes(bytes([flags]) + SEPARATOR.join(parts))


if __name__ == "__main__":
    main()
