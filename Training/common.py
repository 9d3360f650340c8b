"""What every training step shares: paths, the alphabet, the line-crop convention, image loading.

The conventions are the ones Training/README.md states and the Swift reader follows (LineCropper,
ModelCharacterRecognizer); a change here is a change there.
"""
from __future__ import annotations

import csv
import functools
import math
import os
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("VITALSNAP_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
PHOTOS = os.path.join(SHARED, "data", "photos")
TRAINING = os.path.join(SHARED, "data", "training")
WORK = os.path.join(ROOT, "Training", "work")
MODELS = os.path.join(ROOT, "Models")

# CTC blank is class 0; these follow it.
ALPHABET = "0123456789.-:LOHIEro"
NUM_CLASSES = len(ALPHABET) + 1
CHAR_INDEX = {c: i + 1 for i, c in enumerate(ALPHABET)}

# The line crop (Training/README.md, "Line geometry and the crop convention").
CROP_HEIGHT = 32
CROP_DIGIT_TOP = 6
CROP_DIGIT_HEIGHT = 20
CROP_SIDE_MARGIN = 6
CROP_MIN_WIDTH = 16
CROP_MAX_WIDTH = 512
# The recognizer's standardisation: (x - mean) / max(std, CROP_MIN_STD).
CROP_MIN_STD = 8.0

# The detector's input: the photo brought to this long side (the default; a detector trained at another one says
# so: `--long-side` of train_detector.py, `vitalsnap.detector.long_side` in its file, which the Swift reader
# follows), both sides a multiple of DETECTOR_MULTIPLE.
DETECTOR_LONG_SIDE = 256
DETECTOR_MULTIPLE = 16
DETECTOR_STRIDE = 4
DETECTOR_CLASSES = ("background", "value", "auxiliary", "label")
ROLE_CLASS = {"value": 1, "clock": 2, "date": 2, "memory": 2, "unit": 3, "icon": 3}


def encode_text(text: str) -> list[int]:
    return [CHAR_INDEX[c] for c in text]


def text_is_encodable(text: str) -> bool:
    return all(c in CHAR_INDEX for c in text)


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


# ---------------------------------------------------------------------------------------------- images

def load_rgb(path: str) -> np.ndarray:
    """The image upright (EXIF orientation applied, as the Swift decoder does), H x W x 3 uint8."""
    with Image.open(path) as im:
        im = ImageOps.exif_transpose(im)
        return np.asarray(im.convert("RGB"))


def to_grey(rgb: np.ndarray, rng: random.Random | None = None) -> np.ndarray:
    """ITU-R 601 luma (what libjpeg's greyscale output gives); with `rng`, channel weights jittered around
    it, so the models do not depend on one colour-to-grey conversion (libpng's differs)."""
    w = np.array([0.299, 0.587, 0.114])
    if rng is not None:
        w = w * np.array([rng.uniform(0.6, 1.4) for _ in range(3)])
        w = w / w.sum()
    grey = rgb.astype(np.float32) @ w.astype(np.float32)
    return np.clip(grey + 0.5, 0, 255).astype(np.uint8)


def load_grey(path: str) -> np.ndarray:
    return to_grey(load_rgb(path))


def halve(img: np.ndarray) -> np.ndarray:
    """2x2 average rounded half up, odd last row/column dropped (ImagePyramid.halve)."""
    h, w = img.shape[0] // 2, img.shape[1] // 2
    a = img[: 2 * h, : 2 * w].astype(np.uint16)
    s = a[0::2, 0::2] + a[0::2, 1::2] + a[1::2, 0::2] + a[1::2, 1::2]
    return ((s + 2) >> 2).astype(np.uint8)


def bilinear(img: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Samples `img` at integer-centred coordinates, clamped to the image (edge pixels repeat)."""
    h, w = img.shape
    x = np.clip(xs, 0, w - 1)
    y = np.clip(ys, 0, h - 1)
    x0 = np.floor(x).astype(np.int64)
    y0 = np.floor(y).astype(np.int64)
    x1 = np.minimum(x0 + 1, w - 1)
    y1 = np.minimum(y0 + 1, h - 1)
    fx = x - x0
    fy = y - y0
    f = img.astype(np.float64)
    top = f[y0, x0] + (f[y0, x1] - f[y0, x0]) * fx
    bottom = f[y1, x0] + (f[y1, x1] - f[y1, x0]) * fx
    return np.clip(top + (bottom - top) * fy + 0.5, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------- lines

@dataclass
class Quad:
    """A line's corners in reading order: top-left, top-right, bottom-right, bottom-left (continuous
    coordinates: pixel (i, j) covers [i, i+1) x [j, j+1))."""

    pts: np.ndarray  # 4 x 2

    @staticmethod
    def from_box(x: float, y: float, w: float, h: float) -> "Quad":
        return Quad(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float64))

    @staticmethod
    def from_geometry(center, direction, length: float, height: float) -> "Quad":
        c = np.asarray(center, dtype=np.float64)
        e = np.asarray(direction, dtype=np.float64)
        e = e / np.linalg.norm(e)
        d = np.array([-e[1], e[0]])
        hl, hh = length / 2, height / 2
        return Quad(np.array([c - hl * e - hh * d, c + hl * e - hh * d, c + hl * e + hh * d, c - hl * e + hh * d]))

    @property
    def center(self) -> np.ndarray:
        return self.pts.mean(axis=0)

    @property
    def direction(self) -> np.ndarray:
        left = (self.pts[0] + self.pts[3]) / 2
        right = (self.pts[1] + self.pts[2]) / 2
        v = right - left
        n = np.linalg.norm(v)
        return v / n if n > 0 else np.array([1.0, 0.0])

    @property
    def length(self) -> float:
        left = (self.pts[0] + self.pts[3]) / 2
        right = (self.pts[1] + self.pts[2]) / 2
        return float(np.linalg.norm(right - left))

    @property
    def height(self) -> float:
        top = (self.pts[0] + self.pts[1]) / 2
        bottom = (self.pts[3] + self.pts[2]) / 2
        return float(np.linalg.norm(bottom - top))

    def contains(self, point) -> bool:
        c = np.asarray(point) - self.center
        e = self.direction
        return abs(c @ e) <= self.length / 2 and abs(c @ np.array([-e[1], e[0]])) <= self.height / 2

    def meets(self, other: "Quad") -> bool:
        """Whether the two share area (tested on a grid of points of each, the edges included)."""
        def points(q: "Quad"):
            e = q.direction
            d = np.array([-e[1], e[0]])
            return [q.center + e * q.length * u + d * q.height * v for u in (-0.5, -0.25, 0, 0.25, 0.5) for v in (-0.5, 0, 0.5)]

        return any(other.contains(p) for p in points(self)) or any(self.contains(p) for p in points(other))

    def jittered(self, rng: random.Random, along=0.1, across=0.08, scale=(0.85, 1.2), degrees=3.0,
                 extend=(0.0, 0.6), pull=0.1) -> "Quad":
        """As a detector would err: shifted, scaled, turned a little, ends moved (see the generator)."""
        h = self.height
        e = self.direction
        d = np.array([-e[1], e[0]])
        angle = math.radians(rng.uniform(-degrees, degrees))
        e2 = np.array([e[0] * math.cos(angle) - e[1] * math.sin(angle), e[0] * math.sin(angle) + e[1] * math.cos(angle)])
        left_move = rng.uniform(-pull, extend[1]) * h if rng.random() < 0.7 else rng.uniform(-pull, extend[0] + 0.15) * h
        right_move = rng.uniform(-pull, extend[1]) * h if rng.random() < 0.7 else rng.uniform(-pull, extend[0] + 0.15) * h
        c = self.center + e * (right_move - left_move) / 2
        c = c + e * rng.uniform(-along, along) * h + d * rng.uniform(-across, across) * h
        return Quad.from_geometry(c, e2, self.length + left_move + right_move, h * rng.uniform(*scale))


# The other views a value line is read in before its reading is given (Swift: LineView, ViewAgreement), as
# (height scale, shift across in digit heights, length scale). The recognizer's errors are confident ones that
# move when the crop moves by a few pixels; a reading that stays is given. calibrate.py chooses the reading
# threshold with these views and export.py stores them in the recognizer's file.
AGREEMENT_VIEWS = ((1.12, 0.0, 1.0), (0.9, 0.0, 1.0), (1.0, 0.06, 1.0), (1.0, 0.0, 1.1))


def view_quad(quad: "Quad", view: tuple[float, float, float]) -> "Quad":
    height_scale, shift, length_scale = view
    e = quad.direction
    d = np.array([-e[1], e[0]])
    return Quad.from_geometry(quad.center + d * shift * quad.height, e, quad.length * length_scale,
                              quad.height * height_scale)


def crop_width(length: float, height: float) -> int:
    w = round(CROP_DIGIT_HEIGHT * length / max(height, 1e-6)) + 2 * CROP_SIDE_MARGIN
    w = int(math.ceil(w / 4) * 4)
    return max(CROP_MIN_WIDTH, min(CROP_MAX_WIDTH, w))


def pyramid(img: np.ndarray) -> list[np.ndarray]:
    """The image and its halvings down to a side of 2 (what crop_line halves to), for cutting many crops."""
    levels = [img]
    while min(levels[-1].shape) >= 2:
        levels.append(halve(levels[-1]))
    return levels


def crop_line(img: np.ndarray, quad: Quad, levels: list[np.ndarray] | None = None) -> np.ndarray:
    """The recognizer's view of a line: CROP_HEIGHT rows, the characters on rows 6-26 (LineCropper).
    `levels` (pyramid(img)) saves halving the image again for every crop."""
    h = quad.height
    W = crop_width(quad.length, h)
    s = h / CROP_DIGIT_HEIGHT
    c = quad.center.copy()
    e = quad.direction
    d = np.array([-e[1], e[0]])
    k = int(math.floor(math.log2(s))) if s > 2 else 0
    if levels is not None:
        halvings = min(k, len(levels) - 1)
        src = levels[halvings]
    else:
        src, halvings = img, 0
        while halvings < k and min(src.shape) >= 2:
            src, halvings = halve(src), halvings + 1
    scale = 2 ** halvings
    u = np.arange(W) + 0.5 - W / 2
    v = np.arange(CROP_HEIGHT) + 0.5 - CROP_HEIGHT / 2
    uu, vv = np.meshgrid(u, v)
    px = c[0] + s * uu * e[0] + s * vv * d[0]
    py = c[1] + s * uu * e[1] + s * vv * d[1]
    return bilinear(src, px / scale - 0.5, py / scale - 0.5)


def standardise(crop: np.ndarray) -> np.ndarray:
    x = crop.astype(np.float32)
    return (x - x.mean()) / max(float(x.std()), CROP_MIN_STD)


# ---------------------------------------------------------------------------------------------- labels

def read_labels(folder: str) -> list[dict]:
    """A folder's labels.tsv rows, less those `label-errata.tsv` lists: labels that a look at their photo
    showed to be wrong are neither trained on nor counted in validation (the Swift `eval` still reads every
    row, so the figures it reports are against the labels as published)."""
    path = os.path.join(folder, "labels.tsv")
    errata = label_errata().get(os.path.basename(os.path.normpath(folder)), set())
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE) if r["file"] not in errata]


@functools.lru_cache(maxsize=None)
def label_errata() -> dict[str, set[str]]:
    """folder -> files whose label is wrong (Training/label-errata.tsv, each with what its photo shows and how
    that was found). Only labels looked at because a model disagreed with them are in it, so it lowers the
    count of wrong validation lines a little below what every label looked at would."""
    out: dict[str, set[str]] = {}
    with open(os.path.join(ROOT, "Training", "label-errata.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            out.setdefault(row["folder"], set()).add(row["file"])
    return out


def read_split() -> dict[tuple[str, str], str]:
    """(folder, file) -> 'train' or 'held' from Training/split.tsv."""
    out = {}
    with open(os.path.join(ROOT, "Training", "split.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out[(row["folder"], row["file"])] = row["half"]
    return out


def require_shared() -> None:
    if not os.path.isdir(PHOTOS) or not os.path.isdir(TRAINING):
        raise SystemExit(f"the real photos are not at {SHARED}/data (set VITALSNAP_SHARED): they are needed to train")
