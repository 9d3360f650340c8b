#!/usr/bin/env bash
# A general OCR engine, PP-OCR through RapidOCR (PyPI rapidocr-onnxruntime, whose wheel ships the PP-OCRv4
# detection/recognition and the direction-classifier ONNX models), on labelled photo folders: it picks a value
# from the OCR text with a fixed rule that never looks at the label and scores it as `vitalsnap eval` does,
# so that our reader's accuracy can be shown beside what a developer would otherwise try.
#
#   Benchmarks/compare-ocr.sh [--split held|train|all] [--peripheral ID] [--jobs N] [--tsv FILE] FOLDER...
#
# FOLDER holds a labels.tsv (file, reading, match; optionally peripheral and unit; see
# ../shared/data/photos/README.md and Samples/README.md) and the images, or is a folder above several such
# folders (e.g. ../shared/data/photos or Samples/stills: each labelled folder below it).
# --split (default held): the rows of that half of Training/split.tsv, for the folders it lists (by name);
#   other folders (Samples/stills/*) are used whole. `all` uses every row.
# --peripheral ID: for rows whose labels.tsv has no peripheral column. Without it the photos folders default
#   to glucose-morepen 9, bp-paramed 2, bp-fields-binarized/fuel-pump/electricity-meter 100; any other folder
#   without a peripheral column is an error.
# --jobs N (default 1): OCR worker processes, each loading the models once (onnxruntime already uses every
#   core in one process). --tsv FILE: per-image results (file, label, reading, verdict, peripheral, seconds,
#   every text box RapidOCR returned as text@height).
#
# Picking rule: of RapidOCR's text boxes keep those whose text, spaces and a point after the last digit removed
# (`124.` is 124), is a number (optional `-`, digits, at most one `.` with digits on both sides) or a display
# word (LO, HI, Err). If the tallest kept box is a word, the image reads as that word. Else take as many numbers
# as the peripheral has measurement fields (blood pressure 3 SYS/DIA/PULSE, oximeter 106 2, others 1), those
# with the tallest boxes, ordered top-to-bottom and left-to-right within a row; each must have its field's
# decimals where the unit fixes them (mg/dL 0, mmol/L 1, ...) and lie in its plausible range, else the image is
# no reading. Numeric display 100: the tallest number as shown. Images are given to RapidOCR with their EXIF
# orientation applied; RapidOCR runs with its default settings.
# Details: the header of Benchmarks/compare_ocr.py.
#
# Scoring: `vitalsnap eval`'s rules (match exact/integer/digits, `?` and LO/HI/Err labels); a file that cannot
# be read counts as no reading, with a warning. Prints correct / wrong / no reading per folder and in total,
# accuracy = correct / images, and the seconds per image (models loaded once per process, not counted).
#
# Needs python3 (3.9 or later) with venv (`sudo apt-get install -y python3-venv`) and PyPI access on the first
# run: it creates Benchmarks/.venv-ocr with the pinned versions below (about 420 MB) and reuses it afterwards.
# Exit status: 0 after a run, 2 for a usage error or a missing folder / labels.tsv.
set -euo pipefail

usage() { sed -n '7p' "$0" | sed 's/^#   /usage: /' >&2; }
if [ $# -eq 0 ]; then usage; exit 2; fi
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
VENV="$HERE/.venv-ocr"
# Pinned: rapidocr-onnxruntime and every package it pulls in (as resolved on 2026-11-23, Python 3.11).
PINS=(
    rapidocr-onnxruntime==1.4.4
    onnxruntime==1.32.0
    opencv-python==5.0.0.93
    numpy==2.4.6
    pillow==13.0.0
    pyclipper==1.4.0
    PyYAML==6.0.3
    shapely==2.2.0
    six==1.17.0
    tqdm==4.70.1
    flatbuffers==25.12.19
    packaging==26.3
    protobuf==7.36.2
)

command -v python3 >/dev/null || { echo "compare-ocr: missing python3: sudo apt-get install -y python3 python3-venv" >&2; exit 2; }
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' \
    || { echo "compare-ocr: needs Python 3.9 or later (found $(python3 --version 2>&1))" >&2; exit 2; }

# Check the folders before any install, so that a typo fails at once.
expect_value=0
for arg in "$@"; do
    if [ $expect_value -eq 1 ]; then expect_value=0; continue; fi
    case "$arg" in
        --split|--peripheral|--jobs|--tsv) expect_value=1 ;;
        --split=*|--peripheral=*|--jobs=*|--tsv=*) ;;
        -*) break ;;  # an option this check does not know: compare_ocr.py reports it
        *)
            [ -d "$arg" ] || { echo "compare-ocr: no such folder: $arg" >&2; exit 2; }
            if [ -z "$(find -L "$arg" -mindepth 1 -name '.*' -prune -o -name labels.tsv -print -quit 2>/dev/null)" ]; then
                echo "compare-ocr: no labels.tsv in $arg or in any folder below it" >&2; exit 2
            fi
            ;;
    esac
done

STAMP="$VENV/.compare-ocr-pins"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "${PINS[*]}" ]; then
    echo "compare-ocr: creating $VENV (${PINS[0]}, ${PINS[1]})" >&2
    rm -rf "$VENV"
    python3 -m venv "$VENV" || { echo "compare-ocr: python3 -m venv failed: sudo apt-get install -y python3-venv" >&2; exit 2; }
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}" \
        || { echo "compare-ocr: pip install failed (needs PyPI access); $VENV left incomplete" >&2; exit 2; }
    printf '%s' "${PINS[*]}" >"$STAMP"
fi
exec "$VENV/bin/python" "$HERE/compare_ocr.py" "$@"
