import Foundation
import VitalSnapImaging
import VitalSnapRecords

/// How a record was read from the camera: what an app shows beside the crop for the person to confirm, and what
/// a reviewer needs to judge a doubtful reading later.
public struct CaptureMetadata: Sendable, Hashable, Codable {
    public var peripheralID: Int
    /// Of the reading, 0...1: the least clear character of the fields used.
    public var confidence: Double
    /// Share of the display area under glare, 0...1.
    public var glareShare: Double
    /// Whether glare overlapped the digits read.
    public var glareCoversDigits: Bool
    /// Where the display was in the camera frame, in pixels; nil when not known (a photo that is the display).
    public var displayRegion: PixelRect?
    /// Every line the OCR read, top to bottom.
    public var recognizedText: String

    public init(
        peripheralID: Int, confidence: Double, glareShare: Double, glareCoversDigits: Bool, displayRegion: PixelRect?,
        recognizedText: String
    ) {
        self.peripheralID = peripheralID
        self.confidence = confidence
        self.glareShare = glareShare
        self.glareCoversDigits = glareCoversDigits
        self.displayRegion = displayRegion
        self.recognizedText = recognizedText
    }

    /// The metadata of one reading of one peripheral.
    public init(peripheralID: Int, reading: Reading, glare: GlareReport, displayRegion: PixelRect?) {
        self.init(
            peripheralID: peripheralID, confidence: reading.confidence, glareShare: glare.share,
            glareCoversDigits: glare.coversDigits, displayRegion: displayRegion, recognizedText: reading.recognizedText)
    }

    /// The scalar metadata as record extras (strings, as extras hold). The peripheral ID is not among them: records
    /// carry it as a typed field.
    public var extras: [String: String] {
        var extras = [
            ExtrasKey.ocrConfidence: Self.decimalText(confidence),
            ExtrasKey.ocrGlareShare: Self.decimalText(glareShare),
            ExtrasKey.ocrGlareCoversDigits: String(glareCoversDigits),
            ExtrasKey.ocrText: recognizedText,
        ]
        if let displayRegion { extras[ExtrasKey.ocrDisplayRegion] = Self.regionText(displayRegion) }
        return extras
    }

    /// `0.913`: three decimals are more than the measures are worth, without float noise.
    static func decimalText(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.index(after: dot) < text.endIndex {
            text.removeLast()
        }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `[x,y,w,h]`, the form of the metadata's JSON.
    static func regionText(_ rect: PixelRect) -> String {
        "[\(rect.x),\(rect.y),\(rect.width),\(rect.height)]"
    }

    // JSON: snake_case like records, and the region as `[x,y,w,h]` like relative boxes in peripheral definitions.

    private enum CodingKeys: String, CodingKey {
        case peripheralID = "peripheral_id"
        case confidence
        case glareShare = "glare_share"
        case glareCoversDigits = "glare_covers_digits"
        case displayRegion = "display_region"
        case recognizedText = "recognized_text"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        peripheralID = try container.decode(Int.self, forKey: .peripheralID)
        confidence = try container.decode(Double.self, forKey: .confidence)
        glareShare = try container.decode(Double.self, forKey: .glareShare)
        glareCoversDigits = try container.decode(Bool.self, forKey: .glareCoversDigits)
        recognizedText = try container.decode(String.self, forKey: .recognizedText)
        if let numbers = try container.decodeIfPresent([Int].self, forKey: .displayRegion) {
            guard numbers.count == 4 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .displayRegion, in: container, debugDescription: "display region must be [x,y,w,h]")
            }
            displayRegion = PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        } else {
            displayRegion = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(peripheralID, forKey: .peripheralID)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(glareShare, forKey: .glareShare)
        try container.encode(glareCoversDigits, forKey: .glareCoversDigits)
        try container.encodeIfPresent(
            displayRegion.map { [$0.x, $0.y, $0.width, $0.height] }, forKey: .displayRegion)
        try container.encode(recognizedText, forKey: .recognizedText)
    }
}
