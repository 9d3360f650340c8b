import ArgumentParser
import Foundation
import VitalSnapBluetooth

/// `vitalsnap ble store-key --peripheral-uuid U KEY`: keeps a meter's own key (Roche CoaguChek) for reading it with
/// the vendor's licensed kit.
struct BLEStoreKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-key",
        abstract: "Store the key of a meter read with its vendor's licensed kit (Roche CoaguChek INRange).",
        discussion: """
            Each CoaguChek meter has its own key, 32 hexadecimal digits, which Roche's licensed kit needs to \
            read it. The key is kept under the meter's peripheral UUID in ble-keys.json in the data directory, \
            readable by you alone (mode 0600); storing a key for the same UUID again replaces it. Give - for KEY \
            to read the key from standard input, which keeps it out of the shell's history. AgaMatrix and CVS \
            Health meters use one key per vendor instead, in agamatrix-authkey.json and cvshealth-authkey.json \
            ({"key": "<hex digits>"}) in the same directory.

            Exit status: 0 when the key is stored, 64 when the key or the UUID is not valid, 1 when it cannot be \
            written.

            Examples:
              vitalsnap ble store-key --peripheral-uuid \\
                  6F1C2B9E-5D4A-4E7B-9C1D-2A6B8E0F4D13 00112233445566778899AABBCCDDEEFF
              vitalsnap ble store-key --peripheral-uuid \\
                  6F1C2B9E-5D4A-4E7B-9C1D-2A6B8E0F4D13 - < coaguchek.key
            """)

    @Option(help: ArgumentHelp("The meter's peripheral UUID (8-4-4-4-12 hexadecimal digits).", valueName: "uuid"))
    var peripheralUUID: String
    @Argument(help: ArgumentHelp(
        "The meter's key: \(BLEDeviceSecrets.peripheralKeyDigits) hexadecimal digits, or - to read it from standard input.",
        valueName: "key"))
    var key: String
    @OptionGroup var state: StateOptions

    /// KEY's value that reads the key from standard input.
    static let standardInput = "-"

    func validate() throws {
        do {
            _ = try BLEDeviceSecrets.checkedUUID(peripheralUUID)
            if key != Self.standardInput { try BLEDeviceSecrets.checkPeripheralKey(key) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        state.bootstrapLogging()
        let text = key == Self.standardInput ? (readLine() ?? "").trimmingCharacters(in: .whitespaces) : key
        let secrets = BLEDeviceSecrets(directory: state.directory)
        do {
            try secrets.store(key: text, forPeripheralUUID: peripheralUUID)
        } catch {
            switch error {
            case .badKey, .badPeripheralUUID: throw ValidationError(error.description)
            default: throw CommandFailure(error.description)
            }
        }
        print("stored the key of meter \(try BLEDeviceSecrets.checkedUUID(peripheralUUID)) in \(secrets.storedKeysPath)")
    }
}
