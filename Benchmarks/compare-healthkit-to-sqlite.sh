#!/usr/bin/env bash
# `vitalsnap health import` against healthkit-to-sqlite (dogsheep, PyPI) on the same Apple Health export, both
# timed as whole processes, one after the other in the same run on the same machine; and the number of elements
# each one read per HealthKit type compared, so that speed is never bought by reading less.
#
#   Benchmarks/compare-healthkit-to-sqlite.sh [EXPORT.zip] [--size 1G] [--runs N] [--work DIR] [--manifest FILE]
#
# EXPORT.zip  an export.zip from the Health app. Without it, one is made with
#             Tests/Fixtures/health/make-health-export.py (--size SIZE, default 1G, --seed 5, with its manifest) in
#             the work folder, and kept there: a later run with the same size reuses it (1 GB takes ~35 s to make).
#             Making it is not timed.
# --size S    size of the XML to generate (K, M, G: powers of 1024); ignored when EXPORT.zip is given.
# --runs N    run each tool N times, alternating (vitalsnap, healthkit-to-sqlite, vitalsnap, ...); the report
#             gives the median wall time and the median peak RSS (default 1).
# --work DIR  work folder (default ${TMPDIR:-/tmp}/vitalsnap-compare-healthkit): the generated export, vitalsnap's
#             data directory (vitalsnap-data/, fresh for each run), healthkit-to-sqlite's database (healthkit.db,
#             fresh for each run; the last one is kept), the logs and the report as JSON (compare-healthkit.json).
# --manifest F  the generator's manifest for a given EXPORT.zip (default: EXPORT.json beside it, if there is one).
#
# vitalsnap: .build/release/vitalsnap (built with `swift build -c release --product vitalsnap` only when it is
# missing). It subscribes every set, then `vitalsnap health import EXPORT --json --data-dir WORK/vitalsnap-data`
# is timed: there is no session, so nothing is uploaded; the records go into the SQLite queue in the data folder.
# VITALSNAP=PATH times another vitalsnap binary instead (nothing is built then).
# healthkit-to-sqlite: `healthkit-to-sqlite --silent EXPORT WORK/healthkit.db` (--silent: no progress bar, as
# vitalsnap shows none when stderr is not a terminal), from the venv Benchmarks/.venv-healthkit, made from
# Benchmarks/healthkit-requirements.txt when it is missing; HK_VENV=DIR uses another venv that has it installed
# (e.g. HK_VENV=.venv-healthkit).
#
# Elements per second: the same element count for both tools, the top-level elements of the export that both
# read (Record + Correlation + Workout; from the manifest: top_level_records + elements.Correlation +
# elements.Workout; with no manifest, vitalsnap's own `elements` count), divided by each tool's wall time.
# Memory: peak RSS from GNU time (`/usr/bin/time -f '%e %M'`). MB and GB here are 10^6 and 10^9 bytes.
#
# Needs: python3, GNU time (`sudo apt-get install -y time`), swift (only to build vitalsnap when it is missing).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '6p' "$0" | sed 's/^#   //' >&2; exit 2; }

EXPORT="" SIZE=1G RUNS=1 WORK="${TMPDIR:-/tmp}/vitalsnap-compare-healthkit" MANIFEST=""
while [ $# -gt 0 ]; do
    case "$1" in
        --size) SIZE=${2:?--size needs a value}; shift 2 ;;
        --runs) RUNS=${2:?--runs needs a value}; shift 2 ;;
        --work) WORK=${2:?--work needs a folder}; shift 2 ;;
        --manifest) MANIFEST=${2:?--manifest needs a file}; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1" >&2; usage ;;
        *) [ -z "$EXPORT" ] || usage; EXPORT=$1; shift ;;
    esac
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "--runs must be a positive number" >&2; exit 2; }
[ -x /usr/bin/time ] && /usr/bin/time -f '%e' true 2>/dev/null \
    || { echo "needs GNU time at /usr/bin/time: sudo apt-get install -y time" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
log() { echo "$*" >&2; }

# --- the export -----------------------------------------------------------------------------------------------
SEED=5
if [ -z "$EXPORT" ]; then
    EXPORT="$WORK/export-$SIZE-seed$SEED.zip"
    MANIFEST="$WORK/export-$SIZE-seed$SEED.json"
    # Reused only when the manifest says it was made with this size and seed, unbroken, and the zip is whole.
    if python3 - "$EXPORT" "$MANIFEST" "$SIZE" "$SEED" 2>/dev/null <<'PY'
import json, os, sys
export, manifest, size, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t = size.strip().upper().replace("IB", "").rstrip("B")   # as the generator's parse_size reads it
scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(t[-1:], 1)
size_bytes = int(float(t[:-1] if scale > 1 else t) * scale)
m = json.load(open(manifest))
a = m["arguments"]
ok = a["seed"] == seed and a["size"] == size_bytes and not a["malformed"] and not a["absurd"] \
    and m["bytes"]["file"] == os.path.getsize(export)
sys.exit(0 if ok else 1)
PY
    then
        log "reusing $EXPORT"
    else
        log "making $EXPORT (--size $SIZE --seed $SEED; not timed)"
        # Written under temporary names and moved into place, so an interrupted run leaves nothing to reuse.
        python3 "$ROOT/Tests/Fixtures/health/make-health-export.py" "$EXPORT.part.zip" --size "$SIZE" --seed "$SEED" \
            --manifest "$MANIFEST.part" >&2
        mv "$EXPORT.part.zip" "$EXPORT"
        mv "$MANIFEST.part" "$MANIFEST"
    fi
else
    [ -f "$EXPORT" ] || { echo "no such export: $EXPORT" >&2; exit 2; }
    EXPORT=$(cd "$(dirname "$EXPORT")" && pwd)/$(basename "$EXPORT")
    if [ -z "$MANIFEST" ] && [ -f "${EXPORT%.zip}.json" ]; then MANIFEST="${EXPORT%.zip}.json"; fi
fi
[ -z "$MANIFEST" ] || [ -f "$MANIFEST" ] || { echo "no such manifest: $MANIFEST" >&2; exit 2; }

# --- the tools ------------------------------------------------------------------------------------------------
V=${VITALSNAP:-$ROOT/.build/release/vitalsnap}
if [ -n "${VITALSNAP:-}" ]; then
    [ -x "$V" ] || { echo "VITALSNAP=$V is not an executable" >&2; exit 2; }
elif [ ! -x "$V" ]; then
    log "no $V: building it (swift build -c release --product vitalsnap)"
    (cd "$ROOT" && swift build -c release --product vitalsnap >&2)
fi
VENV=${HK_VENV:-$ROOT/Benchmarks/.venv-healthkit}
case "$VENV" in /*) ;; *) VENV="$ROOT/$VENV" ;; esac
if [ ! -x "$VENV/bin/healthkit-to-sqlite" ]; then
    [ -z "${HK_VENV:-}" ] || { echo "HK_VENV=$HK_VENV has no bin/healthkit-to-sqlite" >&2; exit 2; }
    log "making the venv $VENV from Benchmarks/healthkit-requirements.txt"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet -r "$ROOT/Benchmarks/healthkit-requirements.txt" >&2
fi
HK="$VENV/bin/healthkit-to-sqlite"
HK_VERSION=$("$VENV/bin/pip" show healthkit-to-sqlite 2>/dev/null | sed -n 's/^Version: //p')

# --- the runs -------------------------------------------------------------------------------------------------
DATA="$WORK/vitalsnap-data" DB="$WORK/healthkit.db"
rm -f "$WORK"/vitalsnap-[0-9]*.* "$WORK"/healthkit-[0-9]*.*
cat "$EXPORT" >/dev/null   # page cache warm for both, so the first tool does not pay for the disk

# Before each timed run: the last run's files, just deleted, and its writes reach the disk now (with the
# file system's discard, a deleted file of hundreds of MB is work for the disk), not during the next tool's run.
settle() { sync; sleep 2; }

run_vitalsnap() {
    local i=$1
    rm -rf "$DATA"
    settle
    "$V" health subscribe --data-dir "$DATA" \
        --sets routine,diabetes,weight,fitness,sleep,basicNutrition,reproductiveHealth,biometrics >/dev/null
    local rc=0
    /usr/bin/time -f '%e %M' -o "$WORK/vitalsnap-$i.time" \
        "$V" health import "$EXPORT" --json --data-dir "$DATA" >"$WORK/vitalsnap-$i.json" 2>"$WORK/vitalsnap-$i.log" || rc=$?
    if [ "$rc" -ne 0 ]; then
        log "vitalsnap health import failed (exit $rc), run $i:"; cat "$WORK/vitalsnap-$i.log" >&2; exit 1
    fi
}
run_healthkit_to_sqlite() {
    local i=$1
    rm -f "$DB" "$DB-journal" "$DB-wal" "$DB-shm"
    settle
    local rc=0
    /usr/bin/time -f '%e %M' -o "$WORK/healthkit-$i.time" \
        "$HK" --silent "$EXPORT" "$DB" >"$WORK/healthkit-$i.log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        log "healthkit-to-sqlite failed (exit $rc), run $i:"; cat "$WORK/healthkit-$i.log" >&2; exit 1
    fi
}
for i in $(seq 1 "$RUNS"); do
    log "run $i/$RUNS: vitalsnap health import"
    run_vitalsnap "$i"
    log "run $i/$RUNS: healthkit-to-sqlite"
    run_healthkit_to_sqlite "$i"
done

# --- the report -----------------------------------------------------------------------------------------------
python3 - "$EXPORT" "${MANIFEST:-}" "$WORK" "$RUNS" "$DB" "$HK_VERSION" "$(nproc)" <<'PY'
import json, os, sqlite3, statistics, sys, zipfile
export, manifest_path, work, runs, db_path, hk_version, cores = sys.argv[1:8]
runs = int(runs)
manifest = json.load(open(manifest_path)) if manifest_path else None
Q, K = "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier"
WORKOUT = "HKWorkoutTypeIdentifier"

def timing(name):
    walls, peaks = [], []
    for i in range(1, runs + 1):
        wall, rss_kb = open(os.path.join(work, f"{name}-{i}.time")).read().split()[-2:]
        walls.append(float(wall))
        peaks.append(int(rss_kb) * 1024 / 1e6)
    return {"wall_s": statistics.median(walls), "peak_mb": statistics.median(peaks), "wall_s_runs": walls,
            "peak_mb_runs": [round(p, 1) for p in peaks]}

# vitalsnap: one JSON object on stdout per run; every run must have read the same.
summaries = [json.load(open(os.path.join(work, f"vitalsnap-{i}.json"))) for i in range(1, runs + 1)]
vs = summaries[-1]
notes = []
if any(s["elementsByType"] != vs["elementsByType"] for s in summaries):
    notes.append("vitalsnap's elementsByType differed between runs: the last run's is compared")

# The export: zip size, XML size (the entry healthkit-to-sqlite would pick: <HealthData in its first 1 KB).
with zipfile.ZipFile(export) as z:
    xml_bytes = 0
    for info in z.infolist():
        if info.filename.endswith(".xml") and info.filename.count("/") == 1:
            head = z.open(info).read(1024)
            if b"<!DOCTYPE HealthData" in head or b"<HealthData " in head:
                xml_bytes = info.file_size
if manifest:
    elements = manifest["top_level_records"] + manifest["elements"].get("Correlation", 0) + manifest["elements"].get("Workout", 0)
    elements_source = "manifest: top_level_records + Correlation + Workout"
    if elements != vs["elements"]:
        notes.append(f"vitalsnap counted {vs['elements']:,} top-level elements, the manifest {elements:,}")
else:
    elements = vs["elements"]
    elements_source = "vitalsnap's elements count (no manifest)"

tools = {"vitalsnap": timing("vitalsnap"), "healthkit-to-sqlite": timing("healthkit")}
for t in tools.values():
    t["elements_per_s"] = elements / t["wall_s"] if t["wall_s"] > 0 else None
a, b = tools["vitalsnap"]["elements_per_s"], tools["healthkit-to-sqlite"]["elements_per_s"]
ratio = a / b if a and b else None

# healthkit-to-sqlite's tables: r + the type without its Quantity/Category prefix, workouts for workouts.
db = sqlite3.connect(db_path)
tables = {name: db.execute(f'select count(*) from "{name}"').fetchone()[0]
          for (name,) in db.execute("select name from sqlite_master where type = 'table'")}
def duplicate_rows(table):
    # Rows identical to another row in every column: what the nested copy of a top-level Record looks like.
    columns = ", ".join('"' + c[1] + '"' for c in db.execute(f'pragma table_info("{table}")'))
    distinct = db.execute(f'select count(*) from (select distinct {columns} from "{table}")').fetchone()[0]
    return tables[table] - distinct
def table_of(hk_type):
    if hk_type == WORKOUT:
        return "workouts"
    return "r" + hk_type.replace(Q, "").replace(K, "")
nested = manifest.get("nested_records_by_type", {}) if manifest else {}
rows, used = [], set()
for hk_type in sorted(vs["elementsByType"]):
    v = vs["elementsByType"][hk_type]
    table = table_of(hk_type)
    if hk_type.startswith("HKCorrelationTypeIdentifier"):
        rows.append({"type": hk_type, "vitalsnap": v, "healthkit_to_sqlite": None, "agree": "n/a",
                     "why": "healthkit-to-sqlite keeps no Correlations, only the Records in them"})
        continue
    used.add(table)
    h = tables.get(table, 0)
    if h == v:
        agree, why = "yes", ""
    elif nested.get(hk_type) and h == v + nested[hk_type]:
        agree, why = "nested", f"+{nested[hk_type]:,} Records nested in correlations"
    elif not manifest and table in tables and h > v and duplicate_rows(table) == h - v:
        agree, why = "nested", f"+{h - v:,} rows that duplicate another row, as nested copies do"
    else:
        agree, why = "no", "" if table in tables else f"no table {table}"
    rows.append({"type": hk_type, "table": table, "vitalsnap": v, "healthkit_to_sqlite": h, "agree": agree, "why": why})
for table in sorted(set(tables) - used - {"activity_summary", "workout_points"}):
    rows.append({"type": table, "table": table, "vitalsnap": 0, "healthkit_to_sqlite": tables[table], "agree": "no",
                 "why": "only healthkit-to-sqlite"})
db.close()
compared = [r for r in rows if r["agree"] != "n/a"]
exact = sum(r["agree"] == "yes" for r in compared)
by_nested = sum(r["agree"] == "nested" for r in compared)
disagree = sum(r["agree"] == "no" for r in compared)

def mb(x): return f"{x / 1e6:,.0f} MB"
out = []
xml_text = f"{xml_bytes / 1e9:.2f} GB" if xml_bytes >= 1e9 else mb(xml_bytes)
out.append(f"export: {export} ({mb(os.path.getsize(export))} zip, {xml_text} XML, {elements:,} elements)")
out.append(f"machine: {cores} cores; runs: {runs} per tool, alternating, median shown; healthkit-to-sqlite {hk_version}")
out.append(f"{'tool':<22}{'wall s':>9}{'peak MB':>10}{'elements/s':>13}")
for name, t in tools.items():
    eps = f"{t['elements_per_s']:,.0f}" if t["elements_per_s"] else "-"
    out.append(f"{name:<22}{t['wall_s']:>9.1f}{t['peak_mb']:>10.1f}{eps:>13}")
out.append(f"ratio (vitalsnap / healthkit-to-sqlite): {ratio:.1f}x elements/s" if ratio else "ratio: -")
out.append(f"elements/s: the same count for both tools, {elements:,} ({elements_source}), over each one's wall time")
out.append(f"counts per type: {len(compared)} types, {exact} agree, {by_nested} differ only by the Records nested in "
           f"correlations, {disagree} disagree; {len(rows) - len(compared)} correlation types only vitalsnap counts")
out.append("")
w = max(len(r["type"]) for r in rows)
out.append(f"{'type':<{w}} | {'vitalsnap':>10} | {'healthkit-to-sqlite':>19} | agree?")
for r in rows:
    h = "-" if r["healthkit_to_sqlite"] is None else f"{r['healthkit_to_sqlite']:,}"
    agree = {"yes": "yes", "no": "NO", "n/a": "n/a", "nested": "no"}[r["agree"]]
    out.append(f"{r['type']:<{w}} | {r['vitalsnap']:>10,} | {h:>19} | {agree}{'  (' + r['why'] + ')' if r['why'] else ''}")
for extra, what in (("activity_summary", "ActivitySummary elements (vitalsnap does not count them)"),
                    ("workout_points", "route points from the workout-routes GPX files")):
    if extra in tables:
        out.append(f"  healthkit-to-sqlite also wrote {tables[extra]:,} rows to {extra}: {what}")
out.append("")
out.append("notes:")
out.append("- vitalsnap counts the top-level elements (each Record, Correlation and Workout once, by type; the")
out.append("  Records inside a Correlation belong to it). healthkit-to-sqlite (--silent) writes every <Record> it meets,")
out.append("  the ones nested in Correlations too (blood pressure, food), so its tables for those types hold the")
out.append("  top-level Records plus the nested copies" + (", shown above against the manifest's nested_records_by_type;"
           if manifest else " (no manifest here: the rows that exactly duplicate another row are counted instead);"))
out.append("  it writes no row for the Correlations themselves.")
out.append("- Both read the whole XML; vitalsnap also maps the subscribed types into upload records (its SQLite")
out.append("  queue), healthkit-to-sqlite writes every element into its database (and the GPX routes).")
out.append(f"  vitalsnap queued {sum(vs['queued'].values()):,} records: "
           f"{', '.join(f'{k} {n:,}' for k, n in sorted(vs['queued'].items()))}.")
for n in notes:
    out.append("- " + n)
print("\n".join(out))

report = {"export": export, "zip_bytes": os.path.getsize(export), "xml_bytes": xml_bytes, "elements": elements,
          "elements_source": elements_source, "runs": runs, "cores": int(cores), "healthkit_to_sqlite_version": hk_version,
          "tools": tools, "ratio_elements_per_s": ratio,
          "counts": {"types": len(compared), "agree": exact, "differ_by_nested": by_nested, "disagree": disagree,
                     "rows": rows, "healthkit_to_sqlite_other_tables": {k: tables[k] for k in ("activity_summary", "workout_points") if k in tables}},
          "vitalsnap_summary": vs, "notes": notes}
with open(os.path.join(work, "compare-healthkit.json"), "w") as f:
    json.dump(report, f, indent=1)
print(f"\n(written: {os.path.join(work, 'compare-healthkit.json')})")
PY
