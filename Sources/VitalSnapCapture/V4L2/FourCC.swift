import CCaptureShim

/// A V4L2 pixel format code: four ASCII characters packed little-endian into 32 bits ("YUYV", "MJPG").
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// From four characters, e.g. `FourCC("GREY")`. nil unless exactly four ASCII characters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters, trailing spaces trimmed ("Y16 " -> "Y16"); non-printable bytes as '?'.
    public var description: String {
        let characters = (0..<4).map { shift -> Character in
            let byte = UInt8((rawValue >> (8 * UInt32(shift))) & 0xFF)
            return (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
        }
        var text = String(characters)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// 8-bit luma only: rows are copied as they are.
    public static let grey = FourCC(rawValue: CS_PIX_FMT_GREY)
    /// Packed 4:2:2, Y0 U Y1 V: every even byte is a luma sample.
    public static let yuyv = FourCC(rawValue: CS_PIX_FMT_YUYV)
    /// Motion-JPEG: each frame is a JPEG, decoded to gray by libjpeg-turbo.
    public static let mjpeg = FourCC(rawValue: CS_PIX_FMT_MJPEG)
    /// "JPEG": what some cameras call the same thing as MJPEG.
    public static let jpeg = FourCC(rawValue: CS_PIX_FMT_JPEG)
}
