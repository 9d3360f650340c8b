import VitalSnapImaging

/// Turns the bytes of one captured frame into a `GrayImage`, for each format `V4L2FormatChoice` can choose.
public enum V4L2FrameConverter {
    /// Why a frame cannot be read (too few bytes, a JPEG that does not decode). The camera skips such frames.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// - Parameters:
    ///   - bytes: the frame's data (`bytesused` bytes of the mapped buffer).
    ///   - format: the negotiated format, with bytesPerLine filled in (see `V4L2FormatChoice.accept`).
    public static func gray(
        from bytes: UnsafeRawBufferPointer, format: V4L2PixelFormat, decodeOptions: DecodeOptions = .camera
    ) throws(Failure) -> GrayImage {
        let width = format.width, height = format.height
        switch format.fourcc {
        case .grey:
            try checkLength(bytes, rows: height, stride: format.bytesPerLine, lastRow: width, format: format)
            return GrayImage(width: width, height: height, pixels: copyRows(bytes, width: width, height: height, stride: format.bytesPerLine))
        case .yuyv:
            try checkLength(bytes, rows: height, stride: format.bytesPerLine, lastRow: 2 * width, format: format)
            return GrayImage(width: width, height: height, pixels: lumaOfYUYV(bytes, width: width, height: height, stride: format.bytesPerLine))
        case .mjpeg, .jpeg:
            do {
                // The decoded size is the truth (it normally equals the negotiated one).
                return try ImageDecoder.decode(bytes: Array(bytes), options: decodeOptions).image
            } catch {
                throw Failure("MJPEG frame of \(bytes.count) bytes does not decode: \(error)")
            }
        default:
            throw Failure("cannot read \(format.fourcc) frames")
        }
    }

    private static func checkLength(
        _ bytes: UnsafeRawBufferPointer, rows: Int, stride: Int, lastRow: Int, format: V4L2PixelFormat
    ) throws(Failure) {
        let needed = rows == 0 ? 0 : (rows - 1) * stride + lastRow
        guard bytes.count >= needed else {
            throw Failure("\(format.fourcc) \(format.width)x\(format.height) frame has \(bytes.count) bytes, needs \(needed)")
        }
    }

    /// Row by row, dropping the padding at the end of each row.
    private static func copyRows(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            guard let source = bytes.baseAddress, let target = out.baseAddress else { count = 0; return }
            if stride == width {
                target.initialize(from: source.assumingMemoryBound(to: UInt8.self), count: width * height)
            } else {
                for row in 0..<height {
                    (target + row * width).initialize(
                        from: (source + row * stride).assumingMemoryBound(to: UInt8.self), count: width)
                }
            }
            count = width * height
        }
    }

    /// YUYV is Y0 U0 Y1 V0 per two pixels: the gray image is every even byte of each row.
    private static func lumaOfYUYV(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            guard let base = bytes.baseAddress, let target = out.baseAddress else { count = 0; return }
            let source = base.assumingMemoryBound(to: UInt8.self)
            for row in 0..<height {
                let from = source + row &* stride
                let to = target + row &* width
                var x = 0
                while x < width {
                    to[x] = from[x &* 2]
                    x &+= 1
                }
            }
            count = width * height
        }
    }
}

extension DecodeOptions {
    /// For camera frames: no EXIF orientation (MJPEG frames have none), a camera-sized limit.
    public static let camera = DecodeOptions(applyExifOrientation: false, maxPixels: 64_000_000, maxDimension: 16_384)
}
