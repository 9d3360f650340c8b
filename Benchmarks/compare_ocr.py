"""A general OCR engine (PP-OCR through RapidOCR) on labelled photo folders, scored like `vitalsnap eval`.

Run it through Benchmarks/compare-ocr.sh, which creates the virtualenv Benchmarks/.venv-ocr with pinned
versions. Usage:

    compare_ocr.py [--split held|train|all] [--peripheral ID] [--jobs N] [--tsv FILE] FOLDER...

FOLDER holds a labels.tsv (file, reading, match; optionally peripheral and unit) and the images, or is a folder
above such folders (every labelled folder below it, recursively, sorted, hidden folders skipped; as
`vitalsnap eval` finds them). `--split` keeps the rows of that half of Training/split.tsv where that file lists
the folder (by its name); folders it does not list (e.g. Samples/stills/*) are used whole.

Peripheral of a row: its `peripheral` column, else --peripheral, else the default of a known photos folder
(glucose-morepen 9, bp-paramed 2, bp-fields-binarized, fuel-pump and electricity-meter 100), else an error.
Unit of a row: its `unit` column (a unit every measurement field offers selects that variant, as in
`vitalsnap eval`), else any of the field's units.

Picking rule (never looks at the label):
  1. Run RapidOCR (default settings) once on the image, EXIF orientation applied. Keep the text boxes whose
     text, spaces removed and a point after the last digit dropped (`124.` is 124), is a number (optional
     leading `-`, digits, at most one `.` with digits on both sides) or a display word (LO/Lo/L0, HI/Hi/H1,
     Err/Er, case-insensitive).
  2. A box's height is its extent across the text: the mean length of its left and right edges as RapidOCR
     gives the box (corners clockwise from top-left); a box at least 1.5x taller than wide is one RapidOCR
     turns by 90 degrees to read, so its width counts instead.
  3. If the tallest kept box is a display word, the image reads as that word (no value).
  4. Otherwise take as many numbers as the peripheral has measurement fields (blood pressure 3: SYS/DIA/PULSE,
     oximeter 106 2, others 1; time and date fields are not measurement fields), the ones with the tallest
     boxes; fewer numbers than fields is no reading. Order them top-to-bottom, left-to-right within a row (two
     boxes share a row when their centres are less than half the smaller height apart vertically).
  5. Field i gets number i. Where the field's unit fixes the decimals (mg/dL 0, mmol/L 1, ...) the number must
     have exactly that many, and it must lie in the unit's plausible range; otherwise the image is no reading.
     With no unit chosen, any of the field's units may fit. The numeric display (100) has neither, so its
     reading is the tallest number as shown.
  6. The reading is the numbers joined with `/`, as the text shows them.

Scoring is `vitalsnap eval`'s (Sources/VitalSnapOCR/Evaluation): the row's match rule (exact, integer, digits);
a label `?` or a display word expects no value: a value read there is wrong, the right word correct, another word
wrong, nothing read correct for `?` (no reading for a word); a word read where the label has a value is wrong.
A file that cannot be opened or that RapidOCR fails on counts as no reading, with a warning on stderr.
Accuracy = correct / images.
"""

import argparse
import glob
import json
import math
import os
import re
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPLIT_TSV = os.path.join(REPO, "Training", "split.tsv")
PERIPHERALS_DIR = os.path.join(REPO, "Overlays", "peripherals")
# Peripheral per photos folder of ../shared/data/photos when its labels.tsv has no peripheral column.
PHOTO_FOLDER_PERIPHERAL = {
    "glucose-morepen": 9,
    "bp-paramed": 2,
    "bp-fields-binarized": 100,
    "fuel-pump": 100,
    "electricity-meter": 100,
}
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
MATCH_RULES = ("exact", "integer", "digits")


class Failure(Exception):
    """A usage or input problem: printed as `compare-ocr: ...`, exit status 2."""


def warn(message):
    print(f"compare-ocr: warning: {message}", file=sys.stderr, flush=True)


# MARK: Inputs


def labelled_folders(root):
    """`root` when it holds labels.tsv, else every folder below it that does (recursive, sorted, no hidden)."""
    if os.path.isfile(os.path.join(root, "labels.tsv")):
        return [root]
    found, visited = [], set()

    def walk(folder):
        real = os.path.realpath(folder)
        if real in visited:
            return
        visited.add(real)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return
        for name in names:
            if name.startswith("."):
                continue
            path = os.path.join(folder, name)
            if not os.path.isdir(path):
                continue
            if os.path.isfile(os.path.join(path, "labels.tsv")):
                found.append(path)
            walk(path)

    walk(root)
    return found


def load_labels(path):
    """Rows of a labels.tsv as dicts (file, reading, match, peripheral, unit), as LabelFile.parse reads them."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except OSError as e:
        raise Failure(f"cannot read {path}: {e.strerror}")
    rows = text.splitlines()
    while rows and rows[-1] == "":
        rows.pop()
    if not rows or rows[0].strip() == "":
        raise Failure(f"{path}:1: empty file")
    header = [c.strip() for c in rows[0].split("\t")]
    if "file" not in header or "reading" not in header:
        raise Failure(f"{path}:1: header needs `file` and `reading` columns")
    col = {name: header.index(name) for name in header}
    labels = []
    for n, row in enumerate(rows[1:], start=2):
        if row == "":
            continue
        cells = row.split("\t")

        def cell(name):
            i = col.get(name)
            return cells[i] if i is not None and i < len(cells) else None

        file, reading = cell("file"), cell("reading")
        if not file or reading is None or not reading.strip():
            raise Failure(f"{path}:{n}: missing file or reading")
        match = cell("match") or "exact"
        if match not in MATCH_RULES:
            raise Failure(f"{path}:{n}: unknown match rule `{match}` (exact, integer, digits)")
        peripheral = None
        text = (cell("peripheral") or "").strip()
        if text:
            if not re.fullmatch(r"-?[0-9]+", text):
                raise Failure(f"{path}:{n}: peripheral `{text}` is not a number")
            peripheral = int(text)
        unit = cell("unit") or None
        labels.append({"file": file, "reading": reading.strip(), "match": match, "peripheral": peripheral, "unit": unit})
    return labels


def load_split():
    """{(folder name, file): half} from Training/split.tsv, and the folder names it lists."""
    halves, folders = {}, set()
    if not os.path.isfile(SPLIT_TSV):
        return halves, folders
    with open(SPLIT_TSV, encoding="utf-8") as f:
        rows = f.read().splitlines()
    header = rows[0].split("\t") if rows else []
    if not {"folder", "file", "half"} <= set(header):
        raise Failure(f"{SPLIT_TSV}: header needs folder, file and half columns")
    fi, ni, hi = header.index("folder"), header.index("file"), header.index("half")
    for row in rows[1:]:
        cells = row.split("\t")
        if len(cells) <= max(fi, ni, hi):
            continue
        halves[(cells[fi], cells[ni])] = cells[hi]
        folders.add(cells[fi])
    return halves, folders


def load_peripherals():
    catalog = {}
    for path in sorted(glob.glob(os.path.join(PERIPHERALS_DIR, "*.json"))):
        with open(path, encoding="utf-8") as f:
            definition = json.load(f)
        catalog[definition["id"]] = definition
    if not catalog:
        raise Failure(f"no peripheral definitions in {PERIPHERALS_DIR}")
    return catalog


def canonical_unit(text):
    """ReaderSetting.canonicalUnit: `mmol` -> `mmol/L`, `C` -> `°C`, ..."""
    key = text.lower().replace(" ", "")
    return {
        "mg": "mg/dL", "mg/dl": "mg/dL", "mgdl": "mg/dL", "mg-dl": "mg/dL",
        "mmol": "mmol/L", "mmol/l": "mmol/L", "mmoll": "mmol/L", "mmol-l": "mmol/L",
        "c": "°C", "°c": "°C", "celsius": "°C", "degc": "°C",
        "f": "°F", "°f": "°F", "fahrenheit": "°F", "degf": "°F",
        "kg": "kg", "kilograms": "kg", "lb": "lb", "lbs": "lb", "pounds": "lb", "mmhg": "mmHg", "bpm": "bpm",
    }.get(key, text)


def measurement_fields(definition):
    return [f for f in definition["fields"] if f["name"] not in ("time", "date")]


def field_variants(definition, unit, lenient, where):
    """Per measurement field, the unit variants a value may fit (ReaderSetting.resolve's rule for the unit)."""
    fields = measurement_fields(definition)
    every = [f["units"] for f in fields]
    if not unit:
        return every
    canonical = canonical_unit(unit)
    offering = [[u for u in f["units"] if u["unit"].lower() == canonical.lower()] for f in fields]
    if not any(offering):
        if lenient:
            return every
        known = sorted({u["unit"] for f in fields for u in f["units"] if u["unit"]})
        raise Failure(f"{where}: peripheral {definition['id']} does not show {unit}"
                      + (f"; it shows {', '.join(known)}" if known else ""))
    return offering if all(offering) else every


# MARK: Picking


def display_word(text):
    """DisplayWord.word, case-insensitive: LO, HI or Err, else None."""
    return {"lo": "LO", "l0": "LO", "hi": "HI", "h1": "HI", "er": "Err", "err": "Err"}.get(text.lower())


def box_geometry(points):
    """(height across the text, centre x, centre y) of a RapidOCR box (4 points, clockwise from top-left)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[:4]
    width = (math.dist((x0, y0), (x1, y1)) + math.dist((x3, y3), (x2, y2))) / 2
    height = (math.dist((x0, y0), (x3, y3)) + math.dist((x1, y1), (x2, y2))) / 2
    if height >= 1.5 * width:  # RapidOCR turns such a crop by 90 degrees before reading it
        height = width
    return height, (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4


def reading_order(boxes):
    """Top-to-bottom, left-to-right within a row."""
    rows = []
    for b in sorted(boxes, key=lambda b: b["cy"]):
        if rows:
            row = rows[-1]
            cy = sum(r["cy"] for r in row) / len(row)
            if abs(b["cy"] - cy) < 0.5 * min(b["height"], min(r["height"] for r in row)):
                row.append(b)
                continue
        rows.append([b])
    return [b for row in rows for b in sorted(row, key=lambda b: b["cx"])]


def decimals(text):
    """Digits after the point: `5.60` has 2."""
    return len(text.split(".", 1)[1]) if "." in text else 0


def fits(text, variant):
    d, r = variant.get("decimals"), variant.get("range")
    if d is not None and decimals(text) != d:
        return False
    if r is not None and len(r) == 2 and not (r[0] <= float(text) <= r[1]):
        return False
    return True


def pick(ocr_result, variants):
    """(value string or None, word or None, every box seen as text@height) from RapidOCR's boxes."""
    kept, texts = [], []
    for index, entry in enumerate(ocr_result or []):
        points, text = entry[0], str(entry[1])
        compact = re.sub(r"\s+", "", text)
        height, cx, cy = box_geometry(points)
        texts.append(f"{compact}@{height:.0f}")
        if compact.endswith(".") and compact[:-1][-1:].isdigit():
            compact = compact[:-1]  # a lit point (or a speck) after the last digit carries no decimal
        word = display_word(compact)
        if word is None and not NUMBER.fullmatch(compact):
            continue
        kept.append({"text": compact, "word": word, "height": height, "cx": cx, "cy": cy, "index": index})
    seen = " | ".join(texts)
    if not kept:
        return None, None, seen
    tallest = sorted(kept, key=lambda b: (-b["height"], b["index"]))
    if tallest[0]["word"] is not None:
        return None, tallest[0]["word"], seen
    numbers = [b for b in tallest if b["word"] is None]
    if len(numbers) < len(variants):
        return None, None, seen
    chosen = reading_order(numbers[: len(variants)])
    values = []
    for box, options in zip(chosen, variants):
        if not any(fits(box["text"], v) for v in options):
            return None, None, seen
        values.append(box["text"])
    return "/".join(values), None, seen


# MARK: Scoring (MatchRule.swift and Evaluation.judge)


def normalized(value):
    sign = ""
    if value.startswith("-"):
        sign, value = "-", value[1:]
    while len(value) > 1 and value[0] == "0" and value[1] != ".":
        value = value[1:]
    return sign + value


def to_double(text):
    # Swift's Double(String): a plain decimal number (no `_`, no surrounding spaces, no `inf`/`nan`).
    if not re.fullmatch(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?", text):
        return None
    value = float(text)
    return value if math.isfinite(value) and abs(value) < 1e15 else None


def rounded_half_up(text):
    value = to_double(text)
    return None if value is None else math.floor(value + 0.5)


def integer_label(text):
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text)
    value = to_double(text)
    return int(value) if value is not None and value == round(value) else None


def drop_leading_zeros(s):
    t = s.lstrip("0")
    return "0" if not t and s else t


def matches(rule, reading, label):
    a, b = reading.split("/"), label.split("/")
    if not a or len(a) != len(b):
        return False
    if rule == "exact":
        return all(normalized(x) == normalized(y) for x, y in zip(a, b))
    if rule == "integer":
        for x, y in zip(a, b):
            rx, ly = rounded_half_up(x), integer_label(y)
            if rx is None or ly is None or rx != ly:
                return False
        return True
    x = drop_leading_zeros("".join(c for c in reading if c.isascii() and c.isdigit()))
    y = drop_leading_zeros("".join(c for c in label if c.isascii() and c.isdigit()))
    return x != "" and x == y


def label_word(label):
    """DisplayWord.word(in:) as the Swift eval applies it to a label (exact spellings)."""
    return {"LO": "LO", "L0": "LO", "Lo": "LO", "HI": "HI", "H1": "HI", "Er": "Err", "Err": "Err",
            "E-": "Err", "E--": "Err"}.get(label)


def judge(value, word, label, rule):
    expects_no_value = label == "?" or label_word(label) is not None
    if value is not None:
        if expects_no_value:
            return "wrong"
        return "correct" if matches(rule, value, label) else "wrong"
    if expects_no_value:
        if word is not None:
            return "correct" if word == label_word(label) else "wrong"
        return "correct" if label == "?" else "no-reading"
    return "wrong" if word is not None else "no-reading"


# MARK: OCR


_ENGINE = None


def make_engine(threads, barrier=None):
    global _ENGINE
    from rapidocr_onnxruntime import RapidOCR

    _ENGINE = RapidOCR(intra_op_num_threads=threads) if threads > 0 else RapidOCR()
    if barrier is not None:  # every worker's models loaded before the clock starts
        barrier.wait()


def ocr_one(path):
    """(seconds, RapidOCR result as plain lists, error message or None) for one image."""
    from PIL import Image, ImageOps

    start = time.perf_counter()
    try:
        with Image.open(path) as image:
            image = ImageOps.exif_transpose(image).convert("RGB")
        result, _ = _ENGINE(image)
        plain = [[[[float(c) for c in p] for p in entry[0]], str(entry[1]), float(entry[2])] for entry in result or []]
        return time.perf_counter() - start, plain, None
    except Exception as e:  # a file RapidOCR cannot read counts as no reading
        return time.perf_counter() - start, [], f"{type(e).__name__}: {e}"


class Progress:
    def __init__(self, total):
        self.total, self.done, self.tty, self.last = total, 0, sys.stderr.isatty(), 0.0

    def step(self, path, error):
        self.done += 1
        if error is not None:
            self.clear()
            warn(f"{path}: cannot read: {error} (counted as no reading)")
        now = time.monotonic()
        if self.tty:
            if now - self.last > 0.2 or self.done == self.total:
                self.last = now
                print(f"\rcompare-ocr: {self.done}/{self.total} images", end="", file=sys.stderr, flush=True)
        elif self.done % 25 == 0 or self.done == self.total:
            print(f"compare-ocr: {self.done}/{self.total} images", file=sys.stderr, flush=True)

    def clear(self):
        if self.tty:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


# MARK: Main


def render(rows):
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(max(len(r) for r in rows))]
    return "\n".join("  ".join(c if i == len(r) - 1 else c.ljust(widths[i]) for i, c in enumerate(r)) for r in rows)


def percent(n, total):
    return "-" if total == 0 else f"{100 * n / total:.1f}%"


def table_line(name, c):
    return [name, str(c["images"]), str(c["correct"]), str(c["wrong"]), str(c["no-reading"]),
            percent(c["correct"], c["images"]), f"{c['seconds'] / c['images']:.2f}" if c["images"] else "-"]


def main(argv):
    parser = argparse.ArgumentParser(
        prog="compare-ocr.sh", allow_abbrev=False,
        description="PP-OCR (RapidOCR) on labelled photo folders, a simple value-picking rule, scored like vitalsnap eval.")
    parser.add_argument("folders", nargs="+", metavar="FOLDER",
                        help="folder with labels.tsv, or a folder above such folders")
    parser.add_argument("--split", choices=("held", "train", "all"), default="held",
                        help="half of Training/split.tsv for the folders it lists (default: held)")
    parser.add_argument("--peripheral", type=int, metavar="ID",
                        help="peripheral for rows whose labels.tsv has no peripheral column")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="OCR worker processes, one engine each (default 1; onnxruntime uses all cores in each)")
    parser.add_argument("--tsv", metavar="FILE", help="write per-image results: file, label, reading, verdict, ...")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        raise Failure("--jobs must be at least 1")

    catalog = load_peripherals()
    if args.peripheral is not None and args.peripheral not in catalog:
        raise Failure(f"unknown peripheral {args.peripheral} (known: {', '.join(map(str, sorted(catalog)))})")
    halves, split_folders = load_split()

    # Folders and their rows, checked before any OCR.
    groups = []  # (name shown, folder path, [row])
    for root in args.folders:
        if not os.path.isdir(root):
            raise Failure(f"no such folder: {root}")
        folders = labelled_folders(root)
        if not folders:
            raise Failure(f"no labels.tsv in {root} or in any folder below it")
        for folder in folders:
            labels_path = os.path.join(folder, "labels.tsv")
            labels = load_labels(labels_path)
            name = os.path.basename(os.path.normpath(folder))
            if args.split != "all" and name in split_folders:
                labels = [l for l in labels if halves.get((name, l["file"])) == args.split]
            rows = []
            for l in labels:
                lenient = False
                peripheral = l["peripheral"]
                if peripheral is None:
                    peripheral = args.peripheral if args.peripheral is not None else PHOTO_FOLDER_PERIPHERAL.get(name)
                    lenient = True
                if peripheral is None:
                    raise Failure(f"{labels_path} names no peripheral for {l['file']} (no `peripheral` column) and "
                                  f"{name} is not a known photos folder: pass --peripheral ID")
                if peripheral not in catalog:
                    raise Failure(f"{labels_path}, row {l['file']}: unknown peripheral {peripheral}")
                where = f"{labels_path}, row {l['file']}"
                variants = field_variants(catalog[peripheral], l["unit"], lenient, where)
                rows.append(dict(l, peripheral=peripheral, variants=variants,
                                 path=os.path.join(folder, l["file"])))
            shown = folder if folder == root else os.path.relpath(folder, root)
            groups.append((shown, folder, rows))

    jobs_rows = [row for _, _, rows in groups for row in rows]
    total_images = len(jobs_rows)
    cores = os.cpu_count() or 1
    from importlib.metadata import version
    versions = f"rapidocr-onnxruntime {version('rapidocr-onnxruntime')}, onnxruntime {version('onnxruntime')}"
    print(f"compare-ocr: {total_images} images in {len(groups)} folders (split {args.split}), {versions}, "
          f"{args.jobs} job{'s' if args.jobs != 1 else ''} on {cores} cores", file=sys.stderr, flush=True)

    load_start = time.perf_counter()
    progress = Progress(total_images)
    paths = [row["path"] for row in jobs_rows]
    results = []
    if args.jobs == 1:
        make_engine(0)
        load_seconds = time.perf_counter() - load_start
        ocr_start = time.perf_counter()
        for path in paths:
            results.append(ocr_one(path))
            progress.step(path, results[-1][2])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        threads = max(1, cores // args.jobs)
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(args.jobs + 1)
        with ProcessPoolExecutor(args.jobs, mp_context=context, initializer=make_engine,
                                 initargs=(threads, barrier)) as pool:
            # One task per worker starts them all (each loads its models once); wait until all have.
            warmup = [pool.submit(int, 0) for _ in range(args.jobs)]
            try:
                barrier.wait(timeout=600)
            except threading.BrokenBarrierError:
                raise Failure("the OCR worker processes did not start (see the errors above)")
            for future in warmup:
                future.result()
            load_seconds = time.perf_counter() - load_start
            ocr_start = time.perf_counter()
            for path, result in zip(paths, pool.map(ocr_one, paths, chunksize=1)):
                results.append(result)
                progress.step(path, result[2])
    ocr_wall = time.perf_counter() - ocr_start
    progress.clear()

    # Judge, per folder.
    table = [["FOLDER", "IMAGES", "CORRECT", "WRONG", "NO READING", "ACCURACY", "S/IMAGE"]]
    totals = {"images": 0, "correct": 0, "wrong": 0, "no-reading": 0, "seconds": 0.0}
    tsv_rows = []
    failed = 0
    i = 0
    for shown, folder, rows in groups:
        counts = {"images": 0, "correct": 0, "wrong": 0, "no-reading": 0, "seconds": 0.0}
        for row in rows:
            seconds, result, error = results[i]
            i += 1
            if error is not None:
                failed += 1
                value, word, seen, verdict = None, None, "", "no-reading"
            else:
                value, word, seen = pick(result, row["variants"])
                verdict = judge(value, word, row["reading"], row["match"])
            counts["images"] += 1
            counts[verdict] += 1
            counts["seconds"] += seconds
            reading = value if value is not None else (word if word is not None else "-")
            tsv_rows.append([os.path.join(shown, row["file"]),
                             row["reading"], reading, verdict, str(row["peripheral"]), f"{seconds:.3f}",
                             error or seen])
        for key in totals:
            totals[key] += counts[key]
        table.append(table_line(shown, counts))
    table.append(table_line(f"total ({len(groups)} folders)", totals))
    print(render(table))
    per_image = ocr_wall / total_images if total_images else 0.0
    print(f"\n{versions}; {total_images} images in {ocr_wall:.1f} s: {per_image:.2f} s per image wall "
          f"({args.jobs} job{'s' if args.jobs != 1 else ''}, {cores} cores; models loaded once in "
          f"{load_seconds:.1f} s, not counted). S/IMAGE: mean time per image in the engine, image decode included.")
    if failed:
        print(f"{failed} image{'s' if failed != 1 else ''} could not be read (counted as no reading)")
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            f.write("file\tlabel\treading\tverdict\tperipheral\tseconds\tseen\n")
            for r in tsv_rows:
                f.write("\t".join(c.replace("\t", " ").replace("\n", " ") for c in r) + "\n")
        print(f"per-image results: {args.tsv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        print(f"compare-ocr: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
