#!/usr/bin/env bash
# How the reader reads a labelled photo folder taken a little otherwise: each photo half the size, tilted 12
# degrees either way, darker, flatter, softer, small in a larger frame and upside down
# (Scripts/perturb-photos.py, Pillow), each perturbation read by `vitalsnap eval` as the folder itself is. A
# reading wrong on a perturbed copy of a photo read right as it is shows a rule that holds for the photos as they
# are and not for the displays: the generalizing check beside the folder's own figures.
#
#   Scripts/eval-perturbed.sh ../shared/data/photos/medical-products
#   Scripts/eval-perturbed.sh ../shared/data/photos/medical-products --models Training/work/models-quick
#
# Any options after the folder go to `vitalsnap eval`. Every photo of the folder is used (for a photos/ folder
# with a held half, point it at a folder of the held photos). Needs Pillow (Training/.venv, or PY=python3 with
# Pillow) and a release build. The copies go to a temporary folder, deleted at the end (PERTURBED=DIR keeps them
# there); nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    echo "usage: $0 PHOTOS_FOLDER [vitalsnap eval options]" >&2
    exit 64
fi
folder=${1%/}
shift
vitalsnap=.build/release/vitalsnap
PY=${PY:-Training/.venv/bin/python}
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
[ -f "$folder/labels.tsv" ] || { echo "$0: $folder has no labels.tsv" >&2; exit 2; }
"$PY" -c 'import PIL' 2>/dev/null || { echo "$0: $PY has no Pillow (make Training/.venv, or set PY)" >&2; exit 2; }

if [ -n "${PERTURBED:-}" ]; then
    work=$PERTURBED
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
"$PY" Scripts/perturb-photos.py "$folder" "$work" >/dev/null

printf '%-12s %6s %8s %6s %11s\n' perturbation images correct wrong "no reading"
for variant in as-is half tilt+12 tilt-12 dark flat soft far upside-down; do
    target="$work/$variant"
    [ "$variant" = as-is ] && target=$folder
    summary=$("$vitalsnap" eval "$target" "$@" --json) || [ $? -eq 1 ]
    read -r n c w r < <(python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print(t["total"], t["correct"], t["wrong"], t["noReading"] + t["errors"])' <<<"$summary")
    printf '%-12s %6d %8d %6d %11d\n' "$variant" "$n" "$c" "$w" "$r"
done
