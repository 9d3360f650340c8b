#!/usr/bin/env bash
# How the trained reader reads real photos turned by a quarter turn, a half turn and three quarters: the held
# half of a photos/ folder (Training/split.tsv) turned by ImageMagick into a temporary folder (EXIF applied
# first, re-encoded as JPEG quality 92, the upright copy too, so every turn is compared on the same
# re-encoding), then `vitalsnap eval --reader model` on each turn, with and without the orienter.
#
#   Scripts/eval-turned.sh ../shared/data/photos/bp-paramed 2            # every held photo
#   Scripts/eval-turned.sh ../shared/data/photos/fuel-pump 100 60        # the first 60 held photos
#
# Needs ImageMagick (`convert`) and a release build (`swift build -c release --product vitalsnap`). The
# turned copies are deleted at the end; nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
    echo "usage: $0 PHOTOS_FOLDER PERIPHERAL [LIMIT]" >&2
    exit 64
fi
folder=${1%/}
peripheral=$2
limit=${3:-0}
name=$(basename "$folder")
vitalsnap=.build/release/vitalsnap
command -v convert >/dev/null || { echo "$0: ImageMagick's convert is needed (apt-get install imagemagick)" >&2; exit 2; }
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
[ -f "$folder/labels.tsv" ] || { echo "$0: $folder has no labels.tsv" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The held files of this folder, in labels.tsv's order.
held=$(awk -F'\t' -v f="$name" 'NR > 1 && $1 == f && $3 == "held" { print $2 }' Training/split.tsv)
[ -n "$held" ] || { echo "$0: Training/split.tsv holds no held half of $name" >&2; exit 2; }

for degrees in 0 90 180 270; do
    out="$work/$name-$degrees"
    mkdir -p "$out"
    head -n 1 "$folder/labels.tsv" > "$out/labels.tsv"
    count=0
    while IFS= read -r row; do
        file=${row%%$'\t'*}
        grep -qxF -- "$file" <<< "$held" || continue
        [ "$limit" -gt 0 ] && [ "$count" -ge "$limit" ] && break
        jpeg="${file%.*}.jpg"
        convert "$folder/$file" -auto-orient -rotate "$degrees" -quality 92 "$out/$jpeg"
        printf '%s\t%s\n' "$jpeg" "${row#*$'\t'}" >> "$out/labels.tsv"
        count=$((count + 1))
    done < <(tail -n +2 "$folder/labels.tsv")
done

summary() {  # folder, extra eval options -> "correct/wrong of n"
    "$vitalsnap" eval "$1" -p "$peripheral" --reader model "${@:2}" 2>/dev/null \
        | awk '/ images, /{n=$2} /^  correct /{c=$2} /^  wrong /{w=$2} END{print c "/" w " of " n}'
}
printf '%-8s %-22s %-22s\n' "turn" "with the orienter" "without"
for degrees in 0 90 180 270; do
    printf '%-8s %-22s %-22s\n' "$degrees" "$(summary "$work/$name-$degrees")" "$(summary "$work/$name-$degrees" --no-orienter)"
done
