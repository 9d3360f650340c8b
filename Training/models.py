"""The two networks, written once as layer lists: GraphNet builds them for training, the same lists are
exported in the safetensors metadata, and the Swift reader runs them (VitalSnapInference)."""
from __future__ import annotations

from common import NUM_CLASSES


def conv(name, cin, cout, k=(3, 3), stride=(1, 1), pad=None, dilation=(1, 1), groups=1, bn=True, relu=True, inputs=None):
    pad = pad if pad is not None else ((k[0] // 2) * dilation[0], (k[1] // 2) * dilation[1])
    layer = {"name": name, "op": "conv2d", "in": cin, "out": cout, "kernel": list(k), "stride": list(stride),
             "padding": list(pad), "dilation": list(dilation), "groups": groups, "batchnorm": bn,
             "activation": "relu" if relu else "none"}
    if inputs:
        layer["inputs"] = inputs
    return layer


def separable(name, cin, cout, stride=(1, 1), dilation=(1, 1)):
    """A depthwise 3x3 then a pointwise 1x1: most of a full 3x3's reach for a fraction of its cost."""
    return [conv(name + "_dw", cin, cin, stride=stride, dilation=dilation, groups=cin),
            conv(name + "_pw", cin, cout, k=(1, 1))]


# Crop columns per output column the recognizer may have: 4 (the first ones), or 2, where a decimal point
# squeezed between two digits gets a column of its own.
RECOGNIZER_STRIDES = (4, 2)


def recognizer_layers(width: float = 1, stride: int = 4) -> list[dict]:
    """1 x 32 x W crop -> 1 x W/stride x classes. Height is pooled away; three 1-D layers see about four
    characters on either side, so `HI` is told from `H1` and a decimal point from a speck. At stride 2 the second
    pooling keeps the columns and the 1-D layers' dilations double, so they see as far in crop pixels."""
    if stride not in RECOGNIZER_STRIDES:
        raise ValueError(f"recognizer stride {stride}: one of {RECOGNIZER_STRIDES}")
    c = [16, 32, 48, 64]
    c = [round(x * width) for x in c]
    across = 2 if stride == 4 else 1   # the second pooling's step across
    reach = 4 // stride                # the 1-D layers' dilation factor
    return [
        conv("c1", 1, c[0]),
        {"name": "p1", "op": "maxpool2d", "kernel": [2, 2], "stride": [2, 2]},      # 16 x W/2
        conv("c2", c[0], c[1]),
        {"name": "p2", "op": "maxpool2d", "kernel": [2, across], "stride": [2, across]},  # 8 x W/stride
        conv("c3", c[1], c[2]),
        conv("c4", c[2], c[2]),
        {"name": "p3", "op": "maxpool2d", "kernel": [2, 1], "stride": [2, 1]},      # 4 x W/stride
        conv("c5", c[2], c[3]),
        {"name": "p4", "op": "maxpool2d", "kernel": [2, 1], "stride": [2, 1]},      # 2 x W/stride
        conv("c6", c[3], c[3], k=(2, 1), pad=(0, 0)),                                # 1 x W/stride
        conv("c7", c[3], c[3], k=(1, 3), dilation=(1, reach)),
        conv("c8", c[3], c[3], k=(1, 3), dilation=(1, 2 * reach)),
        conv("head", c[3], NUM_CLASSES, k=(1, 1), bn=False, relu=False),
    ]


DETECTOR_OUTPUTS = 7  # 4 class logits, ln(digit height), cos and sin of the reading direction


# The detector's channels at width 1 (the first detector's): encoder stages d1, d2-d3, d4-d5, d6-d8.
DETECTOR_CHANNELS = (16, 32, 64, 96)


def detector_layers(width: float = 1) -> list[dict]:
    """1 x H x W photo (H, W multiples of 16) -> H/4 x W/4 x 7. An encoder down to 1/16 with dilated context,
    then two upsampling steps that add the 1/8 and 1/4 features back. `width` multiplies every layer's channels
    (the output's excepted): the reader runs any width, since the layers travel in the exported file."""
    c1, c2, c3, c4 = (round(x * width) for x in DETECTOR_CHANNELS)
    L = []
    L.append(conv("d1", 1, c1, stride=(2, 2)))                       # 1/2
    L += separable("d2", c1, c2, stride=(2, 2))                      # 1/4
    L += separable("d3", c2, c2)
    L += separable("d4", c2, c3, stride=(2, 2))                      # 1/8
    L += separable("d5", c3, c3)
    L += separable("d6", c3, c4, stride=(2, 2))                      # 1/16
    L += separable("d7", c4, c4, dilation=(2, 2))
    L += separable("d8", c4, c4, dilation=(4, 4))
    L.append(conv("u1_proj", c4, c3, k=(1, 1)))
    L.append({"name": "u1_up", "op": "upsample", "factor": [2, 2]})
    L.append({"name": "u1_add", "op": "add", "inputs": ["u1_up", "d5_pw"]})
    L += separable("u1", c3, c3)
    L.append(conv("u2_proj", c3, c2, k=(1, 1)))
    L.append({"name": "u2_up", "op": "upsample", "factor": [2, 2]})
    L.append({"name": "u2_add", "op": "add", "inputs": ["u2_up", "d3_pw"]})
    L += separable("u2", c2, c2)
    L.append(conv("head", c2, DETECTOR_OUTPUTS, k=(1, 1), bn=False, relu=False))
    return L


ORIENTER_CLASSES = 4  # quarter turns clockwise from upright


def orienter_layers() -> list[dict]:
    """1 x 128 x 128 photo -> 1 x 1 x 4 logits. Down to 1/32 in strided steps, then one convolution over the
    whole 4 x 4 map: which way up a photo is depends on where things are (a small clock above the value, the
    decimal point low on the right), so the last layer keeps their places rather than pooling them away."""
    L = [conv("o1", 1, 16, stride=(2, 2))]                           # 64
    L += separable("o2", 16, 32, stride=(2, 2))                      # 32
    L += separable("o3", 32, 32)
    L += separable("o4", 32, 64, stride=(2, 2))                      # 16
    L += separable("o5", 64, 64)
    L += separable("o6", 64, 96, stride=(2, 2))                      # 8
    L += separable("o7", 96, 96)
    L.append({"name": "o8", "op": "maxpool2d", "kernel": [2, 2], "stride": [2, 2]})   # 4
    L.append(conv("o9", 96, 64, k=(4, 4), pad=(0, 0)))                # 1
    L.append(conv("head", 64, ORIENTER_CLASSES, k=(1, 1), bn=False, relu=False))
    return L


def macs(layers: list[dict], height: int, width: int) -> int:
    """Multiply-accumulates of one run on an input of height x width (for the model card)."""
    shapes = {"input": (height, width, 1)}
    prev = "input"
    total = 0
    for layer in layers:
        ins = layer.get("inputs", [prev])
        h, w, ch = shapes[ins[0]]
        op = layer["op"]
        if op == "conv2d":
            kh, kw = layer["kernel"]
            sh, sw = layer["stride"]
            ph, pw = layer["padding"]
            dh, dw = layer["dilation"]
            oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
            ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
            total += oh * ow * layer["out"] * (layer["in"] // layer["groups"]) * kh * kw
            shapes[layer["name"]] = (oh, ow, layer["out"])
        elif op == "maxpool2d":
            kh, kw = layer["kernel"]
            sh, sw = layer["stride"]
            shapes[layer["name"]] = ((h - kh) // sh + 1, (w - kw) // sw + 1, ch)
        elif op == "upsample":
            fy, fx = layer["factor"]
            shapes[layer["name"]] = (h * fy, w * fx, ch)
        elif op == "concat":
            shapes[layer["name"]] = (h, w, sum(shapes[i][2] for i in ins))
        else:
            shapes[layer["name"]] = (h, w, ch)
        prev = layer["name"]
    return total


if __name__ == "__main__":
    print("recognizer MACs at 32x100:", macs(recognizer_layers(), 32, 100))
    print("recognizer at stride 2, MACs at 32x100:", macs(recognizer_layers(stride=2), 32, 100))
    for width in (1, 1.5, 2):
        print(f"detector at width {width}, MACs at 192x256:", macs(detector_layers(width), 192, 256))
    print("orienter MACs at 128x128:", macs(orienter_layers(), 128, 128))
