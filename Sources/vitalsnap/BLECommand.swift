import ArgumentParser

/// `vitalsnap ble`: the Bluetooth LE health devices.
struct BLECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth LE health devices: the catalog, pairing, reading (also passively), decoding values, licensed-kit keys.",
        subcommands: [
            BLEPeripheralsCommand.self, BLEPairCommand.self, BLEReadCommand.self, BLEPassiveCommand.self, BLEDecodeCommand.self,
            BLEStoreKeyCommand.self,
        ])
}
