#!/usr/bin/env python3
"""The detector on each generated family of medical displays: how many of the value lines it finds in one look
(issue 41, item 2: at least 97%), with their reading direction, and how many false value lines.

    Scripts/eval-families.sh is run first with FAMILIES=DIR (it renders each family into DIR/<family>), then
    python Training/eval_detector_families.py --families DIR [--detector Models/reader/line-detector.safetensors]

A value line counts as found as train_detector.py's validation counts it: the centre of a detected value line
inside it, the heights within 35%. Values the generator marks unreadable (glare over a digit, too small) are
neither counted nor false.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

from common import MODELS
from detector_data import read_scenes
from infer import load_detector
from train_detector import evaluate

FAMILIES = ("bp-lcd", "bp-color", "glucose", "thermometer", "scale", "oximeter")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--families", required=True, help="the folder Scripts/eval-families.sh rendered into (FAMILIES=)")
    ap.add_argument("--detector", default=os.path.join(MODELS, "reader", "line-detector.safetensors"),
                    help="an exported detector or a checkpoint")
    args = ap.parse_args()
    net = load_detector(args.detector)
    print(f"{'family':<14} {'scenes':>6} {'values':>6} {'found':>7} {'direction':>9} {'false':>6}")
    for family in FAMILIES:
        folder = os.path.join(args.families, family)
        if not os.path.exists(os.path.join(folder, "scenes.jsonl")):
            print(f"{family:<14} (not rendered in {args.families})")
            continue
        r = evaluate(net, read_scenes(folder), random.Random(0))
        print(f"{family:<14} {r['scenes']:>6} {r['values']:>6} {100 * r['value recall']:>6.1f}% "
              f"{100 * r['direction right']:>8.1f}% {r['false values']:>6}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
