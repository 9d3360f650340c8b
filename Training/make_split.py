#!/usr/bin/env python3
"""Writes Training/split.tsv: which photos of each ../shared/data/photos folder may be trained on.

About half of every folder is `train`; the other half is `held`: never trained on, never used to pick a
threshold, only reported. Photos of one scene go to the same half (a scene is what the group key below
names), so a held photo never has a near-twin in training. The order is a SHA-256 of folder and group key,
so the split does not depend on file order and never changes when the script is run again.

    python3 Training/make_split.py [PHOTOS_DIR]        # default ../shared/data/photos
"""
import csv
import hashlib
import os
import re
import sys


def group_key(folder: str, file: str, reading: str) -> str:
    if folder == "bp-fields-binarized":
        # 1001_<photo id>_dia.jpg: the three fields of one photo are one scene.
        return file.split("_")[1]
    if folder == "bp-paramed":
        # 20260502_172559.jpg: photos of one day are one sitting (same light, same place).
        m = re.match(r"(\d{8})_", file)
        return m.group(1) if m else file
    if folder in ("glucose-morepen", "electricity-meter"):
        # Photos showing the same reading are likely the same scene taken twice.
        return reading
    # fuel-pump: every photo is its own scene; its quality class keeps both halves alike.
    return file


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "photos")
    if not os.path.isdir(root):
        sys.exit(f"no photos folder at {root}")
    rows = []
    for folder in sorted(os.listdir(root)):
        labels = os.path.join(root, folder, "labels.tsv")
        if not os.path.isfile(labels):
            continue
        with open(labels, newline="") as f:
            items = [(r["file"], r["reading"]) for r in csv.DictReader(f, delimiter="\t")]
        groups: dict[str, list[str]] = {}
        for file, reading in items:
            prefix = file.split("_")[0] if folder == "fuel-pump" else ""
            groups.setdefault(prefix + "|" + group_key(folder, file, reading), []).append(file)
        order = sorted(groups, key=lambda k: hashlib.sha256(f"{folder}/{k}".encode()).hexdigest())
        # Balanced per stratum (fuel-pump's quality prefix; one stratum elsewhere).
        counts: dict[tuple[str, str], int] = {}
        for key in order:
            stratum = key.split("|")[0]
            train, held = counts.get((stratum, "train"), 0), counts.get((stratum, "held"), 0)
            half = "train" if train <= held else "held"
            counts[(stratum, half)] = counts.get((stratum, half), 0) + len(groups[key])
            rows += [(folder, file, half) for file in sorted(groups[key])]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "split.tsv")
    with open(out, "w") as f:
        f.write("folder\tfile\thalf\n")
        for folder, file, half in sorted(rows):
            f.write(f"{folder}\t{file}\t{half}\n")
    for folder in sorted({r[0] for r in rows}):
        n = [r for r in rows if r[0] == folder]
        print(f"{folder}: {sum(r[2] == 'train' for r in n)} train, {sum(r[2] == 'held' for r in n)} held")


if __name__ == "__main__":
    main()
