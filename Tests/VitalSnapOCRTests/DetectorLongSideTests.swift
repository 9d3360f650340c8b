import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A detector runs at the long side its file names (`ReaderModels.detectorLongSide`): the lines it finds come
/// back in working pixels whatever that side is.
@Suite struct DetectorLongSideTests {
    static let stills = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples/stills")

    func values(in folder: String, longSide: Int) throws -> [TextLine] {
        let path = Self.stills.appendingPathComponent("\(folder)/\(folder)-01.jpg").path
        var frame = WorkingFrame()
        frame.update(from: try ImageDecoder.decode(contentsOf: path).image)
        var locator = ModelLineLocator(network: try ReaderModels.bundled().detector, longSide: longSide)
        #expect(locator.longSide == longSide)
        return try locator.locate(in: frame).filter { $0.role == .value }
    }

    @Test(arguments: ["bp-b3", "glucose-g1"])
    func valueLinesLieWhereTheyLieAtTheDefaultSide(folder: String) throws {
        let atDefault = try values(in: folder, longSide: DetectorConvention.longSide)
        let larger = try values(in: folder, longSide: 384)
        #expect(!atDefault.isEmpty)
        // Every value line found at 256 px overlaps a value line found at 384 px, on the same row (a detector met
        // at a side it was not trained at may cut a line into other pieces, but they lie where the line does;
        // lines scaled back by the wrong side would lie a third or a half off).
        // (Only lines at least as long as they are tall: a stray icon found as a short upright line at one side
        // is no line to look for at the other.)
        for line in atDefault where line.length >= line.digitHeight {
            let along = (x: cos(line.angle), y: sin(line.angle))
            let near = larger.filter {
                let dx = $0.centerX - line.centerX, dy = $0.centerY - line.centerY
                return abs(dx * along.x + dy * along.y) <= (line.length + $0.length) / 2
                    && abs(-dx * along.y + dy * along.x) <= line.digitHeight / 2
            }
            #expect(!near.isEmpty, "\(folder): no value line found at 384 px overlaps \(line): \(larger)")
        }
    }
}
