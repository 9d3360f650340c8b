/// Everything the codecs can fail with. Messages are meant for end users (CLI output, logs).
public enum ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zero bytes were given to the decoder.
    case emptyInput
    /// The bytes are not JPEG, PNG, WebP or HEIF; carries up to 8 leading bytes for the message.
    case unrecognizedFormat(leadingBytes: [UInt8])
    /// The header declares a zero width or height.
    case invalidDimensions(ImageFormat, width: Int, height: Int)
    /// The header declares more than `DecodeOptions.maxDimension` per side or `maxPixels` in total.
    /// Raised before any pixel memory is allocated.
    case imageTooLarge(ImageFormat, width: Int, height: Int, maxDimension: Int, maxPixels: Int)
    /// The data ends early (for JPEG only in strict mode, or when the cut hits the header).
    case truncated(ImageFormat, detail: String)
    /// The library rejected the data; `detail` is its message.
    case corrupt(ImageFormat, detail: String)
    /// Strict mode: the library reported a warning (damaged data it could have worked around).
    case strictWarning(ImageFormat, warning: String)
    /// A valid file of a kind the decoder does not read (an animated WebP, say).
    case unsupported(ImageFormat, detail: String)
    case outOfMemory(ImageFormat, detail: String)
    case encodingFailed(ImageFormat, detail: String)
    case invalidArgument(String)

    case fileNotFound(path: String)
    case isDirectory(path: String)
    case permissionDenied(path: String)
    case emptyFile(path: String)
    case notARegularFile(path: String)
    case readFailed(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .emptyInput:
            return "empty input: no image data"
        case .unrecognizedFormat(let bytes):
            let hex = bytes.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }
            return "not a JPEG, PNG, WebP or HEIF/HEIC image (starts with \(hex.joined(separator: " ")))"
        case .invalidDimensions(let format, let width, let height):
            return "\(format) header declares an empty image (\(width)x\(height))"
        case .imageTooLarge(let format, let width, let height, let maxDimension, let maxPixels):
            return "\(format) header declares \(width)x\(height) pixels, over the limit "
                + "(at most \(maxDimension) per side and \(maxPixels) pixels in total)"
        case .truncated(let format, let detail):
            return detail.isEmpty ? "truncated \(format) data" : "truncated \(format) data (\(detail))"
        case .corrupt(let format, let detail):
            return "corrupt \(format) data: \(detail)"
        case .strictWarning(let format, let warning):
            return "\(format) decoder warning treated as an error (strict mode): \(warning)"
        case .unsupported(let format, let detail):
            return "unsupported \(format) file: \(detail)"
        case .outOfMemory(let format, let detail):
            return "out of memory while decoding \(format): \(detail)"
        case .encodingFailed(let format, let detail):
            return "\(format) encoding failed: \(detail)"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        case .fileNotFound(let path):
            return "no such file: \(path)"
        case .isDirectory(let path):
            return "is a directory, not an image file: \(path)"
        case .permissionDenied(let path):
            return "permission denied: \(path)"
        case .emptyFile(let path):
            return "empty file (0 bytes): \(path)"
        case .notARegularFile(let path):
            return "not a regular file: \(path)"
        case .readFailed(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .writeFailed(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
