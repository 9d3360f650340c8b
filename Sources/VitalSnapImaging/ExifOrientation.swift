/// The EXIF orientation tag (0x0112): how the stored pixels must be transformed to appear upright.
/// Case names follow CGImagePropertyOrientation; raw values are the EXIF values 1...8.
public enum ExifOrientation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left-right.
    case upMirrored = 2
    /// 3: upside down; rotate 180°.
    case down = 3
    /// 4: mirrored top-bottom.
    case downMirrored = 4
    /// 5: transposed (mirror across the main diagonal).
    case leftMirrored = 5
    /// 6: rotate 90° clockwise to view (a phone held upright, camera sensor landscape).
    case right = 6
    /// 7: transverse (mirror across the anti-diagonal).
    case rightMirrored = 7
    /// 8: rotate 90° counter-clockwise to view.
    case left = 8

    /// True when the upright image has width and height exchanged.
    public var swapsDimensions: Bool { rawValue >= 5 }

    public var description: String {
        switch self {
        case .up: return "up (1)"
        case .upMirrored: return "up mirrored (2)"
        case .down: return "rotated 180 (3)"
        case .downMirrored: return "down mirrored (4)"
        case .leftMirrored: return "transposed (5)"
        case .right: return "rotate 90 clockwise (6)"
        case .rightMirrored: return "transverse (7)"
        case .left: return "rotate 90 counter-clockwise (8)"
        }
    }
}

// MARK: - Parsing

// Everything here reads untrusted bytes: every offset is checked against the buffer before use and
// nothing loops more often than the data allows, so malformed input yields nil, never a trap.
extension ExifOrientation {
    /// The orientation declared by a JPEG file's APP1 "Exif" segment, or nil if there is none (or it
    /// is malformed). Scans marker segments from SOI up to the start of scan.
    public static func parse(jpeg bytes: [UInt8]) -> ExifOrientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }  // lost marker sync: give up quietly
            let marker = bytes[i + 1]
            switch marker {
            case 0xFF:  // fill byte before a marker
                i += 1
                continue
            case 0x01, 0xD0...0xD8:  // markers without a length field
                i += 2
                continue
            case 0xDA, 0xD9:  // start of scan / end of image: metadata is over
                return nil
            default:
                break
            }
            guard i + 3 < bytes.count else { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])  // includes the two length bytes
            guard length >= 2 else { return nil }
            let start = i + 4, end = i + 2 + length
            guard end <= bytes.count else { return nil }
            // APP1 is also used for XMP; parse(exifSegment:) returns nil for those and we keep looking.
            if marker == 0xE1, let found = parse(exifSegment: bytes[start..<end]) { return found }
            i = end
        }
        return nil
    }

    /// The orientation in a PNG `eXIf` chunk (raw TIFF data; a stray "Exif\0\0" prefix is tolerated).
    public static func parse(png bytes: [UInt8]) -> ExifOrientation? {
        guard bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 else {
            return nil
        }
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = bytes[(i + 4)..<(i + 8)]
            let start = i + 8
            guard length <= bytes.count - start else { return nil }
            let end = start + length
            if type.elementsEqual("eXIf".utf8) {
                let data = bytes[start..<end]
                return parse(exifSegment: data) ?? parse(tiff: data)
            }
            if type.elementsEqual("IEND".utf8) { return nil }
            i = end + 4  // skip the CRC
        }
        return nil
    }

    /// The orientation in a WebP file's `EXIF` chunk (RIFF container; raw TIFF data, a stray "Exif\0\0"
    /// prefix tolerated). Chunks are walked from the first after "WEBP", each padded to an even size.
    public static func parse(webp bytes: [UInt8]) -> ExifOrientation? {
        guard bytes.count >= 12, bytes.prefix(4).elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        var i = 12
        while i + 8 <= bytes.count {
            let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            let start = i + 8
            guard length <= bytes.count - start else { return nil }
            let end = start + length
            if bytes[i..<(i + 4)].elementsEqual("EXIF".utf8) {
                let data = bytes[start..<end]
                return parse(exifSegment: data) ?? parse(tiff: data)
            }
            i = end + (length & 1)
        }
        return nil
    }

    /// The orientation in an APP1 payload that starts with "Exif\0" + one pad byte, then TIFF data.
    public static func parse(exifSegment segment: ArraySlice<UInt8>) -> ExifOrientation? {
        guard segment.count >= 6, segment.prefix(5).elementsEqual([0x45, 0x78, 0x69, 0x66, 0x00]) else {
            return nil
        }
        return parse(tiff: segment.dropFirst(6))
    }

    public static func parse(exifSegment segment: [UInt8]) -> ExifOrientation? {
        parse(exifSegment: segment[...])
    }

    /// The orientation tag of IFD0 in TIFF-structured data ("II*\0" or "MM\0*" header, either byte order).
    public static func parse(tiff data: ArraySlice<UInt8>) -> ExifOrientation? {
        let reader: TIFFReader
        switch (data.first, data.dropFirst().first) {
        case (0x49, 0x49): reader = TIFFReader(data: data, littleEndian: true)
        case (0x4D, 0x4D): reader = TIFFReader(data: data, littleEndian: false)
        default: return nil
        }
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4), let count = reader.u16(at: ifd) else {
            return nil
        }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = reader.u16(at: entry) else { return nil }  // IFD runs past the data
            guard tag == 0x0112 else { continue }
            guard let type = reader.u16(at: entry + 2) else { return nil }
            let value: Int?
            switch type {
            case 3: value = reader.u16(at: entry + 8)  // SHORT, the standard type
            case 4: value = reader.u32(at: entry + 8)  // LONG, seen from lax writers
            case 1: value = reader.u8(at: entry + 8)  // BYTE, likewise
            default: value = nil
            }
            return value.flatMap(ExifOrientation.init(rawValue:))
        }
        return nil
    }

    public static func parse(tiff data: [UInt8]) -> ExifOrientation? {
        parse(tiff: data[...])
    }
}

/// Bounds-checked integer reads at offsets relative to the start of the TIFF header.
private struct TIFFReader {
    let data: ArraySlice<UInt8>
    let littleEndian: Bool

    func u8(at offset: Int) -> Int? {
        guard offset >= 0, offset < data.count else { return nil }
        return Int(data[data.startIndex + offset])
    }

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= data.count - 2 else { return nil }
        let a = Int(data[data.startIndex + offset]), b = Int(data[data.startIndex + offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(at offset: Int) -> Int? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }
}
