"""Function-preserving widening of a trained chain of convolutions (Net2WiderNet, Chen et al. 2016), so a
wider recognizer starts from what a narrower one has learned instead of from scratch.

Each widened layer keeps its channels and adds copies of some of them; the layer after it takes each copy's
share of the original's outgoing weights, so the wider network computes what the narrower one did (up to the
small noise added to the new channels' incoming weights). The shares are drawn at random, not halved, so the
copies get different gradients and learn apart.
"""
from __future__ import annotations

import random

import torch

from graphnet import GraphNet, load_exported, normalize_layers

# The shares a copied channel's outgoing weights are split into are drawn from this range, then normalised.
SHARE_RANGE = (0.25, 0.75)
# Noise added to a copied channel's incoming weights, as a share of that layer's weight spread.
INCOMING_NOISE = 0.01


@torch.no_grad()
def widen_exported(path: str, layers: list[dict], seed: int) -> GraphNet:
    """The network `layers` describes (as wide or wider than the exported file's, the same layers otherwise),
    its weights taken from the file and widened. Batchnorm layers become the identity with the folded bias as
    shift, as in graphnet.load_folded: train the result with them frozen."""
    graph, tensors, _ = load_exported(path)
    old = normalize_layers(graph["layers"], graph["input_channels"])
    net = GraphNet(layers, input_channels=graph["input_channels"])
    if [l["name"] for l in old] != [l["name"] for l in net.layers]:
        raise ValueError(f"{path}: its layers are not this network's")
    rng = random.Random(seed)
    gen = torch.Generator().manual_seed(seed)
    # For the previous conv's output: new channel -> old channel, and each new channel's share.
    source: list[int] | None = None
    share: torch.Tensor | None = None
    for before, after in zip(old, net.layers):
        if after["op"] not in ("conv2d", "maxpool2d"):
            raise ValueError(f"{after['name']}: only chains of convolutions and pooling can be widened")
        if after["op"] != "conv2d":
            continue
        if after.get("inputs", [None])[0] not in (None, "input") and len(after.get("inputs", [])) > 1:
            raise ValueError(f"{after['name']}: more than one input")
        if after["groups"] != 1 or before["groups"] != 1:
            raise ValueError(f"{after['name']}: grouped convolutions are not widened")
        name = after["name"]
        w, b = tensors[f"{name}.weight"].double(), tensors[f"{name}.bias"].double()
        n_old, n_new = before["out"], after["out"]
        if n_new < n_old:
            raise ValueError(f"{name}: {n_new} channels, fewer than the file's {n_old}")
        # Inputs: each new input channel reads its old one's weights times its share.
        if source is not None:
            w = w[:, source] * share.view(1, -1, 1, 1)
        # Outputs: the old channels, then copies of randomly chosen ones.
        out_source = list(range(n_old)) + [rng.randrange(n_old) for _ in range(n_new - n_old)]
        w = w[out_source].clone()
        b = b[out_source].clone()
        if n_new > n_old:
            spread = float(w[:n_old].std())
            w[n_old:] += INCOMING_NOISE * spread * torch.randn(w[n_old:].shape, generator=gen, dtype=w.dtype)
        counts = {k: out_source.count(k) for k in set(out_source)}
        raw = torch.tensor([rng.uniform(*SHARE_RANGE) if counts[k] > 1 else 1.0 for k in out_source],
                           dtype=torch.float64)
        totals = torch.zeros(n_old, dtype=torch.float64).index_add_(0, torch.tensor(out_source), raw)
        share = raw / totals[out_source]
        source = out_source
        conv = net.convs[name]
        conv.weight.copy_(w.float())
        if name in net.norms:
            bn = net.norms[name]
            bn.weight.fill_(1.0)
            bn.bias.copy_(b.float())
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        else:
            conv.bias.copy_(b.float())
    return net


def main() -> None:
    """Checks the widening on an exported recognizer: the widened network's output beside the file's."""
    import argparse

    from models import recognizer_layers
    from graphnet import run_exported

    ap = argparse.ArgumentParser(description="widen an exported recognizer and show how far its output moved")
    ap.add_argument("recognizer", help="an exported recognizer (.safetensors)")
    ap.add_argument("--width", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    wide = widen_exported(args.recognizer, recognizer_layers(args.width), args.seed).eval()
    x = torch.randn(8, 1, 32, 128, generator=torch.Generator().manual_seed(args.seed))
    with torch.no_grad():
        before, after = run_exported(args.recognizer, x), wide(x)
    weights = sum(p.numel() for name, p in wide.named_parameters() if name.startswith("convs."))
    print(f"width {args.width}: {weights} weights; largest change of an output logit "
          f"{float((before - after).abs().max()):.4f} (largest logit {float(before.abs().max()):.1f})")


if __name__ == "__main__":
    main()
