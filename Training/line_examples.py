"""Line crops for the recognizer, drawn at random from every source, each with its text.

- synthetic: the crops `vitalsnap samples training-set` wrote (OUT/lines.tsv), already jittered;
- synthetic in context: a value line cut from its whole synthetic scene with its ends reaching further, into
  the icons and unit words beside it (never into another line with digits), as the reader's longer and taller
  views of a line see it; the text stays the value's;
- real lines: cut from real photos around their quad, jittered as a detector would err;
- composed: real single-digit crops of one display style put side by side into a line;
- recombined: a real line cut into its digits and put together again in another order (recombine.py).
Real crops are augmented (blur, noise, gamma, JPEG, polarity) so a few hundred photos stand for many.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import os
import random
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageFilter

from common import CROP_HEIGHT, Quad, crop_line, load_grey, load_rgb, standardise, text_is_encodable, to_grey
from real_data import LineExample, digit_group, is_validation, whole_image_quad

# How often each kind of example is drawn.
SHARE_REAL = 0.3
SHARE_COMPOSED = 0.08
SHARE_CONTEXT = 0.15
# Real lines are drawn source by source, each source weighted by its line count to this power: 1 draws every
# line alike (and the 1,400 panel-meter lines would be three of every four real lines drawn), 0 every source
# alike (a folder of six lines as often as one of a thousand), 0.5 between.
SOURCE_BALANCE = 0.5
# How far a value line cut in context reaches beyond its ends (digit heights, each end) and how much taller it is.
CONTEXT_REACH = (0.0, 1.0)
CONTEXT_SCALE = (0.9, 1.3)
# Roles of the lines that hold digits of their own: a line cut in context must not reach into one.
DIGIT_ROLES = ("value", "clock", "date", "memory")

# Augmentation of every crop drawn (augment): how often, and how far.
FADE_CHANCE = 0.2             # contrast faded to this share (faint segments, a washed-out photo)
FADE_CONTRAST = (0.45, 0.85)
SHADE_CHANCE = 0.25           # light falling off linearly across the line (or down it), by up to this share
SHADE_DEPTH = 0.4
SLANT_CHANCE = 0.3            # rows shifted by up to this share of the height per row (about 14 degrees)
SLANT_MAX = 0.25
STRETCH_CHANCE = 0.3          # the crop's width scaled (narrow and wide digit shapes)
STRETCH_RANGE = (0.75, 1.3)
BINARIZE_CHANCE = 0.08        # thresholded to black and white, as the binarized BP fields are (photos/README.md)
BINARIZE_LEVEL = (0.35, 0.65) # the threshold: this far from the crop's dark level (5th percentile) to its light (95th),
                              # so faint ghosts of unlit segments stay background
SPECKLE_SHARE = (0.001, 0.015) # ...then this share of its pixels flipped, in specks of one to three pixels
# Real images up to this many pixels (one-line crops, panel-meter photos) are kept in colour as well, and a
# real line drawn from one is made grey with jittered channel weights half the time (common.to_grey).
COLOUR_JITTER_MAX_PIXELS = 400_000
COLOUR_JITTER_CHANCE = 0.5

# Real images longer than this are kept halved (ImageCache), and so in grey only.
CACHE_LONG_SIDE = 1400

# Digit crops: the share of the crop's height the digit fills, per folder (measured by eye).
DIGIT_SHARE = {"lcd-digits-kazuhito": 0.78, "gaspump-digits-kazmiekr": 0.95}


def read_synthetic(folder: str) -> list[tuple[str, str]]:
    out = []
    with open(os.path.join(folder, "lines.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            out.append((os.path.join(folder, row["file"]), row["text"]))
    return out


class ImageCache:
    """Decoded grey images, kept small: photos larger than `long_side` are stored halved, with their scale."""

    def __init__(self, long_side: int = CACHE_LONG_SIDE):
        self.long_side = long_side
        self.images: dict[str, tuple[np.ndarray, float]] = {}
        self.colour: dict[str, np.ndarray | None] = {}

    def get_colour(self, path: str) -> np.ndarray | None:
        """The image in colour when it is small (COLOUR_JITTER_MAX_PIXELS), else None."""
        if path not in self.colour:
            grey, scale = self.get(path)
            small = scale == 1.0 and grey.size <= COLOUR_JITTER_MAX_PIXELS
            self.colour[path] = load_rgb(path) if small else None
        return self.colour[path]

    def get(self, path: str) -> tuple[np.ndarray, float]:
        hit = self.images.get(path)
        if hit is None:
            img = load_grey(path)
            scale = 1.0
            while max(img.shape) > self.long_side:
                h, w = img.shape[0] // 2, img.shape[1] // 2
                img = img[: 2 * h, : 2 * w].reshape(h, 2, w, 2).mean(axis=(1, 3)).round().astype(np.uint8)
                scale /= 2
            hit = (img, scale)
            self.images[path] = hit
        return hit


def augment(crop: np.ndarray, rng: random.Random) -> np.ndarray:
    """Photometric and geometric changes a line crop may show in another photo of the same display: gamma,
    polarity, faded contrast, light falling off across the line, slant, width, noise, blur and JPEG."""
    x = crop.astype(np.float32)
    if rng.random() < 0.5:
        g = rng.uniform(0.6, 1.6)
        x = 255.0 * (x / 255.0) ** g
    if rng.random() < 0.15:
        x = 255.0 - x
    if rng.random() < FADE_CHANCE:
        m = float(x.mean())
        x = m + (x - m) * rng.uniform(*FADE_CONTRAST)
    if rng.random() < SHADE_CHANCE:
        across = rng.random() < 0.6
        ramp = np.linspace(-1.0, 1.0, x.shape[1] if across else x.shape[0], dtype=np.float32)
        x = x * (1.0 + rng.uniform(-SHADE_DEPTH, SHADE_DEPTH) * (ramp[None, :] if across else ramp[:, None]))
    if rng.random() < SLANT_CHANCE:
        x = slanted(x, rng.uniform(-SLANT_MAX, SLANT_MAX))
    if rng.random() < BINARIZE_CHANCE:
        x = binarized(x, rng)
    elif rng.random() < 0.3:
        x = x + np.asarray(np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 12), x.shape), dtype=np.float32)
    img = Image.fromarray(np.clip(x, 0, 255).astype(np.uint8))
    if rng.random() < STRETCH_CHANCE:
        width = max(8, round(img.width * rng.uniform(*STRETCH_RANGE)))
        img = img.resize((width, img.height), Image.BILINEAR)
    if rng.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    if rng.random() < 0.25:
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=rng.randint(25, 80))
        buf.seek(0)
        img = Image.open(buf).convert("L")
    return np.asarray(img)


def binarized(x: np.ndarray, rng: random.Random) -> np.ndarray:
    """Black and white at a threshold near the crop's mean, with specks of the other colour scattered over it
    (a thresholded photo's noise): what a crop of a binarized BP field looks like."""
    dark, light = np.percentile(x, (5, 95))
    threshold = float(dark + (light - dark) * rng.uniform(*BINARIZE_LEVEL))
    out = np.where(x > threshold, 255.0, 0.0).astype(np.float32)
    noise = np.random.default_rng(rng.randrange(1 << 30))
    specks = noise.random(out.shape) < rng.uniform(*SPECKLE_SHARE)
    size = rng.randint(1, 3)
    if size > 1:  # each speck grown to size x size pixels
        grown = np.zeros_like(specks)
        for dy in range(size):
            for dx in range(size):
                grown[dy:, dx:] |= specks[: specks.shape[0] - dy, : specks.shape[1] - dx]
        specks = grown
    out[specks] = 255.0 - out[specks]
    return out


def slanted(x: np.ndarray, shear: float) -> np.ndarray:
    """Each row shifted sideways by `shear` times its height above the middle row (edges repeated): upright
    digits become italic ones and italic ones upright."""
    rows, width = x.shape
    cols = np.arange(width, dtype=np.float32)
    out = np.empty_like(x)
    for r in range(rows):
        out[r] = np.interp(cols + shear * (rows / 2 - r - 0.5), cols, x[r])
    return out


@dataclass
class ContextLine:
    """A value line of a synthetic scene, with the lines beside it that hold digits of their own."""

    scene: str
    quad: Quad
    text: str
    others: list[Quad]


def read_context_lines(folder: str) -> list[ContextLine]:
    path = os.path.join(folder, "scenes.jsonl")
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for row in f:
            s = json.loads(row)
            digit_lines = [l for l in s["lines"] if l["role"] in DIGIT_ROLES]
            for line in digit_lines:
                if line["role"] != "value" or not line.get("readable", True) or not text_is_encodable(line["text"]):
                    continue
                others = [Quad(np.array(o["quad"])) for o in digit_lines if o is not line]
                out.append(ContextLine(os.path.join(folder, s["file"]), Quad(np.array(line["quad"])), line["text"], others))
    return out


@dataclass
class LineSampler:
    synthetic: list[tuple[str, str]]
    real: list[LineExample]
    digits: dict[str, list[tuple[str, str]]]
    cache: ImageCache
    context: list[ContextLine] = field(default_factory=list)
    share_real: float = SHARE_REAL
    # Real lines cut into their digits, per source (recombine.cut_lines), and the share of a source's draws
    # that are one of them recombined rather than a real line as it is.
    recombinable: dict = field(default_factory=dict)
    share_recombined: float = 0.0

    def __post_init__(self) -> None:
        by_source: dict[str, list[LineExample]] = {}
        for example in self.real:
            by_source.setdefault(example.source, []).append(example)
        self.real_sources = [by_source[s] for s in sorted(by_source)]
        # Cumulative, as `random.choices` would otherwise work them out again on every draw.
        self.real_cum_weights = list(itertools.accumulate(len(lines) ** SOURCE_BALANCE for lines in self.real_sources))

    def sample(self, rng: random.Random) -> tuple[np.ndarray, str, bool]:
        """A crop, its text, and whether that text leaves out decimal points the crop may show."""
        r = rng.random()
        if r < self.share_real and self.real:
            source = rng.choices(self.real_sources, cum_weights=self.real_cum_weights)[0]
            cut = self.recombinable.get(source[0].source)
            if cut and rng.random() < self.share_recombined:
                line = rng.choice(cut)
                crop, text = line.recombined(rng)
                return augment(crop, rng), text, line.dots_optional
            example = rng.choice(source)
            return (*self.real_line(example, rng), example.dots_optional)
        if (r < self.share_real + SHARE_COMPOSED or not self.synthetic) and self.digits:
            return (*self.composed(rng), False)
        if r < self.share_real + SHARE_COMPOSED + SHARE_CONTEXT and self.context:
            return (*self.in_context(rng.choice(self.context), rng), False)
        path, text = rng.choice(self.synthetic)
        return np.asarray(Image.open(path).convert("L")), text, False

    def located(self, example: LineExample) -> tuple[np.ndarray, Quad]:
        """The example's image (as cached) and its line's quad in that image's pixels."""
        img, scale = self.cache.get(example.path)
        if example.quad is None:
            return img, whole_image_quad(example.source, img.shape[1], img.shape[0])
        return img, Quad(example.quad.pts * scale)

    def real_line(self, example: LineExample, rng: random.Random, jitter: bool = True) -> tuple[np.ndarray, str]:
        img, quad = self.located(example)
        if jitter:
            quad = quad.jittered(rng, extend=(0.0, 0.4))
            if rng.random() < COLOUR_JITTER_CHANCE:
                rgb = self.cache.get_colour(example.path)
                img = to_grey(rgb, rng) if rgb is not None else img
        crop = crop_line(img, quad)
        return (augment(crop, rng) if jitter else crop), example.text

    def in_context(self, line: ContextLine, rng: random.Random) -> tuple[np.ndarray, str]:
        quad = line.quad.jittered(rng, extend=CONTEXT_REACH, scale=CONTEXT_SCALE)
        if any(quad.meets(o) for o in line.others):
            quad = line.quad.jittered(rng, extend=(0.0, 0.2))
            if any(quad.meets(o) for o in line.others):
                quad = line.quad
        img = to_grey(load_rgb(line.scene), rng)
        return augment(crop_line(img, quad), rng), line.text

    def composed(self, rng: random.Random) -> tuple[np.ndarray, str]:
        style = rng.choice(sorted(self.digits))
        crops = self.digits[style]
        count = rng.randint(1, 6)
        parts, text = [], ""
        height = 64
        for _ in range(count):
            path, digit = rng.choice(crops)
            im = Image.open(path).convert("L")
            w = max(4, round(im.width * height / im.height * rng.uniform(0.9, 1.1)))
            parts.append(np.asarray(im.resize((w, height), Image.BILINEAR)))
            text += digit
        line = np.concatenate(parts, axis=1)
        share = DIGIT_SHARE.get(style, 0.85)
        quad = Quad.from_geometry((line.shape[1] / 2, height / 2), (1.0, 0.0), line.shape[1] * 0.98, height * share)
        crop = crop_line(line, quad.jittered(rng, extend=(0.0, 0.2)))
        return augment(crop, rng), text


def split_real(examples: list[LineExample]) -> tuple[list[LineExample], list[LineExample]]:
    train = [e for e in examples if not is_validation(e.source, e.group)]
    val = [e for e in examples if is_validation(e.source, e.group)]
    return train, val


def split_digits(digits: dict[str, list[tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
    """Digit crops not in the validation share (by the photo they were cut from)."""
    return {
        style: [(p, d) for p, d in crops if not is_validation(style, digit_group(style, os.path.basename(p)))]
        for style, crops in digits.items()
    }


def batch_tensor(crops: list[np.ndarray]):
    """Standardised crops padded on the right (edge repeated) to one width: N x 1 x 32 x W, and the widths."""
    import torch

    width = max(c.shape[1] for c in crops)
    width = (width + 3) // 4 * 4
    out = np.zeros((len(crops), 1, CROP_HEIGHT, width), dtype=np.float32)
    for i, c in enumerate(crops):
        x = standardise(c)
        out[i, 0, :, : c.shape[1]] = x
        if c.shape[1] < width:
            out[i, 0, :, c.shape[1]:] = x[:, -1:]
    return torch.from_numpy(out), [c.shape[1] for c in crops]
