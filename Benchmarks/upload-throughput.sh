#!/usr/bin/env bash
# Upload throughput of `vitalsnap queue upload` to the loopback ingestion stub (`vitalsnap serve-ingestion`),
# whole processes timed side by side in one run: importing N records into the queue, then uploading them.
#
#   Benchmarks/upload-throughput.sh [N] [IMAGE_EVERY]
#
# N records (default 1000) are glucose records; every IMAGE_EVERY-th (default 0: none) gets a 40 KB JPEG-like
# image. Prints records per second for the import and the upload, and checks that the server stored each record
# exactly once.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
IMAGE_EVERY=${2:-0}
swift build -c release --product vitalsnap >/dev/null
V=.build/release/vitalsnap
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT

$V serve-ingestion --port 0 --token bench >"$WORK/server.log" &
SERVER=$!
for _ in $(seq 50); do grep -q listening "$WORK/server.log" && break; sleep 0.1; done
ENDPOINT=$(sed -n 's/^listening on //p' "$WORK/server.log")
DATA="$WORK/data"
$V session start --user bench --org bench --token bench --endpoint "$ENDPOINT" --data-dir "$DATA" >/dev/null

python3 - "$N" >"$WORK/records.jsonl" <<'PY'
import json, sys, uuid
for i in range(int(sys.argv[1])):
    print(json.dumps({"diabetes": {"activity_id": str(uuid.uuid4()), "blood_glucose": 70 + i % 300,
        "timestamp": "2026-11-22T08:%02d:%02d+01:00" % (i // 60 % 60, i % 60), "source": "bench", "utc_offset": "+01:00"}}))
PY
now() { date +%s.%N; }
t0=$(now)
$V queue import "$WORK/records.jsonl" --data-dir "$DATA" 2>/dev/null
t1=$(now)
if [ "$IMAGE_EVERY" -gt 0 ]; then
    head -c 40000 /dev/urandom | { printf '\xff\xd8'; cat; } >"$WORK/image.jpg"
    for i in $(seq 1 $((N / IMAGE_EVERY))); do
        $V submit glucose 100 --image "$WORK/image.jpg" --no-upload --data-dir "$DATA" >/dev/null
    done
fi
t2=$(now)
$V queue upload --data-dir "$DATA" 2>"$WORK/upload.log"
t3=$(now)
sleep 0.6  # the server prints stored records every 0.5 s
STORED=$(grep -c '^stored' "$WORK/server.log" || true)
TOTAL=$((N + (IMAGE_EVERY > 0 ? N / IMAGE_EVERY : 0)))
python3 - "$N" "$TOTAL" "$t0" "$t1" "$t2" "$t3" "$STORED" <<'PY'
import sys
n, total = int(sys.argv[1]), int(sys.argv[2])
t0, t1, t2, t3 = map(float, sys.argv[3:7]); stored = int(sys.argv[7])
print(f"import: {n} records in {t1 - t0:.2f} s = {n / (t1 - t0):.0f} records/s (one transaction and fsync each)")
print(f"upload: {total} records ({total - n} with an image) in {t3 - t2:.2f} s = {total / (t3 - t2):.0f} records/s")
print(f"server stored {stored} of {total} records" + ("" if stored == total else "  <-- MISMATCH"))
PY
tail -1 "$WORK/upload.log"
