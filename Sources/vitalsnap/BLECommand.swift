import ArgumentParser

/// `vitalsnap ble`: the Bluetooth LE health devices.
struct BLECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth LE health devices: the catalog, what a characteristic's value decodes to, and licensed-kit keys.",
        subcommands: [BLEPeripheralsCommand.self, BLEDecodeCommand.self, BLEStoreKeyCommand.self])
}
