#!/usr/bin/env python3
"""Step 4: train the line detector on synthetic scenes (and pseudo-labelled real photos).

    python Training/train_detector.py --synthetic Training/work/synth --out Training/work/detector.pt \
        --config Training/configs/detector-r1.json [--steps 3400] [--init Training/work/detector-round1.pt] [--real Training/work/pseudo/scenes.jsonl]

The network is fully convolutional, so it trains on windows of CROP x CROP detector-input pixels (cheaper
than whole photos by the ratio of their areas) that mostly hold a line, and runs on whole photos.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

import numpy as np
import torch

from budget import add_budget_arguments, budget_from, one_cycle_lr
from made_ahead import made_ahead
from device import add_device_argument, cpu_state, device_of, numpy_of, pick_device
from common import DETECTOR_LONG_SIDE, DETECTOR_STRIDE, Quad, load_rgb, seed_everything, to_grey
from real_data import is_validation, whole_image_lines, whole_image_quad
from detector_data import (IGNORE, LabelledLine, LabelledScene, decode, detector_input, read_scenes,
                           standardise_photo, targets)
from stage_config import parse_args_with_config
from graphnet import GraphNet, freeze_batchnorm, load_folded
from infer import detector_width, long_side_of, shape_path
from models import detector_layers

BATCH = 24                       # windows per step (default of --batch)
CROP = 128                       # training window, detector-input pixels, a multiple of 16 (default of --crop)
CLASS_WEIGHTS = [1.0, 3.0, 2.0, 1.5]
REAL_SHARE = 0.25                # of a batch, when pseudo-labelled real scenes are given
# Display crops: a share of the synthetic scenes is cut down to a box around one value line, so the detector
# also learns photos that are only the display or only the line (a clinic's cropped photos, a meter's reading
# line), where the digits fill most of the frame and may touch its edges.
ZOOM_SHARE = 0.3
ZOOM_ROOM_ACROSS = (1.0, 4.0)    # crop side across the line, in multiples of its box side (1: edge to edge)
ZOOM_ROOM_ALONG = (1.02, 2.5)    # crop side along the line, likewise
# Share of training windows turned by a quarter turn (90, 180 or 270 degrees, equally likely; default of
# --turn-share). The real photos are almost all upright and outnumber the synthetic scenes' own turns in
# later fine-tuning, and a detector taught mostly upright lines guesses (1, 0) for the reading direction of a
# turned one. Turning a window turns its targets with it, so every source also teaches the other three ways up.
TURN_SHARE = 0.0
# Share of scenes tilted by an angle drawn evenly within +-TILT_MAX_DEGREES before their window is cut (default
# of --tilt-share): displays photographed at a slant and one-line crops cut from turned photos (a BP field
# drawn at 30-45 degrees inside its crop) show lines at any angle, while the scenes mostly tilt a few degrees.
TILT_SHARE = 0.0
TILT_MAX_DEGREES = 50.0


def whole_line_scenes() -> list[LabelledScene]:
    """The real images that are one line each (a reading line, one BP field), outside the validation share:
    the whole image is the value line."""
    from PIL import Image

    out = []
    for example in whole_image_lines():
        if is_validation(example.source, example.group):
            continue
        with Image.open(example.path) as im:
            width, height = im.size
        out.append(LabelledScene(example.path, [LabelledLine(whole_image_quad(example.source, width, height), 1)],
                                 example.source))
    return out


def zoomed(grey: np.ndarray, lines: list[LabelledLine], rng: random.Random):
    """A box of the photo around one value line (see ZOOM_SHARE), and the lines moved into it; a line the box
    cuts is neither taught nor punished. None when the scene has no value line."""
    values = [l for l in lines if l.cls == 1]
    if not values:
        return None
    line = rng.choice(values)
    lo, hi = line.quad.pts.min(axis=0), line.quad.pts.max(axis=0)
    size = hi - lo
    along = 0 if abs(line.quad.direction[0]) >= abs(line.quad.direction[1]) else 1
    room = np.empty(2)
    room[along] = rng.uniform(*ZOOM_ROOM_ALONG)
    room[1 - along] = rng.uniform(*ZOOM_ROOM_ACROSS)
    box = size * room
    x0, y0 = (lo - rng.uniform(0, 1) * (box - size)).astype(int)
    x1, y1 = (np.array([x0, y0]) + box).astype(int) + 1
    h, w = grey.shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    moved = []
    for l in lines:
        pts = l.quad.pts - np.array([x0, y0])
        inside = (pts[:, 0] >= -1).all() and (pts[:, 1] >= -1).all() and (pts[:, 0] <= x1 - x0 + 1).all() \
            and (pts[:, 1] <= y1 - y0 + 1).all()
        moved.append(LabelledLine(Quad(pts), l.cls if inside else IGNORE))
    return grey[y0:y1, x0:x1], moved


def read_real(path: str) -> list[LabelledScene]:
    """Pseudo-labelled real scenes (pseudo_label.py's scenes.jsonl)."""
    out = []
    with open(path) as f:
        for text in f:
            s = json.loads(text)
            lines = [LabelledLine(Quad(np.array(l["quad"], dtype=np.float64)), l["cls"]) for l in s["lines"]]
            # A path relative to the file is in its folder (Training/gpu/pack_real.py writes such).
            out.append(LabelledScene(os.path.join(os.path.dirname(os.path.abspath(path)), s["path"]), lines, s["source"]))
    return out


def tilted(img: np.ndarray, lines: list[LabelledLine], degrees: float):
    """The image turned counter-clockwise by `degrees` about its centre on a canvas grown to hold all of it
    (the corners filled with the median of its border), and its lines turned with it."""
    from PIL import Image

    h, w = img.shape
    border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    out = Image.fromarray(img.astype(np.uint8)).rotate(degrees, resample=Image.BILINEAR, expand=True,
                                                      fillcolor=int(np.median(border)))
    a = math.radians(degrees)
    # Counter-clockwise on screen, with y pointing down.
    m = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    before, after = np.array([w / 2, h / 2]), np.array([out.width / 2, out.height / 2])
    moved = [LabelledLine(Quad((l.quad.pts - before) @ m.T + after), l.cls) for l in lines]
    return np.asarray(out), moved


class Prepared:
    """A scene brought to the detector's input size, with its lines in input pixels and its targets; cached for
    real photos (few, large). A draw may be tilted (see TILT_SHARE): its targets are then made anew."""

    def __init__(self, tilt_share: float = TILT_SHARE, long_side: int = DETECTOR_LONG_SIDE):
        self.cache: dict[str, tuple] = {}
        self.tilt_share = tilt_share
        self.long_side = long_side

    def get(self, scene: LabelledScene, rng: random.Random, cache: bool):
        if cache and scene.path in self.cache:
            img, lines, item = self.cache[scene.path]
        else:
            grey = to_grey(load_rgb(scene.path), rng)
            lines = scene.lines
            if not cache and rng.random() < ZOOM_SHARE:
                cut = zoomed(grey, lines, rng)
                if cut is not None:
                    grey, lines = cut
            img, sx, sy = detector_input(grey, self.long_side)
            lines = [LabelledLine(Quad(l.quad.pts / np.array([sx, sy])), l.cls) for l in lines]
            item = (img, *targets(lines, img.shape[1], img.shape[0], 1.0, 1.0))
            if cache:
                self.cache[scene.path] = (img, lines, item)
        if self.tilt_share > 0 and rng.random() < self.tilt_share:
            img, lines = tilted(img, lines, rng.uniform(-TILT_MAX_DEGREES, TILT_MAX_DEGREES))
            # Whole cells only, as the detector's input always is.
            g = DETECTOR_STRIDE
            img = img[: img.shape[0] // g * g, : img.shape[1] // g * g]
            item = (img, *targets(lines, img.shape[1], img.shape[0], 1.0, 1.0))
        return item


def window(item, rng: random.Random, crop: int):
    """A crop x crop window (padded by edge repeat where the photo is smaller), centred on a line cell
    four times out of five."""
    img, cls, reg, mask = item
    h, w = img.shape
    if h < crop or w < crop:
        ph, pw = max(0, crop - h), max(0, crop - w)
        img = np.pad(img, ((0, ph), (0, pw)), mode="edge")
        g = DETECTOR_STRIDE
        cls = np.pad(cls, ((0, ph // g), (0, pw // g)), constant_values=IGNORE)
        reg = np.pad(reg, ((0, 0), (0, ph // g), (0, pw // g)))
        mask = np.pad(mask, ((0, ph // g), (0, pw // g)))
        h, w = img.shape
    ys, xs = np.nonzero(cls > 0)
    if len(ys) and rng.random() < 0.8:
        k = rng.randrange(len(ys))
        cx, cy = xs[k] * DETECTOR_STRIDE, ys[k] * DETECTOR_STRIDE
        x0 = min(max(0, cx - rng.randrange(crop)), w - crop)
        y0 = min(max(0, cy - rng.randrange(crop)), h - crop)
    else:
        x0, y0 = rng.randrange(w - crop + 1), rng.randrange(h - crop + 1)
    x0 -= x0 % DETECTOR_STRIDE
    y0 -= y0 % DETECTOR_STRIDE
    g = DETECTOR_STRIDE
    c0, r0, n = x0 // g, y0 // g, crop // g
    return (img[y0 : y0 + crop, x0 : x0 + crop], cls[r0 : r0 + n, c0 : c0 + n],
            reg[:, r0 : r0 + n, c0 : c0 + n], mask[r0 : r0 + n, c0 : c0 + n])


def turned(item, quarter_turns: int):
    """A window and its targets turned counter-clockwise (as np.rot90) by `quarter_turns`: a reading direction
    (cos, sin) in image coordinates (y down) becomes (sin, -cos) at each turn."""
    img, cls, reg, mask = item
    for _ in range(quarter_turns % 4):
        img, cls, mask = np.rot90(img), np.rot90(cls), np.rot90(mask)
        reg = np.stack([np.rot90(reg[0]), np.rot90(reg[2]), -np.rot90(reg[1])])
    return tuple(np.ascontiguousarray(a) for a in (img, cls, reg, mask))


def augment(img: np.ndarray, rng: random.Random) -> np.ndarray:
    x = img.astype(np.float32)
    if rng.random() < 0.5:
        x = 255.0 * (x / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.5:
        x = x * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        x = x + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 10), x.shape)
    return np.clip(x, 0, 255)


def loss_fn(out, cls, reg, mask):
    weights = torch.tensor(CLASS_WEIGHTS, device=out.device)
    ce = torch.nn.functional.cross_entropy(out[:, :4], cls, weight=weights, ignore_index=IGNORE)
    m = mask.unsqueeze(1)
    n = mask.sum().clamp(min=1)
    height = (torch.nn.functional.smooth_l1_loss(out[:, 4:5], reg[:, 0:1], reduction="none") * m).sum() / n
    direction = (torch.nn.functional.smooth_l1_loss(out[:, 5:7], reg[:, 1:3], reduction="none") * m).sum() / n
    return ce + height + direction, (ce.item(), height.item(), direction.item())


# A found line's reading direction is right when within 20 degrees of the truth's.
DIRECTION_AGREES = math.cos(math.radians(20))


def evaluate(net, scenes: list[LabelledScene], rng: random.Random) -> dict:
    """Value lines found (centre inside a detected value line of similar height), how many of those with their
    reading direction within 20 degrees, and false values."""
    net.eval()
    found = total = false = aimed = 0
    with torch.no_grad():
        for scene in scenes:
            grey = to_grey(load_rgb(scene.path))
            img, sx, sy = detector_input(grey, long_side_of(net))
            out = numpy_of(net(torch.from_numpy(standardise_photo(img))[None, None].to(device_of(net)))[0])
            detected = [d for d in decode(out, sx, sy) if d.cls == 1]
            truth = [l for l in scene.lines if l.cls == 1]
            for t in truth:
                total += 1
                hits = [d for d in detected if _matches(d.quad, t.quad)]
                if hits:
                    found += 1
                    aimed += any(float(d.quad.direction @ t.quad.direction) >= DIRECTION_AGREES for d in hits)
            false += sum(1 for d in detected if not any(_matches(d.quad, l.quad) for l in scene.lines if l.cls in (1, IGNORE)))
    net.train()
    return {"value recall": found / max(1, total), "direction right": aimed / max(1, found), "values": total,
            "false values": false, "scenes": len(scenes)}


def _matches(d: Quad, t: Quad) -> bool:
    """d's centre lies in t's box and the heights agree within 35%."""
    e = t.direction
    n = np.array([-e[1], e[0]])
    c = d.center - t.center
    return abs(c @ e) <= t.length / 2 and abs(c @ n) <= t.height / 2 and 0.65 <= d.height / max(t.height, 1e-6) <= 1.35


class Batches:
    """The training batches, step by step. Each step's batch is drawn with a generator seeded by the run's seed
    and the step alone, so it is the same batch whether this process makes it or one of `workers` others do
    (a GPU outpaces one process's JPEG decoding and resizing: `--workers`)."""

    def __init__(self, args, synthetic: list[LabelledScene], real: list[LabelledScene]):
        self.args, self.synthetic, self.real = args, synthetic, real
        self.prepared = Prepared(args.tilt_share, args.long_side)

    def make(self, step: int):
        args = self.args
        rng = random.Random(args.seed * 1_000_003 + step)
        items = []
        for _ in range(args.batch):
            if self.real and rng.random() < REAL_SHARE:
                item = self.prepared.get(rng.choice(self.real), rng, cache=True)
            else:
                item = self.prepared.get(rng.choice(self.synthetic), rng, cache=False)
            img, cls, reg, mask = window(item, rng, args.crop)
            if args.turn_share > 0 and rng.random() < args.turn_share:
                img, cls, reg, mask = turned((img, cls, reg, mask), rng.randint(1, 3))
            items.append((standardise_photo(augment(img, rng)), cls, reg, mask))
        return tuple(np.stack([i[k] for i in items]) for k in range(4))

    def __iter__(self):
        # Four steps' batches asked for ahead per worker.
        return made_ahead(self.make, self.args.workers, 4 * self.args.workers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synthetic", required=True, nargs="+", help="generated scene folders (one or more)")
    ap.add_argument("--synthetic-val")
    ap.add_argument("--real", action="append", default=[], help="pseudo-labelled real scenes (scenes.jsonl)")
    ap.add_argument("--whole-lines", action="store_true",
                    help="add the real one-line images (reading lines, BP fields) as scenes whose whole image is the value")
    ap.add_argument("--out", required=True)
    ap.add_argument("--init", help="start from these weights: a checkpoint (.pt) or an exported file "
                    "(.safetensors, its batchnorm then frozen: graphnet.load_folded)")
    ap.add_argument("--cut-lines", choices=("ignore", "background"), default="ignore",
                    help="generated value lines the frame cuts: not taught (ignore) or taught as background")
    add_budget_arguments(ap)
    add_device_argument(ap)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--crop", type=int, default=CROP, help="training window side (a multiple of 16)")
    ap.add_argument("--batch", type=int, default=BATCH, help="windows per step")
    ap.add_argument("--turn-share", type=float, default=TURN_SHARE,
                    help="share of training windows turned by 90, 180 or 270 degrees (see TURN_SHARE)")
    ap.add_argument("--tilt-share", type=float, default=TILT_SHARE,
                    help="share of scenes tilted by up to TILT_MAX_DEGREES either way (see TILT_SHARE)")
    ap.add_argument("--long-side", type=int, default=DETECTOR_LONG_SIDE,
                    help="the photo's long side at the detector's input, a multiple of 16 (the reader follows the "
                         "file: vitalsnap.detector.long_side)")
    ap.add_argument("--width", type=float, default=1.0,
                    help="channels as a multiple of the first detector's (models.detector_layers); an --init file "
                         "must be as wide")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes that make the batches (0: this one); the batches are the same either way")
    ap.add_argument("--threads", type=int, default=max(1, os.cpu_count() or 1))
    args = parse_args_with_config(ap)
    device = pick_device(args.device)  # before the data loads: a missing GPU is told at once

    seed_everything(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    if args.long_side % 16 or not 128 <= args.long_side <= 1024:
        raise SystemExit(f"--long-side {args.long_side}: a multiple of 16 from 128 to 1024")
    synthetic = [s for folder in args.synthetic for s in read_scenes(folder, args.cut_lines)]
    real = [s for path in args.real for s in read_real(path)]
    if args.whole_lines:
        real += whole_line_scenes()
    val = read_scenes(args.synthetic_val)[:300] if args.synthetic_val else []
    print(f"synthetic scenes {len(synthetic)}, real scenes {len(real)}", flush=True)

    net = GraphNet(detector_layers(args.width), input_channels=1)
    if args.init and detector_width(args.init) != args.width:
        raise SystemExit(f"--init {args.init}: width {detector_width(args.init):g}, not --width {args.width:g}")
    if args.init and args.init.endswith(".safetensors"):
        load_folded(net, args.init)  # an exported detector (the committed one)
        freeze_batchnorm(net)  # its statistics are the identity the folded weights were put back with
    elif args.init:
        net.load_state_dict(torch.load(args.init))
    net.long_side = args.long_side
    batches = iter(Batches(args, synthetic, real))
    net = net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = budget_from(args)
    step = seen = 0
    running = None
    print(f"training for {budget.describe()}", flush=True)
    while not budget.spent(step):
        lr = one_cycle_lr(args.lr, budget.fraction(step))
        for g in opt.param_groups:
            g["lr"] = lr
        x, cls, reg, mask = (torch.from_numpy(a).to(device) for a in next(batches))
        x = x[:, None]
        loss, parts = loss_fn(net(x), cls, reg, mask)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        step += 1
        seen += args.batch
        if step % 100 == 0:
            print(f"{budget.elapsed / 60:5.1f} min  step {step}  windows {seen}  loss {running:.3f} "
                  f"(ce {parts[0]:.3f} h {parts[1]:.3f} dir {parts[2]:.3f})  lr {lr:.2e}", flush=True)
    torch.save(cpu_state(net), args.out)
    with open(shape_path(args.out), "w") as f:
        json.dump({"long_side": args.long_side}, f)
    print(f"trained {step} steps, {seen} windows in {budget.elapsed / 60:.1f} min -> {args.out}")
    if val:
        print("validation:", evaluate(net, val, rng), flush=True)


if __name__ == "__main__":
    sys.exit(main())
