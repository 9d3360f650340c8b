import XCTest
@testable import VitalSnapBluetooth

final class BLEPeripheralCatalogTests: XCTestCase {
    func testTheShippedCatalogHoldsEveryPublicEntry() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        // The SDK 1.12.1 catalog: ids 1-31 without 28 (absent from it), and 1000, the generic glucose meter.
        XCTAssertEqual(catalog.peripherals.map(\.id), Array(1...27) + [29, 30, 31, 1000])
        XCTAssertEqual(catalog.peripherals.filter(\.disabled).map(\.id), [18, 19, 20])
        XCTAssertEqual(catalog.peripherals(of: .glucoseMeter).map(\.id), [15, 20, 23, 29, 30, 1000])
        let generic = try XCTUnwrap(catalog[1000])
        XCTAssertEqual(generic.characteristic, "2A18")
        XCTAssertTrue(generic.requiresPairing)
        XCTAssertNil(catalog[28])
        for p in catalog.peripherals {
            XCTAssertFalse(p.instructions.isEmpty, "\(p.id)")
            XCTAssertFalse(p.readingInstructions.isEmpty, "\(p.id)")
            if p.requiresPairing { XCTAssertNotNil(p.pairingInstructions, "\(p.id) must be paired: say how") }
            XCTAssertGreaterThan(p.connectionTimeoutSeconds, 0)
            XCTAssertGreaterThan(p.readingTimeoutSeconds, 0)
        }
    }

    func testAdvertisedNamesAreMatchedAsTheCatalogsPatternsSay() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        let cases: [(Int, String, Bool)] = [
            (2, "A&D_UA-651BLE_0A1B2C", true), (2, "AD_UA-651BLE", true), (2, "UA-651BLE", false),
            (15, "NiproBGM", true), (15, "NiproBGM2", false),
            (30, "meter+12345678", true), (30, "meter+1234", false),
            (24, "BLEsmart_00000116ABCD", true), (7, "Heart Rate", true), (7, "My Heart Rate", false),
            (1000, "anything at all", true),
        ]
        for (id, name, expected) in cases {
            XCTAssertEqual(try XCTUnwrap(catalog[id]).matches(advertisedName: name), expected, "\(id) \(name)")
        }
    }

    func testABrokenCatalogIsRefused() throws {
        let entry = try XCTUnwrap(try BLEPeripheralCatalog.builtIn()[1])
        XCTAssertThrowsError(try BLEPeripheralCatalog(peripherals: [entry, entry])) { error in
            XCTAssertEqual(error as? BLECatalogError, .duplicateID(1))
        }
        var bad = entry
        bad.advertisedName = "(unclosed"
        XCTAssertThrowsError(try BLEPeripheralCatalog(peripherals: [bad])) { error in
            XCTAssertEqual(error as? BLECatalogError, .badNamePattern(1, "(unclosed"))
        }
    }
}
