#!/usr/bin/env bash
# The synthetic families of medical displays (issue 41's "each synthetic medical family"): renders COUNT scenes
# of each family from a seed no training set uses (`vitalsnap samples training-set --family`), then reads them
# with `vitalsnap eval`; one line per family (correct / wrong / no reading), then the total. A scene labelled
# `?` (a value hidden by glare or cut by the frame, an error screen) counts as correct when it is refused.
#
#   Scripts/eval-families.sh                          # 200 scenes per family, seed 900001, the default reader
#   COUNT=500 SEED=900002 Scripts/eval-families.sh    # more scenes, another validation seed
#   Scripts/eval-families.sh --reader rules           # any options go to `vitalsnap eval`
#   Scripts/eval-families.sh --models Training/work/models-quick
#
# The scenes go to $FAMILIES (default: a temporary folder, removed at the end). Needs a release build
# (`swift build -c release --product vitalsnap`). Training seeds are small (train.sh: SEED plus at most 1000),
# so the default validation seed is never trained on.
set -euo pipefail
cd "$(dirname "$0")/.."
vitalsnap=.build/release/vitalsnap
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
count=${COUNT:-200}
seed=${SEED:-900001}
if [ -n "${FAMILIES:-}" ]; then
    work=$FAMILIES
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

printf '%-14s %6s %8s %6s %11s %10s\n' family scenes correct wrong "no reading" "labelled ?"
total=0; right=0; wrong=0; none=0
for family in bp-lcd bp-color glucose thermometer scale oximeter; do
    "$vitalsnap" samples training-set --family "$family" --count "$count" --seed "$seed" --no-lines --force \
        "$work/$family" >/dev/null 2>&1
    unreadable=$(awk -F'\t' 'NR > 1 && $2 == "?"' "$work/$family/labels.tsv" | wc -l)
    summary=$("$vitalsnap" eval "$work/$family" "$@" --json) || [ $? -eq 1 ]
    read -r n c w r < <(python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print(t["total"], t["correct"], t["wrong"], t["noReading"] + t["errors"])' <<<"$summary")
    printf '%-14s %6d %8d %6d %11d %10d\n' "$family" "$n" "$c" "$w" "$r" "$unreadable"
    total=$((total + n)); right=$((right + c)); wrong=$((wrong + w)); none=$((none + r))
done
printf '%-14s %6d %8d %6d %11d\n' total "$total" "$right" "$wrong" "$none"
