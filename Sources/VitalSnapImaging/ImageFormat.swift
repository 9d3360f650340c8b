/// The encoded formats the codecs understand. Detection uses the leading magic bytes, never a file name.
public enum ImageFormat: String, Sendable, Hashable, CustomStringConvertible {
    case jpeg = "JPEG"
    case png = "PNG"

    /// The format announced by the first bytes, or nil. A JPEG starts with SOI (FF D8); PNG with its
    /// 8-byte signature. A shorter prefix of the PNG signature still counts, so that a file cut after
    /// a few bytes is reported as truncated rather than as an unknown format.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 { return .jpeg }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let n = min(8, bytes.count)
        if n >= 4, bytes.prefix(n).elementsEqual(signature.prefix(n)) { return .png }
        return nil
    }

    public var description: String { rawValue }
}
