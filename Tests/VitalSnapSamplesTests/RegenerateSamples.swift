import Foundation
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

/// Not a test: regenerates the checked-in `Samples/` and overlay images when asked through the environment
/// (see `SampleSetWriter.regenerateCommand`). Skipped otherwise.
final class RegenerateSamples: XCTestCase {
    func testRegenerate() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["VITALSNAP_SAMPLES_DIR"] != nil || env["VITALSNAP_OVERLAYS_DIR"] != nil else {
            throw XCTSkip("set VITALSNAP_SAMPLES_DIR and/or VITALSNAP_OVERLAYS_DIR to regenerate")
        }
        let catalog = try PeripheralCatalog.builtIn()
        if let dir = env["VITALSNAP_SAMPLES_DIR"] {
            try SampleSetWriter.writeAll(to: URL(fileURLWithPath: dir), catalog: catalog) { print($0) }
        }
        if let dir = env["VITALSNAP_OVERLAYS_DIR"] {
            for url in try OverlayRenderer.writeAll(catalog: catalog, to: URL(fileURLWithPath: dir)) { print(url.path) }
        }
    }
}
