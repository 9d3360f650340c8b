"""New real-looking lines from real ones: a real line crop cut into its characters, and the pieces put together
again in another order, so a display's own digits (its segments, ink, light and blur) show other numbers.

The recognizer fits its real training lines almost perfectly and reads new photos of the same displays much
less well (Models/README.md): with a few hundred lines per display it can learn a line's whole look with its
text. Recombined lines break that tie: the same pieces of ink spell many texts.

Cutting: a trained recognizer reads the line's canonical crop (line_examples.LineSampler.real_line, unjittered)
and only lines it reads as their own text, of digits with at most one decimal point, are cut. Seven-segment
digits stand apart: the columns with ink in the digit band form one run per digit, and each digit's spike (its
run on the best path) must fall in a run of its own; the cuts lie in the middle of the clean columns between
them, a decimal point stays with the digit before it, and the line's ends (margin, units, icons, bezel) are kept
as they are, before the first piece and after the last. A line is kept only where every piece, shown alone
between those ends, reads as its own digit.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from common import CROP_DIGIT_HEIGHT, CROP_DIGIT_TOP
from infer import best_path_runs, recognizer_logits
from line_examples import slanted
from real_data import LineExample

# A line is cut only into pieces at least this wide (crop columns; a digit is about 10 to 14 at the crop's
# 20-row digit height): a narrower piece means two spikes for one digit, or a cut inside one.
MIN_PIECE_WIDTH = 6
# Ink: a column whose spread (ink_profile) lies above this share of the way from the line's plainest columns to
# its inkiest (their 10th and 90th percentiles) belongs to a character.
INK_SHARE = 0.35
# Runs of ink this many clean columns apart are one run (a digit's two verticals with its thin middle).
MAX_INNER_GAP = 0
# A spike this many columns outside a run of ink still marks it (CTC puts a spike anywhere on its character,
# and on some displays just after it).
SPIKE_SLACK = 3
# A recombined line has as many pieces as the line it came from, give or take this many.
LENGTH_CHANGE = 1
# Lines with fewer digits than this are not cut (a single digit recombines only into itself).
MIN_DIGITS = 2
# Italic digits (a fuel pump's lean by about 10 degrees) share columns: the crop is first sheared upright by
# the one of these (line_examples.slanted's shear, rows shifted per row of height) that leaves the cleanest
# gaps, cut and recombined upright, and leant back after.
SHEARS = np.round(np.arange(-0.3, 0.301, 0.05), 2)


@dataclass
class CutLine:
    """A real line crop cut into pieces: `crop[:, :cuts[0]]` the start, `crop[:, cuts[i]:cuts[i + 1]]` piece i
    (its characters `texts[i]`: a digit, maybe with the point after it), `crop[:, cuts[-1]:]` the end."""

    crop: np.ndarray
    cuts: list[int]
    texts: list[str]
    dots_optional: bool
    # The shear that stood the crop's digits upright (`crop` is the upright one); 0 for upright digits.
    shear: float = 0.0

    def recombined(self, rng: random.Random) -> tuple[np.ndarray, str]:
        """Pieces drawn at random (with repeats) between the line's own start and end, at most one of them with
        a decimal point; the text they spell."""
        n = len(self.texts)
        count = max(1, n + rng.randint(-LENGTH_CHANGE, LENGTH_CHANGE))
        picks = [rng.randrange(n) for _ in range(count)]
        plain = [i for i, t in enumerate(self.texts) if "." not in t]
        if plain:
            # At most one piece with a point, and not the last: a number neither has two nor ends with one.
            pointed = [k for k, i in enumerate(picks) if "." in self.texts[i]]
            kept = rng.choice(pointed) if pointed else None
            for k in pointed:
                if k != kept or k == count - 1:
                    picks[k] = rng.choice(plain)
        parts = [self.crop[:, : self.cuts[0]]]
        parts += [self.crop[:, self.cuts[i] : self.cuts[i + 1]] for i in picks]
        parts.append(self.crop[:, self.cuts[-1] :])
        text = "".join(self.texts[i] for i in picks)
        if self.dots_optional:
            text = text.replace(".", "")
        line = np.concatenate(parts, axis=1)
        if self.shear:
            line = sheared(line, -self.shear)
        return np.ascontiguousarray(line), text


def ink_profile(crop: np.ndarray) -> np.ndarray:
    """Per column, the spread of the digit band's grey levels (90th less 10th percentile down the column): high
    where segments cross it, low in the gaps between digits, over plain display and over a bezel's edge alike
    (levels taken against the whole band would mark a dark window in a light bezel as ink)."""
    band = crop[CROP_DIGIT_TOP : CROP_DIGIT_TOP + CROP_DIGIT_HEIGHT].astype(np.float32)
    return np.percentile(band, 90, axis=0) - np.percentile(band, 10, axis=0)


def ink_runs(inked: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of the runs of inked columns, runs at most MAX_INNER_GAP clean columns apart taken as one."""
    runs: list[list[int]] = []
    for x in np.flatnonzero(inked):
        if runs and x - runs[-1][1] <= 1 + MAX_INNER_GAP:
            runs[-1][1] = x + 1
        else:
            runs.append([x, x + 1])
    return [(a, b) for a, b in runs]


def cut(crop: np.ndarray, text: str, runs: list[tuple[int, int]], stride: int, dots_optional: bool) -> CutLine | None:
    """The line cut at its characters, or None where it cannot be cut cleanly. The digits must stand apart: the
    columns of ink form one run per digit (a decimal point a small run of its own or part of its digit's), and
    each digit's spike (runs: each character's first and last output column) falls in its own run. Runs of
    ink before the first digit or after the last (units, icons, the bezel) stay with the line's ends; one
    between two digits (a colon, a ghost) leaves the line uncut."""
    if not text or any(c not in "0123456789." for c in text) or text.count(".") > 1 or text[0] == "." or text[-1] == ".":
        return None
    if sum(c.isdigit() for c in text) < MIN_DIGITS:
        return None
    shear, crop = upright(crop)
    profile = ink_profile(crop)
    plain, inkiest = np.percentile(profile, (10, 90))
    inked = profile > plain + INK_SHARE * (inkiest - plain)
    blobs = ink_runs(inked)
    spikes = [((first + last) * stride + stride) // 2 for first, last in runs]

    def blob_of(x: int) -> int | None:
        for k, (a, b) in enumerate(blobs):
            if a - SPIKE_SLACK <= x < b + SPIKE_SLACK:
                return k
        return None

    # Each digit's run of ink, in order, none shared.
    digit_blobs: list[int] = []
    for c, x in zip(text, spikes):
        if c.isdigit():
            k = blob_of(x)
            if k is None or (digit_blobs and k <= digit_blobs[-1]):
                return None
            digit_blobs.append(k)
    # Between two digits' runs, only a decimal point's (the one after the first of them) may lie.
    texts = [c for c in text if c.isdigit()]
    point_after = text.index(".") - 1 if "." in text else None  # index in `text` of the digit before the point
    point_digit = sum(c.isdigit() for c in text[: point_after + 1]) - 1 if point_after is not None else None
    piece_end_blob = list(digit_blobs)
    for i, (k0, k1) in enumerate(zip(digit_blobs, digit_blobs[1:])):
        between = k1 - k0 - 1
        if i == point_digit and between == 1:
            piece_end_blob[i] = k0 + 1  # the point's own run goes with its digit
        elif between != 0:
            return None
    if point_digit is not None:
        texts[point_digit] += "."
    cuts = [max(0, blobs[digit_blobs[0]][0] - 1)]
    for i in range(len(digit_blobs) - 1):
        gap_start, gap_stop = blobs[piece_end_blob[i]][1], blobs[digit_blobs[i + 1]][0]
        cuts.append((gap_start + gap_stop) // 2)
    last_stop = blobs[piece_end_blob[-1]][1]
    after = blobs[piece_end_blob[-1] + 1][0] if piece_end_blob[-1] + 1 < len(blobs) else crop.shape[1]
    cuts.append(min(crop.shape[1], (last_stop + after + 1) // 2))
    if any(b - a < MIN_PIECE_WIDTH for a, b in zip(cuts, cuts[1:])):
        return None
    return CutLine(crop, [int(c) for c in cuts], texts, dots_optional, shear)


def upright(crop: np.ndarray) -> tuple[float, np.ndarray]:
    """The shear of SHEARS under which the digit band's gaps are cleanest (the lowest quarter of its columns'
    spread least), and the crop sheared so."""
    best = (np.inf, 0.0, crop)
    for shear in SHEARS:
        candidate = crop if shear == 0 else sheared(crop, float(shear))
        gaps = float(np.percentile(ink_profile(candidate), 25))
        if gaps < best[0] - 1e-6 or (abs(gaps - best[0]) <= 1e-6 and abs(shear) < abs(best[1])):
            best = (gaps, float(shear), candidate)
    return best[1], best[2]


def sheared(crop: np.ndarray, shear: float) -> np.ndarray:
    """An 8-bit crop sheared by line_examples.slanted, back in 8 bits."""
    return np.clip(slanted(crop.astype(np.float32), shear), 0, 255).astype(np.uint8)


def pieces_alone(line: CutLine) -> list[np.ndarray]:
    """Each piece between the line's own start and end, as a crop of its own (the check of a cut)."""
    start, end = line.crop[:, : line.cuts[0]], line.crop[:, line.cuts[-1] :]
    return [np.ascontiguousarray(np.concatenate([start, line.crop[:, a:b], end], axis=1))
            for a, b in zip(line.cuts, line.cuts[1:])]


def cut_lines(net, examples: list[LineExample], crops: list[np.ndarray]) -> list[tuple[LineExample, CutLine]]:
    """The examples (with their canonical crops) that `net` reads as their own text, cut into pieces, where
    every piece shown alone reads as its own digit (a cut through a digit shows a broken one; a piece's point,
    alone at the end, is not asked for). A label
    that leaves out decimal points (dots_optional) agrees with a reading that shows one; the pieces then keep
    the point read, and the recombined line teaches its digits only, as the example did."""
    candidates = []
    for i in range(0, len(examples), 256):
        chunk_examples, chunk_crops = examples[i : i + 256], crops[i : i + 256]
        logits = recognizer_logits(net, chunk_crops)
        for example, crop, z in zip(chunk_examples, chunk_crops, logits):
            text, runs = best_path_runs(z)
            same = text == example.text or (example.dots_optional and text.replace(".", "") == example.text)
            if not same or not text:
                continue
            # A text read means the crop gave columns: its width over theirs is the net's stride.
            line = cut(crop, text, runs, crop.shape[1] // len(z), example.dots_optional)
            if line is not None:
                candidates.append((example, line))
    out = []
    for i in range(0, len(candidates), 64):
        chunk = candidates[i : i + 64]
        alone = [pieces_alone(line) for _, line in chunk]
        logits = recognizer_logits(net, [p for pieces in alone for p in pieces])
        k = 0
        for (example, line), pieces in zip(chunk, alone):
            reads = [best_path_runs(z)[0] for z in logits[k : k + len(pieces)]]
            k += len(pieces)
            # Alone, a digit's piece is read without its point (a number does not end with one).
            if [r.replace(".", "") for r in reads] == [t.replace(".", "") for t in line.texts]:
                out.append((example, line))
    return out
