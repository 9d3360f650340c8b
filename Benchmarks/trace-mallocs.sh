#!/usr/bin/env bash
# Where the reader allocates per frame or per photo: a replay (or a batch) is run twice under an LD_PRELOAD
# library that counts allocations by call stack (MallocSites/malloc_sites.c), once over N inputs and once over
# 2N, and the sites whose counts grew are listed per extra input. The benchmarks (`Live frame model 1280x720`,
# `DisplayReader model ...`) count the mallocs; this tells where they come from.
#
#   Benchmarks/trace-mallocs.sh live              # the mmol sample clip, frame by frame (vitalsnap read)
#   Benchmarks/trace-mallocs.sh photo             # one sample still read again and again (vitalsnap batch)
#   Benchmarks/trace-mallocs.sh live --reader rules
#
# Needs gcc, addr2line (binutils), python3 and a release build (swift build -c release --product vitalsnap).
# Further options go to vitalsnap. Counts are exact; nothing is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-live}
shift || true
vitalsnap=.build/release/vitalsnap
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
command -v swift >/dev/null || PATH="/opt/swift/usr/bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -shared -fPIC -o "$work/malloc_sites.so" Benchmarks/MallocSites/malloc_sites.c -ldl
N=6

run() {  # count, output
    local n=$1 out=$2 inputs="$work/in$1"
    shift 2
    mkdir -p "$inputs"
    case "$mode" in
    live)
        frames=(Samples/clips/alternate-glucose-g2-mmol/frame-*.png)
        for ((i = 0; i < n; i++)); do cp "${frames[i % ${#frames[@]}]}" "$inputs/frame-$(printf %04d "$i").png"; done
        MALLOC_SITES_OUT=$out LD_PRELOAD="$work/malloc_sites.so" "$vitalsnap" read -p 9 --unit mmol --input "$inputs" \
            --fps 0 --json --yes --data-dir "$work/data$n" "$@" >/dev/null 2>&1 || true ;;
    photo)
        for ((i = 0; i < n; i++)); do cp Samples/stills/glucose-g1/glucose-g1-01.jpg "$inputs/photo-$i.jpg"; done
        MALLOC_SITES_OUT=$out LD_PRELOAD="$work/malloc_sites.so" "$vitalsnap" batch "$inputs" -p 9 --jobs 1 "$@" \
            >/dev/null 2>&1 || true ;;
    *) echo "$0: live or photo, not $mode" >&2; exit 64 ;;
    esac
}
run $N "$work/short.txt" "$@"
run $((2 * N)) "$work/long.txt" "$@"
root=$([ "$mode" = live ] && echo "LiveReader.process" || echo "DisplayReader.read")
python3 Benchmarks/MallocSites/compare_sites.py "$work/short.txt" "$work/long.txt" $N "$(realpath "$vitalsnap")" "$root"
