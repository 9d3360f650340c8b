/// A frame size in pixels, as asked with `--size WxH` or as a camera offers it.
public struct CaptureSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "1280x720" (also "1280X720"). nil unless both sides are 1...16384.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "X", omittingEmptySubsequences: false)
        }
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...16384).contains(width), (1...16384).contains(height)
        else { return nil }
        self.init(width: width, height: height)
    }

    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}
