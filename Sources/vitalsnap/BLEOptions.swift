import ArgumentParser
import Foundation
import VitalSnapBluetooth

/// Where BlueZ is and how long to wait: shared by `ble pair`, `ble read` and `ble passive run`.
struct BLEOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "D-Bus address of the bus BlueZ is on (default: the system bus), e.g. unix:path=/run/dbus/system_bus_socket.",
        valueName: "address"))
    var bus: String?

    @Option(help: ArgumentHelp("Seconds to find and connect to the device (default: the catalog's, per device).", valueName: "s"))
    var connectionTimeout: Double?

    @Option(help: ArgumentHelp("Seconds to wait for a value once connected (default: the catalog's, per device).", valueName: "s"))
    var readingTimeout: Double?

    mutating func validate() throws {
        for (name, value) in [("--connection-timeout", connectionTimeout), ("--reading-timeout", readingTimeout)] {
            if let value, !(value > 0 && value.isFinite) { throw ValidationError("\(name) must be a positive number of seconds") }
        }
    }

    var timings: BLETimings { BLETimings(connectionTimeout: connectionTimeout, readingTimeout: readingTimeout) }

    /// Connects to BlueZ; no bus or no BlueZ on it is "Bluetooth is off" (exit 23), as the SDK reports it.
    func controller() throws -> BLEController {
        do {
            let connection = try bus.map { try BusConnection(address: $0) } ?? BusConnection.system()
            let client = try BlueZClient(bus: connection)
            return BLEController(client: client, timings: timings)
        } catch let error as BusError {
            let why =
                switch error.remoteName {
                case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
                    "BlueZ (bluetoothd) is not running on \(bus ?? "the system bus")"
                default: error.description
                }
            throw BLEFailure(.bluetoothTurnedOff(why))
        }
    }

    /// The catalog entry for `id`, or a validation error that lists how to find one.
    static func peripheral(_ id: Int) throws -> BLEPeripheral {
        guard let peripheral = try BLEPeripheralCatalog.builtIn()[id] else {
            throw ValidationError("no Bluetooth peripheral \(id): `vitalsnap ble peripherals` lists them")
        }
        return peripheral
    }
}

/// A Bluetooth error on its way out of a command: printed as `Error: ...`, exits with its own status.
struct BLEFailure: Error, CustomStringConvertible {
    let error: BLEError
    init(_ error: BLEError) { self.error = error }
    var description: String { error.description }

    /// Prints the error (and as JSON on stdout with `json`) and returns the exit to throw.
    func exit(json: Bool) -> ExitCode {
        printError("Error: \(error.description)")
        if json {
            print(JSONText.object([
                ("status", .string("failed")), ("error", .string(error.name)), ("message", .string(error.description)),
                ("exit", .int(Int(error.exitStatus))),
            ]).render(pretty: false))
        }
        return ExitCode(error.exitStatus)
    }
}
