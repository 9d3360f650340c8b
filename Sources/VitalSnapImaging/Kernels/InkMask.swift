/// A binary image: 1 where a pixel belongs to the ink (segments, dots), 0 elsewhere. Stride == width.
public struct InkMask: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height)
    }

    public subscript(x: Int, y: Int) -> Bool {
        get { pixels[y * width + x] != 0 }
        set { pixels[y * width + x] = newValue ? 1 : 0 }
    }

    /// Changes the size, keeping storage when large enough; contents are unspecified afterwards.
    public mutating func reshape(width: Int, height: Int) {
        let needed = width * height
        if pixels.count < needed {
            pixels.append(contentsOf: repeatElement(0, count: needed - pixels.count))
        } else if pixels.count > needed {
            pixels.removeLast(pixels.count - needed)
        }
        self.width = width
        self.height = height
    }

    /// Number of ink pixels inside `rect` (clipped to the mask).
    public func inkCount(in rect: PixelRect) -> Int {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return 0 }
        var n = 0
        pixels.withUnsafeBufferPointer { p in
            for y in r.minY..<r.maxY {
                let row = p.baseAddress! + y * width
                for x in r.minX..<r.maxX { n &+= Int(row[x]) }
            }
        }
        return n
    }
}
