#!/usr/bin/env bash
# Trains the reader's three models from a fresh clone, on CPU, and writes them with their parity fixtures. One
# recipe: every stage's settings are in Training/configs/ (budgets in optimizer steps, not minutes, so a run is
# replayed step for step on any machine), the seeds follow SEED. About 2 h on 2 cores (2 h 5 min on 2026-12-06).
#
#   Training/train.sh                   # from the repository root; needs ../shared/data (the real photos)
#   SEED=7 Training/train.sh            # another seed
#   QUICK=1 Training/train.sh           # every stage at 2% of its steps and few scenes: a smoke test (useless
#                                       # models, written to Training/work/models-quick, not Models/reader)
#   BUDGET_SCALE=4 Training/train.sh    # every stage's steps times 4 (a faster machine's larger settings)
#   DEVICE=cuda Training/train.sh       # the training stages on a GPU (nothing needs one)
#   RESUME=1 Training/train.sh          # go on from a run that stopped: the stages that ended are not run
#                                       # again (give it the same WORK, SEED, BUDGET_SCALE and QUICK)
#
# Steps (each a script of its own; see Training/README.md):
#   1 generate synthetic scenes and line crops (vitalsnap samples training-set), a training and a validation set
#   2 train the recognizer, 3 the detector, on synthetic data and the labelled real lines
#   4 pseudo-label the real training photos with them (keep only lines that agree with the labels)
#   5 fine-tune both with the real photos added, 5b and 5c pseudo-label again with the better models and
#   fine-tune both again (twice), 6 calibrate, 7 train the orienter, 8 export and check the threshold on the
#   validation photos with the Swift reader (choose_threshold.py), 9 evaluate with the Swift reader
set -euo pipefail
cd "$(dirname "$0")/.."

SEED=${SEED:-1}
CONFIGS="$(pwd)/Training/configs"
setting() { python3 Training/config_value.py "$CONFIGS/$1.json" "$2"; }
SCENES=$(setting scenes training)
VAL_SCENES=$(setting scenes validation)
ORIENTER_SCENES=$(setting scenes orienter)
BUDGET_SCALE=${BUDGET_SCALE:-1}
DEVICE=${DEVICE:-cpu}  # or cuda, or auto (Training/device.py)
OUT=${OUT:-Models/reader}
if [ "${QUICK:-0}" = 1 ]; then
    SCENES=300 VAL_SCENES=100 ORIENTER_SCENES=100 BUDGET_SCALE=0.02
    OUT=${OUT_QUICK:-Training/work/models-quick}
fi
WORK=${WORK:-Training/work}
VENV=${VENV:-Training/.venv}
PY="$VENV/bin/python"

if [ ! -d ../shared/data/photos ] || [ ! -d ../shared/data/training ]; then
    echo "train.sh: the real photos are not in ../shared/data (photos/ and training/); they are needed" >&2
    exit 2
fi
if [ ! -x "$PY" ]; then
    echo "== making the virtualenv $VENV (PyTorch is large: this takes a while once)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -r Training/requirements.txt
fi
PY="$(cd "$(dirname "$PY")" && pwd)/python"
mkdir -p "$WORK" "$OUT"
WORK="$(cd "$WORK" && pwd)"
OUT="$(cd "$OUT" && pwd)"
start=$(date +%s)
step() { echo; echo "== $(( ($(date +%s) - start) / 60 )) min: $*"; }
# Each stage that ends leaves a mark in WORK/.done; with RESUME=1 a marked stage is not run again.
[ "${RESUME:-0}" = 1 ] || rm -rf "$WORK/.done"
mkdir -p "$WORK/.done"
stage() {  # name, command...
    local name=$1; shift
    if [ -e "$WORK/.done/$name" ]; then echo "(resumed: $name ended in an earlier run)"; return 0; fi
    "$@"
    touch "$WORK/.done/$name"
}

step "1 building vitalsnap and generating $SCENES + $VAL_SCENES synthetic scenes"
swift build -c release --product vitalsnap >/dev/null
scenes() {  # folder, count, the name of its seed offset
    rm -rf "${WORK:?}/$1"
    .build/release/vitalsnap samples training-set --count "$2" --seed $((SEED + $(setting scenes "$3"))) "$WORK/$1"
}
stage synth scenes synth "$SCENES" training_seed_offset
stage synth-val scenes synth-val "$VAL_SCENES" validation_seed_offset
stage synth-orienter scenes synth-orienter "$ORIENTER_SCENES" orienter_seed_offset

cd Training
W="$WORK"
step "2 recognizer, first round"
stage recognizer-r1 "$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --out "$W/recognizer-r1.pt" \
    --config "$CONFIGS/recognizer-r1.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" --seed "$SEED"
step "3 detector, first round"
stage detector-r1 "$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --out "$W/detector-r1.pt" \
    --config "$CONFIGS/detector-r1.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" --seed "$((SEED + 1))"
step "4 pseudo-labelling the real training photos"
stage pseudo "$PY" pseudo_label.py --detector "$W/detector-r1.pt" --recognizer "$W/recognizer-r1.pt" --out "$W/pseudo"
step "5 fine-tuning with the real photos"
stage recognizer "$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --extra-lines "$W/pseudo/lines.tsv" \
    --init "$W/recognizer-r1.pt" --out "$W/recognizer.pt" --config "$CONFIGS/recognizer-fine.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" \
    --seed "$((SEED + 2))"
stage detector "$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --real "$W/pseudo/scenes.jsonl" \
    --init "$W/detector-r1.pt" --out "$W/detector.pt" --config "$CONFIGS/detector-fine.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" \
    --seed "$((SEED + 3))"
# Two more rounds: each pseudo-labels the photos again with the latest models (more lines agree with their
# labels each time) and fine-tunes both on that, side by side with a thread each.
fine_round() {  # name, previous detector, previous recognizer, seed[, the previous round's pseudo-labels]
    "$PY" pseudo_label.py --detector "$W/$2.pt" --recognizer "$W/$3.pt" --out "$W/pseudo-$1"
    # The recognizer also keeps the previous round's lines: a later round reads some photos it read before.
    "$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --extra-lines "$W/pseudo-$1/lines.tsv" \
        ${5:+--extra-lines "$W/$5/lines.tsv"} \
        --init "$W/$3.pt" --out "$W/recognizer-$1.pt" --config "$CONFIGS/recognizer-round.json" \
        --budget-scale "$BUDGET_SCALE" --device "$DEVICE" --seed "$4" &
    local recognizer_job=$!
    "$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --real "$W/pseudo-$1/scenes.jsonl" \
        --init "$W/$2.pt" --out "$W/detector-$1.pt" --config "$CONFIGS/detector-round.json" \
        --budget-scale "$BUDGET_SCALE" --device "$DEVICE" --seed "$(($4 + 1))"
    wait "$recognizer_job"
}
step "5b second round: pseudo-labelling with the fine-tuned models, then both fine-tuned again side by side"
stage r2 fine_round r2 detector recognizer "$((SEED + 12))"
step "5c third round"
stage r3 fine_round r3 detector-r2 recognizer-r2 "$((SEED + 22))" pseudo-r2
step "6 calibrating"
stage calibration "$PY" calibrate.py --recognizer "$W/recognizer-r3.pt" --synthetic-val "$W/synth-val" \
    --extra-lines "$W/pseudo-r3/lines.tsv" --out "$W/calibration.json"
step "7 the orienter: from scratch on the first generated scenes, then on those and more"
stage orienter-r1 "$PY" train_orienter.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" \
    --out "$W/orienter-r1.pt" --config "$CONFIGS/orienter-r1.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" --seed "$((SEED + 8))"
stage orienter "$PY" train_orienter.py --synthetic "$W/synth" "$W/synth-orienter" --synthetic-val "$W/synth-val" \
    --init "$W/orienter-r1.pt" --out "$W/orienter.pt" --config "$CONFIGS/orienter-fine.json" --budget-scale "$BUDGET_SCALE" --device "$DEVICE" \
    --seed "$((SEED + 9))"
step "8 exporting, then the threshold checked on the validation photos with the Swift reader"
# The reader as it ships also runs three files this recipe does not make (made on a GPU machine, Training/gpu). A
# folder other than Models/reader gets the committed ones, so that the threshold is chosen, and the new models
# are evaluated, in the reader as it ships.
for file in photo-line-detector second-line-detector second-line-recognizer; do
    [ -e "$OUT/$file.safetensors" ] || cp "../Models/reader/$file.safetensors" "$OUT/"
done
export_models() {
    "$PY" export.py --detector "$W/detector-r3.pt" --recognizer "$W/recognizer-r3.pt" --calibration "$W/calibration.json" \
        --fixture-crop "$(ls "$W"/synth-val/lines/*.png | head -n 1)" --orienter "$W/orienter.pt" --out "$OUT" \
        --card "Training/train.sh at $(git rev-parse --short HEAD) SEED=$SEED BUDGET_SCALE=$BUDGET_SCALE SCENES=$SCENES"
}
export_models
# vitalsnap (built in step 1) reads the validation photos with the files just written (--models).
"$PY" choose_threshold.py --models "$OUT" --calibration "$W/calibration.json"
export_models
cd ..
step "9 evaluating the models in $OUT (release build, held halves)"
.build/release/vitalsnap eval Samples/stills --models "$OUT" || true
for folder in glucose-morepen:9 bp-paramed:2 fuel-pump:100 electricity-meter:100 bp-fields-binarized:100 medical-products:; do
    id=${folder##*:}  # medical-products: each row's own peripheral
    .build/release/vitalsnap eval "../shared/data/photos/${folder%%:*}" ${id:+-p "$id"} --models "$OUT" --split held \
        | sed -n '1,6p' || true
done
step "done"
