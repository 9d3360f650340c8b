#!/usr/bin/env bash
# vitalsnap batch against ssocr (the Debian package) on one folder of photos, both timed as whole processes in
# the same run, with the decode-only floor beside them; and both tools' readings checked against the folder's
# labels.tsv, so that speed is never bought with accuracy.
#
#   Benchmarks/compare-ssocr.sh FOLDER [PERIPHERAL] [SSOCR OPTIONS...]
#
# FOLDER holds JPEG/PNG photos and a labels.tsv (file, reading, match; see ../shared/data/photos/README.md).
# PERIPHERAL defaults to 100 (any numeric display). ssocr runs once per image, one after another, with
# `-d -1 -T` unless other options are given (e.g. `-d -1 -f white -b black closing 2` for white digits).
# READER=rules|model picks vitalsnap's reader (default: its own default); MODELS=DIR reads with the trained
# models in DIR (`vitalsnap batch --models`), e.g. a copy of Models/reader less one file, to measure what it costs.
# Needs: ssocr, GNU time (/usr/bin/time), python3: `sudo apt-get install -y ssocr time`.
set -euo pipefail
FOLDER=${1:?usage: compare-ssocr.sh FOLDER [PERIPHERAL] [SSOCR OPTIONS...]}
PERIPHERAL=${2:-100}
READER_OPTION=()
[ -n "${READER:-}" ] && READER_OPTION=(--reader "$READER")
[ -n "${MODELS:-}" ] && READER_OPTION+=(--models "$MODELS")
shift $(( $# >= 2 ? 2 : 1 ))
SSOCR_OPTIONS=("$@")
[ ${#SSOCR_OPTIONS[@]} -eq 0 ] && SSOCR_OPTIONS=(-d -1 -T)
for tool in ssocr /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool: sudo apt-get install -y ssocr time python3" >&2; exit 2; }
done
[ -f "$FOLDER/labels.tsv" ] || { echo "no labels.tsv in $FOLDER" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
(cd "$ROOT" && swift build -c release --product vitalsnap >/dev/null)
V="$ROOT/.build/release/vitalsnap"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILES="$WORK/files.txt"
tail -n +2 "$FOLDER/labels.tsv" | cut -f1 | while read -r f; do echo "$FOLDER/$f"; done >"$FILES"
N=$(wc -l <"$FILES")
CORES=$(nproc)
echo "folder: $FOLDER ($N images), peripheral $PERIPHERAL, reader ${READER:-default}${MODELS:+ with the models in $MODELS}, $CORES cores; ssocr ${SSOCR_OPTIONS[*]}"

# Page cache warm for everyone: read every file once first.
xargs cat <"$FILES" >/dev/null

/usr/bin/time -f "%e %M" -o "$WORK/decode.time" "$V" decode $(cat "$FILES") >/dev/null
/usr/bin/time -f "%e %M" -o "$WORK/batch.time" "$V" batch $(cat "$FILES") -p "$PERIPHERAL" "${READER_OPTION[@]}" --format tsv >"$WORK/batch.tsv"
# ssocr: one process per image, as a user would script it; the whole loop timed.
export SSOCR_OPTS="${SSOCR_OPTIONS[*]}"
/usr/bin/time -f "%e %M" -o "$WORK/ssocr.time" bash -c '
    while read -r f; do printf "%s\t%s\n" "$f" "$(ssocr $SSOCR_OPTS "$f" 2>/dev/null | head -1 || true)"; done' <"$FILES" >"$WORK/ssocr.tsv"

python3 - "$FOLDER/labels.tsv" "$WORK" "$N" "$CORES" <<'PY'
import csv, os, re, sys
labels_path, work, n, cores = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def seconds(name):
    wall, rss = open(os.path.join(work, name + ".time")).read().split()[-2:]
    return float(wall), int(rss) / 1024
labels = {}
with open(labels_path) as f:
    rows = list(csv.reader(f, delimiter="\t"))
for row in rows[1:]:
    labels[row[0]] = (row[1], row[2] if len(row) > 2 and row[2] else "exact")
def strip_zeros(v):
    v = v.lstrip("0")
    return v if v and not v.startswith(".") else "0" + v if v.startswith(".") else v or "0"
def matches(read, label, rule):
    # The rules of labels.tsv (../shared/data/photos/README.md): exact, integer, digits.
    if read is None or read == "" or label == "?":
        return False
    if rule == "digits":
        return re.sub(r"\D", "", read).lstrip("0") == re.sub(r"\D", "", label).lstrip("0")
    parts_r, parts_l = read.split("/"), label.split("/")
    if len(parts_r) != len(parts_l):
        return False
    for r, l in zip(parts_r, parts_l):
        try:
            if rule == "integer":
                if int(float(r) + 0.5) != int(float(l)):
                    return False
            elif strip_zeros(r) != strip_zeros(l):
                return False
        except ValueError:
            return False
    return True
def score(readings):
    correct = wrong = 0
    for name, (label, rule) in labels.items():
        read = readings.get(name)
        if read is None or read == "":
            continue
        if matches(read, label, rule):
            correct += 1
        else:
            wrong += 1
    return correct, wrong
vs = {}
with open(os.path.join(work, "batch.tsv")) as f:
    rows = list(csv.reader(f, delimiter="\t"))
header = rows[0]
fi, ri = header.index("file"), header.index("reading")
for row in rows[1:]:
    reading = row[ri] if ri < len(row) else ""
    vs[os.path.basename(row[fi])] = reading if reading not in ("", "-", "null") else None
ss = {}
for line in open(os.path.join(work, "ssocr.tsv")):
    path, _, out = line.rstrip("\n").partition("\t")
    out = out.strip()
    # ssocr prints what it recognized; '_' marks a digit it could not read: no reading.
    ss[os.path.basename(path)] = out if out and "_" not in out and re.search(r"\d", out) else None
d_wall, d_rss = seconds("decode")
b_wall, b_rss = seconds("batch")
s_wall, s_rss = seconds("ssocr")
bc, bw = score(vs)
sc, sw = score(ss)
print(f"decode only       {d_wall:7.2f} s  {n / d_wall:8.1f} images/s  peak {d_rss:6.1f} MB")
print(f"vitalsnap batch   {b_wall:7.2f} s  {n / b_wall:8.1f} images/s  peak {b_rss:6.1f} MB  correct {bc}/{n} ({100*bc/n:.1f}%), wrong {bw}")
print(f"ssocr, per image  {s_wall:7.2f} s  {n / s_wall:8.1f} images/s  peak {s_rss:6.1f} MB  correct {sc}/{n} ({100*sc/n:.1f}%), wrong {sw}")
print(f"batch vs ssocr: {s_wall / b_wall:.1f}x the images per second (target: at least 20x)")
print(f"batch vs decode only: {b_wall / d_wall:.1f}x the time (target: at most 1.5x)")
print(f"batch peak memory: {b_rss:.1f} MB (target: at most 150 MB)")
PY
