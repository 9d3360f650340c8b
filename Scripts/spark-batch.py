#!/usr/bin/env python3
"""Reads a folder of photos through Apache Spark, the way a study that already runs Spark would.

Each partition of a dataset of paths is piped through `vitalsnap batch --paths-from -` (RDD.pipe); the JSON
Lines that come back become a DataFrame, written as Parquet. The script then reads the same folder with a
plain `vitalsnap batch --jobs N`, checks that every input has exactly one result and that the readings are
the same, and prints both runs' images per second.

    python3 -m venv .venv-spark && .venv-spark/bin/pip install -r Scripts/spark-requirements.txt
    swift build -c release --product vitalsnap
    .venv-spark/bin/python Scripts/spark-batch.py Samples/stills -p 100 --out /tmp/stills.parquet

Needs a Java 17+ runtime for Spark 4 (Debian 12: openjdk-17-jre-headless). Spark is not a dependency of the package.
Exit status 0 when the check passes, 1 when it does not, 2 for a usage error.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="photos to read (searched as `vitalsnap batch` searches a folder)")
    parser.add_argument("-p", "--peripheral", required=True, help="OCR peripheral id")
    parser.add_argument("--unit", help="unit, as for `vitalsnap batch --unit`")
    parser.add_argument("--reader", choices=["rules", "model"], help="as for `vitalsnap batch --reader`")
    parser.add_argument("--vitalsnap", default=os.path.join(ROOT, ".build/release/vitalsnap"), help="the executable")
    parser.add_argument("--master", default="local[2]", help="Spark master (default: local[2], two cores here)")
    parser.add_argument("--partitions", type=int, help="partitions of the path dataset (default: 2 per core; each "
                        "is one vitalsnap process, which loads the models once)")
    parser.add_argument("--jobs", type=int, default=2, help="jobs of the plain batch run compared with (default 2)")
    parser.add_argument("--out", help="Parquet folder for the results (default: none written)")
    parser.add_argument("--paths-from", help="read this list of paths (one per line) instead of listing the folder")
    return parser.parse_args()


# The columns of `vitalsnap batch`'s JSON Lines (docs/guides/batch.md, "Output"), nested ones as JSON text.
RESULT_SCHEMA = ("file STRING, status STRING, reading STRING, values ARRAY<STRUCT<field: STRING, value: DOUBLE, "
                 "text: STRING, unit: STRING>>, unit STRING, confidence DOUBLE, glare STRUCT<share: DOUBLE, "
                 "coversDigits: BOOLEAN, regions: ARRAY<ARRAY<INT>>>, display STRING, word STRING, message STRING, "
                 "error STRING, warnings ARRAY<STRING>")


def batch_command(args, extra):
    command = [args.vitalsnap, "batch", "-p", args.peripheral, "--quiet"]
    if args.unit:
        command += ["--unit", args.unit]
    if args.reader:
        command += ["--reader", args.reader]
    return command + extra


def main():
    args = parse_arguments()
    if not os.access(args.vitalsnap, os.X_OK):
        sys.exit(f"spark-batch: no executable {args.vitalsnap}: swift build -c release --product vitalsnap")
    if shutil.which("java") is None and "JAVA_HOME" not in os.environ:
        sys.exit("spark-batch: Spark needs a Java runtime (apt-get install -y openjdk-17-jre-headless)")
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        sys.exit("spark-batch: pyspark is not installed (pip install -r Scripts/spark-requirements.txt)")

    # The inputs: the paths vitalsnap itself would read in the folder, so both runs read the same list.
    if args.paths_from:
        with open(args.paths_from) as f:
            paths = [line.rstrip("\r\n") for line in f if line.strip()]
    else:
        listed = subprocess.run(batch_command(args, [args.folder, "--dry-run"]), check=True, capture_output=True, text=True)
        paths = listed.stdout.splitlines()
    if not paths:
        sys.exit(f"spark-batch: no images in {args.folder}")
    print(f"{len(paths)} inputs", file=sys.stderr)

    # Through Spark: each partition's paths go to one `vitalsnap batch --paths-from -` on its standard input.
    started = time.monotonic()
    spark = (SparkSession.builder.master(args.master).appName("vitalsnap-batch")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    session_seconds = time.monotonic() - started
    cores = spark.sparkContext.defaultParallelism
    partitions = args.partitions or 2 * cores
    command = " ".join(batch_command(args, ["--paths-from", "-", "--jobs", "1"]))
    started = time.monotonic()
    lines = spark.sparkContext.parallelize(paths, partitions).pipe(command, env={"LC_ALL": "C.UTF-8"})
    # The schema is given (batch's keys are fixed), so the lines are not read once more to infer it, and the
    # frame is cached, so writing it does not run the photos through vitalsnap again.
    frame = spark.read.schema(RESULT_SCHEMA).json(lines).cache()
    results = frame.select("file", "status", "reading").collect()
    spark_seconds = time.monotonic() - started
    if args.out:
        frame.write.mode("overwrite").parquet(args.out)
    spark.stop()

    # The same inputs through one plain batch run, its peak memory measured by GNU time where there is one.
    timer = ["/usr/bin/time", "-f", "peak-kb %M", "-o", "/dev/stderr"] if os.access("/usr/bin/time", os.X_OK) else []
    started = time.monotonic()
    plain = subprocess.run(
        timer + batch_command(args, ["--paths-from", "-", "--jobs", str(args.jobs)]), input="\n".join(paths) + "\n",
        capture_output=True, text=True)
    plain_seconds = time.monotonic() - started
    peak = [line.split()[1] for line in plain.stderr.splitlines() if line.startswith("peak-kb ")]
    expected = {}
    for line in plain.stdout.splitlines():
        row = json.loads(line)
        expected[row["file"]] = (row["status"], row["reading"])

    # Every input once, with the plain run's reading.
    problems = []
    seen = {}
    for row in results:
        seen[row["file"]] = seen.get(row["file"], 0) + 1
    missing = [p for p in paths if p not in seen]
    twice = [f for f, n in seen.items() if n > 1]
    unknown = [f for f in seen if f not in expected]
    differ = [r["file"] for r in results if r["file"] in expected and (r["status"], r["reading"]) != expected[r["file"]]]
    for what, items in (("no result", missing), ("more than one result", twice), ("not an input", unknown), ("another reading than the plain run", differ)):
        if items:
            problems.append(f"{len(items)} with {what}, e.g. {items[0]}")

    spark_rate = len(paths) / spark_seconds
    plain_rate = len(paths) / plain_seconds
    print(f"spark ({args.master}, {partitions} partitions): {len(results)} results in {spark_seconds:.1f} s, "
          f"{spark_rate:.1f} images/s (+ {session_seconds:.1f} s to start the session)")
    memory = f", peak memory {int(peak[-1]) / 1024:.1f} MB" if peak else ""
    print(f"plain batch --jobs {args.jobs}: {len(expected)} results in {plain_seconds:.1f} s, {plain_rate:.1f} images/s{memory}")
    print(f"plain / spark: {plain_rate / spark_rate:.2f}x")
    if args.out:
        print(f"results written to {args.out} (Parquet)")
    if problems:
        for p in problems:
            print(f"spark-batch: {p}", file=sys.stderr)
        return 1
    print(f"check: every one of the {len(paths)} inputs has exactly one result, the same as the plain run's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
