/// A forward-only source of bytes: an export's XML as it is read, from a file or inflated out of a zip.
public protocol ByteStream: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int
    /// Bytes of the file on disk consumed so far, for progress against its size.
    var consumed: Int64 { get }
}
