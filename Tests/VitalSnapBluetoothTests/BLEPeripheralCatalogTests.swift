import Foundation
import XCTest
@testable import VitalSnapBluetooth

final class BLEPeripheralCatalogTests: XCTestCase {
    func testTheShippedCatalogHoldsEveryPublicEntry() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        // The SDK 1.12.1 catalog: ids 1-31 without 28 (absent from it), and 1000, the generic glucose meter; then
        // the three licensed-kit meters.
        XCTAssertEqual(catalog.peripherals.map(\.id), Array(1...27) + [29, 30, 31, 32, 33, 51, 1000])
        XCTAssertEqual(catalog.peripherals.filter(\.disabled).map(\.id), [18, 19, 20])
        XCTAssertEqual(catalog.peripherals(of: .glucoseMeter).map(\.id), [15, 20, 23, 29, 30, 32, 33, 1000])
        XCTAssertEqual(catalog.peripherals(of: .coagulationMeter).map(\.id), [51])
        XCTAssertEqual(catalog.peripherals.filter(\.requiresLicensedKit).map(\.id), [32, 33, 51])
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

    func testLicensedKitMetersAreListedButMatchNoAdvertisedName() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        let expected: [(Int, String, String, BLEPeripheralType)] = [
            (32, "AgaMatrix", "Jazz Wireless 2", .glucoseMeter), (33, "CVS Health", "Glucose Meter", .glucoseMeter),
            (51, "Roche", "CoaguChek INRange", .coagulationMeter),
        ]
        for (id, maker, model, type) in expected {
            let p = try XCTUnwrap(catalog[id])
            XCTAssertEqual([p.manufacturer, p.model], [maker, model])
            XCTAssertEqual(p.type, type)
            XCTAssertTrue(p.requiresLicensedKit)
            XCTAssertNil(p.characteristic)
            // Their advertised names are not known: no device is taken for one of them.
            for name in ["", "Jazz", "AgaMatrix Jazz Wireless 2", "CoaguChek", "meter+12345678"] {
                XCTAssertFalse(p.matches(advertisedName: name), "\(id) \(name)")
            }
            XCTAssertTrue(p.readingInstructions.contains("licensed kit"), p.readingInstructions)
        }
    }

    func testAnEntryWithoutTheLicensedKitFieldNeedsNone() throws {
        let json = """
            [{"id": 7, "type": "heartRate", "manufacturer": "M", "model": "X", "disabled": false, "advertisedName": "X",
              "requiresPairing": false, "options": 0, "connectionTimeoutSeconds": 30, "readingTimeoutSeconds": 30,
              "instructions": "a", "readingInstructions": "b"},
             {"id": 8, "type": "coagulationMeter", "manufacturer": "M", "model": "Y", "disabled": false,
              "advertisedName": "Y", "requiresPairing": false, "options": 0, "connectionTimeoutSeconds": 30,
              "readingTimeoutSeconds": 30, "instructions": "a", "readingInstructions": "b", "requiresLicensedKit": true}]
            """
        let entries = try JSONDecoder().decode([BLEPeripheral].self, from: Data(json.utf8))
        XCTAssertEqual(entries.map(\.requiresLicensedKit), [false, true])
        XCTAssertNil(entries[0].characteristic)
    }

    func testWhatVitalSnapCanRead() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        let support = Dictionary(uniqueKeysWithValues: catalog.peripherals.map { ($0.id, $0.readSupport) })
        // Standard SIG measurements, and the Nonin 3230's frame.
        for id in [1, 2, 4, 12, 13, 15, 23, 24, 27, 29, 30, 31, 1000] {
            XCTAssertEqual(support[id], .supported, "\(id)")
        }
        XCTAssertEqual(support[32], .unsupported(.licensedKit))
        XCTAssertEqual(support[33], .unsupported(.licensedKit))
        XCTAssertEqual(support[51], .unsupported(.licensedKit))
        // FFF4 (3, 11), A&D's 23434101-... (14), none listed (16, 17), Welch Allyn's 8A21 and 8A91 (21, 22),
        // ChoiceMMed's CD04 (25, 26).
        for id in [3, 11, 14, 16, 17, 21, 22, 25, 26] {
            XCTAssertEqual(support[id], .unsupported(.vendorProtocolNotPublic), "\(id)")
        }
        XCTAssertEqual(BLEReadSupport.unsupported(.vendorProtocolNotPublic).description, "no (vendor protocol not public)")
        // The 12 above are all that cannot be read; the other 22 can.
        XCTAssertEqual(support.count, 34)
        XCTAssertEqual(support.values.filter(\.isSupported).count, 22)
    }
}
