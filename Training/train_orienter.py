#!/usr/bin/env python3
"""Step 7: train the orienter, a small classifier that tells which way up a photo is.

    python Training/train_orienter.py --synthetic Training/work/synth --synthetic-val Training/work/synth-val \
        --out Training/work/orienter.pt --config Training/configs/orienter-r1.json [--steps 3000] [--seed 9] [--detector Models/reader/line-detector.safetensors]

The line detector finds lines in any orientation but cannot tell which way up a seven-segment line is (most
digits look alike upside down), so the reader shows this network the part of the photo around the lines found
and stands the photo upright where it is sure (Training/README.md, "Which way up"). Examples: generated scenes
(their quarter turn is the class) and the real training photos (upright), each shown turned all four ways, the
part around their lines as the detector (`--detector`) finds them, with other margins, or whole. Prints, on the
validation examples, the accuracy per source and turn, and how many photos a confidence threshold would turn
wrongly.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from budget import add_budget_arguments, budget_from
from device import add_device_argument, cpu_state, device_of, numpy_of, pick_device
from common import seed_everything
from stage_config import parse_args_with_config
from graphnet import GraphNet, freeze_batchnorm, load_folded
from models import orienter_layers
from infer import load_detector
from orienter_data import (ORIENTER_FILL, TRAIN_MARGIN, TRAIN_SIDE_JITTER, OrientedExample, orienter_input,
                           real_examples, region_crop, standardise, synthetic_examples, turned)

BATCH = 64
# Share of each batch drawn from the real photos (there are fewer of them, and they are what matters).
REAL_SHARE = 0.5
# Random crops of a whole photo keep at least this share of each side: the orienter must not need all of it.
MIN_CROP_SIDE = 0.7
# Share of the examples with lines found that are shown whole all the same (the reader shows the whole photo
# where the detector finds nothing).
WHOLE_SHARE = 0.15


def augmented(ex: OrientedExample, rng: random.Random) -> tuple[np.ndarray, int]:
    img = ex.image
    if ex.region is not None and rng.random() >= WHOLE_SHARE:
        # The region around the lines, with a margin and sides as a detector's other lines might give.
        jitter = tuple(rng.uniform(-TRAIN_SIDE_JITTER, TRAIN_SIDE_JITTER) * ex.tallest for _ in range(4))
        img = region_crop(ex.region, ex.lines_box, rng.uniform(*TRAIN_MARGIN) * ex.tallest, jitter)
    elif rng.random() < 0.7:
        h, w = img.shape
        ch = max(8, int(h * rng.uniform(MIN_CROP_SIDE, 1.0)))
        cw = max(8, int(w * rng.uniform(MIN_CROP_SIDE, 1.0)))
        y0, x0 = rng.randint(0, h - ch), rng.randint(0, w - cw)
        img = img[y0 : y0 + ch, x0 : x0 + cw]
    x = orienter_input(img).astype(np.float32)
    # Where the photo is, contrast and brightness jittered; sometimes inverted (lit digits on dark).
    inside = x != ORIENTER_FILL
    x[inside] = (x[inside] - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-30, 30)
    if rng.random() < 0.15:
        x[inside] = 255 - x[inside]
    if rng.random() < 0.3:
        x += np.float32(rng.uniform(2, 10)) * np.random.default_rng(rng.randrange(1 << 30)).standard_normal(x.shape).astype(np.float32)
    x = np.clip(x, 0, 255)
    k = rng.randrange(4)
    x, turns = turned(x, ex.turns, k)
    return x, turns


def batch(examples: list[OrientedExample], real: list[OrientedExample], rng: random.Random):
    xs, ys = [], []
    for _ in range(BATCH):
        pool = real if rng.random() < REAL_SHARE else examples
        x, y = augmented(pool[rng.randrange(len(pool))], rng)
        xs.append(standardise(x))
        ys.append(y)
    return torch.from_numpy(np.stack(xs)[:, None]), torch.tensor(ys)


@torch.no_grad()
def probabilities(net, examples: list[OrientedExample]):
    """For each example and each of the four turns shown: the class probabilities and the true class."""
    net.eval()
    out = []
    for ex in examples:
        base = orienter_input(ex.view())
        xs, ys = [], []
        for k in range(4):
            x, y = turned(base, ex.turns, k)
            xs.append(standardise(x))
            ys.append(y)
        p = numpy_of(net(torch.from_numpy(np.stack(xs)[:, None]).to(device_of(net))).reshape(len(xs), 4).softmax(1))
        out.append((p, np.array(ys)))
    net.train()
    return out


def report(net, val: list[OrientedExample]) -> float:
    sources = sorted({e.source for e in val})
    total_right = total = 0
    for source in sources:
        exs = [e for e in val if e.source == source]
        probs = probabilities(net, exs)
        right = sum(int((p.argmax(1) == y).sum()) for p, y in probs)
        n = sum(len(y) for _, y in probs)
        print(f"  {source:22s} {right}/{n} right ({right / max(1, n):.1%})")
        total_right += right
        total += n
    return total_right / max(1, total)


# The thresholds tried; the lowest that turns no upright validation photo and none wrongly is kept.
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995)


def validation_probabilities(net, val: list[OrientedExample]) -> dict[str, list]:
    """`probabilities` of the validation photos shown four ways up, real and generated apart: what both
    thresholds are chosen on."""
    groups = {"real": [e for e in val if e.source != "synthetic"], "generated": [e for e in val if e.source == "synthetic"]}
    return {name: probabilities(net, exs) for name, exs in groups.items()}


def thresholds(probs: dict[str, list]) -> float:
    """How a rule 'turn the photo where the orienter gives a turn at least probability t' does on the
    validation photos (`validation_probabilities`) for each t; returns the lowest t at which, real and generated
    alike, no upright photo is turned and none is turned the wrong way (the last one tried if none is)."""
    chosen = None
    for t in THRESHOLDS:
        safe = True
        for name, group in probs.items():
            turned_right = turned_wrong = upright_turned = missed = 0
            for p, y in group:
                for row, cls in zip(p, y):
                    k = int(row.argmax())
                    taken = k != 0 and row[k] >= t
                    if cls == 0:
                        upright_turned += taken
                    elif taken and k == cls:
                        turned_right += 1
                    elif taken:
                        turned_wrong += 1
                    else:
                        missed += 1
            print(f"  threshold {t:.3f}, {name}: turned photos stood upright {turned_right}, turned wrongly "
                  f"{turned_wrong}, left turned {missed}; upright photos turned {upright_turned}")
            safe = safe and turned_wrong == 0 and upright_turned == 0
        if chosen is None and safe:
            chosen = t
    return chosen if chosen is not None else THRESHOLDS[-1]


# The reader's second chance for a photo that gives nothing as it is: a quarter turn guessed at least this
# sure is read turned, and the opposite quarter turn too (a different value there refuses both). The lowest of
# THRESHOLDS at which, on the validation photos shown four ways up (real and generated apart), no upright or
# upside-down photo is guessed sideways and at most this share of the sideways guesses is the opposite quarter.
SIDEWAYS_OPPOSITE_SHARE = 0.02


def sideways_threshold(probs: dict[str, list]) -> float:
    for t in THRESHOLDS:
        safe = True
        for name, group in probs.items():
            right = opposite = not_sideways = 0
            for p, y in group:
                for row, cls in zip(p, y):
                    k = int(row.argmax())
                    if k % 2 == 0 or row[k] < t:
                        continue
                    if k == cls:
                        right += 1
                    elif cls % 2 == 1:
                        opposite += 1
                    else:
                        not_sideways += 1
            print(f"  sideways at {t:.3f}, {name}: right {right}, the opposite quarter {opposite}, "
                  f"upright or upside down {not_sideways}")
            safe = safe and not_sideways == 0 and opposite <= SIDEWAYS_OPPOSITE_SHARE * max(1, right + opposite)
        if safe:
            return t
    return THRESHOLDS[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synthetic", required=True, nargs="+", help="folders of generated scenes")
    ap.add_argument("--synthetic-val", required=True)
    ap.add_argument("--synthetic-limit", type=int, default=6000, help="scenes of each --synthetic folder to use")
    ap.add_argument("--init", help="a checkpoint (.pt) or an exported orienter (.safetensors) to start from")
    ap.add_argument("--out", required=True)
    add_budget_arguments(ap)
    add_device_argument(ap)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: its default)")
    ap.add_argument("--detector", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Models",
                    "reader", "line-detector.safetensors"),
                    help="the detector whose lines place the part of each photo the orienter sees")
    args = parse_args_with_config(ap)
    device = pick_device(args.device)  # before the data loads: a missing GPU is told at once
    seed_everything(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)

    t0 = time.time()
    detector = load_detector(args.detector)
    synthetic = [e for folder in args.synthetic
                 for e in synthetic_examples(folder, False, args.synthetic_limit, detector)]
    synthetic_val = synthetic_examples(args.synthetic_val, True, 600, detector)
    real = real_examples(detector)
    real_fit = [e for e in real if not e.validation]
    val = synthetic_val + [e for e in real if e.validation]
    print(f"examples: {len(synthetic)} generated, {len(real_fit)} real to fit, {len(val)} to validate "
          f"({time.time() - t0:.0f} s to load)", flush=True)

    net = GraphNet(orienter_layers(), 1)
    if args.init and args.init.endswith(".safetensors"):
        load_folded(net, args.init)  # an exported orienter (the committed one): its batchnorm frozen
    elif args.init:
        net.load_state_dict(torch.load(args.init))
    net = net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = budget_from(args)
    step = 0
    losses = []
    print(f"training for {budget.describe()}", flush=True)
    while not budget.spent(step):
        elapsed = budget.elapsed
        for group in opt.param_groups:  # one cycle over the budget
            frac = budget.fraction(step)
            group["lr"] = args.lr * min(1.0, frac / 0.1) * (0.5 * (1 + np.cos(np.pi * min(1.0, max(0.0, frac - 0.1) / 0.9))))
        if args.init and args.init.endswith(".safetensors"):
            freeze_batchnorm(net)
        x, y = batch(synthetic, real_fit, rng)
        x, y = x.to(device), y.to(device)
        logits = net(x).reshape(len(y), 4)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        step += 1
        if step % 200 == 0:
            print(f"step {step} ({elapsed / 60:.1f} min): loss {np.mean(losses[-200:]):.3f}", flush=True)
    torch.save(cpu_state(net), args.out)
    print(f"{step} steps; validation, each example shown four ways up:")
    report(net, val)
    probs = validation_probabilities(net, val)
    threshold = thresholds(probs)
    sideways = sideways_threshold(probs)
    calibration = os.path.splitext(args.out)[0] + ".json"
    with open(calibration, "w") as f:
        json.dump({"min_confidence": threshold, "sideways_confidence": sideways, "seed": args.seed, "steps": step}, f)
    print(f"threshold {threshold}, sideways {sideways} -> {calibration}")


if __name__ == "__main__":
    sys.exit(main())
