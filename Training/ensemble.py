#!/usr/bin/env python3
"""Step 6a: several recognizers trained apart (other seeds, other mixes of data) made into one network whose
output is the mean of their logits.

    python Training/ensemble.py Training/work/recognizer-a.pt Models/reader/line-recognizer.safetensors \
        --out Training/work/recognizer-ensemble.safetensors

Why: one recognizer's wrong readings are as confident as its right ones, and it misreads a crop because of
where the crop fell, so the reader reads a value line again in other views (ViewAgreement). Recognizers
trained apart err on different crops: where they agree their mean is sure, where one reads another text the
mean hesitates, which is the doubt a reading must show to be refused. The mean of the logits (the product of
the members' probabilities, normalised) is one graph: each member's layers copied under a prefix (`m0_`,
`m1_`, ...), all reading the image, their heads summed by `add` layers with 1/K folded into each head. The
Swift reader runs it as it runs one recognizer (same input, same output columns and classes); it costs K times
one. Calibrate the result (calibrate.py) before exporting it: its temperature and threshold are its own.
"""
from __future__ import annotations

import argparse
import sys

import torch

from graphnet import GraphNet, export_safetensors
from infer import load_recognizer

ENSEMBLE_OUTPUT = "ensemble"


def member_layers(net: GraphNet, prefix: str) -> list[dict]:
    """`net`'s layers (batchnorm folded away) renamed with `prefix`; the image stays "input"."""
    out = []
    for layer in net.layers:
        copy = {k: v for k, v in layer.items() if k != "batchnorm"}
        copy["name"] = prefix + layer["name"]
        copy["inputs"] = [s if s == "input" else prefix + s for s in layer["inputs"]]
        out.append(copy)
    return out


@torch.no_grad()
def ensemble(members: list[GraphNet]) -> GraphNet:
    """One network whose output is the mean of the members' outputs (which must have the same shape)."""
    if len(members) < 2:
        raise ValueError("an ensemble needs at least two members")
    layers, tensors, heads = [], {}, []
    for k, net in enumerate(members):
        prefix = f"m{k}_"
        layers += member_layers(net, prefix)
        folded = net.folded_tensors()
        head = prefix + net.output
        heads.append(head)
        for key, value in folded.items():
            name = prefix + key
            # The mean: each head's logits are 1/K of its own.
            tensors[name] = value / len(members) if name.startswith(head + ".") else value
    total = heads[0]
    for k, head in enumerate(heads[1:], start=1):
        name = ENSEMBLE_OUTPUT if k == len(heads) - 1 else f"sum{k}"
        layers.append({"name": name, "op": "add", "inputs": [total, head], "activation": "none"})
        total = name
    net = GraphNet(layers, members[0].input_channels)
    for name, conv in net.convs.items():
        conv.weight.copy_(tensors[f"{name}.weight"])
        conv.bias.copy_(tensors[f"{name}.bias"])
    return net.eval()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("members", nargs="+", help="recognizers: checkpoints (.pt) or exported files (.safetensors)")
    ap.add_argument("--out", required=True, help="the ensemble, an exported file (.safetensors)")
    args = ap.parse_args()
    members = [load_recognizer(path) for path in args.members]
    net = ensemble(members)
    # The ensemble computes the members' mean, checked on a crop of noise.
    x = torch.randn(2, 1, 32, 96)
    mean = sum(m(x) for m in members) / len(members)
    worst = (net(x) - mean).abs().max().item()
    if not worst < 1e-4:
        raise AssertionError(f"the ensemble differs from the members' mean by {worst}")
    export_safetensors(net, args.out, {"vitalsnap.recognizer.members": str(len(members))})
    weights = sum(p.numel() for p in net.parameters())
    print(f"{args.out}: {len(members)} members, {weights} weights, largest difference from their mean {worst:.1e}")


if __name__ == "__main__":
    sys.exit(main())
