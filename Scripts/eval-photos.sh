#!/usr/bin/env bash
# The accuracy table of docs/accuracy.md: every photos/ folder read by `vitalsnap eval` for its peripheral,
# one line per folder (correct / wrong / no reading of the images), then the total.
#
#   Scripts/eval-photos.sh                                  # held halves, the default reader
#   Scripts/eval-photos.sh --split train --reader model     # any further options go to `vitalsnap eval`
#   Scripts/eval-photos.sh --models Training/work/try-a     # a folder of retrained models
#   PHOTOS=/elsewhere/photos Scripts/eval-photos.sh         # the photos in another place
#
# With no --split, the held halves (Training/split.tsv). Needs a release build (`swift build -c release
# --product vitalsnap`) and the photos (../shared/data/photos, third-party, never in the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
photos=${PHOTOS:-../shared/data/photos}
vitalsnap=.build/release/vitalsnap
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
[ -d "$photos" ] || { echo "$0: no photos in $photos (set PHOTOS)" >&2; exit 2; }
options=("$@")
[[ " $* " == *" --split "* ]] || options+=(--split held)

printf '%-22s %6s %8s %6s %11s\n' folder images correct wrong "no reading"
total=0; right=0; wrong=0; none=0
for entry in glucose-morepen:9 bp-paramed:2 fuel-pump:100 electricity-meter:100 bp-fields-binarized:100; do
    folder=${entry%%:*}
    [ -f "$photos/$folder/labels.tsv" ] || { echo "$0: $photos/$folder has no labels.tsv" >&2; exit 2; }
    summary=$("$vitalsnap" eval "$photos/$folder" -p "${entry##*:}" "${options[@]}" --json) || [ $? -eq 1 ]
    read -r n c w r < <(python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print(t["total"], t["correct"], t["wrong"], t["noReading"] + t["errors"])' <<<"$summary")
    printf '%-22s %6d %8d %6d %11d\n' "$folder" "$n" "$c" "$w" "$r"
    total=$((total + n)); right=$((right + c)); wrong=$((wrong + w)); none=$((none + r))
done
printf '%-22s %6d %8d %6d %11d\n' total "$total" "$right" "$wrong" "$none"
