#!/usr/bin/env bash
# Fuzzes the image decoders with libFuzzer and AddressSanitizer: the C shim's JPEG, PNG, WebP and HEIF decoders
# (Tests/Fuzz/fuzz_decode.c over Sources/CImageCodecs) and the Swift EXIF orientation parsers
# (Tests/Fuzz/FuzzExif.swift over Sources/VitalSnapImaging/ExifOrientation.swift), each from its seed corpus
# in Tests/Fuzz/corpus.
#
#   Scripts/fuzz.sh                       # every harness, 1,000,000 executions each
#   Scripts/fuzz.sh heif -max_total_time=1800    # one harness; further options go to libFuzzer
#   RUNS=20000 Scripts/fuzz.sh            # a quick pass
#
# Needs clang with libFuzzer (the Swift toolchain's) and the -dev packages of .ci/run. Builds into
# .build-fuzz/; new inputs that reach new code go to .build-fuzz/corpus-<name> (the committed seeds are
# not touched); a crash is written to .build-fuzz/crash-<name>-* and stops that harness with a non-zero
# status. Leak checking is on (AddressSanitizer's LeakSanitizer). The libraries themselves (Debian's libjpeg,
# libpng, libwebp, libheif, libde265) are not instrumented: their memory errors show only when they crash or
# when the shim's own reads and writes go wrong, and coverage guides the search through the shim alone.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz
mkdir -p "$out"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
runs=${RUNS:-1000000}
names=(jpeg png webp heif exif)
if [ $# -gt 0 ] && [[ " ${names[*]} " == *" $1 "* ]]; then names=("$1"); shift; fi

build() {
    local name=$1
    local upper
    upper=$(tr '[:lower:]' '[:upper:]' <<<"$name")
    if [ "$name" = exif ]; then
        swiftc -O -use-ld=lld -sanitize=fuzzer,address -parse-as-library -module-name FuzzExif \
            Sources/VitalSnapImaging/ExifOrientation.swift Tests/Fuzz/FuzzExif.swift -o "$out/fuzz-exif"
    else
        # shellcheck disable=SC2046
        clang -O1 -g -fuse-ld=lld -fsanitize=fuzzer,address -DFUZZ_"$upper" -I Sources/CImageCodecs/include \
            Tests/Fuzz/fuzz_decode.c Sources/CImageCodecs/*.c \
            $(pkg-config --cflags --libs libjpeg libpng libwebp libheif) -o "$out/fuzz-$name"
    fi
}

status=0
for name in "${names[@]}"; do
    build "$name"
    mkdir -p "$out/corpus-$name"
    echo "== $name: $runs executions" >&2
    if ! "$out/fuzz-$name" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/crash-$name-" "$@" "$out/corpus-$name" "Tests/Fuzz/corpus/$name" \
        2> >(tee "$out/fuzz-$name.log" | grep -E '^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' >&2); then
        echo "== $name: FAILED (see $out/fuzz-$name.log and $out/crash-$name-*)" >&2
        status=1
    fi
done
exit $status
