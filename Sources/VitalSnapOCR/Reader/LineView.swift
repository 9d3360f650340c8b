import Foundation

/// One slightly different crop of a located line: taller or shorter, moved across the line, longer. A trained
/// recognizer reads a value line again in each of its views (`ViewAgreement`); a reading that changes when the
/// crop moves by a few pixels is not one to give, however sure the network was of the first crop.
///
/// The views are part of the recognizer's calibration: `Training/common.py` defines them, `calibrate.py` chooses
/// the reading threshold with them, and `export.py` stores them in the recognizer's file
/// (`vitalsnap.recognizer.views`), from which `ReaderModels` reads them.
public struct LineView: Sendable, Hashable, Codable {
    /// The digit height is multiplied by this.
    public var heightScale: Double
    /// The line moves this many digit heights across itself (positive: towards the characters' bottom).
    public var shiftAcross: Double
    /// The line's length is multiplied by this (about its centre).
    public var lengthScale: Double

    public init(heightScale: Double = 1, shiftAcross: Double = 0, lengthScale: Double = 1) {
        self.heightScale = heightScale
        self.shiftAcross = shiftAcross
        self.lengthScale = lengthScale
    }

    /// `line` seen in this view.
    public func apply(to line: TextLine) -> TextLine {
        var out = line
        let shift = shiftAcross * line.digitHeight
        out.centerX -= sin(line.angle) * shift
        out.centerY += cos(line.angle) * shift
        out.digitHeight = line.digitHeight * heightScale
        out.length = line.length * lengthScale
        return out
    }

    /// Views from the recognizer file's metadata: a JSON list of `[heightScale, shiftAcross, lengthScale]`.
    public static func parse(_ json: String) -> [LineView]? {
        guard let data = json.data(using: .utf8),
              let rows = try? JSONDecoder().decode([[Double]].self, from: data),
              rows.allSatisfy({ $0.count == 3 && $0[0] > 0 && $0[2] > 0 && $0.allSatisfy(\.isFinite) })
        else { return nil }
        return rows.map { LineView(heightScale: $0[0], shiftAcross: $0[1], lengthScale: $0[2]) }
    }
}
