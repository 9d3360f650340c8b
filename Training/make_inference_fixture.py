#!/usr/bin/env python3
"""Writes the parity fixtures of VitalSnapInference's tests:

    Tests/VitalSnapInferenceTests/Fixtures/tiny-net.safetensors     a tiny random GraphNet, batchnorm folded
    Tests/VitalSnapInferenceTests/Fixtures/tiny-net-io.safetensors  inputs and PyTorch's outputs

The network uses every op and attribute the Swift side implements: 1x1, 3x3 and 5x3 kernels, stride 2,
padding (also more than the kernel's half), dilation 2, depthwise, folded batchnorm, max pooling 2x2 and
(2, 1), nearest 2x upsampling, concat, add + relu, a bare relu, and channel counts that are not multiples
of 8. It is trained for a few steps on noise so that the batchnorm statistics are not the initial ones.

The io file holds `input.<i>` ([H, W, 1], HWC float32) and `output.<i>` ([H', W', C'], HWC) for
i < metadata["vitalsnap.cases"]; the outputs are the eval-mode module's, computed in float64.

    /root/venv/bin/python Training/make_inference_fixture.py [OUT_DIR]
"""
import os
import sys

import torch
from safetensors.torch import save_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graphnet import GraphNet, check_export, export_safetensors, run_exported  # noqa: E402

LAYERS = [
    # The first layer reads one channel (the Swift side has a path of its own for it).
    {"name": "stem", "op": "conv2d", "in": 1, "out": 5, "kernel": [3, 3], "padding": [1, 1],
     "batchnorm": True, "activation": "relu"},
    {"name": "tall", "op": "conv2d", "in": 5, "out": 12, "kernel": [5, 3], "padding": [2, 1],
     "activation": "relu"},
    {"name": "halfrows", "op": "maxpool2d", "kernel": [2, 1], "stride": [2, 1]},
    {"name": "down", "op": "conv2d", "in": 12, "out": 20, "kernel": [3, 3], "stride": [2, 2],
     "padding": [1, 1], "batchnorm": True, "activation": "relu"},
    {"name": "depthwise", "op": "conv2d", "in": 20, "out": 20, "kernel": [3, 3], "padding": [2, 2],
     "dilation": [2, 2], "groups": 20, "activation": "relu"},
    {"name": "squeeze", "op": "conv2d", "in": 20, "out": 12, "kernel": [1, 1]},
    {"name": "squeeze_relu", "op": "relu"},
    {"name": "up", "op": "upsample", "factor": [2, 2]},
    {"name": "merge", "op": "concat", "inputs": ["up", "halfrows"]},
    {"name": "mix", "op": "conv2d", "in": 24, "out": 12, "kernel": [3, 3], "padding": [1, 1],
     "batchnorm": True},
    {"name": "residual", "op": "add", "inputs": ["mix", "halfrows"], "activation": "relu"},
    {"name": "pool", "op": "maxpool2d", "kernel": [2, 2]},
    {"name": "head", "op": "conv2d", "in": 12, "out": 3, "kernel": [3, 3], "padding": [2, 1]},
]
INPUT_SIZES = [(13, 22), (32, 40)]  # (H, W); both give matching sizes at the concat and the add


def to_hwc(x: torch.Tensor) -> torch.Tensor:
    return x[0].permute(1, 2, 0).contiguous().float()


def main() -> None:
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "VitalSnapInferenceTests", "Fixtures")
    torch.manual_seed(20260517)
    net = GraphNet(LAYERS, input_channels=1)

    # Noticeable batchnorm scales and shifts, then a few training steps on noise so that the running statistics
    # move away from (0, 1).
    with torch.no_grad():
        for bn in net.norms.values():
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.3, 0.3)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    net.train()
    for _ in range(40):
        x = torch.randn(4, 1, 32, 40) * 1.5 + 0.5
        loss = (net(x) - 0.5).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for name, bn in net.norms.items():
        moved = (bn.running_mean.abs().max().item(), (bn.running_var - 1).abs().max().item())
        assert max(moved) > 0.05, f"batchnorm {name} statistics barely moved: {moved}"
    net.eval()

    os.makedirs(out_dir, exist_ok=True)
    net_path = os.path.join(out_dir, "tiny-net.safetensors")
    export_safetensors(net, net_path, {"vitalsnap.note": "random test network written by Training/make_inference_fixture.py"})

    inputs = [torch.randn(1, 1, h, w) for h, w in INPUT_SIZES]
    worst = check_export(net, net_path, inputs)
    reference = GraphNet(LAYERS, input_channels=1).double()
    reference.load_state_dict(net.state_dict())
    reference.eval()

    tensors = {}
    with torch.no_grad():
        for i, x in enumerate(inputs):
            y = reference(x.double())
            y32 = run_exported(net_path, x)
            assert (y - y32.double()).abs().max().item() < 1e-5
            assert y.abs().max().item() > 0.1 and (y > 0).any() and (y < 0).any(), "a degenerate output"
            tensors[f"input.{i}"] = to_hwc(x)
            tensors[f"output.{i}"] = to_hwc(y)
            print(f"case {i}: input {tuple(x.shape)} -> output {tuple(y.shape)}, |y| max {y.abs().max().item():.3f}")
    io_path = os.path.join(out_dir, "tiny-net-io.safetensors")
    save_file(tensors, io_path, metadata={"vitalsnap.cases": str(len(inputs))})
    print(f"folding changed the outputs by at most {worst:.2e}")
    for path in (net_path, io_path):
        print(f"{os.path.relpath(path, root)}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
