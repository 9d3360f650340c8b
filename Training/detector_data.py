"""The detector's view of a photo and what it is taught to see there, and how its output becomes lines.

Input: the grey photo resized so its long side is DETECTOR_LONG_SIDE and its short side the nearest multiple
of DETECTOR_MULTIPLE (at least one multiple), by block averaging then bilinear sampling (GrayImage.resize).
Output: one cell per DETECTOR_STRIDE x DETECTOR_STRIDE input pixels, with the class of the line whose core
covers the cell's centre, the line's ln(digit height) and its reading direction (cos, sin).

A line's core is the middle 2 * CORE_ACROSS of its height and its length less CORE_END_INSET digit heights at
each end, so stacked lines and a value with its unit beside it stay apart. Around the core, to IGNORE_MARGIN
digit heights beyond the line's ends and IGNORE_ACROSS beyond its top and bottom, cells are neither taught as
line nor as background; past that they are background, so the gap between stacked values (a BP monitor's
SYS over DIA) is taught as such and their lines do not merge.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field

import numpy as np

from common import DETECTOR_LONG_SIDE, DETECTOR_MULTIPLE, DETECTOR_STRIDE, ROLE_CLASS, Quad

CORE_ACROSS = 0.25       # half-height of the core, in digit heights (the middle 50%)
CORE_MIN_ACROSS = 2.0    # ...but at least this many input pixels, so a small line has a row of cells
CORE_END_INSET = 0.15    # digit heights left out at each end of the core
IGNORE_MARGIN = 0.25     # digit heights of "don't care" beyond the line's ends
IGNORE_ACROSS = 0.05     # ...and beyond its top and bottom (stacked values are about 0.2 apart)
MIN_HEIGHT = 3.0         # lines shorter than this (input pixels) are too small to teach: ignored
IGNORE = -1


def detector_size(width: int, height: int, long_side: int = DETECTOR_LONG_SIDE) -> tuple[int, int]:
    scale = long_side / max(width, height)

    def side(n: int) -> int:
        return max(DETECTOR_MULTIPLE, int(round(n * scale / DETECTOR_MULTIPLE)) * DETECTOR_MULTIPLE)

    return (long_side, side(height)) if width >= height else (side(width), long_side)


def block_average(img: np.ndarray, fx: int, fy: int) -> np.ndarray:
    h, w = img.shape
    oh, ow = -(-h // fy), -(-w // fx)
    pad = np.pad(img.astype(np.float64), ((0, oh * fy - h), (0, ow * fx - w)))
    counts = np.pad(np.ones((h, w)), ((0, oh * fy - h), (0, ow * fx - w)))
    s = pad.reshape(oh, fy, ow, fx).sum(axis=(1, 3))
    n = counts.reshape(oh, fy, ow, fx).sum(axis=(1, 3))
    return np.floor(s / n + 0.5).astype(np.uint8)


def resize(img: np.ndarray, out_w: int, out_h: int) -> np.ndarray:
    """GrayImage.resize: an integer block average where shrinking by more than 2, then bilinear."""
    h, w = img.shape
    rx, ry = w / out_w, h / out_h
    fx = int(rx) if rx > 2 else 1
    fy = int(ry) if ry > 2 else 1
    src = block_average(img, fx, fy) if fx > 1 or fy > 1 else img
    sx, sy = rx / fx, ry / fy
    xs = (np.arange(out_w) + 0.5) * sx - 0.5
    ys = (np.arange(out_h) + 0.5) * sy - 0.5
    xs = np.clip(xs, 0, src.shape[1] - 1)
    ys = np.clip(ys, 0, src.shape[0] - 1)
    x0 = np.floor(xs).astype(int)
    y0 = np.floor(ys).astype(int)
    x1 = np.minimum(x0 + 1, src.shape[1] - 1)
    y1 = np.minimum(y0 + 1, src.shape[0] - 1)
    wx = (xs - x0)[None, :]
    wy = (ys - y0)[:, None]
    f = src.astype(np.float64)
    top = f[y0][:, x0] + (f[y0][:, x1] - f[y0][:, x0]) * wx
    bottom = f[y1][:, x0] + (f[y1][:, x1] - f[y1][:, x0]) * wx
    return np.clip(top + (bottom - top) * wy + 0.5, 0, 255).astype(np.uint8)


def detector_input(grey: np.ndarray, long_side: int = DETECTOR_LONG_SIDE) -> tuple[np.ndarray, float, float]:
    """The resized photo and the scale from its pixels back to the photo's (x, y)."""
    h, w = grey.shape
    ow, oh = detector_size(w, h, long_side)
    return resize(grey, ow, oh), w / ow, h / oh


def standardise_photo(img: np.ndarray) -> np.ndarray:
    """The detector's input values: grey levels centred and scaled as a whole (not per photo: the model
    must see how dark or bright a photo is)."""
    return (img.astype(np.float32) - 128.0) / 64.0


@dataclass
class LabelledLine:
    quad: Quad           # photo pixels
    cls: int             # detector class, or IGNORE for a line that must be neither taught nor punished


@dataclass
class LabelledScene:
    path: str
    lines: list[LabelledLine] = field(default_factory=list)
    source: str = "synthetic"


def cut_by_frame(quad: list, width: float, height: float) -> bool:
    """Whether a line's quad reaches past the frame (the generator's `cut_off` scenes): digits are lost."""
    return any(x < 0 or y < 0 or x > width or y > height for x, y in quad)


def read_scenes(folder: str, cut_lines: str = "ignore") -> list[LabelledScene]:
    """The generated scenes of `folder`. An unreadable value or auxiliary line is IGNORE (neither line nor
    background); with `cut_lines="background"`, one the frame cuts is left out, so its cells are taught as
    background: a display cut off at the photo's edge then gives no value line to misread short."""
    out = []
    with open(os.path.join(folder, "scenes.jsonl")) as f:
        for text in f:
            s = json.loads(text)
            lines = []
            for line in s["lines"]:
                cls = ROLE_CLASS.get(line["role"], IGNORE)
                if not line.get("readable", True) and cls in (1, 2):
                    if cut_lines == "background" and cut_by_frame(line["quad"], s["width"], s["height"]):
                        continue
                    cls = IGNORE
                lines.append(LabelledLine(Quad(np.array(line["quad"], dtype=np.float64)), cls))
            out.append(LabelledScene(os.path.join(folder, s["file"]), lines))
    return out


def targets(lines: list[LabelledLine], in_w: int, in_h: int, sx: float, sy: float):
    """Class map (H/4 x W/4, IGNORE where undecided) and regression maps (3 x H/4 x W/4) with their mask."""
    gh, gw = in_h // DETECTOR_STRIDE, in_w // DETECTOR_STRIDE
    cls = np.zeros((gh, gw), dtype=np.int64)
    reg = np.zeros((3, gh, gw), dtype=np.float32)
    mask = np.zeros((gh, gw), dtype=np.float32)
    cy, cx = np.mgrid[0:gh, 0:gw].astype(np.float64)
    px = cx * DETECTOR_STRIDE + DETECTOR_STRIDE / 2
    py = cy * DETECTOR_STRIDE + DETECTOR_STRIDE / 2
    # Labels first (so a value's core wins where a unit label's margin reaches it), values last.
    order = sorted(lines, key=lambda l: {3: 0, 2: 1, 1: 2}.get(l.cls, -1))
    for line in order:
        q = Quad(line.quad.pts / np.array([sx, sy]))
        h, length = q.height, q.length
        c, e = q.center, q.direction
        d = np.array([-e[1], e[0]])
        u = (px - c[0]) * e[0] + (py - c[1]) * e[1]
        v = (px - c[0]) * d[0] + (py - c[1]) * d[1]
        outer = (np.abs(u) <= length / 2 + IGNORE_MARGIN * h) & (np.abs(v) <= h / 2 + IGNORE_ACROSS * h)
        if line.cls == IGNORE or h < MIN_HEIGHT:
            cls[outer & (cls == 0)] = IGNORE
            continue
        inset = min(CORE_END_INSET * h, 0.25 * length)
        core = (np.abs(u) <= length / 2 - inset) & (np.abs(v) <= max(CORE_ACROSS * h, CORE_MIN_ACROSS))
        cls[outer & ~core & (cls == 0)] = IGNORE
        cls[core] = line.cls
        if line.cls in (1, 2):
            reg[0][core] = math.log(h)
            reg[1][core] = e[0]
            reg[2][core] = e[1]
            mask[core] = 1
    return cls, reg, mask


@dataclass
class DetectedLine:
    quad: Quad       # photo pixels
    cls: int
    score: float     # mean class probability over the line's cells
    cells: int


# A group of cells stacked across its reading direction is cut into its rows (Swift: StackedLineSplitter):
SPLIT_MIN_EXTENT = 1.2   # looked at when its cells span more than this many digit heights across
SPLIT_VALLEY_SHARE = 0.5  # a band is a gap when it holds at most this share of the fullest band on each side
SPLIT_MIN_PART = 0.3      # each part at least this many digit heights of bands
SPLIT_EVEN_EXTENT = 1.9   # no gap, yet at least this many digit heights across: equal parts, one per digit height


def split_bands(counts: list[int], bands_per_digit_height: float) -> list[int]:
    """The bands at which new parts start (StackedLineSplitter.split)."""
    n = len(counts)
    if bands_per_digit_height <= 0 or n <= SPLIT_MIN_EXTENT * bands_per_digit_height:
        return []
    minimum = max(1, math.ceil(SPLIT_MIN_PART * bands_per_digit_height))
    starts, part_start, left_max = [], 0, 0
    for band in range(n):
        if band - part_start >= minimum and n - band >= minimum:
            right_max = max(counts[band + 1:], default=0)
            floor = min(left_max, right_max) * SPLIT_VALLEY_SHARE
            if counts[band] <= floor and (band + 1 >= n or counts[band + 1] >= counts[band]):
                starts.append(band)
                part_start, left_max = band, counts[band]
                continue
        left_max = max(left_max, counts[band])
    if not starts and n >= SPLIT_EVEN_EXTENT * bands_per_digit_height:
        parts = min(n, max(2, math.floor(n / bands_per_digit_height + 0.5)))  # rounded as Swift's .rounded()
        starts = [math.floor(part * n / parts + 0.5) for part in range(1, parts)]
    return starts


def _group_geometry(output: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, float]:
    direction = np.array([output[5][ys, xs].mean(), output[6][ys, xs].mean()])
    if np.linalg.norm(direction) < 1e-6:
        direction = np.array([1.0, 0.0])
    return direction / np.linalg.norm(direction), float(np.exp(output[4][ys, xs].mean()))


def decode(output: np.ndarray, sx: float, sy: float, min_cells: int = 2) -> list[DetectedLine]:
    """output: 7 x H/4 x W/4 (logits, ln h, cos, sin) -> lines in photo pixels (ModelLineLocator does the same)."""
    from scipy import ndimage

    logits = output[:4]
    p = np.exp(logits - logits.max(axis=0))
    p /= p.sum(axis=0)
    best = p.argmax(axis=0)
    found = []
    for cls in (1, 2):
        labels, n = ndimage.label(best == cls, structure=np.ones((3, 3)))
        for k in range(1, n + 1):
            ys, xs = np.nonzero(labels == k)
            if len(ys) < min_cells:
                continue
            e, h = _group_geometry(output, ys, xs)
            px = xs * DETECTOR_STRIDE + DETECTOR_STRIDE / 2
            py = ys * DETECTOR_STRIDE + DETECTOR_STRIDE / 2
            v = -px * e[1] + py * e[0]
            bands = np.round((v - v.min()) / DETECTOR_STRIDE).astype(int)
            starts = split_bands(np.bincount(bands).tolist(), h / DETECTOR_STRIDE)
            edges = [0] + starts + [int(bands.max()) + 1]
            for lo, hi in zip(edges[:-1], edges[1:]):
                part = (bands >= lo) & (bands < hi)
                if part.sum() < min_cells:
                    continue
                pe, ph = (e, h) if not starts else _group_geometry(output, ys[part], xs[part])
                found.append(_line(pe, ph, px[part], py[part], cls, float(p[cls][ys[part], xs[part]].mean()), sx, sy))
    return found


def _line(e: np.ndarray, h: float, px: np.ndarray, py: np.ndarray, cls: int, score: float, sx: float, sy: float) -> DetectedLine:
    dvec = np.array([-e[1], e[0]])
    u = px * e[0] + py * e[1]
    v = px * dvec[0] + py * dvec[1]
    umin, umax = u.min(), u.max()
    length = (umax - umin) + DETECTOR_STRIDE + 2 * CORE_END_INSET * h
    center = e * (umin + umax) / 2 + dvec * v.mean()
    q = Quad.from_geometry(center, e, length, h)
    return DetectedLine(Quad(q.pts * np.array([sx, sy])), cls, score, len(px))
