/// An owned 8-bit grayscale image, rows stored top to bottom with no padding (stride == width).
///
/// Stages that run per frame take an `inout GrayImage` as their output and call `reshape(width:height:)`,
/// which reuses the existing storage when it is large enough, so a warmed-up pipeline allocates nothing.
public struct GrayImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: fill, count: width * height)
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }

    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Changes the size, keeping the storage when it is big enough. Pixel contents are unspecified afterwards.
    public mutating func reshape(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative image size")
        let needed = width * height
        if pixels.count < needed {
            pixels.append(contentsOf: repeatElement(0, count: needed - pixels.count))
        } else if pixels.count > needed {
            pixels.removeLast(pixels.count - needed)  // keeps capacity
        }
        self.width = width
        self.height = height
    }

    /// A copy of one rectangle (clipped to the image).
    public func cropped(to rect: PixelRect) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        crop(rect, into: &out)
        return out
    }

    /// Copies one rectangle (clipped to the image) into `out`, reusing its storage.
    public func crop(_ rect: PixelRect, into out: inout GrayImage) {
        let r = rect.intersection(bounds)
        out.reshape(width: r.width, height: r.height)
        guard !r.isEmpty else { return }
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for row in 0..<r.height {
                    let from = src.baseAddress! + (r.y + row) * width + r.x
                    (dst.baseAddress! + row * r.width).update(from: from, count: r.width)
                }
            }
        }
    }
}

/// An axis-aligned rectangle in pixel coordinates (origin top-left).
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A negative width or height gives an empty rectangle, so that loops over `minX..<maxX` never run
    /// backwards, however a rectangle was computed.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { x }
    public var minY: Int { y }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var midX: Double { Double(x) + Double(width) / 2 }
    public var midY: Double { Double(y) + Double(height) / 2 }
    public var area: Int { width * height }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return .zero }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Grows (or with negative values shrinks) the rectangle on every side.
    public func insetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The same rectangle moved by (dx, dy).
    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
