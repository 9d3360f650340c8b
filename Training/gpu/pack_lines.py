#!/usr/bin/env python3
"""The recognizer's real lines for a training machine that has no ../shared: every labelled real line
(real_data.panel_meter_lines, whole_image_lines), every pseudo-labelled one (--pseudo, pseudo_label.py's
lines.tsv) and the single-digit crops (real_data.digit_crops), each line cut from its photo with room around it for
the sampler's jitter and brought down to at most MAX_LINE_HEIGHT pixels of line height. Written as JPEG and PNG files
with OUT/lines.tsv (path, text, source, group, quad in the crop's pixels, dots_optional, the source's match
rule) and OUT/digits.tsv (style, path, digit); `train_recognizer.py --packed-lines OUT` reads them instead of ../shared.

The validation share of the labelled lines (real_data.is_validation) travels too: train_recognizer.py keeps it
out of training as it does at home and reports on it. The held halves of photos/ are never read here
(photo_rows and pseudo_label.py read the train halves only).

    python Training/gpu/pack_lines.py --pseudo Training/work/pseudo-c0/lines.tsv --out Training/work/gpu-lines
"""
from __future__ import annotations

import argparse
import csv
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import TRAINING, Quad, load_rgb  # noqa: E402
from line_examples import CACHE_LONG_SIDE, COLOUR_JITTER_MAX_PIXELS  # noqa: E402
from real_data import digit_crops, labelled_lines, match_rules, read_lines_tsv, whole_image_quad  # noqa: E402

# Room kept around a line, in line heights, on every side: the sampler's jitter moves an end by up to 0.6 of a
# height, scales the height by up to 1.2 and the crop shows 1.6 heights (common.crop_line), so 1.5 leaves margin.
MARGIN_HEIGHTS = 1.5
# Lines are kept at most this tall: the crop's digits are 20 px (common.CROP_DIGIT_HEIGHT), and crop_line halves
# a line over twice that before it samples it, so a taller one gives the crop no more detail.
MAX_LINE_HEIGHT = 48
# The crops are stored as JPEG at this quality (the photos were JPEGs; the sampler adds JPEG noise of its own):
# about a third of their size as PNG. Lines from small images stay lossless: on the electricity meter's
# one-line images (a few thousand pixels each) JPEG's noise cost the committed recognizer 4 of its 36
# validation lines, and the binarized BP fields are black and white.
LINE_JPEG_QUALITY = 90
LOSSLESS_MAX_PIXELS = 40_000
# Digit crops are kept at most this tall, in grey (the height LineSampler.composed brings them to), as JPEG.
DIGIT_HEIGHT = 64


def cut(rgb: np.ndarray, quad: Quad) -> tuple[np.ndarray, Quad]:
    """The part of the image around `quad` (MARGIN_HEIGHTS), scaled so the line is at most MAX_LINE_HEIGHT tall,
    and the quad in its pixels."""
    pts = quad.pts
    m = MARGIN_HEIGHTS * quad.height
    x0 = max(0, int(np.floor(pts[:, 0].min() - m)))
    y0 = max(0, int(np.floor(pts[:, 1].min() - m)))
    x1 = min(rgb.shape[1], int(np.ceil(pts[:, 0].max() + m)))
    y1 = min(rgb.shape[0], int(np.ceil(pts[:, 1].max() + m)))
    part = rgb[y0:y1, x0:x1]
    local = pts - np.array([x0, y0], dtype=float)
    scale = min(1.0, MAX_LINE_HEIGHT / max(quad.height, 1e-6))
    if scale < 1.0:
        size = (max(1, round(part.shape[1] * scale)), max(1, round(part.shape[0] * scale)))
        part = np.asarray(Image.fromarray(part).resize(size, Image.BOX))
        local = local * np.array([size[0] / (x1 - x0), size[1] / (y1 - y0)])
    return part, Quad(local)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pseudo", action="append", default=[], help="pseudo_label.py's lines.tsv (one or more)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(os.path.join(args.out, "lines"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "digits"), exist_ok=True)
    labelled = labelled_lines()
    examples = labelled + [e for p in args.pseudo for e in read_lines_tsv(p)]
    rules = match_rules(e.source for e in examples)  # how train_recognizer.py judges each source
    rows = []
    path, rgb = None, None
    for k, e in enumerate(examples):
        if e.path != path:  # the examples of a photo come together: one decoded at a time
            path, rgb = e.path, load_rgb(e.path)
        grey_only = rgb.shape[0] * rgb.shape[1] > COLOUR_JITTER_MAX_PIXELS or max(rgb.shape[:2]) > CACHE_LONG_SIDE
        quad = e.quad if e.quad is not None else whole_image_quad(e.source, rgb.shape[1], rgb.shape[0])
        part, local = cut(rgb, quad)
        img = Image.fromarray(part)
        if grey_only:  # the sampler's colour jitter is for small images only (line_examples.ImageCache.get_colour)
            img = img.convert("L")
        if rgb.shape[0] * rgb.shape[1] <= LOSSLESS_MAX_PIXELS:
            name = f"lines/{k:05d}.png"
            img.save(os.path.join(args.out, name))
        else:
            name = f"lines/{k:05d}.jpg"
            img.save(os.path.join(args.out, name), quality=LINE_JPEG_QUALITY)
        quad_text = ",".join(f"{v:.2f}" for v in local.pts.reshape(-1))
        rows.append((name, e.text, e.source, e.group, quad_text, "1" if e.dots_optional else "0", rules[e.source]))
    with open(os.path.join(args.out, "lines.tsv"), "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, lineterminator="\n")
        w.writerow(("path", "text", "source", "group", "quad", "dots_optional", "rule"))
        w.writerows(rows)
    digits = []
    for style, crops in sorted(digit_crops().items()):
        os.makedirs(os.path.join(args.out, "digits", style), exist_ok=True)
        for path, digit in crops:
            name = os.path.splitext(os.path.join("digits", style, os.path.relpath(path, os.path.join(TRAINING, style))))[0] + ".jpg"
            os.makedirs(os.path.dirname(os.path.join(args.out, name)), exist_ok=True)
            im = Image.open(path).convert("L")  # line_examples.LineSampler.composed reads them in grey...
            if im.height > DIGIT_HEIGHT:  # ...and brings them to DIGIT_HEIGHT rows
                im = im.resize((max(1, round(im.width * DIGIT_HEIGHT / im.height)), DIGIT_HEIGHT), Image.BOX)
            im.save(os.path.join(args.out, name), quality=LINE_JPEG_QUALITY)
            digits.append((style, name, digit))
    with open(os.path.join(args.out, "digits.tsv"), "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, lineterminator="\n")
        w.writerow(("style", "path", "digit"))
        w.writerows(digits)
    print(f"{len(rows)} real lines ({len(labelled)} labelled, {len(rows) - len(labelled)} pseudo-labelled) and "
          f"{len(digits)} digit crops -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
