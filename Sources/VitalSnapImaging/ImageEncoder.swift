import CImageCodecs

/// Encodes grayscale (and, for test images, RGB) pixels to PNG or JPEG in memory, and writes files
/// atomically.
public enum ImageEncoder {
    /// 8-bit grayscale PNG (lossless).
    public static func png(_ image: GrayImage) throws(ImageCodecError) -> [UInt8] {
        try checkSize(image.width, image.height, format: .png)
        return try encode(format: .png) { output, size, message, messageSize in
            image.pixels.withUnsafeBufferPointer { pixels in
                ic_png_encode_gray(pixels.baseAddress, Int32(image.width), Int32(image.height),
                                   output, size, message, messageSize)
            }
        }
    }

    /// Grayscale baseline JPEG. `quality` is clamped to 1...100.
    public static func jpeg(_ image: GrayImage, quality: Int = 90) throws(ImageCodecError) -> [UInt8] {
        try checkSize(image.width, image.height, format: .jpeg)
        return try encode(format: .jpeg) { output, size, message, messageSize in
            image.pixels.withUnsafeBufferPointer { pixels in
                ic_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), 1,
                               Int32(clamping: quality), output, size, message, messageSize)
            }
        }
    }

    /// Colour JPEG (YCbCr, 4:2:0) from interleaved RGB bytes, `width * height * 3` of them.
    public static func jpeg(rgb: [UInt8], width: Int, height: Int, quality: Int = 90) throws(ImageCodecError) -> [UInt8] {
        try checkSize(width, height, format: .jpeg)
        guard rgb.count == width * height * 3 else {
            throw .invalidArgument("RGB data has \(rgb.count) bytes, expected \(width)x\(height)x3 = \(width * height * 3)")
        }
        return try encode(format: .jpeg) { output, size, message, messageSize in
            rgb.withUnsafeBufferPointer { pixels in
                ic_jpeg_encode(pixels.baseAddress, Int32(width), Int32(height), 3,
                               Int32(clamping: quality), output, size, message, messageSize)
            }
        }
    }

    /// Writes `data` to `path` atomically (temporary file in the same folder, then rename).
    public static func write(_ data: [UInt8], to path: String) throws(ImageCodecError) {
        try FileIO.writeAtomically(data, to: path)
    }

    private static func checkSize(_ width: Int, _ height: Int, format: ImageFormat) throws(ImageCodecError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument("cannot encode an empty \(width)x\(height) image as \(format)")
        }
        // JPEG's own limit is 65500; PNG's is 2^31 - 1. Both need the size to fit a C int.
        guard width <= 65_500 || format == .png, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .invalidArgument("\(width)x\(height) is too large to encode as \(format)")
        }
    }

    /// Runs one C encoder, which returns a malloc'ed buffer; copies it into an array (compressed size
    /// only) and frees it.
    private static func encode(
        format: ImageFormat,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
                 UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(ImageCodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: Int(IC_MESSAGE_MAX))
        let status = message.withUnsafeMutableBufferPointer { text in
            body(&output, &size, text.baseAddress!, text.count)
        }
        defer { ic_free(output) }
        guard status == IC_OK, let output else {
            let detail = message.withUnsafeBytes { CText.string(fromBytes: $0) }
            throw .encodingFailed(format, detail: detail.isEmpty ? "encoder status \(status)" : detail)
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
