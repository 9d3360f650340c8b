#!/usr/bin/env python3
"""Step 6b: check the reading threshold on the validation photos, read by the Swift reader, and raise it where
they need it.

    python Training/choose_threshold.py --models Training/work/try --calibration Training/work/calibration.json

calibrate.py chooses a threshold on validation *lines*. For the folders whose lines come from pseudo-labelling
those are only the lines an earlier model already read right, so they are easier than new photos. Here every
validation photo counts, read or not: `vitalsnap eval --models DIR --min-confidence T` reads the validation
photos (validation_photos.py: the fifth of each train half the recognizer never learns from) at each threshold
of THRESHOLDS from the lines' one up, and the lowest at which at most MAX_WRONG_SHARE of them are read wrong is
kept. Photos whose label a look showed to be wrong (label-errata.tsv) are not among them (validation_photos.py
leaves them out): a reading of what such a photo shows is right, and its label would count it wrong. The calibration file gets the threshold chosen
(`threshold`), the lines' one (`threshold_lines`) and the table; export.py writes the first into the
recognizer's file.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from common import PHOTOS, ROOT, WORK
from validation_photos import write_split

# At most this share of the validation photos may be read wrong (the targets allow 1% to 2% per folder).
MAX_WRONG_SHARE = 0.01
THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)
# The photo folders and the peripheral each is read for (as Training/train.sh evaluates them).
FOLDERS = {"fuel-pump": 100, "electricity-meter": 100, "bp-fields-binarized": 100, "bp-paramed": 2, "glucose-morepen": 9}


def read_validation(vitalsnap: str, models: str, split: str, threshold: float) -> dict[str, tuple[int, int, int]]:
    """folder -> (photos, right, wrong) of the validation photos at `threshold`."""
    out = {}
    for folder, peripheral in FOLDERS.items():
        result = subprocess.run(
            [vitalsnap, "eval", os.path.join(PHOTOS, folder), "-p", str(peripheral), "--models", models,
             "--split", "held", "--split-file", split, "--min-confidence", str(threshold), "--json"],
            check=False, capture_output=True, text=True, cwd=ROOT)
        if result.returncode not in (0, 1) or not result.stdout:
            raise SystemExit(f"vitalsnap eval failed on {folder}: {result.stderr.strip()}")
        summary = json.loads(result.stdout)["folders"][0]
        out[folder] = (summary["total"], summary["correct"], summary["wrong"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", required=True, help="a folder of exported models (export.py --out)")
    ap.add_argument("--calibration", required=True, help="calibrate.py's file; the threshold chosen is written in")
    ap.add_argument("--vitalsnap", default=os.path.join(ROOT, ".build", "release", "vitalsnap"))
    args = ap.parse_args()
    calibration = json.load(open(args.calibration))
    lines_threshold = calibration.get("threshold_lines", calibration["threshold"])
    split = os.path.join(WORK, "validation-split.tsv")
    write_split(split)
    # vitalsnap runs from the repository root: paths given relative to here must not change meaning.
    vitalsnap, models = os.path.abspath(args.vitalsnap), os.path.abspath(args.models)
    table, chosen = [], None
    for t in [lines_threshold] + [t for t in THRESHOLDS if t > lines_threshold]:
        per_folder = read_validation(vitalsnap, models, split, t)
        photos = sum(v[0] for v in per_folder.values())
        right = sum(v[1] for v in per_folder.values())
        wrong = sum(v[2] for v in per_folder.values())
        table.append({"threshold": round(t, 4), "photos": photos, "right": right, "wrong": wrong,
                      "per_folder": {k: {"photos": v[0], "right": v[1], "wrong": v[2]} for k, v in per_folder.items()}})
        print(f"threshold {t:.3f}: {right} right, {wrong} wrong of {photos} validation photos "
              + ", ".join(f"{k} {v[1]}/{v[2]}" for k, v in per_folder.items()), flush=True)
        if chosen is None and wrong <= MAX_WRONG_SHARE * photos:
            chosen = t
            break
    if chosen is None:
        # The models read too many validation photos wrong at every threshold tried: the highest is taken, and
        # the models are not fit to ship (train.sh's replay of 2026-12-06 read 6 of 93 wrong at 0.9).
        chosen = THRESHOLDS[-1]
        print(f"choose_threshold.py: no threshold up to {chosen} reads at most {MAX_WRONG_SHARE:.0%} of the "
              f"validation photos wrong; {chosen} taken, but these models read too many wrong to ship",
              file=sys.stderr, flush=True)
    calibration.update({"threshold": round(chosen, 4), "threshold_lines": lines_threshold, "photo_table": table})
    with open(args.calibration, "w") as f:
        json.dump(calibration, f, indent=2)
    print(f"threshold {chosen} (the lines chose {lines_threshold}) -> {args.calibration}")


if __name__ == "__main__":
    sys.exit(main())
