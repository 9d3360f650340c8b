#!/usr/bin/env python3
"""Step 5: find the value lines in the real training photos with the first models, keeping only those whose
reading agrees with the photo's label.

    python Training/pseudo_label.py --detector Training/work/detector-r1.pt --recognizer Training/work/recognizer-r1.pt \
        --out Training/work/pseudo

Writes OUT/lines.tsv (line crops for the recognizer: image, quad, text) and OUT/scenes.jsonl (photos for the
detector: the agreeing value lines as `value`, the other lines the detector found as "don't care", since
nobody labelled them). Only the `train` halves of Training/split.tsv are read. A photo of a BP monitor gives
each of its three values as a line only where the recognizer read that value; a fuel pump's label is the
litres rounded to an integer, so its line keeps the recognizer's own text (33.01) when that rounds to the label
and the recognizer was sure of it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter

import numpy as np

from common import Quad, load_grey, pyramid, text_is_encodable
from detector_data import IGNORE
from infer import detect, load_detector, load_recognizer, read_line
from label_search import find_value, near_region, search_photo
from real_data import agrees, line_match_rule, panel_meter_lines, photo_rows, photo_scenes, whole_image_lines, whole_image_quad

# A reading that only agrees with an integer label must be this sure before its decimals are trusted. (0.6 kept
# 94 of the 221 fuel pumps' lines, the ones the recognizer already read well; 0.2 keeps 181, 169 of them with the
# display's two decimals (below), and a look at 24 of those below 0.6 found their decimals right, though some
# lines were cut off inside their last digit.)
INTEGER_LABEL_CONFIDENCE = 0.2
# ...and must show as many decimals as the display does (photos/README.md: the fuel pump shows litres with
# two): a line cut short in its last digit reads `23.0` for 23.01.
INTEGER_LABEL_DECIMALS = {"fuel-pump": 2}
# The largest lines a photo is searched for its values in (a photo shows a handful of values at most).
LINES_PER_PHOTO = 12
# The recognizer's temperature while searching for a value the lines missed (1: its own, uncalibrated
# probabilities, which are less sure than the calibrated ones; label_search.SEARCH_CONFIDENCE applies to them).
SEARCH_TEMPERATURE = 1.0


def taught_text(read: str, label: str, match: str) -> str:
    """The text a line that agrees with its label teaches: what it reads where the label says less than the
    display (an integer label, or one judged by its digits), else the label."""
    if match == "integer":
        return read
    if match == "digits":
        return digits_label_text(read, label)
    return label


def acceptor(label: str, match: str):
    """What a line searched for (label_search) must read to be this value, and the text it teaches."""
    return lambda t: taught_text(t, label, match) if agrees(t, label, match) else None


def digits_label_text(read: str, label: str) -> str:
    """What a line judged by its digits teaches (its label may leave out the decimal point or leading zeros the
    display shows, never add them): the text read, which agreed with the label and has the point where the
    display does; the label where only it has the point; either with any leading zeros only the other has."""
    def leading_zeros(text: str) -> int:
        digits = "".join(c for c in text if c.isdigit())
        return len(digits) - len(digits.lstrip("0"))
    if not all(c.isdigit() or c == "." for c in read) or read.count(".") > 1:
        return label  # a reading with more than a number's characters agreed by its digits alone
    base, other = (label, read) if "." in label and "." not in read else (read, label)
    return "0" * max(0, leading_zeros(other) - leading_zeros(base)) + base


def decimals(text: str) -> int:
    return len(text) - text.index(".") - 1 if "." in text else 0


def quad_text(q: Quad) -> str:
    return ",".join(f"{v:.2f}" for v in q.pts.reshape(-1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--detector", required=True)
    ap.add_argument("--recognizer", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="pseudo-label only this source (a quick look; the line crops are skipped)")
    ap.add_argument("--no-search", action="store_true", help="keep only the detector's lines (no label_search)")
    ap.add_argument("--integer-label-confidence", type=float, default=INTEGER_LABEL_CONFIDENCE,
                    help="how sure a reading that only agrees with an integer label must be (default %(default)s)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    detector, recognizer = load_detector(args.detector), load_recognizer(args.recognizer)
    matches = {row["file"]: row.get("match", "exact") for f in ("fuel-pump", "glucose-morepen", "bp-paramed") for row in photo_rows(f)}
    stats = Counter()
    lines_out = open(os.path.join(args.out, "lines.tsv"), "w")
    lines_out.write("path\ttext\tsource\tgroup\tquad\n")
    scenes_out = open(os.path.join(args.out, "scenes.jsonl"), "w")

    scenes = [s for s in photo_scenes() if args.only in (None, s.source)]
    for n, scene in enumerate(scenes):
        if n % 100 == 0:
            print(f"{n}/{len(scenes)} photos", flush=True)
        grey = load_grey(scene.path)
        levels = pyramid(grey)
        found = sorted(detect(detector, grey), key=lambda d: -d.cells)[:LINES_PER_PHOTO]
        values = scene.label.split("/")
        match = matches.get(os.path.basename(scene.path), "exact")
        taught, agreeing = [], {}  # value index -> (the line that reads it, the text it teaches)
        for line in found:
            text, prob = read_line(recognizer, grey, line.quad)
            for i, v in enumerate(values):
                if i in agreeing or not agrees(text, v, match):
                    continue
                shown = INTEGER_LABEL_DECIMALS.get(scene.source, decimals(text))
                if match == "integer" and (prob < args.integer_label_confidence or decimals(text) != shown):
                    continue
                agreeing[i] = (line.quad, taught_text(text, v, match))
                break
            else:
                taught.append({"quad": line.quad.pts.tolist(), "cls": IGNORE})
        placed = {}  # value index -> (quad, text)
        search = not args.no_search and not scene.values
        for i, (quad, keep) in agreeing.items():
            # The detector's line reads the value, but its ends or height may be off (two rows taken for one):
            # the value is located again around it as the search locates one, and the line kept where that fails.
            # (A fuel pump's integer label cannot tell its line's ends: that line is looked for as it was read.)
            accepts = (lambda t, keep=keep: keep if t == keep else None) if match == "integer" else acceptor(values[i], match)
            hit = find_value(recognizer, grey, levels, [near_region(quad)], accepts, SEARCH_TEMPERATURE,
                             [q for q, _ in placed.values()]) if search else None
            placed[i] = hit or (quad, keep)
            stats[(scene.source, "values read")] += 1
            stats[(scene.source, "values located again")] += hit is not None
        for i in range(len(values)) if search and match != "integer" else []:
            if i in placed:
                continue
            hit = search_photo(recognizer, grey, levels, [f.quad for f in found], acceptor(values[i], match),
                               SEARCH_TEMPERATURE, [q for q, _ in placed.values()])
            if hit is not None:
                placed[i] = hit
                stats[(scene.source, "values searched")] += 1
        for quad, keep in placed.values():
            if text_is_encodable(keep):
                lines_out.write(f"{scene.path}\t{keep}\t{scene.source}\t{scene.group}\t{quad_text(quad)}\n")
            # A line the detector found across a value (two rows taken for one) is no longer "don't care".
            taught = [t for t in taught if not Quad(np.array(t["quad"])).meets(quad)]
        taught += [{"quad": quad.pts.tolist(), "cls": 1} for quad, _ in placed.values()]
        for q in scene.values:  # a box somebody drew (panel meters): the value, whatever the models found
            taught = [t for t in taught if not _overlaps(Quad(np.array(t["quad"])), q)]
            taught.append({"quad": q.pts.tolist(), "cls": 1})
        agreed = len(placed)
        stats[(scene.source, "values agreed")] += agreed
        stats[(scene.source, "values")] += len(values)
        if agreed or scene.values:
            scenes_out.write(json.dumps({"path": scene.path, "source": scene.source, "lines": taught}) + "\n")
            stats[(scene.source, "scenes kept")] += 1

    # Line crops whose whole image is the line: the detector's quad where the reading agrees, else the whole
    # image's own quad where that reading agrees.
    for example in whole_image_lines() if args.only is None else []:
        grey = load_grey(example.path)
        match = line_match_rule(example.source)
        quads = [line.quad for line in sorted(detect(detector, grey), key=lambda d: -d.cells)[:LINES_PER_PHOTO]
                 if line.cls == 1]
        quads.append(whole_image_quad(example.source, grey.shape[1], grey.shape[0]))
        best = taught = None
        for quad in quads:
            text, _ = read_line(recognizer, grey, quad)
            if agrees(text, example.text, match):
                best, taught = quad, taught_text(text, example.text, match)
                break
        stats[(example.source, "line crops")] += 1
        if best is not None:
            stats[(example.source, "located")] += 1
            lines_out.write(f"{example.path}\t{taught}\t{example.source}\t{example.group}\t{quad_text(best)}\n")
    lines_out.close()
    scenes_out.close()
    for key in sorted(stats):
        print(f"{key[0]:>22}  {key[1]:<14} {stats[key]}")


def _overlaps(a: Quad, b: Quad) -> bool:
    c = a.center - b.center
    e = b.direction
    n = np.array([-e[1], e[0]])
    return abs(c @ e) <= b.length / 2 and abs(c @ n) <= b.height


if __name__ == "__main__":
    sys.exit(main())
