#!/usr/bin/env bash
# Trains the reader's three models from a fresh clone, on CPU, and writes Models/reader/*.safetensors and the
# parity fixtures. About 3 h on 2 cores; `QUICK=1` runs every step for a few minutes only (a smoke test).
#
#   Training/train.sh                   # from the repository root; needs ../shared/data (the real photos)
#   SEED=7 Training/train.sh            # another seed
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
SCENES=${SCENES:-14000}
VAL_SCENES=${VAL_SCENES:-1500}
REC_MINUTES=${REC_MINUTES:-15}
DET_MINUTES=${DET_MINUTES:-10}
REC_FINE_MINUTES=${REC_FINE_MINUTES:-15}
DET_FINE_MINUTES=${DET_FINE_MINUTES:-25}
ROUND2_MINUTES=${ROUND2_MINUTES:-18}
ORIENTER_SCENES=${ORIENTER_SCENES:-6000}
ORIENTER_MINUTES=${ORIENTER_MINUTES:-20}
ORIENTER_FINE_MINUTES=${ORIENTER_FINE_MINUTES:-25}
if [ "${QUICK:-0}" = 1 ]; then
    SCENES=300 VAL_SCENES=100 REC_MINUTES=2 DET_MINUTES=2 REC_FINE_MINUTES=1 DET_FINE_MINUTES=1 ROUND2_MINUTES=1
    ORIENTER_SCENES=100 ORIENTER_MINUTES=1 ORIENTER_FINE_MINUTES=1
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
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
start=$(date +%s)
step() { echo; echo "== $(( ($(date +%s) - start) / 60 )) min: $*"; }

step "1 building vitalsnap and generating $SCENES + $VAL_SCENES synthetic scenes"
swift build -c release --product vitalsnap >/dev/null
rm -rf "$WORK/synth" "$WORK/synth-val"
.build/release/vitalsnap samples training-set --count "$SCENES" --seed "$SEED" "$WORK/synth"
.build/release/vitalsnap samples training-set --count "$VAL_SCENES" --seed $((SEED + 1000)) "$WORK/synth-val"
rm -rf "$WORK/synth-orienter"
.build/release/vitalsnap samples training-set --count "$ORIENTER_SCENES" --seed $((SEED + 2)) "$WORK/synth-orienter"

cd Training
W="$WORK"
step "2 recognizer, first round"
"$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --out "$W/recognizer-r1.pt" \
    --minutes "$REC_MINUTES" --seed "$SEED"
step "3 detector, first round"
"$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --out "$W/detector-r1.pt" \
    --minutes "$DET_MINUTES" --seed "$((SEED + 1))"
step "4 pseudo-labelling the real training photos"
"$PY" pseudo_label.py --detector "$W/detector-r1.pt" --recognizer "$W/recognizer-r1.pt" --out "$W/pseudo"
step "5 fine-tuning with the real photos"
"$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --extra-lines "$W/pseudo/lines.tsv" \
    --init "$W/recognizer-r1.pt" --out "$W/recognizer.pt" --minutes "$REC_FINE_MINUTES" --lr 1e-3 --seed "$((SEED + 2))"
"$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --real "$W/pseudo/scenes.jsonl" \
    --whole-lines --init "$W/detector-r1.pt" --out "$W/detector.pt" --minutes "$DET_FINE_MINUTES" --lr 5e-4 --seed "$((SEED + 3))" \
    --crop 256 --batch 8
# Two more rounds: each pseudo-labels the photos again with the latest models (more lines agree with their
# labels each time) and fine-tunes both on that, side by side with a thread each.
fine_round() {  # name, previous detector, previous recognizer, seed[, the previous round's pseudo-labels]
    "$PY" pseudo_label.py --detector "$W/$2.pt" --recognizer "$W/$3.pt" --out "$W/pseudo-$1"
    # The recognizer also keeps the previous round's lines: a later round reads some photos it read before.
    "$PY" train_recognizer.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --extra-lines "$W/pseudo-$1/lines.tsv" \
        ${5:+--extra-lines "$W/$5/lines.tsv"} \
        --init "$W/$3.pt" --out "$W/recognizer-$1.pt" --minutes "$ROUND2_MINUTES" --lr 5e-4 --seed "$4" \
        --threads 1 &
    local recognizer_job=$!
    "$PY" train_detector.py --synthetic "$W/synth" --synthetic-val "$W/synth-val" --real "$W/pseudo-$1/scenes.jsonl" \
        --whole-lines --init "$W/$2.pt" --out "$W/detector-$1.pt" --minutes "$ROUND2_MINUTES" --lr 3e-4 --seed "$(($4 + 1))" \
        --crop 256 --batch 8 --threads 1
    wait "$recognizer_job"
}
step "5b second round: pseudo-labelling with the fine-tuned models, then both fine-tuned again side by side"
fine_round r2 detector recognizer "$((SEED + 12))"
step "5c third round"
fine_round r3 detector-r2 recognizer-r2 "$((SEED + 22))" pseudo-r2
step "6 calibrating"
"$PY" calibrate.py --recognizer "$W/recognizer-r3.pt" --synthetic-val "$W/synth-val" \
    --extra-lines "$W/pseudo-r3/lines.tsv" --out "$W/calibration.json"
step "7 the orienter: from scratch on the first generated scenes, then on those and more"
"$PY" train_orienter.py --synthetic "$W/synth" --synthetic-limit 6000 --synthetic-val "$W/synth-val" \
    --out "$W/orienter-r1.pt" --minutes "$ORIENTER_MINUTES" --seed "$((SEED + 8))"
"$PY" train_orienter.py --synthetic "$W/synth" "$W/synth-orienter" --synthetic-limit 6000 --synthetic-val "$W/synth-val" \
    --init "$W/orienter-r1.pt" --lr 1.5e-3 --out "$W/orienter.pt" --minutes "$ORIENTER_FINE_MINUTES" --seed "$((SEED + 9))"
step "8 exporting, then the threshold checked on the validation photos with the Swift reader"
export_models() {
    "$PY" export.py --detector "$W/detector-r3.pt" --recognizer "$W/recognizer-r3.pt" --calibration "$W/calibration.json" \
        --fixture-crop "$(ls "$W"/synth-val/lines/*.png | head -n 1)" --orienter "$W/orienter.pt" \
        --card "Training/train.sh SEED=$SEED SCENES=$SCENES"
}
export_models
# vitalsnap (built in step 1) reads the validation photos with the files just written (--models).
"$PY" choose_threshold.py --models "$(cd .. && pwd)/Models/reader" --calibration "$W/calibration.json"
export_models
cd ..
step "9 evaluating (release build, held halves)"
swift build -c release --product vitalsnap >/dev/null
# SwiftPM does not always notice that a file in a copied resource folder changed: put the new files in place.
cp Models/reader/*.safetensors "$(swift build -c release --show-bin-path)/VitalSnap_VitalSnapModels.resources/reader/"
.build/release/vitalsnap eval Samples/stills --reader model || true
for folder in glucose-morepen:9 bp-paramed:2 fuel-pump:100 electricity-meter:100 bp-fields-binarized:100; do
    .build/release/vitalsnap eval "../shared/data/photos/${folder%%:*}" -p "${folder##*:}" --reader model --split held \
        | sed -n '1,6p' || true
done
step "done"
