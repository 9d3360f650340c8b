#!/usr/bin/env bash
# Packs what Training/gpu/run.sh needs on a training machine that has no Swift, none of the Debian libraries and
# no network (one NVIDIA GPU, 16 cores, Python with PyTorch, NumPy, Pillow, SciPy, safetensors): into
# Training/work/gpu (git-ignored), which the device tool carries (`carry: ["Training/work/gpu"]`, 64 MiB with the
# working tree). See Training/gpu/README.md.
#
#   Training/gpu/pack.sh            # from the repository root; needs ../shared/data (the real photos)
#
#   renderer.tar.xz   vitalsnap-scenes (`vitalsnap samples training-set` alone), its resource bundles and every
#                     shared library it loads, the dynamic loader included: it runs on any x86-64 Linux as
#                     `renderer/ld-linux-x86-64.so.2 --library-path renderer renderer/vitalsnap-scenes ...`
#   real/             the real training photos the committed models pseudo-label (pseudo_label.py; only lines
#                     whose reading agrees with the photo's label), each brought to the detector's largest
#                     input (REAL_LONG_SIDE) in grey, with real/scenes.jsonl in those pixels: never the held
#                     halves, never the validation photos (real_data.py, split.tsv)
#   shared/           the real one-line images train_detector.py --whole-lines teaches (train halves only),
#                     laid out as ../shared/data: run.sh points VITALSNAP_SHARED there
#   lines/            the recognizer's real lines (labelled and pseudo-labelled; train halves and the training
#                     folders, their validation share included for reporting) and digit crops: pack_lines.py
#
# A run carries what it trains: detectors renderer.tar.xz, real/, shared/ and commit (38 MiB at bacabe4);
# recognizers renderer.tar.xz, lines/ and commit (44 MiB). Each stays under LIMIT_MIB; all of it does not.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${OUT:-Training/work/gpu}
VENV=${VENV:-Training/.venv}
REAL_LONG_SIDE=${REAL_LONG_SIDE:-512}
# The working tree travels too (its tracked and unignored files), 64 MiB in all: what a run carries besides must
# leave it room, and a MiB to spare.
tree_bytes=$(git ls-files -z --cached --others --exclude-standard | du -cb --apparent-size --files0-from=- 2>/dev/null | tail -n 1 | cut -f1)
LIMIT_MIB=${LIMIT_MIB:-$(( 64 - (tree_bytes + 1048575) / 1048576 - 1 ))}

if [ ! -d ../shared/data/photos ] || [ ! -d ../shared/data/training ]; then
    echo "pack.sh: the real photos are not in ../shared/data (photos/ and training/); they are needed" >&2
    exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT/renderer"
git rev-parse --short HEAD > "$OUT/commit"  # named in the model files' cards

echo "== the renderer: vitalsnap-scenes and its libraries"
swift build -c release --product vitalsnap-scenes >/dev/null
bin=.build/release/vitalsnap-scenes
cp "$bin" "$OUT/renderer/"
strip "$OUT/renderer/vitalsnap-scenes"
# Bundle.main is the folder of the running executable: run through the loader, that is the loader's folder. The
# overlays only: the renderer reads no model (without the models' bundle, 5 MB that compress little, it renders
# the same scenes and line crops byte for byte).
cp -r .build/release/VitalSnap_VitalSnapOverlays.resources "$OUT/renderer/"
ldd "$bin" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }' | while read -r lib; do
    cp -L "$lib" "$OUT/renderer/"
    # The Swift runtime's libraries come with their symbol tables; the loader and the C library stay as they are.
    case "$(basename "$lib")" in ld-linux*|libc.so*) ;; *) strip --strip-unneeded "$OUT/renderer/$(basename "$lib")" ;; esac
done
tar -C "$OUT" -cf - renderer | xz -T0 -9e > "$OUT/renderer.tar.xz"
rm -rf "$OUT/renderer"

echo "== the real training photos, pseudo-labelled by the committed models"
PY="$VENV/bin/python"
(cd Training && "../$PY" pseudo_label.py --detector ../Models/reader/line-detector.safetensors \
    --recognizer ../Models/reader/line-recognizer.safetensors --out "../$OUT/pseudo" >/dev/null)
(cd Training && "../$PY" gpu/pack_real.py --scenes "../$OUT/pseudo/scenes.jsonl" --long-side "$REAL_LONG_SIDE" --out "../$OUT/real")
echo "== the recognizer's real lines: labelled and pseudo-labelled, cut with room around them, and the digit crops"
(cd Training && "../$PY" gpu/pack_lines.py --pseudo "../$OUT/pseudo/lines.tsv" --out "../$OUT/lines")
rm -rf "$OUT/pseudo"
echo "== the real one-line images (reading lines, BP fields), laid out as ../shared/data"
(cd Training && "../$PY" gpu/pack_whole_lines.py --out "../$OUT/shared")

du -sh --apparent-size "$OUT"/*
for run in "detectors:renderer.tar.xz real shared commit" "recognizers:renderer.tar.xz lines commit"; do
    size=$(cd "$OUT" && du -scm --apparent-size ${run#*:} | tail -n 1 | cut -f1)
    echo "== what a run of $OUT carries for ${run%%:*}: $size MiB (at most $LIMIT_MIB)"
    if [ "$size" -gt "$LIMIT_MIB" ]; then
        echo "pack.sh: over $LIMIT_MIB MiB; the device carries 64 MiB with the working tree ($(( tree_bytes / 1048576 )) MiB)" >&2
        exit 1
    fi
done
