#!/usr/bin/env bash
# A program that uses only the camera reader links no SQLite and none of the upload queue. A throwaway package in a
# temporary folder depends on this one by path and uses only the VitalSnapOCR and VitalSnapRecords products: it
# reads one sample still (Samples/stills/glucose-g1/glucose-g1-01.jpg, 227 mg/dL on peripheral 9) and prints the
# record's JSON. Then its executable must need no libsqlite3, directly (readelf -d) or through another library
# (ldd), and hold no symbol of VitalSnapCore or SQLite (nm).
#
#   Scripts/check-module-edges.sh              # a debug build: a few minutes the first time on 2 cores
#   Scripts/check-module-edges.sh -c release   # options go to `swift build`
#   KEEP=1 Scripts/check-module-edges.sh       # keep the temporary package (its folder is printed)
#
# Exit status: 0 clean, 1 SQLite or VitalSnapCore found in the program, 2 it did not build, run or read the still.
# ModuleEdgeTests (in `swift test`) checks the manifest's side of the same promise in about a second.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
command -v swift >/dev/null 2>&1 || PATH="/opt/swift/usr/bin:$PATH"
command -v swift >/dev/null 2>&1 || { echo "$0: no swift on PATH nor in /opt/swift/usr/bin" >&2; exit 2; }
for tool in readelf ldd nm; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$0: $tool is needed (binutils, libc-bin)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/vitalsnap-module-edges.XXXXXX")
# SwiftPM's lock files for the package's build folder, which it leaves in the temporary folder.
locks="${TMPDIR:-/tmp}/$(tr / _ <<<"$work")_.build"
if [ -n "${KEEP:-}" ]; then
    echo "the temporary package: $work"
else
    trap 'rm -rf "$work" "$locks".lock "$locks"_*.lock' EXIT
fi

# A package depended on by path is known by its folder's name (this checkout's, whatever it is called).
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
reader=DisplayReader
mkdir -p "$work/Sources/ReaderOnly"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ReaderOnly",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "ReaderOnly",
            dependencies: [
                .product(name: "VitalSnapOCR", package: "$identity"),
                .product(name: "VitalSnapRecords", package: "$identity"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat >"$work/Sources/ReaderOnly/main.swift" <<EOF
import Foundation
import VitalSnapOCR
import VitalSnapRecords

// ReaderOnly PHOTO PERIPHERAL_ID: the photo read by the rule-based reader, made a record, printed as its JSON.
let arguments = CommandLine.arguments
guard arguments.count == 3, let peripheralID = Int(arguments[2]) else {
    print("usage: ReaderOnly PHOTO PERIPHERAL_ID")
    exit(2)
}
guard let peripheral = try PeripheralCatalog.builtIn()[peripheralID] else {
    print("no peripheral \(peripheralID) in the built-in catalog")
    exit(2)
}
var reader = $reader(peripheral: peripheral, reader: .rules)
let result = reader.read(file: arguments[1])
guard let reading = result.reading else {
    print("no reading of \(arguments[1]): \(result.status.rawValue)")
    exit(2)
}
let metadata = CaptureMetadata(peripheralID: peripheral.id, reading: reading, glare: result.glare ?? .none, displayRegion: nil)
let record = try RecordBuilder(peripheral: peripheral).record(
    from: reading, metadata: metadata, timestamp: Date(timeIntervalSince1970: 1_709_640_600), utcOffset: .utc,
    activityID: "check-module-edges")
print(String(decoding: try RecordJSON.encode(record), as: UTF8.self))
EOF

echo "building a program that uses only VitalSnapOCR and VitalSnapRecords ($work)"
if ! swift build --package-path "$work" --product ReaderOnly "$@" >"$work/build.log" 2>&1; then
    tail -40 "$work/build.log" >&2
    echo "$0: the reader-only program did not build (the log: $work/build.log)" >&2
    trap - EXIT
    exit 2
fi
program="$(swift build --package-path "$work" --product ReaderOnly "$@" --show-bin-path)/ReaderOnly"

still="$root/Samples/stills/glucose-g1/glucose-g1-01.jpg"
if ! json=$("$program" "$still" 9); then
    echo "$0: the reader-only program did not read $still: $json" >&2
    exit 2
fi
echo "read: $json"
[[ "$json" == *'"blood_glucose":227'* ]] || { echo "$0: expected 227 mg/dL from $still" >&2; exit 2; }

status=0
needed=$(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "needs: $needed"
if [[ " $needed" == *" libsqlite3"* ]]; then
    echo "FAIL: $program needs libsqlite3 itself (readelf -d)" >&2
    status=1
fi
if ldd "$program" | grep -i sqlite >&2; then
    echo "FAIL: $program loads SQLite through the libraries above (ldd)" >&2
    status=1
fi
# Swift mangles a module's name into its symbols as its length and name: 13VitalSnapCore.
nm "$program" >"$work/symbols.txt"
if grep -q -E '13VitalSnapCore|sqlite3_' "$work/symbols.txt"; then
    grep -E '13VitalSnapCore|sqlite3_' "$work/symbols.txt" | sed -n 1,10p >&2
    echo "FAIL: $program holds $(grep -c -E '13VitalSnapCore|sqlite3_' "$work/symbols.txt") symbols of VitalSnapCore or SQLite (nm)" >&2
    status=1
fi
if ! grep -q '16VitalSnapRecords' "$work/symbols.txt"; then
    echo "$0: no VitalSnapRecords symbol in $program: the symbol check looks in the wrong place" >&2
    exit 2
fi
[ "$status" -eq 0 ] && echo "ok: a program that uses only VitalSnapOCR and VitalSnapRecords links neither SQLite nor VitalSnapCore"
exit "$status"
