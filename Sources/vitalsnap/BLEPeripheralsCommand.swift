import ArgumentParser
import VitalSnapBluetooth

/// `vitalsnap ble peripherals`: the Bluetooth devices VitalSnap knows.
struct BLEPeripheralsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peripherals",
        abstract: "List the Bluetooth peripherals VitalSnap knows, with how to pair and read each.",
        discussion: """
            One block per device: id, name, type, whether VitalSnap can read it (and why not: a vendor \
            protocol that is not public, or one that needs the vendor's licensed kit and key), whether it must \
            be paired, and what to do to make it visible, to pair it and while it is read. Disabled devices are \
            marked. --json prints the catalog's entries (advertised-name pattern, services, characteristic, \
            timeouts, readable and why not) as a JSON array.

            Examples:
              vitalsnap ble peripherals
              vitalsnap ble peripherals --type glucoseMeter
              vitalsnap ble peripherals --json | jq '.[] | select(.requiresPairing) | .id'
              vitalsnap ble peripherals --json | jq '.[] | select(.readable) | .id'
            """)

    @Option(help: ArgumentHelp(
        "Only this type: \(BLEPeripheralType.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "type"))
    var type: String?
    @Flag(help: "Print the entries as a JSON array.") var json = false

    func validate() throws {
        if let type, BLEPeripheralType(rawValue: type) == nil {
            throw ValidationError(
                "--type \(type) is not one of \(BLEPeripheralType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let catalog = try BLEPeripheralCatalog.builtIn()
        let chosen = type.flatMap(BLEPeripheralType.init(rawValue:)).map(catalog.peripherals(of:)) ?? catalog.peripherals
        if json {
            print(JSONText.array(chosen.map(Self.json)).render(pretty: true))
            return
        }
        for (index, p) in chosen.enumerated() {
            if index > 0 { print("") }
            print("\(p.id)  \(p.name) (\(p.type))\(p.disabled ? "  [disabled]" : "")")
            print("    VitalSnap reads it: \(p.readSupport)")
            // A licensed-kit meter's pairing is the kit's business, and not known here.
            if !p.requiresLicensedKit { print("    pairing: \(p.requiresPairing ? "required" : "not needed")") }
            print("    to start: \(p.instructions)")
            if let pairing = p.pairingInstructions { print("    to pair: \(pairing)") }
            print("    while reading: \(p.readingInstructions)")
        }
    }

    static func json(_ p: BLEPeripheral) -> JSONText {
        .object([
            ("id", .int(p.id)), ("type", .string(p.type.rawValue)), ("manufacturer", .string(p.manufacturer)),
            ("model", .string(p.model)), ("disabled", .bool(p.disabled)), ("advertisedName", .string(p.advertisedName)),
            ("advertisedService", .optional(p.advertisedService)), ("readingService", .optional(p.readingService)),
            ("characteristic", .optional(p.characteristic)), ("requiresPairing", .bool(p.requiresPairing)),
            ("connectionTimeoutSeconds", .int(p.connectionTimeoutSeconds)), ("readingTimeoutSeconds", .int(p.readingTimeoutSeconds)),
            ("instructions", .string(p.instructions)), ("pairingInstructions", .optional(p.pairingInstructions)),
            ("readingInstructions", .string(p.readingInstructions)), ("requiresLicensedKit", .bool(p.requiresLicensedKit)),
            ("readable", .bool(p.readSupport.isSupported)), ("unreadableReason", unreadableReason(p.readSupport)),
        ])
    }

    static func unreadableReason(_ support: BLEReadSupport) -> JSONText {
        guard case .unsupported(let reason) = support else { return .null }
        return .string(reason.description)
    }
}
