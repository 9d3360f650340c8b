#!/usr/bin/env bash
# The detector's and the recognizer's training on a machine with one NVIDIA GPU, 16 cores, Python with PyTorch
# and no Swift or network, from what Training/gpu/pack.sh put in Training/work/gpu. Renders the scenes there
# (16 cores), trains one detector per SIDE:WIDTH in DETECTORS and one recognizer per width in RECOGNIZERS side by
# side on the GPU (each with its own batch-making processes), measures each detector on every generated medical
# family (validation seeds, never trained on) and exports it, and gives each recognizer's checkpoint with its
# accuracy on the real validation lines beside the committed recognizer's (calibrate and export it at home:
# Training/gpu/README.md).
# A detector of width 1 is fine-tuned from the committed one (configs/detector-gpu.json); a wider one
# (models.detector_layers) is trained from scratch (configs/detector-gpu-wide.json); INIT=FILE (from the
# repository root) fine-tunes every one from FILE instead, e.g. the reader's second detector:
#   INIT=Models/reader/second-line-detector.safetensors DETECTORS=256:2 Training/gpu/run.sh OUT
# A recognizer of width 1 is fine-tuned from the committed one (configs/recognizer-gpu.json), a wider one from it
# widened (configs/recognizer-gpu-wide.json), on the generated lines and the packed real ones (pack_lines.py):
#   DETECTORS= RECOGNIZERS="1 2" Training/gpu/run.sh OUT
# (REAL_SHARE: the share of real lines among those drawn, train_recognizer.py --real-share.)
# FINETUNE_MINUTES=M fine-tunes each detector, once trained, for M more minutes on the same scenes at
# detector-gpu.json's learning rate: the reader's photo detector was made so (Training/gpu/README.md, run 7):
#   DETECTORS=256:2.5 TRAIN_MINUTES=6.3 FINETUNE_MINUTES=3.3 FAMILY_SCENES=3000 SEED=4 Training/gpu/run.sh OUT
# REPLAY=NAME replays one of the committed models trained on a GPU with the settings that made it, its budget in
# steps (Training/configs/NAME.json), its seeds and scenes; Training/gpu/README.md#replaying-the-committed-models:
#   REPLAY=second-detector Training/gpu/run.sh OUT      (also second-recognizer; photo-detector, then
#   REPLAY=photo-detector-fine INIT=FILE Training/gpu/run.sh OUT with the first part's detector file)
# See Training/gpu/README.md.
#
#   Training/gpu/run.sh OUT                      # on the GPU machine, from the repository root
#   DEVICE=cpu SMALL=1 Training/gpu/run.sh OUT   # the CPU smoke test of the same command, small settings
#
# OUT gets detector-<side>-w<width>.safetensors for each detector, families.txt (per family: values found in one
# look), recognizer-w<width>.pt (and .shape.json) for each recognizer, recognizers.txt (validation lines read
# right, per source) and run.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: Training/gpu/run.sh OUT}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# The committed models' settings (Models/README.md), each budget in steps: DETECTOR_SEED and RECOGNIZER_SEED are
# the seeds their runs gave the one model replayed, WIDE_CONFIG, FINE_CONFIG and RECOGNIZER_CONFIG its config.
case "${REPLAY:-}" in
    "") ;;
    photo-detector)       # run 7's first part: width 2.5 from scratch
        DETECTORS=256:2.5 RECOGNIZERS="" FAMILY_SCENES=3000 SEED=4 WIDE_CONFIG=configs/photo-detector.json
        unset FINETUNE_MINUTES INIT ;;
    photo-detector-fine)  # its second part, from the first part's file
        : "${INIT:?REPLAY=photo-detector-fine needs INIT=the detector file of the first part (a path from the repository root)}"
        DETECTORS=256:2.5 RECOGNIZERS="" FAMILY_SCENES=3000 SEED=4 FINE_CONFIG=configs/photo-detector-fine.json
        DETECTOR_SEED=77
        unset FINETUNE_MINUTES ;;
    second-detector)      # the 256:2 of DETECTORS="256:1.5 256:2" at 358481a (so its seed: the second detector's)
        DETECTORS=256:2 RECOGNIZERS="" FAMILY_SCENES=2000 SEED=1 WIDE_CONFIG=configs/second-detector.json
        DETECTOR_SEED=259
        unset FINETUNE_MINUTES INIT ;;
    second-recognizer)    # RECOGNIZERS=2 REAL_SHARE=0.1 at 61fdda7 (the real share is in its config)
        DETECTORS="" RECOGNIZERS=2 FAMILY_SCENES=2000 SEED=1 RECOGNIZER_CONFIG=configs/second-recognizer.json
        unset REAL_SHARE ;;
    *)
        echo "run.sh: REPLAY is photo-detector, photo-detector-fine, second-detector or second-recognizer (got $REPLAY)" >&2
        exit 64 ;;
esac
[ -z "${REPLAY:-}" ] || [ -z "${TRAIN_MINUTES:-}" ] || {
    echo "run.sh: REPLAY trains for its config's steps; TRAIN_MINUTES would make it another run" >&2; exit 64; }
# What pack.sh made, from the repository root: where only a detector's or a recognizer's share of it was carried,
# the rest is simply absent (Training/gpu/README.md).
PACK=${PACK:-Training/work/gpu}
WORK=${WORK:-/tmp/vitalsnap-gpu}
PY=$(command -v "${PY:-python3}")
PY="$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")"  # absolute, the virtualenv's own where one is named
DEVICE=${DEVICE:-cuda}
SEED=${SEED:-1}
DETECTORS=${DETECTORS-256:1.5 256:2}   # long side : width, one detector each ("" for none)
RECOGNIZERS=${RECOGNIZERS:-}           # widths, one recognizer each (none by default), e.g. "1 2"
CORES=$(nproc)
SCENES=${SCENES:-14000}          # the general training set (Training/configs/scenes.json's count)
FAMILY_SCENES=${FAMILY_SCENES:-2000}
VAL_SCENES=${VAL_SCENES:-200}    # per family, seed 900001 (Scripts/eval-families.sh's), never trained on
MINUTES=()  # the config's budget, unless TRAIN_MINUTES is given (a shorter run where less device time is left)
[ -z "${TRAIN_MINUTES:-}" ] || MINUTES=(--minutes "$TRAIN_MINUTES")
if [ "${SMALL:-0}" = 1 ]; then
    SCENES=200 FAMILY_SCENES=30 VAL_SCENES=20 MINUTES=(--minutes 0.3)
fi
FAMILIES="bp-lcd bp-color glucose thermometer scale oximeter"
export PYTHONUNBUFFERED=1
start=$(date +%s)
step() { echo "== $(( $(date +%s) - start )) s: $*"; }
exec > >(tee "$OUT/run.log") 2>&1

step "unpacking the renderer and the real photos ($CORES cores, $DEVICE)"
rm -rf "$WORK"
mkdir -p "$WORK"
xz -dc "$PACK/renderer.tar.xz" | tar -C "$WORK" -xf -
R="$WORK/renderer"
lines=(--no-lines)  # the line crops are for recognizers only
[ -z "$RECOGNIZERS" ] || lines=()
render() { "$R/ld-linux-x86-64.so.2" --library-path "$R" "$R/vitalsnap-scenes" --jobs "$CORES" "${lines[@]}" "$@" | tail -n 1; }

step "rendering $SCENES general scenes, $FAMILY_SCENES per family to train on and $VAL_SCENES per family to measure"
render --count "$SCENES" --seed "$SEED" "$WORK/synth"
render --count 300 --seed $((SEED + 1000)) "$WORK/synth-val"
trained=("$WORK/synth")
k=0
for f in $FAMILIES; do
    k=$((k + 1))
    render --family "$f" --count "$FAMILY_SCENES" --seed $((910000 + 100 * k + SEED)) "$WORK/train-$f"
    render --family "$f" --count "$VAL_SCENES" --seed 900001 "$WORK/families/$f"
    trained+=("$WORK/train-$f")
done

whole=()
if [ -d "$PACK/shared" ]; then  # the one-line images, as train.sh's fine-tuning teaches them
    export VITALSNAP_SHARED="$(cd "$PACK/shared" && pwd)"
    whole=(--whole-lines)
fi
runs=($DETECTORS)
recognizers=($RECOGNIZERS)
jobs=$(( ${#runs[@]} + ${#recognizers[@]} ))
[ "$jobs" -ge 1 ] || { echo "run.sh: neither DETECTORS nor RECOGNIZERS names anything to train" >&2; exit 64; }
workers=$(( (CORES - jobs) / jobs ))
[ "$workers" -ge 1 ] || workers=1
step "training a detector for each long side:width of: ${DETECTORS:-none}, a recognizer for each width of: ${RECOGNIZERS:-none} ($workers batch-making processes each)"
cd Training
pids=()
names=()
k=0
train() {  # one detector of long side $side and width $width, on every scene rendered; "$@": what else it is told
    "$PY" train_detector.py --synthetic "${trained[@]}" --synthetic-val "$WORK/synth-val" \
        --real "../$PACK/real/scenes.jsonl" "${whole[@]}" "$@" \
        --long-side "$side" --width "$width" --workers "$workers" --threads 1 --device "$DEVICE"
}
for run in "${runs[@]}"; do
    side=${run%%:*} width=${run##*:}
    [[ "$run" == *:* ]] || width=1
    name="$side-w$width"
    names+=("$name")
    k=$((k + 1))
    if [ -n "${INIT:-}" ]; then  # every detector fine-tuned from this file (as wide as it)
        start_from=(--init "../$INIT" --config "${FINE_CONFIG:-configs/detector-gpu.json}")
    elif [ "$width" = 1 ] || [ "$width" = 1.0 ]; then
        start_from=(--init ../Models/reader/line-detector.safetensors --config configs/detector-gpu.json)
    else
        start_from=(--config "${WIDE_CONFIG:-configs/detector-gpu-wide.json}")
    fi
    {  # trained, then, with FINETUNE_MINUTES, fine-tuned on the same scenes at detector-gpu.json's learning rate
        train "${start_from[@]}" "${MINUTES[@]}" --out "$WORK/detector-$name.pt" --seed "${DETECTOR_SEED:-$((SEED + side + k))}"
        if [ -n "${FINETUNE_MINUTES:-}" ]; then
            "$PY" export.py --detector "$WORK/detector-$name.pt" --out "$WORK/first-$name" >/dev/null
            train --init "$WORK/first-$name/line-detector.safetensors" --config configs/detector-gpu.json \
                --minutes "$FINETUNE_MINUTES" --out "$WORK/detector-$name.pt" --seed $((SEED + side + k + 73))
        fi
    } > "$WORK/train-$name.log" 2>&1 &
    pids+=($!)
done
for width in "${recognizers[@]}"; do
    k=$((k + 1))
    # Width 1 fine-tuned from the committed recognizer; a wider one starts from it widened (widen.py).
    config=configs/recognizer-gpu.json
    [ "$width" = 1 ] || [ "$width" = 1.0 ] || config=configs/recognizer-gpu-wide.json
    config=${RECOGNIZER_CONFIG:-$config}
    "$PY" train_recognizer.py --synthetic "${trained[@]}" --synthetic-val "$WORK/synth-val" \
        --packed-lines "../$PACK/lines" --init ../Models/reader/line-recognizer.safetensors --width "$width" \
        --config "$config" "${MINUTES[@]}" ${REAL_SHARE:+--real-share "$REAL_SHARE"} --out "$WORK/recognizer-w$width.pt" \
        --workers "$workers" --threads 1 --device "$DEVICE" --seed $((SEED + 100 + k)) \
        > "$WORK/train-recognizer-w$width.log" 2>&1 &
    pids+=($!)
done
if [ -n "$RECOGNIZERS" ]; then  # the committed recognizer on the same validation lines, for comparison
    "$PY" train_recognizer.py --synthetic "${trained[@]}" --synthetic-val "$WORK/synth-val" --packed-lines "../$PACK/lines" \
        --init ../Models/reader/line-recognizer.safetensors --steps 0 --out "$WORK/recognizer-committed.pt" --threads 1 \
        > "$WORK/train-recognizer-committed.log" 2>&1 &
    pids+=($!)
fi
for pid in "${pids[@]}"; do wait "$pid"; done
for name in "${names[@]}"; do echo "-- $name"; grep -E "step|trained|validation|scenes" "$WORK/train-$name.log" | tail -n 6; done
if [ -n "$RECOGNIZERS" ]; then  # (a detectors-only run has no recognizer logs, not even the committed one's)
    for width in "${recognizers[@]}" committed; do
        name=recognizer-w$width
        [ "$width" = committed ] && name=recognizer-committed
        echo "-- $name"; grep -E "step|trained|validation|lines" "$WORK/train-$name.log" | tail -n 4
        [ "$width" = committed ] || cp "$WORK/$name.pt" "$WORK/$name.pt.shape.json" "$OUT/"
    done | tee "$OUT/recognizers.txt"
fi
[ -n "$DETECTORS" ] || { step "done"; exit 0; }

step "each detector on the generated families (one look) and exported"
export OMP_NUM_THREADS=$(( CORES / (${#runs[@]} + 1) > 0 ? CORES / (${#runs[@]} + 1) : 1 ))
pids=()
for name in "${names[@]}"; do
    "$PY" export.py --detector "$WORK/detector-$name.pt" --out "$WORK/export-$name" \
        --card "Training/gpu/run.sh at $(cat "../$PACK/commit") SEED=$SEED long side and width $name" >/dev/null
    cp "$WORK/export-$name/line-detector.safetensors" "$OUT/detector-$name.safetensors"
    { echo "-- long side and width $name"; "$PY" eval_detector_families.py --families "$WORK/families" --detector "$OUT/detector-$name.safetensors"; } \
        > "$WORK/families-$name.txt" &
    pids+=($!)
done
{ echo "-- the committed detector (long side 256)"; "$PY" eval_detector_families.py --families "$WORK/families"; } > "$WORK/families-0256.txt" &
pids+=($!)
# (A bare `wait` would also wait for the tee of this script's own output.)
for pid in "${pids[@]}"; do wait "$pid"; done
cat "$WORK"/families-*.txt | tee "$OUT/families.txt"
step "done"
