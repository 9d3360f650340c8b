#!/usr/bin/env python3
"""The validation photos: a split file that lets the Swift reader be measured on the fifth of every photo
folder's train half that no training script learns from (`real_data.is_validation`, by scene).

    python Training/validation_photos.py --out Training/work/validation-split.tsv
    vitalsnap eval ../shared/data/photos/<folder> -p <id> --reader model \
        --split held --split-file Training/work/validation-split.tsv [--min-confidence T]

In the file those photos are `held` and every other photo (the rest of the train half, and the real held half)
is `train`, so `--split held` reads the validation photos alone and never the held half. Unlike the validation
*lines* calibrate.py scores, which for the pseudo-labelled folders are only the lines an earlier model read
right (pseudo_label.py keeps those alone), every validation photo counts here, read or not: this is where a
reading threshold's wrong readings show as they will on new photos. (The detector learned from the
pseudo-labelled scenes of the whole train half, these photos included; the recognizer did not.)
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

from common import PHOTOS, read_labels
from real_data import is_validation, photo_scenes, whole_image_lines


def write_split(path: str) -> Counter:
    """Writes the split file (photos whose label is in label-errata.tsv are in neither half: `read_labels`
    leaves them out) and returns the validation photos per folder."""
    # The train halves of the photo folders (both lists read only those), without the training/ sources.
    examples = [e for e in photo_scenes() + whole_image_lines() if os.path.dirname(e.path) == os.path.join(PHOTOS, e.source)]
    chosen = {(e.source, os.path.basename(e.path)) for e in examples if is_validation(e.source, e.group)}
    counts = Counter()
    with open(path, "w") as out:
        out.write("folder\tfile\thalf\n")
        for folder in sorted({e.source for e in examples}):
            for row in read_labels(os.path.join(PHOTOS, folder)):
                validation = (folder, row["file"]) in chosen
                counts[folder] += validation
                out.write(f"{folder}\t{row['file']}\t{'held' if validation else 'train'}\n")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    print(f"{args.out}: validation photos {dict(write_split(args.out))}")


if __name__ == "__main__":
    sys.exit(main())
