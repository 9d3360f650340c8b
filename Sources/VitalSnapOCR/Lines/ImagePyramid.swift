import VitalSnapImaging

/// The working image and successive halvings of it. Digits are found at the level where they are 12 to 60
/// pixels tall, so the same small-window filters work for a thermometer filling the frame and for a meter
/// across the room.
public struct ImagePyramid: Sendable {
    public private(set) var levels: [GrayImage] = []

    public init() {}

    /// Rebuilds the levels from `image`, stopping when the shorter side would drop below `minimumSide`.
    public mutating func update(from image: GrayImage, maximumLevels: Int, minimumSide: Int = 48) {
        if levels.isEmpty { levels.append(GrayImage(width: 0, height: 0)) }
        // Copied into the pyramid's own storage rather than shared: a caller that refills its image for the
        // next frame (a live reader's region, the line reader's shrunk frame) would otherwise find that storage
        // still held here, and allocate it anew.
        image.crop(image.bounds, into: &levels[0])
        var count = 1
        while count < maximumLevels {
            let prev = levels[count - 1]
            guard min(prev.width, prev.height) / 2 >= minimumSide else { break }
            if levels.count <= count { levels.append(GrayImage(width: 0, height: 0)) }
            Self.halve(prev, into: &levels[count])
            count += 1
        }
        if levels.count > count { levels.removeLast(levels.count - count) }
    }

    /// 2x2 box average: enough anti-aliasing for halving.
    static func halve(_ src: GrayImage, into dst: inout GrayImage) {
        let w = src.width / 2, h = src.height / 2
        dst.reshape(width: w, height: h)
        src.pixels.withUnsafeBufferPointer { s in
            dst.pixels.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    let r0 = s.baseAddress! + 2 * y * src.width
                    let r1 = r0 + src.width
                    let out = d.baseAddress! + y * w
                    for x in 0..<w {
                        let sum = UInt16(r0[2 * x]) &+ UInt16(r0[2 * x + 1]) &+ UInt16(r1[2 * x]) &+ UInt16(r1[2 * x + 1])
                        out[x] = UInt8((sum &+ 2) >> 2)
                    }
                }
            }
        }
    }
}
