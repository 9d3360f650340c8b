"""The orienter's view of a photo, and the photos it learns from.

The orienter tells which way up a photo is: class k means the display is turned clockwise by k quarter
turns from upright (0 upright, 1 a quarter clockwise, 2 upside down, 3 a quarter counter-clockwise), so
turning the photo counter-clockwise by k quarter turns (np.rot90(img, k)) stands it upright.

What it sees (OrienterConvention in Swift): the part of the photo around the lines the detector found in it
(`line_region`: their box reaching REGION_MARGIN digit heights of the tallest line beyond them), or the whole
photo where it found none. The detector finds lines in any orientation; which way up they are is told from
the digits and what stands around them (the unit, the clock, the decimal point, printed words), and those are
large enough to see only in the display's own part of the photo: shrunk whole to 128 pixels, a display held at
arm's length shows digits two or three pixels tall.

Input: that part resized so that its long side is ORIENTER_SIDE (the short side scaled alike, at least 1
pixel) with GrayImage.resize, centred on an ORIENTER_SIDE square filled with grey ORIENTER_FILL (which
standardises to 0), values (p - 128) / 64 as for the detector.

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
# The part of the photo the orienter sees reaches this many digit heights (of the tallest line found) beyond
# the lines (the model file's `vitalsnap.orienter.region_margin`): the unit and icons beside the value, the clock
# below it, the printed words around the display.
REGION_MARGIN = 1.5
# Examples are cached at this long side, so that random crops still have pixels to spare at ORIENTER_SIDE.
CACHE_SIDE = 256
# Photos are looked at by the detector at up to this long side (the reader's working size is 400-1600).
WORKING_SIDE = 1024
# ...their line regions cut with this margin, so that training can draw other margins from them,
CACHE_MARGIN = 3.0
# ...from this range (the detector's lines may be too few or too short, or its digit height off),
TRAIN_MARGIN = (0.5, 2.5)
# ...each side also moved by up to this many digit heights.
TRAIN_SIDE_JITTER = 0.3


@dataclass
class OrientedExample:
    image: np.ndarray   # grey, long side at most CACHE_SIDE, as stored (turned by `turns`)
    turns: int          # quarter turns clockwise from upright
    source: str
    validation: bool
    # The region around the lines the detector found in the photo, cut with CACHE_MARGIN (long side at most
    # CACHE_SIDE), the lines' box in it (x0, y0, x1, y1) and the tallest line's digit height in its pixels;
    # None where the detector found no line.
    region: np.ndarray | None = None
    lines_box: tuple[float, float, float, float] | None = None
    tallest: float = 0.0

    def view(self) -> np.ndarray:
        """What the reader shows the orienter: the region at REGION_MARGIN, else the whole photo."""
        if self.region is None:
            return self.image
        return region_crop(self.region, self.lines_box, REGION_MARGIN * self.tallest)


def line_region(boxes: list[tuple[float, float, float, float]], tallest: float, width: int, height: int,
                margin: float) -> tuple[int, int, int, int] | None:
    """OrienterConvention.region: (x0, y0, x1, y1), the lines' boxes' union reaching `margin` digit heights of
    the tallest line beyond it, clipped to the photo; None without lines or where it would be empty."""
    if not boxes:
        return None
    m = margin * tallest
    x0 = max(0, int(math.floor(min(b[0] for b in boxes) - m)))
    y0 = max(0, int(math.floor(min(b[1] for b in boxes) - m)))
    x1 = min(width, int(math.ceil(max(b[2] for b in boxes) + m)))
    y1 = min(height, int(math.ceil(max(b[3] for b in boxes) + m)))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def region_crop(img: np.ndarray, box: tuple[float, float, float, float], margin_px: float,
                jitter: tuple[float, float, float, float] = (0, 0, 0, 0)) -> np.ndarray:
    """`img` cut to `box` reaching `margin_px` beyond it (each side moved out by its `jitter` in pixels)."""
    h, w = img.shape
    x0 = max(0, int(math.floor(box[0] - margin_px - jitter[0])))
    y0 = max(0, int(math.floor(box[1] - margin_px - jitter[1])))
    x1 = min(w, int(math.ceil(box[2] + margin_px + jitter[2])))
    y1 = min(h, int(math.ceil(box[3] + margin_px + jitter[3])))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return img
    return img[y0:y1, x0:x1]


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


def _shrunk(grey: np.ndarray, side: int = CACHE_SIDE) -> tuple[np.ndarray, float]:
    """`grey` with its long side at most `side`, and the scale applied."""
    h, w = grey.shape
    if max(h, w) <= side:
        return grey, 1.0
    s = side / max(h, w)
    return resize(grey, max(1, round(w * s)), max(1, round(h * s))), s


def _cached(path: str, rng: random.Random | None, detector=None) -> OrientedExample:
    """The photo shrunk for the cache, with its line region where `detector` (a GraphNet) finds lines. The
    detector sees the photo as the reader's does (decoded at up to WORKING_SIDE)."""
    with Image.open(path) as im:
        if im.format == "JPEG":
            im.draft("RGB", (WORKING_SIDE, WORKING_SIDE))  # decode at a reduced size: much faster
        im = ImageOps.exif_transpose(im)
        grey = to_grey(np.asarray(im.convert("RGB")), rng)
    grey, _ = _shrunk(grey, WORKING_SIDE)
    example = OrientedExample(_shrunk(grey)[0], 0, "", False)
    if detector is None:
        return example
    from infer import detect

    lines = detect(detector, grey)
    if not lines:
        return example
    boxes = [(*d.quad.pts.min(axis=0), *d.quad.pts.max(axis=0)) for d in lines]
    tallest = max(d.quad.height for d in lines)
    cut = line_region(boxes, tallest, grey.shape[1], grey.shape[0], CACHE_MARGIN)
    if cut is None:
        return example
    x0, y0, x1, y1 = cut
    region, s = _shrunk(grey[y0:y1, x0:x1])
    example.region = region
    example.lines_box = (s * (min(b[0] for b in boxes) - x0), s * (min(b[1] for b in boxes) - y0),
                         s * (max(b[2] for b in boxes) - x0), s * (max(b[3] for b in boxes) - y0))
    example.tallest = s * tallest
    return example


def direction_turns(direction: np.ndarray) -> int:
    """The quarter turns clockwise (y down) nearest to a reading direction (cos, sin)."""
    angle = math.degrees(math.atan2(direction[1], direction[0]))  # clockwise from the x axis in image coordinates
    return int(round(angle / 90.0)) % 4


def synthetic_examples(folder: str, validation: bool, limit: int | None = None, detector=None) -> list[OrientedExample]:
    out = []
    with open(os.path.join(folder, "scenes.jsonl")) as f:
        for n, text in enumerate(f):
            if limit is not None and n >= limit:
                break
            s = json.loads(text)
            example = _cached(os.path.join(folder, s["file"]), random.Random(n), detector)
            example.turns, example.source, example.validation = int(s["quarter_turns"]) % 4, "synthetic", validation
            out.append(example)
    return out


def real_examples(detector=None) -> list[OrientedExample]:
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
            example = _cached(path, rng, detector)
        except OSError:
            continue
        example.turns = direction_turns(direction) if direction is not None else 0
        example.source, example.validation = source, is_validation(source, group)
        out.append(example)
    return out


def turned(img: np.ndarray, turns: int, quarter_turns_ccw: int) -> tuple[np.ndarray, int]:
    """The image turned counter-clockwise by `quarter_turns_ccw`, and its class after the turn."""
    return np.ascontiguousarray(np.rot90(img, quarter_turns_ccw)), (turns - quarter_turns_ccw) % 4
