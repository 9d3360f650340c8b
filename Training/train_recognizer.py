#!/usr/bin/env python3
"""Step 3: train the line recognizer (CTC over a 32-row crop) on synthetic and real lines.

    python Training/train_recognizer.py --synthetic Training/work/synth --out Training/work/recognizer.pt \
        --config Training/configs/recognizer-r1.json [--steps 4500] [--init Training/work/recognizer-round1.pt] \
        [--extra-lines Training/work/pseudo/lines.tsv]

Training runs for a budget of steps (budget.py; --minutes for trying things by hand) rather than epochs (the data
is generated without end), with a one-cycle learning rate over that budget. Prints the validation line accuracy
per source at the end.
"""
from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import random
import sys

import numpy as np
import torch

from budget import add_budget_arguments, budget_from, one_cycle_lr
from made_ahead import made_ahead
from device import add_device_argument, cpu_state, device_of, pick_device
from common import ALPHABET, CHAR_INDEX, MODELS, encode_text, seed_everything
from graphnet import GraphNet, freeze_batchnorm
from infer import load_network, load_recognizer, shape_path
from line_examples import (SHARE_REAL, ImageCache, LineSampler, batch_tensor, read_context_lines, read_synthetic,
                           split_digits, split_real)
from models import RECOGNIZER_STRIDES, recognizer_layers
from recombine import CutLine, cut_lines
from widen import widen_exported
from real_data import LineExample, agrees, digit_crops, labelled_lines, match_rules, read_lines_tsv
from stage_config import parse_args_with_config

BATCH = 48
# Samples drawn at once, sorted by width and cut into batches, so a batch pads little.
POOL_BATCHES = 24
# The weights are written to --out this often (seconds) while training, and at the end.
CHECKPOINT_EVERY = 600
DOT = CHAR_INDEX["."]


def greedy_decode(log_probs: torch.Tensor, lengths: list[int]) -> list[str]:
    """log_probs: T x N x C. Best path, repeats merged, blanks dropped."""
    best = log_probs.argmax(dim=2).T.tolist()
    out = []
    for seq, n in zip(best, lengths):
        text, prev = [], 0
        for k in seq[:n]:
            if k != prev and k != 0:
                text.append(ALPHABET[k - 1])
            prev = k
        out.append("".join(text))
    return out


def forward(net, crops):
    x, widths = batch_tensor(crops)
    logits = net(x.to(device_of(net)))  # N x C x 1 x T
    log_probs = logits.squeeze(2).permute(2, 0, 1).log_softmax(2)  # T x N x C
    stride = x.shape[3] // log_probs.shape[0]
    return log_probs, [w // stride for w in widths]


def ctc_log_probs(log_probs: torch.Tensor, dots_optional: list[bool]) -> torch.Tensor:
    """For the lines whose text leaves out decimal points (LineExample.dots_optional), a decimal point read
    counts as a blank: its probability is added to the blank's, so the loss neither asks for one nor punishes
    one, and the line still teaches its digits."""
    mask = torch.tensor(dots_optional, dtype=torch.bool, device=log_probs.device)
    if not mask.any():
        return log_probs
    merged = torch.logaddexp(log_probs[:, :, 0], log_probs[:, :, DOT])  # T x N
    blank = torch.where(mask[None, :], merged, log_probs[:, :, 0])
    return torch.cat([blank.unsqueeze(2), log_probs[:, :, 1:]], dim=2)


def evaluate(net, sampler: LineSampler, val: list[LineExample], synthetic_val: list[tuple[str, str]],
             rules: dict[str, str]) -> dict[str, float]:
    """Lines read right per source, each source's lines compared by its rule (real_data.line_match_rule)."""
    net.eval()
    rng = random.Random(0)
    results: dict[str, list[bool]] = {}
    with torch.no_grad():
        items = [(sampler.real_line(e, rng, jitter=False), e.source) for e in val]
        from PIL import Image

        items += [((np.asarray(Image.open(p).convert("L")), t), "synthetic") for p, t in synthetic_val]
        for i in range(0, len(items), 64):
            chunk = items[i : i + 64]
            log_probs, lengths = forward(net, [c for (c, _), _ in chunk])
            for text, ((_, truth), source) in zip(greedy_decode(log_probs, lengths), chunk):
                right = text == truth if source == "synthetic" else agrees(text, truth, rules.get(source, "exact"))
                results.setdefault(source, []).append(right)
    net.train()
    return {k: sum(v) / len(v) for k, v in sorted(results.items())} | {"count": {k: len(v) for k, v in results.items()}}


def recombinable(sampler: LineSampler, lines: list[LineExample], cutter: str) -> dict[str, list[CutLine]]:
    """The training lines the cutter reads as their own text, cut into digits, per source."""
    rng = random.Random(0)
    crops = [sampler.real_line(e, rng, jitter=False)[0] for e in lines]
    out: dict[str, list[CutLine]] = {}
    for example, line in cut_lines(load_recognizer(cutter), lines, crops):
        out.setdefault(example.source, []).append(line)
    print("lines cut for recombining: " + ", ".join(f"{k} {len(v)}" for k, v in sorted(out.items())), flush=True)
    return out


class Pools:
    """The training batches, a pool at a time: POOL_BATCHES batches' worth of lines drawn with a generator seeded
    by the run's seed and the pool's number alone, sorted by width (so a batch pads little), cut into batches and
    shuffled. A pool is the same whether this process makes it or one of `workers` others do (a GPU outpaces one
    process's augmenting: `--workers`)."""

    def __init__(self, sampler: LineSampler, seed: int, batch: int, stride: int):
        self.sampler, self.seed, self.batch, self.stride = sampler, seed, batch, stride

    def make(self, number: int) -> list[list[tuple[np.ndarray, str, bool]]]:
        rng = random.Random(self.seed * 1_000_003 + number)
        pool = [self.sampler.sample(rng) for _ in range(self.batch * POOL_BATCHES)]
        # CTC needs an output column for every character and one between repeats.
        pool = [(c, t, d) for c, t, d in pool if 2 * len(t) + 1 <= c.shape[1] // self.stride or not t]
        pool.sort(key=lambda ct: ct[0].shape[1])
        batches = [pool[i : i + self.batch] for i in range(0, len(pool), self.batch)]
        rng.shuffle(batches)
        return batches

    def batches(self, workers: int):
        """Batches without end, pool after pool; made by `workers` forked processes when over 0, two pools
        asked for ahead per worker."""
        for pool in made_ahead(self.make, workers, 2 * workers):
            yield from pool


def read_packed(folder: str) -> tuple[list[LineExample], dict[str, list[tuple[str, str]]], dict[str, str]]:
    """The real lines, digit crops and each source's match rule that Training/gpu/pack_lines.py wrote (on a
    machine without ../shared)."""
    lines = read_lines_tsv(os.path.join(folder, "lines.tsv"), folder)
    with open(os.path.join(folder, "lines.tsv"), newline="") as f:
        rules = {row["source"]: row["rule"] for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
    digits: dict[str, list[tuple[str, str]]] = {}
    with open(os.path.join(folder, "digits.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            digits.setdefault(row["style"], []).append((os.path.join(folder, row["path"]), row["digit"]))
    return lines, digits, rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synthetic", required=True, nargs="+",
                    help="output folders of `vitalsnap samples training-set` (one or more: the general set, families)")
    ap.add_argument("--synthetic-val", help="a second generated folder (another seed) to validate on")
    ap.add_argument("--extra-lines", action="append", default=[], help="lines.tsv of pseudo-labelled real lines")
    ap.add_argument("--out", required=True)
    ap.add_argument("--init", help="start from these weights (fine-tuning): a checkpoint (.pt) or an exported "
                    "file (.safetensors, its batchnorm then frozen: graphnet.load_folded)")
    ap.add_argument("--width", type=float, default=1.0, help="channels as a multiple of the first recognizer's "
                    "(models.recognizer_layers); an --init file that is narrower is widened to it")
    ap.add_argument("--stride", type=int, default=4, choices=RECOGNIZER_STRIDES,
                    help="crop columns per output column (models.recognizer_layers); an --init file of another "
                    "stride gives its weights, which have the same shapes")
    ap.add_argument("--recombine", type=float, default=0.0, metavar="SHARE",
                    help="share of each real source's draws that are one of its lines cut into digits and "
                    "recombined (recombine.py; 0: none)")
    ap.add_argument("--cutter", default=os.path.join(MODELS, "reader", "line-recognizer.safetensors"),
                    help="the recognizer that finds the digits of the lines to recombine (default the committed one)")
    ap.add_argument("--packed-lines", metavar="DIR", help="the real lines and digit crops from this folder "
                    "(Training/gpu/pack_lines.py) instead of ../shared and the pseudo-labelled lines.tsv files")
    ap.add_argument("--batch", type=int, default=BATCH, help="lines per optimizer step")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes that make the batches (0: this one); each pool depends on the seed and its number only")
    ap.add_argument("--real-share", type=float, default=SHARE_REAL, help="share of real lines among those drawn")
    add_budget_arguments(ap)
    add_device_argument(ap)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=max(1, os.cpu_count() or 1))
    args = parse_args_with_config(ap)
    device = pick_device(args.device)  # before the data loads: a missing GPU is told at once

    seed_everything(args.seed)
    torch.set_num_threads(args.threads)

    if args.packed_lines:
        real, digits, rules = read_packed(args.packed_lines)
    else:
        real = labelled_lines() + [e for extra in args.extra_lines for e in read_lines_tsv(extra)]
        digits = digit_crops()
        rules = match_rules(e.source for e in real)
    real_train, real_val = split_real(real)
    sampler = LineSampler([l for folder in args.synthetic for l in read_synthetic(folder)], real_train,
                          split_digits(digits), ImageCache(),
                          [l for folder in args.synthetic for l in read_context_lines(folder)], share_real=args.real_share)
    if args.recombine > 0:
        sampler.recombinable, sampler.share_recombined = recombinable(sampler, real_train, args.cutter), args.recombine
    synthetic_val = read_synthetic(args.synthetic_val)[:2000] if args.synthetic_val else []
    print(f"synthetic lines {len(sampler.synthetic)} (+{len(sampler.context)} value lines in their scenes), "
          f"real lines {len(real_train)} (+{len(real_val)} validation)", flush=True)

    layers = recognizer_layers(args.width, args.stride)
    stride = args.stride
    if args.init and args.init.endswith(".safetensors"):
        # An exported file as wide as `--width` is taken as it is; a narrower one is widened (widen.py).
        net = widen_exported(args.init, layers, args.seed).train()
        freeze_batchnorm(net)  # its statistics are the identity the folded weights were put back with
    else:
        net = load_network(layers, args.init).train() if args.init else GraphNet(layers, 1)
    pools = Pools(sampler, args.seed, args.batch, stride)
    batches = pools.batches(args.workers)
    first = next(batches)  # the workers forked now, before the network goes to a GPU: they never touch CUDA
    net = net.to(device)
    with open(shape_path(args.out), "w") as f:
        json.dump({"stride": stride}, f)  # the width is read from the weights (infer.recognizer_width)
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = budget_from(args)
    step, seen, running, saved = 0, 0, None, 0.0
    print(f"training for {budget.describe()}", flush=True)
    for batch in itertools.chain([first], batches):
        if budget.spent(step):
            break
        elapsed = budget.elapsed
        lr = one_cycle_lr(args.lr, budget.fraction(step))
        for g in opt.param_groups:
            g["lr"] = lr
        log_probs, lengths = forward(net, [c for c, _, _ in batch])
        log_probs = ctc_log_probs(log_probs, [d for _, _, d in batch])
        targets = [encode_text(t) for _, t, _ in batch]
        flat = torch.tensor([k for t in targets for k in t], dtype=torch.long, device=device)
        loss = ctc(log_probs, flat, torch.tensor(lengths), torch.tensor([len(t) for t in targets]))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        step += 1
        seen += len(batch)
        if step % 200 == 0:
            print(f"{elapsed / 60:5.1f} min  step {step}  samples {seen}  loss {running:.3f}  lr {lr:.2e}", flush=True)
        if elapsed - saved >= CHECKPOINT_EVERY:
            torch.save(cpu_state(net), args.out)  # a run cut short keeps what it learned
            saved = elapsed
    torch.save(cpu_state(net), args.out)
    print(f"trained {step} steps, {seen} samples in {budget.elapsed / 60:.1f} min -> {args.out}")
    print("validation line accuracy:", evaluate(net, sampler, real_val, synthetic_val, rules), flush=True)


if __name__ == "__main__":
    sys.exit(main())
