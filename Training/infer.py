"""Running the trained networks from Python, as the Swift reader runs them: for pseudo-labelling real photos,
calibration and quick checks."""
from __future__ import annotations

import numpy as np
import torch

from common import ALPHABET, Quad, crop_line
from detector_data import DetectedLine, decode, detector_input, standardise_photo
from graphnet import GraphNet
from line_examples import batch_tensor
from models import detector_layers, recognizer_layers


def load_detector(path: str) -> GraphNet:
    net = GraphNet(detector_layers(), input_channels=1)
    net.load_state_dict(torch.load(path))
    return net.eval()


def load_recognizer(path: str) -> GraphNet:
    net = GraphNet(recognizer_layers(), input_channels=1)
    net.load_state_dict(torch.load(path))
    return net.eval()


@torch.no_grad()
def detect(net: GraphNet, grey: np.ndarray) -> list[DetectedLine]:
    img, sx, sy = detector_input(grey)
    out = net(torch.from_numpy(standardise_photo(img))[None, None])[0].numpy()
    return decode(out, sx, sy)


@torch.no_grad()
def recognizer_logits(net: GraphNet, crops: list[np.ndarray]) -> list[np.ndarray]:
    """Per crop, T x C logits for its own T = width / 4 columns."""
    out = []
    for i in range(0, len(crops), 64):
        chunk = crops[i : i + 64]
        x, widths = batch_tensor(chunk)
        logits = net(x).squeeze(2).permute(0, 2, 1).numpy()  # N x T x C
        out += [logits[k, : w // 4] for k, w in enumerate(widths)]
    return out


def best_path(logits: np.ndarray, temperature: float = 1.0) -> tuple[str, float, list[float]]:
    """The best path's text, its probability (every column, blanks included) and each character's peak
    probability (ModelCharacterRecognizer does the same)."""
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    best = p.argmax(axis=1)
    top = p[np.arange(len(best)), best]
    text, runs = _runs(best)
    peaks = [float(top[first : last + 1].max()) for first, last in runs]
    return text, float(np.prod(top.astype(np.float64))), peaks


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
