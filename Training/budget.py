"""How long a training run lasts: a number of optimizer steps, so that a run is replayed step for step on any
machine; or, for trying things by hand, minutes of wall-clock time (not replayable: a faster machine takes
more steps).

The learning-rate schedules follow `Budget.fraction`, the share of the run done (0 at the start, 1 at the end).
"""
from __future__ import annotations

import argparse
import math
import time

# The one-cycle schedule (`one_cycle_lr`): warm up over this share of the run, then fall along a cosine to this
# share of the peak.
WARM_UP_SHARE = 0.05
FINAL_LR_SHARE = 0.02


def one_cycle_lr(peak: float, fraction: float) -> float:
    """The learning rate `fraction` of the way through a run (`Budget.fraction`): up from 0 to `peak` over the
    first WARM_UP_SHARE, then down along a cosine to FINAL_LR_SHARE of it."""
    if fraction < WARM_UP_SHARE:
        return peak * fraction / WARM_UP_SHARE
    falling = (fraction - WARM_UP_SHARE) / (1 - WARM_UP_SHARE)
    return peak * (FINAL_LR_SHARE + (1 - FINAL_LR_SHARE) * 0.5 * (1 + math.cos(math.pi * falling)))


class Budget:
    def __init__(self, steps: int | None = None, minutes: float | None = None, scale: float = 1.0) -> None:
        if (steps is None) == (minutes is None):
            raise ValueError("a budget is steps or minutes, one of them")
        if steps is not None and steps < 0:
            raise ValueError(f"--steps cannot be negative (got {steps})")
        if minutes is not None and minutes < 0:
            raise ValueError(f"--minutes cannot be negative (got {minutes})")
        # `scale` shrinks or grows a step budget (train.sh's QUICK smoke test, a GPU's larger settings); a budget
        # of 0 (no training: train_orienter.py --init then only chooses its thresholds) stays 0.
        self.steps = None if steps is None else (0 if steps == 0 else max(1, round(steps * scale)))
        self.seconds = None if minutes is None else minutes * 60
        self.start = time.time()

    @property
    def elapsed(self) -> float:
        return time.time() - self.start

    def fraction(self, step: int) -> float:
        """How far through the run `step` (the steps taken so far) is, from 0 to 1."""
        if self.steps is not None:
            return min(1.0, step / self.steps) if self.steps else 1.0
        return min(1.0, self.elapsed / self.seconds) if self.seconds else 1.0

    def spent(self, step: int) -> bool:
        """Whether the run is over after `step` steps."""
        if self.steps is not None:
            return step >= self.steps
        return self.elapsed >= self.seconds

    def describe(self) -> str:
        return f"{self.steps} steps" if self.steps is not None else f"{self.seconds / 60:g} min"


def add_budget_arguments(ap: argparse.ArgumentParser) -> None:
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--steps", type=int, help="optimizer steps to train for (the recipe's budgets: replayable)")
    group.add_argument("--minutes", type=float, help="wall-clock minutes to train for instead (trying things by hand)")
    ap.add_argument("--budget-scale", type=float, default=1.0,
                    help="multiply --steps by this (train.sh: a small share for its QUICK smoke test)")


def budget_from(args: argparse.Namespace) -> Budget:
    """The run's budget: --minutes where given (by hand, over a config's steps), else --steps."""
    if args.minutes is not None:
        return Budget(minutes=args.minutes)
    if args.steps is None:
        raise SystemExit("give --steps (or --minutes), or a --config that sets steps")
    return Budget(steps=args.steps, scale=args.budget_scale)
