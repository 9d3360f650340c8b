#!/usr/bin/env python3
"""Step 8: write the model files the reader ships, and the parity fixtures its tests compare against.

    python Training/export.py --detector Training/work/detector.pt --recognizer Training/work/recognizer.pt \
        --calibration Training/work/calibration.json --fixture-crop Training/work/synth-val/lines/000000-0.png \
        [--orienter Training/work/orienter.pt]
    python Training/export.py --detector Models/reader/line-detector.safetensors ...   # the detector kept as it is
    python Training/export.py --orienter Training/work/orienter.pt      # the orienter alone
    python Training/export.py --detector DET.pt --out DIR          # a detector alone, to try (no fixture)
    python Training/export.py ... --out Training/work/try-a      # a folder to try (`vitalsnap eval --models`)

Writes Models/reader/line-detector.safetensors and line-recognizer.safetensors (weights with batchnorm folded
in, the layer list and the conventions in the metadata), and
Tests/Fixtures/reader-parity.safetensors: a detector input made from one of the project's
own sample photos and a recognizer input from a generated line crop, with the outputs PyTorch computes from
the exported files. With --orienter, also Models/reader/photo-orienter.safetensors (its threshold from the
`.json` train_orienter.py wrote beside it) and Tests/Fixtures/orienter-parity.safetensors (a sample photo
turned upside down, its input and output). Nothing third-party goes into any of them.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

import numpy as np
import torch
from PIL import Image
from safetensors.numpy import save_file

from common import ALPHABET, CROP_HEIGHT, DETECTOR_STRIDE, MODELS, ROOT, load_grey, standardise
from detector_data import detector_input, standardise_photo
from graphnet import export_safetensors, load_exported, run_exported
from infer import detector_long_side, load_detector, load_network, load_recognizer
from models import orienter_layers
from orienter_data import ORIENTER_SIDE, REGION_MARGIN, orienter_input
from orienter_data import standardise as standardise_orienter

FIXTURE_PHOTO = os.path.join(ROOT, "Samples", "stills", "bp-b3", "bp-b3-01.jpg")
ORIENTER_FIXTURE_PHOTO = os.path.join(ROOT, "Samples", "stills", "glucose-g1", "glucose-g1-01.jpg")


def export_orienter(checkpoint: str, common: dict, out_dir: str, fixture_dir: str) -> list[str]:
    calibration = json.load(open(os.path.splitext(checkpoint)[0] + ".json"))
    net = load_network(orienter_layers(), checkpoint)
    path = os.path.join(out_dir, "photo-orienter.safetensors")
    export_safetensors(net.eval(), path, {
        **common, "vitalsnap.model": "photo-orienter", "vitalsnap.orienter.side": str(ORIENTER_SIDE),
        "vitalsnap.orienter.classes": "up,quarter-clockwise,upside-down,quarter-counter-clockwise",
        "vitalsnap.orienter.min_confidence": str(calibration["min_confidence"]),
        "vitalsnap.orienter.region_margin": str(REGION_MARGIN),
        **({"vitalsnap.orienter.sideways_confidence": str(calibration["sideways_confidence"])}
           if "sideways_confidence" in calibration else {}),
    })
    # The sample photo upside down: the fixture also shows the orienter seeing the turn.
    x = standardise_orienter(orienter_input(np.ascontiguousarray(load_grey(ORIENTER_FIXTURE_PHOTO)[::-1, ::-1])))
    out = run_exported(path, torch.from_numpy(x)[None, None])[0].numpy()
    fixture_path = os.path.join(fixture_dir, "orienter-parity.safetensors")
    save_file({"orienter.input": np.ascontiguousarray(x.reshape(*x.shape, 1), dtype=np.float32),
               "orienter.output": np.ascontiguousarray(out.transpose(1, 2, 0)).astype(np.float32)},
              fixture_path, metadata={"photo": os.path.relpath(ORIENTER_FIXTURE_PHOTO, ROOT), "turn": "180"})
    return [path, fixture_path]


def export_detector(checkpoint: str, common: dict, path: str) -> None:
    export_safetensors(load_detector(checkpoint), path, {
        **common, "vitalsnap.model": "line-detector", "vitalsnap.detector.long_side": str(detector_long_side(checkpoint)),
        "vitalsnap.detector.stride": str(DETECTOR_STRIDE),
        "vitalsnap.detector.classes": "background,value,auxiliary,label",
    })


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--detector")
    ap.add_argument("--recognizer")
    ap.add_argument("--calibration")
    ap.add_argument("--fixture-crop", help="a generated line crop (PNG) for the parity fixture")
    ap.add_argument("--orienter", help="the orienter's checkpoint (its threshold in the .json beside it)")
    ap.add_argument("--card", default="", help="a note on how the models were made, stored in their metadata")
    ap.add_argument("--out", default=os.path.join(MODELS, "reader"),
                    help="the folder for the model files (default Models/reader, with the parity fixtures in "
                    "Tests/Fixtures; another folder gets its fixtures beside its models)")
    args = ap.parse_args()
    line_models = (args.detector, args.recognizer, args.calibration, args.fixture_crop)
    detector_alone = args.detector and not any(line_models[1:]) and not args.orienter
    if any(line_models) and not all(line_models) and not detector_alone:
        ap.error("--detector, --recognizer, --calibration and --fixture-crop go together (or --detector alone)")
    if not any(line_models) and not args.orienter:
        ap.error("nothing to export: give the line models, --orienter, or both")
    out_dir = args.out
    os.makedirs(out_dir, exist_ok=True)
    committed = os.path.realpath(out_dir) == os.path.realpath(os.path.join(MODELS, "reader"))
    fixture_dir = os.path.join(ROOT, "Tests", "Fixtures") if committed else out_dir
    common = {"vitalsnap.made_by": args.card} if args.card else {}
    if detector_alone:
        # A detector to try beside the committed recognizer (Training/gpu/run.sh): no parity fixture.
        path = os.path.join(out_dir, "line-detector.safetensors")
        export_detector(args.detector, common, path)
        print(f"{path}: {os.path.getsize(path) / 1e6:.2f} MB")
        return
    written = export_orienter(args.orienter, common, out_dir, fixture_dir) if args.orienter else []
    if not all(line_models):
        for path in written:
            print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path) / 1e6:.2f} MB")
        return
    calibration = json.load(open(args.calibration))
    detector_path = os.path.join(out_dir, "line-detector.safetensors")
    recognizer_path = os.path.join(out_dir, "line-recognizer.safetensors")
    if args.detector.endswith(".safetensors"):
        # An exported detector (the committed one, when only the recognizer was trained again) is kept as it is,
        # its card included: folding it a second time would change its weights in the last bits.
        if not os.path.exists(detector_path) or not os.path.samefile(args.detector, detector_path):
            shutil.copyfile(args.detector, detector_path)
    else:
        export_detector(args.detector, common, detector_path)
    # An ensemble (ensemble.py) keeps its member count in its metadata.
    members = (load_exported(args.recognizer)[2].get("vitalsnap.recognizer.members")
               if args.recognizer.endswith(".safetensors") else None)
    recognizer = load_recognizer(args.recognizer)
    export_safetensors(recognizer, recognizer_path, {
        **({"vitalsnap.recognizer.members": members} if members else {}),
        **common, "vitalsnap.model": "line-recognizer", "vitalsnap.recognizer.alphabet": ALPHABET,
        "vitalsnap.recognizer.crop_height": str(CROP_HEIGHT),
        "vitalsnap.recognizer.stride": str(measured_stride(recognizer)),
        "vitalsnap.recognizer.temperature": str(calibration["temperature"]),
        "vitalsnap.recognizer.min_confidence": str(calibration["threshold"]),
        **({"vitalsnap.recognizer.views": json.dumps(calibration["views"]),
            "vitalsnap.recognizer.view_score": calibration["view_score"]} if "views" in calibration else {}),
    })

    photo, _, _ = detector_input(load_grey(FIXTURE_PHOTO), detector_long_side(detector_path))
    det_in = standardise_photo(photo)
    crop = np.asarray(Image.open(args.fixture_crop).convert("L"))
    rec_in = standardise(crop)
    det_out = run_exported(detector_path, torch.from_numpy(det_in)[None, None])[0].numpy()
    rec_out = run_exported(recognizer_path, torch.from_numpy(rec_in)[None, None])[0].numpy()
    fixture = {
        # HWC, as VitalSnapInference's FeatureMap holds them (contiguous: safetensors writes the raw buffer).
        "detector.input": np.ascontiguousarray(det_in.reshape(*det_in.shape, 1), dtype=np.float32),
        "detector.output": np.ascontiguousarray(det_out.transpose(1, 2, 0)).astype(np.float32),
        "recognizer.input": np.ascontiguousarray(rec_in.reshape(*rec_in.shape, 1), dtype=np.float32),
        "recognizer.output": np.ascontiguousarray(rec_out.transpose(1, 2, 0)).astype(np.float32),
    }
    fixture_path = os.path.join(fixture_dir, "reader-parity.safetensors")
    os.makedirs(os.path.dirname(fixture_path), exist_ok=True)
    save_file(fixture, fixture_path, metadata={"photo": os.path.relpath(FIXTURE_PHOTO, ROOT)})
    for path in written + [detector_path, recognizer_path, fixture_path]:
        print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path) / 1e6:.2f} MB")


@torch.no_grad()
def measured_stride(net) -> int:
    """Crop columns per output column, measured on a blank crop (an ensemble's layer list is no chain)."""
    width = 64
    return width // net(torch.zeros(1, 1, CROP_HEIGHT, width)).shape[3]


if __name__ == "__main__":
    sys.exit(main())
