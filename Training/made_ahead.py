"""Training data made ahead in forked processes: `made_ahead(make, workers, ahead)` yields make(0), make(1), ...
without end, in that order. Each item depends on its number alone (the callers seed a generator with it), so a
run is the same whether this process makes the items or `workers` others do: a GPU outpaces one process's
decoding, augmenting and resizing (train_detector.py's and train_recognizer.py's `--workers`).
"""
from __future__ import annotations

import multiprocessing
from collections import deque
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

# The forked workers' copy of what makes an item (set once before the fork, read only): passed to the pool as a
# function of the number alone, so the data it holds (scene and line lists) is inherited, never pickled per call.
_make: Callable[[int], object] | None = None


def _made(number: int):
    return _make(number)


def made_ahead(make: Callable[[int], T], workers: int, ahead: int) -> Iterator[T]:
    """make(0), make(1), ... without end: here when `workers` is 0, else by `workers` forked processes with
    `ahead` items asked for before they are needed. Fork before any network goes to a GPU: the workers never
    touch CUDA."""
    if workers <= 0:
        number = 0
        while True:
            yield make(number)
            number += 1
    global _make
    _make = make
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pending = deque(pool.apply_async(_made, (n,)) for n in range(ahead))
        number = ahead
        while True:
            item = pending.popleft().get()
            pending.append(pool.apply_async(_made, (number,)))
            number += 1
            yield item
