"""The orienter's view of a photo, and the photos it learns from.

The orienter tells which way up a whole photo is: class k means the display is turned clockwise by k quarter
turns from upright (0 upright, 1 a quarter clockwise, 2 upside down, 3 a quarter counter-clockwise), so
turning the photo counter-clockwise by k quarter turns (np.rot90(img, k)) stands it upright.

Input (OrienterConvention in Swift): the grey photo resized so that its long side is ORIENTER_SIDE (the short
side scaled alike, at least 1 pixel) with GrayImage.resize, centred on an ORIENTER_SIDE square filled with
grey ORIENTER_FILL (which standardises to 0), values (p - 128) / 64 as for the detector.

Examples:
- generated scenes (`vitalsnap samples training-set`): their `quarter_turns` is the class;
- the real training photos (the `train` halves of photos/, panel meters, whole-image line crops): upright,
  except panel meters, whose labelled box gives the reading direction.
Every example is also shown turned by each quarter turn, with its class moved alike, so each source teaches
all four classes.
"""
from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

from common import to_grey
from detector_data import resize
from detector_data import standardise_photo as standardise  # the orienter's input values are the detector's
from real_data import is_validation, photo_scenes, whole_image_lines

ORIENTER_SIDE = 128
ORIENTER_FILL = 128
# Examples are cached at this long side, so that random crops still have pixels to spare at ORIENTER_SIDE.
CACHE_SIDE = 256


@dataclass
class OrientedExample:
    image: np.ndarray   # grey, long side at most CACHE_SIDE, as stored (turned by `turns`)
    turns: int          # quarter turns clockwise from upright
    source: str
    validation: bool


def fitted_size(width: int, height: int, side: int = ORIENTER_SIDE) -> tuple[int, int]:
    """OrienterConvention.fittedSize: the long side `side`, the short side scaled alike (rounded, at least 1)."""
    long = max(width, height)
    scale = side / long

    def short(n: int) -> int:
        return max(1, int(math.floor(n * scale + 0.5)))

    return (side, short(height)) if width >= height else (short(width), side)


def orienter_input(grey: np.ndarray) -> np.ndarray:
    """ORIENTER_SIDE x ORIENTER_SIDE uint8: the photo fitted and centred on a grey square."""
    h, w = grey.shape
    fw, fh = fitted_size(w, h)
    small = resize(grey, fw, fh)
    out = np.full((ORIENTER_SIDE, ORIENTER_SIDE), ORIENTER_FILL, dtype=np.uint8)
    y0, x0 = (ORIENTER_SIDE - fh) // 2, (ORIENTER_SIDE - fw) // 2
    out[y0 : y0 + fh, x0 : x0 + fw] = small
    return out


def _cached(path: str, rng: random.Random | None) -> np.ndarray:
    with Image.open(path) as im:
        if im.format == "JPEG":
            im.draft("RGB", (CACHE_SIDE * 2, CACHE_SIDE * 2))  # decode at a reduced size: much faster
        im = ImageOps.exif_transpose(im)
        grey = to_grey(np.asarray(im.convert("RGB")), rng)
    h, w = grey.shape
    if max(h, w) > CACHE_SIDE:
        s = CACHE_SIDE / max(h, w)
        grey = resize(grey, max(1, round(w * s)), max(1, round(h * s)))
    return grey


def direction_turns(direction: np.ndarray) -> int:
    """The quarter turns clockwise (y down) nearest to a reading direction (cos, sin)."""
    angle = math.degrees(math.atan2(direction[1], direction[0]))  # clockwise from the x axis in image coordinates
    return int(round(angle / 90.0)) % 4


def synthetic_examples(folder: str, validation: bool, limit: int | None = None) -> list[OrientedExample]:
    out = []
    with open(os.path.join(folder, "scenes.jsonl")) as f:
        for n, text in enumerate(f):
            if limit is not None and n >= limit:
                break
            s = json.loads(text)
            img = _cached(os.path.join(folder, s["file"]), random.Random(n))
            out.append(OrientedExample(img, int(s["quarter_turns"]) % 4, "synthetic", validation))
    return out


def real_examples() -> list[OrientedExample]:
    """The real training photos, each once (their validation fifth marked)."""
    seen = set()
    out = []
    rng = random.Random(5)
    # A scene with a labelled box (the panel meters) is turned as its reading runs; the rest are upright.
    items = [(s.path, s.source, s.group, s.values[0].direction if s.values else None) for s in photo_scenes()]
    items += [(l.path, l.source, l.group, None) for l in whole_image_lines()]
    for path, source, group, direction in items:
        if path in seen:
            continue
        seen.add(path)
        try:
            img = _cached(path, rng)
        except OSError:
            continue
        turns = direction_turns(direction) if direction is not None else 0
        out.append(OrientedExample(img, turns, source, is_validation(source, group)))
    return out


def turned(img: np.ndarray, turns: int, quarter_turns_ccw: int) -> tuple[np.ndarray, int]:
    """The image turned counter-clockwise by `quarter_turns_ccw`, and its class after the turn."""
    return np.ascontiguousarray(np.rot90(img, quarter_turns_ccw)), (turns - quarter_turns_ccw) % 4
