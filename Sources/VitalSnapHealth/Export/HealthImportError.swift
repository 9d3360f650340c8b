/// Why an export could not be read (or read to its end), in words that say what to do.
public enum HealthImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    /// No Apple Health export.xml in the zip or folder.
    case notAnExport(path: String, reason: String)
    /// The zip ends early: no central directory, or an entry cut off.
    case truncatedZip(path: String, detail: String)
    case damagedZip(path: String, reason: String)
    case unsupportedCompression(path: String, method: Int)
    /// The XML is not well-formed from `line` on; what came before it was read.
    case malformedXML(line: Int, message: String)
    case readFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .notAnExport(let path, let reason): "\(path) is not an Apple Health export: \(reason)"
        case .truncatedZip(let path, let detail): "\(path) is cut short (\(detail)): copy the whole file from the phone again"
        case .damagedZip(let path, let reason): "\(path) is a damaged zip: \(reason)"
        case .unsupportedCompression(let path, let method):
            "\(path) uses zip compression method \(method); only stored (0) and deflate (8) are read"
        case .malformedXML(let line, let message):
            "the export's XML is broken at line \(line) (\(message)); what came before it was read"
        case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
