"""The labelled real images, as training examples for the two models.

Sources (all read from ../shared/data at run time; nothing is copied into the repository):
- photos/: only the files Training/split.tsv marks `train`; the `held` half is never read here.
- training/panel-meters: the reading's box is in each row's notes (Label Studio: top-left corner, size,
  rotation clockwise about that corner).
- training/: line crops (gaspump-kazmiekr `line_*`, multimeter-jiweibo) and single digits
  (lcd-digits-kazuhito, led-digits-ardenjay, gaspump-digits-kazmiekr), which are put side by side into lines.

A fifth of every source (by scene) is kept for validation: calibration and the reading threshold are chosen
there, never on the held halves.
"""
from __future__ import annotations

import csv
import functools
import hashlib
import math
import os
import re
from dataclasses import dataclass, field, replace

import numpy as np

from common import PHOTOS, TRAINING, Quad, read_labels, read_split, text_is_encodable

VALIDATION_SHARE = 0.2

# Share of a whole-image line crop's height that its characters fill (measured by eye on a few of each).
WHOLE_IMAGE_DIGIT_SHARE = {
    "electricity-meter": 0.78,
    "bp-fields-binarized": 0.88,
    "gaspump-kazmiekr": 0.72,
    "multimeter-jiweibo": 0.55,
}


@dataclass
class LineExample:
    path: str
    text: str
    source: str
    group: str
    # The line's corners; None when the whole image is the line (see WHOLE_IMAGE_DIGIT_SHARE).
    quad: Quad | None = None
    # The text leaves out the decimal points the line may show (a label judged by its digits): the recognizer
    # learns it with a decimal point read anywhere counted as a blank (train_recognizer.ctc_log_probs).
    dots_optional: bool = False


@dataclass
class SceneExample:
    """A real photo for the detector: the value lines found in it (pseudo-labelled or from a box)."""

    path: str
    source: str
    group: str
    label: str
    values: list[Quad] = field(default_factory=list)


def is_validation(source: str, group: str) -> bool:
    h = int(hashlib.sha256(f"val/{source}/{group}".encode()).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < VALIDATION_SHARE


def panel_meter_box(notes: str) -> Quad | None:
    m = re.search(r"box x,y,w,h=([\d.]+),([\d.]+),([\d.]+),([\d.]+) px.*?rotation ([-\d.]+) deg", notes)
    if not m:
        return None
    x, y, w, h, r = (float(v) for v in m.groups())
    a = math.radians(r)
    e = np.array([math.cos(a), math.sin(a)])
    d = np.array([-math.sin(a), math.cos(a)])
    p0 = np.array([x, y])
    # The boxes were drawn around the reading with a little room: the digits fill about 85% of their height.
    quad = Quad(np.array([p0, p0 + w * e, p0 + w * e + h * d, p0 + h * d]))
    return Quad.from_geometry(quad.center, quad.direction, quad.length, quad.height * 0.85)


def panel_meter_lines() -> list[LineExample]:
    folder = os.path.join(TRAINING, "panel-meters")
    out = []
    for row in read_labels(folder):
        quad = panel_meter_box(row["notes"])
        if quad is None or not text_is_encodable(row["reading"]):
            continue
        out.append(LineExample(os.path.join(folder, row["file"]), row["reading"], "panel-meters", row["file"], quad))
    return out


def photo_rows(folder: str) -> list[dict]:
    """The `train` half of a photos/ folder."""
    split = read_split()
    return [r for r in read_labels(os.path.join(PHOTOS, folder)) if split.get((folder, r["file"])) == "train"]


def normalised(v: str) -> str:
    sign = "-" if v.startswith("-") else ""
    v = v.lstrip("-")
    while len(v) > 1 and v[0] == "0" and v[1] != ".":
        v = v[1:]
    return sign + v


def agrees(read: str, label: str, match: str) -> bool:
    """One value against one label value, as MatchRule compares them."""
    if match == "digits":
        a = "".join(c for c in read if c.isdigit()).lstrip("0") or ("0" if read else "")
        b = "".join(c for c in label if c.isdigit()).lstrip("0") or ("0" if label else "")
        return a != "" and a == b
    if match == "integer":
        try:
            return int(np.floor(float(read) + 0.5)) == int(float(label))
        except ValueError:
            return False
    return normalised(read) == normalised(label)


@functools.lru_cache(maxsize=None)
def line_match_rule(source: str) -> str:
    """How a line's reading is compared with its text: `digits` for a photos/ folder whose labels.tsv compares
    digits (electricity-meter, whose labels sometimes leave out the decimal point the display shows), else
    `exact`. (An `integer` folder's lines carry the text they were read as, so they compare exactly.)"""
    folder = os.path.join(PHOTOS, source)
    rows = read_labels(folder) if os.path.isfile(os.path.join(folder, "labels.tsv")) else []
    return "digits" if rows and all(r.get("match") == "digits" for r in rows) else "exact"


def whole_image_lines() -> list[LineExample]:
    out = []
    for folder in ("electricity-meter", "bp-fields-binarized"):
        for row in photo_rows(folder):
            text = row["reading"]
            if text_is_encodable(text):
                group = row["file"].split("_")[1] if folder == "bp-fields-binarized" else text
                out.append(LineExample(os.path.join(PHOTOS, folder, row["file"]), text, folder, group))
    gas = os.path.join(TRAINING, "gaspump-kazmiekr")
    for row in read_labels(gas):
        if row["file"].startswith("line_") and text_is_encodable(row["reading"]):
            # Scenes are named by their reading (the loose crops show the same ones).
            out.append(LineExample(os.path.join(gas, row["file"]), row["reading"], "gaspump-kazmiekr", row["reading"]))
    meter = os.path.join(TRAINING, "multimeter-jiweibo")
    for row in read_labels(meter):
        if text_is_encodable(row["reading"]):
            out.append(LineExample(os.path.join(meter, row["file"]), row["reading"], "multimeter-jiweibo", row["file"]))
    return out


def labelled_lines() -> list[LineExample]:
    """Every labelled real line (panel meters, one-line images) as the recognizer learns it. A label judged by
    its digits may leave out the decimal point its line shows: it teaches its digits with any decimal point read
    counted as a blank (train_recognizer.ctc_log_probs). Its pseudo-labelled line, where there is one, teaches
    the text read, decimal point included (pseudo_label.digits_label_text)."""
    lines = panel_meter_lines() + whole_image_lines()
    rules = match_rules(e.source for e in lines)
    return [replace(e, text=e.text.replace(".", ""), dots_optional=True) if rules[e.source] == "digits" else e
            for e in lines]


def match_rules(sources) -> dict[str, str]:
    """Each source's `line_match_rule`, worked out once per source (it reads the source's labels)."""
    return {source: line_match_rule(source) for source in set(sources)}


def read_lines_tsv(path: str, base: str | None = None) -> list[LineExample]:
    """A lines.tsv of real lines: pseudo_label.py's, or pack_lines.py's, whose paths are relative to `base` and
    which says which texts leave out decimal points."""
    out = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            pts = np.array([float(v) for v in row["quad"].split(",")]).reshape(4, 2)
            image = os.path.join(base, row["path"]) if base else row["path"]
            out.append(LineExample(image, row["text"], row["source"], row["group"], Quad(pts),
                                   dots_optional=row.get("dots_optional") == "1"))
    return out


def whole_image_quad(source: str, width: int, height: int) -> Quad:
    share = WHOLE_IMAGE_DIGIT_SHARE.get(source, 0.8)
    return Quad.from_geometry((width / 2, height / 2), (1.0, 0.0), width * 0.96, height * share)


def digit_crops() -> dict[str, list[tuple[str, str]]]:
    """Single-digit crops per display style: (path, digit or '' for a blank position)."""
    styles: dict[str, list[tuple[str, str]]] = {}
    for folder in ("lcd-digits-kazuhito", "led-digits-ardenjay", "gaspump-digits-kazmiekr"):
        path = os.path.join(TRAINING, folder)
        for row in read_labels(path):
            text = row["reading"]
            if text == "" or (len(text) == 1 and text.isdigit()):
                styles.setdefault(folder, []).append((os.path.join(path, row["file"]), text))
    return styles


def digit_group(folder: str, file: str) -> str:
    """Scene of a digit crop: the photo it was cut from where the name tells (led: `tr0_0000-1` -> `0000`)."""
    if folder == "led-digits-ardenjay":
        return file.split("_")[1].split("-")[0]
    return file


def photo_scenes() -> list[SceneExample]:
    """The `train` halves of the photo folders whose images are whole scenes (boxes come from pseudo-labels)."""
    out = []
    for folder in ("fuel-pump", "glucose-morepen", "bp-paramed"):
        for row in photo_rows(folder):
            group = row["file"].split("_")[0] if folder == "bp-paramed" else row["file"]
            out.append(SceneExample(os.path.join(PHOTOS, folder, row["file"]), folder, group, row["reading"]))
    for line in panel_meter_lines():
        out.append(SceneExample(line.path, "panel-meters", line.group, line.text, [line.quad]))
    return out


if __name__ == "__main__":
    lines = panel_meter_lines() + whole_image_lines()
    print("line examples:", len(lines), {s: sum(1 for l in lines if l.source == s) for s in sorted({l.source for l in lines})})
    print("validation share:", sum(is_validation(l.source, l.group) for l in lines) / len(lines))
    print("digit crops:", {k: len(v) for k, v in digit_crops().items()})
    print("scenes:", len(photo_scenes()))
