import Foundation
import VitalSnapImaging

/// Reads one still photo for one peripheral: decode, find and read the display's lines, assemble the reading,
/// check for glare over the digits. One reader per thread; it keeps its buffers between photos.
public struct PhotoReader: Sendable {
    public var assembler: ReadingAssembler
    public var decodeOptions: DecodeOptions
    private var lineReader = TextLineReader()
    private var glareDetector = GlareDetector()

    public init(peripheral: PeripheralDefinition, unit: String? = nil) {
        assembler = ReadingAssembler(peripheral: peripheral, unit: unit)
        // Decode JPEGs at a reduced DCT scale when the photo is large: digits stay sharp enough and
        // decoding gets several times faster.
        decodeOptions = DecodeOptions(minimumLongSide: 1000)
    }

    public mutating func read(file: String) -> PhotoResult {
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(contentsOf: file, options: decodeOptions)
        } catch {
            return PhotoResult(file: file, status: .error, message: String(describing: error))
        }
        var result = read(image: decoded.image, file: file)
        result.imageWidth = decoded.originalWidth
        result.imageHeight = decoded.originalHeight
        result.warnings = decoded.warnings
        return result
    }

    public mutating func read(image: GrayImage, file: String = "") -> PhotoResult {
        // A small image is a crop of the display itself (a clinic's cropped photos, a field of a form).
        let lines = lineReader.read(image, wholeImageIsDisplay: max(image.width, image.height) <= 640)
        var reading = assembler.assemble(lines)
        let glare = detectGlare(in: image, reading: reading)
        if glare.coversDigits, case .values = reading.outcome {
            reading.outcome = .none("glare covers the digits")
            reading.confidence = 0
        }
        let status: PhotoResult.Status
        let message: String?
        switch reading.outcome {
        case .values: status = .ok; message = nil
        case .word(let w): status = .noReading; message = "the display shows \(w)"
        case .none(let why): status = .noReading; message = why
        }
        return PhotoResult(file: file, status: status, reading: reading, glare: glare, message: message)
    }

    mutating func detectGlare(in image: GrayImage, reading: Reading) -> GlareReport {
        guard let first = reading.lines.first else { return .none }
        let digits = reading.lines.map(\.boundingBox)
        let union = digits.dropFirst().reduce(digits[0]) { $0.union($1) }
        let margin = Int(first.digitHeight * 0.5)
        return glareDetector.detect(
            in: image, display: union.insetBy(dx: -margin, dy: -margin), digits: digits, polarity: first.polarity)
    }
}
