import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// The JSON object printed for one image by `batch` (one per line) and `eval --json`.
struct PhotoResultJSON: Encodable {
    struct Value: Encodable {
        var field: String
        var value: Double
        var text: String
        var unit: String
    }

    struct Glare: Encodable {
        var share: Double
        var coversDigits: Bool
        var regions: [[Int]]
    }

    var file: String
    var status: String
    var reading: String?
    var values: [Value]
    var unit: String?
    var confidence: Double
    var glare: Glare?
    var display: String?
    var word: String?
    var message: String?
    var error: String?

    init(_ r: PhotoResult) {
        file = r.file
        status = r.status.rawValue
        reading = r.reading?.readingString
        values = (r.reading?.values ?? []).map { Value(field: $0.field.rawValue, value: $0.value, text: $0.text, unit: $0.unit) }
        unit = r.reading?.values.first.map(\.unit).flatMap { $0.isEmpty ? nil : $0 }
        confidence = ((r.reading?.confidence ?? 0) * 1000).rounded() / 1000
        glare = r.glare.map { g in
            Glare(share: (g.share * 1000).rounded() / 1000, coversDigits: g.coversDigits,
                  regions: g.regions.map { [$0.x, $0.y, $0.width, $0.height] })
        }
        display = r.reading.map(\.recognizedText).flatMap { $0.isEmpty ? nil : $0 }
        if case .word(let w)? = r.reading?.outcome { word = w }
        if r.status == .error { error = r.message } else if r.status == .noReading { message = r.message }
    }

    enum CodingKeys: String, CodingKey {
        case file, status, reading, values, unit, confidence, glare, display, word, message, error
    }

    func encode(to encoder: any Encoder) throws {
        // Every key is always present (null when empty) so scripts can rely on the shape.
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(status, forKey: .status)
        try c.encode(reading, forKey: .reading)
        try c.encode(values, forKey: .values)
        try c.encode(unit, forKey: .unit)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(glare, forKey: .glare)
        try c.encode(display, forKey: .display)
        try c.encode(word, forKey: .word)
        try c.encode(message, forKey: .message)
        try c.encode(error, forKey: .error)
    }

    func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
