"""Where a training script computes: the CPU (the default, and all this project needs) or a GPU.

The networks and each batch go to the device; whatever comes back to NumPy or to a file comes back to the CPU
first (`numpy_of`, `cpu_state`), so a checkpoint written on a GPU loads anywhere.
"""
from __future__ import annotations

import argparse

import torch


def add_device_argument(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--device", default="cpu",
                    help="cpu (default), cuda, or auto: cuda where PyTorch finds one, else cpu")


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit(f"--device {name}: PyTorch finds no GPU here (torch.cuda.is_available() is false)")
    return torch.device(name)


def device_of(net: torch.nn.Module) -> torch.device:
    return next(net.parameters()).device


def numpy_of(t: torch.Tensor):
    return t.detach().cpu().numpy()


def cpu_state(net: torch.nn.Module) -> dict:
    """The network's weights on the CPU, to save."""
    return {k: v.detach().cpu() for k, v in net.state_dict().items()}
