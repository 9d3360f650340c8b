"""Step 4's second look: a photo's labelled values located by reading strips of the photo, around the detector's
line that read a value (its ends or height may be off), and where no line read it, near the lines found and
then over the whole photo.

The detector of an early round misses values or takes two rows for one line (a BP monitor's SYS and DIA as one
region twice a digit tall), and a photo pseudo-labelled only from its lines keeps teaching that. Here strips of
several heights are slid across the neighbourhood of each line found (and across the whole photo when that
fails); the recognizer reads each strip, and where its best path holds the label, the label's characters'
columns give the value's extent. That quad is read again on its own and in every agreement view the reader
uses (AGREEMENT_VIEWS); only a quad read as the label with SEARCH_CONFIDENCE, and as the same text in every
view, is kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from common import AGREEMENT_VIEWS, CROP_DIGIT_HEIGHT, Quad, crop_line, pyramid, view_quad
from infer import best_path, best_path_runs, recognizer_logits

# Strip heights tried around a detected line, as shares of its digit height (a merged two-row line is about
# twice a digit's height; a line found too small, half of it).
NEAR_HEIGHTS = np.geomspace(0.35, 1.15, 7)
# ...and its neighbourhood searched: this many of its digit heights beyond each side and each end.
NEAR_MARGIN = 0.5
# Strip heights tried over the whole photo, as shares of its shorter side.
WHOLE_HEIGHTS = np.geomspace(0.04, 0.4, 11)
# Strips are stepped across by this share of their height (a value's band is found within 10% of it).
STEP_ACROSS = 0.2
# A strip is at most this many of its heights long (the recognizer reads up to 512 columns), and windows along a
# long region overlap by half.
STRIP_LENGTH = 14.0
# Beyond the centres of a value's first and last characters, its quad reaches this many digit heights.
END_REACH = (0.35, 0.5)
# The probability of the best path (temperature applied) a quad must read its label with.
SEARCH_CONFIDENCE = 0.8
# Quads reading the label this close to the best one's probability are averaged into the one kept.
NEAR_BEST = 0.9
# Each end of a found quad is pulled in by these steps, in digit heights, to the last place where the quad still
# reads its text (CTC places a character anywhere in its columns, so the first estimate of the ends is rough),
# and left this far beyond it.
END_STEPS = -np.arange(0.0, 0.61, 0.1)
END_SLACK = 0.15
# Characters that continue a number: a text found in a strip must not have one on either side.
NUMBER_CHARS = "0123456789.-"
# Lines (largest first) whose neighbourhoods are searched.
LINES_SEARCHED = 4


@dataclass
class Region:
    """A part of the photo to slide strips over, in its own frame: centre, reading direction, extents."""

    center: np.ndarray
    direction: np.ndarray
    along: float
    across: float
    heights: np.ndarray  # strip heights in pixels

    def strips(self):
        e = self.direction
        d = np.array([-e[1], e[0]])
        for h in self.heights:
            if h > self.across:
                continue
            length = min(self.along, STRIP_LENGTH * h)
            along_steps = max(1, int(np.ceil((self.along - length) / (length / 2))) + 1)
            across_steps = int((self.across - h) / (STEP_ACROSS * h)) + 1
            for i in range(across_steps):
                v = -self.across / 2 + h / 2 + i * STEP_ACROSS * h
                for j in range(along_steps):
                    u = 0.0 if along_steps == 1 else -self.along / 2 + length / 2 + j * (self.along - length) / (along_steps - 1)
                    yield Quad.from_geometry(self.center + e * u + d * v, e, length, h)


def near_region(line: Quad) -> Region:
    h = line.height
    return Region(line.center, line.direction, line.length + 2 * NEAR_MARGIN * h, h + 2 * NEAR_MARGIN * h, NEAR_HEIGHTS * h)


def whole_region(shape: tuple[int, int], direction: np.ndarray) -> Region:
    H, W = shape
    e = np.array([1.0, 0.0]) if abs(direction[0]) >= abs(direction[1]) else np.array([0.0, 1.0])
    if (direction @ e) < 0:
        e = -e
    along, across = (W, H) if e[0] != 0 else (H, W)
    return Region(np.array([W / 2, H / 2]), e, float(along), float(across), WHOLE_HEIGHTS * min(H, W))


def _span(strip: Quad, width: int, first: tuple[int, int], last: tuple[int, int], reach: float) -> Quad:
    """The quad from the first character's run of output columns to the last's, in the strip's frame."""
    s = strip.height / CROP_DIGIT_HEIGHT
    u0 = (4 * (first[0] + first[1] + 1) / 2 - width / 2) * s - reach * strip.height
    u1 = (4 * (last[0] + last[1] + 1) / 2 - width / 2) * s + reach * strip.height
    e = strip.direction
    return Quad.from_geometry(strip.center + e * (u0 + u1) / 2, e, u1 - u0, strip.height)


def find_value(recognizer, grey: np.ndarray, levels: list[np.ndarray], regions: list[Region],
               accepts: Callable[[str], str | None], temperature: float, taken: list[Quad]) -> tuple[Quad, str] | None:
    """The quad (and its text) that reads a value `accepts` (text -> the text to teach, or None), searched in
    `regions` in turn, away from the values already `taken`; None when no quad reads it in every agreement
    view."""
    for region in regions:
        strips = list(region.strips())
        if not strips:
            continue
        crops = [crop_line(grey, q, levels) for q in strips]
        candidates = []
        for strip, crop, logits in zip(strips, crops, recognizer_logits(recognizer, crops)):
            text, runs = best_path_runs(logits)
            for i in range(len(text)):
                for j in range(i + 1, len(text) + 1):
                    # A whole number, never a part of one (77 in 177, 33.0 in 33.01).
                    if (i > 0 and text[i - 1] in NUMBER_CHARS) or (j < len(text) and text[j] in NUMBER_CHARS):
                        continue
                    if accepts(text[i:j]) is None:
                        continue
                    for reach in END_REACH:
                        q = _span(strip, crop.shape[1], runs[i], runs[j - 1], reach)
                        if not any(t.contains(q.center) for t in taken):
                            candidates.append(q)
        if not candidates:
            continue
        found = _best(recognizer, grey, levels, candidates, accepts, temperature)
        if found is not None:
            return found
    return None


def _best(recognizer, grey, levels, candidates: list[Quad], accepts, temperature) -> tuple[Quad, str] | None:
    crops = [crop_line(grey, q, levels) for q in candidates]
    scored = []
    for q, logits in zip(candidates, recognizer_logits(recognizer, crops)):
        text, prob, _ = best_path(logits, temperature)
        if prob >= SEARCH_CONFIDENCE and accepts(text) is not None:
            scored.append((prob, q))
    if not scored:
        return None
    top = max(p for p, _ in scored)
    near = [q for p, q in scored if p >= NEAR_BEST * top]
    # The mean of the near-best quads (their heights geometrically) is steadier than the single best; each is
    # tried with its ends pulled in first, and kept only where its views agree.
    e = near[0].direction
    mean = Quad.from_geometry(np.mean([q.center for q in near], axis=0), e, float(np.mean([q.length for q in near])),
                              float(np.exp(np.mean([np.log(q.height) for q in near]))))
    best = max(scored, key=lambda s: s[0])[1]
    # (A generator: the best is only pulled in when the mean fails.)
    tries = (q for base in (mean, best) for q in (_tightened(recognizer, grey, levels, base, temperature), base))
    for quad in tries:
        kept = _verified(recognizer, grey, levels, quad, accepts, temperature)
        if kept is not None:
            return quad, kept
    return None


def _verified(recognizer, grey, levels, quad: Quad, accepts, temperature) -> str | None:
    """The text to teach where the quad reads an accepted text with SEARCH_CONFIDENCE and every agreement view
    reads the same; else None."""
    views = [quad] + [view_quad(quad, v) for v in AGREEMENT_VIEWS]
    reads = [best_path(z, temperature) for z in recognizer_logits(recognizer, [crop_line(grey, q, levels) for q in views])]
    kept = {accepts(text) for text, _, _ in reads}
    if reads[0][1] >= SEARCH_CONFIDENCE and len(kept) == 1 and None not in kept:
        return kept.pop()
    return None


def _tightened(recognizer, grey, levels, quad: Quad, temperature) -> Quad:
    """The quad with each end pulled in to just beyond the innermost position that reads the same text with
    SEARCH_CONFIDENCE."""
    e, h = quad.direction, quad.height
    text, _, _ = best_path(recognizer_logits(recognizer, [crop_line(grey, quad, levels)])[0], temperature)
    ends = [-quad.length / 2, quad.length / 2]
    for side in (0, 1):
        sign = -1 if side == 0 else 1
        tries = []
        for step in END_STEPS:
            moved = list(ends)
            moved[side] = ends[side] + sign * step * h
            tries.append(Quad.from_geometry(quad.center + e * (moved[0] + moved[1]) / 2, e, moved[1] - moved[0], h))
        reads = [best_path(z, temperature) for z in recognizer_logits(recognizer, [crop_line(grey, q, levels) for q in tries])]
        # Inwards from where it is, the last that still reads the text, with every try before it.
        keep = None
        for step, (t, p, _) in zip(END_STEPS, reads):
            if t != text or p < SEARCH_CONFIDENCE:
                break
            keep = step
        if keep is not None:
            ends[side] = ends[side] + sign * (keep + END_SLACK) * h
    return Quad.from_geometry(quad.center + e * (ends[0] + ends[1]) / 2, e, ends[1] - ends[0], h)


def search_photo(recognizer, grey: np.ndarray, levels: list[np.ndarray], lines: list[Quad],
                 accepts: Callable[[str], str | None], temperature: float, taken: list[Quad]) -> tuple[Quad, str] | None:
    """One value: near the largest lines found first, then over the whole photo."""
    regions = [near_region(q) for q in lines[:LINES_SEARCHED]]
    direction = lines[0].direction if lines else np.array([1.0, 0.0])
    regions.append(whole_region(grey.shape, direction))
    return find_value(recognizer, grey, levels, regions, accepts, temperature, taken)
