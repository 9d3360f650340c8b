#!/usr/bin/env bash
# The capture view's frame rates, side by side with the terminal flow on the same replay: the frames per second
# the page draws, and the frames per second the reader reads with the page open and without it.
#
#   Benchmarks/capture-view-rate.sh [RUNS] [FPS]
#
# The replay is two frames of the sample clip that never settles (Samples/clips/alternate-glucose-g2-mmol,
# peripheral 102 in mmol/L: frames 1 and 4, which read 11.6 and 10.3) taken turn about to 600 frames at
# 1280x720, so that every frame is read and the reading never settles, replayed at FPS frames per second
# (default 30, a webcam's; 0 reads every frame as fast as the reader can). Each run reads it twice, by turns: on the terminal
# (`vitalsnap read`), and with `--view` followed in headless Chromium for 4 seconds (Tests/VitalSnapCLITests/
# Browser/drive_view.py measure). The reader's rate on the terminal is the frames it read over the time it read
# them (the first frame's status line to the last's); with the view, the rate the page shows (the last 2 s).
# Needs a release build, ImageMagick, chromium, chromium-driver and python3-selenium (Debian's).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
FPS=${2:-30}
vitalsnap=.build/release/vitalsnap
[ -x "$vitalsnap" ] || { echo "$0: build first: swift build -c release --product vitalsnap" >&2; exit 2; }
for tool in convert /usr/bin/chromium /usr/bin/chromedriver; do
    command -v "$tool" >/dev/null || { echo "$0: missing $tool (apt-get install -y imagemagick chromium chromium-driver python3-selenium)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/clip"
convert Samples/clips/alternate-glucose-g2-mmol/frame-0001.png -resize '1280x720!' "$work/a.png"
convert Samples/clips/alternate-glucose-g2-mmol/frame-0004.png -resize '1280x720!' "$work/b.png"
for i in $(seq 0 599); do
    cp "$work/$([ $((i % 2)) -eq 0 ] && echo a || echo b).png" "$(printf '%s/clip/frame-%04d.png' "$work" "$i")"
done
echo "replay: 600 frames of 1280x720 at ${FPS} fps (0: unpaced); $(nproc) cores"
for run in $(seq 1 "$RUNS"); do
    # The terminal flow: its status lines (one per frame read) timed as they come.
    "$vitalsnap" read -p 102 --unit mmol --input "$work/clip" --fps "$FPS" --data-dir "$work/t$run" 2>&1 >/dev/null \
        | while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$work/terminal.log" || true
    python3 - "$work/terminal.log" <<'PY'
import sys
stamps = [float(l.split(" ", 1)[0]) for l in open(sys.argv[1]) if l.split(" ", 1)[1].startswith("frame ")]
span = stamps[-1] - stamps[0] if len(stamps) > 1 else 0
print(f"terminal: {len(stamps)} frames read, reader {((len(stamps) - 1) / span) if span else 0:.1f} frames/s")
PY
    # The view: the page followed for 6 s, then cancelled.
    "$vitalsnap" read --view -p 102 --unit mmol --input "$work/clip" --fps "$FPS" --data-dir "$work/v$run" 2>"$work/view.err" >/dev/null &
    pid=$!
    for _ in $(seq 100); do grep -q '^view: ' "$work/view.err" 2>/dev/null && break; sleep 0.1; done
    url=$(sed -n 's/^view: //p' "$work/view.err")
    /usr/bin/python3 Tests/VitalSnapCLITests/Browser/drive_view.py "$url" measure --seconds 4 \
        | sed -n 's/^page fps: /view: page draws /p; s/^read rate: /view: reader /p' | paste -sd ',' | sed 's/,/ frames\/s, /; s/$/ frames\/s/'
    wait "$pid" || true
done
