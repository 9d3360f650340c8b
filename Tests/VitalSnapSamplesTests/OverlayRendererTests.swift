import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

final class OverlayRendererTests: XCTestCase {
    static let catalog = try! PeripheralCatalog.builtIn()

    func testSizeFollowsTheAspectRatioWithLongSide480() throws {
        for def in Self.catalog.peripherals {
            let image = OverlayRenderer.render(def)
            XCTAssertEqual(max(image.width, image.height), 480, "\(def.id)")
            XCTAssertEqual(Double(image.width) / Double(image.height), def.overlay.aspectRatio, accuracy: 0.01, "\(def.id)")
        }
    }

    func testWindowIsBlackFramedAndFieldsAreDashed() throws {
        let def = try XCTUnwrap(Self.catalog[101])
        let image = OverlayRenderer.render(def)
        let W = Double(image.width), H = Double(image.height)
        let d = def.overlay.display
        let dx = d.x * W, dy = d.y * H, dw = d.width * W, dh = d.height * H
        // Centre of the window, clear of the field box lines: black.
        XCTAssertEqual(image[Int(dx + dw * 0.42), Int(dy + dh * 0.37)], 0)
        // The window's frame, mid-way along its left edge: white.
        XCTAssertGreaterThan(image[Int(dx), Int(dy + dh / 2)], 200)
        // Outside the device, in a corner: mid-grey.
        XCTAssertEqual(image[1, 1], 128)
        // Along the top edge of the glucose field box some pixels are lit (dashes) and some are not (gaps).
        let box = try XCTUnwrap(def.fields[0].box)
        let y = Int(dy + box.y * dh)
        let row = (Int(dx + box.x * dw) + 2..<Int(dx + (box.x + box.width) * dw) - 2).map { image[$0, y] }
        XCTAssert(row.contains { $0 > 150 }, "dashes")
        XCTAssert(row.contains { $0 < 40 }, "gaps")
    }

    func testRenderingIsDeterministic() throws {
        let def = try XCTUnwrap(Self.catalog[103])
        XCTAssertEqual(try ImageEncoder.png(OverlayRenderer.render(def)), try ImageEncoder.png(OverlayRenderer.render(def)))
        XCTAssertNotEqual(OverlayRenderer.render(def), OverlayRenderer.render(try XCTUnwrap(Self.catalog[2])))
    }

    func testWriteAllUsesTheJSONBaseNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-overlays-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let written = try OverlayRenderer.writeAll(catalog: Self.catalog, to: dir)
        let names = written.map(\.lastPathComponent)
        XCTAssertEqual(names.count, Self.catalog.peripherals.count)
        XCTAssert(names.contains("101-glucose-g1.png"))
        XCTAssert(names.contains("002-blood-pressure-monitor.png"))
        let jsons = try FileManager.default.contentsOfDirectory(atPath: try XCTUnwrap(Self.catalog.directory).path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) + ".png" }
        XCTAssertEqual(Set(names), Set(jsons))
    }

    func testBaseNameFallsBackToTheModel() throws {
        let def = try XCTUnwrap(Self.catalog[106])
        XCTAssertEqual(OverlayRenderer.baseName(for: def, jsonNames: []), "106-oximeter-o1-led")
    }
}
