// libFuzzer harness for the EXIF orientation parsers (Sources/VitalSnapImaging/ExifOrientation.swift), built
// with it alone by Scripts/fuzz.sh: swiftc -sanitize=fuzzer,address -parse-as-library. Each input goes to every
// entry point, as a JPEG APP1 payload, a PNG eXIf chunk's data, a WebP EXIF chunk's data and raw TIFF.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ExifOrientation.parse(exifSegment: bytes)
    _ = ExifOrientation.parse(tiff: bytes)
    _ = ExifOrientation.parse(jpeg: [0xFF, 0xD8, 0xFF, 0xE1, UInt8(truncatingIfNeeded: (size + 2) >> 8), UInt8(truncatingIfNeeded: size + 2)] + bytes)
    _ = ExifOrientation.parse(jpeg: bytes)
    _ = ExifOrientation.parse(png: bytes)
    _ = ExifOrientation.parse(webp: bytes)
    return 0
}
