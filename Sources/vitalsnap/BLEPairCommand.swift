import ArgumentParser
import Foundation
import VitalSnapBluetooth

/// `vitalsnap ble pair ID`: pairs a device that must be paired before it can be read.
struct BLEPairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair a Bluetooth peripheral (those the catalog marks 'pairing: required').",
        discussion: """
            Prints the device's pairing instructions, looks for it (within its connection timeout), connects and \
            pairs. Meters that ask for a PIN or passkey (Nipro: digits of the serial number; Accu-Chek: the PIN \
            on the back) get --pin, or are asked for it on the terminal.

            Exit status: 0 paired, 20 communication failure, 21 connection failure, 22 pairing failure (wrong or \
            missing PIN), 23 Bluetooth off or BlueZ not running, 26 not found or not connected in time, 28 a \
            device VitalSnap cannot read, 29 another Bluetooth operation is running.

            Examples:
              vitalsnap ble pair 30
              vitalsnap ble pair 15 --pin 123456
            """)

    @Argument(help: "The peripheral's id (see `vitalsnap ble peripherals`).") var id: Int
    @Option(help: ArgumentHelp("The PIN or passkey the device asks for.", valueName: "digits")) var pin: String?
    @OptionGroup var ble: BLEOptions
    @OptionGroup var state: StateOptions

    func run() throws {
        state.bootstrapLogging()
        let peripheral = try BLEOptions.peripheral(id)
        printError("\(peripheral.name) (peripheral \(peripheral.id)): \(peripheral.pairingInstructions ?? peripheral.instructions)")
        let pin = self.pin
        let agent = PairingAgent { _, request in
            if let pin { return pin }
            guard isatty(STDIN_FILENO) != 0 else { return nil }
            FileHandle.standardError.write(Data("Enter the \(request == .passkey ? "passkey" : "PIN") shown or printed on the device: ".utf8))
            return readLine()?.trimmingCharacters(in: .whitespaces)
        }
        do {
            let controller = try ble.controller()
            controller.onEvent = { event in BLEEventText.print(event) }
            let device = try controller.pair(peripheral, agent: agent)
            print("paired \(peripheral.name) \(device.address)")
        } catch let failure as BLEFailure {
            throw failure.exit(json: false)
        } catch let error as BLEError {
            throw BLEFailure(error).exit(json: false)
        }
    }
}

/// The controller's progress as lines on stderr.
enum BLEEventText {
    static func print(_ event: BLEControllerEvent) {
        switch event {
        case .readyToRead: printError("looking for the device…")
        case .found(let address, let name): printError("found \(name) \(address)")
        case .connected(let address): printError("connected to \(address)")
        case .paired(let address): printError("paired with \(address)")
        case .received(let count): printError("received \(count) value\(count == 1 ? "" : "s")")
        }
    }
}
