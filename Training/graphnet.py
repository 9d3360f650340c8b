#!/usr/bin/env python3
"""GraphNet: a small convolutional network written once, as a list of layer dicts, trained in PyTorch and
exported to a safetensors file that VitalSnapInference (Swift) runs.

A layer is a dict `{"name": str, "op": str, "inputs": [names], ...attributes}`. `inputs` is optional: by
default a layer reads the previous layer, the first layer reads "input" (the image). Ops and attributes:

    conv2d     in, out, kernel [kh, kw], stride [sh, sw] = 1, padding [ph, pw] = 0, dilation [dh, dw] = 1,
               groups = 1 (or groups == in == out: depthwise), batchnorm = False (training only: a
               BatchNorm2d after the conv, folded into weight and bias at export), activation "none" | "relu"
    maxpool2d  kernel [kh, kw], stride [sh, sw] = kernel (no padding, floor mode)
    upsample   factor [sy, sx] (nearest, integer factors)
    concat     channel concatenation of `inputs` (same height and width)
    add        elementwise sum of two `inputs`, activation "none" | "relu"
    relu

Pairs may be written as one integer. The graph's output is the last layer, or `output=name`.

Export writes `<name>.weight` [out, in / groups, kh, kw] and `<name>.bias` [out] (F32, batchnorm folded,
PyTorch's layout: the Swift side repacks at load) and the metadata

    vitalsnap.graph = {"format": 1, "input_channels": C, "layers": [normalised layers], "output": name}

where every layer carries all of its attributes explicitly (defaults filled in) and no training-only key.
`run_exported` runs such a file from the file alone, to check that folding changed nothing.
"""
from __future__ import annotations

import copy
import json
from typing import Any

import torch
import torch.nn.functional as F
from safetensors import safe_open
from safetensors.torch import save_file

GRAPH_FORMAT = 1
GRAPH_KEY = "vitalsnap.graph"
OPS = ("conv2d", "maxpool2d", "upsample", "concat", "add", "relu")
TRAINING_ONLY_KEYS = ("batchnorm",)
ALLOWED_KEYS = {
    "conv2d": {"in", "out", "kernel", "stride", "padding", "dilation", "groups", "batchnorm", "activation"},
    "maxpool2d": {"kernel", "stride"},
    "upsample": {"factor"},
    "concat": set(),
    "add": {"activation"},
    "relu": set(),
}
INPUT_COUNT = {"conv2d": 1, "maxpool2d": 1, "upsample": 1, "relu": 1, "add": 2}  # concat: one or more
ACTIVATIONS = ("none", "relu")


def _pair(value: Any, what: str, minimum: int) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value, value]
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{what} must be an integer or a pair of integers, got {value!r}")
    if min(value) < minimum:
        raise ValueError(f"{what} must be at least {minimum}, got {value!r}")
    return [int(value[0]), int(value[1])]


def normalize_layers(layers: list[dict], input_channels: int) -> list[dict]:
    """Every layer with all of its attributes filled in, checked; also the channel count of each layer."""
    if input_channels < 1:
        raise ValueError("input_channels must be at least 1")
    channels = {"input": input_channels}
    out = []
    previous = "input"
    for index, raw in enumerate(layers):
        layer = copy.deepcopy(raw)
        name = layer.get("name")
        if not isinstance(name, str) or not name or "." in name or name == "input":
            raise ValueError(f"layer {index}: name must be a non-empty string without '.', not 'input': {name!r}")
        if name in channels:
            raise ValueError(f"layer {name}: the name is used twice")
        op = layer.get("op")
        if op not in OPS:
            raise ValueError(f"layer {name}: unknown op {op!r}")
        unknown = set(layer) - ALLOWED_KEYS[op] - {"name", "op", "inputs"}
        if unknown:
            raise ValueError(f"layer {name}: unknown attributes {sorted(unknown)} for {op}")
        inputs = layer.get("inputs", [previous])
        if isinstance(inputs, str):
            inputs = [inputs]
        for source in inputs:
            if source not in channels:
                raise ValueError(f"layer {name}: input {source!r} is neither 'input' nor an earlier layer")
        if op in INPUT_COUNT and len(inputs) != INPUT_COUNT[op]:
            raise ValueError(f"layer {name}: {op} takes {INPUT_COUNT[op]} input(s), got {len(inputs)}")
        if op == "concat" and not inputs:
            raise ValueError(f"layer {name}: concat takes at least one input")
        layer["inputs"] = list(inputs)
        source_channels = [channels[s] for s in inputs]

        if op == "conv2d":
            for key in ("in", "out"):
                if not isinstance(layer.get(key), int) or layer[key] < 1:
                    raise ValueError(f"layer {name}: {key} must be a positive integer")
            if layer["in"] != source_channels[0]:
                raise ValueError(f"layer {name}: in = {layer['in']} but its input has {source_channels[0]} channels")
            layer["kernel"] = _pair(layer.get("kernel"), f"layer {name}: kernel", 1)
            layer["stride"] = _pair(layer.get("stride", 1), f"layer {name}: stride", 1)
            layer["padding"] = _pair(layer.get("padding", 0), f"layer {name}: padding", 0)
            layer["dilation"] = _pair(layer.get("dilation", 1), f"layer {name}: dilation", 1)
            groups = layer.get("groups", 1)
            if groups != 1 and not (groups == layer["in"] == layer["out"]):
                raise ValueError(f"layer {name}: groups must be 1 or equal to in and out (depthwise), got {groups}")
            layer["groups"] = groups
            layer["batchnorm"] = bool(layer.get("batchnorm", False))
            layer["activation"] = layer.get("activation", "none")
            channels[name] = layer["out"]
        elif op == "maxpool2d":
            layer["kernel"] = _pair(layer.get("kernel"), f"layer {name}: kernel", 1)
            layer["stride"] = _pair(layer.get("stride", layer["kernel"]), f"layer {name}: stride", 1)
            channels[name] = source_channels[0]
        elif op == "upsample":
            layer["factor"] = _pair(layer.get("factor"), f"layer {name}: factor", 1)
            channels[name] = source_channels[0]
        elif op == "concat":
            channels[name] = sum(source_channels)
        elif op == "add":
            if source_channels[0] != source_channels[1]:
                raise ValueError(f"layer {name}: add of {source_channels[0]} and {source_channels[1]} channels")
            layer["activation"] = layer.get("activation", "none")
            channels[name] = source_channels[0]
        else:  # relu
            channels[name] = source_channels[0]
        if "activation" in layer and layer["activation"] not in ACTIVATIONS:
            raise ValueError(f"layer {name}: activation must be one of {ACTIVATIONS}, got {layer['activation']!r}")
        ordered = {"name": name, "op": op, "inputs": layer.pop("inputs")}
        ordered.update((k, v) for k, v in layer.items() if k not in ("name", "op"))
        out.append(ordered)
        previous = name
    if not out:
        raise ValueError("a graph needs at least one layer")
    return out


def _activate(x: torch.Tensor, activation: str) -> torch.Tensor:
    return F.relu(x) if activation == "relu" else x


def _apply(layer: dict, xs: list[torch.Tensor], conv=None, weight=None, bias=None) -> torch.Tensor:
    """One layer on its inputs; a conv2d runs either the module `conv` or the tensors weight and bias."""
    op = layer["op"]
    if op == "conv2d":
        if conv is not None:
            y = conv(xs[0])
        else:
            y = F.conv2d(xs[0], weight, bias, stride=layer["stride"], padding=layer["padding"],
                         dilation=layer["dilation"], groups=layer["groups"])
        return _activate(y, layer["activation"])
    if op == "maxpool2d":
        return F.max_pool2d(xs[0], kernel_size=layer["kernel"], stride=layer["stride"])
    if op == "upsample":
        sy, sx = layer["factor"]
        return xs[0].repeat_interleave(sy, dim=2).repeat_interleave(sx, dim=3)
    if op == "concat":
        return torch.cat(xs, dim=1)
    if op == "add":
        if xs[0].shape != xs[1].shape:
            raise ValueError(f"layer {layer['name']}: add of shapes {tuple(xs[0].shape)} and {tuple(xs[1].shape)}")
        return _activate(xs[0] + xs[1], layer["activation"])
    return F.relu(xs[0])


class GraphNet(torch.nn.Module):
    """The network a layer list describes; `forward` takes NCHW images with `input_channels` channels."""

    def __init__(self, layers: list[dict], input_channels: int, output: str | None = None):
        super().__init__()
        self.layers = normalize_layers(layers, input_channels)
        self.input_channels = input_channels
        names = [layer["name"] for layer in self.layers]
        self.output = output if output is not None else names[-1]
        if self.output not in names:
            raise ValueError(f"output {self.output!r} is not a layer")
        self.convs = torch.nn.ModuleDict()
        self.norms = torch.nn.ModuleDict()
        for layer in self.layers:
            if layer["op"] != "conv2d":
                continue
            self.convs[layer["name"]] = torch.nn.Conv2d(
                layer["in"], layer["out"], tuple(layer["kernel"]), stride=tuple(layer["stride"]),
                padding=tuple(layer["padding"]), dilation=tuple(layer["dilation"]), groups=layer["groups"],
                bias=not layer["batchnorm"])
            if layer["batchnorm"]:
                self.norms[layer["name"]] = torch.nn.BatchNorm2d(layer["out"])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        values = {"input": x}
        for layer in self.layers:
            xs = [values[s] for s in layer["inputs"]]
            name = layer["name"]
            conv = None
            if layer["op"] == "conv2d":
                module = self.convs[name]
                conv = module if name not in self.norms else torch.nn.Sequential(module, self.norms[name])
            values[name] = _apply(layer, xs, conv=conv)
        return values[self.output]

    def graph_json(self) -> str:
        """The metadata string: the normalised layers without training-only keys."""
        layers = [{k: v for k, v in layer.items() if k not in TRAINING_ONLY_KEYS} for layer in self.layers]
        graph = {"format": GRAPH_FORMAT, "input_channels": self.input_channels, "layers": layers,
                 "output": self.output}
        return json.dumps(graph)

    @torch.no_grad()
    def folded_tensors(self) -> dict[str, torch.Tensor]:
        """`<name>.weight` and `<name>.bias` of every conv, batchnorm folded in (as in eval mode), float32."""
        tensors = {}
        for layer in self.layers:
            if layer["op"] != "conv2d":
                continue
            name = layer["name"]
            conv = self.convs[name]
            weight = conv.weight.detach().double()
            bias = conv.bias.detach().double() if conv.bias is not None else torch.zeros(layer["out"], dtype=torch.float64)
            if name in self.norms:
                bn = self.norms[name]
                scale = bn.weight.double() / torch.sqrt(bn.running_var.double() + bn.eps)
                weight = weight * scale.view(-1, 1, 1, 1)
                bias = bn.bias.double() + (bias - bn.running_mean.double()) * scale
            tensors[f"{name}.weight"] = weight.float().contiguous()
            tensors[f"{name}.bias"] = bias.float().contiguous()
        return tensors


def export_safetensors(net: GraphNet, path: str, extra_metadata: dict[str, str] | None = None) -> None:
    """Writes the folded weights and the graph to `path` (the module is left as it was, train or eval)."""
    extra = dict(extra_metadata or {})
    if GRAPH_KEY in extra:
        raise ValueError(f"{GRAPH_KEY} is written by the exporter")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in extra.items()):
        raise ValueError("metadata keys and values must be strings")
    was_training = net.training
    net.eval()
    try:
        tensors = net.folded_tensors()
    finally:
        net.train(was_training)
    save_file(tensors, path, metadata={GRAPH_KEY: net.graph_json(), **extra})


def load_exported(path: str) -> tuple[dict, dict[str, torch.Tensor], dict[str, str]]:
    """The graph, the tensors and the whole metadata of an exported file."""
    with safe_open(path, framework="pt") as f:
        metadata = dict(f.metadata() or {})
        tensors = {key: f.get_tensor(key) for key in f.keys()}
    graph = json.loads(metadata[GRAPH_KEY])
    if graph.get("format") != GRAPH_FORMAT:
        raise ValueError(f"unsupported graph format {graph.get('format')!r}")
    return graph, tensors, metadata


@torch.no_grad()
def load_folded(net: GraphNet, path: str) -> GraphNet:
    """Puts an exported file's folded weights back into `net` (built from the same layer list), so training can
    go on from a committed model when its PyTorch checkpoint is gone: each batchnorm becomes the identity
    (mean 0, variance 1 - eps, scale 1) with the folded bias as its shift. Its running statistics then describe
    nothing, so such a net must be trained with them frozen (`freeze_batchnorm`)."""
    graph, tensors, _ = load_exported(path)
    names = [layer["name"] for layer in normalize_layers(graph["layers"], graph["input_channels"])]
    if names != [layer["name"] for layer in net.layers]:
        raise ValueError(f"{path}: its layers are not this network's")
    for name, conv in net.convs.items():
        weight, bias = tensors[f"{name}.weight"], tensors[f"{name}.bias"]
        if tuple(weight.shape) != tuple(conv.weight.shape):
            raise ValueError(f"{path}: {name} is {tuple(weight.shape)}, the network's {tuple(conv.weight.shape)}")
        conv.weight.copy_(weight)
        if name in net.norms:
            bn = net.norms[name]
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        else:
            conv.bias.copy_(bias)
    return net


@torch.no_grad()
def load_graph_file(path: str) -> GraphNet:
    """The network an exported file describes, built from its own layer list (folded: no batchnorm) with its
    weights: for running any exported file, also one no layer list in models.py describes (an ensemble)."""
    graph, tensors, _ = load_exported(path)
    net = GraphNet(graph["layers"], graph["input_channels"], output=graph.get("output"))
    for name, conv in net.convs.items():
        conv.weight.copy_(tensors[f"{name}.weight"])
        conv.bias.copy_(tensors[f"{name}.bias"])
    return net.eval()


def freeze_batchnorm(net: GraphNet) -> None:
    """Batchnorm layers use their running statistics and stop updating them, also in training mode (their
    scale and shift still learn). Call after every `net.train()`."""
    for bn in net.norms.values():
        bn.eval()


@torch.no_grad()
def run_exported(path: str, x: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Runs an exported file on NCHW `x` from the file alone (functional ops, folded weights)."""
    graph, tensors, _ = load_exported(path)
    layers = normalize_layers(graph["layers"], graph["input_channels"])
    values = {"input": x.to(dtype)}
    for layer in layers:
        xs = [values[s] for s in layer["inputs"]]
        name = layer["name"]
        weight = bias = None
        if layer["op"] == "conv2d":
            weight = tensors[f"{name}.weight"].to(dtype)
            bias = tensors[f"{name}.bias"].to(dtype)
        values[name] = _apply(layer, xs, weight=weight, bias=bias)
    return values[graph.get("output", layers[-1]["name"])]


@torch.no_grad()
def check_export(net: GraphNet, path: str, inputs: list[torch.Tensor], tolerance: float = 1e-5) -> float:
    """Largest absolute difference between the eval-mode module and the exported file over `inputs`;
    raises when it is `tolerance` or more."""
    was_training = net.training
    net.eval()
    try:
        worst = 0.0
        for x in inputs:
            diff = (net(x) - run_exported(path, x)).abs().max().item()
            worst = max(worst, diff)
    finally:
        net.train(was_training)
    if not worst < tolerance:
        raise AssertionError(f"the exported graph differs from the module by {worst} (limit {tolerance})")
    return worst
