#!/usr/bin/env python3
"""Which allocation sites grow with the number of frames or photos read (Benchmarks/trace-mallocs.sh).

    compare_sites.py SHORT LONG EXTRA BINARY ROOT

SHORT and LONG are malloc_sites.c's outputs of the same run over fewer and more inputs (EXTRA more in LONG).
Sites are matched by their frames (module and offset; the absolute addresses change from run to run), and the
sites whose count grew are listed with their growth per extra input, the frames of BINARY symbolized
(addr2line, swift demangle). Only stacks that pass through a frame whose name contains ROOT are counted in the
per-input total, so a reader's own allocations are told from the command's printing and decoding.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from functools import lru_cache

ADDRESS = re.compile(r" \[0x[0-9a-f]+\]$")
FRAME = re.compile(r"^(?P<module>[^(]*)\((?P<symbol>[^+)]*)\+0x(?P<offset>[0-9a-f]+)\)")
SHOWN_FRAMES = 7
SHOWN_SITES = 25


def read_sites(path: str) -> Counter:
    sites, frames, count = Counter(), [], None
    for line in open(path):
        if line.startswith("SITE "):
            if count is not None:
                sites[tuple(frames)] += count
            count, frames = int(line.split()[1]), []
        else:
            frames.append(ADDRESS.sub("", line.strip()))
    if count is not None:
        sites[tuple(frames)] += count
    return sites


def main() -> None:
    short, long, extra, binary, root = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]

    @lru_cache(maxsize=None)
    def name(frame: str) -> str:
        m = FRAME.match(frame)
        if not m:
            return frame
        symbol = m["symbol"]
        if not symbol and m["module"].endswith(binary.rsplit("/", 1)[-1]):
            out = subprocess.run(["addr2line", "-f", "-e", binary, "0x" + m["offset"]], capture_output=True, text=True)
            symbol = out.stdout.split("\n")[0]
        if not symbol or symbol == "??":
            return frame
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact", symbol], capture_output=True, text=True)
        return (out.stdout.strip() or symbol) + "  [" + m["module"].rsplit("/", 1)[-1] + "]"

    a, b = read_sites(short), read_sites(long)
    grown = sorted(((b[k] - a.get(k, 0), k) for k in b if b[k] > a.get(k, 0)), reverse=True)
    under_root = [(n, k) for n, k in grown if any(root in name(f) for f in k)]
    print(f"allocations per extra input under {root}: {sum(n for n, _ in under_root) / extra:.1f}"
          f" (all sites: {sum(n for n, _ in grown) / extra:.1f})")
    for n, frames in under_root[:SHOWN_SITES]:
        print(f"\n{n / extra:6.2f} per input")
        shown = [name(f) for f in frames if "libswiftCore" not in f or "alloc" not in f][:SHOWN_FRAMES]
        for f in shown:
            print("        " + f[:160])


if __name__ == "__main__":
    main()
