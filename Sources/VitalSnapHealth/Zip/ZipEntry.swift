/// One file in a zip, as its central directory (or, in a zip cut short, its local header) describes it.
public struct ZipEntry: Equatable, Sendable {
    public var name: String
    /// 0 stored, 8 deflate.
    public var method: Int
    /// Where the entry's local header starts.
    public var localHeaderOffset: Int64
    /// Nil when unknown (a local header written before its sizes were: the data ends where deflate says).
    public var compressedSize: Int64?
    public var uncompressedSize: Int64?
}
