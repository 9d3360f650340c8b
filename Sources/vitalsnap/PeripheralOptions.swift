import ArgumentParser
import Foundation
import VitalSnapOCR

/// `--overlays DIR`: where the peripheral definitions come from.
struct CatalogOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Folder of peripheral definitions (*.json) to use instead of the built-in ones.", valueName: "dir"))
    var overlays: String?

    func catalog() throws -> PeripheralCatalog {
        do {
            if let overlays { return try PeripheralCatalog.load(from: URL(fileURLWithPath: overlays)) }
            return try PeripheralCatalog.builtIn()
        } catch {
            throw ValidationError(String(describing: error))
        }
    }
}

/// Help for `--unit`, shared by the commands that take it.
let unitHelp = ArgumentHelp(
    "Unit the display shows: mg/dL or mmol for glucose meters (default mg/dL); C or F for thermometers; kg or lb for scales.",
    valueName: "unit")

/// The peripheral and unit options shared by the reading commands.
struct PeripheralOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("OCR peripheral id (see `vitalsnap peripherals`).", valueName: "id"))
    var peripheral: Int

    @Option(help: unitHelp)
    var unit: String?

    @OptionGroup var catalogOption: CatalogOption

    mutating func validate() throws {
        _ = try resolve()
    }

    /// The peripheral definition and the unit to read in; a ValidationError naming the known ids or units.
    func resolve() throws -> ReaderSetting {
        let catalog = try catalogOption.catalog()
        do {
            return try ReaderSetting.resolve(peripheral: peripheral, unit: unit, catalog: catalog)
        } catch {
            throw ValidationError(String(describing: error))
        }
    }
}

/// An error reported as `Error: <message>` with exit status 1 (not a usage error).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to stderr (never mixed into the results on stdout).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
