/// The encoded formats the codecs understand. Detection uses the leading magic bytes, never a file name.
public enum ImageFormat: String, Sendable, Hashable, CustomStringConvertible {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"
    /// HEIF and its HEVC flavour HEIC (iPhone photos); AVIF where libheif has a decoder for it.
    case heif = "HEIF"

    /// File name extensions (lower case, without the dot) that folders are searched for: the one list that
    /// `batch`, `eval` and replay folders share. A file named explicitly is read whatever its extension,
    /// and its format is always told by its bytes.
    public static let fileExtensions: [String] = ["jpg", "jpeg", "png", "webp", "heic", "heif", "hif", "avif"]

    /// The extensions for a help text or message: ".jpg, .jpeg, .png, ...".
    public static var fileExtensionList: String {
        fileExtensions.map { "." + $0 }.joined(separator: ", ")
    }

    /// Whether a file name (or path) ends in one of `fileExtensions`, in any case. A name that is only an
    /// extension (".jpg") has none, as a hidden file.
    public static func hasImageExtension(_ name: String) -> Bool {
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return false }
        return fileExtensions.contains(base[base.index(after: dot)...].lowercased())
    }

    /// The format announced by the first bytes, or nil. A JPEG starts with SOI (FF D8); PNG with its
    /// 8-byte signature; WebP with "RIFF", a length and "WEBP"; HEIF with an ISO base media `ftyp` box
    /// naming a HEIF brand. A shorter prefix of the PNG signature, a RIFF header cut before its form
    /// type, or a `ftyp` box cut before its brand still counts, so that a file cut after a few bytes is
    /// reported as truncated rather than as an unknown format.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 { return .jpeg }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let n = min(8, bytes.count)
        if n >= 4, bytes.prefix(n).elementsEqual(signature.prefix(n)) { return .png }
        if bytes.count >= 4, bytes.prefix(4).elementsEqual("RIFF".utf8) {
            if bytes.count < 12 { return .webp }
            return bytes[8..<12].elementsEqual("WEBP".utf8) ? .webp : nil
        }
        if isHEIF(bytes) { return .heif }
        return nil
    }

    /// Brands of an `ftyp` box (major or compatible) that libheif reads as a still image.
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    /// A `ftyp` box naming a HEIF brand; a file cut before its major brand counts (reported as truncated).
    private static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
        if bytes.count < 12 { return true }
        func isHEIFBrand(at offset: Int) -> Bool {
            heifBrands.contains(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
        }
        // The major brand at 8, the minor version at 12, compatible brands from 16 to the box's end.
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(boxSize, bytes.count)
        return isHEIFBrand(at: 8) || stride(from: 16, through: end - 4, by: 4).contains(where: isHEIFBrand)
    }

    public var description: String { rawValue }
}
