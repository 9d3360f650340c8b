#!/usr/bin/env python3
"""Writes perturbed copies of a labelled photo folder, one folder per perturbation, each with its labels.tsv.

A reader tuned to a folder's photos as they are shows it when the same photos are taken a little otherwise: half
the size, tilted 12 degrees either way, darker, flatter, softer, small in a larger frame, upside down. Every copy
keeps its photo's label, so `vitalsnap eval` reads each folder as it reads the original (Scripts/eval-perturbed.sh).
The copies are third-party images: write them outside the repository (a temporary folder), never into it.

    python3 Scripts/perturb-photos.py ../shared/data/photos/medical-products /tmp/perturbed
"""
import argparse
import csv
import os

from PIL import Image, ImageEnhance, ImageFilter, ImageOps

GREY = (128, 128, 128)
TABLE = (200, 190, 170)


def padded(image):
    """The photo small in the middle of a frame twice its size, on a table's colour."""
    w, h = image.size
    frame = Image.new("RGB", (w * 2, h * 2), TABLE)
    frame.paste(image, (w // 2, h // 2))
    return frame


# name -> what it does to an RGB photo. Each is one change a patient's photo of the same display could show.
PERTURBATIONS = {
    "half": lambda im: im.resize((im.width // 2, im.height // 2), Image.LANCZOS),
    "tilt+12": lambda im: im.rotate(12, resample=Image.BICUBIC, expand=True, fillcolor=GREY),
    "tilt-12": lambda im: im.rotate(-12, resample=Image.BICUBIC, expand=True, fillcolor=GREY),
    "dark": lambda im: ImageEnhance.Brightness(im).enhance(0.55),
    "flat": lambda im: ImageEnhance.Contrast(im).enhance(0.5),
    "soft": lambda im: im.filter(ImageFilter.GaussianBlur(max(1.0, max(im.size) / 600))),
    "far": padded,
    "upside-down": lambda im: im.rotate(180),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", help="a folder of photos with labels.tsv (file, reading, match, peripheral, ...)")
    parser.add_argument("out", help="where the perturbed folders go (outside the repository)")
    parser.add_argument("--only", nargs="*", choices=sorted(PERTURBATIONS), help="these perturbations only")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "labels.tsv"), newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    header, rows = rows[0], rows[1:]
    names = args.only or list(PERTURBATIONS)
    for name in names:
        os.makedirs(os.path.join(args.out, name), exist_ok=True)
        with open(os.path.join(args.out, name, "labels.tsv"), "w", newline="") as f:
            writer = csv.writer(f, delimiter="\t", lineterminator="\n")
            writer.writerow(header)
            for row in rows:  # PNG copies: no second JPEG loss on top of the perturbation
                writer.writerow([os.path.splitext(row[0])[0] + ".png"] + row[1:])
    for row in rows:
        try:
            # Stood as its EXIF orientation says, as the reader stands it: the copies carry no EXIF.
            image = ImageOps.exif_transpose(Image.open(os.path.join(args.folder, row[0]))).convert("RGB")
        except (OSError, ValueError) as error:
            print(f"perturb-photos: {row[0]}: skipped ({error})")
            continue
        for name in names:
            PERTURBATIONS[name](image).save(os.path.join(args.out, name, os.path.splitext(row[0])[0] + ".png"))
    print(f"perturb-photos: {len(rows)} photos x {len(names)} perturbations in {args.out}")


if __name__ == "__main__":
    main()
