#!/usr/bin/env bash
# batch at scale: N inputs (default 100,000) made of the project's own sample frames repeated through symbolic
# links, read by one `vitalsnap batch --jobs 2` and through Spark (Scripts/spark-batch.py, which also checks
# that both give every input once with the same readings). Prints images per second of both and the plain
# run's peak memory.
#
#   Scripts/scale-batch.sh                  # 100,000 inputs
#   Scripts/scale-batch.sh 5000             # a smaller run
#   WORK=/big/disk Scripts/scale-batch.sh   # where the links go (default: a temporary folder, removed after)
#
# Needs a release build and the Spark virtualenv of Scripts/spark-batch.py (.venv-spark). The inputs are the
# 36 frames of Samples/clips (320x240, glucose meters, peripheral 101), so the figures are the batch machinery
# at scale rather than the reader on large photos (see docs/performance.md for those).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
python=${PYTHON:-.venv-spark/bin/python}
[ -x .build/release/vitalsnap ] || { echo "$0: swift build -c release --product vitalsnap first" >&2; exit 2; }
work=$(mktemp -d "${WORK:-${TMPDIR:-/tmp}}/vitalsnap-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
mapfile -t frames < <(find "$PWD/Samples/clips" -name '*.png' | sort)
echo "making $count links to ${#frames[@]} sample frames in $work" >&2
python3 - "$work" "$count" "${frames[@]}" <<'PY'
import os, sys
work, count, frames = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
with open(os.path.join(work, "paths.txt"), "w") as listing:
    for i in range(count):
        folder = os.path.join(work, f"{i // 1000:04d}")
        if i % 1000 == 0:
            os.makedirs(folder)
        link = os.path.join(folder, f"{i:06d}.png")
        os.symlink(frames[i % len(frames)], link)
        listing.write(link + "\n")
PY
"$python" Scripts/spark-batch.py "$work" -p 101 --paths-from "$work/paths.txt" --jobs 2 ${SPARK_OPTIONS:-}
