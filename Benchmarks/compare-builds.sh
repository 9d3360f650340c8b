#!/usr/bin/env bash
# Two builds of vitalsnap side by side, for a change that should not change speed (a refactoring): `batch` over
# one folder of photos with each build, alternating run by run, with ssocr's per-image loop in every round as the
# yardstick the README's speed target is stated against; then the medians, each build's images per second and
# its ratio to ssocr's. The machine is noisy: only runs made side by side in one invocation are compared.
#
#   Benchmarks/compare-builds.sh BEFORE AFTER FOLDER [PERIPHERAL] [RUNS]
#
# BEFORE and AFTER are vitalsnap binaries (e.g. a release build of the old commit in a git worktree, and
# .build/release/vitalsnap). FOLDER holds the photos (its labels.tsv lists them); PERIPHERAL defaults to 100, RUNS
# to 5. READER=rules|model passes --reader to both. Needs ssocr and GNU time: apt-get install -y ssocr time.
set -euo pipefail
BEFORE=${1:?usage: compare-builds.sh BEFORE AFTER FOLDER [PERIPHERAL] [RUNS]}
AFTER=${2:?usage: compare-builds.sh BEFORE AFTER FOLDER [PERIPHERAL] [RUNS]}
FOLDER=${3:?usage: compare-builds.sh BEFORE AFTER FOLDER [PERIPHERAL] [RUNS]}
PERIPHERAL=${4:-100}
RUNS=${5:-5}
READER_OPTION=()
[ -n "${READER:-}" ] && READER_OPTION=(--reader "$READER")
for tool in ssocr /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y ssocr time python3" >&2; exit 2; }
done
[ -f "$FOLDER/labels.tsv" ] || { echo "no labels.tsv in $FOLDER" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tail -n +2 "$FOLDER/labels.tsv" | cut -f1 | while read -r f; do echo "$FOLDER/$f"; done >"$WORK/files.txt"
N=$(wc -l <"$WORK/files.txt")
echo "folder: $FOLDER ($N images), peripheral $PERIPHERAL, reader ${READER:-default}, $RUNS rounds, $(nproc) cores"
xargs cat <"$WORK/files.txt" >/dev/null  # page cache warm for everyone
for ((r = 1; r <= RUNS; r++)); do
    # The order of the two builds alternates from round to round.
    if ((r % 2)); then order=(before after); else order=(after before); fi
    for which in "${order[@]}"; do
        binary=$BEFORE; [ "$which" = after ] && binary=$AFTER
        /usr/bin/time -f "%e" -a -o "$WORK/$which.times" "$binary" batch $(cat "$WORK/files.txt") -p "$PERIPHERAL" \
            "${READER_OPTION[@]}" --format tsv >"$WORK/$which.tsv"
    done
    /usr/bin/time -f "%e" -a -o "$WORK/ssocr.times" bash -c \
        'while read -r f; do ssocr -d -1 -T "$f" >/dev/null 2>&1 || true; done' <"$WORK/files.txt"
done
cmp -s <(cut -f1-3 "$WORK/before.tsv") <(cut -f1-3 "$WORK/after.tsv") && same="the same" || same="DIFFERENT"
python3 - "$WORK" "$N" "$same" <<'PY'
import statistics, sys
work, n, same = sys.argv[1], int(sys.argv[2]), sys.argv[3]
times = {k: [float(x) for x in open(f"{work}/{k}.times").read().split()] for k in ("before", "after", "ssocr")}
med = {k: statistics.median(v) for k, v in times.items()}
for k in ("before", "after", "ssocr"):
    print(f"{k:7s} runs {' '.join(f'{t:.2f}' for t in times[k])} s; median {med[k]:.2f} s, {n / med[k]:.1f} images/s"
          + ("" if k == "ssocr" else f", {med['ssocr'] / med[k]:.1f}x ssocr's images per second"))
print(f"after / before (median time): {med['after'] / med['before']:.3f}; readings (file, status, reading): {same}")
PY
