import CImageCodecs

/// Decodes JPEG, PNG, WebP and HEIF/HEIC (told apart by magic bytes, never by a file name) to 8-bit grayscale
/// (each pixel's luma, or its brightest channel: `DecodeOptions.grey`).
///
/// The C shim does each decode in two calls: the first reads only the header, checks the size limits and
/// reports the output size; Swift then allocates the pixel array and the second call decodes straight
/// into it. So an oversized header is refused before any pixel memory exists, and there is no extra
/// full-size copy. Re-reading the header costs microseconds.
public enum ImageDecoder {
    public static func decode(
        contentsOf path: String, options: DecodeOptions = .init()
    ) throws(ImageCodecError) -> DecodedImage {
        let bytes = try FileIO.readAll(path)
        return try decode(bytes: bytes, options: options)
    }

    public static func decode(
        bytes: [UInt8], options: DecodeOptions = .init()
    ) throws(ImageCodecError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyInput }
        guard let format = ImageFormat.detect(bytes) else {
            throw .unrecognizedFormat(leadingBytes: Array(bytes.prefix(8)))
        }
        guard options.maxPixels > 0, options.maxDimension > 0 else {
            throw .invalidArgument("maxPixels and maxDimension must be positive")
        }
        let decodeFunction = decoder(for: format)
        var params = ic_decode_params(
            min_long_side: Int32(clamping: max(0, options.minimumLongSide ?? 0)),
            max_dimension: Int32(clamping: options.maxDimension),
            max_pixels: Int64(options.maxPixels),
            strict: options.strict ? 1 : 0,
            grey_channel: Self.greyChannel(options.grey)
        )

        // Pass 1: header only.
        var probe = ic_decode_result()
        let probeStatus = bytes.withUnsafeBufferPointer { input in
            decodeFunction(input.baseAddress, input.count, &params, nil, 0, &probe)
        }
        guard probeStatus == IC_NEED_BUFFER else {
            throw error(status: probeStatus, result: probe, format: format, options: options)
        }
        let width = Int(probe.output_width), height = Int(probe.output_height)

        // Pass 2: decode into the array's own storage.
        var result = ic_decode_result()
        var status: Int32 = IC_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
            status = bytes.withUnsafeBufferPointer { input in
                decodeFunction(input.baseAddress, input.count, &params, buffer.baseAddress, buffer.count, &result)
            }
            count = status == IC_OK ? width * height : 0
        }
        guard status == IC_OK else {
            throw error(status: status, result: result, format: format, options: options)
        }
        guard Int(result.output_width) == width, Int(result.output_height) == height else {
            throw .corrupt(format, detail: "decoder changed the output size between passes")
        }

        let declared: ExifOrientation?
        switch format {
        case .jpeg: declared = ExifOrientation.parse(jpeg: bytes)
        case .png: declared = ExifOrientation.parse(png: bytes)
        case .webp: declared = ExifOrientation.parse(webp: bytes)
        // HEIF's rotation and mirror are properties of the image that libheif has applied; an EXIF
        // orientation inside describes the same turn and must not be applied again.
        case .heif: declared = nil
        }
        let orientation = declared ?? .up
        var image = GrayImage(width: width, height: height, pixels: pixels)
        if options.applyExifOrientation && orientation != .up {
            image = image.applying(orientation)
        }
        var decoded = DecodedImage(
            image: image,
            format: format,
            originalWidth: Int(result.image_width),
            originalHeight: Int(result.image_height),
            scaleDenominator: Int(result.scale_denom),
            orientation: orientation,
            warnings: warnings(of: result),
            warningCount: Int(result.warning_count)
        )
        decoded.isCutShort = result.cut_short != 0
        return decoded
    }

    private typealias DecodeFunction = (
        UnsafePointer<UInt8>?, Int, UnsafePointer<ic_decode_params>?, UnsafeMutablePointer<UInt8>?, Int,
        UnsafeMutablePointer<ic_decode_result>?
    ) -> Int32

    private static func decoder(for format: ImageFormat) -> DecodeFunction {
        switch format {
        case .jpeg: return ic_jpeg_decode
        case .png: return ic_png_decode
        case .webp: return ic_webp_decode
        case .heif: return ic_heif_decode
        }
    }

    /// The C decoders' `grey_channel` for `grey`.
    private static func greyChannel(_ grey: DecodeOptions.Grey) -> Int32 {
        switch grey {
        case .luma: return IC_GREY_LUMA
        case .brightestChannel: return IC_GREY_BRIGHTEST
        case .darkestChannel: return IC_GREY_DARKEST
        }
    }

    private static func error(
        status: Int32, result: ic_decode_result, format: ImageFormat, options: DecodeOptions
    ) -> ImageCodecError {
        let message = CText.string(fromTuple: result.message)
        switch status {
        case IC_ERR_TOO_LARGE:
            return .imageTooLarge(
                format, width: Int(result.image_width), height: Int(result.image_height),
                maxDimension: options.maxDimension, maxPixels: options.maxPixels)
        case IC_ERR_EMPTY_IMAGE:
            return .invalidDimensions(format, width: Int(result.image_width), height: Int(result.image_height))
        case IC_ERR_TRUNCATED:
            return .truncated(format, detail: message)
        case IC_ERR_STRICT_WARNING:
            return .strictWarning(format, warning: message)
        case IC_ERR_NO_MEMORY:
            return .outOfMemory(format, detail: message)
        case IC_ERR_ARGUMENT:
            return .invalidArgument(message)
        case IC_ERR_UNSUPPORTED:
            return .unsupported(format, detail: message)
        default:
            return .corrupt(format, detail: message.isEmpty ? "decoder status \(status)" : message)
        }
    }

    private static func warnings(of result: ic_decode_result) -> [String] {
        let stored = Int(result.stored_warnings)
        guard stored > 0 else { return [] }
        return withUnsafeBytes(of: result.warnings) { raw in
            let stride = Int(IC_MESSAGE_MAX)
            return (0..<min(stored, Int(IC_MAX_WARNINGS))).map { index in
                CText.string(fromBytes: UnsafeRawBufferPointer(rebasing: raw[(index * stride)..<((index + 1) * stride)]))
            }
        }
    }
}
