#!/usr/bin/env python3
"""The pseudo-labelled real photos (pseudo_label.py's scenes.jsonl) in a compact form a training machine can
carry: each photo in grey, brought to the detector's input size at --long-side (the largest it will train at:
train_detector.py brings it down again for a smaller one) as a JPEG, and a scenes.jsonl whose quads are in
those pixels and whose paths are relative to it (train_detector.py --real reads both). A source with more than
--max-per-source photos (the panel meters: 918 of 1,129) gives a seeded sample of that many, to fit the carry.

    python Training/gpu/pack_real.py --scenes Training/work/gpu/pseudo/scenes.jsonl --long-side 512 --out DIR
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import defaultdict

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import load_rgb, to_grey  # noqa: E402
from detector_data import detector_input  # noqa: E402

QUALITY = 85
SEED = 41


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", required=True)
    ap.add_argument("--long-side", type=int, default=512)
    ap.add_argument("--max-per-source", type=int, default=300)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(os.path.join(args.out, "photos"), exist_ok=True)
    by_source = defaultdict(list)
    for line in open(args.scenes):
        row = json.loads(line)
        by_source[row["source"]].append(row)
    rng = random.Random(SEED)
    rows = []
    for source in sorted(by_source):
        kept = by_source[source]
        if len(kept) > args.max_per_source:
            kept = rng.sample(kept, args.max_per_source)
        print(f"{source}: {len(kept)} of {len(by_source[source])}")
        rows += kept
    with open(os.path.join(args.out, "scenes.jsonl"), "w") as out:
        for i, s in enumerate(rows):
            grey = to_grey(load_rgb(s["path"]))
            img, sx, sy = detector_input(grey, args.long_side)
            name = f"photos/{i:05d}.jpg"
            Image.fromarray(img).save(os.path.join(args.out, name), quality=QUALITY)
            lines = [{"quad": (np.array(l["quad"]) / np.array([sx, sy])).tolist(), "cls": l["cls"]} for l in s["lines"]]
            out.write(json.dumps({"path": name, "source": s["source"], "lines": lines}) + "\n")
    print(f"{len(rows)} photos at a long side of {args.long_side} -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
