"""Running the trained networks from Python, as the Swift reader runs them: for pseudo-labelling real photos,
calibration and quick checks."""
from __future__ import annotations

import json
import os

import numpy as np
import torch

from common import ALPHABET, DETECTOR_LONG_SIDE, Quad, crop_line, encode_text
from detector_data import DetectedLine, decode, detector_input, standardise_photo
from graphnet import GraphNet, load_exported, load_folded, load_graph_file
from line_examples import batch_tensor
from models import detector_layers, recognizer_layers


def load_network(layers: list[dict], path: str) -> GraphNet:
    """A checkpoint (.pt) or an exported file (.safetensors, such as the committed models), ready to run."""
    net = GraphNet(layers, input_channels=1)
    if path.endswith(".safetensors"):
        load_folded(net, path)
    else:
        net.load_state_dict(torch.load(path))
    return net.eval()


def load_detector(path: str) -> GraphNet:
    """A detector of any width (`detector_width`), with the long side it was trained at as `long_side`
    (`detector_long_side`)."""
    net = load_network(detector_layers(detector_width(path)), path)
    net.long_side = detector_long_side(path)
    return net


def detector_long_side(path: str) -> int:
    """The long side a detector was trained at: an exported file's `vitalsnap.detector.long_side`, a
    checkpoint's shape file's, else DETECTOR_LONG_SIDE (the files made before the long side could change)."""
    if path.endswith(".safetensors"):
        return int(load_exported(path)[2].get("vitalsnap.detector.long_side", DETECTOR_LONG_SIDE))
    shape = shape_path(path)
    if not os.path.exists(shape):
        return DETECTOR_LONG_SIDE
    with open(shape) as f:
        return int(json.load(f)["long_side"])


def detector_width(path: str) -> float:
    """The width (models.detector_layers) of a detector, checkpoint or exported file, from its first layer."""
    first = detector_layers()[0]
    if path.endswith(".safetensors"):
        out = load_exported(path)[1][f"{first['name']}.weight"].shape[0]
    else:
        out = torch.load(path)[f"convs.{first['name']}.weight"].shape[0]
    return out / first["out"]


def long_side_of(net: GraphNet) -> int:
    """The long side a loaded detector runs at (DETECTOR_LONG_SIDE for one made here without it)."""
    return getattr(net, "long_side", DETECTOR_LONG_SIDE)


def load_recognizer(path: str) -> GraphNet:
    """A recognizer of any width and stride (`models.recognizer_layers`) from a checkpoint, the width its first
    layer shows and the stride its shape file (`shape_path`) gives; an exported file from its own
    layer list, whatever it is (one recognizer or an ensemble of them, ensemble.py)."""
    if path.endswith(".safetensors"):
        return load_graph_file(path)
    return load_network(recognizer_layers(recognizer_width(path), recognizer_stride(path)), path)


def recognizer_width(path: str) -> float:
    """The width (models.recognizer_layers) of a recognizer checkpoint, from its first layer."""
    state = torch.load(path)
    return state["convs.c1.weight"].shape[0] / recognizer_layers()[0]["out"]


def shape_path(checkpoint: str) -> str:
    """Where a training script writes what a checkpoint's weights do not say: a checkpoint holds weights only,
    and a recognizer's stride or a detector's long side changes how the network runs, not its weights' shapes."""
    return checkpoint + ".shape.json"


def recognizer_stride(path: str) -> int:
    """The stride of a recognizer checkpoint: its shape file's, else 4 (the checkpoints made before strides)."""
    shape = shape_path(path)
    if not os.path.exists(shape):
        return 4
    with open(shape) as f:
        return int(json.load(f)["stride"])


# The second, closer look at the part of the photo holding the lines found (ModelLineLocator.Configuration):
ZOOM_MARGIN = 1.0          # digit heights of the tallest line found, around the lines
ZOOM_MAXIMUM_AREA = 0.5    # only when that part is at most this share of the photo
ZOOM_MINIMUM_SIDE = 16     # ...and at least this many pixels on each side


@torch.no_grad()
def detect_once(net: GraphNet, grey: np.ndarray) -> list[DetectedLine]:
    img, sx, sy = detector_input(grey, long_side_of(net))
    out = net(torch.from_numpy(standardise_photo(img))[None, None])[0].numpy()
    return decode(out, sx, sy)


def zoom_region(lines: list[DetectedLine], width: int, height: int) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the lines (values and auxiliary lines, all `decode` gives) with the margin around
    them, when small enough for a second look."""
    if not lines:
        return None
    margin = ZOOM_MARGIN * max(d.quad.height for d in lines)
    pts = np.concatenate([d.quad.pts for d in lines])
    x0, y0 = (int(np.floor(v)) for v in pts.min(axis=0) - margin)
    x1, y1 = (int(np.ceil(v)) for v in pts.max(axis=0) + margin)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 - x0 < ZOOM_MINIMUM_SIDE or y1 - y0 < ZOOM_MINIMUM_SIDE or (x1 - x0) * (y1 - y0) > ZOOM_MAXIMUM_AREA * width * height:
        return None
    return x0, y0, x1, y1


def detect(net: GraphNet, grey: np.ndarray) -> list[DetectedLine]:
    """The lines of a photo as ModelLineLocator finds them: one look at the whole photo, then, where the lines
    lie in a small part of it, a second look at that part alone (its lines replace the first look's)."""
    lines = detect_once(net, grey)
    region = zoom_region(lines, grey.shape[1], grey.shape[0])
    if region is None:
        return lines
    x0, y0, x1, y1 = region
    closer = detect_once(net, grey[y0:y1, x0:x1])
    for d in closer:
        d.quad = Quad(d.quad.pts + np.array([x0, y0], dtype=float))
    return closer or lines


@torch.no_grad()
def recognizer_logits(net: GraphNet, crops: list[np.ndarray]) -> list[np.ndarray]:
    """Per crop, T x C logits for its own T = width / stride columns (the stride is what the network makes of
    the batch's padded width)."""
    out = []
    for i in range(0, len(crops), 64):
        chunk = crops[i : i + 64]
        x, widths = batch_tensor(chunk)
        logits = net(x).squeeze(2).permute(0, 2, 1).numpy()  # N x T x C
        stride = x.shape[3] // logits.shape[1]
        out += [logits[k, : w // stride] for k, w in enumerate(widths)]
    return out


def best_path(logits: np.ndarray, temperature: float = 1.0) -> tuple[str, float, list[float]]:
    """The best path's text, its probability (every column, blanks included) and each character's peak
    probability. (ModelCharacterRecognizer's line confidence is `text_probability` of that text.)"""
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    best = p.argmax(axis=1)
    top = p[np.arange(len(best)), best]
    text, runs = _runs(best)
    peaks = [float(top[first : last + 1].max()) for first, last in runs]
    return text, float(np.prod(top.astype(np.float64))), peaks


def text_probability(logits: np.ndarray, text: str, temperature: float = 1.0, points_may_drop: bool = False) -> float:
    """The probability of `text` summed over all its alignments to the columns (ModelCharacterRecognizer's line
    confidence, CTCLabelProbability): the CTC loss is its negative log. In float64, as the Swift reader.

    With `points_may_drop`, the probability of `text` or of `text` without its decimal points (two texts, so
    their probabilities add): a crop may lose a point, but one that shows a point the text lacks still
    disagrees."""
    log_probs = torch.from_numpy(np.asarray(logits, dtype=np.float64) / temperature).log_softmax(1)

    def probability(t: str) -> float:
        target = torch.tensor(encode_text(t), dtype=torch.long)
        nll = torch.nn.functional.ctc_loss(log_probs[:, None], target[None], [len(log_probs)], [len(target)],
                                           blank=0, reduction="none")
        return float(torch.exp(-nll)[0])

    p = probability(text)
    without_points = text.replace(".", "")
    if points_may_drop and without_points and without_points != text:
        p += probability(without_points)
    return p


# The least probability one view counts with, so that a view sure of another text does not make the log -inf.
VIEW_PROBABILITY_FLOOR = 1e-12


def views_probability(view_logits: list[np.ndarray], text: str, temperature: float = 1.0) -> float:
    """How sure the recognizer is of `text` over several crops of one line (the located one first, then its
    AGREEMENT_VIEWS): the geometric mean of its probability in each (Swift: ViewAgreement). A view that reads
    the line otherwise gives the text a low probability and pulls the mean down as far as it is sure of its
    own reading; one that hesitates pulls it down a little. A view may lose the text's decimal points
    (`points_may_drop`): a point sits on the line's lower edge, which a view moves, so a view without it says
    little; a view that shows a point the text lacks disagrees."""
    logs = [np.log(max(text_probability(z, text, temperature, points_may_drop=k > 0), VIEW_PROBABILITY_FLOOR))
            for k, z in enumerate(view_logits)]
    return float(np.exp(np.mean(logs)))


def best_path_runs(logits: np.ndarray) -> tuple[str, list[tuple[int, int]]]:
    """The best path's text and, per character, its first and last output column (a temperature changes
    neither)."""
    return _runs(logits.argmax(axis=1))


def _runs(best: np.ndarray) -> tuple[str, list[tuple[int, int]]]:
    """Per output column's class -> the text (runs merged, blanks dropped) and each character's columns."""
    text, runs, prev = [], [], 0
    for t, k in enumerate(best):
        if k != 0 and k != prev:
            text.append(ALPHABET[k - 1])
            runs.append((t, t))
        elif k != 0:
            runs[-1] = (runs[-1][0], t)
        prev = k
    return "".join(text), runs


def read_line(net: GraphNet, grey: np.ndarray, quad: Quad, temperature: float = 1.0) -> tuple[str, float]:
    text, prob, _ = best_path(recognizer_logits(net, [crop_line(grey, quad)])[0], temperature)
    return text, prob
