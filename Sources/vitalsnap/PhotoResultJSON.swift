import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// The JSON object printed for one image by `batch` (one per line). Every key is always present, in this
/// order, null or empty when it does not apply, so scripts can rely on the shape:
///
///     file, status, reading, values, unit, confidence, glare, display, word, message, error, warnings
struct PhotoResultJSON {
    struct Value {
        var field: String
        var value: Double
        var text: String
        var unit: String
    }

    struct Glare {
        var share: Double
        var coversDigits: Bool
        var regions: [[Int]]
    }

    static let keys = ["file", "status", "reading", "values", "unit", "confidence", "glare", "display", "word", "message", "error", "warnings"]

    var file: String
    /// `ok`, `no-reading` or `error`.
    var status: String
    /// `123`, `5.6`, `120/80/72`; nil without a value.
    var reading: String?
    var values: [Value]
    var unit: String?
    var confidence: Double
    var glare: Glare?
    /// What the reader saw on the display (every number-like line), even when it gave no reading.
    var display: String?
    /// `LO`, `HI` or `Err` when the display shows that word.
    var word: String?
    /// Why nothing was read (status `no-reading`).
    var message: String?
    /// Why the file could not be read (status `error`).
    var error: String?
    /// Damage the decoder worked around.
    var warnings: [String]

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
        switch r.status {
        case .error: error = r.message ?? "unreadable"
        case .noReading: message = r.message
        case .ok: break
        }
        warnings = r.warnings
    }

    /// The message to show beside the file: the error, else why nothing was read.
    var note: String { error ?? message ?? "" }

    var json: JSONText {
        .object([
            ("file", .string(file)),
            ("status", .string(status)),
            ("reading", .optional(reading)),
            ("values", .array(values.map {
                .object([("field", .string($0.field)), ("value", .number($0.value)), ("text", .string($0.text)), ("unit", .string($0.unit))])
            })),
            ("unit", .optional(unit)),
            ("confidence", .number(confidence)),
            ("glare", glare.map { g in
                .object([
                    ("share", .number(g.share)), ("coversDigits", .bool(g.coversDigits)),
                    ("regions", .array(g.regions.map { .array($0.map { .int($0) }) })),
                ])
            } ?? .null),
            ("display", .optional(display)),
            ("word", .optional(word)),
            ("message", .optional(message)),
            ("error", .optional(error)),
            ("warnings", .array(warnings.map { .string($0) })),
        ])
    }

    func line() -> String { json.render() }
}
