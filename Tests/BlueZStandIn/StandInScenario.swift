import Foundation

/// Scenarios for the stand-in BlueZ (see Tests/Fixtures/bluez/README.md): an adapter and devices that advertise,
/// answer and fail as told, and payloads encoded by hand from the Bluetooth SIG layouts.
public enum StandInScenario {
    public static func scenario(powered: Bool = true, devices: [[String: Any]]) -> [String: Any] {
        ["adapter": ["powered": powered, "address": "00:1A:7D:DA:71:13"], "devices": devices]
    }

    /// A SIG glucose meter (service 1808) with its RACP and stored records (measurement hex, context hex).
    public static func glucoseMeter(
        address: String = "00:09:1F:80:00:01", name: String = "meter+06123456", records: [(String, String)],
        pairing: Any = "none", paired: Bool = false, faults: [String: Any] = [:]
    ) -> [String: Any] {
        [
            "address": address, "name": name, "advertising": true, "advertised_uuids": ["1808"], "pairing": pairing,
            "paired": paired,
            "services": [[
                "uuid": "1808",
                "characteristics": [
                    ["uuid": "2A18", "flags": ["notify"]], ["uuid": "2A34", "flags": ["notify"]],
                    ["uuid": "2A52", "flags": ["write", "indicate"], "racp": true],
                ],
            ]],
            "stored_records": records.map { ["measurement": $0.0, "context": $0.1] },
            "faults": faults,
        ]
    }

    /// A device that indicates `payloads` on `characteristic` of `service` once notifications are on.
    public static func indicatingDevice(
        address: String, name: String, service: String, characteristic: String, payloads: [String],
        extraCharacteristics: [[String: Any]] = [], pairing: Any = "none", paired: Bool = false, faults: [String: Any] = [:]
    ) -> [String: Any] {
        [
            "address": address, "name": name, "advertising": true, "advertised_uuids": [service], "pairing": pairing,
            "paired": paired,
            "services": [[
                "uuid": service,
                "characteristics": [["uuid": characteristic, "flags": ["indicate"], "on_subscribe": payloads]] + extraCharacteristics,
            ]],
            "faults": faults,
        ]
    }

    // MARK: - Payloads

    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// A date-time characteristic field: year (LE), month, day, hours, minutes, seconds.
    public static func dateTime(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> [UInt8] {
        le16(y) + [UInt8(mo), UInt8(d), UInt8(h), UInt8(mi), UInt8(s)]
    }

    /// SFLOAT with exponent `exponent` (−8...7) and mantissa (−2048...2047).
    public static func sfloat(mantissa: Int, exponent: Int) -> [UInt8] {
        le16(((exponent & 0xF) << 12) | (mantissa & 0x0FFF))
    }

    /// Glucose measurement (2A18) in kg/L with type capillary whole blood at the finger; `mgPerDL` as
    /// mantissa × 10^-5 kg/L (120 mg/dL = 12 × 10^-4 kg/L).
    public static func glucose(sequence: Int, mgPerDL: Int, at time: [UInt8], contextFollows: Bool = false, status: Int? = nil) -> String {
        var flags: UInt8 = 0x02
        if status != nil { flags |= 0x08 }
        if contextFollows { flags |= 0x10 }
        var bytes = [flags] + le16(sequence) + time + sfloat(mantissa: mgPerDL, exponent: -5) + [0x11]
        if let status { bytes += le16(status) }
        return hex(bytes)
    }

    /// Glucose context (2A34) with only a meal: 1 preprandial, 2 postprandial, 3 fasting.
    public static func glucoseContext(sequence: Int, meal: Int) -> String {
        hex([0x02] + le16(sequence) + [UInt8(meal)])
    }

    /// Blood pressure (2A35) in mmHg with a time stamp and pulse.
    public static func bloodPressure(systolic: Int, diastolic: Int, pulse: Int, at time: [UInt8]) -> String {
        let mean = (systolic + 2 * diastolic) / 3
        return hex([0x06] + sfloat(mantissa: systolic, exponent: 0) + sfloat(mantissa: diastolic, exponent: 0)
            + sfloat(mantissa: mean, exponent: 0) + time + sfloat(mantissa: pulse, exponent: 0))
    }

    /// Temperature (2A1C) in °C as FLOAT with one decimal (366 → 36.6).
    public static func temperature(tenths: Int) -> String {
        hex([0x00, UInt8(tenths & 0xFF), UInt8((tenths >> 8) & 0xFF), UInt8((tenths >> 16) & 0xFF), 0xFF])
    }

    /// Weight (2A9D) in kg at the 0.005 kg resolution of a scale that names none.
    public static func weight(grams: Int) -> String {
        hex([0x00] + le16(grams / 5))
    }
}
