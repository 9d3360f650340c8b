#!/usr/bin/env python3
"""Makes Samples/formats: a few of the project's own sample stills as JPEG, PNG, WebP and HEIC twins.

Each WebP and HEIC file there has a twin (the `twin` column of labels.tsv) holding the same picture as JPEG or
PNG, so tests can check that every format reads as its twin does. The set covers what patients' phones and
messaging apps send:
  - a colour display (an orange backlight) as JPEG, lossy WebP and HEIC (YCbCr, chroma subsampled);
  - a grey display as lossless WebP and HEIC;
  - a photo stored turned by 90 degrees with its orientation in metadata: EXIF in the JPEG, an EXIF chunk
    in the WebP, the HEIF rotation property (irot) in the HEIC;
  - a picture with transparent corners (alpha) as PNG, WebP and HEIC;
  - a WebP named .jpg, as a messaging app saves one.

Needs Debian's imagemagick, webp (cwebp) and libheif-examples (heif-enc), and a C compiler with libheif-dev
for Scripts/formats/heif-orient.c. Run from the repository root:

    Scripts/make-format-samples.py            # writes Samples/formats (replacing it)

The output is deterministic for these tool versions (imagemagick 6.9.11, libwebp 1.2.4, libheif 1.15.1 with
x265 3.5); other versions give other bytes, which is harmless: the tests compare readings, not bytes.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STILLS = os.path.join(ROOT, "Samples", "stills")
OUT = os.path.join(ROOT, "Samples", "formats")
WEBP_QUALITY = "80"
HEIC_QUALITY = "60"
JPEG_QUALITY = "92"


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def exif_app1(orientation):
    """An APP1 segment holding only an EXIF IFD0 with the orientation tag (0x0112, SHORT)."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def with_exif_orientation(jpeg_path, orientation):
    data = open(jpeg_path, "rb").read()
    assert data[:2] == b"\xff\xd8", jpeg_path
    open(jpeg_path, "wb").write(data[:2] + exif_app1(orientation) + data[2:])


def label_row(still):
    """The labels.tsv row of a still: {column: value}."""
    folder = still.split("/")[0]
    with open(os.path.join(STILLS, folder, "labels.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            if row["file"] == os.path.basename(still):
                return row
    sys.exit(f"{still}: not in its labels.tsv")


def main():
    for tool in ("convert", "cwebp", "heif-enc", "cc", "pkg-config"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found: apt-get install -y imagemagick webp libheif-examples libheif-dev gcc pkg-config")
    work = tempfile.mkdtemp()
    orient = os.path.join(work, "heif-orient")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libheif"], check=True, capture_output=True, text=True)
    run("cc", "-O2", "-o", orient, os.path.join(ROOT, "Scripts", "formats", "heif-orient.c"), *flags.stdout.split())

    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    rows = []

    def add(name, still, twin="", note=""):
        label = label_row(still)
        rows.append([name, label["reading"], label["match"], label["peripheral"], label["unit"], twin, note])

    def src(still):
        return os.path.join(STILLS, still)

    def out(name):
        return os.path.join(OUT, name)

    # A colour display: an orange backlight, black digits turned dark brown.
    still = "glucose-g1/glucose-g1-01.jpg"
    master = os.path.join(work, "orange.png")
    run("convert", src(still), "-colorspace", "sRGB", "-type", "TrueColor", "+level-colors", "#301000,#ffb050", master)
    run("convert", master, "-quality", JPEG_QUALITY, out("glucose-g1-01-orange.jpg"))
    run("cwebp", "-quiet", "-q", WEBP_QUALITY, master, "-o", out("glucose-g1-01-orange.webp"))
    run("heif-enc", "-q", HEIC_QUALITY, master, "-o", out("glucose-g1-01-orange.heic"))
    add("glucose-g1-01-orange.jpg", still, note="orange backlight, JPEG")
    add("glucose-g1-01-orange.webp", still, "glucose-g1-01-orange.jpg", "lossy WebP")
    add("glucose-g1-01-orange.heic", still, "glucose-g1-01-orange.jpg", "HEIC, YCbCr 4:2:0")

    # A grey display: lossless WebP and HEIC of the JPEG's own pixels.
    still = "bp-b3/bp-b3-01.jpg"
    shutil.copyfile(src(still), out("bp-b3-01.jpg"))
    grey = os.path.join(work, "grey.png")
    run("convert", src(still), grey)
    run("cwebp", "-quiet", "-lossless", grey, "-o", out("bp-b3-01.webp"))
    run("heif-enc", "-q", HEIC_QUALITY, grey, "-o", out("bp-b3-01.heic"))
    add("bp-b3-01.jpg", still, note="grey, JPEG")
    add("bp-b3-01.webp", still, "bp-b3-01.jpg", "lossless WebP")
    add("bp-b3-01.heic", still, "bp-b3-01.jpg", "HEIC")

    # Stored turned 90 degrees clockwise; the metadata says to turn it back (EXIF 8, HEIF irot).
    still = "scale-s1/scale-s1-01.jpg"
    turned = os.path.join(work, "turned.png")
    run("convert", src(still), "-rotate", "90", turned)
    run("convert", turned, "-quality", JPEG_QUALITY, out("scale-s1-01-turned.jpg"))
    with_exif_orientation(out("scale-s1-01-turned.jpg"), 8)
    run("cwebp", "-quiet", "-q", WEBP_QUALITY, "-metadata", "exif", out("scale-s1-01-turned.jpg"), "-o", out("scale-s1-01-turned.webp"))
    plain = os.path.join(work, "turned.heic")
    run("heif-enc", "-q", HEIC_QUALITY, turned, "-o", plain)
    run(orient, plain, "8", out("scale-s1-01-turned.heic"))
    add("scale-s1-01-turned.jpg", still, note="pixels turned 90 clockwise, EXIF orientation 8")
    add("scale-s1-01-turned.webp", still, "scale-s1-01-turned.jpg", "WebP with an EXIF chunk, orientation 8")
    add("scale-s1-01-turned.heic", still, "scale-s1-01-turned.jpg", "HEIC with irot (a quarter turn back)")

    # Transparent rounded corners, as a screenshot of a phone's photo has: composited over white by every
    # decoder. (A white border all round reads as glare over the display.)
    still = "oximeter-o1/oximeter-o1-01.jpg"
    mask = os.path.join(work, "mask.png")
    run("convert", "-size", "640x480", "xc:black", "-fill", "white", "-draw", "roundrectangle 0,0 639,479 90,90", mask)
    run("convert", src(still), mask, "-alpha", "off", "-compose", "CopyOpacity", "-composite", "-type", "GrayscaleAlpha", out("oximeter-o1-01-alpha.png"))
    run("cwebp", "-quiet", "-q", WEBP_QUALITY, out("oximeter-o1-01-alpha.png"), "-o", out("oximeter-o1-01-alpha.webp"))
    run("heif-enc", "-q", HEIC_QUALITY, out("oximeter-o1-01-alpha.png"), "-o", out("oximeter-o1-01-alpha.heic"))
    add("oximeter-o1-01-alpha.png", still, note="transparent rounded corners, PNG")
    add("oximeter-o1-01-alpha.webp", still, "oximeter-o1-01-alpha.png", "WebP with alpha")
    add("oximeter-o1-01-alpha.heic", still, "oximeter-o1-01-alpha.png", "HEIC with an alpha image")

    # A WebP named .jpg, as messaging apps save photos.
    still = "thermometer-t1/thermometer-t1-01.jpg"
    shutil.copyfile(src(still), out("thermometer-t1-01.jpg"))
    run("cwebp", "-quiet", "-q", WEBP_QUALITY, src(still), "-o", out("thermometer-t1-01-webp.jpg"))
    add("thermometer-t1-01.jpg", still, note="JPEG")
    add("thermometer-t1-01-webp.jpg", still, "thermometer-t1-01.jpg", "WebP bytes in a file named .jpg")

    with open(os.path.join(OUT, "labels.tsv"), "w") as f:
        f.write("file\treading\tmatch\tperipheral\tunit\ttwin\tnotes\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    shutil.rmtree(work)
    total = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print(f"wrote {len(rows)} images to {os.path.relpath(OUT, ROOT)} ({total // 1024} KB)")


if __name__ == "__main__":
    main()
