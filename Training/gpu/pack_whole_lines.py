#!/usr/bin/env python3
"""The real one-line images (a reading line, a BP field: real_data.whole_image_lines, which
train_detector.py --whole-lines teaches as whole-image values) copied into a folder laid out as ../shared/data,
with their folders' labels.tsv, so a training machine reads them with VITALSNAP_SHARED pointing there. The
validation share stays behind (real_data.is_validation), as it does in training.

    python Training/gpu/pack_whole_lines.py --out Training/work/gpu/shared
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import SHARED  # noqa: E402
from real_data import is_validation, whole_image_lines  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    copied = 0
    folders = set()
    for example in whole_image_lines():
        if is_validation(example.source, example.group):
            continue
        rel = os.path.relpath(example.path, SHARED)
        os.makedirs(os.path.join(args.out, os.path.dirname(rel)), exist_ok=True)
        shutil.copyfile(example.path, os.path.join(args.out, rel))
        folders.add(os.path.dirname(rel))
        copied += 1
    for folder in folders:
        shutil.copyfile(os.path.join(SHARED, folder, "labels.tsv"), os.path.join(args.out, folder, "labels.tsv"))
    print(f"{copied} one-line images from {len(folders)} folders -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
